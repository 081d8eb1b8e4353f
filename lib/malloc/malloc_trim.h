/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _MALLOC_TRIM_H_
#define _MALLOC_TRIM_H_

/*
 * Free pages kept for reuse, and when they go back (--malloc-retain,
 * --malloc-decay; malloc.rst, "Giving pages back").
 *
 * A free that leaves whole pages free gives them back to lib/eal only
 * when keeping them would make the heap's free memory exceed what -m
 * pins plus --malloc-retain. Kept pages go back once no free has kept
 * any, and no lcore used its cache (malloc_lcore_activity()), for
 * --malloc-decay milliseconds: a thread per process (named
 * "rte_malloc_trim") sleeps on a futex word in the shared state and
 * wakes when a heap starts keeping pages, then when the oldest is due.
 * While the lcores work, it still looks at least once a decay time and
 * gives back the free memory no allocation needed since its last look
 * (malloc_heap_trim_unused()). rte_malloc_heap_trim() gives them back at
 * once.
 */

#include <stdbool.h>
#include <stddef.h>

#include "eal_memcfg.h"

struct malloc_heap;

/*
 * How heaps give their free pages back: one of two named strategies,
 * chosen by the options, whose rules the heap, the lcore caches and the
 * slabs read instead of testing the options where they decide.
 */
struct malloc_page_return {
	/* A free may keep whole pages mapped; a trim gives them back. */
	bool keeps_pages;
	/* A heap that finds no room grows before it drains the caches of
	 * other lcores, which would only refill from it. */
	bool grow_before_drain;
	/* Frees may wait in caches and queues beside free memory, and the
	 * caches need not read their neighbours' headers. */
	bool wait_beside_free;
	/* An emptied slab stays with its cache (up to slab_keep slabs
	 * owned), without asking whether its page could go back. */
	bool keep_empty_slabs;
	/* A free of another lcore's slab object may wait with the freeing
	 * lcore, to be handed over with others of its slab
	 * (malloc_slab_free_other()). */
	bool hold_remote_frees;
};

/*
 * "keep" (--malloc-retain and --malloc-decay not 0): pages stay for
 * reuse up to the retain limit, until the decay is up. "eager" (DPDK's
 * way, --malloc-retain=0): pages go back at once, so nothing may wait
 * beside free memory and keep them.
 */
extern const struct malloc_page_return malloc_page_keep, malloc_page_eager;

/* The page return strategy of the heaps of @p mcfg. */
static inline const struct malloc_page_return *
malloc_page_return(const struct rte_mem_config *mcfg)
{
	return mcfg->malloc_retain != 0 && mcfg->malloc_decay_ms != 0 ?
			&malloc_page_keep :
			&malloc_page_eager;
}

/*
 * Whether a free that leaves whole pages free in @p heap keeps them
 * mapped rather than giving them back: the rule reads the heap's free
 * memory, which counts them already. If so, the heap is marked as
 * keeping pages from now. The caller holds the heap lock.
 */
bool malloc_trim_keep(struct rte_mem_config *mcfg, struct malloc_heap *heap);

/*
 * Note that @p heap's memory waits in an lcore cache beyond what a cache
 * holds without keeping pages: the trim thread drains the caches once
 * the time is up. Needs no lock.
 */
void malloc_trim_touch(struct rte_mem_config *mcfg, struct malloc_heap *heap);

/*
 * Make sure the trim thread comes for @p heap within the decay time, if
 * heaps keep pages, without putting that time off when it is on its way
 * already: for work that only has to be drained some time (remote frees
 * an lcore holds back, slabs they emptied), where reading the clock and
 * writing the heap's line at each of them cost a remote free of a 64 KB
 * object a third of its time. Needs no lock.
 */
void malloc_trim_arm(struct rte_mem_config *mcfg, struct malloc_heap *heap);

/* CLOCK_MONOTONIC in ns: the clock of keep_ns, look_ns and low_ns. */
uint64_t malloc_trim_now_ns(void);

/*
 * Start this process's trim thread, if pages may be kept at all.
 *
 * @return 0, or a negative errno with one line in @p err.
 */
int malloc_trim_start(struct rte_mem_config *mcfg, char *err, size_t err_len);

/* Stop the trim thread, if it runs. Kept pages stay as they are. */
void malloc_trim_stop(void);

#endif /* _MALLOC_TRIM_H_ */
