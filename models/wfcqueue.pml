/*
 * wfcqueue.pml - the wait-free concurrent queue (ds/include/rcuds/
 * wfcqueue.h): the handshake between an enqueue that has swapped the tail
 * but not yet linked its node and the dequeue (or splice) that waits for
 * that link, under C11's memory model.
 *
 * Models the algorithm of these functions (liburcu's names, which the
 * native header keeps): cds_wfcq_node_init() and cds_wfcq_enqueue() (store
 * node->next = NULL and the payload; old = exchange(&tail, node); store
 * old->next = node), cds_wfcq_empty() (head.next == NULL and tail ==
 * &head, both relaxed loads), __cds_wfcq_dequeue_blocking() (the blocking
 * wait for head.next, the load of node->next, and when that is NULL: store
 * head.next = NULL, compare_exchange(&tail, node, &head), and when that
 * fails wait for node->next; then store head.next = the successor),
 * cds_wfcq_dequeue_lock()/unlock() around it (the mutex scenario), and
 * __cds_wfcq_splice_blocking() (wait for src's head.next, store it NULL,
 * exchange src's tail back to &src.head, then append the chain to dest as
 * an enqueue appends one node).
 *
 * Memory model. The stores that matter cross threads through different
 * locations (the enqueue releases its node through the tail exchange and
 * through the link store; the dequeuer reads the link), so the one store
 * buffer that list.pml flushes at a publishing step cannot tell which
 * release a reader synchronizes with. This model tracks happens-before
 * itself, with vector clocks: each thread t has a clock VC(t, u) per
 * thread u (its own entry starts at 1); each synchronizing location l
 * (every next word, each tail, the mutex, the done counter) holds the
 * clock its last release left there. A release store copies the thread's
 * clock into the location; a release read-modify-write joins it in (a
 * chain of read-modify-writes is one release sequence); a relaxed store
 * clears it; an acquire joins the location's clock into the thread's. A
 * release then advances the thread's own entry, so that a store made
 * after it is not covered. Every store to a next word records its writer
 * and that writer's epoch; a node's initialising stores (next = NULL and
 * the payload, one epoch) are recorded too. The checks, at every step:
 *   - a load of a node's next word or of its payload by another thread
 *     happens after the node's initialising stores (otherwise it may see
 *     the garbage from before cds_wfcq_node_init(): a data race on the
 *     payload, a wild next pointer);
 *   - a store to a next word happens after the store before it to that
 *     word (otherwise the two are unordered in the word's modification
 *     order and the link can be overwritten by the older store: a lost
 *     node).
 * Shared accesses are atomic steps and every load returns the latest
 * store. C11 also lets an acquire or relaxed load return an older store
 * that does not happen before it; here the only such loads are the
 * dequeuer's loads of a next word that returned the latest link, and an
 * older NULL there is the same as the interleaving in which the link
 * store has not run yet (it is the enqueuer's last step). The tail is
 * written only by read-modify-writes, which read the latest value.
 *
 * Memory orders modelled (what the code must use): node init relaxed or
 * plain; the tail exchange acq_rel or seq_cst; the link store release;
 * the empty check relaxed; the dequeuer's loads of head.next and of
 * node->next acquire (liburcu uses a load ordered by its address
 * dependency; C11 has no usable consume, so acquire); its stores to
 * head.next relaxed; the tail compare_exchange acq_rel or seq_cst; the
 * mutex acquire/release.
 *
 * Threads: E1 (clock index 0) enqueues nodes 3 and 4, E2 (1) nodes 5 and
 * 6 (SPLICE: into the destination); D (2) is the
 * dequeuer; index 3 is the second dequeuer (MUTEX) or the splicer
 * (SPLICE). Node 1 is the head (dummy) of the queue, node 2 the head of
 * the splice's destination. A node's payload is its number: which
 * producer, in which order.
 *
 * One scenario per run (-DSCENARIO_...):
 *   HANDSHAKE  E1 and E2 enqueue two nodes each into queue 1; D dequeues
 *              4 times while they run, then, once both are done, until
 *              the queue is empty.
 *   MUTEX      E1 and E2 enqueue two nodes each; D and D2 each dequeue
 *              twice with the dequeue mutex held; what is left stays
 *              queued.
 *   SPLICE     E1 enqueues two nodes into queue 1; the splicer splices
 *              queue 1 into queue 2 twice; E2 enqueues two nodes into
 *              queue 2; D dequeues from queue 2 3 times while they run,
 *              then, once all three are done, until queue 2 is empty.
 *
 * Properties (assertions; the final ones after every thread has ended):
 * no node dequeued twice; nodes of one producer dequeued in their enqueue
 * order; no node lost (every node dequeued or still in its queue at the
 * end, each queue's tail its last node); the two happens-before checks
 * above; every wait ends: the waits are blocking guards, and a wait for a
 * link that never comes leaves the dequeuer blocked when everyone else
 * has ended, which spin reports as an invalid end state. Enqueue has no
 * wait and no loop (it is wait-free); the dequeuers' loops are bounded.
 *
 * Mutants (each must be refuted):
 *   MUTANT_RELAXED_LINK        (HANDSHAKE) the link store old->next = node
 *                              is relaxed: the dequeuer reads the node
 *                              without its initialising stores;
 *   MUTANT_RELAXED_XCHG        (HANDSHAKE) the tail exchange is relaxed:
 *                              the next enqueuer's link store races with
 *                              the previous node's next = NULL;
 *   MUTANT_RELAXED_FIRST_LOAD  (HANDSHAKE) the dequeuer's load of head.next
 *                              is relaxed: it reads the node unpublished;
 *   MUTANT_RELAXED_NEXT_LOAD   (HANDSHAKE) the dequeuer's load of
 *                              node->next is relaxed: the successor it
 *                              stores in head.next is read unpublished by
 *                              the next dequeue;
 *   MUTANT_LINK_BEFORE_XCHG    (HANDSHAKE) enqueue loads the tail, links,
 *                              then stores the tail: two enqueues link
 *                              behind one node, one is lost;
 *   MUTANT_NO_WAIT_AFTER_CAS   (HANDSHAKE) after a failed compare_exchange
 *                              the dequeuer takes node->next as it is,
 *                              maybe NULL: the next node is lost;
 *   MUTANT_HEAD_AFTER_CAS      (HANDSHAKE) the dequeuer stores head.next =
 *                              NULL after a successful compare_exchange:
 *                              it overwrites an enqueue's link;
 *   MUTANT_NO_HEAD_ADVANCE     (HANDSHAKE) a dequeue that finds a successor
 *                              leaves head.next as it was: the node is
 *                              dequeued twice;
 *   MUTANT_NO_MUTEX            (MUTEX) the second dequeuer does not take
 *                              the mutex: the other reads the head.next it
 *                              stored with no happens-before (and both can
 *                              take one node);
 *   MUTANT_SPLICE_CLEAR_AFTER_XCHG (SPLICE) splice stores src's head.next
 *                              = NULL after exchanging src's tail: it
 *                              overwrites the link of an enqueue into the
 *                              emptied source;
 *   MUTANT_SPLICE_NO_WAIT      (SPLICE) splice takes src's head.next as
 *                              the empty check loaded it, without waiting
 *                              for the link: it appends a NULL chain.
 */

