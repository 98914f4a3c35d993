/* SPDX-License-Identifier: MIT */
/*
 * urcu015_bp.c - a liburcu 0.15 program, bp flavour: urcu015_test.h
 * through <urcu-bp.h>. Built against lfht's compatibility layer and, where
 * the installed liburcu has the 0.15 names, against liburcu-bp itself.
 */
#define _GNU_SOURCE
#include <urcu-bp.h>
#include <urcu/urcu-bp.h>

#define TEST_FLAVOR "bp"
#define TEST_FL(name) urcu_bp_##name

#include "urcu015_test.h"
