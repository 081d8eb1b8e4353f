/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _MALLOC_SLAB_FAST_H_
#define _MALLOC_SLAB_FAST_H_

/*
 * The owner's common slab paths, inline in rte_malloc() and rte_free():
 * take an object from the class's current slab, give one back to a slab
 * that stays neither empty nor full. They cost what the C library's
 * cache of small blocks costs only if nothing else is on the way: no
 * call, no walk of the memseg lists, no check repeated. Another lcore's
 * object goes to malloc_slab_free_other(), found here, and everything
 * else (a new slab, an empty or full one, an invalid pointer) to
 * malloc_slab_alloc() and malloc_slab_free().
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_lcore.h>

#include "malloc_asan.h"
#include "malloc_cache.h"
#include "malloc_heap.h"
#include "malloc_slab.h"
#include "malloc_state.h"
#include "malloc_trim.h"

/*
 * Take an object of slab @p s, the calling lcore's, setting *@p dirty.
 * @return it, or NULL if @p s is full. The object, not its index: the
 * caller made the address again from the index, and the registers that
 * took made rte_malloc() save one on entry.
 */
static inline void *
malloc_slab_take(struct malloc_slab *s, bool *dirty)
{
	void *obj = s->local;
	uint32_t i;

	if (obj != NULL) {
		s->local = malloc_slab_link(obj);
		i = malloc_slab_slot(s, obj);
		*dirty = true;
	} else if (s->bump < s->n_objs) {
		i = s->bump++;
		obj = malloc_slab_obj(s, i);
		*dirty = !s->clean;
	} else {
		return NULL;
	}
	s->state[i] = MALLOC_SLAB_OBJ_BUSY;
	s->live++;
	return obj;
}

/* Give object @p i of slab @p s back, by its owner. */
static inline void
malloc_slab_put(struct malloc_slab *s, uint32_t i)
{
	void *obj = malloc_slab_obj(s, i);

	s->state[i] = MALLOC_SLAB_OBJ_FREE;
	malloc_slab_set_link(obj, s->local);
	s->local = obj;
	s->live--;
	malloc_asan_poison(obj, malloc_slab_obj_size(s));
}

/*
 * Hand object @p obj of cache @p c out for @p size bytes, clearing them
 * if @p zero and the object may be @p dirty. @return @p obj.
 */
static inline void *
malloc_slab_hand_out(struct malloc_cache *c, void *obj, size_t size, bool zero,
		bool dirty)
{
	malloc_asan_unpoison(obj, size);
	if (zero && dirty)
		malloc_cache_zero(c, obj, size);
	return obj;
}

/*
 * Allocate an object of class @p cls for @p size bytes from the current
 * slab of the calling lcore, clearing it if @p zero and it may be dirty.
 * @return the object, or NULL: then malloc_slab_alloc() does the rest.
 */
static inline void *
malloc_slab_alloc_owned(
		struct rte_mem_config *mcfg, size_t size, int cls, bool zero)
{
	struct malloc_cache *c = malloc_cache_mine(mcfg);
	struct malloc_slab *s;
	bool dirty = false;
	void *obj = NULL;

	/* With slabs off, no cache ever has a slab: no need to ask. */
	if (unlikely(c == NULL))
		return NULL;
	if (unlikely(!malloc_cache_enter(c)))
		return NULL;
	s = c->slabs[cls];
	if (likely(s != NULL))
		obj = malloc_slab_take(s, &dirty);
	malloc_cache_leave(c);
	if (unlikely(obj == NULL))
		return NULL;
	return malloc_slab_hand_out(c, obj, size, zero, dirty);
}

/*
 * Whether a slab of cache @p c stays where it is once empty, in the
 * common case slab_free_local() would decide so: while heaps keep free
 * pages (malloc_trim.h) no page goes back with a slab, and a cache keeps
 * slabs while it owns up to slab_keep units. A thread allocating and
 * freeing one object in turn empties its slab every time. Whether the
 * slab is its class's current one is not asked here (it cost 64 byte
 * pairs 0.3 to 1.5 ns): another one that empties on this path stays on
 * its class's list, where slab_take_idle() finds it for other classes.
 */
static inline bool
malloc_slab_keeps_empty(const struct malloc_cache *c)
{
	return c->slab_total <= c->slab_keep_empty;
}

/*
 * Whether @p ptr, which is not on the list of cache @p c's newest slab,
 * is on the list of its cached blocks and in no slab of any thread: a
 * thread that has no slab, or that allocates blocks above slab sizes on
 * another page size, then frees without looking for a slab.
 */
static inline bool
malloc_slab_outside(const struct rte_mem_config *mcfg,
		const struct malloc_state *st, const struct malloc_cache *c,
		const void *ptr)
{
	uint64_t map_off;

	if ((uintptr_t)ptr - c->msl_base >= c->msl_len)
		return false;
	map_off = st->slab_map_off[c->msl_idx];
	return map_off == 0 ||
			malloc_slab_kind(eal_mcfg_at(mcfg, map_off),
					malloc_slab_span(c->msl_base, ptr)) ==
			MALLOC_SLAB_KIND_NONE;
}

