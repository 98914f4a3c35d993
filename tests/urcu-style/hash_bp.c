/* SPDX-License-Identifier: MIT */
/*
 * hash_bp.c - a liburcu program, bp flavour: the table test of hash_test.h
 * through <urcu-bp.h>, with readers that never register. Built against
 * lfht's compatibility layer and, when it is installed, against
 * liburcu-bp itself.
 */
#define _GNU_SOURCE
#include <urcu-bp.h>
#include <urcu/urcu-bp.h>

#define TEST_FLAVOR "bp"
#define TEST_FL(name) urcu_bp_##name
#define TEST_INIT rcu_init
#define TEST_BP 1

#include "hash_test.h"
