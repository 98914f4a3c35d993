/* SPDX-License-Identifier: MIT */
/*
 * all_headers.h - every header lfht's compatibility layer installs
 * (compat_header_names in compat/meson.build; meson stops at configure
 * time if one is missing here), in liburcu's order for several flavours
 * in one unit (all_headers.c says why); the four flavours' among them.
 * Included by all_headers.c and by alloc_macros.c (after its allocator
 * macros). No include guard: it is included once per unit.
 */
/* The first flavour: memb, with the short names mapped. */
#include <urcu.h>

/* Everything but the flavours. */
#include <urcu-call-rcu.h>
#include <urcu-defer.h>
#include <urcu-flavor.h>
#include <urcu-pointer.h>
#include <urcu/arch.h>
#include <urcu/call-rcu.h>
#include <urcu/cds.h>
#include <urcu/compiler.h>
#include <urcu/config.h>
#include <urcu/debug.h>
#include <urcu/defer.h>
#include <urcu/flavor.h>
#include <urcu/futex.h>
#include <urcu/hlist.h>
#include <urcu/lfstack.h>
#include <urcu/list.h>
#include <urcu/pointer.h>
#include <urcu/rcuhlist.h>
#include <urcu/rculfhash.h>
#include <urcu/rculfqueue.h>
#include <urcu/rculfstack.h>
#include <urcu/rculist.h>
#include <urcu/ref.h>
#include <urcu/syscall-compat.h>
#include <urcu/system.h>
#include <urcu/tls-compat.h>
#include <urcu/uatomic.h>
#include <urcu/uatomic_arch.h>
#include <urcu/urcu-futex.h>
#include <urcu/urcu_ref.h>
#include <urcu/wfcqueue.h>
#include <urcu/wfqueue.h>
#include <urcu/wfstack.h>
#include <urcu/static/lfstack.h>
#include <urcu/static/pointer.h>
#include <urcu/static/rculfqueue.h>
#include <urcu/static/rculfstack.h>
#include <urcu/static/wfcqueue.h>
#include <urcu/static/wfqueue.h>
#include <urcu/static/wfstack.h>
/* liburcu 0.14's. */
#ifndef TEST_LIBURCU_LACKS_014
#include <urcu/assert.h>
#include <urcu/urcu-poll.h>
#endif
/* liburcu 0.15's. */
#ifndef TEST_LIBURCU_LACKS_015
#include <urcu/annotate.h>
#include <urcu/uatomic/api.h>
#include <urcu/uatomic/builtins.h>
#include <urcu/uatomic/builtins-generic.h>
#if !defined(TEST_LIBURCU) || defined(__x86_64__) || defined(__i386__)
#include <urcu/uatomic/builtins-x86.h>
#endif
#endif

/* The layer's own, not liburcu headers (the second ends every flavour
 * header; read here again it adds nothing, the flavours being in). */
#ifndef TEST_LIBURCU
#include <urcu/lfht-flavour-api.h>
#include <urcu/lfht-flavour-end.h>
#endif

/* The per-architecture files. */
#ifndef TEST_LIBURCU
#include <urcu/arch/aarch64.h>
#include <urcu/arch/alpha.h>
#include <urcu/arch/arm.h>
#include <urcu/arch/gcc.h>
#include <urcu/arch/generic.h>
#include <urcu/arch/hppa.h>
#include <urcu/arch/ia64.h>
#include <urcu/arch/loongarch.h>
#include <urcu/arch/m68k.h>
#include <urcu/arch/mips.h>
#include <urcu/arch/nios2.h>
#include <urcu/arch/ppc.h>
#include <urcu/arch/riscv.h>
#include <urcu/arch/s390.h>
#include <urcu/arch/sparc64.h>
#include <urcu/arch/tile.h>
#include <urcu/arch/x86.h>
#include <urcu/uatomic/aarch64.h>
#include <urcu/uatomic/alpha.h>
#include <urcu/uatomic/arm.h>
#include <urcu/uatomic/gcc.h>
#include <urcu/uatomic/generic.h>
#include <urcu/uatomic/hppa.h>
#include <urcu/uatomic/ia64.h>
#include <urcu/uatomic/loongarch.h>
#include <urcu/uatomic/m68k.h>
#include <urcu/uatomic/mips.h>
#include <urcu/uatomic/nios2.h>
#include <urcu/uatomic/ppc.h>
#include <urcu/uatomic/riscv.h>
#include <urcu/uatomic/s390.h>
#include <urcu/uatomic/sparc64.h>
#include <urcu/uatomic/tile.h>
#include <urcu/uatomic/x86.h>
#else
#include <urcu/arch/generic.h>
#include <urcu/uatomic/generic.h>
#if defined(__x86_64__) || defined(__i386__)
#include <urcu/arch/x86.h>
#include <urcu/uatomic/x86.h>
#elif defined(__aarch64__)
#include <urcu/arch/aarch64.h>
#include <urcu/uatomic/aarch64.h>
#elif defined(__powerpc__)
#include <urcu/arch/ppc.h>
#include <urcu/uatomic/ppc.h>
#endif
#endif

/*
 * The other flavours, and memb's other names. Each flavour header maps the
 * short names onto its own (the unit's URCU_API_MAP), and so does each
 * map file: <urcu/map/clear.h> before each, so that no macro is redefined
 * (an error under -Werror where the headers are not system headers, for
 * liburcu's as for the layer's).
 */
#include <urcu/map/clear.h>
#include <urcu-qsbr.h>
#include <urcu/map/clear.h>
#include <urcu-bp.h>
#include <urcu/map/clear.h>
#include <urcu/urcu-mb.h>
#include <urcu/urcu.h>
#include <urcu/urcu-memb.h>
#include <urcu/urcu-qsbr.h>
#include <urcu/urcu-bp.h>
#include <urcu/map/clear.h>
#include <urcu/map/urcu.h>
#include <urcu/map/clear.h>
#include <urcu/map/urcu-memb.h>
#include <urcu/map/clear.h>
#include <urcu/map/urcu-qsbr.h>
#include <urcu/map/clear.h>
#include <urcu/map/urcu-mb.h>
#include <urcu/map/clear.h>
#include <urcu/map/urcu-bp.h>
#include <urcu/static/urcu-common.h>
#include <urcu/static/urcu.h>
#include <urcu/static/urcu-memb.h>
#include <urcu/static/urcu-qsbr.h>
#include <urcu/static/urcu-mb.h>
#include <urcu/static/urcu-bp.h>

/* And the short names undone. */
#include <urcu/map/clear.h>

/* None is still defined after <urcu/map/clear.h>. */
#include "no_short_names.h"
