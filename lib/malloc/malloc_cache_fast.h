/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _MALLOC_CACHE_FAST_H_
#define _MALLOC_CACHE_FAST_H_

/*
 * The lcore cache's free path, inline in rte_free() as the slabs' is
 * (malloc_slab_fast.h): an element is checked against the cache's copy
 * of its memseg list and pushed without a call. A free of a block above
 * slab sizes took 16.4 ns in pairs through a call here, 14.6-15.0 with
 * every step inline. The rest of the cache is malloc_cache.c.
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_common.h>

#include "eal_bitmap.h"
#include "eal_memseg_list.h"
#include "malloc_asan.h"
#include "malloc_cache.h"
#include "malloc_elem.h"
#include "malloc_heap.h"
#include "malloc_queue.h"
#include "malloc_state.h"
#include "malloc_trim.h"

/* What malloc_cache_free() did with a block. */
enum malloc_cache_verdict {
	MALLOC_CACHE_TAKEN, /* cached: the free is done */
	MALLOC_CACHE_CHECKED, /* a valid allocation the cache does not take */
	MALLOC_CACHE_UNCHECKED, /* not checked: validate it the long way */
};

/*
 * Drain the heap of full cache @p c and push @p e again, if c is full
 * mostly of other sizes (malloc_cache.c, out of line: rare).
 * @return whether @p e was pushed.
 */
bool malloc_cache_flush_push(struct rte_mem_config *mcfg,
		struct malloc_cache *c, struct malloc_elem *e, int k);

/* The tail of a header with these fields, as one word. */
static inline uint64_t
malloc_cache_tail(uint32_t pad, uint8_t msl_idx, uint8_t heap_idx,
		uint8_t flags, uint8_t state)
{
	struct malloc_elem_tail t = {
		.pad = pad,
		.msl_idx = msl_idx,
		.heap_idx = heap_idx,
		.flags = flags,
		.state = state,
	};
	uint64_t w;

	RTE_BUILD_BUG_ON(sizeof(t) != sizeof(w));
	memcpy(&w, &t, sizeof(w));
	return w;
}

/* @return true if addresses @p a and @p b are on one page of c's list. */
static inline bool
malloc_cache_same_page(const struct malloc_cache *c, uintptr_t a, uintptr_t b)
{
	return ((a ^ b) & c->page_mask) == 0;
}

/* @return true if mapped header @p x, perhaps being joined, is free. */
static inline bool __rte_no_asan
malloc_cache_elem_free(const struct malloc_elem *x)
{
	return __atomic_load_n(&x->t.state, __ATOMIC_RELAXED) == ELEM_FREE;
}

/*
 * The element at @p data if its header is that of a busy element of
 * cache @p c's heap on c's memseg list, with no pad (the cache would hand
 * a pad on). NULL: the caller validates @p data the long way.
 *
 * Only mapped memory is read, whatever @p data is: the header's page,
 * which the list marks used. Not instrumented: a block freed twice may
 * lie in poisoned memory now.
 */
static inline struct malloc_elem *__rte_no_asan
malloc_cache_elem_head(const struct rte_mem_config *mcfg,
		const struct malloc_cache *c, const void *data)
{
	const uint64_t any_flags = malloc_cache_tail(
			UINT32_MAX, UINT8_MAX, UINT8_MAX, 0, UINT8_MAX);
	struct malloc_elem *e = RTE_PTR_SUB(data, MALLOC_ELEM_HEADER_LEN);
	uintptr_t off = (uintptr_t)e - c->msl_base;
	uint64_t tail;

	if (((uintptr_t)data & RTE_CACHE_LINE_MASK) != 0 || off >= c->msl_len)
		return NULL;
	/* A header longer than a cache line may start on the page before. */
	if ((MALLOC_ELEM_HEADER_LEN > RTE_CACHE_LINE_SIZE &&
			    !malloc_cache_same_page(c, (uintptr_t)e,
					    (uintptr_t)data - 1)) ||
			!eal_bitmap_get(eal_mcfg_at(mcfg, c->msl_used_off),
					(unsigned int)(off >> c->page_shift)))
		return NULL;
	/* The tail first: before an aligned block, e is no header. */
	memcpy(&tail, &e->t, sizeof(tail));
	return (tail & any_flags) == c->tail ? e : NULL;
}

