/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _MALLOC_ELEM_H_
#define _MALLOC_ELEM_H_

/*
 * Heap elements. Heap memory is cut into elements, each starting with a
 * header; an element is free, busy (allocated), queued or cached (freed
 * but not joined yet) or, for the last 8 bytes before an aligned allocation, a
 * pad marker pointing back to its header.
 *
 *   [header][pad][data ............][trailer][slack]
 *   ^elem        ^data = elem + MALLOC_ELEM_HEADER_LEN + pad
 *
 * Elements that touch in memory (same memseg list, adjacent addresses) are
 * linked by prev/next; a NULL link means a run edge (unmapped memory or
 * another list). Two free neighbours are always joined, except across
 * different original allocations with --match-allocations.
 *
 * A free element is clean when every byte after its header is zero, dirty
 * when some byte may not be. Splitting keeps the flag, joining ORs it.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <rte_common.h>

#include "malloc_asan.h"

#ifdef RTE_MALLOC_DEBUG
#define MALLOC_ELEM_HEADER_LEN 128
#define MALLOC_ELEM_TRAILER_LEN 64
#define MALLOC_HEADER_COOKIE 0xbadbadbadadd2e55ULL
#define MALLOC_TRAILER_COOKIE 0xadd2e55badbadbadULL
#define MALLOC_POISON 0x6b
#else
#define MALLOC_ELEM_HEADER_LEN 64
#define MALLOC_ELEM_TRAILER_LEN 0
#endif

/* Bytes an allocation costs beyond its (cache-line rounded) size. */
#define MALLOC_ELEM_OVERHEAD (MALLOC_ELEM_HEADER_LEN + MALLOC_ELEM_TRAILER_LEN)
/* The smallest data area; smaller leftovers stay as slack. */
#define MALLOC_ELEM_MIN_DATA 64
/* The smallest element. */
#define MALLOC_ELEM_MIN_LEN (MALLOC_ELEM_OVERHEAD + MALLOC_ELEM_MIN_DATA)

/* Values unlikely to appear by chance, so that rte_free() can reject
 * pointers that are not allocations. */
enum malloc_elem_state {
	ELEM_FREE = 0x5f,
	ELEM_BUSY = 0xb5,
	ELEM_PAD = 0xad,
	ELEM_QUEUED = 0xc3, /* freed, waiting to be joined (malloc_queue.h) */
	ELEM_CACHED = 0x3c, /* freed into an lcore cache (malloc_cache.h) */
	/* Busy, and a memzone's memory: rte_free() and rte_realloc() refuse
	 * it, only rte_memzone_free() gives it back. */
	ELEM_MEMZONE = 0x9a,
	/* In a run a drain is joining, never seen outside the heap lock: */
	ELEM_RUN_FREE = 0x6a, /* was free */
	ELEM_RUN_WAITING = 0xa6, /* was queued or cached */
};

#define ELEM_FLAG_DIRTY 0x1 /* may hold non-zero bytes after the header */
/*
 * A cached or queued element carved ahead for an lcore cache and never
 * handed out: its data holds what the memory held (zero if clean), not a
 * previous user's bytes. Never set on a free or busy element.
 */
#define ELEM_FLAG_SPARE 0x2

/*
 * The last 8 bytes of a header. A pad marker is just this, written right
 * before the data of an allocation whose header is further back.
 */
struct malloc_elem_tail {
	uint32_t pad; /* bytes between the header's end and the data */
	uint8_t msl_idx; /* memseg list of the element */
	uint8_t heap_idx; /* heap owning it */
	uint8_t flags; /* ELEM_FLAG_* */
	uint8_t state; /* enum malloc_elem_state */
};

struct malloc_elem {
	struct malloc_elem *prev; /* neighbour below, or NULL at a run edge */
	struct malloc_elem *next; /* neighbour above, or NULL at a run edge */
	struct malloc_elem *free_prev; /* free list links (free elements), */
	struct malloc_elem *free_next; /* and the queue's link (queued ones) */
	size_t size; /* bytes from this header to the end of the element */
	struct malloc_elem *orig_elem; /* first element of the pages it came
					* with (--match-allocations) */
	size_t orig_size; /* bytes of those pages */
#ifdef RTE_MALLOC_DEBUG
	uint64_t cookie; /* MALLOC_HEADER_COOKIE */
	uint8_t reserved[56];
#endif
	struct malloc_elem_tail t;
};

RTE_BUILD_BUG_ON(sizeof(struct malloc_elem) != MALLOC_ELEM_HEADER_LEN);

static inline void *
malloc_elem_end(const struct malloc_elem *e)
{
	return RTE_PTR_ADD(e, e->size);
}

static inline void *__rte_no_asan
malloc_elem_data(const struct malloc_elem *e)
{
	return RTE_PTR_ADD(e, MALLOC_ELEM_HEADER_LEN + e->t.pad);
}

/* Bytes the application may use in busy element @p e. */
static inline size_t
malloc_elem_usable(const struct malloc_elem *e)
{
	return e->size - MALLOC_ELEM_OVERHEAD - e->t.pad;
}

static inline bool
malloc_elem_is_dirty(const struct malloc_elem *e)
{
	return (e->t.flags & ELEM_FLAG_DIRTY) != 0;
}

static inline void
malloc_elem_set_dirty(struct malloc_elem *e, bool dirty)
{
	e->t.flags = (uint8_t)(dirty ? e->t.flags | ELEM_FLAG_DIRTY :
				       e->t.flags & ~ELEM_FLAG_DIRTY);
}

/*
 * Poison busy element @p e freed into a queue or a cache, where it waits
 * unjoined: a debug build overwrites its data (the trailer cookie stays)
 * and so makes it dirty, ASan marks data and trailer unusable.
 */
