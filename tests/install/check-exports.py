#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check-exports.py BUILD_ROOT SOURCE_ROOT LFHT_VERSION LFHT_SOVERSION RCU_SOVERSION

The shared libraries export exactly their public API, and carry the soname
of their project's version:
- the names declared with LFHT_API / RCU_API in the installed headers, plus
  the flavour objects named by RCU_DECLARE_FLAVOUR("..."), must all be
  defined in the dynamic symbol table of the library they belong to
  (lfht_* in liblfht, rcu_qsbr_* in librcu-qsbr, rcu_memb_* in
  librcu-memb, rcu_bp_* in librcu-bp, rcu_mb_* in librcu-mb);
- nothing else may be (nm -D --defined-only); anything else is printed; in
  particular no liburcu name (cds_lfht_*, urcu_*, rcu_* without a flavour
  prefix), so that a process can hold lfht and liburcu at once;
- SONAME is lib<name>.so.<major> (LFHT_SOVERSION for liblfht,
  RCU_SOVERSION for the flavour libraries) and the file is
  lib<name>.so.<version>.
Exit 77 (skipped) when the build has no shared libraries.
"""
import json
import pathlib
import re
import subprocess
import sys

LIBS = {'lfht': r'lfht_', 'rcu-qsbr': r'rcu_qsbr_', 'rcu-memb': r'rcu_memb_',
        'rcu-bp': r'rcu_bp_', 'rcu-mb': r'rcu_mb_'}
# Names no library may export: liburcu's (a process may hold both).
FOREIGN = re.compile(r'^(cds_lfht_|urcu_|rcu_(?!qsbr_|memb_|bp_|mb_))')


def header_api(source_root):
    """Names the public headers declare as exported, by library."""
    headers = list((source_root / 'include/lfht').glob('*.h'))
    headers += list((source_root / 'rcu/include/rcu').glob('*.h'))
    names = set()
    # rcu/flavour-api.h writes a flavour's common exports once, as the macro
    # RCU_FLAVOUR_EXPORTS_(fl): each invocation exports fl##<suffix>.
    common = []
    for h in headers:
        text = re.sub(r'\\\n', ' ', h.read_text())
        m = re.search(r'^#define RCU_FLAVOUR_EXPORTS_\(fl\)(.*)$', text, flags=re.M)
        if m:
            common = re.findall(r'\bfl##(\w+)', m.group(1))
    for h in headers:
        text = re.sub(r'/\*.*?\*/', ' ', h.read_text(), flags=re.S)
        text = re.sub(r'\\\n', ' ', text)
        text = '\n'.join(l for l in text.splitlines() if not l.lstrip().startswith('#'))
        names.update(re.findall(r'RCU_DECLARE_FLAVOUR\("(\w+)"\)', text))
        for fl in re.findall(r'\bRCU_FLAVOUR_EXPORTS_\((\w+)\)', text):
            names.update(fl + suffix for suffix in common)
        for stmt in text.split(';'):
            if not re.search(r'\b(LFHT_API|RCU_API)\b', stmt):
                continue
            head = stmt.split('(')[0] if '(' in stmt else stmt
            idents = [i for i in re.findall(r'[A-Za-z_]\w*', head)
                      if i not in ('RCU_TLS_MODEL_',)]
            names.add(idents[-1])
    by_lib = {lib: set() for lib in LIBS}
    for n in names:
        for lib, prefix in LIBS.items():
            if re.match(prefix, n):
                by_lib[lib].add(n)
                break
        else:
            print(f'check-exports.py: {n}: exported by a header, but belongs to no library',
                  file=sys.stderr)
            by_lib.setdefault('?', set()).add(n)
    return by_lib


def main():
    build = pathlib.Path(sys.argv[1])
    source = pathlib.Path(sys.argv[2])
    lfht_version = sys.argv[3]
    lfht_soversion = sys.argv[4]
    rcu_soversion = sys.argv[5]
    info = json.loads(subprocess.check_output(['meson', 'introspect', '--projectinfo', str(build)]))
    versions = {'lfht': lfht_version}
    for sub in info.get('subprojects', []):
        if sub['name'] == 'rcu':
            for lib in ('rcu-qsbr', 'rcu-memb', 'rcu-bp', 'rcu-mb'):
                versions[lib] = sub['version']
    targets = json.loads(subprocess.check_output(['meson', 'introspect', '--targets', str(build)]))
    shared = {t['name']: pathlib.Path(t['filename'][0]) for t in targets
              if t['type'] == 'shared library' and t['name'] in LIBS}
    if not shared:
        print('check-exports.py: no shared libraries in this build: skipped')
        return 77
    api = header_api(source)
    errors = ['a header exports a name of no library'] if '?' in api else []
    for lib in LIBS:
        path = shared.get(lib)
        if path is None:
            errors.append(f'lib{lib}.so: not built')
            continue
        out = subprocess.check_output(['nm', '-D', '--defined-only', '--format=posix', str(path)],
                                      text=True)
        exported = {line.split()[0] for line in out.splitlines() if line.strip()}
        # Version-script nodes (type A) are not symbols of the API.
        exported -= {line.split()[0] for line in out.splitlines()
                     if len(line.split()) > 1 and line.split()[1] == 'A'}
        for name in sorted(n for n in exported if FOREIGN.match(n)):
            errors.append(f'{path.name}: exports {name}, a liburcu name')
        extra = sorted(exported - api[lib])
        missing = sorted(api[lib] - exported)
        for name in extra:
            errors.append(f'{path.name}: exports {name}, which is not public API')
        for name in missing:
            errors.append(f'{path.name}: does not export {name} (declared in a public header)')
        version = versions.get(lib)
        if version is None:
            errors.append(f'{lib}: project version unknown')
            continue
        major = lfht_soversion if lib == 'lfht' else rcu_soversion
        if path.name != f'lib{lib}.so.{version}':
            errors.append(f'{path.name}: file name is not lib{lib}.so.{version}')
        dyn = subprocess.check_output(['readelf', '-d', str(path)], text=True)
        m = re.search(r'\(SONAME\)\s+Library soname: \[([^\]]+)\]', dyn)
        soname = m.group(1) if m else None
        if soname != f'lib{lib}.so.{major}':
            errors.append(f'{path.name}: SONAME {soname}, want lib{lib}.so.{major}')
        print(f'{path.name}: {len(exported)} exported symbols, soname {soname}')
    for e in errors:
        print('check-exports.py:', e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
