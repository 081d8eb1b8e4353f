/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _MALLOC_LCORE_H_
#define _MALLOC_LCORE_H_

/*
 * The per-lcore layer (lcore caches, malloc_cache.h, and slabs,
 * malloc_slab.h) as the heap sees it: everything of that layer the heap
 * layer (malloc_heap*.c, the queue, trim, check, statistics) calls.
 *
 * The per-lcore layer sits on top of the heap: it takes elements from a
 * heap and gives them back through malloc_heap.h, and spares come to it
 * through a callback (struct malloc_spares). The heap reaches up only
 * for what must see every lcore's share of a heap: a drain, which takes
 * each lcore's cache and slabs of the heap back so that the heap's
 * figures are exact and its free pages can go; whether a busy element is
 * an empty slab kept by its owner; the lcores' activity, for the trim
 * thread; their figures, for statistics and dumps.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_malloc.h>

#include "eal_memcfg.h"

struct malloc_elem;
struct malloc_heap;
struct malloc_slab;

/* Words of a mask with a bit per lcore. */
#define MALLOC_LCORE_WORDS (RTE_MAX_LCORE / 64)

/* The lcores' share of a heap while a drain holds it. */
struct malloc_lcore_drain {
	uint64_t taken[MALLOC_LCORE_WORDS]; /* lcores whose cache it holds */
	/* No element of the heap is cached but in a taken cache. */
	bool cached;
	struct malloc_slab *empty; /* slabs emptied, to go back at the end */
};

/* @return true if an lcore may hold elements or slabs of @p heap. */
bool malloc_lcore_pending(const struct rte_mem_config *mcfg,
		const struct malloc_heap *heap);

/*
 * Take the caches and slabs of @p heap from their lcores, and mark the
 * runs around their elements on *@p runs, as malloc_heap_drain_list()
 * does. They stay claimed, their owners keeping off, until
 * malloc_lcore_drain_end(). The caller holds the heap lock; @p d is
 * zero on entry.
 */
void malloc_lcore_drain_begin(struct rte_mem_config *mcfg,
		struct malloc_heap *heap, struct malloc_lcore_drain *d,
		struct malloc_elem **runs);

/*
 * Give the caches of @p d back to their lcores, empty, and the slabs it
 * emptied to @p heap, whose lock the caller still holds.
 */
void malloc_lcore_drain_end(struct rte_mem_config *mcfg,
		struct malloc_heap *heap, struct malloc_lcore_drain *d);

/*
 * Take the caches of @p heap (those that may hold its elements, or all,
 * as a drain takes them) even if none seems to, and empty their stacks
 * without freeing what they held, after a process
 * died inside a heap operation: they may name elements a drain had half
 * dealt with. Their elements stay cached, for malloc_heap_rebuild() to
 * free; the slab objects they held back for other lcores stay out of use
 * (a leak, as their chain may be half made). End with
 * malloc_lcore_drain_end(). The caller holds the heap lock.
 */
void malloc_lcore_forget(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		struct malloc_lcore_drain *d);

/*
 * @return true if busy element @p e is a slab with no live object, kept
 * by its lcore: a hint, read without its owner.
 */
bool malloc_lcore_idle_slab(
		const struct rte_mem_config *mcfg, const struct malloc_elem *e);

/*
 * The sum of the operation counts of the lcores bound to @p heap: while
 * it changes, they are at work and the trim thread leaves their caches
 * alone. Needs no lock.
 */
uint64_t malloc_lcore_activity(const struct rte_mem_config *mcfg,
		const struct malloc_heap *heap);

/*
 * Set up what the lcores need of memseg list @p l of @p mcfg before the
 * heap uses it (the slab marks).
 *
 * @return 0, or -ENOSPC if the config has no room.
 */
int malloc_lcore_track_list(struct rte_mem_config *mcfg, unsigned int l);

/*
 * Add the lcores' share of @p heap to @p s: each slab is a busy element
 * of the heap, its live objects are allocations and its free objects
 * free bytes; and the bytes rte_zmalloc() cleared through the lcores.
 * The lcores' caches are taken while their slabs are counted. The
 * caller holds the heap lock.
 */
void malloc_lcore_stats(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		struct rte_malloc_socket_stats *s);

/* If busy element @p e is a slab, describe it on @p f (a snapshot). */
void malloc_lcore_dump_elem(const struct rte_mem_config *mcfg,
		const struct malloc_elem *e, FILE *f);

#endif /* _MALLOC_LCORE_H_ */
