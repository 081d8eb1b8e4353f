/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _MALLOC_SLAB_H_
#define _MALLOC_SLAB_H_

/**
 * @file
 * Slabs: small objects packed without headers.
 *
 * A 64 B allocation with its own header takes 128 B, and a table of them
 * outgrows the CPU's cache twice as fast as its data. A slab is one busy
 * heap element aligned to its length, its header included, holding
 * objects of one size class back to back after its metadata:
 * MALLOC_SLAB_LEN bytes for objects of up to 4 KB, MALLOC_SLAB_LARGE_LEN
 * for 8 to 64 KB, so that the header and metadata take a sixteenth of a
 * slab at most.
 * Each slab belongs to an lcore cache: its owner allocates and frees
 * without a lock; other threads mark what they free in its state bytes
 * and count it, and the owner collects it. Two bits per MALLOC_SLAB_LEN
 * of a memseg list say whether a slab covers it and which length (enum
 * malloc_slab_kind), so that rte_free() tells an object from an element,
 * and finds its slab, by one word.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_common.h>

#include "malloc_elem.h"

struct malloc_heap;
struct malloc_cache;
struct malloc_elem;
struct rte_mem_config;

#define MALLOC_SLAB_SHIFT 16
#define MALLOC_SLAB_LEN ((size_t)1 << MALLOC_SLAB_SHIFT)
#define MALLOC_SLAB_LARGE_SHIFT 20
#define MALLOC_SLAB_LARGE_LEN ((size_t)1 << MALLOC_SLAB_LARGE_SHIFT)
/*
 * Object sizes: 64 << class. Classes below MALLOC_SLAB_SMALL_CLASSES (up
 * to 4 KB, 15 objects a slab) have slabs of MALLOC_SLAB_LEN, the others
 * (8 KB to 64 KB, 127 to 15 objects) of MALLOC_SLAB_LARGE_LEN: a 64 KB
 * slab would hold only 7 objects of 8 KB or 1 of 32 KB.
 */
#define MALLOC_SLAB_SMALL_CLASSES 7
#define MALLOC_SLAB_CLASSES 11
#define MALLOC_SLAB_MAX_DATA (64u << (MALLOC_SLAB_CLASSES - 1))
/*
 * Slab units (MALLOC_SLAB_LEN each: a large slab counts as
 * MALLOC_SLAB_LARGE_LEN / MALLOC_SLAB_LEN) a cache may own and still
 * keep one that empties, on pages that stay mapped, at least: the
 * state's slab_keep, which grows with what a cache may hold
 * (malloc_cache_init()). The least a cache may hold, 2 MB, and an
 * eighth for the slabs' metadata.
 */
#define MALLOC_SLAB_KEEP_MIN 36

/*
 * Objects of another lcore's slab an lcore holds back at most before it
 * hands them over (malloc_slab_free_other()).
 */
#define MALLOC_SLAB_HELD 64

/* What a slab's metadata holds in its magic field, xor its address. */
#define MALLOC_SLAB_MAGIC UINT64_C(0x51ab5eed0bb1ec75)

/*
 * The state of an object. Slots past the bump index and under the first
 * object hold 0, so that a single byte tells a live object.
 */
enum malloc_slab_obj_state {
	MALLOC_SLAB_OBJ_BUSY = 0xb5,
	MALLOC_SLAB_OBJ_FREE = 0x5f,
	/* Freed by another thread: free once its owner collects it. */
	MALLOC_SLAB_OBJ_REMOTE = 0xc3,
};

/* A slab's metadata, at the start of its memory. */
struct malloc_slab {
	uint64_t magic; /* MALLOC_SLAB_MAGIC ^ its address */
	/*
	 * The owner's free chain: its first object, NULL = none. Chains
	 * link objects by address: by index, each allocation made the
	 * object's address from the head and again to read the next link,
	 * and 256 byte to 64 KB pairs took 7.8-7.9 ns, 7.3-7.6 since.
	 */
	void *local;
	/*
	 * The owner's counters are written on every allocation or free, and
	 * read back by the next one: none is next to another written with
	 * it, or the compiler stores them as one vector, which the next read
	 * of a single one waits for.
	 */
	uint32_t owner; /* lcore of the cache owning it */
	uint32_t bump; /* objects from here on were never handed out */
	uint32_t first; /* index of the first object */
	uint32_t live; /* objects handed out, not back with the owner */
	uint32_t n_objs; /* index past the last object */
	/*
	 * Bytes from the slab's start that a layout for another class may
	 * have left written, past what bump says: a release clears them.
	 */
	uint32_t used_before;
	uint8_t shift; /* log2 of the object size */
	uint8_t cls; /* size class */
	uint8_t heap_idx; /* heap it came from */
	uint8_t clean; /* 1: objects from bump on are zero */
	uint8_t full; /* 1: off its owner's list, nothing free */
	uint8_t len_shift; /* log2 of its length */
	uint8_t idle; /* 1: empty, on its owner's idle list of its kind */
	/*
	 * Objects other threads freed and counted, which the owner has not
	 * collected: as many REMOTE states at least (one is marked before
	 * it is counted). Added to and taken from atomically.
	 */
	uint32_t remote_n;
	struct malloc_slab *prev, *next; /* in its owner's list of the class */
	uint8_t state[]; /* per object: MALLOC_SLAB_OBJ_*, or 0 */
};