/* Pages of an element the cache checks at most (one 1 MiB block on 4 KB). */
#define MALLOC_CACHE_MAX_PAGES 257

/*
 * @return true if every page from the one of @p a to the one of @p b
 * (a <= b, addresses) lies in c's list and is mapped. The page of
 * @p known is: the header's, which malloc_cache_elem_head() checked.
 */
static inline bool
malloc_cache_pages_used(const struct rte_mem_config *mcfg,
		const struct malloc_cache *c, uintptr_t a, uintptr_t b,
		uintptr_t known)
{
	const uint64_t *used = eal_mcfg_at(mcfg, c->msl_used_off);
	uintptr_t first, last, i;

	if (a < c->msl_base || b - c->msl_base >= c->msl_len || b < a)
		return false;
	/* Most blocks: on the page of @p known, checked already. */
	if (malloc_cache_same_page(c, a, known) &&
			malloc_cache_same_page(c, b, known))
		return true;
	first = (a - c->msl_base) >> c->page_shift;
	last = (b - c->msl_base) >> c->page_shift;
	if (last - first >= MALLOC_CACHE_MAX_PAGES)
		return false;
	for (i = first; i <= last; i++)
		if (!eal_bitmap_get(used, (unsigned int)i))
			return false;
	return true;
}

/*
 * @return true if cache @p c takes element @p e, that malloc_cache_elem_head()
 * found, with its queue class in @p k: of a queued size, its pages
 * mapped and its end where its next neighbour starts; and unless heaps
 * keep free pages (malloc_trim.h), its neighbours' headers mapped, its
 * previous neighbour ending where it starts and neither free: else a
 * cached element next to free memory could keep a page from going back.
 *
 * Only mapped pages are read, checked in the list's bitmap before. Not
 * instrumented: a join racing with this may have poisoned what e->prev
 * still points to (the value read then only sends the free the long
 * way).
 */
static inline bool __rte_no_asan
malloc_cache_elem_fits(const struct rte_mem_config *mcfg,
		const struct malloc_cache *c, const struct malloc_elem *e,
		int *k)
{
	uintptr_t ea = (uintptr_t)e, end = ea + e->size;
	const struct malloc_elem *p, *n;
	bool free_near;

	*k = malloc_queue_class(e->size);
	if (*k < 0)
		return false;
	n = __atomic_load_n(&e->next, __ATOMIC_RELAXED);
	if ((n != NULL && (uintptr_t)n != end) ||
			!malloc_cache_pages_used(mcfg, c, ea, end - 1, ea))
		return false;
	/*
	 * Heaps keeping free pages, a free neighbour does not matter, and
	 * the neighbours' headers are not read: another lcore writes them
	 * when the blocks beside are its own, and reading them on every
	 * free would move their cache lines between the CPUs.
	 */
	if (malloc_page_return(mcfg)->wait_beside_free)
		return true;
	if (n != NULL && !malloc_cache_pages_used(mcfg, c, end, end, ea))
		return false;
	p = __atomic_load_n(&e->prev, __ATOMIC_RELAXED);
	if (p != NULL &&
			(!malloc_cache_pages_used(mcfg, c, (uintptr_t)p,
					 (uintptr_t)p, ea) ||
					(uintptr_t)p + __atomic_load_n(&p->size, __ATOMIC_RELAXED) !=
							ea))
		return false;
	free_near = (n != NULL && malloc_cache_elem_free(n)) ||
			(p != NULL && malloc_cache_elem_free(p));
	return !free_near;
}

/* What malloc_cache_push() did. */
enum malloc_cache_push_result {
	MALLOC_CACHE_PUSHED,
	MALLOC_CACHE_CLAIMED, /* a drainer has the cache */
	MALLOC_CACHE_FULL, /* no room for the element */
};

