#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# tools/bootstrap.sh [--cross] [--check]
#
# Installs, with apt-get on Debian 12, what building and testing lfht needs
# and is not installed yet. Does nothing (and touches no network) when every
# package is there: each one is checked with dpkg first, and `apt-get update`
# runs only when something has to be installed.
#
#   (no option)  native build, tests, sanitizers, benchmarks, docs, models
#   --cross      also the aarch64 and ppc64le cross compilers, qemu-user and
#                the arm64/ppc64el builds of Check (multiarch), for the
#                emulated legs of tools/test-all.sh
#   --check      only report what is missing; exit 1 if anything is
#
# A failed `apt-get update` (a mirror caught mid-sync serves one index of
# the wrong size) is tried again (BOOTSTRAP_UPDATE_TRIES, default 3, every
# BOOTSTRAP_UPDATE_PAUSE seconds, default 10), then reported as a warning
# naming the index, and the install goes on with the lists apt has: the
# script fails only when a package it needs is still missing, naming it.
#
# Runs apt-get as root; as another user through sudo when sudo exists.
set -euo pipefail

cross=0
check_only=0
for arg in "$@"; do
	case "$arg" in
	--cross) cross=1 ;;
	--check) check_only=1 ;;
	-h|--help) sed -n '3,23p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "bootstrap.sh: unknown option '$arg' (try --help)" >&2; exit 2 ;;
	esac
done

die() { echo "bootstrap.sh: error: $*" >&2; exit 1; }
note() { echo "bootstrap.sh: $*"; }

command -v dpkg-query >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1 ||
	die "needs a Debian-based system with dpkg and apt-get"

# Native: build tools, Check, both compilers (C and C++: the consumer suite
# compiles the headers with g++ and clang++), clang's sanitizer runtimes
# (libclang-rt-14-dev holds TSan/ASan/UBSan for clang 14 on Debian 12),
# liburcu, Concurrency Kit (libck-dev) and the peers of lfht-bench (oneTBB,
# libcds, DPDK) for the side-by-side benchmarks only, gnuplot for their
# plots, doxygen for the API reference, python3 for meson, spin for the
# model checks of models/ (suite models), autoconf, automake and cmake for
# the liburcu users' projects that the urcu-names test builds.
packages=(meson ninja-build pkg-config check libsubunit-dev gcc g++ clang
	libclang-rt-14-dev liburcu-dev libck-dev libtbb-dev libcds-dev libdpdk-dev
	gnuplot-nox doxygen python3 spin autoconf automake cmake)

# Cross: the compilers with their static C libraries, qemu's user-mode
# emulators, and Check (libcheck.a, check.pc) for each target architecture.
foreign_archs=(arm64 ppc64el)
if [ "$cross" = 1 ]; then
	packages+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross
		gcc-powerpc64le-linux-gnu libc6-dev-ppc64el-cross qemu-user
		check:arm64 libsubunit-dev:arm64
		check:ppc64el libsubunit-dev:ppc64el)
fi

native_arch=$(dpkg --print-architecture)
# A name without an architecture means the native one (or "all"); once
# foreign architectures are added, dpkg-query lists every instance of a
# name, so pick the one that is meant.
installed() {
	local want="$1"
	case "$want" in *:*) ;; *) want="$want:$native_arch" ;; esac
	dpkg-query -W -f='${binary:Package}:${Architecture} ${db:Status-Status}\n' "$1" 2>/dev/null |
		awk -v want="$want" -v bare="$1" '
			{ split($1, a, ":"); name = a[1]; arch = a[length(a)] }
			$2 == "installed" && (name ":" arch == want || (arch == "all" && name == bare)) { ok = 1 }
			END { exit !ok }'
}

missing=()
for p in "${packages[@]}"; do
	installed "$p" || missing+=("$p")
done

missing_archs=()
if [ "$cross" = 1 ]; then
	have_archs=" $(dpkg --print-foreign-architectures | tr '\n' ' ') "
	for a in "${foreign_archs[@]}"; do
		case "$have_archs" in *" $a "*) ;; *) missing_archs+=("$a") ;; esac
	done
fi

if [ ${#missing[@]} -eq 0 ] && [ ${#missing_archs[@]} -eq 0 ]; then
	note "nothing to install ($([ "$cross" = 1 ] && echo 'native and cross' || echo native) packages present)"
	exit 0
fi

if [ "$check_only" = 1 ]; then
	[ ${#missing_archs[@]} -eq 0 ] || note "missing dpkg architectures: ${missing_archs[*]}"
	[ ${#missing[@]} -eq 0 ] || note "missing packages: ${missing[*]}"
	exit 1
fi

sudo=()
if [ "$(id -u)" != 0 ]; then
	command -v sudo >/dev/null 2>&1 || die "not root and no sudo: install as root: ${missing[*]}"
	sudo=(sudo)
fi

export DEBIAN_FRONTEND=noninteractive
if [ ${#missing_archs[@]} -gt 0 ]; then
	note "adding dpkg architectures: ${missing_archs[*]}"
	# dpkg takes one architecture per --add-architecture.
	for a in "${missing_archs[@]}"; do
		"${sudo[@]}" dpkg --add-architecture "$a" ||
			die "dpkg --add-architecture $a failed"
	done
fi

note "installing: ${missing[*]}"
log=$(mktemp "${TMPDIR:-/tmp}/bootstrap.XXXXXX")
trap 'rm -f "$log"' EXIT

# apt-get update, tried up to update_tries times. A mirror caught mid-sync
# serves one index of the wrong size and apt-get exits 100 although every
# other index is fresh; what the install needs is usually still there. So a
# last failure is a warning naming the indexes that failed, and the install
# goes on: only a package still missing after it fails the script.
update_tries=${BOOTSTRAP_UPDATE_TRIES:-3}
update_pause=${BOOTSTRAP_UPDATE_PAUSE:-10}
apt_update() {
	local try=1
	while :; do
		if "${sudo[@]}" apt-get update >"$log" 2>&1; then
			# apt-get update exits 0 on some fetch failures; show its
			# warnings.
			grep -E '^(W|E): ' "$log" >&2 || true
			return 0
		fi
		[ "$try" -lt "$update_tries" ] || break
		note "apt-get update failed (try $try of $update_tries); again in ${update_pause} s"
		sleep "$update_pause"
		try=$((try + 1))
	done
	local failed
	# "Err:8 http://... bookworm-security/main ppc64el Packages" names an
	# index; "E: Failed to fetch URL" names its file.
	failed=$(sed -n 's/^Err:[0-9]* \(.*\)/\1/p' "$log")
	[ -n "$failed" ] || failed=$(sed -n 's/^E: Failed to fetch \([^ ]*\).*/\1/p' "$log")
	[ -n "$failed" ] || failed=$(tail -n 3 "$log")
	{
		echo "bootstrap.sh: warning: apt-get update failed $update_tries times; installing from the package lists it has. What failed:"
		printf '%s\n' "$failed" | sed 's/^/  /'
	} >&2
}

apt_update
install_ok=1
"${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}" >"$log" 2>&1 ||
	install_ok=0

still=()
for p in "${packages[@]}"; do
	installed "$p" || still+=("$p")
done
if [ ${#still[@]} -gt 0 ]; then
	[ "$install_ok" = 1 ] || cat "$log" >&2
	die "still not installed after apt-get: ${still[*]}"
fi
[ "$install_ok" = 1 ] ||
	echo "bootstrap.sh: warning: apt-get install exited non-zero, but every package is installed" >&2
note "done"
