/* SPDX-License-Identifier: MIT */
/*
 * hash_qsbr.c - a liburcu program, QSBR flavour: the table test of
 * hash_test.h through <urcu-qsbr.h>. Built against lfht's compatibility
 * layer and, when it is installed, against liburcu itself.
 */
#define _GNU_SOURCE
#include <urcu-qsbr.h>
#include <urcu/urcu-qsbr.h>

#define TEST_FLAVOR "qsbr"
#define TEST_FL(name) urcu_qsbr_##name

#include "hash_test.h"