#define NT	4		/* clock indices: E1, E2, D, D2 or splicer */
#define E1	0
#define E2	1
#define D	2
#define T3	3

/* Locations with a clock: the next word of node n is location n (1..6),
 * the tail of the queue whose head is node q is 6 + q. */
#define LTAIL(q)	(6 + (q))
#define LMTX	9
#define LDONE	10

byte C[16];			/* C[t * NT + u]: thread t's clock of u */
byte L[44];			/* L[l * NT + u]: location l's clock of u */
#define VC(t, u)	C[(t) * NT + (u)]
#define LV(l, u)	L[(l) * NT + (u)]
#define MAX(a, b)	((a) > (b) -> (a) : (b))

#define JOIN_U(t, l, u)	VC(t, u) = MAX(VC(t, u), LV(l, u))
#define ACQUIRE(t, l)	JOIN_U(t, l, 0); JOIN_U(t, l, 1); JOIN_U(t, l, 2); JOIN_U(t, l, 3)
#define COPY_U(t, l, u)	LV(l, u) = VC(t, u)
#define RELEASE_STORE(t, l)	COPY_U(t, l, 0); COPY_U(t, l, 1); COPY_U(t, l, 2); COPY_U(t, l, 3); VC(t, t)++
#define MERGE_U(t, l, u)	LV(l, u) = MAX(LV(l, u), VC(t, u))
#define RELEASE_RMW(t, l)	MERGE_U(t, l, 0); MERGE_U(t, l, 1); MERGE_U(t, l, 2); MERGE_U(t, l, 3); VC(t, t)++
#define RELAXED_STORE(l)	LV(l, 0) = 0; LV(l, 1) = 0; LV(l, 2) = 0; LV(l, 3) = 0

