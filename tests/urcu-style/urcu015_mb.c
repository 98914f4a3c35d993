/* SPDX-License-Identifier: MIT */
/*
 * urcu015_mb.c - a liburcu 0.15 program, mb flavour: urcu015_test.h
 * through <urcu.h> with RCU_MB defined first. Built against lfht's
 * compatibility layer and, where the installed liburcu has the 0.15 names,
 * against liburcu-mb itself.
 */
#define _GNU_SOURCE
#define RCU_MB
#include <urcu.h>
#include <urcu/urcu-mb.h>

#define TEST_FLAVOR "mb"
#define TEST_FL(name) urcu_mb_##name

#include "urcu015_test.h"
