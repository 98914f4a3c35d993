#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check-no-liburcu.py BUILD_ROOT SOURCE_ROOT WORK_DIR --headers H... -- CC...

Proof that the liburcu compatibility layer is whole: a program built
through it never reads a header of liburcu-dev and never links liburcu,
even where liburcu-dev is installed.

1. Every public header of liburcu 0.15 (LIBURCU_015_HEADERS below) must be
   in the layer's list (compat_header_names, given after --headers) and in
   SOURCE_ROOT/compat/include.
2. The compiler's own search path is rebuilt with liburcu-dev taken out:
   each system include directory that holds liburcu's files (urcu/,
   urcu*.h: Debian puts them in /usr/include/<triplet>, which is searched
   by default) is replaced by a directory of links to everything else in
   it, and the program is compiled with -nostdinc and those directories.
   A header the layer lacks is then a compile error, not a silent
   fallback to liburcu's.
3. For each flavour, one translation unit includes every header of the
   layer: the flavour's first (so the unit's shared names, call_rcu and
   the flavour object, are its own, as in liburcu), then the others but
   the flavour headers, then the other flavours' headers, each after
   <urcu/map/clear.h> (they map the short names onto their own under
   URCU_API_MAP), then <urcu/map/clear.h>, after which no short name may
   be defined, and the flavour's map again, for the program's short
   names. The compiler's dependency output (-MD) must show that every urcu
   header it read came from SOURCE_ROOT/compat/include, and nothing from
   liburcu-dev's directories (checked on the real path list as well, in
   case a link escaped).
4. The program is linked with `pkg-config --libs lfht-urcu-<flavour>`
   from the build tree (meson-uninstalled), must not need any liburcu
   library (readelf -d, ldd), and runs.
5. The headers liburcu has and the layer refuses on purpose (REFUSED) stop
   the build with an #error naming their replacement.
6. The liburcu programs of tests/urcu-style (URCU_STYLE_PROGRAMS below)
   build the same way, read only the layer's urcu headers, link no
   liburcu, and run: structures.c, which uses the table, lists, hlists,
   reference counts, the four queues and stacks, the futex helpers,
   caa_get_cycles() and the _LGPL_SOURCE names (memb, and mb with
   -DRCU_MB); all_headers.c, every header of the layer in one unit (with
   and without _LGPL_SOURCE); flavours_side_by_side.c, the four flavours
   in one unit by their prefixed names.