byte nxt[7];			/* next word of nodes 1..6; 0 is NULL */
byte tail[3];			/* tail[q]: the tail of the queue with head q */
byte lw_t[7];			/* the last store to nxt[n]: its writer, */
byte lw_c[7];			/* and the writer's epoch then */
byte init_c[7];			/* epoch of node n's initialising stores */
#define OWN(n)		((n) <= 4 -> E1 : E2)	/* the producer of node n */
#define INIT_SEEN(t, n)	(VC(t, OWN(n)) >= init_c[n])
#define AFTER_LAST(t, n)	(VC(t, lw_t[n]) >= lw_c[n])
#define WROTE(t, n)	lw_t[n] = t; lw_c[n] = VC(t, t)

byte got;			/* bit n: node n was dequeued */
byte last[4];			/* each dequeuer's last node of each producer */
byte lastg[2];			/* each producer's last node dequeued by anyone */
#define LAST(t, n)	last[((t) - D) * 2 + OWN(n)]
byte ndone;			/* threads done (besides the dequeuers) */
bit mtx;			/* the dequeue mutex */

/* A node's payload is read: it must have been stored before. */
inline take(t, n)
{
	d_step {
		assert(INIT_SEEN(t, n));
		assert(!(got & (1 << n)));	/* not twice */
		/* FIFO per producer, as this dequeuer sees it */
		assert(n > LAST(t, n));
		LAST(t, n) = n;
#ifndef MUTANT_NO_MUTEX
		/* and across dequeuers: their takes are serialized (one
		 * dequeuer, or the mutex held) */
		assert(n > lastg[OWN(n)]);
#endif
		lastg[OWN(n)] = MAX(lastg[OWN(n)], n);
		got = got | (1 << n)
	}
}

/* old->next = first: the store that publishes first (release). */
inline link(t, old, first)
{
	d_step {
		assert(AFTER_LAST(t, old));
		nxt[old] = first;
		WROTE(t, old);
#ifdef MUTANT_RELAXED_LINK
		RELAXED_STORE(old)
#else
		RELEASE_STORE(t, old)
#endif
	}
}

/* A dequeuer's or splicer's store to head.next (relaxed). */
inline store_head(t, q, v)
{
	d_step {
		assert(AFTER_LAST(t, q));
		nxt[q] = v;
		WROTE(t, q);
		RELAXED_STORE(q)
	}
}

/* The exchange of an append: old = exchange(&tail[q], last). */
#ifdef MUTANT_RELAXED_XCHG
#define XCHG_ORDER(t, q)	skip
#else
#define XCHG_ORDER(t, q)	ACQUIRE(t, LTAIL(q)); RELEASE_RMW(t, LTAIL(q))
#endif

/*
 * cds_wfcq_node_init(n), the payload, cds_wfcq_enqueue(q, n). The
 * initialising stores are private until the exchange publishes n, so they
 * share its step.
 */
