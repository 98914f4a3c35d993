#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# tests/bootstrap/test-bootstrap.sh BOOTSTRAP
#
# Runs tools/bootstrap.sh --cross against a fake apt-get, dpkg, dpkg-query
# and sudo on the PATH (no network, no root, nothing installed), and checks
# what it decides:
#   - every package present: exit 0, apt-get never run;
#   - apt-get update fails every time as when a mirror is caught mid-sync
#     ("File has unexpected size"), install succeeds: exit 0, the update
#     tried BOOTSTRAP_UPDATE_TRIES times, a warning naming the failed index;
#   - update fails once, then succeeds: exit 0, no warning;
#   - update fails and install fails: non-zero, the missing package named.
# Prints "N passed, N failed" and exits non-zero when a case failed.
set -uo pipefail

bootstrap=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
work=$(mktemp -d "${TMPDIR:-/tmp}/test-bootstrap.XXXXXX")
trap 'rm -rf "$work"' EXIT
bin=$work/bin
mkdir -p "$bin"

# The fakes keep their state in $FAKE_DIR: installed (lines "name arch"),
# archs (foreign architectures), calls (one line per apt-get run), and
# update_failures (how many more updates fail).
cat >"$bin/dpkg-query" <<'FAKE'
#!/usr/bin/env bash
# dpkg-query -W -f=FORMAT NAME[:ARCH]: "NAME:ARCH installed" per instance.
name=${!#}
want_arch=
case "$name" in *:*) want_arch=${name#*:}; name=${name%%:*} ;; esac
found=1
while read -r n a; do
	[ "$n" = "$name" ] || continue
	[ -z "$want_arch" ] || [ "$a" = "$want_arch" ] || continue
	echo "$n:$a installed"
	found=0
done <"$FAKE_DIR/installed"
exit $found
FAKE
cat >"$bin/dpkg" <<'FAKE'
#!/usr/bin/env bash
case "$1" in
--print-architecture) echo amd64 ;;
--print-foreign-architectures) cat "$FAKE_DIR/archs" ;;
--add-architecture) echo "$2" >>"$FAKE_DIR/archs" ;;
*) echo "fake dpkg: unexpected $*" >&2; exit 2 ;;
esac
FAKE
cat >"$bin/apt-get" <<'FAKE'
#!/usr/bin/env bash
echo "$*" >>"$FAKE_DIR/calls"
case " $* " in
*" update "*)
	left=$(cat "$FAKE_DIR/update_failures")
	[ "$left" -gt 0 ] || exit 0
	echo $((left - 1)) >"$FAKE_DIR/update_failures"
	cat <<'OUT'
Get:1 http://deb.debian.org/debian bookworm InRelease [151 kB]
Err:8 http://deb.debian.org/debian-security bookworm-security/main ppc64el Packages
  File has unexpected size (367892 != 368280). Mirror sync in progress? [IP: 203.0.113.80 80]
Reading package lists...
E: Failed to fetch http://deb.debian.org/debian-security/dists/bookworm-security/main/binary-ppc64el/Packages.xz  File has unexpected size (367892 != 368280). Mirror sync in progress? [IP: 203.0.113.80 80]
E: Some index files failed to download. They have been ignored, or old ones used instead.
OUT
	exit 100 ;;
*" install "*)
	if [ "${FAKE_INSTALL:-ok}" != ok ]; then
		echo "E: Unable to locate package $FAKE_INSTALL"
		exit 100
	fi
	for p in "$@"; do
		case "$p" in -*|install) continue ;; esac
		case "$p" in *:*) echo "${p%%:*} ${p#*:}" ;; *) echo "$p amd64" ;; esac
	done >>"$FAKE_DIR/installed"
	exit 0 ;;
esac
echo "fake apt-get: unexpected $*" >&2
exit 2
FAKE
printf '#!/bin/sh\nexec "$@"\n' >"$bin/sudo"
chmod +x "$bin"/*

passed=0
failed=0
# check DESCRIPTION CONDITION...: counts one case, printing why it failed.
check() {
	local what=$1; shift
	if "$@"; then
		passed=$((passed + 1)); echo "ok: $what"
	else
		failed=$((failed + 1)); echo "FAIL: $what"
		sed 's/^/    | /' "$FAKE_DIR/out"
	fi
}

# fresh UPDATE_FAILURES: a machine with nothing installed.
fresh() {
	export FAKE_DIR=$work/state-$RANDOM$RANDOM
	mkdir -p "$FAKE_DIR"
	: >"$FAKE_DIR/installed"; : >"$FAKE_DIR/archs"; : >"$FAKE_DIR/calls"
	echo "$1" >"$FAKE_DIR/update_failures"
}
# run: bootstrap.sh --cross with the fakes first on the PATH; sets rc.
run() {
	PATH="$bin:$PATH" BOOTSTRAP_UPDATE_TRIES=3 BOOTSTRAP_UPDATE_PAUSE=0 \
		bash "$bootstrap" --cross >"$FAKE_DIR/out" 2>&1
	rc=$?
}
calls() { grep -c "$1" "$FAKE_DIR/calls"; }

# The package list, from the script itself: what --check finds missing on
# an empty machine.
fresh 0
PATH="$bin:$PATH" bash "$bootstrap" --cross --check >"$FAKE_DIR/out" 2>&1
packages=$(sed -n 's/^bootstrap.sh: missing packages: //p' "$FAKE_DIR/out")
check "--check lists the packages (found: $(echo "$packages" | wc -w))" \
	test "$(echo "$packages" | wc -w)" -ge 10

fresh 0
for p in $packages; do
	case "$p" in *:*) echo "${p%%:*} ${p#*:}" ;; *) echo "$p amd64" ;; esac
done >"$FAKE_DIR/installed"
printf 'arm64\nppc64el\n' >"$FAKE_DIR/archs"
run
check "everything present: exit 0" test "$rc" = 0
check "everything present: apt-get not run" test ! -s "$FAKE_DIR/calls"

fresh 99
run
check "update always fails, install works: exit 0 (got $rc)" test "$rc" = 0
check "update always fails: tried 3 times" test "$(calls update)" = 3
check "update always fails: install still run" test "$(calls install)" = 1
check "update always fails: a warning names the index" \
	grep -q 'warning:.*' "$FAKE_DIR/out"
check "update always fails: the index is bookworm-security ppc64el" \
	grep -q '^  http://deb.debian.org/debian-security bookworm-security/main ppc64el Packages$' "$FAKE_DIR/out"

fresh 1
run
check "update fails once: exit 0 (got $rc)" test "$rc" = 0
check "update fails once: tried twice" test "$(calls update)" = 2
check "update fails once: no warning" bash -c "! grep -q warning '$FAKE_DIR/out'"

fresh 99
FAKE_INSTALL=spin run
check "update and install fail: non-zero exit (got $rc)" test "$rc" != 0
check "update and install fail: the missing package named" \
	grep -q '^bootstrap.sh: error: still not installed after apt-get: .*spin' "$FAKE_DIR/out"

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
