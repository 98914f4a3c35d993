/* SPDX-License-Identifier: MIT */
/*
 * urcu/config.h (lfht's liburcu compatibility layer) - the configuration
 * macros liburcu's headers test, with the values that describe lfht.
 *
 * Differs from liburcu: no build configuration behind it; LFHT_URCU_COMPAT
 * is defined, so a program can tell which implementation it was built for.
 */
#ifndef LFHT_URCU_CONFIG_H
#define LFHT_URCU_CONFIG_H

/* This is lfht's compatibility layer, not liburcu. */
#define LFHT_URCU_COMPAT 1

#define CONFIG_RCU_SMP 1
#define CONFIG_RCU_TLS 1
#define CONFIG_RCU_HAVE_MULTIFLAVOR 1
/* clock_gettime() is there (Linux, as lfht). */
#define CONFIG_RCU_HAVE_CLOCK_GETTIME 1

#endif /* LFHT_URCU_CONFIG_H */
