/* SPDX-License-Identifier: MIT */
/*
 * urcu/wfstack.h (lfht's liburcu compatibility layer) - the wait-free
 * stack: everything of lfht's <rcuds/wfstack.h>, which keeps liburcu
 * 0.15's names, types and semantics (both stack kinds through
 * cds_wfs_stack_ptr_t, the C++ overloads, CDS_WFS_END). With _LGPL_SOURCE,
 * liburcu's inline names (_cds_wfs_*, ___cds_wfs_*) come too, from
 * <urcu/static/wfstack.h>. <pthread.h>, <assert.h>, <stdbool.h> and
 * <urcu/compiler.h> come too, as from liburcu's header.
 *
 * Differs from liburcu: nothing is exported (static inlines); the
 * blocking waits sleep 1 ms at a time after a short spin; the next and
 * head fields are atomic objects in C.
 */
#ifndef LFHT_URCU_WFSTACK_H
#define LFHT_URCU_WFSTACK_H

#include <assert.h>
#include <pthread.h>
#include <stdbool.h>

#include <urcu/compiler.h>
#include <rcuds/wfstack.h>

#ifdef _LGPL_SOURCE
#include <urcu/static/wfstack.h>
#endif

#endif /* LFHT_URCU_WFSTACK_H */
