# SPDX-License-Identifier: MIT
"""Benchmark driver, the plots (lfht-bench --plot): with gnuplot, one chart
per workload and axis of the throughput table, and a ratio chart
lfht/liburcu. Which workloads get charts (those of the throughput table)
and their axes come from the workload table (bench_run.read_table)."""
import os
import shutil
import statistics
import subprocess
import time

import bench_run
from bench_run import Table, report_of, supported


# Chart styles (colour, dash, point), given out by the implementation's
# place in the driver's list (meson's order: bench_run.cfg.IMPLS), so a new
# implementation needs no entry here. In today's order: QSBR blue, memb
# orange, lfht dark and solid, liburcu light and dashed; rwlock dark grey,
# ck green, then the peers.
PALETTE = [
    ('#08519c', 1, 7),
    ('#6baed6', 2, 6),
    ('#a63603', 1, 5),
    ('#fd8d3c', 2, 4),
    ('#404040', 3, 9),
    ('#238b45', 1, 11),
    ('#6a3d9a', 1, 13),
    ('#b15928', 4, 8),
    ('#e7298a', 4, 10),
    ('#1b9e77', 5, 12),
    ('#666600', 5, 3),
    ('#00838f', 3, 2),
]


def style(impl):
    """(colour, dash, point) of an implementation in the charts."""
    impls = list(bench_run.cfg.IMPLS)
    n = impls.index(impl) if impl in impls else len(impls)
    return PALETTE[n % len(PALETTE)]


def pair_style(impl):
    """(colour, point) of an lfht/liburcu ratio line: the lfht column's."""
    color, _, point = style(impl)
    return color, point


def unit_for(values):
    """(divisor, suffix) that writes the largest value as a few digits:
    30000000 -> 30M."""
    top = max([abs(v) for v in values if v is not None] or [0])
    for div, suffix in ((1e9, 'G'), (1e6, 'M'), (1e3, 'k')):
        if top >= div:
            return div, suffix
    return 1.0, ''


def key_label(k):
    if k >= 1 << 20 and k % (1 << 20) == 0:
        return '%dM' % (k >> 20)
    if k >= 1 << 10 and k % (1 << 10) == 0:
        return '%dK' % (k >> 10)
    return str(k)


def gp_str(text):
    return "'" + text.replace("'", "''") + "'"


