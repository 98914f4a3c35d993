/* SPDX-License-Identifier: MIT */
/*
 * urcu/hlist.h (lfht's liburcu compatibility layer) - liburcu's lists with
 * a one-pointer head: struct cds_hlist_head, struct cds_hlist_node,
 * CDS_INIT_HLIST_HEAD, CDS_HLIST_HEAD, CDS_HLIST_HEAD_INIT,
 * cds_hlist_entry, cds_hlist_entry_safe, cds_hlist_add_head,
 * cds_hlist_del, and the iterators cds_hlist_for_each, _safe, _entry,
 * _entry_safe, _entry_2, _entry_safe_2; lfht's own, from <rcuds/hlist.h>,
 * with <stddef.h> and <urcu/compiler.h>, which liburcu's header includes.
 *
 * Differs from liburcu: after cds_hlist_for_each_entry() and
 * cds_hlist_for_each_entry_safe() run to the end, entry is NULL (liburcu:
 * an address computed from NULL, which is undefined behaviour); the node
 * layout and the prev link of the first node (the head, converted) are
 * liburcu's.
 */
#ifndef LFHT_URCU_HLIST_H
#define LFHT_URCU_HLIST_H

#include <stddef.h>

#include <urcu/compiler.h>
#include <rcuds/hlist.h>

#endif /* LFHT_URCU_HLIST_H */
