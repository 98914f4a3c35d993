#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# models/run-spin.sh [--cc CC] [--opt N] [--check safety|progress]
#                    [--expect verify|refute] [--pan-arg ARG]... [-D NAME]...
#                    MODEL.pml
#
# Model-checks one Promela model with spin: generates the verifier (spin -a)
# in a temporary directory, builds it with CC (default: cc), runs it, and
# prints one summary line: states stored, depth reached, pan's time, and
# the first error when there is one.
#
#   --opt N           build the verifier at -ON (default 0: quick to build;
#                     2 for searches of millions of states)
#   --check safety    assertions and invalid end states (deadlocks, such as
#                     a lost wake-up); the default
#   --check progress  the model's LTL claim (spin -DCHECK_PROGRESS) under
#                     weak fairness (pan -a -f)
#   --expect verify   pass when pan reports errors: 0 (the default)
#   --expect refute   pass when pan finds a counterexample (a mutant)
#   -D NAME           passed to spin's preprocessor (scenario, mutant)
#
# Either way the search must be complete: a search cut short (depth limit,
# out of memory) fails, since it proves nothing. Exit 0 on pass, 1 on fail,
# 2 on a usage or tool error.
set -euo pipefail

cc=cc
opt=0
check=safety
expect=verify
defines=()
pan_args=()
model=
while [ $# -gt 0 ]; do
	case "$1" in
	--cc) cc=$2; shift ;;
	--opt) opt=$2; shift ;;
	--check) check=$2; shift ;;
	--expect) expect=$2; shift ;;
	--pan-arg) pan_args+=("$2"); shift ;;
	-D) defines+=("-D$2"); shift ;;
	-D*) defines+=("$1") ;;
	-h|--help) sed -n '3,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) echo "run-spin.sh: unknown option '$1'" >&2; exit 2 ;;
	*) model=$1 ;;
	esac
	shift
done
[ -n "$model" ] && [ -f "$model" ] || { echo "run-spin.sh: no model file given (try --help)" >&2; exit 2; }
case "$check" in safety|progress) ;; *) echo "run-spin.sh: --check safety|progress" >&2; exit 2 ;; esac
case "$expect" in verify|refute) ;; *) echo "run-spin.sh: --expect verify|refute" >&2; exit 2 ;; esac
command -v spin >/dev/null 2>&1 || { echo "run-spin.sh: spin not found (tools/bootstrap.sh installs it)" >&2; exit 2; }

model=$(cd "$(dirname "$model")" && pwd)/$(basename "$model")
work=$(mktemp -d "${TMPDIR:-/tmp}/run-spin.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"

# COLLAPSE: compressed state vectors, about half the memory for the same
# exhaustive search. -m: room for the deepest model (about 300 steps).
# -O$opt: most searches end in well under a second, less than gcc takes
# to optimise pan.c (0.8 s at -O0 against 2.2 s at -O2 for poll.pml), so
# only the large searches ask for -O2 (models/meson.build).
cflags=("-O$opt" -DCOLLAPSE)
pan_run=(./pan -m100000)
if [ "$check" = safety ]; then
	cflags+=(-DSAFETY)
else
	defines+=(-DCHECK_PROGRESS)
	cflags+=(-DNFAIR=3)
	pan_run+=(-a -f)
fi

label="$(basename "$model" .pml)${defines[*]:+ ${defines[*]}} ($check, expect $expect)"
start=$(date +%s%N)
if ! spin "${defines[@]}" -a "$model" >spin.log 2>&1; then
	cat spin.log >&2
	echo "run-spin.sh: spin -a failed: $label" >&2
	exit 2
fi
# shellcheck disable=SC2086
if ! $cc "${cflags[@]}" -o pan pan.c >cc.log 2>&1; then
	cat cc.log >&2
	echo "run-spin.sh: building pan failed: $label" >&2
	exit 2
fi
"${pan_run[@]}" "${pan_args[@]}" >pan.log 2>&1 || true
wall=$(awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN { printf "%.2f", (b - a) / 1e9 }')

errors=$(sed -n 's/.*errors: \([0-9][0-9]*\).*/\1/p' pan.log | tail -n 1)
stored=$(sed -n 's/^ *\([0-9][0-9.e+]*\) states, stored.*/\1/p' pan.log | tail -n 1)
depth=$(sed -n 's/.*depth reached \([0-9][0-9]*\).*/\1/p' pan.log | tail -n 1)
secs=$(sed -n 's/^pan: elapsed time \([0-9.e+-]*\) seconds.*/\1/p' pan.log | tail -n 1)
first=$(grep -m 1 -E '^pan:1: |^pan: ' pan.log | grep -v 'elapsed time\|^pan: rate' || true)

if [ -z "$errors" ]; then
	cat pan.log
	echo "run-spin.sh: no result from pan: $label" >&2
	exit 2
fi
incomplete=
grep -q 'max search depth too small' pan.log && incomplete="search depth limit reached"
grep -qi 'out of memory' pan.log && incomplete="out of memory"

echo "$label: errors $errors, ${stored:-?} states stored, depth ${depth:-?}, pan ${secs:-?} s, wall ${wall} s"
[ -z "$first" ] || echo "  first error: $first"
if [ -n "$incomplete" ] && [ "$errors" = 0 ]; then
	echo "FAIL: incomplete search ($incomplete)"
	exit 1
fi
if [ "$expect" = verify ] && [ "$errors" = 0 ]; then
	echo "PASS: verified"
	exit 0
fi
if [ "$expect" = refute ] && [ "$errors" != 0 ]; then
	echo "PASS: refuted (counterexample found)"
	exit 0
fi
cat pan.log
if [ "$expect" = verify ]; then
	echo "FAIL: the model has a counterexample"
else
	echo "FAIL: the mutant was not refuted (the model cannot see this bug)"
fi
exit 1