static inline void
malloc_elem_poison_waiting(struct malloc_elem *e)
{
#ifdef RTE_MALLOC_DEBUG
	memset(RTE_PTR_ADD(e, MALLOC_ELEM_HEADER_LEN), MALLOC_POISON,
			e->size - MALLOC_ELEM_OVERHEAD);
	e->t.flags |= ELEM_FLAG_DIRTY;
#endif
	malloc_asan_poison(RTE_PTR_ADD(e, MALLOC_ELEM_HEADER_LEN),
			e->size - MALLOC_ELEM_HEADER_LEN);
}

/*
 * Hand out waiting (queued or cached) element @p e again.
 *
 * @return true if its data may hold non-zero bytes.
 */
static inline bool
malloc_elem_take_waiting(struct malloc_elem *e)
{
	bool dirty = (e->t.flags & ELEM_FLAG_SPARE) == 0 ||
			malloc_elem_is_dirty(e);

	e->t.flags &= (uint8_t)~ELEM_FLAG_SPARE;
	return dirty;
}

/* @return false if a debug build finds @p e's cookies overwritten. */
static inline bool __rte_no_asan
malloc_elem_cookies_ok(const struct malloc_elem *e)
{
#ifdef RTE_MALLOC_DEBUG
	return e->cookie == MALLOC_HEADER_COOKIE &&
			*(const uint64_t *)RTE_PTR_SUB(malloc_elem_end(e),
					MALLOC_ELEM_TRAILER_LEN) ==
			MALLOC_TRAILER_COOKIE;
#else
	RTE_SET_USED(e);
	return true;
#endif
}

/*
 * @return true if busy element @p e, whose header lies in the list
 * starting at @p base and @p len bytes long, has a size that ends in the
 * list and intact cookies: what both the cache's quick check and the
 * long validation require before a free, kept in one place.
 */
static inline bool __rte_no_asan
malloc_elem_whole(const struct malloc_elem *e, uintptr_t base, size_t len)
{
	return e->size >= MALLOC_ELEM_MIN_LEN &&
			e->size <= len - ((uintptr_t)e - base) &&
			malloc_elem_cookies_ok(e);
}

/*
 * The header of the allocation at @p data, following a pad marker if
 * there is one. The caller has checked that the memory before @p data is
 * mapped heap memory.
 *
 * Not instrumented, nor are the other readers of a header marked
 * __rte_no_asan here: rte_free() and rte_malloc_validate() use them on
 * any pointer, which may be one freed before and lie in memory ASan sees
 * poisoned; refusing it is their job.
 */
static inline struct malloc_elem *__rte_no_asan
malloc_elem_from_data(const void *data)
{
	const struct malloc_elem_tail *t = RTE_PTR_SUB(data, sizeof(*t));

	if (t->state == ELEM_PAD)
		return RTE_PTR_SUB(data, MALLOC_ELEM_HEADER_LEN + t->pad);
	return RTE_PTR_SUB(data, MALLOC_ELEM_HEADER_LEN);
}

/* Write a fresh, unlinked header of @p size bytes at @p e. */
static inline void
malloc_elem_init(struct malloc_elem *e, size_t size, uint8_t msl_idx,
		uint8_t heap_idx, enum malloc_elem_state state, bool dirty)
{
	malloc_asan_unpoison(e, MALLOC_ELEM_HEADER_LEN);
	e->prev = NULL;
	e->next = NULL;
	e->free_prev = NULL;
	e->free_next = NULL;
	e->size = size;
	e->orig_elem = e;
	e->orig_size = size;
#ifdef RTE_MALLOC_DEBUG
	e->cookie = MALLOC_HEADER_COOKIE;
	memset(e->reserved, 0, sizeof(e->reserved));
#endif
	e->t.pad = 0;
	e->t.msl_idx = msl_idx;
	e->t.heap_idx = heap_idx;
	e->t.flags = dirty ? ELEM_FLAG_DIRTY : 0;
	e->t.state = (uint8_t)state;
}

/*
 * Cut @p e at @p at (inside it, leaving both parts at least
 * MALLOC_ELEM_MIN_LEN) and return the upper part, a new element with
 * state @p state that inherits dirtiness and origin and sits between @p e
 * and its old next.
 */
static inline struct malloc_elem *
malloc_elem_split(struct malloc_elem *e, void *at, enum malloc_elem_state state)
{
	struct malloc_elem *n = at;
	size_t low = RTE_PTR_DIFF(at, e);

	malloc_elem_init(n, e->size - low, e->t.msl_idx, e->t.heap_idx, state,
			malloc_elem_is_dirty(e));
	n->orig_elem = e->orig_elem;
	n->orig_size = e->orig_size;
	n->prev = e;
	n->next = e->next;
	if (e->next != NULL)
		e->next->prev = n;
	e->next = n;
	e->size = low;
	return n;
}

/* @return true if @p e and its next may be joined (both free). */
static inline bool
malloc_elem_can_join_next(const struct malloc_elem *e, bool match)
{
	const struct malloc_elem *n = e->next;

	if (n == NULL || e->t.state != ELEM_FREE || n->t.state != ELEM_FREE)
		return false;
	return !match || n->orig_elem == e->orig_elem;
}

/*
 * Absorb @p e's next into @p e: sizes add, dirtiness ORs, the next's
 * header becomes data. The caller handles free lists and clearing.
 */
static inline void
malloc_elem_join_next(struct malloc_elem *e)
{
	struct malloc_elem *n = e->next;

	e->size += n->size;
	e->t.flags |= n->t.flags & ELEM_FLAG_DIRTY;
	e->next = n->next;
	if (n->next != NULL)
		n->next->prev = e;
}

#endif /* _MALLOC_ELEM_H_ */
