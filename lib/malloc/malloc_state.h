/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _MALLOC_STATE_H_
#define _MALLOC_STATE_H_

/*
 * lib/malloc's part of the memory config: the heaps, and above them the
 * lcores' caches and slabs (malloc_lcore.h). Where both layers meet in
 * shared memory, and nothing else.
 */

#include <stdint.h>

#include <rte_common.h>
#include <rte_errno.h>

#include "eal_memcfg.h"
#include "malloc_cache.h"
#include "malloc_heap.h"
#include "malloc_memzone.h"

struct eal_subsys;

/* lib/malloc's part of the memory config. */
struct malloc_state {
	struct malloc_heap heaps[RTE_MAX_HEAPS];
	int8_t node_heap[RTE_MAX_NUMA_NODES]; /* heap of a node, or -1 */
	int next_external_socket; /* socket id of the next external heap */
	/*
	 * One past the highest heap entry ever used (atomic), so that the
	 * trim thread's walk reads only those: the 32 entries span 672 KB
	 * of the config, and reading them faulted in 32 pages.
	 */
	uint32_t heaps_end;
	/*
	 * Per memseg list, from the config start: an array with, for each
	 * slot whose page ends a run of heap memory, the element ending
	 * there. It lets a heap that grows next to existing memory find its
	 * neighbour without a walk. 0: not allocated.
	 */
	uint64_t run_end_off[RTE_MAX_MEMSEG_LISTS];
	uint32_t run_end_len[RTE_MAX_MEMSEG_LISTS]; /* slots in the array */
	/*
	 * Per memseg list: two bits per MALLOC_SLAB_LEN span, what slab
	 * covers it (enum malloc_slab_kind).
	 */
	uint64_t slab_map_off[RTE_MAX_MEMSEG_LISTS];
	uint32_t slab_map_words[RTE_MAX_MEMSEG_LISTS]; /* words in it */
	struct malloc_mz_table memzones;
	uint32_t trim_seq; /* bumped (and futex-woken) when a heap starts
			    * keeping pages, or a trim thread must stop */
	uint8_t caches_on; /* 1: small frees may go to lcore caches */
	uint8_t slabs_on; /* 1: small allocations may come from slabs */
	uint32_t slab_keep; /* slab units a cache keeps (malloc_slab.h) */
	/* A cache's slab_keep_empty, copied at its first use. */
	uint32_t slab_keep_empty;
	struct malloc_cache caches[RTE_MAX_LCORE];
};

/* Entry @p i of the heaps is in use now (under the hotplug lock). */
static inline void
malloc_state_heap_used(struct malloc_state *st, unsigned int i)
{
	if (i >= st->heaps_end)
		__atomic_store_n(&st->heaps_end, i + 1, __ATOMIC_RELEASE);
}

/* lib/malloc's state in @p mcfg. */
static inline struct malloc_state *
malloc_state_of(const struct rte_mem_config *mcfg)
{
	return eal_mcfg_at(mcfg, mcfg->malloc_off);
}

/*
 * Find the calling thread's cache in @p mcfg and keep it in the thread's
 * memo (eal_lcore_memo). @return the cache, or NULL if the thread may use
 * none. Inline although rare: a call on the fast paths' miss made every
 * rte_malloc() save registers on entry (0.5 ns).
 */
static inline struct malloc_cache *
malloc_cache_find(struct rte_mem_config *mcfg)
{
	struct eal_lcore_memo *m = &RTE_PER_LCORE(eal_lcore_memo);
	unsigned int lcore;

	/* A config new to the thread: its lcore id may be an old EAL's. */
	eal_lcore_drop_stale();
	lcore = malloc_cache_lcore();

	m->ptr = lcore < RTE_MAX_LCORE ? &malloc_state_of(mcfg)->caches[lcore] :
					 NULL;
	m->lcore = lcore;
	m->key = mcfg;
	return m->ptr;
}

/*
 * The calling thread's cache in @p mcfg, whose heaps are up
 * (malloc_mcfg_get()), or NULL for a thread that may use none
 * (malloc_cache_lcore()). Every fast path found it from the lcore id
 * and the heaps' offset in the config, a chain of loads each waiting for
 * the last: 64 byte pairs took 9.2 ns, 8.1 with the cache kept in the
 * thread's memo. The memo is keyed on the config, whose offset is then
 * already loaded: keyed on the heaps' state, whose address waits for
 * that load, pairs took 9.5 ns. The heaps' offset is fixed while a
 * config lives, and a config's address is never reused.
 */
static inline struct malloc_cache *
malloc_cache_mine(struct rte_mem_config *mcfg)
{
	const struct eal_lcore_memo *m = &RTE_PER_LCORE(eal_lcore_memo);

	if (likely(m->key == mcfg))
		return m->ptr;
	return malloc_cache_find(mcfg);
}

/* The lcore of malloc_cache_mine(), once it returned a cache. */
static inline unsigned int
malloc_cache_mine_lcore(void)
{
	return RTE_PER_LCORE(eal_lcore_memo).lcore;
}

/* lib/malloc's set-up and clean-up inside rte_eal_init() and cleanup. */
extern const struct eal_subsys malloc_subsys;

/*
 * The initialized EAL's config if lib/malloc is set up in it, else NULL
 * with rte_errno E_RTE_NO_CONFIG. Inline: every call of the API asks.
 */
static inline struct rte_mem_config *
malloc_mcfg_get(void)
{
	struct rte_mem_config *mcfg = eal_mcfg_get();

	if (likely(mcfg != NULL && mcfg->malloc_off != 0))
		return mcfg;
	rte_errno = E_RTE_NO_CONFIG;
	return NULL;
}

/* The heap of @p socket (node or external id), or NULL. */
struct malloc_heap *malloc_heap_of_socket(struct malloc_state *st, int socket);

/* The index of @p heap in the state's table. */
static inline unsigned int
malloc_heap_idx(const struct malloc_state *st, const struct malloc_heap *heap)
{
	return (unsigned int)(heap - st->heaps);
}

#endif /* _MALLOC_STATE_H_ */
