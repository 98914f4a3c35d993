#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# run-consumer.sh SOURCE_ROOT WORK_DIR [MESON]
#
# Builds tests/consumer/project, a downstream meson project, with this
# checkout as its lfht subproject, the way a user would: a copy of the
# project, a subprojects/lfht.wrap, the lfht sources in subprojects/lfht
# (a copy of this working tree, so uncommitted changes are tested too; the
# wrap's url is only used when the directory is missing). rcu is found
# through lfht's own subprojects/rcu, with no wrap of its own. Checks:
#   - meson setup prints no WARNING;
#   - -Dlfht:debug_checks=false is accepted and in effect;
#   - lfht and rcu follow the consumer's werror and default_library (set
#     here to false and static, the opposite of what lfht uses in its own
#     CI): the options say so and no lfht or rcu source compiles with
#     -Werror;
#   - nothing of lfht's or rcu's tests, benchmarks or docs is defined, and
#     nothing of lfht or rcu is installed by the consumer's `meson install`;
#   - dependency('liburcu') and dependency('liburcu-cds') give the layer (the
#     liburcu-user program reads its headers, none of liburcu-dev's, and
#     links no liburcu);
#   - the four programs (QSBR, memb, bp, mb) build and pass as the
#     consumer's tests;
#   - a second configuration, with the consumer's own werror=true and
#     -Dlfht:install=enabled, gets werror on in lfht and rcu and installs
#     their libraries, both header trees and the .pc files.
# Offline: nothing is downloaded.
set -euo pipefail

src=$(cd "${1:?usage: run-consumer.sh SOURCE_ROOT WORK_DIR [MESON]}" && pwd)
work=${2:?usage: run-consumer.sh SOURCE_ROOT WORK_DIR [MESON]}
meson=${3:-meson}

fail() { echo "run-consumer.sh: FAIL: $*" >&2; exit 1; }

rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
proj="$work/project"
build="$work/build"
cp -R "$src/tests/consumer/project" "$proj"
mkdir -p "$proj/subprojects/lfht"

# The working tree without build directories or anything git ignores.
if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	(cd "$src" && git ls-files -z --cached --others --exclude-standard |
		xargs -0 sh -c 'for f; do [ -e "$f" ] || [ -L "$f" ] && printf "%s\0" "$f"; done' sh |
		tar --null -T - -cf -) | tar -xf - -C "$proj/subprojects/lfht"
else
	(cd "$src" && tar --exclude='./build*' -cf - .) | tar -xf - -C "$proj/subprojects/lfht"
fi
[ -f "$proj/subprojects/lfht/meson.build" ] || fail "copy of $src has no meson.build"

cat >"$proj/subprojects/lfht.wrap" <<WRAP
[wrap-git]
directory = lfht
url = file://$src
revision = HEAD
depth = 1

[provide]
dependency_names = lfht, rcu-qsbr, rcu-memb, rcu-bp, rcu-mb, rcuds, lfht-urcu-memb, lfht-urcu-qsbr, lfht-urcu-bp, lfht-urcu-mb, liburcu, liburcu-memb, liburcu-qsbr, liburcu-bp, liburcu-mb, liburcu-cds
WRAP

echo "run-consumer.sh: meson setup (consumer in $proj)"
(cd "$proj" && "$meson" setup "$build" \
	-Dwerror=false -Ddefault_library=static \
	-Dlfht:debug_checks=false \
	--force-fallback-for=lfht,rcu-qsbr,rcu-memb,rcu-bp,rcu-mb,rcuds,lfht-urcu-memb,liburcu,liburcu-cds) >"$work/setup.log" 2>&1 || {
	cat "$work/setup.log"
	fail "meson setup failed"
}
if grep -n 'WARNING' "$work/setup.log"; then
	cat "$work/setup.log"
	fail "meson setup printed warnings"
fi
grep -Eq "Executing subproject (lfht:)?rcu" "$work/setup.log" ||
	fail "rcu was not configured as lfht's nested subproject"

# Options in effect, and what was defined.
"$meson" introspect --buildoptions "$build" >"$work/options.json"
"$meson" introspect --targets "$build" >"$work/targets.json"
"$meson" introspect --tests "$build" >"$work/tests.json"
"$meson" introspect --installed "$build" >"$work/installed.json"
python3 - "$work" "$build" <<'PY' || fail "see above"
import json, sys
work, build = sys.argv[1:3]
options = {o['name']: o['value'] for o in json.load(open(f'{work}/options.json'))}
errors = []
if options.get('lfht:debug_checks') != 'false':
    errors.append(f"lfht:debug_checks is {options.get('lfht:debug_checks')!r}, not 'false'")
# The consumer said werror=false, default_library=static: both subprojects
# must follow (lfht used to force werror=true and default_library=both).
for sub in ('lfht', 'rcu'):
    for name, want in (('werror', False), ('default_library', 'static')):
        got = options.get(f'{sub}:{name}')
        if got != want:
            errors.append(f'{sub}:{name} is {got!r}, not the consumer\'s {want!r}')
