/* SPDX-License-Identifier: MIT */
/*
 * urcu/map/urcu.h (lfht's liburcu compatibility layer) - the short names of
 * the flavour <urcu.h> selects, as liburcu's: memb's map with
 * RCU_MEMBARRIER, mb's with RCU_MB (<urcu/urcu.h> defines RCU_MEMBARRIER
 * when none is). No include guard, as its maps.
 *
 * Differs from liburcu: RCU_SIGNAL is an error naming memb (no signal
 * flavour in the layer); with none of the three defined it maps memb, the
 * default of <urcu.h> (liburcu: an error), so that it compiles alone.
 */
#if defined(RCU_MEMBARRIER)
#include <urcu/map/urcu-memb.h>
#elif defined(RCU_SIGNAL)
#error "lfht's liburcu compatibility layer has no signal flavour (RCU_SIGNAL): use memb instead (define nothing, or RCU_MEMBARRIER)"
#elif defined(RCU_MB)
#include <urcu/map/urcu-mb.h>
#else
#include <urcu/map/urcu-memb.h>
#endif