inline enqueue(t, q, n, old)
{
#ifdef MUTANT_LINK_BEFORE_XCHG
	d_step {
		nxt[n] = 0;
		WROTE(t, n);
		init_c[n] = VC(t, t);
		old = tail[q];
		ACQUIRE(t, LTAIL(q))
	}
	link(t, old, n);
	d_step {
		tail[q] = n;
		RELEASE_STORE(t, LTAIL(q))
	}
#else
	d_step {
		nxt[n] = 0;
		WROTE(t, n);
		init_c[n] = VC(t, t);
		old = tail[q];
		tail[q] = n;
		XCHG_ORDER(t, q)
	}
	link(t, old, n);
#endif
	old = 0
}

/* The blocking wait for n->next (acquire): ___cds_wfcq_node_sync_next. */
#ifdef MUTANT_RELAXED_FIRST_LOAD
#define FIRST_ORDER(t, q)	skip
#else
#define FIRST_ORDER(t, q)	ACQUIRE(t, q)
#endif
#ifdef MUTANT_RELAXED_NEXT_LOAD
#define NEXT_ORDER(t, n)	skip
#else
#define NEXT_ORDER(t, n)	ACQUIRE(t, n)
#endif

/*
 * __cds_wfcq_dequeue_blocking(q): ret is the node, or 0 when the queue
 * was empty.
 */
inline dequeue(t, q, ret, nx, e, ok)
{
	/* cds_wfcq_empty(): relaxed loads of head.next, then of the tail. */
	ret = nxt[q];
	e = (ret == 0 -> (tail[q] == q) : 0);
	if
	:: e -> ret = 0
	:: else ->
		/* The handshake: an enqueue may have exchanged the tail and
		 * not linked yet. */
		d_step { nxt[q] != 0 -> ret = nxt[q]; FIRST_ORDER(t, q) }
		d_step {
			assert(INIT_SEEN(t, ret));
			nx = nxt[ret];
			NEXT_ORDER(t, ret)
		}
		if
		:: nx == 0 ->
#ifndef MUTANT_HEAD_AFTER_CAS
			store_head(t, q, 0);
#endif
			d_step {
				ok = (tail[q] == ret);
				tail[q] = (ok -> q : tail[q]);
				ACQUIRE(t, LTAIL(q));
				if
				:: ok -> RELEASE_RMW(t, LTAIL(q))
				:: else
				fi
			}
			if
			:: ok ->
#ifdef MUTANT_HEAD_AFTER_CAS
				store_head(t, q, 0)
#else
				skip
#endif
			:: else ->
				/* An enqueue has exchanged the tail after ret:
				 * wait for its link. */
#ifdef MUTANT_NO_WAIT_AFTER_CAS
				d_step { nx = nxt[ret]; NEXT_ORDER(t, ret) };
#else
				d_step { nxt[ret] != 0 -> nx = nxt[ret]; NEXT_ORDER(t, ret) };
#endif
				store_head(t, q, nx)
			fi
		:: else ->
#ifndef MUTANT_NO_HEAD_ADVANCE
			store_head(t, q, nx)
#else
			skip
#endif
		fi;
		take(t, ret)
	fi;
	nx = 0; e = 0; ok = 0
}

/* __cds_wfcq_splice_blocking(dest dq, src sq). */
inline splice(t, dq, sq, first, lst, old, e)
{
	first = nxt[sq];
	e = (first == 0 -> (tail[sq] == sq) : 0);
	if
	:: e
	:: else ->
#ifdef MUTANT_SPLICE_NO_WAIT
		d_step { first = nxt[sq]; ACQUIRE(t, sq) };
#else
		d_step { nxt[sq] != 0 -> first = nxt[sq]; ACQUIRE(t, sq) };
#endif
#ifndef MUTANT_SPLICE_CLEAR_AFTER_XCHG
		store_head(t, sq, 0);
#endif
		d_step {
			lst = tail[sq];
			tail[sq] = sq;
			ACQUIRE(t, LTAIL(sq));
			RELEASE_RMW(t, LTAIL(sq))
		};
#ifdef MUTANT_SPLICE_CLEAR_AFTER_XCHG
		store_head(t, sq, 0);
#endif
		/* Append first..lst to dest, as an enqueue appends a node. */
		d_step {
			old = tail[dq];
			tail[dq] = lst;
			ACQUIRE(t, LTAIL(dq));
			RELEASE_RMW(t, LTAIL(dq))
		};
		link(t, old, first)
	fi;
	first = 0; lst = 0; old = 0; e = 0
}

