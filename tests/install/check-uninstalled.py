#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check-uninstalled.py BUILD_ROOT SOURCE_ROOT WORK_DIR CC...

A program may be built against a build tree, not installed, with
PKG_CONFIG_PATH=BUILD_ROOT/meson-uninstalled (pkg-config then reads
lfht-urcu-memb-uninstalled.pc for lfht-urcu-memb). Checks that those files
carry the compatibility layer's include directory: builds
tests/install/urcu_prog.c, a liburcu program, with only `pkg-config
--cflags --libs lfht-urcu-memb` (and lfht-urcu-qsbr with -DPROG_QSBR,
lfht-urcu-bp with -DPROG_BP, lfht-urcu-mb with -DPROG_MB; and by
liburcu's own names, `pkg-config liburcu liburcu-cds` (liburcu-qsbr,
liburcu-bp, liburcu-mb) from BUILD_ROOT/compat/pkgconfig alone), asks the
compiler (-MD) which headers it read, and fails unless <urcu.h>
(<urcu-qsbr.h>, <urcu-bp.h>, <urcu/urcu-mb.h>),
<urcu/rculfhash.h> and <urcu/uatomic.h> came from
SOURCE_ROOT/compat/include and no header from liburcu-dev's directory;
then runs it against the build tree's libraries (not liburcu's). Offline.
"""
import os
import pathlib
import shutil
import sys

from consumer_checks import headers_read, is_liburcu_dev_header, ldd_without_liburcu, report, run


def main():
    build = pathlib.Path(sys.argv[1]).resolve()
    source = pathlib.Path(sys.argv[2]).resolve()
    work = pathlib.Path(sys.argv[3]).resolve()
    cc = sys.argv[4:] or ['cc']
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    compat = source / 'compat/include'

    env = dict(os.environ)
    env['PKG_CONFIG_PATH'] = str(build / 'meson-uninstalled')
    env.pop('PKG_CONFIG_SYSROOT_DIR', None)
    env.pop('PKG_CONFIG_DISABLE_UNINSTALLED', None)
    prog = source / 'tests/install/urcu_prog.c'
    strict = ['-std=c11', '-Wall', '-Wextra', '-Werror']
    errors = []
    # liburcu's own names, from BUILD_ROOT/compat/pkgconfig alone.
    names_env = dict(env, PKG_CONFIG_LIBDIR=str(build / 'compat/pkgconfig'))
    names_env.pop('PKG_CONFIG_PATH')
    for pc, define, top, pc_env in [
            ('lfht-urcu-memb', [], 'urcu.h', env),
            ('lfht-urcu-qsbr', ['-DPROG_QSBR'], 'urcu-qsbr.h', env),
            ('lfht-urcu-bp', ['-DPROG_BP'], 'urcu-bp.h', env),
            ('lfht-urcu-mb', ['-DPROG_MB'], 'urcu/urcu-mb.h', env),
            ('liburcu liburcu-cds', [], 'urcu.h', names_env),
            ('liburcu-qsbr liburcu-cds', ['-DPROG_QSBR'], 'urcu-qsbr.h', names_env),
            ('liburcu-bp liburcu-cds', ['-DPROG_BP'], 'urcu-bp.h', names_env),
            ('liburcu-mb liburcu-cds', ['-DPROG_MB'], 'urcu/urcu-mb.h', names_env)]:
        first = pc.split()[0]
        if pc_env is env and not (build / 'meson-uninstalled' / f'{pc}-uninstalled.pc').exists():
            errors.append(f'{pc}-uninstalled.pc: not in {build / "meson-uninstalled"}')
            continue
        if pc_env is names_env and not (build / 'compat/pkgconfig' / f'{first}.pc').exists():
            errors.append(f'{first}.pc: not in {build / "compat/pkgconfig"}')
            continue
        flags = run(['pkg-config', '--cflags', '--libs'] + pc.split(), env=pc_env).split()
        pc = pc.replace(' ', '+')
        if f'-I{compat}' not in flags:
            errors.append(f'{pc}: uninstalled Cflags lack -I{compat}: {flags}')
        exe = work / f'urcu-prog-{pc}'
        dep = work / f'urcu-prog-{pc}.d'
        run(cc + strict + define + ['-MD', '-MF', dep, prog, '-o', exe] + flags)
        read = headers_read(dep)
        for h in [top, 'urcu/rculfhash.h', 'urcu/uatomic.h']:
            want = compat / h
            if want not in read:
                errors.append(f'{exe.name}: did not read {want}')
        for h in read:
            if is_liburcu_dev_header(h):
                errors.append(f'{exe.name}: read liburcu-dev\'s {h}')
        libdirs = [f[2:] for f in flags if f.startswith('-L')]
        env_run = dict(env, LD_LIBRARY_PATH=':'.join(libdirs))
        ldd = ldd_without_liburcu(exe, env_run, errors)
        # (A static-only build links liblfht.a: no line.)
        for line in (l for l in ldd.splitlines() if 'liblfht.so' in l):
            if str(build) not in line:
                errors.append(f'{exe.name}: liblfht not loaded from the build tree: {line!r}')
        print(run([exe], env=env_run).strip())
    return report(errors)


if __name__ == '__main__':
    sys.exit(main())
