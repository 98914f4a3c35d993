/* SPDX-License-Identifier: MIT */
/*
 * lfht/lfht-word.h - the codec of a next word, the one place that knows how
 * the word of a node or a bucket is laid out. Included by
 * <lfht/lfht-inline.h>; nothing here is API, and names ending in '_' may
 * change between versions. Every file of the library and of its tests
 * reads and builds words only through these functions.
 *
 * A word is a link to the next element of the list (a node or a bucket,
 * "S") and the flags of the element that holds it ("H"):
 *
 *   63      58 57       48 47                   3   2      1       0
 *   +---------+-----------+----------------------+-------+------+-------+
 *   |  d + 1  |  10 bits  |  S's address / 8     | OWNER |BUCKET|REMOVED|
 *   +---------+-----------+----------------------+-------+------+-------+
 *    \______ tag ________/ \_____________ link __ ... _/ \__ flags __/
 *
 * Flags belong to the holder: REMOVED (logically deleted: the word is
 * frozen from then on), BUCKET (a bucket, never handed to the user),
 * REMOVAL_OWNER (set in the same atomic step as REMOVED by the one del or
 * replace that won). Relinking a holder (lfht_relink_()) keeps its BUCKET.
 *
 * The link is S's address and, on 64-bit builds without
 * LFHT_UNTAGGED_LINKS (the build option tagged_links=false), a tag in the
 * top 16 bits saying where S's reverse hash leaves H's: S and H share
 * their top d bits and S has the next one set (the list is sorted: H <= S),
 * then come the LFHT_TAG_KEPT_ bits of S that follow. A walk that knows H
 * and its key K learns that S sorts after K without loading S
 * (lfht_tag_after_()). A tag of 0 tells nothing (H == S, d + 1 too large
 * for its field, or a link written without one).
 *
 * A tag is never more than a lower bound: decoded from its holder it gives
 * a value <= S's reverse hash (lfht_tag_floor_()), exact when written from
 * that holder and a lower bound when the link was moved from an earlier
 * holder (decoding from a later holder H' <= S keeps every bit H' shares
 * with S). So a walk that stops on a tag never stops early.
 *
 * Linux keeps user addresses below 2^48 on x86-64, aarch64 and ppc64le
 * unless a program maps memory above on purpose; the library refuses a
 * node or bucket table whose bytes do not all lie below the tag
 * (lfht_below_tag_()).
 */
#ifndef LFHT_LFHT_WORD_H
#define LFHT_LFHT_WORD_H

#ifndef LFHT_LFHT_H
#error "include <lfht/lfht.h>, not <lfht/lfht-word.h>"
#endif

#if ULONG_MAX > 0xffffffffUL
#define LFHT_LONG_BITS_ 64
#else
#define LFHT_LONG_BITS_ 32
#endif

/* The flags, bits 0-2 (nodes are 8-byte aligned). */
enum {
	LFHT_REMOVED_ = 1,
	LFHT_BUCKET_ = 2,
	LFHT_REMOVAL_OWNER_ = 4,
	LFHT_FLAGS_ = 7,
};

#if LFHT_LONG_BITS_ == 64 && !defined(LFHT_UNTAGGED_LINKS)
/* The tag: bits 48-63, (d + 1) << LFHT_TAG_KEPT_ | the kept bits. */
#define LFHT_TAG_SHIFT_ 48
#define LFHT_TAG_MASK_ (~(uintptr_t)0 << LFHT_TAG_SHIFT_)
#else
#define LFHT_TAG_SHIFT_ 0
#define LFHT_TAG_MASK_ ((uintptr_t)0)
#endif
/* Bits of S kept after its first bit that differs from H. */
#define LFHT_TAG_KEPT_ 10

/* ---- flags ---------------------------------------------------------------- */

static inline int lfht_is_removed_(uintptr_t word)
{
	return (word & LFHT_REMOVED_) != 0;
}

static inline int lfht_is_bucket_(uintptr_t word)
{
	return (word & LFHT_BUCKET_) != 0;
}

/* Whether the holder is a live node: neither a bucket nor removed. */
static inline int lfht_is_live_(uintptr_t word)
{
	return !(word & (LFHT_REMOVED_ | LFHT_BUCKET_));
}

/* ---- the tag -------------------------------------------------------------- */

#if LFHT_TAG_SHIFT_
/* The tag of a link from a holder of reverse hash holder to an element of
 * reverse hash element (>= holder), in place in the word. */
static inline uintptr_t lfht_tag_(unsigned long holder, unsigned long element)
{
	unsigned long diff = holder ^ element;
	unsigned long kept;
	unsigned d;

	if (!diff)
		return 0;
	d = (unsigned)__builtin_clzl(diff);
	if (d + 1 > (~(uintptr_t)0 >> LFHT_TAG_SHIFT_) >> LFHT_TAG_KEPT_)
		return 0;	/* d + 1 = 64 does not fit its 6 bits */
	/* d <= 62: the shift drops the d shared bits and the differing one. */
	kept = (element << (d + 1)) >> (LFHT_LONG_BITS_ - LFHT_TAG_KEPT_);
	return (uintptr_t)(((unsigned long)(d + 1) << LFHT_TAG_KEPT_) | kept) << LFHT_TAG_SHIFT_;
}

/* The tag of word, down at bit 0. */
static inline unsigned long lfht_tag_of_(uintptr_t word)
{
	return (unsigned long)(word >> LFHT_TAG_SHIFT_);
}

