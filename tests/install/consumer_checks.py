# SPDX-License-Identifier: MIT
"""What check-install.py, check-uninstalled.py and check-urcu-names.py
share, as they build and run a program the way a consumer of lfht would: a
command run with its output captured (echoed first; the script fails when
the command does), the headers a compiler's dependency file lists and
whether one is liburcu-dev's, a built program's ldd that must not name
liburcu, and the final report. Imported from the scripts' own directory."""
import pathlib
import re
import subprocess
import sys

PROG = pathlib.Path(sys.argv[0]).name


def run(cmd, env=None, capture=True):
    """cmd's output (stdout and stderr); exits the script if cmd fails."""
    print('+', ' '.join(str(c) for c in cmd))
    r = subprocess.run([str(c) for c in cmd], env=env, text=True,
                       stdout=subprocess.PIPE if capture else None,
                       stderr=subprocess.STDOUT if capture else None)
    if r.returncode != 0:
        if capture:
            print(r.stdout)
        raise SystemExit(f'{PROG}: FAIL: {cmd[0]} exited {r.returncode}')
    return r.stdout if capture else ''


def headers_read(depfile):
    """The headers a make-style dependency file (gcc -MD) lists, resolved."""
    text = depfile.read_text().replace('\\\n', ' ')
    files = []
    for rule in text.split('\n'):
        if ':' in rule:
            files += rule.split(':', 1)[1].split()
    return [pathlib.Path(f).resolve() for f in files if f.endswith('.h')]


def is_liburcu_dev_header(path):
    """Whether path is one of liburcu-dev's files: /usr/include/urcu*, or
    (Debian) /usr/include/<triplet>/urcu*."""
    return re.fullmatch(r'/usr/include/([^/]+-linux-gnu[^/]*/)?urcu([^/]*\.h|/.*)',
                        str(path)) is not None


def ldd_without_liburcu(exe, env, errors):
    """exe's ldd output; an error in errors if it links liburcu."""
    ldd = run(['ldd', exe], env=env)
    if 'liburcu' in ldd:
        errors.append(f'{exe.name}: linked to liburcu: {ldd!r}')
    return ldd


def report(errors):
    """Prints the errors, or ok; the script's exit status."""
    for e in errors:
        print(f'{PROG}:', e, file=sys.stderr)
    if not errors:
        print(f'{PROG}: ok')
    return 1 if errors else 0
