/* SPDX-License-Identifier: MIT */
/* lfht-bench implementation header: libcds's SplitListMap on its own RCU
 * (peer_libcds.cpp). */
#define BENCH_IMPL "libcds"
#define BENCH_IMPL_KIND "peer"
#define BENCH_IMPL_HELP \
	"libcds 2.3 SplitListMap on its general_buffered RCU: a lookup holds an " \
	"RCU read-side section; bucket table sized up front: for N items, or " \
	"for 2^22 where the others grow from 1 bucket (segments allocated as " \
	"used) (needs libcds-dev)"
#define BENCH_IMPL_NOTE \
	"libcds SplitListMap on general_buffered RCU: a lookup holds an RCU " \
	"read-side section; SIZED UP FRONT (N items, or 2^22 where others grow " \
	"from 1 bucket)"

#define BENCH_NO_RESIZE "SplitListMap takes no bucket count to resize to (sized up front)"
#define BENCH_NO_DEFER_FREE "not wired up here (libcds's RCU retire_ptr is not measured)"

#include "impl_extern.h"