/* Bytes an object of slab @p s holds. */
static inline size_t
malloc_slab_obj_size(const struct malloc_slab *s)
{
	return (size_t)1 << s->shift;
}

/*
 * Object @p i of slab @p s. Slots count from the slab's element header,
 * at its aligned start: the metadata follows it in the first slots.
 */
static inline void *
malloc_slab_obj(struct malloc_slab *s, uint32_t i)
{
	return RTE_PTR_ADD(s, ((size_t)i << s->shift) - MALLOC_ELEM_HEADER_LEN);
}

/* What the marks of a span say covers it. */
enum malloc_slab_kind {
	MALLOC_SLAB_KIND_NONE = 0, /* no slab */
	MALLOC_SLAB_KIND_SMALL = 1, /* a slab of MALLOC_SLAB_LEN */
	MALLOC_SLAB_KIND_LARGE = 2, /* a slab of MALLOC_SLAB_LARGE_LEN */
};

/* Kinds of slab, by length: a cache keeps its idle slabs by kind. */
#define MALLOC_SLAB_KINDS 2

/* Spans of MALLOC_SLAB_LEN whose marks one map word holds. */
#define MALLOC_SLAB_SPANS_PER_WORD 32

/* log2 of the length of a slab of class @p cls. */
static inline unsigned int
malloc_slab_len_shift(int cls)
{
	return cls < MALLOC_SLAB_SMALL_CLASSES ? MALLOC_SLAB_SHIFT :
						 MALLOC_SLAB_LARGE_SHIFT;
}

/* The kind of slab of class @p cls. */
static inline enum malloc_slab_kind
malloc_slab_kind_of(int cls)
{
	return cls < MALLOC_SLAB_SMALL_CLASSES ? MALLOC_SLAB_KIND_SMALL :
						 MALLOC_SLAB_KIND_LARGE;
}

/* Bytes slab @p s covers. */
static inline size_t
malloc_slab_len(const struct malloc_slab *s)
{
	return (size_t)1 << s->len_shift;
}

/*
 * The slab of kind @p kind (not MALLOC_SLAB_KIND_NONE) that @p ptr is
 * in: slab elements are aligned to their length, 2^(12 + 4 * kind), and
 * the slab's metadata is their data.
 */
static inline struct malloc_slab *
malloc_slab_floor(const void *ptr, unsigned int kind)
{
	uintptr_t mask = ((uintptr_t)1 << (12 + 4 * kind)) - 1;

	RTE_BUILD_BUG_ON(12 + 4 * MALLOC_SLAB_KIND_SMALL != MALLOC_SLAB_SHIFT);
	RTE_BUILD_BUG_ON(12 + 4 * MALLOC_SLAB_KIND_LARGE !=
			MALLOC_SLAB_LARGE_SHIFT);
	return (struct malloc_slab *)(((uintptr_t)ptr & ~mask) +
			MALLOC_ELEM_HEADER_LEN);
}

/*
 * The span of @p addr in the slab marks of a memseg list whose memory
 * starts at @p base. Spans are aligned in the address space, as slabs
 * are, not to the list: without hugepages it is aligned to 4 KB only.
 */
static inline uint64_t
malloc_slab_span(uintptr_t base, const void *addr)
{
	return ((uintptr_t)addr >> MALLOC_SLAB_SHIFT) -
			(base >> MALLOC_SLAB_SHIFT);
}

/* The marks of @p span and the spans next to it in a list's @p map. */
static inline uint64_t
malloc_slab_marks(const uint64_t *map, uint64_t span)
{
	return __atomic_load_n(&map[span / MALLOC_SLAB_SPANS_PER_WORD],
			__ATOMIC_ACQUIRE);
}

/*
 * @return true if a slab of kind @p kind covers @p span, whose word of
 * marks is @p w (malloc_slab_marks()): one bit test.
 */
static inline bool
malloc_slab_marked(uint64_t w, uint64_t span, unsigned int kind)
{
	return ((w >> ((2 * span + kind - 1) & 63)) & 1) != 0;
}

/* What covers @p span in a list's marks @p map. */
static inline unsigned int
malloc_slab_kind(const uint64_t *map, uint64_t span)
{
	return (unsigned int)(malloc_slab_marks(map, span) >>
			       ((2 * span) & 63)) &
			3;
}

/* The index of object @p obj of slab @p s. */
static inline uint32_t
malloc_slab_slot(const struct malloc_slab *s, const void *obj)
{
	return (uint32_t)((RTE_PTR_DIFF(obj, s) + MALLOC_ELEM_HEADER_LEN) >>
			s->shift);
}

