/* SPDX-License-Identifier: MIT */
/*
 * tests/urcu-style/queues_bp.c - queues_test.h with liburcu's bp flavour
 * (<urcu-bp.h>).
 */
#define _GNU_SOURCE
#include <urcu-bp.h>

#define TEST_FLAVOR "bp"
#define TEST_OFFLINE() do { } while (0)
#define TEST_ONLINE() do { } while (0)
#define TEST_DEFER 1

#include "queues_test.h"