inline lock(t)
{
	d_step { mtx == 0 -> mtx = 1; ACQUIRE(t, LMTX) }
}

inline unlock(t)
{
	d_step { mtx = 0; RELEASE_STORE(t, LMTX) }
}

/* The end of a producer or splicer, which the draining dequeuer joins. */
inline finish(t)
{
	d_step { ndone++; RELEASE_RMW(t, LDONE) }
}

proctype enqueuer(byte t; byte q; byte n1; byte n2)
{
	byte old;

	enqueue(t, q, n1, old);
	if
	:: n2 != 0 -> enqueue(t, q, n2, old)
	:: else
	fi;
	finish(t)
}

/* tries dequeues of queue q, then, once nwait threads are done, dequeues
 * until the queue is empty (nwait 0: no drain). */
proctype dequeuer(byte t; byte q; byte tries; byte nwait; bit locked)
{
	byte ret, nx, e, ok, k;

	do
	:: k < tries ->
		if
		:: locked -> lock(t)
		:: else
		fi;
		dequeue(t, q, ret, nx, e, ok);
		if
		:: locked -> unlock(t)
		:: else
		fi;
		k++
	:: else -> break
	od;
	k = 0;
	if
	:: nwait != 0 ->
		d_step { ndone == nwait -> ACQUIRE(t, LDONE) };
		do
		:: dequeue(t, q, ret, nx, e, ok);
			if
			:: ret == 0 -> break
			:: else
			fi
		od
	:: else
	fi
}

proctype splicer(byte t)
{
	byte first, lst, old, e;

	splice(t, 2, 1, first, lst, old, e);
	splice(t, 2, 1, first, lst, old, e);
	finish(t)
}

/* Walks queue q at the end: what is still queued counts as not lost. */
inline walk(q, n, p)
{
	n = nxt[q];
	p = q;
	do
	:: n != 0 ->
		assert(!(got & (1 << n)));
		assert(n > lastg[OWN(n)]);	/* after all dequeued */
		got = got | (1 << n);
		lastg[OWN(n)] = n;
		p = n;
		n = nxt[n]
	:: else -> break
	od;
	assert(tail[q] == p)
}

init
{
	byte n, p;

	atomic {
		/* Empty queues: head.next NULL, tail the head. */
		tail[1] = 1;
		tail[2] = 2;
		VC(E1, E1) = 1;
		VC(E2, E2) = 1;
		VC(D, D) = 1;
		VC(T3, T3) = 1;
#if defined(SCENARIO_HANDSHAKE)
		run enqueuer(E1, 1, 3, 4);
		run enqueuer(E2, 1, 5, 6);
		run dequeuer(D, 1, 4, 2, 0)
#elif defined(SCENARIO_MUTEX)
		run enqueuer(E1, 1, 3, 4);
		run enqueuer(E2, 1, 5, 6);
		run dequeuer(D, 1, 2, 0, 1);
#ifdef MUTANT_NO_MUTEX
		run dequeuer(T3, 1, 2, 0, 0)
#else
		run dequeuer(T3, 1, 2, 0, 1)
#endif
#elif defined(SCENARIO_SPLICE)
		run enqueuer(E1, 1, 3, 4);
		run enqueuer(E2, 2, 5, 6);
		run splicer(T3);
		run dequeuer(D, 2, 3, 3, 0)
#else
#error "define SCENARIO_HANDSHAKE, SCENARIO_MUTEX or SCENARIO_SPLICE"
#endif
	};
	_nr_pr == 1;
	walk(1, n, p);
	walk(2, n, p);
	assert(got == 120);		/* nodes 3..6 all accounted for */
#if defined(SCENARIO_HANDSHAKE)
	assert(tail[1] == 1)		/* drained */
#elif defined(SCENARIO_SPLICE)
	assert(tail[2] == 2)		/* drained */
#endif
}