Offline; native builds only (meson registers it so).
"""
import os
import pathlib
import re
import shutil
import subprocess
import sys

# Every header liburcu 0.15 installs (include/Makefile.am of that release:
# 0.13's list less the signal flavour, which 0.15 removed, plus the
# headers 0.14 and 0.15 added). The arch/ and uatomic/ files for the
# architectures lfht does not build on are liburcu's internals; the layer
# gives each as a header that includes <urcu/arch.h> or <urcu/uatomic.h>.
LIBURCU_015_HEADERS = """
urcu.h urcu-bp.h urcu-call-rcu.h urcu-defer.h urcu-flavor.h urcu-pointer.h
urcu-qsbr.h
urcu/annotate.h urcu/arch.h urcu/assert.h urcu/call-rcu.h urcu/cds.h
urcu/compiler.h urcu/config.h urcu/debug.h urcu/defer.h urcu/flavor.h
urcu/futex.h urcu/hlist.h urcu/lfstack.h urcu/list.h urcu/pointer.h
urcu/rcuhlist.h urcu/rculfhash.h urcu/rculfqueue.h urcu/rculfstack.h
urcu/rculist.h urcu/ref.h urcu/syscall-compat.h urcu/system.h
urcu/tls-compat.h urcu/uatomic.h urcu/uatomic_arch.h urcu/urcu-bp.h
urcu/urcu-futex.h urcu/urcu-mb.h urcu/urcu-memb.h urcu/urcu-poll.h
urcu/urcu-qsbr.h urcu/urcu.h urcu/urcu_ref.h urcu/wfcqueue.h
urcu/wfqueue.h urcu/wfstack.h
urcu/arch/aarch64.h urcu/arch/alpha.h urcu/arch/arm.h urcu/arch/gcc.h
urcu/arch/generic.h urcu/arch/hppa.h urcu/arch/ia64.h urcu/arch/loongarch.h
urcu/arch/m68k.h urcu/arch/mips.h urcu/arch/nios2.h urcu/arch/ppc.h
urcu/arch/riscv.h urcu/arch/s390.h urcu/arch/sparc64.h urcu/arch/tile.h
urcu/arch/x86.h
urcu/map/clear.h urcu/map/urcu-bp.h urcu/map/urcu-mb.h urcu/map/urcu-memb.h
urcu/map/urcu-qsbr.h urcu/map/urcu.h
urcu/static/lfstack.h urcu/static/pointer.h urcu/static/rculfqueue.h
urcu/static/rculfstack.h urcu/static/urcu-bp.h urcu/static/urcu-common.h
urcu/static/urcu-mb.h urcu/static/urcu-memb.h urcu/static/urcu-qsbr.h
urcu/static/urcu.h urcu/static/wfcqueue.h urcu/static/wfqueue.h
urcu/static/wfstack.h
urcu/uatomic/aarch64.h urcu/uatomic/alpha.h urcu/uatomic/api.h
urcu/uatomic/arm.h urcu/uatomic/builtins.h urcu/uatomic/builtins-generic.h
urcu/uatomic/builtins-x86.h urcu/uatomic/gcc.h urcu/uatomic/generic.h
urcu/uatomic/hppa.h urcu/uatomic/ia64.h urcu/uatomic/loongarch.h
urcu/uatomic/m68k.h urcu/uatomic/mips.h urcu/uatomic/nios2.h
urcu/uatomic/ppc.h urcu/uatomic/riscv.h urcu/uatomic/s390.h
urcu/uatomic/sparc64.h urcu/uatomic/tile.h urcu/uatomic/x86.h
""".split()

# Headers that select a flavour: a translation unit includes one flavour's.
FLAVOUR_OF = {}
for fl, names in {
    'memb': ['urcu.h', 'urcu/urcu.h', 'urcu/urcu-memb.h', 'urcu/map/urcu.h',
             'urcu/map/urcu-memb.h', 'urcu/static/urcu.h', 'urcu/static/urcu-memb.h'],
    'mb': ['urcu/urcu-mb.h', 'urcu/map/urcu-mb.h', 'urcu/static/urcu-mb.h'],
    'qsbr': ['urcu-qsbr.h', 'urcu/urcu-qsbr.h', 'urcu/map/urcu-qsbr.h',
             'urcu/static/urcu-qsbr.h'],
    'bp': ['urcu-bp.h', 'urcu/urcu-bp.h', 'urcu/map/urcu-bp.h', 'urcu/static/urcu-bp.h'],
}.items():
    for n in names:
        FLAVOUR_OF[n] = fl

# Undoes the short names: step 3 includes it before each other flavour's
# header, and last.
ALONE = {'urcu/map/clear.h'}

# Defined once <urcu/map/clear.h> has undone the short names: the error.
CLEARED_CHECK = '''
#if defined(rcu_read_lock) || defined(rcu_register_thread) || defined(synchronize_rcu) || \\
	defined(call_rcu) || defined(rcu_barrier) || defined(rcu_flavor) || defined(defer_rcu)
#error "a short RCU name is defined after <urcu/map/clear.h>"
#endif
'''

# Headers liburcu has that the layer stops with an #error naming the
# replacement (none today: <urcu-defer.h> keeps defer_rcu over call_rcu).
REFUSED = {}

# The flavours, the header that picks each, and the defines it needs.
FLAVOURS = [
    ('memb', 'urcu.h', []),
    ('mb', 'urcu.h', ['-DRCU_MB']),
    ('qsbr', 'urcu-qsbr.h', []),
    ('bp', 'urcu-bp.h', []),
]

# Step 6: (tag, source in tests/urcu-style, flavours linked, defines).
URCU_STYLE_PROGRAMS = [
    ('structures-memb', 'structures.c', ['memb'], []),
    ('structures-mb', 'structures.c', ['mb'], ['-DRCU_MB']),
    ('all-headers', 'all_headers.c', ['memb', 'qsbr', 'mb', 'bp'], []),
    ('all-headers-lgpl', 'all_headers.c', ['memb', 'qsbr', 'mb', 'bp'], ['-D_LGPL_SOURCE']),
    ('flavours-side-by-side', 'flavours_side_by_side.c', ['memb', 'qsbr', 'mb', 'bp'],
     ['-DTEST_HAVE_POLL']),
]

MAIN = r'''
#include <stdio.h>
#include <stdlib.h>

struct item {
	int value;
	struct cds_list_head link;
};

int main(void)
{
	CDS_LIST_HEAD(items);
	struct item one = { .value = 1 };
	struct cds_lfht *ht;
	caa_cycles_t t0 = caa_get_cycles();

	rcu_register_thread();
	cds_list_add_rcu(&one.link, &items);
	rcu_read_lock();
	struct item *it;
	int sum = 0;
	cds_list_for_each_entry_rcu(it, &items, link)
		sum += it->value;
	rcu_read_unlock();
	synchronize_rcu();
	ht = cds_lfht_new(1, 1, 0, CDS_LFHT_AUTO_RESIZE, NULL);
	if (ht == NULL || cds_lfht_destroy(ht, NULL) != 0 || sum != 1)
		return 1;
	rcu_unregister_thread();
	printf("no-liburcu program: ran (%s, %llu cycles)\n", FLAVOUR_NAME,
	       (unsigned long long)(caa_get_cycles() - t0));
	return 0;
}
'''


def run(cmd, env=None, check=True):
    r = subprocess.run([str(c) for c in cmd], env=env, text=True,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if check and r.returncode != 0:
        print('+', ' '.join(str(c) for c in cmd))
        print(r.stdout)
        raise SystemExit(f'check-no-liburcu.py: FAIL: {cmd[0]} exited {r.returncode}')
    return r


def is_liburcu_entry(name):
    return name == 'urcu' or re.fullmatch(r'urcu[^/]*\.h', name) is not None


def system_include_dirs(cc):
    """The compiler's default #include <...> search list, in order."""
    out = run(cc + ['-E', '-Wp,-v', '-x', 'c', '/dev/null', '-o', '/dev/null']).stdout
    dirs, inside = [], False
    for line in out.splitlines():
        if line.startswith('#include <...> search starts here'):
            inside = True
        elif line.startswith('End of search list'):
            break
        elif inside:
            dirs.append(pathlib.Path(line.strip()).resolve())
    if not dirs:
        raise SystemExit('check-no-liburcu.py: FAIL: no system include directories from ' + ' '.join(cc))
    return dirs


