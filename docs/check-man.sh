#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# check-man.sh MANDIR [VERSION]
#
# Formats every page of MANDIR (section 3) with groff's man macros, all
# warnings on, and fails on any diagnostic; mandoc -Tlint also runs when it
# is installed. Pages that only say ".so man3/other.3" (one name per
# function) must point at a page that exists. With VERSION (meson passes
# the project version), every page's footer (.TH) must say "lfht VERSION".
# When man-db's man is installed, `man -l docs/man/PAGE.3` from the top of
# the source tree must render every page without a warning: the .so
# aliases resolve there through the top-level link man3 -> docs/man.
# Exit 77 (skipped) without groff.
set -euo pipefail

mandir=${1:?usage: check-man.sh MANDIR [VERSION]}
version=${2:-}
if ! command -v groff >/dev/null 2>&1; then
	echo "check-man.sh: groff not found: skipped"
	exit 77
fi

fail=0
pages=0
# The pages `man -l` renders below: every page but the aliases whose text
# (".so man3/x.3", each of x's names) an earlier alias had: those render
# the same, and the first of each stands for the others.
to_render=()
declare -A alias_seen=()
for page in "$mandir"/*.3; do
	first=$(head -n 1 "$page")
	case "$first" in
	.so\ *)
		target="$mandir/$(basename "${first#.so }")"
		if [ ! -f "$target" ]; then
			echo "check-man.sh: $page: .so target ${first#.so } does not exist" >&2
			fail=1
		fi
		if [ "$(wc -l <"$page")" != 1 ] || [ -z "${alias_seen[$first]:-}" ]; then
			to_render+=("$page")
			alias_seen[$first]=1
		fi
		continue
		;;
	esac
	to_render+=("$page")
	pages=$((pages + 1))
	if [ -n "$version" ]; then
		th=$(grep -m 1 '^\.TH ' "$page" || true)
		case "$th" in
		*" \"lfht $version\" "*) ;;
		*) echo "check-man.sh: $page: footer is not \"lfht $version\" (the project version): $th" >&2
		   fail=1 ;;
		esac
	fi
	# -t: tables (tbl); -z: format, print nothing; -ww: every warning; -rCHECKSTYLE: man
	# macro style checks (groff 1.23; ignored by older versions).
	out=$(LC_ALL=C.UTF-8 groff -t -man -Tutf8 -ww -z -rCHECKSTYLE=3 "$page" 2>&1) || fail=1
	if [ -n "$out" ]; then
		echo "check-man.sh: $page:" >&2
		echo "$out" >&2
		fail=1
	fi
	if command -v mandoc >/dev/null 2>&1; then
		out=$(mandoc -Tlint -Wwarning "$page" 2>&1) || true
		if [ -n "$out" ]; then
			echo "$out" >&2
			fail=1
		fi
	fi
done
[ "$pages" -gt 0 ] || { echo "check-man.sh: no pages in $mandir" >&2; exit 1; }

# As a reader of the source tree would: `man -l` from the top, where a .so
# request "man3/x.3" finds docs/man/x.3 through the man3 link.
top=$(cd "$mandir/../.." && pwd)
rel=$(realpath --relative-to="$top" "$mandir")
if command -v man >/dev/null 2>&1 && [ -d "$top/man3" ]; then
	for page in "${to_render[@]}"; do
		out=$(cd "$top" && LC_ALL=C.UTF-8 MANWIDTH=80 man -l "$rel/$(basename "$page")" 2>&1 >/dev/null) || {
			out="man -l failed${out:+: $out}"
		}
		if [ -n "$out" ]; then
			echo "check-man.sh: (cd $top && man -l $rel/$(basename "$page")):" >&2
			echo "$out" >&2
			fail=1
		fi
	done
elif ! [ -d "$top/man3" ]; then
	echo "check-man.sh: $top/man3 (a link to $rel) is missing: .so aliases fail with man -l" >&2
	fail=1
fi
[ "$fail" = 0 ] && echo "check-man.sh: $pages pages clean"
exit "$fail"