for cmd in json.load(open(f'{build}/compile_commands.json')):
    src = cmd['file'].replace('\\', '/')
    if '/subprojects/' in src and '-Werror' in cmd['command'].split():
        errors.append(f"{src} compiles with -Werror although the consumer's werror is false")
for t in json.load(open(f'{work}/targets.json')):
    where = t['defined_in'].replace('\\', '/')
    for part in ('/subprojects/lfht/tests/', '/subprojects/lfht/tools/',
                 '/subprojects/lfht/docs/', '/subprojects/rcu/tests/',
                 '/subprojects/lfht/rcu/tests/'):
        if part in where:
            errors.append(f"subproject target {t['name']} defined in {where}")
for src, dest in json.load(open(f'{work}/installed.json')).items():
    errors.append(f'the consumer\'s meson install would install {dest} (from {src}); '
                  'lfht installs only with -Dlfht:install=enabled')
names = sorted(t['name'] for t in json.load(open(f'{work}/tests.json')))
if names != ['bp-user', 'ds-user', 'liburcu-user', 'mb-user', 'memb-user', 'qsbr-user', 'urcu-user']:
    errors.append(f'tests registered: {names}, want only the consumer\'s seven')
for e in errors:
    print('run-consumer.sh:', e, file=sys.stderr)
sys.exit(1 if errors else 0)
PY

echo "run-consumer.sh: meson compile"
"$meson" compile -C "$build" -j 2 >"$work/compile.log" 2>&1 || {
	cat "$work/compile.log"
	fail "build failed"
}
echo "run-consumer.sh: meson test"
"$meson" test -C "$build" --no-rebuild --print-errorlogs >"$work/test.log" 2>&1 || {
	cat "$work/test.log"
	fail "the consumer's tests failed"
}
grep -E '^ *(Ok|OK|Fail|FAIL)' "$work/test.log" || true
grep -Eq 'Ok: +7' "$work/test.log" || { cat "$work/test.log"; fail "expected 7 passing tests"; }
# dependency('liburcu') gave lfht's layer: the program read no liburcu-dev
# header and links no liburcu.
if ninja -C "$build" -t deps liburcu-user.p/urcu_user.c.o | grep -E '/usr/include/([^/]*-linux-gnu/)?urcu'; then
	fail "liburcu-user read liburcu-dev's headers (above)"
fi
ninja -C "$build" -t deps liburcu-user.p/urcu_user.c.o | grep -q 'compat/include/urcu/rculfhash.h' ||
	fail "liburcu-user did not read the layer's <urcu/rculfhash.h>"
if ldd "$build/liburcu-user" | grep liburcu; then
	fail "liburcu-user links liburcu (above)"
fi

# Asked for, lfht installs with the consumer (configuration only: what
# `meson install` would install), and the consumer's werror=true (its
# project default) reaches lfht and rcu.
echo "run-consumer.sh: meson setup -Dlfht:install=enabled"
(cd "$proj" && "$meson" setup "$work/build-install" -Dlfht:install=enabled \
	--force-fallback-for=lfht,rcu-qsbr,rcu-memb,rcu-bp,rcu-mb,rcuds,lfht-urcu-memb,liburcu,liburcu-cds) >"$work/setup-install.log" 2>&1 || {
	cat "$work/setup-install.log"
	fail "meson setup -Dlfht:install=enabled failed"
}
"$meson" introspect --buildoptions "$work/build-install" >"$work/options-install.json"
"$meson" introspect --installed "$work/build-install" >"$work/installed-install.json"
python3 - "$work" <<'PY' || fail "see above"
import json, sys
work = sys.argv[1]
options = {o['name']: o['value'] for o in json.load(open(f'{work}/options-install.json'))}
errors = []
for sub in ('lfht', 'rcu'):
    if options.get(f'{sub}:werror') is not True:
        errors.append(f"{sub}:werror is {options.get(f'{sub}:werror')!r}, "
                      "not the consumer's True")
    if options.get(f'{sub}:install') != 'enabled':
        errors.append(f"{sub}:install is {options.get(f'{sub}:install')!r}, not 'enabled'")
dests = [d.replace('\\', '/') for d in json.load(open(f'{work}/installed-install.json')).values()]
for want in ('/include/lfht/lfht.h', '/include/lfht/extensions.h', '/include/rcu/qsbr.h',
             '/include/rcu/memb.h', '/pkgconfig/lfht.pc', '/pkgconfig/rcu-qsbr.pc',
             '/include/rcu/bp.h', '/include/rcu/mb.h', '/pkgconfig/rcu-memb.pc',
             '/pkgconfig/rcu-bp.pc', '/pkgconfig/rcu-mb.pc', '/liblfht.so', '/librcu-qsbr.so',
             '/librcu-memb.so', '/librcu-bp.so', '/librcu-mb.so'):
    if not any(d.endswith(want) for d in dests):
        errors.append(f'-Dlfht:install=enabled does not install *{want}')
for e in errors:
    print('run-consumer.sh:', e, file=sys.stderr)
sys.exit(1 if errors else 0)
PY
echo "run-consumer.sh: ok"