/*
 * Put @p e, which malloc_cache_elem_fits() accepted, on @p c's stack @p k. A
 * cache that grows past MALLOC_CACHE_MIN_BYTES holds memory the trim
 * thread must take back once unused: it is told, once per drain.
 */
static inline enum malloc_cache_push_result
malloc_cache_push(struct rte_mem_config *mcfg, struct malloc_cache *c,
		struct malloc_elem *e, int k)
{
	size_t held = c->size;

	if (!malloc_cache_enter(c))
		return MALLOC_CACHE_CLAIMED;
	if (c->size + e->size > malloc_cache_max_bytes(mcfg)) {
		malloc_cache_leave(c);
		return MALLOC_CACHE_FULL;
	}
	malloc_elem_poison_waiting(e);
	e->free_next = c->head[k];
	c->head[k] = e;
	c->count[k]++;
	__atomic_store_n(&c->ops, c->ops + 1, __ATOMIC_RELAXED);
	__atomic_store_n(&c->size, c->size + e->size, __ATOMIC_RELAXED);
	/* Last: a free seeing e cached must see the cache's size too. */
	__atomic_store_n(&e->t.state, (uint8_t)ELEM_CACHED, __ATOMIC_RELEASE);
	malloc_cache_leave(c);
	if (held <= MALLOC_CACHE_MIN_BYTES &&
			held + e->size > MALLOC_CACHE_MIN_BYTES) {
		struct malloc_state *st = malloc_state_of(mcfg);

		malloc_trim_touch(mcfg, &st->heaps[malloc_cache_heap_idx(c)]);
	}
	return MALLOC_CACHE_PUSHED;
}

/* Push @p e, draining first if the cache is full (malloc_cache_flush_push()). */
static inline bool
malloc_cache_push_flush(struct rte_mem_config *mcfg, struct malloc_cache *c,
		struct malloc_elem *e, int k)
{
	enum malloc_cache_push_result r = malloc_cache_push(mcfg, c, e, k);

	if (likely(r != MALLOC_CACHE_FULL))
		return r == MALLOC_CACHE_PUSHED;
	return malloc_cache_flush_push(mcfg, c, e, k);
}

/* Element of class @p k (if any) refused: start the spares over. */
static inline void
malloc_cache_refused(struct malloc_cache *c, int k)
{
	/* Spares of this size would likely be drained at once too. */
	if (k >= 0)
		c->fill[k] = 0;
}

/*
 * Put the allocation at @p data in the calling lcore's cache instead of
 * freeing it, if it is a busy element that the cache takes and that is
 * quick to validate. No lock is taken.
 *
 * @param heap
 *   With MALLOC_CACHE_CHECKED, set to the heap to free the block on: the
 *   block passed the checks malloc_heap_elem_of() makes, and the cache
 *   refused it (a free neighbour, a size it does not hold, or full), so
 *   the caller frees it without validating it again.
 * @return what was done.
 */
static inline enum malloc_cache_verdict
malloc_cache_free(struct rte_mem_config *mcfg, void *data,
		struct malloc_heap **heap)
{
	struct malloc_cache *c = malloc_cache_mine(mcfg);
	struct malloc_elem *e;
	int k;

	if (c == NULL)
		return MALLOC_CACHE_UNCHECKED;
	e = malloc_cache_elem_head(mcfg, c, data);
	if (e == NULL)
		return MALLOC_CACHE_UNCHECKED;
	/* On one page, the trailer's cookie is mapped too. */
	if (malloc_cache_elem_fits(mcfg, c, e, &k) &&
			malloc_elem_cookies_ok(e) &&
			malloc_cache_push_flush(mcfg, c, e, k))
		return MALLOC_CACHE_TAKEN;
	malloc_cache_refused(c, k);
	/* The rest of malloc_heap_elem_of()'s checks, so it need not run. */
	if (!malloc_elem_whole(e, c->msl_base, c->msl_len))
		return MALLOC_CACHE_UNCHECKED;
	*heap = &malloc_state_of(mcfg)->heaps[malloc_cache_heap_idx(c)];
	return MALLOC_CACHE_CHECKED;
}

#endif /* _MALLOC_CACHE_FAST_H_ */
