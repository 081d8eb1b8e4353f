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
 * any for --malloc-decay milliseconds: a thread per process (named
 * "rte_malloc_trim") sleeps on a futex word in the shared state and
 * wakes when a heap starts keeping pages, then when the oldest is due.
 * rte_malloc_heap_trim() gives them back at once.
 */

#include <stdbool.h>
#include <stddef.h>

#include "eal_memcfg.h"

struct malloc_heap;

/*
 * Whether @p heap keeps pages that a free leaves whole at the moment:
 * read without the lock, to decide whether freed memory must join the
 * heap at once (or may wait in a queue, a cache or an empty slab)
 * because its page could go back.
 */
bool malloc_trim_would_keep(const struct rte_mem_config *mcfg,
		const struct malloc_heap *heap);

/*
 * Whether the free that leaves @p bytes of whole pages free in @p heap
 * keeps them mapped rather than giving them back. If so, the heap is
 * marked as keeping pages from now. The caller holds the heap lock.
 */
bool malloc_trim_keep(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		size_t bytes);

/*
 * Start this process's trim thread, if pages may be kept at all.
 *
 * @return 0, or a negative errno with one line in @p err.
 */
int malloc_trim_start(struct rte_mem_config *mcfg, char *err, size_t err_len);

/* Stop the trim thread, if it runs. Kept pages stay as they are. */
void malloc_trim_stop(void);

#endif /* _MALLOC_TRIM_H_ */
