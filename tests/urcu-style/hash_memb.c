/* SPDX-License-Identifier: MIT */
/*
 * hash_memb.c - a liburcu program, memb flavour (liburcu's default): the
 * table test of hash_test.h through <urcu.h>. Built against lfht's
 * compatibility layer and, when it is installed, against liburcu itself.
 */
#define _GNU_SOURCE
#include <urcu.h>
#include <urcu/urcu-memb.h>

#define TEST_FLAVOR "memb"
#define TEST_FL(name) urcu_memb_##name
#define TEST_INIT rcu_init

#include "hash_test.h"
