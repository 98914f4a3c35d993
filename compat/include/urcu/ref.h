/* SPDX-License-Identifier: MIT */
/*
 * urcu/ref.h (lfht's liburcu compatibility layer) - liburcu's reference
 * counts: struct urcu_ref, urcu_ref_set, urcu_ref_init, urcu_ref_get,
 * urcu_ref_get_safe, urcu_ref_get_unless_zero, urcu_ref_put; lfht's own,
 * from <rcuds/ref.h> (see its comments), with <stdbool.h>, <limits.h>,
 * <stdlib.h>, <urcu/assert.h> and <urcu/uatomic.h>, which liburcu's header
 * includes.
 *
 * Differs from liburcu: the gets are acquire operations and the put an
 * acquire-release one (liburcu: full barriers), which is what a count
 * needs: the last put's release() sees every holder's writes, and a new
 * holder sees those of the holders that put theirs. urcu_ref_put() aborts
 * when the count was already 0 whether or not NDEBUG is defined (liburcu:
 * an assertion, gone with NDEBUG). As in liburcu, urcu_ref_get_safe()
 * fails only at LONG_MAX (a count of 0 is not refused: that is
 * urcu_ref_get_unless_zero()'s job).
 */
#ifndef LFHT_URCU_REF_H
#define LFHT_URCU_REF_H

#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>

#include <urcu/assert.h>
#include <urcu/uatomic.h>
#include <rcuds/ref.h>

#endif /* LFHT_URCU_REF_H */
