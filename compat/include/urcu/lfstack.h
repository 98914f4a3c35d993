/* SPDX-License-Identifier: MIT */
/*
 * urcu/lfstack.h (lfht's liburcu compatibility layer) - the lock-free
 * stack: everything of lfht's <rcuds/lfstack.h>, which keeps liburcu
 * 0.15's names, types and semantics. With _LGPL_SOURCE, liburcu's inline
 * names (_cds_lfs_*, ___cds_lfs_*) come too, from <urcu/static/lfstack.h>.
 *
 * Differs from liburcu: nothing is exported (static inlines); in C++ the
 * functions that take cds_lfs_stack_ptr_t are also overloaded for both
 * stack pointers (liburcu 0.15 has no C++ form here); cds_lfs_for_each
 * accepts a NULL head (an empty pop_all).
 */
#ifndef LFHT_URCU_LFSTACK_H
#define LFHT_URCU_LFSTACK_H

#include <pthread.h>
#include <stdbool.h>

#include <urcu/compiler.h>
#include <rcuds/lfstack.h>

#ifdef _LGPL_SOURCE
#include <urcu/static/lfstack.h>
#endif

#endif /* LFHT_URCU_LFSTACK_H */
