/* SPDX-License-Identifier: MIT */
/*
 * urcu/cds.h (lfht's liburcu compatibility layer) - every concurrent data
 * structure at once, as liburcu's: the lists and hlists and their RCU
 * forms, the hash table, the RCU lock-free queue and stack, the wait-free
 * queues and stack, the lock-free stack and reference counts. The RCU
 * ones (rculist, rcuhlist, rculfhash, rculfqueue, rculfstack) need a
 * flavour header (<urcu.h>, <urcu-qsbr.h>, <urcu-bp.h>) included first, as
 * in liburcu.
 */
#ifndef LFHT_URCU_CDS_H
#define LFHT_URCU_CDS_H

#include <urcu/hlist.h>
#include <urcu/list.h>
#include <urcu/rcuhlist.h>
#include <urcu/rculfhash.h>
#include <urcu/rculfqueue.h>
#include <urcu/rculfstack.h>
#include <urcu/rculist.h>
#include <urcu/ref.h>
#include <urcu/wfcqueue.h>
#include <urcu/wfqueue.h>
#include <urcu/wfstack.h>
#include <urcu/lfstack.h>

#endif /* LFHT_URCU_CDS_H */
