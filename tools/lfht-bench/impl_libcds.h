/* SPDX-License-Identifier: MIT */
/* lfht-bench implementation header: libcds's SplitListMap on its own RCU
 * (peer_libcds.cpp). */
#define BENCH_IMPL "libcds"

#define BENCH_NO_RESIZE "SplitListMap takes no bucket count to resize to (sized up front)"
#define BENCH_NO_DEFER_FREE "not wired up here (libcds's RCU retire_ptr is not measured)"

#include "impl_extern.h"