/* The shared length d + 1 of a tag; 0 for no tag. */
static inline unsigned lfht_tag_len_(unsigned long tag)
{
	return (unsigned)(tag >> LFHT_TAG_KEPT_);
}

/* S's LFHT_TAG_KEPT_ + 1 bits from its differing one: that 1, then the
 * kept bits. */
static inline unsigned long lfht_tag_bits_(unsigned long tag)
{
	return (tag & ((1UL << LFHT_TAG_KEPT_) - 1)) | (1UL << LFHT_TAG_KEPT_);
}

/* Whether a and b share their top n bits, n in 0..63. In two shifts: a
 * shift by 64 (n = 0) is undefined in C. */
static inline int lfht_share_top_(unsigned long a, unsigned long b, unsigned n)
{
	return ((a ^ b) >> (LFHT_LONG_BITS_ - 1 - n) >> 1) == 0;
}

/*
 * Whether the element that word links to sorts after reverse hash key,
 * read from the tag alone (0 when the tag cannot tell); holder is the
 * reverse hash of the element holding word. S shares H's top d bits, so
 * if K does too, S > K as soon as S's next bits (1, then the kept ones)
 * exceed K's.
 */
static inline int lfht_tag_after_(uintptr_t word, unsigned long holder, unsigned long key)
{
	unsigned long tag = lfht_tag_of_(word);
	unsigned len = lfht_tag_len_(tag), d = len - 1;

	return len && lfht_share_top_(holder, key, d) &&
	       lfht_tag_bits_(tag) > ((key << d) >> (LFHT_LONG_BITS_ - 1 - LFHT_TAG_KEPT_));
}

/* The least reverse hash that word's tag allows for the element it links
 * to, decoded from its holder's: H's top d bits, then the tag's bits, then
 * zeros (0 for no tag). lfht/check.c holds every link to it. */
static inline unsigned long lfht_tag_floor_(uintptr_t word, unsigned long holder)
{
	unsigned long tag = lfht_tag_of_(word);
	unsigned len = lfht_tag_len_(tag), d = len - 1;
	unsigned long top, bits;
	int low;

	if (!len)
		return 0;
	/* Where the tag's last bit lands: bit 63 - d - LFHT_TAG_KEPT_. */
	low = LFHT_LONG_BITS_ - 1 - (int)d - LFHT_TAG_KEPT_;
	top = d ? holder >> (LFHT_LONG_BITS_ - d) << (LFHT_LONG_BITS_ - d) : 0;
	bits = low >= 0 ? lfht_tag_bits_(tag) << low : lfht_tag_bits_(tag) >> -low;
	return top | bits;
}
#else
static inline uintptr_t lfht_tag_(unsigned long holder, unsigned long element)
{
	(void)holder;
	(void)element;
	return 0;
}

static inline int lfht_tag_after_(uintptr_t word, unsigned long holder, unsigned long key)
{
	(void)word;
	(void)holder;
	(void)key;
	return 0;
}

static inline unsigned long lfht_tag_floor_(uintptr_t word, unsigned long holder)
{
	(void)word;
	(void)holder;
	return 0;
}
#endif

/* ---- links and words ---------------------------------------------------- */

/* Whether the bytes [p, p + bytes) lie below the tag, so that a link can
 * hold any address among them (always, without tags). */
static inline int lfht_below_tag_(const void *p, size_t bytes)
{
	return (((uintptr_t)p + bytes - 1) & LFHT_TAG_MASK_) == 0;
}

/* A link from a holder of reverse hash holder to element (NULL: the end),
 * of reverse hash element_rh. */
static inline uintptr_t lfht_link_to_(unsigned long holder, const struct cds_lfht_node *element,
				      unsigned long element_rh)
{
	return element ? (uintptr_t)element | lfht_tag_(holder, element_rh) : 0;
}

/* A link from a holder of reverse hash holder to node, a node. */
static inline uintptr_t lfht_link_(unsigned long holder, const struct cds_lfht_node *node)
{
	return lfht_link_to_(holder, node, node ? node->reverse_hash : 0);
}

/* The link of word, flags cleared: moved as it is to a later holder, its
 * tag stays a lower bound. */
static inline uintptr_t lfht_link_of_(uintptr_t word)
{
	return word & ~(uintptr_t)LFHT_FLAGS_;
}

/* The element word links to, or NULL. */
static inline struct cds_lfht_node *lfht_ptr_(uintptr_t word)
{
	return (struct cds_lfht_node *)(word & ~(LFHT_TAG_MASK_ | (uintptr_t)LFHT_FLAGS_));
}

/* The holder's word, once seen as holder_word, relinked to link: the
 * BUCKET flag is the holder's and stays. */
static inline uintptr_t lfht_relink_(uintptr_t holder_word, uintptr_t link)
{
	return link | (holder_word & LFHT_BUCKET_);
}

/* A bucket's word linking to link. */
static inline uintptr_t lfht_as_bucket_(uintptr_t link)
{
	return link | LFHT_BUCKET_;
}

/* word removed: with REMOVAL_OWNER when owner (a del or replace that won;
 * a bucket's removal has none). lfht_removed_word_(0, 0) is the word of a
 * node never added (cds_lfht_node_init()), which no removal writes. */
static inline uintptr_t lfht_removed_word_(uintptr_t word, int owner)
{
	return word | LFHT_REMOVED_ | (owner ? (uintptr_t)LFHT_REMOVAL_OWNER_ : 0);
}

#endif /* LFHT_LFHT_WORD_H */
