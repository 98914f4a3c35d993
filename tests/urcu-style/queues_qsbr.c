/* SPDX-License-Identifier: MIT */
/*
 * tests/urcu-style/queues_qsbr.c - queues_test.h with liburcu's qsbr flavour
 * (<urcu-qsbr.h>).
 */
#define _GNU_SOURCE
#include <urcu-qsbr.h>

#define TEST_FLAVOR "qsbr"
#define TEST_OFFLINE() rcu_thread_offline()
#define TEST_ONLINE() rcu_thread_online()
#define TEST_DEFER 1

#include "queues_test.h"
