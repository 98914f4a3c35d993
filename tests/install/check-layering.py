#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check-layering.py SOURCE_ROOT LIBRARY...

Proof that the units of the RCU core and of the table depend on each other
one way only, and that the public headers never reach into the sources.

1. Units. For each LIBRARY (a built rcu-<flavour> library or liblfht,
   shared or static), every object file of it is one unit, named after its source
   file (src_gp.c.o: gp). `nm` gives each unit's defined and undefined
   global symbols (functions and data, internal hidden names included); a
   unit that leaves a symbol undefined which another unit defines depends
   on that unit (it calls it or uses its data). The dependency graph must
   have no cycle: each group of units that depend on each other is
   reported with one shortest cycle through it and the symbols of each
   step, e.g.
     rcu-bp: cycle among {bp, registry, ...}: bp -> registry
     (rcu_bp_reader_, ...); registry -> bp (rcu_bp_bp_pending_absorb_, ...)
   and the layering found (level 0: units that depend on no other; each
   next level depends only on levels before it) is printed when there is
   none.
2. Headers. No header under SOURCE_ROOT/include or SOURCE_ROOT/rcu/include
   may #include a header of the sources (SOURCE_ROOT/lfht or
   SOURCE_ROOT/rcu/src): checked on every #include line, quoted names
   resolved from the header's own directory, and any name that does not
   resolve inside the public include roots is looked up in the source
   directories.

Objects are read from meson's private directory of each library
(<library>.p/*.o); a static archive without one is read member by member.
Exits 0 when both hold, 1 with the offending cycles or lines, 77 (skip)
when nm is not installed.
"""
import os
import pathlib
import re
import shutil
import subprocess
import sys

UNDEFINED_TYPES = {'U', 'w', 'v'}
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def unit_name(obj):
    """src_registry.c.o -> registry (meson names objects after the source
    path, '/' replaced by '_')."""
    name = os.path.basename(obj)
    for suffix in ('.o', '.obj'):
        if name.endswith(suffix):
            name = name[:-len(suffix)]
    name = re.sub(r'\.(c|cc|cpp|S)$', '', name)
    if name.startswith('src_'):
        name = name[len('src_'):]
    return name


def nm_lines(nm, paths):
    out = subprocess.run([nm, '-A', '-P', '-g'] + paths, check=True,
                         capture_output=True, text=True).stdout
    return out.splitlines()


def library_units(nm, lib):
    """{unit: (defined set, undefined set)} for one library."""
    objdir = pathlib.Path(lib + '.p')
    objs = sorted(str(p) for p in objdir.glob('*.o')) if objdir.is_dir() else []
    if objs:
        lines = nm_lines(nm, objs)
    elif lib.endswith('.a'):
        lines = nm_lines(nm, [lib])
    else:
        raise SystemExit(f'check-layering: no object files for {lib}')
    units = {}
    for line in lines:
        # "file: sym T value size" or "archive[member]: sym U"
        head, _, rest = line.partition(': ')
        fields = rest.split()
        if len(fields) < 2:
            continue
        sym, kind = fields[0], fields[1]
        member = re.search(r'\[(.*)\]$', head)
        unit = unit_name(member.group(1) if member else head)
        defined, undefined = units.setdefault(unit, (set(), set()))
        (undefined if kind in UNDEFINED_TYPES else defined).add(sym)
    return units


def dependency_graph(units):
    owner = {}
    for unit, (defined, _) in units.items():
        for sym in defined:
            owner[sym] = unit
    graph = {u: {} for u in units}
    for unit, (_, undefined) in units.items():
        for sym in sorted(undefined):
            dep = owner.get(sym)
            if dep is not None and dep != unit:
                graph[unit].setdefault(dep, []).append(sym)
    return graph


def find_cycles(graph):
    """Strongly connected components of more than one unit (Tarjan)."""
    index, low, stack, on_stack, comps = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return comps


def one_cycle(graph, comp):
    """A shortest cycle through comp's first unit, as a list of units that
    starts and ends with it."""
    start = comp[0]
    members = set(comp)
    prev = {start: None}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(graph[v]):
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return list(reversed(path)) + [start]
            if w in members and w not in prev:
                prev[w] = v
                queue.append(w)
    return comp + [start]


def layers(graph):
    """Each unit's level: 0 for units that depend on nothing, else one more
    than the highest level it depends on."""
    level = {}

    def lv(u):
        if u not in level:
            level[u] = 0
            level[u] = 1 + max((lv(d) for d in graph[u]), default=-1)
        return level[u]

    for u in graph:
        lv(u)
    rows = {}
    for u, l in level.items():
        rows.setdefault(l, []).append(u)
    return [sorted(rows[l]) for l in sorted(rows)]


def check_library(nm, lib):
    name = os.path.basename(lib).split('.so')[0].split('.a')[0]
    name = name[3:] if name.startswith('lib') else name
    graph = dependency_graph(library_units(nm, lib))
    errors = []
    for comp in find_cycles(graph):
        cyc = one_cycle(graph, comp)
        steps = []
        for a, b in zip(cyc, cyc[1:]):
            syms = graph[a].get(b, [])
            shown = ', '.join(syms[:3]) + (', ...' if len(syms) > 3 else '')
            steps.append(f'{a} -> {b} ({shown})')
        errors.append(f'{name}: cycle among {{{", ".join(comp)}}}: ' +
                      '; '.join(steps))
    if not errors:
        print(f'{name}: no cycle; layers, bottom first: ' +
              ' | '.join(' '.join(row) for row in layers(graph)))
    return errors


def check_headers(root):
    public_roots = [root / 'include', root / 'rcu' / 'include']
    private = [root / 'lfht', root / 'rcu' / 'src']
    errors = []

    def is_private(path):
        real = os.path.realpath(path)
        return any(real.startswith(os.path.realpath(p) + os.sep) for p in private)

    for proot in public_roots:
        for header in sorted(proot.rglob('*.h')):
            for n, line in enumerate(header.read_text(errors='replace').splitlines(), 1):
                m = INCLUDE_RE.match(line)
                if not m:
                    continue
                kind, name = m.groups()
                where = f'{header.relative_to(root)}:{n}: {line.strip()}'
                candidates = []
                if kind == '"':
                    candidates.append(header.parent / name)
                candidates += [r / name for r in public_roots]
                found = [c for c in candidates if c.is_file()]
                if found:
                    if any(is_private(c) for c in found[:1]):
                        errors.append(f'{where}: a source header')
                    continue
                if any((p / name).is_file() for p in private):
                    errors.append(f'{where}: resolves only in the sources')
    return errors


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    root = pathlib.Path(sys.argv[1])
    nm = shutil.which(os.environ.get('NM', 'nm'))
    if nm is None:
        print('check-layering: nm not found; skipped')
        return 77
    errors = []
    for lib in sys.argv[2:]:
        errors += check_library(nm, lib)
    errors += check_headers(root)
    for e in errors:
        print(e)
    if errors:
        print(f'check-layering: {len(errors)} problem(s)')
        return 1
    print('check-layering: units acyclic, public headers clean')
    return 0


if __name__ == '__main__':
    sys.exit(main())
