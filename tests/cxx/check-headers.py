#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check-headers.py --cxx COMPILER --std STD [-I DIR]... [--tu H1,H2...]...
                    [--uses FILE:DEFINE]... [--plain-only] [--combine]

The C++ compile matrix of the installed headers, one compiler and standard
per run: each --tu is a translation unit that includes the listed headers
in order (a flavour header first, then the header under test) and is
compiled with -fsyntax-only (under --combine, the units that start with
the same flavour header make one: what is valid C++ is checked, not what
each header includes, which the runs without it check); each --uses FILE
is compiled and optimised (some warnings need the optimiser) with
-DDEFINE. Every one of them is
compiled twice, without and with RCU_DEBUG_CHECKS (the inline checks are
code C++ must accept too), or once, without, under --plain-only (the
standards between the two ends, whose runs check the debug checks), with
-Wall -Wextra -Werror. Exits 77, which meson reports as a skip, when
COMPILER is not installed.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile


def combine(tus):
    """One unit per flavour header: it, then the headers of the units that
    start with it in turn. A single-header unit stays only if no such unit
    includes its header (the flavour headers open theirs)."""
    groups = {}
    for tu in tus:
        headers = tu.split(',')
        if len(headers) > 1:
            group = groups.setdefault(headers[0], [])
            group += [h for h in headers if h not in group]
    grouped = {h for g in groups.values() for h in g}
    alone = [tu for tu in tus if ',' not in tu and tu not in grouped]
    return [','.join(g) for g in groups.values()] + alone


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--cxx', required=True)
    ap.add_argument('--std', required=True)
    ap.add_argument('-I', dest='includes', action='append', default=[])
    ap.add_argument('--tu', action='append', default=[])
    ap.add_argument('--uses', action='append', default=[])
    ap.add_argument('--plain-only', action='store_true')
    ap.add_argument('--combine', action='store_true')
    args = ap.parse_args()
    if args.combine:
        args.tu = combine(args.tu)

    cxx = shutil.which(args.cxx)
    if cxx is None:
        print(f'{args.cxx} not found: the C++ header check for it is skipped '
              '(tools/bootstrap.sh installs g++ and clang++)')
        return 77
    base = [cxx, f'-std={args.std}', '-Wall', '-Wextra', '-Werror']
    base += [f'-I{d}' for d in args.includes]

    jobs = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, tu in enumerate(args.tu):
            src = os.path.join(tmp, f'tu{i}.cc')
            with open(src, 'w') as f:
                f.writelines(f'#include <{h}>\n' for h in tu.split(','))
                f.write('int main() { return 0; }\n')
            jobs.append((tu, base + ['-fsyntax-only', src]))
        for use in args.uses:
            path, define = use.rsplit(':', 1)
            jobs.append((f'{os.path.basename(path)} -D{define}',
                         base + ['-O2', f'-D{define}', '-c', path, '-o', os.devnull]))

        variants = [[]] if args.plain_only else [[], ['-DRCU_DEBUG_CHECKS']]
        failed = 0
        for what, cmd in jobs:
            for checks in variants:
                label = f'{args.cxx} -std={args.std} {what}' + (' -DRCU_DEBUG_CHECKS' if checks else '')
                r = subprocess.run(cmd + checks, capture_output=True, text=True)
                if r.returncode != 0:
                    failed += 1
                    print(f'FAIL {label}\n{r.stdout}{r.stderr}')
                else:
                    print(f'ok   {label}')
    print(f'{len(jobs) * len(variants) - failed} of {len(jobs) * len(variants)} compiled')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
