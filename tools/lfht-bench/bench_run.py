# SPDX-License-Identifier: MIT
"""Benchmark driver, running the executables: where they are, how one run
is made and parsed, what each executable says about itself (--info: the
workload table, with its refusals), and the interleaved runs of one point
(class Bench). Used by lfht-bench and rcu-bench (driver.py.in)."""
import json
import os
import shlex
import statistics
import subprocess
import sys
import time
import types

# What the entry script sets (driver.py.in): MODE, BUILDTYPE, DEBUG_CHECKS,
# URCU_STATUS, HERE, PREFIX, IMPLS, PAIRS, EXTRA, CK_PAIRS, SIDE_PAIRS,
# PEERS, and METRICS for a mode without a workload table (rcu).
cfg = types.SimpleNamespace()

# The command that runs a target executable: empty natively; in a cross
# build the exe wrapper (qemu-<arch> -L ...), from --exe-wrapper or, under
# `meson test`, from MESON_EXE_WRAPPER.
WRAPPER = shlex.split(os.environ.get('MESON_EXE_WRAPPER', ''))

# impl -> executable, for the executables named on the command line (the
# smoke tests name the ones meson built); others are looked up next to
# the script.
EXE_PATHS = {}


def exe(impl):
    return EXE_PATHS.get(impl) or os.path.join(cfg.HERE, cfg.PREFIX + impl)


def available(impls):
    return [i for i in impls if os.access(exe(i), os.X_OK)]


def fail_usage(msg):
    """One line on stderr, exit status 2 (as argparse does for bad usage)."""
    sys.stderr.write('%s: %s\n' % (os.path.basename(sys.argv[0]), msg))
    sys.exit(2)


def parse_list(text, what, valid=None, conv=str):
    """Splits a comma-separated option value; an unknown or malformed item
    ends the program with one line naming the valid values."""
    out = []
    for item in text.split(','):
        item = item.strip()
        if valid is not None and item not in valid:
            fail_usage('unknown %s %r; valid: %s' % (what, item, ', '.join(valid)))
        try:
            value = conv(item)
        except ValueError:
            fail_usage('bad %s %r: want positive integers separated by commas, e.g. 1,2'
                       % (what, item))
        if conv is not str and value <= 0:
            fail_usage('bad %s %r: want positive integers' % (what, item))
        out.append(value)
    return out


def progress(msg, done=False):
    if sys.stderr.isatty():
        sys.stderr.write('\r\033[K' + msg + ('\n' if done else ''))
    else:
        sys.stderr.write(msg + '\n')
    sys.stderr.flush()


def parse_result(text):
    for line in text.splitlines():
        if line.startswith('RESULT '):
            out = {}
            for tok in line.split()[1:]:
                k, _, v = tok.partition('=')
                out[k] = v
            return out
    return None


def run_one(impl, args, timeout):
    cmd = WRAPPER + [exe(impl)] + args
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, 'timed out after %ds: %s' % (timeout, ' '.join(cmd))
    if p.returncode == 3 and p.stdout.startswith('UNSUPPORTED '):
        return None, 'unsupported: ' + p.stdout.strip()
    res = parse_result(p.stdout)
    if p.returncode != 0 or res is None:
        return None, 'failed (rc %d): %s\n%s' % (p.returncode, ' '.join(cmd),
                                                p.stderr.strip())
    return res, None


class Table:
    """The workload table as the executables give it (--info; the C table
    is tools/lfht-bench/table.c): WORKLOADS, name -> workload (in run order; each with what,
    keys, threads, roles, report, runs, smoke_keys, metrics), and REFUSED,
    (impl, workload) -> the reason that implementation gives. Read from
    every executable that is there; the first gives the workloads. IMPLS:
    impl -> what it says of itself (name, kind, help, note, pair, vs)."""
    WORKLOADS = {}
    REFUSED = {}
    IMPLS = {}
    read_from = set()


