#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/history/stops.py - a history program handed a broken round must
end within BOUND seconds of it, exit 1, its report the last it prints.

Usage: stops.py PROGRAM ARG... where the arguments hold --break-round N
(tests/history/harness.h): the program says on a line starting
"history: --break-round" when it adds the call that breaks round N, then
checks that round. The time runs from the moment that line is read to the
program's exit, both seen here; nothing waits on a guess.
"""
import subprocess
import sys
import threading
import time

BOUND = 10.0    # seconds from the broken round to the exit
LIMIT = 120.0   # the whole run, at most (the injection may come late under a sanitizer)


def main():
    cmd = sys.argv[1:]
    lines = []      # (time read, line)
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, errors='replace')

    def read():
        for line in proc.stdout:
            lines.append((time.monotonic(), line.rstrip('\n')))

    reader = threading.Thread(target=read)
    reader.start()
    try:
        rc = proc.wait(timeout=LIMIT)
    except subprocess.TimeoutExpired:
        proc.kill()
        rc = None
    ended = time.monotonic()
    reader.join()
    print('\n'.join(line for _, line in lines))

    injected = [at for at, line in lines if line.startswith('history: --break-round')]
    failures = []
    if rc is None:
        failures.append('still running after %.0f s: killed' % LIMIT)
    elif rc != 1:
        failures.append('exit status %d, not 1' % rc)
    if not injected:
        failures.append('no round was broken (no "history: --break-round" line)')
    elif ended - injected[0] > BOUND:
        failures.append('ended %.2f s after the broken round, more than %.0f s'
                        % (ended - injected[0], BOUND))
    last = lines[-1][1] if lines else ''
    if not (last.startswith('history: [') and 'broke a rule' in last):
        failures.append('the last line is not the report\'s: %r' % last)
    report = [line for _, line in lines
              if line.startswith('history: ') and not line.startswith('history: [')
              and not line.startswith('history: --break-round')]
    if not report:
        failures.append('no violation reported')
    if failures:
        print('stops.py: FAILED: ' + '; '.join(failures))
        return 1
    print('stops.py: exit 1, %.2f s after the broken round (bound %.0f s)'
          % (ended - injected[0], BOUND))
    return 0


if __name__ == '__main__':
    sys.exit(main())
