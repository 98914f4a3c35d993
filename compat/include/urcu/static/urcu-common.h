/* SPDX-License-Identifier: MIT */
/*
 * urcu/static/urcu-common.h (lfht's liburcu compatibility layer) - in
 * liburcu, the reader state that its memb, mb and signal flavours share,
 * and the headers those need. The layer's flavours keep their state in
 * lfht's <rcu/reader.h>, which is not API; this gives the headers liburcu's
 * file brings in.
 */
#ifndef LFHT_URCU_URCU_STATIC_URCU_COMMON_H
#define LFHT_URCU_URCU_STATIC_URCU_COMMON_H

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include <urcu/arch.h>
#include <urcu/config.h>
#include <urcu/compiler.h>
#include <urcu/debug.h>
#include <urcu/futex.h>
#include <urcu/list.h>
#include <urcu/system.h>
#include <urcu/tls-compat.h>
#include <urcu/uatomic.h>

#endif /* LFHT_URCU_URCU_STATIC_URCU_COMMON_H */
