#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# tools/test-all.sh [--leg NAME]... [--list] [--wipe] [--keep-going|--fail-fast]
#
# The whole test matrix of lfht, one "leg" per configuration, each in its own
# build directory under build-ci/<leg> (reruns are incremental):
#
#   release   gcc, buildtype=release (no debug checks), every flavour, the
#             bench-smoke suite and the docs (when doxygen is installed)
#   debug     gcc, buildtype=debugoptimized, debug_checks=true: the default
#             build; runs the misuse (abort-with-a-message) tests; 1 s
#             stress runs, no C++ header checks (release runs both)
#   tsan      clang, ThreadSanitizer; any report fails its test; the RCU
#             core's qsbr, memb and bp (mb is memb's fence mode), the table
#             suites of qsbr and memb; 0.5 s stress runs
#   asan      gcc, AddressSanitizer + UndefinedBehaviorSanitizer, leaks fail;
#             tagged_links=false (plain-pointer links); flavours as tsan
#   aarch64   cross gcc, static, under qemu-aarch64 (tools/cross/): the
#             commands of docs/cross-compiling.md, bench-smoke included;
#             the RCU core's every flavour, the table suites of memb and mb
#   ppc64le   cross gcc, static, under qemu-ppc64le: the same without the
#             benchmarks and docs (aarch64 runs them under qemu); the
#             table suites of qsbr and bp
#
# The table's code is one for every flavour: a flavour reaches it only
# through the RCU core's operations (rcu/flavour.h), which the rcu suites
# test in every leg for every flavour built. So each sanitizer and qemu
# leg runs the table suites (lfht:<flavour>: api, resize, lifecycle,
# stress, history, mutants, the liburcu programs) of some flavours only:
# the sanitizers those of qsbr and memb (bp's table runs differ from
# memb's in the reader's registration alone, which rcu:bp's tests cover),
# the two qemu legs between them every flavour on a weakly ordered CPU;
# release and debug run all four.
#
# Each leg prints a banner, its test results, its five slowest tests and
# its wall time; the end is a summary table (each leg's time, its build's
# and the rest: configure and tests) and a last line "N passed, N failed"
# counting legs. Exits
# non-zero when any leg failed. Logs: build-ci/logs/<leg>.log.
#
#   --leg NAME   run only this leg (repeatable; default: all of them)
#   --list       print the legs and exit
#   --wipe       delete each selected leg's build directory first
#   --fail-fast  stop at the first failed leg (default: run every leg)
#   --skip GLOB  leave out the tests whose project:name matches GLOB, e.g.
#                'lfht:resize-*' (repeatable; for local triage only: CI
#                runs everything)
#   --source DIR run the legs on another meson project (e.g. rcu, to test
#                the RCU core alone); its build dirs are build-ci/<name>-<leg>
#                and -D options it does not declare are left out
#
# A failed leg's digest (its failed tests with the last lines of each one's
# output, or the last lines of its log when it failed before testing) is
# printed again just above the summary, so that the end of the output says
# why.
#
# Environment: RCU_STRESS_SECONDS / LFHT_STRESS_SECONDS, when set, override
# the per-leg stress durations below. Missing tools (cross compilers, qemu,
# clang) make a leg fail with a hint to run tools/bootstrap.sh [--cross].
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"

all_legs=(release debug tsan asan aarch64 ppc64le)
ci_dir=build-ci
log_dir=$ci_dir/logs
jobs=2

legs=()
wipe=0
source_dir=.
skips=()
fail_fast=0
while [ $# -gt 0 ]; do
	case "$1" in
	--leg) [ $# -ge 2 ] || { echo "test-all.sh: --leg needs a name" >&2; exit 2; }
	       legs+=("$2"); shift ;;
	--leg=*) legs+=("${1#--leg=}") ;;
	--list) printf '%s\n' "${all_legs[@]}"; exit 0 ;;
	--wipe) wipe=1 ;;
	--skip) [ $# -ge 2 ] || { echo "test-all.sh: --skip needs a pattern" >&2; exit 2; }
	        skips+=("$2"); shift ;;
	--source) [ $# -ge 2 ] || { echo "test-all.sh: --source needs a directory" >&2; exit 2; }
	          source_dir="$2"; shift ;;
	--fail-fast) fail_fast=1 ;;
	--keep-going) fail_fast=0 ;;
	-h|--help) sed -n '3,30p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "test-all.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
	esac
	shift
done
[ ${#legs[@]} -gt 0 ] || legs=("${all_legs[@]}")
for leg in "${legs[@]}"; do
	case " ${all_legs[*]} " in *" $leg "*) ;; *)
		echo "test-all.sh: unknown leg '$leg' (legs: ${all_legs[*]})" >&2; exit 2 ;;
	esac
