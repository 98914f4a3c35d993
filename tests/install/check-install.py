#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check-install.py BUILD_ROOT SOURCE_ROOT WORK_DIR MAN_PAGES(yes|no) CC...

Installs the build into WORK_DIR/destdir (meson install --destdir, no
rebuild), checks that the headers, the shared and static libraries, the
.pc files and (when MAN_PAGES is yes) every page of docs/man landed, then
builds tests/install/prog.c out of tree with only
`pkg-config --cflags --libs lfht rcu-qsbr` (and rcu-memb, rcu-bp, rcu-mb; PKG_CONFIG_PATH
and PKG_CONFIG_SYSROOT_DIR point into the destdir) and runs it with
LD_LIBRARY_PATH, checking it loaded the installed libraries; then links it
statically (pkg-config --static) and runs that. Likewise builds
tests/install/urcu_prog.c, a liburcu program, with only `pkg-config
--cflags --libs lfht-urcu-memb` (and lfht-urcu-qsbr, lfht-urcu-bp, lfht-urcu-mb), checking that the
Cflags name $includedir/lfht-urcu (an -I directory, searched before the
system directory of liburcu-dev's headers) and that it does not link
liburcu, and runs it. Offline; no root needed.
"""
import json
import os
import pathlib
import shutil
import sys

from consumer_checks import ldd_without_liburcu, report, run


def main():
    build = pathlib.Path(sys.argv[1]).resolve()
    source = pathlib.Path(sys.argv[2]).resolve()
    work = pathlib.Path(sys.argv[3]).resolve()
    man_pages = sys.argv[4] == 'yes'
    cc = sys.argv[5:] or ['cc']
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    destdir = work / 'destdir'

    options = {o['name']: o['value'] for o in json.loads(
        run(['meson', 'introspect', '--buildoptions', build]))}
    prefix = pathlib.Path(options['prefix'])
    def inst(key):
        p = pathlib.Path(options[key])
        return destdir / (prefix / p).relative_to('/')
    libdir, includedir, mandir = inst('libdir'), inst('includedir'), inst('mandir')
    kinds = options['default_library']

    run(['meson', 'install', '-C', build, '--no-rebuild', '--quiet', '--destdir', destdir])

    errors = []
    def want(path):
        if not path.exists():
            errors.append(f'not installed: {path.relative_to(destdir)}')
    for h in ['lfht/lfht.h', 'lfht/lfht-exports.h', 'lfht/lfht-inline.h', 'lfht/lfht-word.h',
              'lfht/extensions.h', 'rcu/qsbr.h', 'rcu/memb.h',
              'rcu/bp.h', 'rcu/mb.h', 'rcu/qsbr-prefixed.h', 'rcu/memb-prefixed.h',
              'rcu/bp-prefixed.h', 'rcu/mb-prefixed.h', 'rcu/flavour.h', 'rcu/flavour-api.h', 'rcu/atomic.h', 'rcu/pointer.h', 'rcu/reader.h']:
        want(includedir / h)
    rcuds = source / 'ds/include'
    for h in sorted(rcuds.rglob('*.h')):
        want(includedir / h.relative_to(rcuds))
    want(libdir / 'pkgconfig' / 'rcuds.pc')
    compat = source / 'compat/include'
    for h in sorted(compat.rglob('*.h')):
        want(includedir / 'lfht-urcu' / h.relative_to(compat))
    for pc in ['lfht-urcu-memb', 'lfht-urcu-qsbr', 'lfht-urcu-bp', 'lfht-urcu-mb']:
        want(libdir / 'pkgconfig' / f'{pc}.pc')
    for lib in ['lfht', 'rcu-qsbr', 'rcu-memb', 'rcu-bp', 'rcu-mb']:
        want(libdir / 'pkgconfig' / f'{lib}.pc')
        if kinds in ('shared', 'both'):
            want(libdir / f'lib{lib}.so')
            if not list(libdir.glob(f'lib{lib}.so.*')):
                errors.append(f'not installed: lib{lib}.so.<version>')
        if kinds in ('static', 'both'):
            want(libdir / f'lib{lib}.a')
    if man_pages:
        pages = sorted(p.name for p in (source / 'docs/man').glob('*.3'))
        for page in pages:
            want(mandir / 'man3' / page)
        print(f'check-install.py: {len(pages)} man pages expected')
    if errors:
        return report(errors)

    env = dict(os.environ)
    env['PKG_CONFIG_PATH'] = str(libdir / 'pkgconfig')
    env['PKG_CONFIG_SYSROOT_DIR'] = str(destdir)
    env.pop('PKG_CONFIG_LIBDIR', None)
    prog = source / 'tests/install/prog.c'
    strict = ['-std=c11', '-Wall', '-Wextra', '-Werror']
    for flavour, define in [('rcu-qsbr', []), ('rcu-memb', ['-DPROG_MEMB']),
                            ('rcu-bp', ['-DPROG_BP']), ('rcu-mb', ['-DPROG_MB'])]:
        if kinds not in ('shared', 'both'):
            break
        flags = run(['pkg-config', '--cflags', '--libs', 'lfht', flavour], env=env).split()
        exe = work / f'prog-{flavour}'
        run(cc + strict + define + [prog, '-o', exe] + flags)
        env_run = dict(env, LD_LIBRARY_PATH=str(libdir))
        ldd = run(['ldd', exe], env=env_run)
        for lib in ['liblfht.so', f'lib{flavour}.so']:
            line = next((l for l in ldd.splitlines() if lib in l), '')
            if str(destdir) not in line:
                errors.append(f'{exe.name}: {lib} not loaded from the destdir: {line.strip()!r}')
        print(run([exe], env=env_run).strip())
    # A liburcu program, unchanged, through the compatibility layer.
    urcu_prog = source / 'tests/install/urcu_prog.c'
    for pc, define in [('lfht-urcu-memb', []), ('lfht-urcu-qsbr', ['-DPROG_QSBR']),
                       ('lfht-urcu-bp', ['-DPROG_BP']), ('lfht-urcu-mb', ['-DPROG_MB'])]:
        if kinds not in ('shared', 'both'):
            break
        flags = run(['pkg-config', '--cflags', '--libs', pc], env=env).split()
        compat_dir = f'-I{includedir / "lfht-urcu"}'
        if compat_dir not in flags:
            errors.append(f'{pc}: Cflags lack {compat_dir}: {flags}')
        exe = work / f'urcu-prog-{pc}'
        run(cc + strict + define + [urcu_prog, '-o', exe] + flags)
        env_run = dict(env, LD_LIBRARY_PATH=str(libdir))
        ldd_without_liburcu(exe, env_run, errors)
        print(run([exe], env=env_run).strip())
    if kinds in ('static', 'both'):
        flags = run(['pkg-config', '--static', '--cflags', '--libs', 'lfht', 'rcu-qsbr'],
                    env=env).split()
        exe = work / 'prog-static'
        run(cc + strict + [prog, '-o', exe, '-static'] + flags)
        dyn = run(['readelf', '-d', exe])
        if 'NEEDED' in dyn:
            errors.append(f'{exe.name}: not a static executable')
        print(run([exe], env=env).strip())
    return report(errors)


if __name__ == '__main__':
    sys.exit(main())
