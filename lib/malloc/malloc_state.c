/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Setting lib/malloc up inside rte_eal_init(): carve the state out of the
 * memory config, create a heap per node that has memseg lists, and add
 * the pages mapped at init (-m, --legacy-mem) as free elements, clean or
 * dirty as their memsegs say.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_eal_memconfig.h>

#include "eal_memseg_list.h"
#include "eal_subsys.h"
#include "malloc_asan.h"
#include "malloc_heap.h"
#include "malloc_image_lazy.h"
#include "malloc_image_restore.h"
#include "malloc_keep.h"
#include "malloc_state.h"
#include "malloc_trim.h"

static struct malloc_heap *
state_node_heap(struct malloc_state *st, int socket)
{
	struct malloc_heap *heap;
	unsigned int i;

	if (st->node_heap[socket] >= 0)
		return &st->heaps[st->node_heap[socket]];
	for (i = 0; i < RTE_MAX_HEAPS && st->heaps[i].in_use; i++)
		;
	if (i == RTE_MAX_HEAPS)
		return NULL;
	heap = &st->heaps[i];
	heap->in_use = 1;
	malloc_state_heap_used(st, i);
	heap->socket_id = socket;
	snprintf(heap->name, sizeof(heap->name), "socket_%d", socket);
	st->node_heap[socket] = (int8_t)i;
	return heap;
}

/* Add a run of pages mapped at init to its node's heap. */
static int
state_add_run(const struct rte_memseg_list *msl, const struct rte_memseg *ms,
		size_t len, void *arg)
{
	struct rte_mem_config *mcfg = arg;
	size_t n = len / msl->page_sz, i, pinned = 0;
	struct malloc_heap *heap;
	bool dirty = false;

	if (msl->external || !msl->heap)
		return 0;
	/* A run's memsegs are consecutive slots. */
	for (i = 0; i < n; i++) {
		dirty |= (ms[i].flags & RTE_MEMSEG_FLAG_DIRTY) != 0;
		pinned += (ms[i].flags & RTE_MEMSEG_FLAG_DO_NOT_FREE) != 0;
	}
	heap = state_node_heap(malloc_state_of(mcfg), msl->socket_id);
	heap->pinned_size += pinned * msl->page_sz;
	malloc_heap_add_memory(mcfg, heap, eal_msl_index(mcfg, msl), ms->addr,
			len, dirty);
	return 0;
}

static int
state_add_lists(struct rte_mem_config *mcfg, char *err, size_t err_len)
{
	struct malloc_state *st = malloc_state_of(mcfg);
	struct malloc_heap *heap;
	unsigned int l;

	for (l = 0; l < mcfg->n_lists; l++) {
		const struct rte_memseg_list *msl = &mcfg->memsegs[l];

		if (msl->external || !msl->heap)
			continue;
		heap = state_node_heap(st, msl->socket_id);
		if (heap == NULL ||
				malloc_heap_bins(heap, msl->page_sz) == NULL) {
			snprintf(err, err_len, "too many heaps or page sizes");
			return -ENOSPC;
		}
		if (malloc_heap_track_list(mcfg, l) < 0) {
			snprintf(err, err_len,
					"memory config too small for the heaps");
			return -ENOSPC;
		}
	}
	eal_memseg_contig_walk(state_add_run, mcfg);
	return 0;
}

/* A secondary process uses the primary's state as it is. */
static int
malloc_state_attach(struct rte_mem_config *mcfg, char *err, size_t err_len)
{
	int ret;

	if (mcfg->malloc_off == 0) {
		snprintf(err, err_len,
				"the primary process of this file prefix has no "
				"heap set up");
		return -ENOENT;
	}
	ret = malloc_cache_attach(mcfg, err, err_len);
	return ret < 0 ? ret : malloc_trim_start(mcfg, err, err_len);
}

static int
malloc_state_init(struct rte_mem_config *mcfg, char *err, size_t err_len)
{
	struct malloc_image_plan *image = NULL;
	struct malloc_keep_plan *plan = NULL;
	struct malloc_state *st;
	unsigned int i;
	uint64_t off;
	int ret;

	if (rte_eal_process_type() == RTE_PROC_SECONDARY)
		return malloc_state_attach(mcfg, err, err_len);
	/* The area aligns to a cache line; the caches ask for more. */
	if (eal_mcfg_area_alloc(mcfg,
			    sizeof(*st) + _Alignof(struct malloc_state),
			    &off) < 0) {
		snprintf(err, err_len, "memory config too small for the heaps");
		return -ENOSPC;
	}
	mcfg->malloc_off = RTE_ALIGN_CEIL(off, _Alignof(struct malloc_state));
	st = malloc_state_of(mcfg);
	for (i = 0; i < RTE_DIM(st->node_heap); i++)
		st->node_heap[i] = -1;
	/*
	 * The area comes zeroed, every heap's lock free: writing the locks
	 * again faulted in a page of the config per heap, 32 of them (on a
	 * disk file system, major faults of about 8 us each).
	 */
	st->next_external_socket = MALLOC_EXTERNAL_SOCKET_BASE;
	malloc_mz_table_init(&st->memzones);
	/*
	 * Before a lazy image's threads start: registering for the thread
	 * fence waits for an RCU grace period once the process has threads.
	 */
	malloc_cache_init(mcfg);
	rte_mcfg_mem_write_lock();
	/*
	 * Kept memzones' pages first, else an image's: the heaps then take
	 * them as free.
	 */
	ret = malloc_keep_map(mcfg, &plan, err, err_len);
	if (ret == 0)
		ret = malloc_image_map(
				mcfg, plan != NULL, &image, err, err_len);
	if (ret == 0)
		ret = state_add_lists(mcfg, err, err_len);
	if (ret == 0) {
		ret = malloc_keep_restore(mcfg, plan, err, err_len);
		plan = NULL;
	}
	if (ret == 0) {
		ret = malloc_image_restore(mcfg, image, err, err_len);
		image = NULL;
	}
	free(plan);
	malloc_image_plan_free(image);
	rte_mcfg_mem_write_unlock();
	if (ret == 0)
		ret = malloc_trim_start(mcfg, err, err_len);
	if (ret < 0) {
		malloc_image_lazy_stop();
		mcfg->malloc_off = 0;
	}
	return ret;
}

/*
 * Lift the heap's ASan poison from every mapped page, before they are
 * unmapped: addresses reused later (another mapping, a new EAL) must not
 * look poisoned.
 */
static int
state_unpoison_run(const struct rte_memseg_list *msl,
		const struct rte_memseg *ms, size_t len, void *arg)
{
	RTE_SET_USED(arg);
	if (msl->heap)
		malloc_asan_unpoison(ms->addr, len);
	return 0;
}

static void
malloc_state_cleanup(struct rte_mem_config *mcfg)
{
	malloc_trim_stop();
	malloc_image_lazy_stop();
	if (malloc_asan_enabled())
		eal_memseg_contig_walk(state_unpoison_run, NULL);
	/* The state dies with the config; only stop using it. */
	if (rte_eal_process_type() == RTE_PROC_PRIMARY)
		mcfg->malloc_off = 0;
}

const struct eal_subsys malloc_subsys = {
	.name = "malloc",
	.init = malloc_state_init,
	.cleanup = malloc_state_cleanup,
};
