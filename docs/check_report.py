# SPDX-License-Identifier: MIT
"""What docs/check-api.py and docs/check-pairs.py share: printing their
findings as FILE:LINE: message, and their self-test mode (--expect FILE:
pass only when the findings are exactly the expected lines)."""

import pathlib
import sys


def report(tool, problems, expect, failed, passed):
    """Prints problems ((label, line, message) triples); returns the exit
    status. failed and passed are the closing lines of a normal run."""
    messages = [f'{label}:{line}: {message}' if line else f'{label}: {message}'
                for label, line, message in problems]
    for message in messages:
        print(message)
    if expect is not None:
        wanted = [line for line in pathlib.Path(expect).read_text().splitlines()
                  if line.strip()]
        if not messages or sorted(messages) != sorted(wanted):
            print(f'{tool} self-test: expected these violations:', file=sys.stderr)
            for line in wanted:
                print('  ' + line, file=sys.stderr)
            return 1
        print(f'{tool} self-test: the check fails as it should ({len(messages)} violations)')
        return 0
    if messages:
        print(f'{tool}: {failed}', file=sys.stderr)
        return 1
    print(f'{tool}: {passed}')
    return 0