done

[ -f "$source_dir/meson.build" ] || { echo "test-all.sh: no meson.build in '$source_dir'" >&2; exit 2; }
prefix=""
[ "$source_dir" = . ] || prefix="$(basename "$(cd "$source_dir" && pwd)")-"
mkdir -p "$log_dir"

# project_has_option NAME: whether the project being tested declares NAME.
project_has_option() {
	grep -q "option('$1'" "$source_dir/meson_options.txt" 2>/dev/null
}

# Drops -DNAME=... for options the project does not declare.
filter_opts() {
	local o name kept=()
	for o in "${opts[@]}"; do
		case "$o" in
		-Db_*|-Dc_*|-Dcpp_*|-Dwerror=*|-Ddefault_library=*) kept+=("$o") ;;
		-D*=*) name=${o#-D}; name=${name%%=*}
		       ! project_has_option "$name" || kept+=("$o") ;;
		*) kept+=("$o") ;;
		esac
	done
	opts=("${kept[@]}")
}

# Options that every leg shares: warnings are errors everywhere (the
# project leaves werror off by default, so that a consumer's build of it as
# a subproject follows the consumer's; docs/subproject.md).
common_opts=(-Dwerror=true -Dtests=enabled)

have() { command -v "$1" >/dev/null 2>&1; }

# leg_config LEG: sets cc, cxx, opts, env_vars, timeout_mult, test_args,
# needs for one leg.
leg_config() {
	cc=gcc
	cxx=g++
	opts=("${common_opts[@]}" -Dbenchmarks=disabled -Ddocs=disabled)
	env_vars=()
	timeout_mult=1
	test_args=()
	needs=(gcc)
	cross=""
	case "$1" in
	release)
		local docs=disabled
		have doxygen && docs=enabled
		# default_library=both: the install test checks the static
		# libraries as well as the shared ones.
		opts=("${common_opts[@]}" --buildtype=release -Ddebug_checks=false
		      -Ddefault_library=both -Dbenchmarks=enabled -Ddocs=$docs)
		;;
	debug)
		# The spin models check the algorithm, not the build: the
		# release leg runs them.
		opts+=(--buildtype=debugoptimized -Ddebug_checks=true -Dmodels=disabled)
		# The C++ header checks compile with the plain compilers, whatever
		# the build's flags: the release leg has run them.
		test_args=(--no-suite cxx-headers)
		# Stress and history runs at the sanitizer legs' length: the
		# release leg runs them at full length.
		env_vars=(RCU_STRESS_SECONDS=1 LFHT_STRESS_SECONDS=1)
		;;
	tsan)
		cc=clang
		cxx=clang++
		needs=(clang)
		# mb is memb's fence mode, which the rcu tests' -fences reruns
		# run here; its table suites run in the other legs.
		opts+=(--buildtype=debugoptimized -Db_sanitize=thread -Db_lundef=false
		       -Dflavours=qsbr,memb,bp)
		# exitcode: a report fails the test even when the program
		# would have exited 0; halt_on_error stops at the first one.
		# die_after_fork=0: the misuse and fork tests fork a child of a
		# threaded process and the child starts the call_rcu worker,
		# which TSan refuses by default ("starting new threads after
		# multi-threaded fork is not supported"); the child's own
		# bounded waits catch the rare TSan hang this allows.
		env_vars=("TSAN_OPTIONS=halt_on_error=1 exitcode=66 second_deadlock_stack=1 die_after_fork=0"
			  RCU_STRESS_SECONDS=0.5 LFHT_STRESS_SECONDS=0.5)
		test_args=(--no-suite lfht:bp)
		timeout_mult=3
		;;
	asan)
		# tagged_links=false: the plain-pointer links of programs that
		# map memory above 2^48 get the whole suite too. mb: as in tsan.
		opts+=(--buildtype=debugoptimized -Db_sanitize=address,undefined
		       -Dtagged_links=false -Dflavours=qsbr,memb,bp
		       -Db_lundef=false -Dc_args=-fno-sanitize-recover=all
		       -Dcpp_args=-fno-sanitize-recover=all)
		env_vars=(ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:print_summary=1
			  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:print_summary=1
			  RCU_STRESS_SECONDS=0.5 LFHT_STRESS_SECONDS=0.5)
		test_args=(--no-suite lfht:bp)
		timeout_mult=3
		;;
	aarch64 | ppc64le)
		cc=""
		cross=$here/tools/cross/$1-linux-gnu.ini
		case "$1" in
		aarch64) needs=(aarch64-linux-gnu-gcc qemu-aarch64) ;;
		ppc64le) needs=(powerpc64le-linux-gnu-gcc qemu-ppc64le) ;;
		esac
		# What docs/cross-compiling.md shows (default build type,
		# benchmarks and docs on auto, so bench-smoke runs under qemu)
		# plus the options every leg shares; auto is restated so that
		# a build dir configured otherwise before cannot drift.
		# One qemu leg runs the benchmarks' smoke tests and the docs'
		# examples (ppc64le: 41 s of 224 s of test time, and their
		# build): the code under test is the same on both targets.
		local extras=auto
		[ "$1" = aarch64 ] || extras=disabled
		opts=("${common_opts[@]}" --cross-file "$cross"
		      -Dbenchmarks=$extras -Ddocs=$extras)
		env_vars=(RCU_STRESS_SECONDS=0.3 LFHT_STRESS_SECONDS=0.3)
		if [ "$1" = aarch64 ]; then
			test_args=(--no-suite lfht:qsbr --no-suite lfht:bp)
		else
			test_args=(--no-suite lfht:memb --no-suite lfht:mb)
		fi
		timeout_mult=2
		;;
	esac
	# An explicit duration from the caller wins over the leg's.
	local i
	for i in "${!env_vars[@]}"; do
		case "${env_vars[$i]}" in
		RCU_STRESS_SECONDS=*) [ -z "${RCU_STRESS_SECONDS:-}" ] || env_vars[$i]=RCU_STRESS_SECONDS=$RCU_STRESS_SECONDS ;;
		LFHT_STRESS_SECONDS=*) [ -z "${LFHT_STRESS_SECONDS:-}" ] || env_vars[$i]=LFHT_STRESS_SECONDS=$LFHT_STRESS_SECONDS ;;
		esac
	done
}

