/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * The parts of malloc_lcore.h that take both the lcore caches and their
 * slabs: drains, forgetting, statistics. The rest is defined where it is
 * done, in malloc_cache.c and malloc_slab.c.
 */

#include <rte_common.h>

#include "malloc_cache.h"
#include "malloc_heap.h"
#include "malloc_lcore.h"
#include "malloc_slab.h"
#include "malloc_state.h"

void
malloc_lcore_drain_begin(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		struct malloc_lcore_drain *d, struct malloc_elem **runs)
{
	if (!malloc_lcore_pending(mcfg, heap))
		return;
	d->cached = malloc_cache_take(mcfg, heap, d->taken);
	malloc_cache_drain(mcfg, heap, d->taken, d->cached, runs, &d->empty);
}

void
malloc_lcore_drain_end(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		struct malloc_lcore_drain *d)
{
	malloc_cache_give_back(mcfg, d->taken);
	malloc_slab_release(mcfg, heap, d->empty);
	d->empty = NULL;
}

void
malloc_lcore_forget(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		struct malloc_lcore_drain *d)
{
	d->cached = malloc_cache_take(mcfg, heap, d->taken);
	malloc_cache_forget(mcfg, d->taken);
}

/* Whether lcore @p l is in mask @p m. */
static inline bool
lcore_in(const uint64_t *m, unsigned int l)
{
	return (m[l / 64] & (UINT64_C(1) << (l % 64))) != 0;
}

void
malloc_lcore_stats(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		struct rte_malloc_socket_stats *s)
{
	const struct malloc_state *st = malloc_state_of(mcfg);
	unsigned int l, idx = malloc_heap_idx(st, heap), slabs, live;
	uint64_t taken[MALLOC_LCORE_WORDS] = { 0 };
	size_t free_bytes;

	/* No cache, no slab: and no fence to take them with. */
	if (!st->caches_on)
		return;
	/*
	 * The owners count nothing: their slabs are walked, held still.
	 * Another lcore's, if the fence fails (logged), is left out.
	 */
	malloc_cache_take_all(mcfg, heap, taken);
	for (l = 0; l < RTE_MAX_LCORE; l++) {
		const struct malloc_cache *c = &st->caches[l];

		/*
		 * The heap's mask first: a cache never used is a config page
		 * nobody wrote, which a read would fault in.
		 */
		if (!lcore_in(heap->cache_lcores, l) ||
				malloc_cache_heap_idx(c) != (int32_t)idx)
			continue;
		s->heap_cleared_on_zmalloc_bytes += __atomic_load_n(
				&c->cleared, __ATOMIC_RELAXED);
		if (!lcore_in(taken, l))
			continue;
		malloc_slab_count(c, &slabs, &live, &free_bytes);
		s->alloc_count += live - slabs;
		s->heap_freesz_bytes += free_bytes;
	}
	malloc_cache_give_back(mcfg, taken);
}
