#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# run-doxygen.sh DOXYGEN DOXYFILE [OUTDIR STAMP]
#
# Runs doxygen on the configured Doxyfile and fails when it printed any
# warning (the log is WARN_LOGFILE), or when reference/check-reference.py
# finds an internal name, a name listed twice, an entry without its RCU
# state or ordering section, or an API name missing from the landing page. With OUTDIR, the output goes there
# instead of the Doxyfile's OUTPUT_DIRECTORY (the test uses a temporary
# directory so that it never races the `docs` target); with STAMP, touches it
# on success (the `docs` target's output).
#
# As a meson test (DOXYGEN empty: not found) it exits 77, "skipped".
set -euo pipefail

doxygen=${1:-}
doxyfile=${2:?usage: run-doxygen.sh DOXYGEN DOXYFILE [OUTDIR STAMP]}
outdir=${3:-}
stamp=${4:-}

if [ -z "$doxygen" ] || ! command -v "$doxygen" >/dev/null 2>&1; then
	echo "run-doxygen.sh: doxygen not found: skipped"
	exit 77
fi

if [ -z "$outdir" ]; then
	outdir=$(sed -n 's/^OUTPUT_DIRECTORY *= *//p' "$doxyfile")
	[ -n "$outdir" ] || { echo "run-doxygen.sh: no OUTPUT_DIRECTORY in $doxyfile" >&2; exit 1; }
fi
mkdir -p "$outdir"
log="$outdir/doxygen-warnings.log"
rm -f "$log"

# Later lines override earlier ones: the output directory and the log move.
{
	cat "$doxyfile"
	echo "OUTPUT_DIRECTORY = $outdir"
	echo "WARN_LOGFILE = $log"
} | "$doxygen" - >"$outdir/doxygen-stdout.log" 2>&1 || {
	cat "$outdir/doxygen-stdout.log" >&2
	echo "run-doxygen.sh: doxygen failed" >&2
	exit 1
}

if [ -s "$log" ]; then
	echo "run-doxygen.sh: doxygen warnings (fix the comments in include/lfht/*.h, the reference in docs/reference/ or the guides):" >&2
	cat "$log" >&2
	exit 1
fi
[ -f "$outdir/html/index.html" ] || { echo "run-doxygen.sh: no $outdir/html/index.html" >&2; exit 1; }
python3 "$(dirname "$0")/reference/check-reference.py" "$outdir/html" || {
	echo "run-doxygen.sh: the reference in $outdir/html fails its checks (above)" >&2
	exit 1
}
echo "run-doxygen.sh: no warnings; reference in $outdir/html/index.html"
if [ -n "$stamp" ]; then
	touch "$stamp"
fi
