# SPDX-License-Identifier: MIT
"""The verdict table of lfht-bench: runs the driver (argv[1]; the executables
after it are named for meson's exe wrapper only) on a few short throughput
points and checks that its output opens with the verdict, one
row per point and metric within 100 columns, before the full table."""
import subprocess
import sys

WIDTH = 100
args = [sys.executable, sys.argv[1], '--workloads', 'read,mixed', '--keys', '1024',
        '--threads', '1', '--repeats', '1', '--seconds', '0.02']
out = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                     check=True, timeout=300).stdout.splitlines()
start = next((n for n, line in enumerate(out) if line.startswith('Verdict')), None)
end = next((n for n, line in enumerate(out) if line.startswith('Full table')), None)
if start is None or end is None or end < start:
    sys.exit('check_verdict: no verdict before the full table:\n' + '\n'.join(out[:40]))
verdict = out[start:end]
rows = [line for line in verdict if line.startswith(('read ', 'mixed '))]
wide = [line for line in verdict if len(line) > WIDTH]
if wide:
    sys.exit('check_verdict: %d verdict lines wider than %d columns:\n%s'
             % (len(wide), WIDTH, '\n'.join(wide)))
# read: lookups; mixed: lookups and updates.
if len(rows) != 3:
    sys.exit('check_verdict: want 3 rows (read lookups, mixed lookups and updates), got:\n'
             + '\n'.join(verdict))
print('\n'.join(verdict))
print('check_verdict: %d rows, at most %d columns' % (len(rows), max(map(len, verdict))))
