/* SPDX-License-Identifier: MIT */
/*
 * queue-bench only, until compat/include has <urcu/lfstack.h>: the layer's
 * header as it will be, the native one (tools/rcu-bench/meson.build puts
 * this directory on the path only while the layer lacks a queue header).
 */
#include <rcuds/lfstack.h>
