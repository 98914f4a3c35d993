/* SPDX-License-Identifier: MIT */
/*
 * urcu015_qsbr.c - a liburcu 0.15 program, QSBR flavour: urcu015_test.h
 * through <urcu-qsbr.h>. Built against lfht's compatibility layer and,
 * where the installed liburcu has the 0.15 names, against liburcu itself.
 */
#define _GNU_SOURCE
#include <urcu-qsbr.h>
#include <urcu/urcu-qsbr.h>

#define TEST_FLAVOR "qsbr"
#define TEST_FL(name) urcu_qsbr_##name
#define TEST_QSBR 1

#include "urcu015_test.h"
