/* SPDX-License-Identifier: MIT */
/*
 * urcu/wfcqueue.h (lfht's liburcu compatibility layer) - the wait-free
 * concurrent queue: everything of lfht's <rcuds/wfcqueue.h>, which keeps
 * liburcu 0.15's names, types and semantics (both head kinds through
 * cds_wfcq_head_ptr_t, the C++ overloads, blocking and nonblocking forms).
 * With _LGPL_SOURCE, liburcu's inline names (_cds_wfcq_*, ___cds_wfcq_*)
 * come too, from <urcu/static/wfcqueue.h>. <pthread.h>, <assert.h>,
 * <stdbool.h>, <urcu/compiler.h> and <urcu/arch.h> come too, as from
 * liburcu's header.
 *
 * Differs from liburcu: nothing is exported (static inlines); the
 * blocking waits sleep 1 ms at a time after a short spin (liburcu: 10 ms
 * after 10 tries); the node and tail fields are atomic objects in C, so
 * code that reads them directly gets seq_cst loads.
 */
#ifndef LFHT_URCU_WFCQUEUE_H
#define LFHT_URCU_WFCQUEUE_H

#include <assert.h>
#include <pthread.h>
#include <stdbool.h>

#include <urcu/compiler.h>
#include <urcu/arch.h>
#include <rcuds/wfcqueue.h>

#ifdef _LGPL_SOURCE
#include <urcu/static/wfcqueue.h>
#endif

#endif /* LFHT_URCU_WFCQUEUE_H */
