/* SPDX-License-Identifier: MIT */
/*
 * urcu/annotate.h (lfht's liburcu compatibility layer) - liburcu 0.15's
 * ThreadSanitizer annotations, for code that orders memory with fences
 * (which TSan does not model) and tells TSan about it:
 *
 *   enum cmm_annotate, cmm_annotate_t    an annotation group's state
 *   cmm_annotate_define(name)            declares a group
 *   cmm_annotate_group_mem_acquire(group, mem)
 *   cmm_annotate_group_mem_release(group, mem)
 *   cmm_annotate_group_mb_acquire(group) cmm_annotate_group_mb_release(group)
 *   cmm_annotate_mem_acquire(mem)        cmm_annotate_mem_release(mem)
 *
 * Differs from liburcu: the group macros only evaluate their arguments
 * (liburcu, under TSan, also checks the order of the calls in a group and
 * aborts on a wrong one); the mem macros tell ThreadSanitizer that an
 * acquire or release on mem happened (__tsan_acquire, __tsan_release) when
 * the translation unit is built with it, and do nothing otherwise. lfht
 * itself needs none of them: its atomics are C11 acquire and release
 * accesses, which TSan understands. ThreadSanitizer is told when
 * CMM_SANITIZE_THREAD (<urcu/compiler.h>) is defined. <stdio.h> and
 * <stdlib.h> come too, as from liburcu's header.
 */
#ifndef LFHT_URCU_ANNOTATE_H
#define LFHT_URCU_ANNOTATE_H

#include <stdio.h>
#include <stdlib.h>

#include <urcu/compiler.h>

enum cmm_annotate {
	CMM_ANNOTATE_VOID,
	CMM_ANNOTATE_LOAD,
	CMM_ANNOTATE_STORE,
	CMM_ANNOTATE_MB,
};

typedef enum cmm_annotate cmm_annotate_t;

#define cmm_annotate_define(name)					\
	cmm_annotate_t name __attribute__((unused)) = CMM_ANNOTATE_VOID

#define cmm_annotate_group_mb_acquire(group)		((void)(group))
#define cmm_annotate_group_mb_release(group)		((void)(group))
#define cmm_annotate_group_mem_acquire(group, mem)	((void)(group), (void)(mem))
#define cmm_annotate_group_mem_release(group, mem)	((void)(group), (void)(mem))

#ifdef CMM_SANITIZE_THREAD
#ifdef __cplusplus
extern "C" {
#endif
/* The ThreadSanitizer runtime's annotations. */
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
#ifdef __cplusplus
}
#endif
#define cmm_annotate_mem_acquire(mem)	__tsan_acquire((void *)(mem))
#define cmm_annotate_mem_release(mem)	__tsan_release((void *)(mem))
#else
#define cmm_annotate_mem_acquire(mem)	((void)(mem))
#define cmm_annotate_mem_release(mem)	((void)(mem))
#endif

#endif /* LFHT_URCU_ANNOTATE_H */
