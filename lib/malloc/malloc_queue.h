/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _MALLOC_QUEUE_H_
#define _MALLOC_QUEUE_H_

/*
 * Small frees that wait to be joined. Joining a freed element with its
 * neighbours, moving it between free lists and clearing it cost several
 * times what taking the element again costs, and a program that frees
 * blocks mostly allocates the same sizes again soon. So a free of up to
 * MALLOC_QUEUE_MAX_DATA bytes only puts the element on its heap's queue
 * for its size class, and an allocation of that class takes it back from
 * there; both under the heap lock, in constant time.
 *
 * A queued element is in state ELEM_QUEUED: not an allocation (freeing
 * or validating it again fails), not free (nothing joins it). The heap's
 * counters still count it as allocated; malloc_queue_drain() frees
 * every queued element, joining each run of freed neighbours at once
 * (a run of queued blocks costs one join, not one per block). It runs
 * before anything that reports on the heap or needs its free memory
 * joined: statistics, dumps, the largest free block, an allocation or
 * in-place growth that found no room. At most MALLOC_QUEUE_MAX_BYTES wait
 * per heap.
 *
 * A queued element must not keep memory from going back to the kernel:
 * a free next to free memory is never queued, and a free whose memory
 * ends up next to a queued element drains the queue if the pages there
 * could go back (not pinned by -m, not legacy). So the only memory kept
 * is pages covered by queued elements alone: at most the queue's bytes.
 *
 * Memory handed out from the queue held the previous user's bytes:
 * rte_zmalloc() clears it, and nothing else does until it is drained.
 * External heaps do not queue: their memory may be removed at any time.
 */

#include <stdbool.h>
#include <stddef.h>

#include "malloc_elem.h"

struct malloc_heap;
struct malloc_req;
struct rte_mem_config;

/* Largest data area (rounded to cache lines) whose free is queued. */
#define MALLOC_QUEUE_SMALL_DATA 1024
/*
 * Above MALLOC_QUEUE_SMALL_DATA, up to MALLOC_QUEUE_MAX_DATA, a class
 * holds a range of sizes: MALLOC_QUEUE_STEPS classes per doubling, as
 * jemalloc's size classes, so that 1 MiB needs 40 more classes rather
 * than 16000. An element goes to the largest class not above its data
 * size; an allocation takes from the smallest class not below its own.
 */
#define MALLOC_QUEUE_MAX_DATA ((size_t)1 << 20)
#define MALLOC_QUEUE_STEPS 4
/* Queues per heap and stacks per lcore cache. */
#define MALLOC_QUEUE_CLASSES \
	(MALLOC_QUEUE_SMALL_DATA / RTE_CACHE_LINE_SIZE + \
			MALLOC_QUEUE_STEPS * 10)
/* Bytes of queued elements per heap at most. */
#define MALLOC_QUEUE_MAX_BYTES ((size_t)2 << 20)

/* The class of @p data bytes above MALLOC_QUEUE_SMALL_DATA, rounded down. */
static inline int
malloc_queue_class_big(size_t data)
{
	unsigned int b = 63 - (unsigned int)__builtin_clzll(data);
	unsigned int i = (unsigned int)((data - ((size_t)1 << b)) >> (b - 2));

	return (int)(MALLOC_QUEUE_SMALL_DATA / RTE_CACHE_LINE_SIZE - 1 +
			(b - 10) * MALLOC_QUEUE_STEPS + i);
}

/*
 * The queue of freed elements of @p size bytes (header included), or -1
 * if they are not queued: data sizes up to MALLOC_QUEUE_SMALL_DATA have a
 * class each, larger ones share one with sizes close above.
 */
static inline int
malloc_queue_class(size_t size)
{
	size_t data = size - MALLOC_ELEM_OVERHEAD;

	if (size <= MALLOC_ELEM_OVERHEAD || data > MALLOC_QUEUE_MAX_DATA ||
			(data & RTE_CACHE_LINE_MASK) != 0)
		return -1;
	if (data > MALLOC_QUEUE_SMALL_DATA)
		return malloc_queue_class_big(data);
	return (int)(data / RTE_CACHE_LINE_SIZE) - 1;
}

/* The data size of class @p k: the least any element in it has. */
static inline size_t
malloc_queue_class_data(int k)
{
	unsigned int j, b;

	if (k < MALLOC_QUEUE_SMALL_DATA / RTE_CACHE_LINE_SIZE)
		return (size_t)(k + 1) * RTE_CACHE_LINE_SIZE;
	j = (unsigned int)k - MALLOC_QUEUE_SMALL_DATA / RTE_CACHE_LINE_SIZE + 1;
	b = 10 + j / MALLOC_QUEUE_STEPS;
	return ((size_t)1 << b) +
			(j % MALLOC_QUEUE_STEPS) * ((size_t)1 << (b - 2));
}

/*
 * The class an allocation of @p data bytes (a multiple of a cache line)
 * takes from: every element there has at least that much. -1 if none.
 */
static inline int
malloc_queue_class_for(size_t data)
{
	int k;

	if (data == 0 || data > MALLOC_QUEUE_MAX_DATA)
		return -1;
	if (data <= MALLOC_QUEUE_SMALL_DATA)
		return (int)(data / RTE_CACHE_LINE_SIZE) - 1;
	k = malloc_queue_class_big(data);
	return malloc_queue_class_data(k) < data ? k + 1 : k;
}

/*
 * Queue busy element @p e of @p heap instead of freeing it, if it is of a
 * queued size and there is room. The caller holds the heap lock.
 *
 * @return true if queued, false if the caller must free it.
 */
bool malloc_queue_push(struct malloc_heap *heap, struct malloc_elem *e);

/*
 * Take a queued element that serves @p req exactly, as a busy element.
 * The caller holds the heap lock. *@p dirty tells whether its data may
 * hold non-zero bytes (those of its previous allocation).
 *
 * @return the element, or NULL.
 */
struct malloc_elem *malloc_queue_pop(struct malloc_heap *heap,
		const struct malloc_req *req, bool *dirty);

/*
 * @return true if @p heap has queued or cached elements, which a drain
 * would free.
 */
bool malloc_queue_pending(const struct rte_mem_config *mcfg,
		const struct malloc_heap *heap);

/*
 * Free every queued element of @p heap, and every element of it in an
 * lcore cache: join, clear, give pages back as rte_free() would have.
 * The caller holds the heap lock.
 */
void malloc_queue_drain(struct rte_mem_config *mcfg, struct malloc_heap *heap);

#endif /* _MALLOC_QUEUE_H_ */
