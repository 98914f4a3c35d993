#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check-visible-names.py BUILD_ROOT SOURCE_ROOT WORK_DIR [--clang CLANG] [--list FILE]
check-visible-names.py --generate [--clang CLANG] [--list FILE]

What a liburcu header makes visible, the layer's header makes visible too.
liburcu programs use what a header brings in, not only what it documents
(LTTng-tools: caa_unlikely() after <urcu/tls-compat.h> alone, assert()
after <urcu.h> alone). For each unit of the list (LIST, by default
urcu-visible-names.txt beside this script), a translation unit that
includes the layer's header alone (with the unit's flags, and after its
`after=` headers) must see every public name that liburcu's own sees:
the header's own macros, functions, types, tags, enum constants and
variables, those of the liburcu headers it includes, and those of the
system headers they include (<assert.h>, <pthread.h>, <stdlib.h> ...).

The list keeps, per unit, the liburcu headers and the system headers the
unit reads (transitively; only the system headers a liburcu header names
in an #include, not their own insides) and the header's own names; the
expected set is expanded here, the system headers' names read from this
machine's headers with the same compiler and flags as the layer's unit.
Its format is at its top.

Not compared: names with a leading underscore (liburcu's and the system's
internals, one rule), and the names of EXCEPTIONS below, each with why.

Check mode: the layer's unit is built with `pkg-config --cflags
lfht-urcu-memb` from BUILD_ROOT/meson-uninstalled, -std=gnu11, and the
compiler's search path without liburcu-dev (check-no-liburcu.py's
shadow_dirs), so a name the layer lacks is never found in liburcu's
headers. Macros from `clang -E -dM`, declared names from clang's JSON AST.
Prints per unit the names missing; exit 1 if any is missing.

--generate: rewrites the generated part of LIST from liburcu's installed
headers (liburcu-dev on the compiler's default search path; 0.13 on the
machine it was written on), keeping the hand-written part (what 0.15
adds) as it is. Each unit's expansion is checked against liburcu's unit
itself: names the expansion would miss are added to the unit's names,
names it would wrongly give are written as hidden.

x86-64 only: the list is what liburcu's headers give there.
"""
import concurrent.futures
import importlib.util
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import threading

HERE = pathlib.Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location('check_no_liburcu', HERE / 'check-no-liburcu.py')
nolib = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(nolib)

PROG = 'check-visible-names.py'

# Public names liburcu's headers make visible that the layer leaves out on
# purpose. Names with a leading underscore are never compared (rule above).
EXCEPTIONS = {
    # The other architectures' own: the layer's <urcu/arch/*.h> and
    # <urcu/uatomic/*.h> for them are <urcu/arch.h> and <urcu/uatomic.h>
    # of the target built for.
    'LWSYNC_OPCODE': 'POWER\'s lwsync opcode (<urcu/arch/ppc.h>)',
    'mftb': 'POWER\'s time-base read (<urcu/arch/ppc.h>)',
    'mftbl': 'POWER\'s time-base read, low word (<urcu/arch/ppc.h>)',
    'mftbu': 'POWER\'s time-base read, high word (<urcu/arch/ppc.h>)',
    'membar_safe': 'SPARC\'s membar helper (<urcu/arch/sparc64.h>)',
    'ILLEGAL_INSTR': 'POWER\'s trap opcode (<urcu/uatomic/ppc.h>)',
    'COMPILER_HAVE_SHORT_MEM_OPERAND': 's390\'s asm operand choice (<urcu/uatomic/s390.h>)',
    'MEMOP_IN': 's390\'s asm operand helper (<urcu/uatomic/s390.h>)',
    'MEMOP_OUT': 's390\'s asm operand helper (<urcu/uatomic/s390.h>)',
    'MEMOP_REF': 's390\'s asm operand helper (<urcu/uatomic/s390.h>)',
    'UATOMIC_HAS_ATOMIC_INT': 'LoongArch\'s (<urcu/uatomic/loongarch.h>); x86\'s header has no such macro',
    'UATOMIC_HAS_ATOMIC_LLONG': 'LoongArch\'s (<urcu/uatomic/loongarch.h>); x86\'s header has no such macro',
    # The tuning of liburcu's own blocking waits in the inline queues and
    # stacks; lfht's waits (<rcuds/*.h>) are its own.
    'WFCQ_ADAPT_ATTEMPTS': 'spins before sleeping in liburcu\'s wfcqueue waits',
    'WFCQ_WAIT': 'sleep of liburcu\'s wfcqueue waits, in ms',
    'CDS_WFCQ_WAIT_SLEEP': 'the sleep liburcu\'s wfcqueue waits call (a program may define it first)',
    'WFQ_ADAPT_ATTEMPTS': 'spins before sleeping in liburcu\'s wfqueue waits',
    'WFQ_WAIT': 'sleep of liburcu\'s wfqueue waits, in ms',
    'CDS_WFS_ADAPT_ATTEMPTS': 'spins before sleeping in liburcu\'s wfstack waits',
    'CDS_WFS_WAIT': 'sleep of liburcu\'s wfstack waits, in ms',
    'cds_wfcq_first_blocking': 'liburcu maps it (_LGPL_SOURCE) onto _cds_wfcq_first_blocking, '
                               'which it never defines',
    'cds_wfcq_next_blocking': 'liburcu maps it (_LGPL_SOURCE) onto _cds_wfcq_next_blocking, '
                              'which it never defines',
    'cds_lfq_node_rcu_dummy': 'liburcu\'s internal dummy node of the RCU queue',
    # liburcu's internal reader and grace-period state (the static flavour
    # headers' inline read side); lfht's flavours keep their own.
    'URCU_GP_COUNT': 'the memb/mb/qsbr read side\'s nesting count unit',
    'URCU_GP_CTR_NEST_MASK': 'the memb/mb read side\'s nesting mask',
    'URCU_GP_CTR_PHASE': 'the memb/mb grace-period phase bit',
    'URCU_READER_ACTIVE_CURRENT': 'a value of enum urcu_state (a reader\'s state in the scan)',
    'URCU_READER_ACTIVE_OLD': 'a value of enum urcu_state',
    'URCU_READER_INACTIVE': 'a value of enum urcu_state',
    'urcu_state': 'the enum of a reader\'s state in the grace-period scan',
    'urcu_gp': 'the struct of the memb/mb grace-period counter',
    'urcu_reader': 'the struct of a memb/mb/qsbr reader\'s registration',
    'urcu_common_reader_state': 'the grace-period scan\'s reader test',
    'urcu_common_wake_up_gp': 'the read side\'s wake-up of a waiting grace period',
    'urcu_memb_gp': 'memb\'s grace-period counter',
    'urcu_memb_reader': 'memb\'s per-thread reader (TLS)',
    'urcu_memb_has_sys_membarrier': 'memb\'s choice of membarrier',
    'urcu_memb_smp_mb_slave': 'memb\'s read-side fence helper',
    'urcu_mb_gp': 'mb\'s grace-period counter',
    'urcu_mb_reader': 'mb\'s per-thread reader (TLS)',
    'URCU_QSBR_GP_CTR': 'qsbr\'s grace-period counter step',
    'URCU_QSBR_GP_ONLINE': 'qsbr\'s online bit',
    'urcu_qsbr_gp': 'qsbr\'s grace-period counter',
    'urcu_qsbr_reader': 'qsbr\'s per-thread reader (TLS)',
    'urcu_qsbr_reader_state': 'qsbr\'s grace-period scan\'s reader test',
    'urcu_qsbr_wake_up_gp': 'qsbr\'s wake-up of a waiting grace period',
    'URCU_BP_GP_COUNT': 'bp\'s nesting count unit',
    'URCU_BP_GP_CTR_NEST_MASK': 'bp\'s nesting mask',
    'URCU_BP_GP_CTR_PHASE': 'bp\'s grace-period phase bit',
    'URCU_BP_READER_ACTIVE_CURRENT': 'a value of enum urcu_bp_state',
    'URCU_BP_READER_ACTIVE_OLD': 'a value of enum urcu_bp_state',
    'URCU_BP_READER_INACTIVE': 'a value of enum urcu_bp_state',
    'urcu_bp_reader_state': 'bp\'s grace-period scan\'s reader test',
    'urcu_bp_gp': 'bp\'s grace-period counter',
    'urcu_bp_reader': 'bp\'s per-thread reader (TLS)',
    'urcu_bp_register': 'bp\'s slow path registering a thread at its first read lock',
    'urcu_bp_has_sys_membarrier': 'bp\'s choice of membarrier',
    'urcu_bp_smp_mb_slave': 'bp\'s read-side fence helper',
    'urcu_bp_state': 'the enum of a bp reader\'s state in the grace-period scan',
    'enqueue_dummy': 'liburcu\'s internal helper of the RCU queue\'s dummy node',
    'free_dummy': 'liburcu\'s internal helper of the RCU queue\'s dummy node',
    'free_dummy_cb': 'liburcu\'s internal helper of the RCU queue\'s dummy node',
    'make_dummy': 'liburcu\'s internal helper of the RCU queue\'s dummy node',
    'rcu_free_dummy': 'liburcu\'s internal helper of the RCU queue\'s dummy node',
    # What liburcu's <urcu/call-rcu.h>, <urcu/defer.h> and <urcu/flavor.h>
    # declare when read with no flavour header before them: unprefixed
    # functions that no liburcu library defines (they link only through a
    # flavour's map, to urcu_<flavour>_*), so a program cannot use them.
    # Through a flavour header the layer gives them all, as liburcu.
    'call_rcu': 'declared unprefixed with no flavour; defined by no liburcu library',
    'rcu_barrier': 'declared unprefixed with no flavour; defined by no liburcu library',
    'call_rcu_data_free': 'declared unprefixed with no flavour; defined by no liburcu library',
    'call_rcu_before_fork': 'declared unprefixed with no flavour; defined by no liburcu library',
    'call_rcu_after_fork_parent': 'declared unprefixed with no flavour; defined by no liburcu library',
    'call_rcu_after_fork_child': 'declared unprefixed with no flavour; defined by no liburcu library',
    'get_call_rcu_data': 'declared unprefixed with no flavour; defined by no liburcu library',
    'get_cpu_call_rcu_data': 'declared unprefixed with no flavour; defined by no liburcu library',
    'get_default_call_rcu_data': 'declared unprefixed with no flavour; defined by no liburcu library',
    'get_thread_call_rcu_data': 'declared unprefixed with no flavour; defined by no liburcu library',
    'set_cpu_call_rcu_data': 'declared unprefixed with no flavour; defined by no liburcu library',
    'set_thread_call_rcu_data': 'declared unprefixed with no flavour; defined by no liburcu library',
    'create_call_rcu_data': 'declared unprefixed with no flavour; defined by no liburcu library',
    'create_all_cpu_call_rcu_data': 'declared unprefixed with no flavour; defined by no liburcu library',
    'free_all_cpu_call_rcu_data': 'declared unprefixed with no flavour; defined by no liburcu library',
    'defer_rcu': 'declared unprefixed with no flavour; defined by no liburcu library',
    'rcu_defer_barrier': 'declared unprefixed with no flavour; defined by no liburcu library',
    'rcu_defer_barrier_thread': 'declared unprefixed with no flavour; defined by no liburcu library',
    'rcu_defer_register_thread': 'declared unprefixed with no flavour; defined by no liburcu library',
    'rcu_defer_unregister_thread': 'declared unprefixed with no flavour; defined by no liburcu library',
    'rcu_flavor': 'declared unprefixed with no flavour; defined by no liburcu library',
    'urcu_register_rculfhash_atfork': 'declared unprefixed with no flavour; defined by no liburcu library',
    'urcu_unregister_rculfhash_atfork': 'declared unprefixed with no flavour; defined by no liburcu library',
    # Missing in the layer (docs/porting-from-liburcu.md): lfht runs one
    # call_rcu worker per flavour, a thread of its own that it does not
    # hand out; a flavour object must name its lfht flavour.
    'get_call_rcu_thread': 'missing: the worker\'s pthread_t is lfht\'s own (unprefixed, no flavour)',
    'urcu_memb_get_call_rcu_thread': 'missing: the worker\'s pthread_t is lfht\'s own',
    'urcu_qsbr_get_call_rcu_thread': 'missing: the worker\'s pthread_t is lfht\'s own',
    'urcu_mb_get_call_rcu_thread': 'missing: the worker\'s pthread_t is lfht\'s own',
    'urcu_bp_get_call_rcu_thread': 'missing: the worker\'s pthread_t is lfht\'s own',
    'DEFINE_RCU_FLAVOR': 'missing: a flavour object the program builds must set lfht_flavour_',
    # liburcu's own helper inside its x86 uatomic code.
    'UATOMIC_COMPAT': 'liburcu\'s x86 uatomic helper choosing its i386 fallback',
    # liburcu's DEBUG_YIELD test hooks (bp's map names them whatever the
    # build); the layer injects no yields.
    'rcu_rand_yield': 'maps urcu_bp_rand_yield, a DEBUG_YIELD test hook',
    'rcu_yield_active': 'maps urcu_bp_yield_active, a DEBUG_YIELD test hook',
    'rcu_rand_yield_bp': 'maps urcu_bp_rand_yield, a DEBUG_YIELD test hook',
    'rcu_yield_active_bp': 'maps urcu_bp_yield_active, a DEBUG_YIELD test hook',
}

# The units compiled beyond one per header: how programs include the
# flavour headers (LTTng-tools and most liburcu programs define
# _LGPL_SOURCE; <urcu.h> picks urcu-mb under RCU_MB).
VARIANTS = [
    ('urcu.h', ('-D_LGPL_SOURCE',)),
    ('urcu-qsbr.h', ('-D_LGPL_SOURCE',)),
    ('urcu-bp.h', ('-D_LGPL_SOURCE',)),
    ('urcu.h', ('-DRCU_MB',)),
]

# liburcu headers that do not build alone: what they need first. The
# static/ data-structure headers are the inline halves of the public ones
# (included from them under _LGPL_SOURCE); <urcu/map/urcu.h> wants the
# flavour <urcu/urcu.h> selects.
NEEDS = {
    'urcu/map/urcu.h': ('-DRCU_MEMBARRIER',),
    'urcu/static/lfstack.h': ('after=urcu/lfstack.h',),
    'urcu/static/rculfqueue.h': ('after=urcu/rculfqueue.h',),
    'urcu/static/rculfstack.h': ('after=urcu/rculfstack.h',),
    'urcu/static/wfcqueue.h': ('after=urcu/wfcqueue.h',),
    'urcu/static/wfqueue.h': ('after=urcu/wfqueue.h',),
    'urcu/static/wfstack.h': ('after=urcu/wfstack.h',),
}

# liburcu headers of other architectures whose inline assembly does not
# parse for x86-64: their names are taken from what clang makes of them.
BROKEN_HERE = {'urcu/uatomic/ppc.h'}

GENERATED_MARK = '# ==== generated'
HAND_MARK = '# ==== hand-written'

STD = ['-std=gnu11']

FIELDS = ('extends', 'includes', 'system', 'names', 'undefs', 'hidden')

DECL_KINDS = {'FunctionDecl', 'VarDecl', 'TypedefDecl', 'RecordDecl', 'EnumDecl',
              'EnumConstantDecl'}


def fail(msg):
    raise SystemExit(f'{PROG}: FAIL: {msg}')


def public(name):
    return not name.startswith('_')


def is_liburcu_name(rel):
    first = rel.split('/', 1)[0]
    return nolib.is_liburcu_entry(first) and (rel.startswith('urcu/') or '/' not in rel)


# ---------------------------------------------------------------- the list

class Record:
    """One unit of the list: a header, its flags and what it makes visible."""

    def __init__(self, header, opts):
        self.header = header
        self.opts = tuple(opts)
        self.fields = {k: set() for k in FIELDS}
        self.hand = {k: set() for k in self.fields}

    @property
    def key(self):
        return (self.header, self.opts)

    def flags(self):
        return [o for o in self.opts if not o.startswith('after=')]


def parse_list(path):
    """{key: Record}; a hand-written unit merges into the generated one."""
    records = {}
    cur, hand = None, False
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if line.startswith(HAND_MARK):
            hand = True
        if not line.strip() or line.lstrip().startswith('#'):
            continue
        words = line.split()
        if not line[0].isspace():
            if words[0] != 'header' or len(words) < 2:
                fail(f'{path}:{n}: expected "header NAME [FLAGS]"')
            key = (words[1], tuple(words[2:]))
            cur = records.setdefault(key, Record(*key))
            continue
        if cur is None or words[0] not in cur.fields:
            fail(f'{path}:{n}: expected one of {", ".join(Record("", ()).fields)} under a header')
        (cur.hand if hand else cur.fields)[words[0]].update(words[1:])
    return records


def wrap(key, words, width=100):
    lines, line = [], '  ' + key
    for w in sorted(words):
        if len(line) + 1 + len(w) > width and line != '  ' + key:
            lines.append(line)
            line = '  ' + key
        line += ' ' + w
    lines.append(line)
    return lines


def format_record(rec):
    out = ['header ' + ' '.join((rec.header,) + rec.opts)]
    for k in FIELDS:
        if rec.fields[k]:
            out += wrap(k, rec.fields[k])
    return '\n'.join(out) + '\n'


# ------------------------------------------------------- reading a unit

class Unit:
    """What one translation unit makes visible, and where each name is from."""

    def __init__(self):
        self.macros = set()         # defined at the end of the unit
        self.decls = set()          # declared at file scope
        self.entered = []           # files read, in order (normalised paths)
        self.defined_in = {}        # file -> names #defined there
        self.undefined_in = {}      # file -> names #undef'd there
        self.includes_in = {}       # file -> #include targets as written
        self.decls_in = {}          # file -> names declared there
        self.errors = ''

    def visible(self):
        return self.macros | self.decls


def unit_source(header, opts):
    after = [o[len('after='):] for o in opts if o.startswith('after=')]
    return ''.join(f'#include <{h}>\n' for h in after + [header])


MARKER = re.compile(r'^# \d+ "((?:[^"\\]|\\.)*)"')
DIRECTIVE = re.compile(r'^#(define|undef)\s+(\w+)')
INCLUDE = re.compile(r'^#\s*include(?:_next)?\s*[<"]([^>"]+)[>"]')


def read_unit(cc, flags, src, work, name, allow_errors=False, attribute=True):
    """Preprocesses and parses src with cc and flags; see Unit."""
    work.mkdir(parents=True, exist_ok=True)
    path = work / (name + '.c')
    path.write_text(src)
    u = Unit()
    base = [cc] + STD + flags
    r = subprocess.run(base + ['-E', '-dM', str(path)], text=True, capture_output=True)
    if r.returncode != 0 and not allow_errors:
        u.errors = r.stderr
        return u
    u.macros = {m.group(1) for m in map(re.compile(r'#define (\w+)').match, r.stdout.splitlines())
                if m}
    if attribute:
        r = subprocess.run(base + ['-E', '-dD', '-dI', str(path)], text=True, capture_output=True)
        cur = None
        for line in r.stdout.splitlines():
            m = MARKER.match(line)
            if m:
                cur = os.path.normpath(m.group(1).encode().decode('unicode_escape'))
                if cur not in u.entered:
                    u.entered.append(cur)
                continue
            m = DIRECTIVE.match(line)
            if m:
                what = u.defined_in if m.group(1) == 'define' else u.undefined_in
                what.setdefault(cur, set()).add(m.group(2))
                continue
            m = INCLUDE.match(line)
            if m:
                u.includes_in.setdefault(cur, []).append(m.group(1))
    r = subprocess.run(base + ['-fsyntax-only', '-Xclang', '-ast-dump=json', str(path)],
                       text=True, capture_output=True)
    if r.returncode != 0 and not allow_errors:
        u.errors = r.stderr
        return u
    for decl, file in file_scope_decls(json.loads(r.stdout)):
        u.decls.add(decl)
        u.decls_in.setdefault(file, set()).add(decl)
    return u


def file_scope_decls(ast):
    """(name, file) of each declaration at file scope, file being where it
    was written (a macro's expansion: where the macro was used). clang's
    JSON dump names a location's file only when it changes, so the walk
    follows every location in the order printed."""
    state = {'file': None}
    out = []

    def loc(obj):
        if not isinstance(obj, dict):
            return
        if 'spellingLoc' in obj or 'expansionLoc' in obj:
            loc(obj.get('spellingLoc'))
            loc(obj.get('expansionLoc'))
        elif 'file' in obj:
            state['file'] = os.path.normpath(obj['file'])

    def walk(obj, scope):
        if isinstance(obj, list):
            for o in obj:
                walk(o, scope)
            return
        if not isinstance(obj, dict):
            return
        kind = obj.get('kind')
        for k, v in obj.items():
            if k == 'loc':
                loc(v)
                if scope and kind in DECL_KINDS and obj.get('name') and not obj.get('isImplicit'):
                    out.append((obj['name'], state['file']))
            elif k == 'range':
                loc(v.get('begin'))
                loc(v.get('end'))
            elif k == 'inner':
                # File scope, and in C the tags and enum constants declared
                # inside a struct, union or enum.
                inner = scope and kind in (None, 'TranslationUnitDecl', 'RecordDecl', 'EnumDecl')
                walk(v, inner)
            elif k != 'includedFrom' and isinstance(v, (dict, list)):
                walk(v, False)

    walk(ast, True)
    return out


# ------------------------------------------------------------ expansion

class Names:
    """The names of sets of system headers, read once per set and flags."""

    def __init__(self, cc, flags, work):
        self.cc, self.flags, self.work = cc, flags, work
        self.cache = {}
        self.lock = threading.Lock()

    def of(self, headers, extra):
        key = (frozenset(headers), tuple(extra))
        with self.lock:
            return self.read(key, headers, extra)

    def read(self, key, headers, extra):
        if key not in self.cache:
            src = ''.join(f'#include <{h}>\n' for h in sorted(headers))
            u = read_unit(self.cc, self.flags + list(extra), src, self.work,
                          f'system{len(self.cache)}', attribute=False)
            if u.errors:
                fail(f'system headers {sorted(headers)}: do not build:\n{u.errors[-2000:]}')
            self.cache[key] = u.visible()
        return self.cache[key]


def default_record(records, header):
    """The unit of header with no flags, else its first one."""
    if (header, ()) in records:
        return records[(header, ())]
    for key, rec in records.items():
        if key[0] == header:
            return rec
    fail(f'<{header}>: read by a unit but has none in the list')


def closure(records, key, memo=None):
    """(liburcu headers, system headers) a unit reads: its generated sets,
    plus what the hand-written part adds to it or to any header it reads
    (a header added by hand brings everything it reads itself)."""
    memo = {} if memo is None else memo
    if key in memo:
        return memo[key]
    memo[key] = (set(), set())
    rec = records[key]
    files = set(rec.fields['includes'])
    system = set(rec.fields['system'])
    for h in own(rec, 'extends'):
        f, s = closure(records, default_record(records, h).key, memo)
        files |= f
        system |= s
    # The hand-written additions of the unit and of each header it reads.
    for r in [rec] + [default_record(records, f) for f in sorted(files)]:
        system |= r.hand['system']
        for h in r.hand['includes']:
            f, s = closure(records, default_record(records, h).key, memo)
            files |= f | {h}
            system |= s
    memo[key] = (files, system)
    return memo[key]


def own(rec, field):
    return rec.fields[field] | rec.hand[field]


def expected(records, key, names):
    """Every public name the unit key makes visible in liburcu."""
    return set(origins(records, key, names))


def origins(records, key, names):
    """{name: where it comes from} for every public name the unit key makes
    visible in liburcu: a liburcu header, or a system header."""
    rec = records[key]
    files, system = closure(records, key)
    out = {}
    undefs = set(own(rec, 'undefs'))
    hidden = set(own(rec, 'hidden'))
    for h in own(rec, 'extends'):
        out.update(origins(records, default_record(records, h).key, names))
    for f in sorted(files, reverse=True):
        r = default_record(records, f)
        out.update(dict.fromkeys(own(r, 'names'), f))
        undefs |= own(r, 'undefs')
    out.update(dict.fromkeys(own(rec, 'names'), key[0]))
    for n in undefs:
        out.pop(n, None)
    all_system = names.of(system, rec.flags())
    for h in sorted(system, reverse=True):
        out.update(dict.fromkeys(names.of({h}, rec.flags()) & all_system, f'<{h}>'))
    out.update(dict.fromkeys(all_system - out.keys(), 'the system headers'))
    return {n: o for n, o in out.items() if n not in hidden and public(n)}


# ------------------------------------------------------------ generating

def header_name(path, dirs):
    for d in sorted(dirs, key=lambda p: -len(str(p))):
        for base in {str(d), os.path.realpath(d)}:
            if path.startswith(base + '/'):
                return path[len(base) + 1:]
    return None


def generate(cc, list_path):
    dirs = nolib.system_include_dirs([cc])
    home = [d for d in dirs if (d / 'urcu' / 'arch.h').is_file()]
    if not home:
        fail('--generate needs liburcu-dev on the compiler\'s search path')
    installed = {str(p.relative_to(home[0])) for p in home[0].glob('urcu/**/*.h')}
    installed |= {p.name for p in home[0].glob('urcu*.h')}
    version = 'unknown'
    r = subprocess.run(['dpkg-query', '-W', '-f=${Version}', 'liburcu-dev'],
                       text=True, capture_output=True)
    if r.returncode == 0:
        version = r.stdout.strip()
    units = [(h, NEEDS.get(h, ())) for h in nolib.LIBURCU_015_HEADERS if h in installed]
    units += VARIANTS
    work = pathlib.Path(tempfile.mkdtemp(prefix='visible-names-'))
    try:
        read = {}

        def one(i_key):
            i, (h, opts) = i_key
            flags = [o for o in opts if not o.startswith('after=')]
            u = read_unit(cc, flags, unit_source(h, opts), work, f'u{i}',
                          allow_errors=h in BROKEN_HERE)
            if u.errors:
                fail(f'liburcu\'s <{h}> {" ".join(opts)}: does not build:\n{u.errors[-2000:]}')
            return (h, tuple(opts)), u

        with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
            for key, u in pool.map(one, enumerate(units)):
                read[key] = u
        names = Names(cc, [], work / 'system')
        records = {}
        for (h, opts), u in read.items():
            rec = Record(h, opts)
            files, system = set(), set()
            path_of = {}
            for f in u.entered:
                rel = header_name(f, dirs)
                if rel and is_liburcu_name(rel):
                    path_of[rel] = f
                    files.add(rel)
            main = [f for f in u.entered if f.endswith('.c')]
            for f, targets in u.includes_in.items():
                rel = header_name(f, dirs) if f else None
                if (rel and is_liburcu_name(rel)) or f in main:
                    system |= {t for t in targets if not is_liburcu_name(t)}
            mine = path_of.get(h)
            if mine is None:
                fail(f'<{h}>: not read by its own unit')
            rec.fields['includes'] = files - {h}
            rec.fields['system'] = system
            defined = u.defined_in.get(mine, set())
            rec.fields['names'] = {n for n in (defined & u.macros) | u.decls_in.get(mine, set())
                                   if public(n)}
            rec.fields['undefs'] = {n for n in u.undefined_in.get(mine, set()) - defined
                                    if public(n)}
            records[rec.key] = rec
        # Corrections: what the expansion gets wrong against liburcu's unit,
        # the units that read fewer headers first (their corrections then
        # count for the units that read them).
        plain = [k for k in records if not k[1] or (k[0], ()) not in records]
        todo = {k[0]: k for k in plain}
        while todo:
            ready = [k for h, k in sorted(todo.items())
                     if not records[k].fields['includes'] & todo.keys()]
            if not ready:
                fail(f'these liburcu headers include each other: {sorted(todo)}')
            for key in ready:
                correct(records, key, read[key], names)
                del todo[key[0]]
        # A variant extends the plain unit of its header where that is
        # shorter than writing it out.
        for key in sorted(set(records) - set(plain)):
            full = records[key]
            correct(records, key, read[key], names)
            ext = Record(*key)
            base = records[(key[0], ())]
            ext.fields['extends'] = {key[0]}
            ext.fields['includes'] = full.fields['includes'] - base.fields['includes'] - {key[0]}
            ext.fields['system'] = full.fields['system'] - base.fields['system']
            ext.fields['names'] = full.fields['names'] - base.fields['names'] - full.fields['hidden']
            ext.fields['undefs'] = set(full.fields['undefs'])
            records[key] = ext
            correct(records, key, read[key], names)
            if len(format_record(ext)) > len(format_record(full)):
                records[key] = full
        for key, u in read.items():
            got = expected(records, key, names)
            want = {n for n in u.visible() if public(n)}
            if got != want:
                fail(f'<{key[0]}> {" ".join(key[1])}: the expansion does not reproduce '
                     f'liburcu\'s unit: {sorted(got ^ want)[:20]}')
        hand = ''
        if list_path.exists():
            text = list_path.read_text()
            if HAND_MARK in text:
                hand = text[text.index(HAND_MARK):]
        head = LIST_HEAD.format(version=version)
        body = ''.join(format_record(records[k]) for k in sorted(records, key=order))
        list_path.write_text(head + f'{GENERATED_MARK} from liburcu-dev {version} by '
                             f'{PROG} --generate; do not edit by hand ====\n\n' + body
                             + '\n' + (hand or HAND_MARK + ' ====\n'))
        print(f'{PROG}: wrote {len(records)} units to {list_path}')
    finally:
        shutil.rmtree(work, ignore_errors=True)


def correct(records, key, u, names):
    rec = records[key]
    got = expected(records, key, names)
    want = {n for n in u.visible() if public(n)}
    rec.fields['names'] |= want - got
    rec.fields['hidden'] |= got - want


def order(key):
    h, opts = key
    return (h.count('/'), h, opts)


LIST_HEAD = """\
# What each liburcu header makes visible to a unit that includes it alone
# (x86-64), for check-visible-names.py: the layer's header must make it
# visible too. One block per unit:
#
#   header NAME [FLAGS]   the unit: #include <NAME>, built with FLAGS
#                         (after=H: <H> is included first)
#     extends H           it sees what the plain unit of <H> sees, and:
#     includes H...       the liburcu headers it reads (all, not only those
#                         NAME names itself)
#     system S...         the system headers those name in an #include;
#                         their names are read from this machine's headers
#     names N...          NAME's own public names (and those the unit sees
#                         that the headers it reads do not give alone)
#     undefs N...         names NAME #undefs (hiding those of the others)
#     hidden N...         names of the headers read that the unit does not
#                         see after all (their context differs: flags,
#                         macros defined before them)
#
# A unit expands to its names, the names of every header it reads, less
# their undefs, and its system headers' names; less its hidden. Names with
# a leading underscore are never listed or compared.
#
# The hand-written part, at the end, adds what liburcu 0.15 has beyond
# the generated part (liburcu-dev {version}): a block there adds to the
# generated block of the same unit; includes and system added by hand to
# a header count for every unit that reads it.

"""


# --------------------------------------------------------------- checking

def check(build, source, work, cc, list_path):
    records = parse_list(list_path)
    errors = []
    headers = {k[0] for k in records}
    for h in nolib.LIBURCU_015_HEADERS:
        if h not in headers:
            errors.append(f'<{h}>: a liburcu 0.15 header with no unit in {list_path.name}')
    for h in sorted(headers - set(nolib.LIBURCU_015_HEADERS)):
        errors.append(f'<{h}>: in {list_path.name} but not a liburcu 0.15 header')
    for h in sorted(headers):
        if not (source / 'compat/include' / h).is_file():
            errors.append(f'<{h}>: not in {source / "compat/include"}')
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    sysdirs, hidden = nolib.shadow_dirs(nolib.system_include_dirs([cc]), work)
    env = dict(os.environ, PKG_CONFIG_PATH=str(build / 'meson-uninstalled'))
    env.pop('PKG_CONFIG_SYSROOT_DIR', None)
    r = subprocess.run(['pkg-config', '--cflags', 'lfht-urcu-memb'], env=env, text=True,
                       capture_output=True)
    if r.returncode != 0:
        fail(f'pkg-config --cflags lfht-urcu-memb: {r.stderr.strip()}')
    flags = ['-nostdinc'] + [a for d in sysdirs for a in ('-isystem', str(d))] + r.stdout.split()
    print(f'{PROG}: {len(hidden)} liburcu-dev entries taken off the search path')
    names = Names(cc, flags, work / 'system')
    keys = sorted(records, key=order)

    def one(i_key):
        i, key = i_key
        rec = records[key]
        want = origins(records, key, names)
        u = read_unit(cc, flags + rec.flags(), unit_source(*key), work, f'layer{i}',
                      attribute=False)
        return key, want, u

    failed = 0
    total_missing = 0
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        results = list(pool.map(one, enumerate(keys)))
    excused = set()
    for key, want, u in results:
        label = ' '.join((key[0],) + key[1])
        if u.errors:
            errors.append(f'<{label}>: the layer\'s unit does not build:\n{u.errors[-2000:]}')
            failed += 1
            continue
        missing = want.keys() - u.visible()
        excused |= missing & EXCEPTIONS.keys()
        missing -= EXCEPTIONS.keys()
        if not missing:
            print(f'{PROG}: <{label}>: ok ({len(want)} names)')
            continue
        failed += 1
        total_missing += len(missing)
        by_origin = {}
        for n in missing:
            by_origin.setdefault(want[n], []).append(n)
        print(f'{PROG}: <{label}>: {len(missing)} missing: ' + '; '.join(
            f'from {o}: ' + ' '.join(sorted(ns)) for o, ns in sorted(by_origin.items())))
    for n in sorted(EXCEPTIONS.keys() - excused):
        print(f'{PROG}: note: exception {n} is no longer needed by any unit')
    for e in errors:
        print(f'{PROG}: {e}', file=sys.stderr)
    if failed or errors:
        print(f'{PROG}: FAIL: {failed} of {len(keys)} units miss names '
              f'({total_missing} in all)' + (f', {len(errors)} errors' if errors else ''))
        return 1
    print(f'{PROG}: ok ({len(keys)} units, {len(EXCEPTIONS)} exceptions)')
    return 0


def main():
    argv = sys.argv[1:]
    cc = 'clang'
    list_path = HERE / 'urcu-visible-names.txt'
    gen = False
    rest = []
    while argv:
        a = argv.pop(0)
        if a == '--clang' and argv:
            cc = argv.pop(0)
        elif a == '--list' and argv:
            list_path = pathlib.Path(argv.pop(0))
        elif a == '--generate':
            gen = True
        else:
            rest.append(a)
    if gen:
        if rest:
            raise SystemExit(__doc__)
        generate(cc, list_path)
        return 0
    if len(rest) != 3:
        raise SystemExit(__doc__)
    build, source, work = (pathlib.Path(a).resolve() for a in rest)
    return check(build, source, work, cc, list_path)


if __name__ == '__main__':
    sys.exit(main())
