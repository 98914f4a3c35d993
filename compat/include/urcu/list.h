/* SPDX-License-Identifier: MIT */
/*
 * urcu/list.h (lfht's liburcu compatibility layer) - liburcu's doubly
 * linked lists: struct cds_list_head, CDS_LIST_HEAD, CDS_INIT_LIST_HEAD,
 * CDS_LIST_HEAD_INIT, cds_list_add, _add_tail, _del, _del_init, _move,
 * _replace, _replace_init, _splice, _empty, cds_list_entry,
 * cds_list_first_entry and the iterators cds_list_for_each, _prev, _safe,
 * _prev_safe, _entry, _entry_reverse, _entry_safe, _entry_safe_from.
 * All are lfht's own, from <rcuds/list.h> (see its comments), with
 * <urcu/compiler.h>, which liburcu's header includes.
 *
 * Differs from liburcu: nothing in behaviour; CDS_LIST_HEAD_INIT is a
 * positional initialiser (valid C++ as well).
 */
#ifndef LFHT_URCU_LIST_H
#define LFHT_URCU_LIST_H

#include <urcu/compiler.h>
#include <rcuds/list.h>

#endif /* LFHT_URCU_LIST_H */
