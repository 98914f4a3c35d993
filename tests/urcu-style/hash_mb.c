/* SPDX-License-Identifier: MIT */
/*
 * hash_mb.c - a liburcu program, mb flavour, selected as liburcu's
 * programs do it: RCU_MB defined before <urcu.h>. The table test of
 * hash_test.h. Built against lfht's compatibility layer and, when it is
 * installed, against liburcu-mb itself.
 */
#define _GNU_SOURCE
#define RCU_MB
#include <urcu.h>
#include <urcu/urcu-mb.h>

#define TEST_FLAVOR "mb"
#define TEST_FL(name) urcu_mb_##name
#define TEST_INIT rcu_init

#include "hash_test.h"