/* What malloc_slab_free_owned() found. */
enum malloc_slab_owned {
	MALLOC_SLAB_OWNED_FREED, /* freed */
	MALLOC_SLAB_OWNED_NOT_SLAB, /* on that list, but in no slab */
	MALLOC_SLAB_OWNED_UNKNOWN, /* malloc_slab_free() decides */
	/*
	 * A live object of another lcore's slab of this kind, there: for
	 * malloc_slab_free_other(). The caller calls it out of line, so that
	 * the owner's free has no call to keep registers for (pairs of 64 B
	 * to 64 KB 7.9-8.6 -> 7.7-8.2 ns).
	 */
	MALLOC_SLAB_OWNED_OTHER_SMALL,
	MALLOC_SLAB_OWNED_OTHER_LARGE,
};

/*
 * malloc_slab_free_owned() of @p ptr in a slab of @p kind, found by its
 * marks, in the list of cache @p c of the calling @p lcore. Inline with a
 * constant kind in each caller's branch: the slab's address then does
 * not wait for the marks' load, and its loads start while the mark is
 * read.
 */
static __rte_always_inline enum malloc_slab_owned
malloc_slab_free_owned_in(struct malloc_cache *c, unsigned int lcore,
		enum malloc_slab_kind kind, void *ptr)
{
	struct malloc_slab *s = malloc_slab_floor(ptr, kind);
	uint32_t i = malloc_slab_live_idx(s, ptr);

	if (unlikely(i == 0))
		return MALLOC_SLAB_OWNED_UNKNOWN;
	if (unlikely(s->owner != lcore))
		return kind == MALLOC_SLAB_KIND_SMALL ?
				MALLOC_SLAB_OWNED_OTHER_SMALL :
				MALLOC_SLAB_OWNED_OTHER_LARGE;
	if (unlikely(!malloc_cache_enter(c)))
		return MALLOC_SLAB_OWNED_UNKNOWN;
	/*
	 * Full, or emptied where it may not stay: one branch. A thread that
	 * frees each object it took empties its slab every time, and a
	 * branch apart for that sent each such free out of line and back.
	 */
	if (unlikely(s->full |
			    ((s->live == 1) & !malloc_slab_keeps_empty(c)))) {
		malloc_cache_leave(c);
		return MALLOC_SLAB_OWNED_UNKNOWN;
	}
	malloc_slab_put(s, i);
	/* Emptied and kept: a drain may give it back (malloc_slab_sweep()). */
	if (s->live == 0)
		__atomic_store_n(&c->slab_idle, 1, __ATOMIC_RELAXED);
	malloc_cache_leave(c);
	return MALLOC_SLAB_OWNED_FREED;
}

/*
 * Free @p ptr if it is a live object of a slab of the calling lcore, on
 * the memseg list of its newest slab, and the slab was not full and does
 * not empty (or stays empty); say if it is a live object of another
 * lcore's slab there, for malloc_slab_free_other(). A pointer on that
 * list outside every slab needs no other look at the slabs: a live block
 * of the heap lies where no slab can be.
 */
static inline enum malloc_slab_owned
malloc_slab_free_owned(struct rte_mem_config *mcfg, void *ptr)
{
	struct malloc_cache *c = malloc_cache_mine(mcfg);
	unsigned int lcore;
	uint64_t span, marks;
	uintptr_t off;

	if (unlikely(c == NULL))
		return MALLOC_SLAB_OWNED_UNKNOWN;
	lcore = malloc_cache_mine_lcore();
	off = (uintptr_t)ptr - c->slab_msl_base;
	if (off >= c->slab_msl_len)
		return malloc_slab_outside(
				       mcfg, malloc_state_of(mcfg), c, ptr) ?
				MALLOC_SLAB_OWNED_NOT_SLAB :
				MALLOC_SLAB_OWNED_UNKNOWN;
	span = malloc_slab_span(c->slab_msl_base, ptr);
	marks = malloc_slab_marks(eal_mcfg_at(mcfg, c->slab_map_off), span);
	/* Laid out for the small slabs, then the large ones, then none. */
	if (likely(malloc_slab_marked(marks, span, MALLOC_SLAB_KIND_SMALL)))
		return malloc_slab_free_owned_in(
				c, lcore, MALLOC_SLAB_KIND_SMALL, ptr);
	if (malloc_slab_marked(marks, span, MALLOC_SLAB_KIND_LARGE))
		return malloc_slab_free_owned_in(
				c, lcore, MALLOC_SLAB_KIND_LARGE, ptr);
	return MALLOC_SLAB_OWNED_NOT_SLAB;
}

#endif /* _MALLOC_SLAB_FAST_H_ */
