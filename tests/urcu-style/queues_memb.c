/* SPDX-License-Identifier: MIT */
/*
 * tests/urcu-style/queues_memb.c - queues_test.h with liburcu's memb flavour
 * (<urcu.h>).
 */
#define _GNU_SOURCE
#include <urcu.h>

#define TEST_FLAVOR "memb"
#define TEST_OFFLINE() do { } while (0)
#define TEST_ONLINE() do { } while (0)
#define TEST_DEFER 1

#include "queues_test.h"