/*
 * The index of the object at @p ptr in slab @p s, whose marks cover
 * @p ptr (the slab exists), or 0 if @p ptr is not the start of an object
 * handed out and not freed.
 */
static inline uint32_t
malloc_slab_live_idx(const struct malloc_slab *s, const void *ptr)
{
	uintptr_t off = RTE_PTR_DIFF(ptr, s) + MALLOC_ELEM_HEADER_LEN;
	uint32_t i = (uint32_t)(off >> s->shift);

	if ((off & (malloc_slab_obj_size(s) - 1)) != 0 ||
			__atomic_load_n(&s->state[i], __ATOMIC_RELAXED) !=
					MALLOC_SLAB_OBJ_BUSY)
		return 0;
	return i;
}

/*
 * malloc_slab_live_idx(), checking first that @p s holds slab metadata:
 * for paths that looked the marks up with less care than the owner's
 * frees.
 */
static inline uint32_t
malloc_slab_obj_idx(const struct malloc_slab *s, const void *ptr)
{
	if (s->magic != (MALLOC_SLAB_MAGIC ^ (uintptr_t)s))
		return 0;
	return malloc_slab_live_idx(s, ptr);
}

/* The link a free object holds: poisoned memory in ASan builds. */
static inline void *__rte_no_asan
malloc_slab_link(const void *obj)
{
	return *(void *const *)obj;
}

static inline void __rte_no_asan
malloc_slab_set_link(void *obj, void *next)
{
	*(void **)obj = next;
}

/*
 * @return the size class of an allocation of @p size bytes aligned to
 * @p align, or -1 if slabs do not serve it.
 */
static inline int
malloc_slab_class(size_t size, unsigned int align)
{
	if (size - 1 >= MALLOC_SLAB_MAX_DATA || align > 64)
		return -1;
	/* The class of the power of two at or above size, from 64 bytes. */
	return size <= 64 ? 0 : 58 - __builtin_clzll((uint64_t)size - 1);
}

/*
 * Allocate an object of class @p cls for @p size bytes from the calling
 * lcore's slabs, clearing it if @p zero and it may be dirty.
 * @return the object, or NULL (slabs off, no lcore, no memory): the
 * caller then allocates an element.
 */
void *malloc_slab_alloc(
		struct rte_mem_config *mcfg, size_t size, int cls, bool zero);

/* What malloc_slab_free() did. */
enum malloc_slab_verdict {
	MALLOC_SLAB_NONE, /* not in a slab: free it as an element */
	MALLOC_SLAB_FREED, /* freed */
	MALLOC_SLAB_INVALID, /* in a slab but not a live object: refused */
};

/* Free @p ptr if it is in a slab. */
enum malloc_slab_verdict malloc_slab_free(
		struct rte_mem_config *mcfg, void *ptr);

/*
 * Free object @p i, found live, of slab @p s, which the calling thread
 * does not own. While heaps keep pages (malloc_trim.h) an lcore holds
 * such frees back, up to MALLOC_SLAB_HELD objects of one slab, and hands
 * them over under one lock of the slab: freeing another lcore's objects
 * one at a time took its lock and wrote its owner's cache line each
 * time, 2.5-5 times the cost of a free by the owner. A drain hands over
 * what the caches it takes hold (malloc_slab_flush_held()); until then
 * those objects count as live.
 *
 * @return false if the object is not live any more (freed twice).
 */
bool malloc_slab_free_other(
		struct rte_mem_config *mcfg, struct malloc_slab *s, uint32_t i);

/*
 * Hand the objects cache @p c holds back for other lcores' slabs over to
 * them. The caller has claimed c, or is its owner and in it.
 */
void malloc_slab_flush_held(
		struct rte_mem_config *mcfg, struct malloc_cache *c);

/*
 * The slab holding @p ptr, or NULL if it is in none; *@p live is set to
 * whether @p ptr is a live object there.
 */
struct malloc_slab *malloc_slab_of(
		const struct rte_mem_config *mcfg, const void *ptr, bool *live);

/*
 * Collect the remote frees onto the slabs of cache @p c, which the caller
 * has claimed or owns, and move its empty slabs of heap @p heap onto
 * *@p empty, linked by their next field.
 */
void malloc_slab_sweep(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		struct malloc_cache *c, struct malloc_slab **empty);

/*
 * Give the slabs on @p empty back to heap @p heap, whose lock the caller
 * holds, once no cache is claimed any more: freeing may drain again.
 */
void malloc_slab_release(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		struct malloc_slab *empty);

/*
 * Count the slabs of cache @p c, the objects live in them (handed out and
 * not collected back) and the bytes of their free objects. The caller
 * owns @p c or has taken it (malloc_cache_take_all()): the owner counts
 * nothing on its fast paths, so the slabs are walked.
 */
void malloc_slab_count(const struct malloc_cache *c, unsigned int *slabs,
		unsigned int *live, size_t *free_bytes);

#endif /* _MALLOC_SLAB_H_ */
