#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check-urcu-names.py BUILD_ROOT SOURCE_ROOT WORK_DIR VERSION CC...

liburcu's own names, as a liburcu user's build meets them: installs the
build into WORK_DIR/destdir (meson install --destdir, no rebuild), checks
that $libdir/lfht-urcu/pkgconfig holds liburcu.pc, liburcu-memb.pc,
liburcu-qsbr.pc, liburcu-bp.pc, liburcu-mb.pc and liburcu-cds.pc, each at
VERSION, and $libdir/lfht-urcu the link names liburcu{,-memb,-qsbr,-bp,
-mb,-cds,-common}; then, with pkg-config's search path that directory
alone (PKG_CONFIG_LIBDIR and PKG_CONFIG_PATH: liburcu-dev's own .pc files
are out of reach), builds tests/install/urcu_prog.c for memb (liburcu
liburcu-cds) and QSBR (liburcu-qsbr) with the projects of
tests/install/urcu-names/:
  autotools  PKG_CHECK_MODULES (autoreconf, configure, make)
  meson      dependency('liburcu') ...
  cmake      pkg_check_modules(... IMPORTED_TARGET ...)
  make       a hand-written Makefile: -L$libdir/lfht-urcu -lurcu-qsbr
             -lurcu-cds -lurcu-common
For each: the compiler's dependency output must show the layer's <urcu.h>
(<urcu-qsbr.h>) and <urcu/rculfhash.h> read from the install, and no
liburcu-dev header; the programs must link no liburcu (ldd) and run.
A project whose tool is missing (autoreconf, cmake) is skipped with a
message (tools/bootstrap.sh installs them); meson and make always run.
Offline; no root needed.
"""
import json
import os
import pathlib
import shutil
import sys

from consumer_checks import (headers_read, is_liburcu_dev_header, ldd_without_liburcu,
                             report, run)

PC_NAMES = ['liburcu', 'liburcu-memb', 'liburcu-qsbr', 'liburcu-bp', 'liburcu-mb', 'liburcu-cds']
LINK_NAMES = PC_NAMES + ['liburcu-common']
# program: (the flavour header it includes, what it runs as)
PROGRAMS = {'urcu-prog': 'urcu.h', 'urcu-prog-qsbr': 'urcu-qsbr.h'}


def ninja_deps(build_dir):
    """The headers ninja recorded for every object of build_dir."""
    out = run(['ninja', '-C', build_dir, '-t', 'deps'])
    return [pathlib.Path(l.strip()).resolve() for l in out.splitlines()
            if l.startswith((' ', '\t')) and l.strip().endswith('.h')]


def make_deps(tree):
    """The headers of every gcc dependency file under tree (automake's
    .deps/*.Po, CMake's *.o.d, the Makefile's *.d)."""
    read = []
    for f in tree.rglob('*'):
        if f.is_file() and f.suffix in ('.d', '.Po'):
            read += headers_read(f)
    return read


def main():
    build = pathlib.Path(sys.argv[1]).resolve()
    source = pathlib.Path(sys.argv[2]).resolve()
    work = pathlib.Path(sys.argv[3]).resolve()
    version = sys.argv[4]
    cc = sys.argv[5:] or ['cc']
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    destdir = work / 'destdir'

    options = {o['name']: o['value'] for o in json.loads(
        run(['meson', 'introspect', '--buildoptions', build]))}
    prefix = pathlib.Path(options['prefix'])
    def inst(key):
        return destdir / (prefix / options[key]).relative_to('/')
    libdir, includedir = inst('libdir'), inst('includedir')
    kinds = options['default_library']
    run(['meson', 'install', '-C', build, '--no-rebuild', '--quiet', '--destdir', destdir])

    errors = []
    names_dir = libdir / 'lfht-urcu'
    pc_dir = names_dir / 'pkgconfig'
    for name in PC_NAMES:
        if not (pc_dir / f'{name}.pc').is_file():
            errors.append(f'not installed: {pc_dir / name}.pc')
    exts = {'shared': ['.so'], 'static': ['.a'], 'both': ['.so', '.a']}[kinds]
    for name in LINK_NAMES:
        for ext in exts:
            if not (names_dir / f'{name}{ext}').exists():
                errors.append(f'not installed (or a dangling link): {names_dir / name}{ext}')
    if errors:
        return report(errors)

    env = dict(os.environ)
    env['PKG_CONFIG_LIBDIR'] = env['PKG_CONFIG_PATH'] = str(pc_dir)
    env['PKG_CONFIG_SYSROOT_DIR'] = str(destdir)
    env['CC'] = ' '.join(cc)
    for name in PC_NAMES:
        got = run(['pkg-config', '--modversion', name], env=env).strip()
        if got != version:
            errors.append(f'{name}: version {got}, want {version}')
    run(['pkg-config', '--atleast-version=0.13.0', 'liburcu'], env=env)

    layer = includedir / 'lfht-urcu'
    fixtures = source / 'tests/install/urcu-names'
    skipped = []

    def autotools(proj):
        run(['autoreconf', '-fi'], env=env)
        out = run([proj / 'configure'], env=env)
        if f'checking the liburcu version... {version}' not in out:
            errors.append(f'autotools: configure did not report liburcu {version}')
        run(['make', '-j2'], env=env)
        return proj, make_deps(proj)

    def meson_project(proj):
        run(['meson', 'setup', proj / 'build', proj], env=env)
        run(['ninja', '-C', proj / 'build'], env=env)
        return proj / 'build', ninja_deps(proj / 'build')

    def cmake(proj):
        run(['cmake', '-S', proj, '-B', proj / 'build', f'-DCMAKE_C_COMPILER={cc[0]}'], env=env)
        run(['cmake', '--build', proj / 'build', '-j', '2'], env=env)
        return proj / 'build', make_deps(proj / 'build')

    def makefile(proj):
        run(['make', f'CPPFLAGS=-I{layer} -I{includedir}', f'LDFLAGS=-L{names_dir}'], env=env)
        return proj, make_deps(proj)

    for name, needs, build_it in [('autotools', ['autoreconf', 'automake'], autotools),
                                  ('meson', ['meson', 'ninja'], meson_project),
                                  ('cmake', ['cmake'], cmake),
                                  ('make', ['make'], makefile)]:
        missing = [t for t in needs if shutil.which(t) is None]
        if missing:
            skipped.append(f'{name} ({", ".join(missing)} not found: run tools/bootstrap.sh)')
            continue
        proj = work / name
        shutil.copytree(fixtures / name, proj)
        shutil.copy(source / 'tests/install/urcu_prog.c', proj)
        os.chdir(proj)
        out_dir, read = build_it(proj)
        for h in read:
            if is_liburcu_dev_header(h):
                errors.append(f'{name}: read liburcu-dev\'s {h}')
        for prog, top in PROGRAMS.items():
            for h in [top, 'urcu/rculfhash.h']:
                if (layer / h).resolve() not in read:
                    errors.append(f'{name}: {prog} did not read the layer\'s {layer / h}')
            exe = out_dir / prog
            env_run = dict(env, LD_LIBRARY_PATH=str(libdir))
            ldd_without_liburcu(exe, env_run, errors)
            print(f'{name}: ' + run([exe], env=env_run).strip())
    for s in skipped:
        print(f'check-urcu-names.py: skipped: {s}')
    return report(errors)


if __name__ == '__main__':
    sys.exit(main())