leg_describe() {
	case "$1" in
	release) echo "gcc, buildtype=release, bench-smoke + docs + spin models" ;;
	debug)   echo "gcc, debugoptimized, debug_checks=true (misuse tests)" ;;
	tsan)    echo "clang, -Db_sanitize=thread" ;;
	asan)    echo "gcc, -Db_sanitize=address,undefined, leaks fail, tagged_links=false" ;;
	aarch64) echo "aarch64-linux-gnu-gcc -static, qemu-aarch64" ;;
	ppc64le) echo "powerpc64le-linux-gnu-gcc -static, qemu-ppc64le, no benchmarks or docs" ;;
	esac
}

banner() {
	local line="=============================================================================="
	printf '\n%s\n== %s\n%s\n' "$line" "$*" "$line"
}

# run_step LOG DESC CMD...: runs a quiet step; on failure shows its output.
run_step() {
	local log="$1" desc="$2"
	shift 2
	echo "-- $desc: $*" >>"$log"
	if "$@" >>"$log.step" 2>&1; then
		cat "$log.step" >>"$log"; rm -f "$log.step"
		return 0
	fi
	cat "$log.step" >>"$log"
	echo "-- $desc FAILED; last lines of its output:"
	tail -n 60 "$log.step" | sed 's/^/   | /'
	rm -f "$log.step"
	return 1
}

# count_tests DIR: number of tests the last meson test run executed.
count_tests() {
	local f="$1/meson-logs/testlog.json"
	if [ -f "$f" ]; then wc -l <"$f"; else echo 0; fi
}

