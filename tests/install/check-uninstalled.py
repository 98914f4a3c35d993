#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check-uninstalled.py BUILD_ROOT SOURCE_ROOT WORK_DIR CC...

A program may be built against a build tree, not installed, with
PKG_CONFIG_PATH=BUILD_ROOT/meson-uninstalled (pkg-config then reads
lfht-urcu-memb-uninstalled.pc for lfht-urcu-memb). Checks that those files
carry the compatibility layer's include directory: builds
tests/install/urcu_prog.c, a liburcu program, with only `pkg-config
--cflags --libs lfht-urcu-memb` (and lfht-urcu-qsbr with -DPROG_QSBR,
lfht-urcu-bp with -DPROG_BP, lfht-urcu-mb with -DPROG_MB), asks the
compiler (-MD) which headers it read, and fails unless <urcu.h>
(<urcu-qsbr.h>, <urcu-bp.h>, <urcu/urcu-mb.h>),
<urcu/rculfhash.h> and <urcu/uatomic.h> came from
SOURCE_ROOT/compat/include and no header from liburcu-dev's directory;
then runs it against the build tree's libraries (not liburcu's). Offline.
"""
import os
import pathlib
import re
import shutil
import sys

from consumer_checks import ldd_without_liburcu, report, run


def headers_read(depfile):
    """The headers a make-style dependency file lists, resolved."""
    text = depfile.read_text().replace('\\\n', ' ')
    files = text.split(':', 1)[1].split()
    return [pathlib.Path(f).resolve() for f in files if f.endswith('.h')]


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
    for pc, define, top in [('lfht-urcu-memb', [], 'urcu.h'),
                            ('lfht-urcu-qsbr', ['-DPROG_QSBR'], 'urcu-qsbr.h'),
                            ('lfht-urcu-bp', ['-DPROG_BP'], 'urcu-bp.h'),
                            ('lfht-urcu-mb', ['-DPROG_MB'], 'urcu/urcu-mb.h')]:
        if not (build / 'meson-uninstalled' / f'{pc}-uninstalled.pc').exists():
            errors.append(f'{pc}-uninstalled.pc: not in {build / "meson-uninstalled"}')
            continue
        flags = run(['pkg-config', '--cflags', '--libs', pc], env=env).split()
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
            # liburcu-dev's files: /usr/include/urcu*, or (Debian)
            # /usr/include/<triplet>/urcu*.
            if re.fullmatch(r'/usr/include/([^/]+-linux-gnu[^/]*/)?urcu([^/]*\.h|/.*)', str(h)):
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