def read_table(impls):
    """Reads --info from each of impls not read yet (those that exist)."""
    for impl in available(impls):
        if impl in Table.read_from:
            continue
        cmd = WRAPPER + [exe(impl), '--info']
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, timeout=120)
            info = json.loads(p.stdout) if p.returncode == 0 else None
        except (subprocess.TimeoutExpired, ValueError):
            info = None
        if info is None:
            fail_usage('%s --info gave no workload table' % ' '.join(cmd))
        Table.read_from.add(impl)
        Table.IMPLS[impl] = info['impl']
        for w in info['workloads']:
            Table.WORKLOADS.setdefault(w['name'], w)
            if w['refused']:
                Table.REFUSED[(impl, w['name'])] = w['refused']
    return Table.WORKLOADS


def supported(impl, workload):
    return (impl, workload) not in Table.REFUSED


def metrics(workload):
    """[(result key, label)]; higher is better unless the table says so."""
    if workload in Table.WORKLOADS:
        return [(m['name'], m['label']) for m in Table.WORKLOADS[workload]['metrics']]
    return cfg.METRICS[workload]


def metric_flag(workload, key, flag):
    for m in Table.WORKLOADS.get(workload, {}).get('metrics', []):
        if m['name'] == key:
            return m[flag]
    return False


def report_of(workload):
    """The table a workload's rows go to: throughput, pace or memory."""
    return Table.WORKLOADS.get(workload, {}).get('report', 'throughput')


def fixed(value):
    """The N of a 'fixed=N' or 'first=N' shape, else None."""
    kind, _, n = value.partition('=')
    return int(n) if n else None


class Bench:
    def __init__(self, opts):
        self.o = opts
        self.impls = available(opts.impls)
        self.missing = [i for i in opts.impls if i not in self.impls]
        self.rows = []        # (impl, workload, keys, threads, repeat, metric, value)
        self.errors = []
        self.stalls = []
        self.results = {}     # (workload, keys, threads) -> {impl: [dict per repeat]}
        self.runs_total = 0   # set by plan_runs(): runs the plan holds
        self.runs_done = 0
        self.started = time.monotonic()

    def plan_runs(self, plan):
        """Counts the runs of plan [(workload, keys, threads, repeats)], for
        the time left that progress lines show."""
        self.runs_total = sum(reps * sum(1 for i in self.impls if supported(i, w))
                              for (w, _, _, reps) in plan)

    def time_left(self):
        if not self.runs_done or self.runs_done >= self.runs_total:
            return ''
        left = (time.monotonic() - self.started) / self.runs_done * \
            (self.runs_total - self.runs_done)
        return ', about %dm%02ds left' % (left // 60, left % 60)

    def run_config(self, workload, keys, threads, repeats, step, total):
        per = {i: [] for i in self.impls}
        args = ['--workload', workload, '--keys', str(keys), '--threads', str(threads),
                '--seconds', str(self.o.seconds)]
        if cfg.MODE == 'rcu':
            args = ['--seconds', str(self.o.seconds)]
        if self.o.cleanup:
            args.append('--cleanup')
        if self.o.pin:
            args.append('--pin')
        timeout = int(self.o.seconds * 10 + 120)
        for r in range(repeats):
            for impl in self.impls:
                if not supported(impl, workload):
                    continue
                progress('[%d/%d] %s keys=%s threads=%s %s run %d/%d%s'
                         % (step, total, workload, keys, threads, impl, r + 1, repeats,
                            self.time_left()))
                res, err = run_one(impl, args, timeout)
                self.runs_done += 1
                if err:
                    self.errors.append(err)
                    per[impl].append(None)
                    continue
                per[impl].append(res)
                if res.get('stalled') == '1':
                    self.stalls.append('%s %s keys=%s threads=%s run %d: the fill stalled '
                                       '(table stopped growing; rate is what was reached '
                                       'in the time bound)' % (impl, workload, keys, threads,
                                                               r + 1))
                for key, _ in metrics(workload):
                    if key in res:
                        self.rows.append((impl, workload, keys, threads, r, key,
                                          float(res[key])))
        self.results[(workload, keys, threads)] = per
        return per

    @staticmethod
    def values(per, impl, key):
        return [float(d[key]) for d in per.get(impl, []) if d and key in d]

    @staticmethod
    def ratios(per, a, b, key):
        out = []
        for da, db in zip(per.get(a, []), per.get(b, [])):
            if da and db and key in da and key in db and float(db[key]) > 0:
                out.append(float(da[key]) / float(db[key]))
        return out

    def med(self, per, impl, key):
        v = self.values(per, impl, key)
        return statistics.median(v) if v else None
