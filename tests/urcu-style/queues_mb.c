/* SPDX-License-Identifier: MIT */
/*
 * tests/urcu-style/queues_mb.c - queues_test.h with liburcu's mb flavour
 * (RCU_MB before <urcu.h>).
 */
#define _GNU_SOURCE
#define RCU_MB
#include <urcu.h>

#define TEST_FLAVOR "mb"
#define TEST_OFFLINE() do { } while (0)
#define TEST_ONLINE() do { } while (0)
#define TEST_DEFER 1

#include "queues_test.h"