def gnuplot(o, b, configs):
    """One chart per workload and axis (throughput of each implementation,
    median with min-max bars, one panel per metric) and, when liburcu was
    measured, a ratio chart (lfht/liburcu per flavour, with the 1.0 line)."""
    if not shutil.which('gnuplot'):
        print('\n(--plot: gnuplot not installed, no charts written)')
        return
    os.makedirs(o.plot, exist_ok=True)
    written = []
    groups = {}
    for (w, k, t) in configs:
        if report_of(w) != 'throughput':
            continue
        groups.setdefault((w, 'keys', k), []).append(t)
        groups.setdefault((w, 'threads', t), []).append(k)
    where = '%d CPUs, %s build, %s' % (os.cpu_count() or 0, bench_run.cfg.BUILDTYPE,
                                       time.strftime('%Y-%m-%d'))
    for (w, fixed, val), xs in sorted(groups.items()):
        xs = sorted(set(xs))
        if len(xs) < 2:
            continue
        xname = 'threads' if fixed == 'keys' else 'keys'
        fixed_text = '%s %s' % (key_label(val), 'keys') if fixed == 'keys' else \
            '%d thread%s' % (val, 's' if val > 1 else '')
        if fixed == 'keys' and Table.WORKLOADS[w]['keys'] == 'none':
            fixed_text = 'no table'
        cfgs = [((w, val, x) if fixed == 'keys' else (w, x, val)) for x in xs]
        base = os.path.join(o.plot, '%s-vs-%s-%s%d' % (w, xname, fixed, val))

        def xpos(x, n, count):
            # Spread the implementations a little around each x so that
            # their bars do not hide each other.
            shift = n - (count - 1) / 2.0
            return x * 2 ** (0.06 * shift) if xname == 'keys' else x + 0.04 * shift

        if xname == 'keys':
            xaxis = ('set logscale x 2\nset xrange [%g:%g]\nset xtics (%s)\n'
                     "set xlabel 'keys (K = 2^10, M = 2^20)'\n"
                     % (xs[0] / 1.6, xs[-1] * 1.6,
                        ', '.join('"%s" %d' % (key_label(x), x) for x in xs)))
        else:
            xaxis = ("set xrange [%g:%g]\nset xtics 1\nset xlabel 'threads'\n"
                     % (xs[0] - 0.5, xs[-1] + 0.5))
        common = ("set grid ytics lc rgb '#dddddd'\nset key outside right top\n"
                  "set bars 2\nset yrange [0:*]\n" + xaxis)

        # Throughput: a panel per metric (mixed: lookups and updates), for
        # the implementations that run this workload.
        metrics = bench_run.metrics(w)
        impls = [i for i in b.impls if supported(i, w)]
        dat = base + '.dat'
        with open(dat, 'w') as f:
            f.write('# x, then per metric and implementation: x-position median min max\n')
            for x, cfg in zip(xs, cfgs):
                per = b.results.get(cfg, {})
                cols = ['%d' % x]
                for key, _ in metrics:
                    for n, impl in enumerate(impls):
                        v = b.values(per, impl, key)
                        cols += ['%g' % xpos(x, n, len(impls))] + (
                            ['%g' % statistics.median(v), '%g' % min(v), '%g' % max(v)]
                            if v else ['?', '?', '?'])
                f.write(' '.join(cols) + '\n')
        panels = []
        for m, (key, label) in enumerate(metrics):
            allv = [v for cfg in cfgs for i in impls
                    for v in b.values(b.results.get(cfg, {}), i, key)]
            div, suffix = unit_for(allv)
            plots = []
            for n, impl in enumerate(impls):
                color, dash, point = style(impl)
                c = 2 + (m * len(impls) + n) * 4
                plots.append("'%s' using %d:($%d/%g):($%d/%g):($%d/%g) with yerrorlines "
                             "lw 2 lc rgb '%s' dt %d pt %d ps 1.2 title '%s'"
                             % (dat, c, c + 1, div, c + 2, div, c + 3, div, color, dash,
                                point, impl))
            panels.append("set title %s\nset ylabel %s\nset format y '%%g%s'\nplot %s\n"
                          % (gp_str(label), gp_str(label), suffix, ', '.join(plots)))
        title = '%s, %s: median of %d runs, bars min-max\\n%s' % (
            w, fixed_text, o.repeats, where)
        width = 720 if len(metrics) == 1 else 1200
        script = ("set terminal pngcairo size %d,440 font 'sans,10' noenhanced\n"
                  "set output '%s.png'\nset datafile missing '?'\n%s"
                  "set multiplot layout 1,%d title \"%s\" font 'sans,11'\n%s"
                  "unset multiplot\n"
                  % (width, base, common, len(metrics), title, ''.join(panels)))
        subprocess.run(['gnuplot'], input=script, text=True, check=False)
        written.append(base + '.png')

        # Ratio lfht/liburcu per flavour, on the first metric.
        key, label = metrics[0]
        pairs = [(a, bb) for a, bb in bench_run.cfg.PAIRS if a in b.impls and bb in b.impls]
        if not pairs:
            continue
        rdat = base.replace('-vs-', '-ratio-vs-') + '.dat'
        spread = []
        with open(rdat, 'w') as f:
            f.write('# x, then per pair: x-position median min max of lfht/liburcu\n')
            for x, cfg in zip(xs, cfgs):
                per = b.results.get(cfg, {})
                cols = ['%d' % x]
                for n, (a, bb) in enumerate(pairs):
                    r = b.ratios(per, a, bb, key)
                    spread += r
                    cols += ['%g' % xpos(x, n, len(pairs))] + (
                        ['%g' % statistics.median(r), '%g' % min(r), '%g' % max(r)]
                        if r else ['?', '?', '?'])
                f.write(' '.join(cols) + '\n')
        plots = []
        for n, (a, bb) in enumerate(pairs):
            color, point = pair_style(a)
            c = 2 + n * 4
            plots.append("'%s' using %d:%d:%d:%d with yerrorlines lw 2 lc rgb '%s' "
                         "pt %d ps 1.2 title '%s / %s'"
                         % (rdat, c, c + 1, c + 2, c + 3, color, point, a, bb))
        plots.append("1 with lines lw 1.5 dt 2 lc rgb '#000000' title 'parity (1.0)'")
        rtitle = ('%s, %s: lfht / liburcu, %s\\nmedian of %d adjacent-run ratios, '
                  'bars min-max\\n%s' % (w, fixed_text, label, o.repeats, where))
        rbase = base.replace('-vs-', '-ratio-vs-')
        # A wide range (a stalled run gives 30x) would flatten the rest on a
        # linear axis: then a log axis, 1.0 in the middle of its powers of 2.
        if spread and (max(spread) > 4 or min(spread) < 0.25):
            yaxis = ("set logscale y 2\nset yrange [%g:%g]\nset format y '%%g'\n"
                     "set ylabel 'lfht / liburcu (log scale; above 1: lfht faster)'\n"
                     % (min(min(spread), 1.0) / 1.5, max(max(spread), 1.0) * 1.5))
        else:
            yaxis = ("set format y '%.1f'\n"
                     "set ylabel 'lfht / liburcu (above 1: lfht faster)'\n")
        script = ("set terminal pngcairo size 720,440 font 'sans,10' noenhanced\n"
                  "set output '%s.png'\nset datafile missing '?'\n%s%s"
                  "set title \"%s\"\nplot %s\n"
                  % (rbase, common, yaxis, rtitle, ', '.join(plots)))
        subprocess.run(['gnuplot'], input=script, text=True, check=False)
        written.append(rbase + '.png')
    if written:
        print('\ncharts: ' + ' '.join(written))
    else:
        print('\n(--plot: no workload varies threads or keys over 2+ points: no charts)')