def shadow_dirs(dirs, work):
    """The search list with liburcu-dev's entries taken out (see step 2)."""
    shadowed, hidden = [], []
    for i, d in enumerate(dirs):
        if not d.is_dir() or not any(is_liburcu_entry(e.name) for e in d.iterdir()):
            shadowed.append(d)
            continue
        s = work / f'sysinclude{i}'
        s.mkdir()
        for e in d.iterdir():
            if is_liburcu_entry(e.name):
                hidden.append(e)
            else:
                (s / e.name).symlink_to(e)
        shadowed.append(s)
    return shadowed, hidden


def headers_read(depfile):
    text = depfile.read_text().replace('\\\n', ' ')
    return [pathlib.Path(f) for f in text.split(':', 1)[1].split() if f.endswith('.h')]


def main():
    argv = sys.argv[1:]
    build, source, work = (pathlib.Path(a).resolve() for a in argv[:3])
    rest = argv[3:]
    if not rest or rest[0] != '--headers' or '--' not in rest:
        raise SystemExit(__doc__)
    layer = rest[1:rest.index('--')]
    cc = rest[rest.index('--') + 1:] or ['cc']
    compat = source / 'compat/include'
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    errors = []

    # 1. The layer's list covers liburcu 0.15.
    for h in LIBURCU_015_HEADERS:
        if h not in layer:
            errors.append(f'<{h}>: a liburcu 0.15 header missing from compat_header_names')
        elif not (compat / h).is_file():
            errors.append(f'<{h}>: listed but not in {compat}')

    # 2. The search path without liburcu-dev.
    sysdirs, hidden = shadow_dirs(system_include_dirs(cc), work)
    print(f'check-no-liburcu.py: {len(hidden)} liburcu-dev entries taken off the search path'
          + (f' (e.g. {hidden[0]})' if hidden else ' (liburcu-dev is not installed)'))
    liburcu_real = [h.resolve() for h in hidden]

    env = dict(os.environ)
    env['PKG_CONFIG_PATH'] = str(build / 'meson-uninstalled')
    env.pop('PKG_CONFIG_SYSROOT_DIR', None)
    env.pop('PKG_CONFIG_DISABLE_UNINSTALLED', None)
    strict = ['-std=gnu11', '-Wall', '-Wextra', '-Werror', '-nostdinc']
    strict += [a for d in sysdirs for a in ('-isystem', str(d))]

    # 3, 4. One program per flavour (memb also with _LGPL_SOURCE).
    present = [h for h in layer if (compat / h).is_file()]
    common = [h for h in present
              if h not in FLAVOUR_OF and h not in ALONE and h not in REFUSED]
    builds = [(fl, top, defs) for fl, top, defs in FLAVOURS]
    builds.append(('memb', 'urcu.h', ['-D_LGPL_SOURCE']))
    for fl, top, defs in builds:
        pc = f'lfht-urcu-{fl}'
        if not (build / 'meson-uninstalled' / f'{pc}-uninstalled.pc').exists():
            errors.append(f'{pc}-uninstalled.pc: not in {build / "meson-uninstalled"}')
            continue
        flags = run(['pkg-config', '--cflags', '--libs', pc], env=env).stdout.split()
        own = [top] + [h for h in present if FLAVOUR_OF.get(h) == fl and h != top]
        if fl == 'mb':
            own = [h for h in own if h not in ('urcu/urcu.h',)]
        others = [h for h in present if h in FLAVOUR_OF and h not in own]
        remap = [f'urcu/map/urcu-{fl}.h']
        tag = fl + ('-lgpl' if '-D_LGPL_SOURCE' in defs else '')
        src = work / f'prog-{tag}.c'
        src.write_text(''.join(f'#include <{h}>\n' for h in own + common)
                       + ''.join(f'#include <urcu/map/clear.h>\n#include <{h}>\n' for h in others)
                       + '#include <urcu/map/clear.h>\n' + CLEARED_CHECK
                       + ''.join(f'#include <{h}>\n' for h in remap)
                       + f'#define FLAVOUR_NAME "{tag}"\n' + MAIN)
        exe, dep = work / f'prog-{tag}', work / f'prog-{tag}.d'
        r = run(cc + strict + defs + ['-MD', '-MF', dep, src, '-o', exe] + flags,
                env=env, check=False)
        if r.returncode != 0:
            errors.append(f'{tag}: does not build through the layer alone:\n{r.stdout[-3000:]}')
            continue
        read = headers_read(dep)
        for h in read:
            real = h.resolve()
            if any(real == x or real.is_relative_to(x) for x in liburcu_real):
                errors.append(f'{tag}: read liburcu-dev\'s {real}')
            elif ('urcu' in h.name or 'urcu' in h.parts) and \
                    not real.is_relative_to(compat) and not real.is_relative_to(source):
                errors.append(f'{tag}: read {real}, outside the layer')
        for h in own + common + others + list(ALONE & set(present)):
            if (compat / h).resolve() not in [x.resolve() for x in read]:
                errors.append(f'{tag}: did not read the layer\'s <{h}>')
        libdirs = [f[2:] for f in flags if f.startswith('-L')]
        env_run = dict(env, LD_LIBRARY_PATH=':'.join(libdirs))
        needed = run(['readelf', '-d', exe]).stdout
        ldd = run(['ldd', exe], env=env_run).stdout
        for text, what in ((needed, 'NEEDED'), (ldd, 'ldd')):
            if 'liburcu' in text:
                errors.append(f'{tag}: links liburcu ({what}): {text!r}')
        r = run([exe], env=env_run, check=False)
        print(r.stdout.strip())
        if r.returncode != 0:
            errors.append(f'{tag}: exited {r.returncode}')

    # 6. The liburcu programs of tests/urcu-style.
    for tag, name, fls, defs in URCU_STYLE_PROGRAMS:
        prog = source / 'tests/urcu-style' / name
        pcs = [f'lfht-urcu-{fl}' for fl in fls]
        if not all((build / 'meson-uninstalled' / f'{pc}-uninstalled.pc').exists() for pc in pcs):
            continue
        flags = run(['pkg-config', '--cflags', '--libs'] + pcs, env=env).stdout.split()
        exe, dep = work / tag, work / f'{tag}.d'
        r = run(cc + strict + defs + ['-MD', '-MF', dep, prog, '-o', exe] + flags + ['-pthread'],
                env=env, check=False)
        if r.returncode != 0:
            errors.append(f'{name} ({tag}): does not build through the layer alone:\n'
                          + r.stdout[-3000:])
            continue
        for h in headers_read(dep):
            if ('urcu' in h.name or 'urcu' in h.parts) and not h.resolve().is_relative_to(source):
                errors.append(f'{name} ({tag}): read {h.resolve()}, outside the layer')
        libdirs = [f[2:] for f in flags if f.startswith('-L')]
        env_run = dict(env, LD_LIBRARY_PATH=':'.join(libdirs))
        if 'liburcu' in run(['readelf', '-d', exe]).stdout:
            errors.append(f'{name} ({tag}): links liburcu')
        r = run([exe], env=env_run, check=False)
        print(r.stdout.strip())
        if r.returncode != 0:
            errors.append(f'{name} ({tag}): exited {r.returncode}:\n{r.stdout[-2000:]}')

    # <urcu/map/clear.h> alone, after a flavour header.
    if 'urcu/map/clear.h' in present:
        src = work / 'clear.c'
        src.write_text('#include <urcu.h>\n#include <urcu/map/clear.h>\nint main(void) { return 0; }\n')
        flags = run(['pkg-config', '--cflags', 'lfht-urcu-memb'], env=env).stdout.split()
        r = run(cc + strict + ['-c', src, '-o', work / 'clear.o'] + flags, env=env, check=False)
        if r.returncode != 0:
            errors.append(f'<urcu/map/clear.h>: does not compile after <urcu.h>:\n{r.stdout[-2000:]}')

    # 5. The refused headers name their replacement.
    for h, instead in REFUSED.items():
        if h not in present:
            continue
        src = work / ('refused-' + h.replace('/', '-') + '.c')
        src.write_text(f'#include <urcu.h>\n#include <{h}>\nint main(void) {{ return 0; }}\n')
        flags = run(['pkg-config', '--cflags', 'lfht-urcu-memb'], env=env).stdout.split()
        r = run(cc + strict + ['-c', src, '-o', work / 'refused.o'] + flags, env=env, check=False)
        if r.returncode == 0:
            errors.append(f'<{h}>: compiles, but the layer means to refuse it')
        elif '#error' not in r.stdout or instead not in r.stdout:
            errors.append(f'<{h}>: refused without an #error naming {instead}:\n{r.stdout[-1000:]}')

    # Reported as docs/check-guides.py reports: each check script stands alone.
    for e in errors:
        print('check-no-liburcu.py:', e, file=sys.stderr)
    if not errors:
        print(f'check-no-liburcu.py: ok ({len(LIBURCU_015_HEADERS)} liburcu 0.15 headers, '
              f'{len(builds)} programs)')
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
