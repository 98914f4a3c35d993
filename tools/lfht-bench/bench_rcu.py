# SPDX-License-Identifier: MIT
"""Benchmark driver, rcu-bench's part: its implementations, the RCU cost
table (one run per executable gives every metric) and the second table,
the concurrent queues and stacks (queue-bench-<impl>)."""
import os
import statistics
import textwrap

from bench_run import EXE_PATHS, Bench, cfg, exe, fail_usage, progress, run_one
from bench_tables import fmt, fmt_ratio, render


PREFIX = 'rcu-bench-'
IMPLS = ['ours-qsbr', 'urcu-qsbr', 'urcu-qsbr-lgpl',
         'ours-memb', 'urcu-memb', 'urcu-memb-lgpl',
         'ours-bp', 'urcu-bp', 'urcu-bp-lgpl',
         'ours-mb', 'urcu-mb', 'urcu-mb-lgpl']
PAIRS = [('ours-qsbr', 'urcu-qsbr'), ('ours-memb', 'urcu-memb'), ('ours-bp', 'urcu-bp'),
         ('ours-mb', 'urcu-mb')]
EXTRA = ['urcu-qsbr-lgpl', 'urcu-memb-lgpl', 'urcu-bp-lgpl', 'urcu-mb-lgpl']
CK_PAIRS = []
# What registering on the first read lock costs bp over memb, and what
# full fences in place of membarrier cost mb.
SIDE_PAIRS = [('ours-bp', 'ours-memb'), ('ours-mb', 'ours-memb')]
PEERS = []
IMPL_HELP = {
    'ours-qsbr': 'our RCU core, QSBR flavour',
    'urcu-qsbr': "liburcu's urcu-qsbr, calls into the library",
    'urcu-qsbr-lgpl': "liburcu's urcu-qsbr, inline read side (_LGPL_SOURCE)",
    'ours-memb': 'our RCU core, memb flavour',
    'urcu-memb': "liburcu's urcu-memb, calls into the library",
    'urcu-memb-lgpl': "liburcu's urcu-memb, inline read side (_LGPL_SOURCE)",
    'ours-bp': 'our RCU core, bp flavour (threads register on their first read lock)',
    'urcu-bp': "liburcu's urcu-bp, calls into the library",
    'urcu-bp-lgpl': "liburcu's urcu-bp, inline read side (_LGPL_SOURCE)",
    'ours-mb': 'our RCU core, mb flavour (full fences on the read side, no membarrier)',
    'urcu-mb': "liburcu's urcu-mb, calls into the library",
    'urcu-mb-lgpl': "liburcu's urcu-mb, inline read side (_LGPL_SOURCE)",
}

# rcubench.c's RESULT fields, with the table's labels.
METRICS = {
    'rcu': [('read_ns', 'read lock+unlock ns'),
            ('sync0_us', 'synchronize_rcu us, 0 readers'),
            ('sync1_us', 'synchronize_rcu us, 1 reader'),
            ('sync2_us', 'synchronize_rcu us, 2 readers'),
            ('callrcu_mps', 'call_rcu M/s (no malloc), 1 thread'),
            ('callrcu2_mps', 'call_rcu M/s (no malloc), 2 threads'),
            ('rw_reads_mps', '2 readers + 2 synchronize_rcu loops: reads M/s'),
            ('rw_syncs_kps', '2 readers + 2 synchronize_rcu loops: syncs k/s')],
}
DEFAULTS = {'repeats': 5, 'seconds': 0.4}


def rcu_lines(b):
    """The RCU cost table: each metric, ours and liburcu's per flavour."""
    rows = [['metric']]
    for a, bb in cfg.PAIRS:
        rows[0] += [a, bb, 'ours/urcu [min-max]']
    rows[0] += cfg.EXTRA
    rows[0] += ['%s/%s [min-max]' % (a, bb) for a, bb in cfg.SIDE_PAIRS]
    per = b.results[('rcu', 0, 0)]
    for key, label in METRICS['rcu']:
        row = [label]
        for a, bb in cfg.PAIRS:
            row += [fmt(b.med(per, a, key)), fmt(b.med(per, bb, key)),
                    fmt_ratio(b.ratios(per, a, bb, key))]
        row += [fmt(b.med(per, e, key)) for e in cfg.EXTRA]
        row += [fmt_ratio(b.ratios(per, a, bb, key)) for a, bb in cfg.SIDE_PAIRS]
        rows.append(row)
    return render(rows) + ['', '(ns and us: lower is better; M/s: higher is better)']


