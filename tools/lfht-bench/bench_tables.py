# SPDX-License-Identifier: MIT
"""Benchmark driver, the tables: the points a run covers (from the workload
table's shapes), the throughput, pace and memory tables, and --targets with
its two target tables. Everything a workload is (its shape, thread roles,
metrics, which table it goes to) comes from the executables' table
(bench_run.read_table)."""
import statistics
import textwrap

from bench_run import Table, cfg, fixed, metric_flag, metrics, report_of, supported


def fmt(v):
    if v is None:
        return '-'
    a = abs(v)
    if a >= 1e9:
        return '%.2fG' % (v / 1e9)
    if a >= 1e6:
        return '%.2fM' % (v / 1e6)
    if a >= 1e4:
        return '%.1fk' % (v / 1e3)
    if a >= 100:
        return '%.0f' % v
    if a >= 10:
        return '%.1f' % v
    return '%.3g' % v


def fmt_ratio(rs):
    if not rs:
        return '-'
    return '%.2f [%.2f-%.2f]' % (statistics.median(rs), min(rs), max(rs))


def render(rows):
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for n, r in enumerate(rows):
        out.append('  '.join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
        if n == 0:
            out.append('  '.join('-' * w for w in widths))
    return out


def keys_text(workload, keys):
    """'-' for a workload without a table of keys (rcufree, longread)."""
    return '-' if Table.WORKLOADS[workload]['keys'] == 'none' else str(keys)


def threads_text(workload, threads):
    """The thread roles, T standing for the thread count: rw1 runs 1 reader
    + 1 writer, hot10 T readers + T writers, hot1 T writers, longread T
    readers + 2 writers."""
    return Table.WORKLOADS[workload]['roles'].replace('T', str(threads))


def plan_lfht(o):
    """[(workload, keys, threads, repeats)] in run order, from each
    workload's shape."""
    lists = {'list': o.keys, 'fill': o.fill_keys, 'batch': o.batch_keys, 'none': [1]}
    plan = []
    for w in o.workloads:
        d = Table.WORKLOADS[w]
        if d['keys'].startswith('first='):
            keys = [o.keys[0] if o.keys_given else fixed(d['keys'])]
        else:
            keys = lists.get(d['keys']) or [fixed(d['keys'])]
        threads = o.threads if d['threads'] == 'list' else [fixed(d['threads'])]
        for k in keys:
            for t in threads:
                plan.append((w, k, t, d['runs'] or o.repeats))
    return plan


def table_lines(b, configs):
    head = ['workload', 'keys', 'thr', 'metric']
    for a, bb in cfg.PAIRS:
        head += [a, bb, '%s/%s [min-max]' % (a.split('-')[0], bb.split('-')[0])]
    extra = [e for e in cfg.EXTRA if e not in cfg.PEERS or e in b.impls]
    head += extra
    for a, bb in cfg.CK_PAIRS:
        head.append('%s/%s [min-max]' % (a, bb))
    rows = [head]
    for (workload, keys, threads) in configs:
        per = b.results.get((workload, keys, threads))
        if per is None:
            continue
        for key, label in metrics(workload):
            row = [workload, keys_text(workload, keys), threads_text(workload, threads),
                   label]
            for a, bb in cfg.PAIRS:
                row += [fmt(b.med(per, a, key)), fmt(b.med(per, bb, key)),
                        fmt_ratio(b.ratios(per, a, bb, key))]
            for e in extra:
                row.append(fmt(b.med(per, e, key)) if supported(e, workload) else 'n/a')
            for a, bb in cfg.CK_PAIRS:
                row.append(fmt_ratio(b.ratios(per, a, bb, key)))
            rows.append(row)
    return render(rows)


# The verdict: lfht as a user gets it (its QSBR and memb flavours, freeing
# through rcu_retire()) against liburcu and the best of the other peers.
DEFAULT_LFHT = ('lfht-qsbr', 'lfht-memb')
SHORT_NAMES = {'dpdk': 'rte_hash', 'ck': 'ck_hs', 'rwlock': 'rwlock', 'tbb-hash': 'tbb-hash',
               'tbb-umap': 'tbb-umap', 'libcds': 'libcds'}
# Why lfht trails where it is known: (workload, peer) or (workload, None)
# for any peer; the section of docs/performance.md that shows it.
TRAIL_WHY = {
    ('read', 'dpdk'): 'rte_hash compares the key in its own key store and returns '
                      'the entry without reading it; lfht reads the entry to compare '
                      '(docs/performance.md, The peers)',
    ('autoread', 'dpdk'): 'as read: rte_hash does not read the entry (docs/performance.md, '
                          'The peers); rte_hash is made for the N keys, lfht grew from 1 bucket',
    ('batch', 'dpdk'): 'as read: rte_hash does not read the entries it finds '
                       '(docs/performance.md, The peers)',
    ('delonly', None): 'a delete walks the chain to unlink its node; open addressing '
                       'and the rwlock table drop an entry in place: the chained '
                       'list\'s bound (docs/performance.md, Where the time goes)',
}


def verdict_lines(b, configs):
    """One row per throughput point and metric, at most 100 columns: each
    default lfht flavour, liburcu (the faster of its flavours), the best
    other peer by name; x liburcu (the lower of the two flavours' median
    ratios over liburcu's same flavour) and x peer (the faster lfht flavour
    over that peer); '<' where either is below 1. Then why, per trailing
    row, where it is known."""
    lfht = [a for a in DEFAULT_LFHT if a in b.impls]
    others = [e for e in cfg.EXTRA if e in b.impls and e in SHORT_NAMES]
    if not lfht:
        return []
    rows = [['workload', 'keys', 'thr', 'metric'] + lfht +
            ['liburcu', 'best peer', 'x urcu', 'x peer', '']]
    why = []
    for (w, k, t) in configs:
        per = b.results.get((w, k, t))
        if per is None:
            continue
        for key, label in metrics(w):
            lower = metric_flag(w, key, 'lower_is_better')
            ours = [b.med(per, a, key) for a in lfht]
            urcu = [v for v in (b.med(per, 'urcu-' + a.split('-')[1], key) for a in lfht)
                    if v is not None]
            peers = [(b.med(per, e, key), e) for e in others if supported(e, w)]
            peers = [(v, e) for v, e in peers if v]
            best = (min(peers) if lower else max(peers)) if peers else None
            xu = []
            for a in lfht:
                o = 'urcu-' + a.split('-')[1]
                rs = b.ratios(per, o, a, key) if lower else b.ratios(per, a, o, key)
                if rs:
                    xu.append(statistics.median(rs))
            top = [v for v in ours if v is not None]
            xp = None
            if best and top:
                mine = min(top) if lower else max(top)
                xp = (best[0] / mine if lower else mine / best[0]) if mine else None
            trails = (xu and min(xu) < 1.0) or (xp is not None and xp < 1.0)
            rows.append([w, keys_text(w, k), threads_text(w, t), label] +
                        [fmt(v) for v in ours] +
                        [fmt((min(urcu) if lower else max(urcu)) if urcu else None),
                         '%s %s' % (SHORT_NAMES[best[1]], fmt(best[0])) if best else '-',
                         '%.2f' % min(xu) if xu else '-',
                         '%.2f' % xp if xp is not None else '-',
                         '<' if trails else ''])
            if trails:
                against = [SHORT_NAMES[best[1]]] if xp is not None and xp < 1.0 else []
                if xu and min(xu) < 1.0:
                    against.insert(0, 'liburcu')
                text = TRAIL_WHY.get((w, best[1] if best else None)) or \
                    TRAIL_WHY.get((w, None)) or 'not explained yet'
                why += textwrap.wrap('< %s %s %s %s, behind %s: %s' % (
                    w, keys_text(w, k), threads_text(w, t), label, ' and '.join(against), text),
                    100, initial_indent='  ', subsequent_indent='      ')
    return render(rows) + (['', 'Where lfht trails:'] + why if why else [])


def pace_lines(b, w, k, t):
    """The pace table: per implementation, the median and worst of the
    workload's first metric over its runs."""
    per = b.results[(w, k, t)]
    key, label = metrics(w)[0]
    rows = [['impl', 'median ' + label, 'worst ' + label, 'worst/median', 'runs']]
    for impl in b.impls:
        v = b.values(per, impl, key)
        if not v:
            rows.append([impl, '-', '-', '-', '0'])
            continue
        m = statistics.median(v)
        rows.append([impl, fmt(m), fmt(min(v)), '%.2f' % (min(v) / m if m else 0),
                     str(len(v))])
    return ['\nAuto-resize keeps pace: fill %d keys from 1 bucket, then %s for %.2f s, %d runs'
            % (k, roles_words(w, t), b.o.seconds, Table.WORKLOADS[w]['runs'])] + render(rows)


def roles_words(w, t):
    """'1+1' -> '1 reader + 1 writer' (the pace heading)."""
    readers, _, writers = threads_text(w, t).partition('+')
    return '%s reader%s + %s writer%s' % (readers, 's' if readers != '1' else '',
                                          writers, 's' if writers != '1' else '')


def memory_lines(b, w, k, t):
    per = b.results.get((w, k, t))
    rows = [['impl'] + [label for _, label in metrics(w)]]
    for impl in b.impls:
        gap = '-' if supported(impl, w) else 'n/a'
        rows.append([impl] + ['%.1f' % b.med(per, impl, key)
                              if b.med(per, impl, key) is not None else gap
                              for key, _ in metrics(w)])
    return ['\nMemory at %d keys (auto-resize table from 1 bucket; heap+maps = '
            'the growth of malloc\'s in-use bytes (mallinfo2) plus the resident '
            'pages of what the library mmaps itself; RSS = resident delta; '
            'table = heap+maps minus the entries alone; dpdk: made for the N '
            'keys (fixed capacity 2N), counted with what rte_malloc holds, from '
            'before the table was made, its entries inside the table)' % k] + render(rows)


# The sections after the throughput table, by the table's report field.
SECTIONS = {'pace': pace_lines, 'memory': memory_lines}


def section_lines(b, plan):
    """The pace sections, then the memory sections, in plan order."""
    lines = []
    for report in ('pace', 'memory'):
        for (w, k, t, _) in plan:
            if report_of(w) == report:
                lines += SECTIONS[report](b, w, k, t)
    return lines


def batch_note(b):
    """Says what the batch rows measured for lfht: its batched lookup or
    the baseline of single lookups."""
    native = sorted({i for (w, _, _), per in b.results.items() if w == 'batch'
                     for i, runs in per.items() for d in runs
                     if d and d.get('native_batch') == '1'})
    if native:
        return ('(batch: %s call lfht_lookup_batch(); the others run 16 single lookups '
                'per read-side section)' % ', '.join(native))
    return ('(batch: every implementation runs 16 single lookups per read-side section; '
            'this lfht has no lfht_lookup_batch())')


# --targets: the points of the performance targets (docs/performance.md),
# each (workload, keys, threads[, at most so many runs]), and the targets over them: (what, point,
# metric, other implementation, at least). A ratio is lfht's over the
# other's, the median of the per-pair ratios of adjacent runs, for each
# lfht flavour against the same flavour of liburcu ('urcu') or against
# 'ck'. Memory is lower-is-better: its ratio is liburcu's over lfht's.
K16, K20, K21, K22 = 1 << 16, 1 << 20, 1 << 21, 1 << 22
TARGET_POINTS = [('read', K16, 1), ('read', K16, 2), ('read', K22, 1), ('read', K22, 2),
                 ('batch', K16, 1), ('batch', K16, 2), ('batch', K22, 1), ('batch', K22, 2),
                 ('fill', K20, 1), ('rw1', K16, 2), ('hot10', None, None),
                 ('hot1', None, None), ('longread', None, None),
                 ('rcufree', 1, 1), ('rcufree', 1, 2),
                 ('mixed', K16, 1), ('mixed', K16, 2), ('addel', K16, 1), ('addel', K16, 2),
                 ('churn', K16, 1), ('churn', K16, 2), ('memory', K16, 1),
                 ('autoread', K22, 1), ('memory', K20, 1), ('autoread', K16, 1),
                 ('pool-add', None, None), ('pool-unique', None, None),
                 ('pool-replace', None, None),
                 # liburcu takes about 30 s per run here: at most 3 runs.
                 ('flush', K21, 1, 3)]
TARGETS = [
    ('batch of 16, 2^22 keys, 1 thread', ('batch', K22, 1), 'lookups_per_s', 'urcu', 4.0),
    ('batch of 16, 2^22 keys, 2 threads', ('batch', K22, 2), 'lookups_per_s', 'urcu', 4.0),
    ('batch of 16, 2^16 keys, 1 thread', ('batch', K16, 1), 'lookups_per_s', 'urcu', 2.0),
    ('batch of 16, 2^16 keys, 2 threads', ('batch', K16, 2), 'lookups_per_s', 'urcu', 2.0),
    ('lookups 2^16, 1 thread', ('read', K16, 1), 'lookups_per_s', 'urcu', 1.5),
    ('lookups 2^16, 2 threads', ('read', K16, 2), 'lookups_per_s', 'urcu', 1.5),
    ('lookups 2^22, 1 thread', ('read', K22, 1), 'lookups_per_s', 'urcu', 1.5),
    ('lookups 2^22, 2 threads', ('read', K22, 2), 'lookups_per_s', 'urcu', 1.5),
    ('lookups 2^16, 1 thread', ('read', K16, 1), 'lookups_per_s', 'ck', 1.2),
    ('lookups 2^16, 2 threads', ('read', K16, 2), 'lookups_per_s', 'ck', 1.2),
    ('lookups 2^22, 1 thread', ('read', K22, 1), 'lookups_per_s', 'ck', 1.2),
    ('lookups 2^22, 2 threads', ('read', K22, 2), 'lookups_per_s', 'ck', 1.2),
    ('fill 2^20 from 1 bucket', ('fill', K20, 1), 'inserts_per_s', 'urcu', 1.7),
    ('fill 2^20 from 1 bucket', ('fill', K20, 1), 'inserts_per_s', 'ck', 1.0),
    ('fill 2^20 from 1 bucket, CPU', ('fill', K20, 1), 'inserts_per_cpu_s', 'ck', 1.0),
    ('1 reader + 1 writer, reads', ('rw1', K16, 2), 'lookups_per_s', 'urcu', 1.3),
    ('1 reader + 1 writer, updates', ('rw1', K16, 2), 'updates_per_s', 'urcu', 1.3),
    ('1 reader + 1 writer, updates', ('rw1', K16, 2), 'updates_per_s', 'ck', 1.0),
    ('rcu_retire freeing, 1 thread', ('rcufree', 1, 1), 'callbacks_per_s', 'urcu', 1.5),
    ('rcu_retire freeing, 2 threads', ('rcufree', 1, 2), 'callbacks_per_s', 'urcu', 1.5),
    ('hot10, reads', ('hot10', None, None), 'lookups_per_s', 'urcu', 1.0),
    ('hot10, updates', ('hot10', None, None), 'updates_per_s', 'urcu', 1.0),
    ('memory, heap B/entry (lower)', ('memory', K16, 1), 'heap_bytes_per_entry', 'urcu', 1.0),
    ('memory, RSS B/entry (lower)', ('memory', K16, 1), 'rss_bytes_per_entry', 'urcu', 1.0),
]

# The targets of issue 28 (ahead of every peer on every workload; they
# include issue 21's), printed first. Kinds:
#   ('ratio', what, point, metric, other, at least): lfht over the other
#     ('urcu': the same flavour of liburcu; ('presized', point): the same
#     lfht flavour at that point);
#   ('best', what, point, metric, others, at least): lfht over each of the
#     others, the least of those medians (the best other) counts;
#   ('most', what, point, metric, bound, shown): lfht's value at most the
#     bound, the other's value shown beside.
UPDATE_PEERS = ('tbb-hash', 'dpdk', 'ck')
POOLS = ('pool-add', 'pool-unique', 'pool-replace')


def per_point(kind, what, workload, points, metric, other, least):
    """One target per (keys, threads) point, its name what with the
    point's 2^n keys and threads."""
    return [(kind, '%s 2^%d, %d thread%s' % (what, k.bit_length() - 1, t, 's' * (t > 1)),
             (workload, k, t), metric, other, least) for k, t in points]


LOOKUP_POINTS = [(K16, 1), (K16, 2), (K22, 1)]
BATCH_POINTS = [(K16, 1), (K16, 2), (K22, 1), (K22, 2)]
TARGETS_28 = (
    per_point('ratio', 'lookups', 'read', LOOKUP_POINTS, 'lookups_per_s', 'dpdk', 1.1) +
    per_point('ratio', 'lookups', 'read', LOOKUP_POINTS, 'lookups_per_s', 'ck', 1.2) +
    per_point('ratio', 'lookups auto-resized', 'autoread', [(K22, 1)], 'lookups_per_s',
              'ck', 1.0) +
    per_point('ratio', 'lookups auto-resized', 'autoread', [(K22, 1)], 'lookups_per_s',
              ('presized', ('read', K22, 1)), 0.9) +
    per_point('ratio', 'batch of 16,', 'batch', BATCH_POINTS, 'lookups_per_s', 'dpdk', 1.2) +
    per_point('ratio', 'batch of 16,', 'batch', BATCH_POINTS[2:], 'lookups_per_s', 'urcu',
              6.0) +
    [('best', 'updates: 1 reader + 1 writer (rw1)', ('rw1', K16, 2), 'updates_per_s',
      UPDATE_PEERS, 1.0),
     ('best', 'updates: 10 keys, 2 readers + 2 writers (hot10)', ('hot10', None, None),
      'updates_per_s', UPDATE_PEERS, 1.0),
     ('best', 'updates: 1 key, 4 writers (hot1)', ('hot1', None, None), 'updates_per_s',
      UPDATE_PEERS, 1.0)] +
    per_point('best', 'updates: addel', 'addel', [(K16, 1), (K16, 2)], 'ops_per_s',
              UPDATE_PEERS, 1.0) +
    # lfht-<flavour> frees with rcu_retire() (lfht-<flavour>-callrcu, its
    # call_rcu(), shows in the throughput tables beside liburcu's).
    [('ratio', 'rcu_retire freeing, %d thread%s' % (t, 's' * (t > 1)), ('rcufree', 1, t),
      'callbacks_per_s', 'ck', 1.0) for t in (1, 2)] +
    per_point('ratio', 'fill from 1 bucket,', 'fill', [(K20, 1)], 'inserts_per_s', 'ck', 1.0) +
    # The same keys over the CPU time of every thread (lfht's resize
    # worker included) until growth settles: what a fully busy machine sees.
    per_point('ratio', 'fill from 1 bucket (per CPU-s),', 'fill', [(K20, 1)],
              'inserts_per_cpu_s', 'ck', 1.0) +
    [('ratio', 'growth under long readers', ('longread', None, None), 'inserts_per_s',
      'urcu', 1.0),
     ('ratio', 'contention: 10 keys, 2 readers + 2 writers, reads', ('hot10', None, None),
      'lookups_per_s', 'urcu', 1.0),
     ('ratio', 'contention: 1 key, 4 writers', ('hot1', None, None), 'updates_per_s',
      'urcu', 1.0)] +
    [('ratio', '%s (liburcu\'s 10-key pools), %s' % (w, m[:-len('_per_s')]),
      (w, None, None), m, 'urcu', 1.0)
     for w in POOLS for m in ('reads_per_s', 'writes_per_s')] +
    per_point('ratio', 'flush by restarted iteration,', 'flush', [(K21, 1)],
              'deletes_per_s', 'urcu', 1.0) +
    [t for m in ('lookups_per_s', 'updates_per_s')
     for t in per_point('ratio', 'mixed, %s:' % m[:-len('_per_s')], 'mixed',
                        [(K16, 1), (K16, 2)], m, 'urcu', 1.3)] +
    [('most', 'table B/entry, 2^20 auto-resized (lower)', ('memory', K20, 1),
      'table_bytes_per_entry', 8.0, 'ck')])
PEER_LABELS = {'urcu': 'liburcu', 'dpdk': 'rte_hash', 'ck': 'ck_hs',
               'tbb-hash': 'oneTBB hash_map'}


# The targets of issue 35 (LFHT_BUCKETS_PER_NODE(4): lfht-<flavour>-d4),
# printed first: (what, the d4 point, the other's point, metric, other, at
# least), a ratio of runs of the two points paired in order; and the memory
# row (table B/entry: the heap per entry less an entry's own malloc, for
# every implementation that can run the memory workload).
TARGETS_35 = [
    ('density 4 from 1 bucket, lookups 2^22, 1 thread', ('autoread', K22, 1),
     ('read', K22, 1), 'lookups_per_s', 'dpdk', 1.1),
    ('density 4 from 1 bucket, lookups 2^16, 1 thread', ('autoread', K16, 1),
     ('read', K16, 1), 'lookups_per_s', 'dpdk', 1.0),
    ('density 4 pre-sized, lookups 2^22, 1 thread', ('read', K22, 1),
     ('read', K22, 1), 'lookups_per_s', 'dpdk', 1.1),
    ('density 4 pre-sized, lookups 2^16, 1 thread', ('read', K16, 1),
     ('read', K16, 1), 'lookups_per_s', 'dpdk', 1.0),
]
MEMORY_35 = ('memory', K20, 1)


def target35_lines(b):
    """Issue 35's targets: lfht-<flavour>-d4 over the other per target, and
    the table bytes per entry of each density beside the other's."""
    rows = [['target', 'vs', 'need', 'lfht-qsbr-d4 [min-max]', 'lfht-memb-d4 [min-max]',
             'met']]
    for what, point, other_point, key, other, least in TARGETS_35:
        per = b.results.get(resolve(point), {})
        base = b.results.get(resolve(other_point), {})
        row = [what, PEER_LABELS.get(other, other), '>= %.1fx' % least]
        ok = True
        for fl in ('qsbr', 'memb'):
            rs = [x / y for x, y in zip(b.values(per, 'lfht-%s-d4' % fl, key),
                                        b.values(base, other, key)) if y > 0]
            row.append(fmt_ratio(rs))
            ok = ok and bool(rs) and statistics.median(rs) >= least
        rows.append(row + ['yes' if ok else 'NO'])
    lines = render(rows)
    per = b.results.get(resolve(MEMORY_35), {})
    shown = ['lfht-qsbr', 'lfht-qsbr-d4', 'lfht-memb', 'lfht-memb-d4', 'dpdk', 'ck']
    mem = [['table B/entry, 2^20 auto-resized (lower)'] + shown]
    mem.append([''] + [fmt(b.med(per, i, 'table_bytes_per_entry')) for i in shown])
    return lines + [''] + render(mem)


def target28_lines(b):
    """Issue 28's targets: per lfht flavour its ratio (or value) and
    whether both flavours meet it."""
    rows = [['target', 'vs', 'need', 'lfht-qsbr [min-max]', 'lfht-memb [min-max]', 'met']]
    for t in TARGETS_28:
        kind, what, point, key = t[0], t[1], t[2], t[3]
        per = b.results.get(resolve(point), {})
        if kind == 'most':
            bound, shown = t[4], t[5]
            v = b.med(per, shown, key)
            row = [what, '%s: %s' % (shown, fmt(v) if v is not None else '-'),
                   '<= %g' % bound]
            ok = True
            for fl in ('qsbr', 'memb'):
                m = b.med(per, 'lfht-' + fl, key)
                row.append(fmt(m) if m is not None else '-')
                ok = ok and m is not None and m <= bound
            rows.append(row + ['yes' if ok else 'NO'])
            continue
        other, least = t[4], t[5]
        if kind == 'best':
            label = 'best of ' + ', '.join(o for o in other if o in b.impls)
        elif isinstance(other, tuple):
            base = b.results.get(resolve(other[1]), {})
            label = 'lfht pre-sized'
        elif point[0] == 'rcufree' and other == 'ck':
            label = 'ck_epoch_call'
        else:
            label = PEER_LABELS.get(other, other)
        row = [what, label, '>= %.1fx' % least]
        ok = True
        for fl in ('qsbr', 'memb'):
            a = 'lfht-' + fl
            if kind == 'best':
                # Against each other that ran; the one lfht leads least.
                each = [(statistics.median(r), o, r) for o in other
                        for r in [b.ratios(per, a, o, key)] if r]
                rs = min(each)[2] if each else []
                if each:
                    row.append('%s (%s)' % (fmt_ratio(rs), min(each)[1]))
                else:
                    row.append('-')
            else:
                if isinstance(other, tuple):
                    rs = [x / y for x, y in zip(b.values(per, a, key),
                                                b.values(base, a, key)) if y > 0]
                else:
                    rs = b.ratios(per, a, 'urcu-' + fl if other == 'urcu' else other, key)
                row.append(fmt_ratio(rs))
            ok = ok and bool(rs) and statistics.median(rs) >= least
        rows.append(row + ['yes' if ok else 'NO'])
    return render(rows)


def target_lines(b):
    """The target table: each target's ratio per lfht flavour, and whether
    both flavours meet it; then every other ratio against liburcu below 1.0
    (the target that no workload is slower than liburcu)."""
    rows = [['target', 'vs', 'at least', 'lfht-qsbr [min-max]', 'lfht-memb [min-max]',
             'met']]
    for what, point, key, other, least in TARGETS:
        per = b.results.get(resolve(point), {})
        row = [what, 'liburcu' if other == 'urcu' else other, '%.1f' % least]
        ok = True
        for fl in ('qsbr', 'memb'):
            a = 'lfht-' + fl
            o = 'urcu-' + fl if other == 'urcu' else other
            rs = b.ratios(per, o, a, key) \
                if metric_flag(point[0], key, 'lower_is_better') else \
                b.ratios(per, a, o, key)
            row.append(fmt_ratio(rs))
            ok = ok and bool(rs) and statistics.median(rs) >= least
        row.append('yes' if ok else 'NO')
        rows.append(row)
    lines = render(rows)
    slow = []
    for (w, k, t), per in sorted(b.results.items(), key=lambda x: str(x[0])):
        if report_of(w) == 'memory':
            continue
        for key, label in metrics(w):
            for a, o in cfg.PAIRS:
                rs = b.ratios(per, a, o, key)
                if rs and statistics.median(rs) < 1.0:
                    slow.append('  %s %s %s %s: %s/%s %s' % (w, keys_text(w, k),
                                threads_text(w, t), label, a, o, fmt_ratio(rs)))
    lines.append('')
    lines.append('No workload below 1.0x liburcu: ' +
                 ('met (every ratio above has a median >= 1.0)' if not slow else
                  'NOT met:'))
    return lines + slow


def resolve(point):
    """A target point with the workload's fixed keys and threads where it
    gives None (hot10, hot1, longread: their shapes in the table)."""
    w, k, t = point
    d = Table.WORKLOADS[w]
    if k is None:
        k = 1 if d['keys'] == 'none' else fixed(d['keys'])
    if t is None:
        t = fixed(d['threads'])
    return (w, k, t)


def target_plan(repeats):
    """--targets: its points, each with the workload's runs (memory: 1)."""
    return [resolve(p[:3]) + (min(p[3], repeats) if len(p) > 3 else
                              Table.WORKLOADS[p[0]]['runs'] or repeats,)
            for p in TARGET_POINTS]
