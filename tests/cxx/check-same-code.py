#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check-same-code.py --cc CC --cxx CXX -I DIR... SOURCE DEFINE...

The inline fast paths cost the same from C++ as from C: compiles SOURCE
with -O2 as C11 (CC) and as C++17 (CXX, -x c++), once per DEFINE, and
compares the instructions of the two assembly listings (directives,
labels and comments dropped, local label numbers normalised, static
functions called by their C names). Exits 77,
a meson skip, when either compiler is missing.
"""
import argparse
import itertools
import re
import shutil
import subprocess
import sys


def unmangle_static(line):
    """A static function's C++ name (_ZL<len><name><parameters>) as C's."""
    def plain(m):
        n = int(m.group(1))
        return m.group(2)[:n]
    return re.sub(r'_ZL(\d+)(\w+)', plain, line)


def instructions(asm):
    out = []
    for line in asm.splitlines():
        line = line.split('#')[0].strip()
        if not line or line.startswith('.') or line.endswith(':'):
            continue
        out.append(unmangle_static(re.sub(r'\.L\w+', '.L', line)))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--cc', required=True)
    ap.add_argument('--cxx', required=True)
    ap.add_argument('-I', dest='includes', action='append', default=[])
    ap.add_argument('source')
    ap.add_argument('defines', nargs='+')
    args = ap.parse_args()
    for tool in (args.cc, args.cxx):
        if shutil.which(tool) is None:
            print(f'{tool} not found: the C/C++ fast-path comparison is skipped')
            return 77
    inc = [f'-I{d}' for d in args.includes]
    failed = 0
    for define in args.defines:
        listings = []
        for cmd in ([args.cc, '-std=c11'], [args.cxx, '-std=c++17', '-x', 'c++']):
            r = subprocess.run(cmd + ['-O2', f'-D{define}', '-S', '-o', '-'] + inc + [args.source],
                               capture_output=True, text=True)
            if r.returncode != 0:
                print(r.stderr)
                return 1
            listings.append(instructions(r.stdout))
        c, cxx = listings
        if c != cxx or not c:
            failed += 1
            print(f'DIFFERENT -D{define}: {len(c)} instructions from C, {len(cxx)} from C++')
            for a, b in itertools.zip_longest(c, cxx, fillvalue=''):
                print(f'  {a:40} | {b}')
        else:
            print(f'same -D{define}: {len(c)} instructions ({args.cc} / {args.cxx})')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
