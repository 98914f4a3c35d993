#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check-headers.py --cxx COMPILER --std STD [-I DIR]... [--tu H1,H2...]...
                    [--uses FILE:DEFINE]... [--plain-only]
                    [--combine | --checks-combined]

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
-Wall -Wextra -Werror. Under --checks-combined each --tu is compiled
alone without RCU_DEBUG_CHECKS and the combined units with it: the debug
checks include nothing (they call what their own header declares), so a
header includes what it uses in both builds or in neither, and all of
their code is in the combined units. Exits 77, which meson reports as a
skip, when COMPILER is not installed.
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
    ap.add_argument('--checks-combined', action='store_true')
    args = ap.parse_args()
    if args.combine and args.checks_combined:
        ap.error('--combine and --checks-combined exclude each other')
    plain, checks = [], ['-DRCU_DEBUG_CHECKS']
    all_variants = [plain] if args.plain_only else [plain, checks]
    # (unit, variants): each unit alone, or combined, or both halves.
    if args.checks_combined:
        units = [(tu, [plain]) for tu in args.tu] + [(tu, [checks]) for tu in combine(args.tu)]
    else:
        units = [(tu, all_variants) for tu in (combine(args.tu) if args.combine else args.tu)]

    cxx = shutil.which(args.cxx)
    if cxx is None:
        print(f'{args.cxx} not found: the C++ header check for it is skipped '
              '(tools/bootstrap.sh installs g++ and clang++)')
        return 77
    base = [cxx, f'-std={args.std}', '-Wall', '-Wextra', '-Werror']
    base += [f'-I{d}' for d in args.includes]

    jobs = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, (tu, variants) in enumerate(units):
            src = os.path.join(tmp, f'tu{i}.cc')
            with open(src, 'w') as f:
                f.writelines(f'#include <{h}>\n' for h in tu.split(','))
                f.write('int main() { return 0; }\n')
            jobs += [(tu, base + ['-fsyntax-only', src] + v) for v in variants]
        for use in args.uses:
            path, define = use.rsplit(':', 1)
            jobs += [(f'{os.path.basename(path)} -D{define}',
                      base + ['-O2', f'-D{define}', '-c', path, '-o', os.devnull] + v)
                     for v in all_variants]

        failed = 0
        for what, cmd in jobs:
            label = f'{args.cxx} -std={args.std} {what}'
            label += ' -DRCU_DEBUG_CHECKS' if checks[0] in cmd else ''
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                failed += 1
                print(f'FAIL {label}\n{r.stdout}{r.stderr}')
            else:
                print(f'ok   {label}')
    print(f'{len(jobs) - failed} of {len(jobs)} compiled')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