# run_leg LEG: configure, build and test one leg. Returns non-zero on failure.
run_leg() {
	local leg="$1" dir="$ci_dir/$prefix$1" log="$log_dir/$prefix$1.log"
	leg_config "$leg"
	filter_opts
	: >"$log"

	local tool
	for tool in "${needs[@]}"; do
		if ! have "$tool"; then
			echo "-- $tool not found: run tools/bootstrap.sh$([ -n "$cross" ] && echo ' --cross')"
			return 1
		fi
	done

	[ "$wipe" = 0 ] || rm -rf "$dir"
	# A directory a failed first configure left behind cannot be
	# reconfigured: start it afresh.
	if [ -d "$dir" ] && [ ! -f "$dir/meson-private/coredata.dat" ]; then
		rm -rf "$dir"
	fi
	# Cross legs take their compiler from the cross file, not from CC;
	# the C++ compiler (C++ consumer tests) is the C compiler's twin.
	local setup=(env)
	[ -z "$cc" ] || setup+=(CC="$cc" CXX="$cxx")
	setup+=(meson setup)
	[ ! -d "$dir" ] || setup+=(--reconfigure)
	setup+=("$dir" "$source_dir" "${opts[@]}")
	echo "-- configure: ${cc:+CC=$cc }${opts[*]}"
	run_step "$log" configure "${setup[@]}" || return 1

	echo "-- build"
	local t0
	t0=$(date +%s)
	run_step "$log" build meson compile -C "$dir" -j "$jobs" || return 1
	build_secs=$(( $(date +%s) - t0 ))

	echo "-- test: ${env_vars[*]} meson test --timeout-multiplier $timeout_mult ${test_args[*]}"
	# --skip: name every other test explicitly.
	local selected=() t p keep
	if [ ${#skips[@]} -gt 0 ]; then
		while IFS= read -r t; do
			keep=1
			for p in "${skips[@]}"; do
				# shellcheck disable=SC2053
				[[ "$t" != $p ]] || keep=0
			done
			[ "$keep" = 0 ] || selected+=("$t")
		done < <(meson test -C "$dir" --list 2>/dev/null |
			 sed -n 's|^\([^ :]*\):[^ ]* / \([^ ]*\)$|\1:\2|p')
		echo "-- skipping ${skips[*]}: ${#selected[@]} tests selected"
		[ ${#selected[@]} -gt 0 ] || { echo "-- --skip left no test"; return 1; }
	fi
	local rc=0
	rm -f "$dir/meson-logs/testlog.json"
	# pipefail: rc is meson test's status (tee does not fail).
	env "${env_vars[@]}" meson test -C "$dir" --num-processes "$jobs" \
		--print-errorlogs --timeout-multiplier "$timeout_mult" "${test_args[@]}" "${selected[@]}" 2>&1 |
		tee -a "$log" || rc=$?
	[ "$rc" = 0 ] || { echo "-- meson test failed (exit $rc); full log: $dir/meson-logs/testlog.txt"; return 1; }
	local n
	n=$(count_tests "$dir")
	if [ "$n" -eq 0 ]; then
		echo "-- no test ran in this leg: counted as a failure"
		return 1
	fi
	echo "-- $n tests ran; the slowest:"
	slowest "$dir" | sed 's/^/   /'
}

# slowest DIR: the five longest tests of the last run, with their seconds.
slowest() {
	python3 - "$1/meson-logs/testlog.json" <<'PY'
import json, sys
tests = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8", errors="replace")]
for t in sorted(tests, key=lambda t: -t.get("duration", 0))[:5]:
    print(f"{t.get('duration', 0):6.1f}s  {t.get('name')}")
PY
}

# leg_digest LEG: why LEG failed, for the end of the output: each failed
# test of its last run (at most 4) with the last 30 lines of its output
# (less Check's lines for passed cases), or,
# when no test failed (configure, build, no test ran), the end of its log.
leg_digest() {
	local dir="$ci_dir/$prefix$1" log="$log_dir/$prefix$1.log" shown=""
	if [ -f "$dir/meson-logs/testlog.json" ]; then
		shown=$(python3 - "$dir/meson-logs/testlog.json" <<'PY'
import json, sys
bad = []
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    t = json.loads(line)
    if t.get("result") not in ("OK", "SKIP", "EXPECTEDFAIL"):
        bad.append(t)
for t in bad[:4]:
    print(f"   {t.get('name')}: {t.get('result')} after {t.get('duration', 0):.1f} s")
    out = (t.get("stdout") or "") + (t.get("stderr") or "")
    # Check's line per passed case says nothing about the failure.
    lines = [l for l in out.splitlines() if not l.endswith(": Passed")]
    for l in lines[-30:]:
        print("   | " + l)
if len(bad) > 4:
    print(f"   ... and {len(bad) - 4} more failed tests")
PY
)
	fi
	if [ -n "$shown" ]; then
		printf '%s\n' "$shown"
	else
		tail -n 30 "$log" | sed 's/^/   | /'
	fi
}

results=()
digests=()
passed=0
failed=0
total_start=$(date +%s)
for leg in "${legs[@]}"; do
	banner "leg $leg: $(leg_describe "$leg")  [$(date -u +%H:%M:%S) UTC]"
	start=$(date +%s)
	build_secs=0
	if run_leg "$leg"; then
		result=PASS
		passed=$((passed + 1))
	else
		result=FAIL
		failed=$((failed + 1))
		digests+=("$leg")
	fi
	secs=$(( $(date +%s) - start ))
	echo "-- leg $leg: $result in ${secs}s"
	results+=("$(printf '%-10s %-5s %6ss %6ss %6ss' "$leg" "$result" "$secs" \
		"$build_secs" "$((secs - build_secs))")")
	if [ "$result" = FAIL ] && [ "$fail_fast" = 1 ]; then
		break
	fi
done

for leg in "${digests[@]}"; do
	banner "leg $leg failed: why"
	leg_digest "$leg"
done
banner "summary ($(( $(date +%s) - total_start ))s in all)"
printf '%-10s %-5s %7s %7s %7s\n' leg result time build rest
printf '%s\n' "${results[@]}"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
