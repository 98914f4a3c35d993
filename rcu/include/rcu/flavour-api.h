/* SPDX-License-Identifier: MIT */
/*
 * rcu/flavour-api.h - what <rcu/qsbr.h>, <rcu/memb.h>, <rcu/bp.h> and
 * <rcu/mb.h> declare alike, written once as macros over the flavour prefix
 * (rcu_qsbr, rcu_memb, rcu_bp, rcu_mb): the exported functions and state
 * every flavour library has, and the liburcu-style short names over them.
 * Not an API: include a flavour header, not this file.
 *
 * The short names come from a macro the flavour header expands, rather than
 * from declarations in this file, so that they stay header-level static
 * inlines of that flavour (the exported symbols keep their prefix, and the
 * flavours link into one program) and so that the reference, which reads
 * each flavour header on its own, finds them there.
 */
#ifndef RCU_FLAVOUR_API_H
#define RCU_FLAVOUR_API_H

#include <stdbool.h>

#include <rcu/flavour.h>
#include <rcu/reader.h>

/*
 * The calling thread's filling batch of rcu_retire() (src/retire.c), in
 * thread-local storage per flavour (rcu_memb_retire_ ...): the inline
 * rcu_retire() pushes onto it while count + 1 < limit and calls the
 * library for the rest (a thread's first call, the call that fills the
 * batch, a retired callback's own call: the library keeps limit at 0
 * then). Only the owner thread touches it. Not an API.
 */
struct rcu_retire_ {
	struct rcu_head *first;
	unsigned long count;
	unsigned long limit;
};

/* The inline rcu_retire(): whether head went onto r's batch. */
static inline bool rcu_retire_push_(struct rcu_retire_ *r, struct rcu_head *head,
				    void (*func)(struct rcu_head *head))
{
	if (r->count + 1 >= r->limit)
		return false;
	head->func = func;
	head->next = r->first;
	r->first = head;
	r->count++;
	return true;
}

/*
 * The exported state the inline fast paths touch (rcu/reader.h) and the
 * exported functions of every flavour: the flavour's ops are these, plus,
 * for QSBR, the quiescent-state functions its header declares itself. Then
 * the number of threads on the registry (for tests and diagnostics: a
 * snapshot, not an API), the slow paths of the inlines, and retire_defer_
 * (defer_rcu() of the liburcu layer, <urcu/defer.h>). Use as a declaration:
 * RCU_FLAVOUR_EXPORTS_(rcu_qsbr);
 */
#define RCU_FLAVOUR_EXPORTS_(fl)					\
	extern RCU_API RCU_THREAD_LOCAL_ struct rcu_reader_ fl##_reader_	\
		RCU_TLS_MODEL_;						\
	extern RCU_API struct rcu_gp_ fl##_gp_;				\
	extern RCU_API RCU_THREAD_LOCAL_ struct rcu_retire_ fl##_retire_	\
		RCU_TLS_MODEL_;						\
	RCU_API void fl##_register_thread(void);			\
	RCU_API void fl##_unregister_thread(void);			\
	RCU_API void fl##_read_lock(void);				\
	RCU_API void fl##_read_unlock(void);				\
	RCU_API int fl##_read_ongoing(void);				\
	RCU_API void fl##_synchronize_rcu(void);			\
	RCU_API void fl##_call_rcu(struct rcu_head *head,		\
				   void (*func)(struct rcu_head *head));	\
	RCU_API void fl##_barrier(void);				\
	RCU_API void fl##_retire(struct rcu_head *head,			\
				 void (*func)(struct rcu_head *head));	\
	RCU_API void fl##_retire_barrier(void);				\
	RCU_API void fl##_retire_defer_(void (*fct)(void *p), void *p);	\
	RCU_API struct rcu_poll_cookie fl##_poll_start(void);		\
	RCU_API bool fl##_poll_done(struct rcu_poll_cookie cookie);	\
	RCU_API unsigned long fl##_registry_count_(void);		\
	RCU_API void fl##_wake_writer_(void);				\
	RCU_NORETURN_ RCU_API void fl##_misuse_(const char *call, const char *rule)

/*
 * The liburcu-style names every flavour gives: static inlines over the
 * flavour's exported functions and over the inline read side that its
 * header defines before expanding this (fl##_read_lock_inline_,
 * fl##_read_unlock_inline_, fl##_read_ongoing_inline_). Expands to function
 * definitions: no semicolon after it.
 */
#define RCU_FLAVOUR_SHORT_NAMES_(fl)					\
	static inline void rcu_register_thread(void)			\
	{ fl##_register_thread(); }					\
	static inline void rcu_unregister_thread(void)			\
	{ fl##_unregister_thread(); }					\
	static inline void rcu_read_lock(void)				\
	{ fl##_read_lock_inline_(); }					\
	static inline void rcu_read_unlock(void)			\
	{ fl##_read_unlock_inline_(); }					\
	static inline int rcu_read_ongoing(void)			\
	{ return fl##_read_ongoing_inline_(); }				\
	static inline void synchronize_rcu(void)			\
	{ fl##_synchronize_rcu(); }					\
	static inline void call_rcu(struct rcu_head *head,		\
				    void (*func)(struct rcu_head *head)) \
	{ fl##_call_rcu(head, func); }					\
	static inline void rcu_barrier(void)				\
	{ fl##_barrier(); }						\
	static inline void rcu_retire(struct rcu_head *head,		\
				      void (*func)(struct rcu_head *head)) \
	{								\
		if (!rcu_retire_push_(&fl##_retire_, head, func))	\
			fl##_retire(head, func);			\
	}								\
	static inline void rcu_retire_barrier(void)			\
	{ fl##_retire_barrier(); }					\
	static inline struct rcu_poll_cookie rcu_poll_start(void)	\
	{ return fl##_poll_start(); }					\
	static inline bool rcu_poll_done(struct rcu_poll_cookie cookie)	\
	{ return fl##_poll_done(cookie); }

#endif /* RCU_FLAVOUR_API_H */