# rcu-bench's second table: the concurrent queues and stacks, one
# executable per implementation (queue-bench-<impl>, from
# tools/rcu-bench/queues.c: the same source against liburcu's headers and
# against ours through the compatibility layer). Each workload runs with T
# producers and T consumers; the RCU queue (lfq) per flavour, the others
# (no RCU inside) on the memb executables only.
QUEUE_PREFIX = 'queue-bench-'
QUEUE_IMPLS = ['ours-memb', 'urcu-memb', 'urcu-memb-lgpl',
               'ours-qsbr', 'urcu-qsbr', 'urcu-qsbr-lgpl']
QUEUE_WORKLOADS = {
    'wfcq': 'wait-free queue: cds_wfcq_enqueue / cds_wfcq_dequeue_blocking',
    'wfs': 'wait-free stack: cds_wfs_push / cds_wfs_pop_blocking',
    'wfs-all': 'wait-free stack: cds_wfs_push / cds_wfs_pop_all_blocking and a walk',
    'lfs': 'lock-free stack: cds_lfs_push / cds_lfs_pop_blocking',
    'lfs-all': 'lock-free stack: cds_lfs_push / cds_lfs_pop_all_blocking and a walk',
    'lfq': 'RCU queue: cds_lfq_enqueue_rcu / cds_lfq_dequeue_rcu in read-side sections, '
           'nodes malloc\'d by the producers and freed through call_rcu',
    'defer': 'deferred frees: writers rcu_xchg_pointer a fresh object into one of 1024 slots '
             'and defer_rcu(free) the old one, readers check the object in a slot',
}
# The flavours a workload runs in (default memb). defer: memb only, as
# liburcu's QSBR defer_rcu() deadlocks in this shape (a writer whose queue
# is full waits for a grace period while the other, online, waits on the
# defer mutex that liburcu's defer thread holds).
QUEUE_FLAVOURS = {'lfq': ['memb', 'qsbr'], 'defer': ['memb']}
# The rows a workload's run gives: (metric, row label); default: its mops.
QUEUE_METRICS = {'defer': [('mops', 'defer writes'), ('reads_mops', 'defer reads')]}
QUEUE_THREADS = [1, 2]


def queue_key(impl):
    """run_one()'s name for a queue executable: EXE_PATHS maps it."""
    key = 'queue:' + impl
    EXE_PATHS.setdefault(key, os.path.join(cfg.HERE, QUEUE_PREFIX + impl))
    return key


