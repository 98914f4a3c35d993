/* SPDX-License-Identifier: MIT */
/*
 * urcu015_memb.c - a liburcu 0.15 program, memb flavour (liburcu's
 * default): urcu015_test.h through <urcu.h>. Built against lfht's
 * compatibility layer and, where the installed liburcu has the 0.15 names,
 * against liburcu itself.
 */
#define _GNU_SOURCE
#include <urcu.h>
#include <urcu/urcu-memb.h>

#define TEST_FLAVOR "memb"
#define TEST_FL(name) urcu_memb_##name

#include "urcu015_test.h"