def queue_section(o, b):
    """Runs the queue workloads interleaved (ours, liburcu, liburcu inline
    per repeat) and returns the table's lines; each run goes to b.rows (the
    --csv file) as workload queue:<w>."""
    plan = [(w, fl, t) for w in QUEUE_WORKLOADS for fl in QUEUE_FLAVOURS.get(w, ['memb'])
            for t in QUEUE_THREADS]
    rows = [['workload', 'thr', 'flavour', 'ours M/s', 'urcu M/s', 'ours/urcu [min-max]',
             'urcu-lgpl M/s', 'ours/urcu-lgpl [min-max]']]
    slow, errors, have = [], [], set()
    for n, (w, fl, t) in enumerate(plan, 1):
        impls = [i for i in ('ours-' + fl, 'urcu-' + fl, 'urcu-%s-lgpl' % fl)
                 if os.access(exe(queue_key(i)), os.X_OK)]
        have.update(impls)
        per = {i: [] for i in impls}
        args = ['--workload', w, '--threads', str(t), '--seconds', str(o.seconds)]
        for r in range(o.repeats):
            for impl in impls:
                progress('[queues %d/%d] %s %d+%d %s run %d/%d'
                         % (n, len(plan), w, t, t, impl, r + 1, o.repeats))
                res, err = run_one(queue_key(impl), args, int(o.seconds * 10 + 60))
                if err:
                    errors.append(err)
                per[impl].append(res)
                for metric, _ in QUEUE_METRICS.get(w, [('mops', w)]):
                    if res and metric in res:
                        b.rows.append((impl, 'queue:' + w, '-', '%d+%d' % (t, t), r, metric,
                                       float(res[metric])))
        ours, ref, lgpl = 'ours-' + fl, 'urcu-' + fl, 'urcu-%s-lgpl' % fl
        for metric, label in QUEUE_METRICS.get(w, [('mops', w)]):
            row = [label, '%d+%d' % (t, t), fl if w in QUEUE_FLAVOURS else '-']
            for i in (ours, ref, lgpl):
                v = Bench.values(per, i, metric)
                row.append('%.2f' % statistics.median(v) if v else '-')
                if i == ours:
                    continue
                rs = Bench.ratios(per, ours, i, metric)
                if rs and statistics.median(rs) < 1.0:
                    slow.append('  %s %d+%d %s: ours/%s %s' % (label, t, t, fl, i, fmt_ratio(rs)))
                row.append(fmt_ratio(rs))
            rows.append(row)
    progress('done: %d queue configurations' % len(plan), done=True)
    lines = textwrap.wrap('Queues and stacks (median of %d interleaved runs of %.2f s; M/s: '
                          'millions of items through the structure per second, each one push '
                          'and one pop (defer: writes, each one defer_rcu(), and reads); thr: '
                          'producers+consumers (defer: writers+readers); ratio per adjacent pair '
                          'of runs, higher is better)' % (o.repeats, o.seconds), 100,
                          subsequent_indent=' ')
    gone = [i for i in QUEUE_IMPLS if i not in have]
    if gone:
        lines.append('  not built (not measured): ' + ', '.join(QUEUE_PREFIX + i for i in gone))
    lines += render(rows)
    lines.append('')
    lines.append('No queue or stack row below 1.0x liburcu: ' +
                 ('met' if not slow and 'ours-memb' in have else
                  'NOT met:' if slow else 'not measured (no ours column)'))
    lines += slow
    if errors:
        lines.append('\nFailed queue runs (%d):' % len(errors))
        lines += ['  ' + e.replace('\n', '\n    ') for e in errors[:20]]
    return lines


def queue_smoke(o):
    """--smoke queues: each queue executable named runs every workload
    once, briefly, with 2 producers and 2 consumers; each must report a
    positive rate. Exit status 0 only then."""
    ok = bool(o.executables)
    for path in o.executables:
        name = os.path.basename(path)
        if not name.startswith(QUEUE_PREFIX) or name[len(QUEUE_PREFIX):] not in QUEUE_IMPLS:
            fail_usage('--smoke queues: %s is not one of the %s* executables'
                       % (path, QUEUE_PREFIX))
        impl = name[len(QUEUE_PREFIX):]
        EXE_PATHS[queue_key(impl)] = os.path.abspath(path)
        for w in QUEUE_WORKLOADS:
            if w in QUEUE_FLAVOURS and not any(impl.startswith(side + '-' + fl)
                                               for side in ('ours', 'urcu')
                                               for fl in QUEUE_FLAVOURS[w]):
                continue
            res, err = run_one(queue_key(impl), ['--workload', w, '--threads', '2',
                                                 '--seconds', '0.05'], 50)
            try:
                v = float((res or {}).get('mops', 'nan'))
            except ValueError:
                v = float('nan')
            if err or not v > 0:
                print('FAIL %s %s: %s' % (impl, w, err or 'mops=%s' % res.get('mops')))
                ok = False
            else:
                print('ok   %s %s: mops=%s' % (impl, w, res['mops']))
    return 0 if ok else 1
