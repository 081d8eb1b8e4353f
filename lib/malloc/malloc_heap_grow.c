/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Growing a heap (malloc_heap_priv.h): the page sizes a request may use,
 * mapping pages for it next to the heap's memory, and the reason a
 * growth failed, kept per thread for the log line of the failure.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_eal_memconfig.h>
#include <rte_log.h>

#include "eal_memalloc.h"
#include "eal_memseg_list.h"
#include "malloc_asan.h"
#include "malloc_heap.h"
#include "malloc_heap_priv.h"
#include "malloc_trim.h"

/* Page sizes @p heap may grow with for @p req, smallest first. */
static unsigned int
heap_grow_sizes(const struct malloc_heap *heap, const struct malloc_req *req,
		uint64_t *sizes)
{
	uint64_t all[MALLOC_MAX_PAGE_SIZES];
	unsigned int n_all, i, j, n = 0;

	n_all = eal_memalloc_page_sizes(heap->socket_id, all, RTE_DIM(all));
	for (i = 0; i < n_all; i++) {
		if (!malloc_req_page_ok(req, all[i]))
			continue;
		for (j = n; j > 0 && sizes[j - 1] > all[i]; j--)
			sizes[j] = sizes[j - 1];
		sizes[j] = all[i];
		n++;
	}
	return n;
}

/*
 * The last growth failure of each thread: scratch for the log line of a
 * failed allocation, like rte_errno.
 */
static RTE_DEFINE_PER_LCORE(const char *, grow_failure);

const char *
malloc_heap_grow_failure(void)
{
	const char *why = RTE_PER_LCORE(grow_failure);

	/* Read once: a later failure must not find this one's reason. */
	RTE_PER_LCORE(grow_failure) = NULL;
	return why != NULL ? why : "";
}

static const char *
heap_grow_why(const struct malloc_heap *heap, unsigned int n_sizes, int ret)
{
	if (heap->external)
		return "an external heap does not grow";
	if (!eal_memalloc_can_grow())
		return "the heap does not grow in this memory mode (legacy "
		       "memory, --no-huge, or a limit reached at start)";
	if (n_sizes == 0)
		return "no page size of the heap's node fits the request";
	switch (ret) {
	case -EPERM:
		return "a memory validator refused to grow the heap "
		       "(--socket-limit, or rte_mem_alloc_validator_register())";
	case -E2BIG:
		return "it needs more pages than one memseg list holds";
	case -ENOSPC:
		return "the memseg lists have no free run of virtual address "
		       "slots big enough";
	case -ETIMEDOUT:
		return "another process of the file prefix did not map the "
		       "new pages in time (stopped or hung?)";
	case -ENOMEM:
		return "no hugepage could be mapped (the pool, a mount's size= "
		       "or a hugetlb cgroup limit; other processes may hold "
		       "the pages)";
	default:
		return "mapping pages failed";
	}
}

/* Map @p n pages of @p page_sz and add them. The hotplug lock is held. */
static int
heap_grow_pages(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		const struct malloc_req *req, struct rte_memseg **ms, int n,
		uint64_t page_sz, struct malloc_elem **added)
{
	const struct rte_memseg_list *msl;
	bool dirty = false;
	int i, ret;

	ret = eal_memalloc_alloc_seg_bulk(
			ms, n, page_sz, heap->socket_id, true);
	if (ret < 0)
		return ret;
	msl = rte_mem_virt2memseg_list(ms[0]->addr);
	if (req->contig &&
			malloc_heap_iova_break(mcfg, msl,
					(uintptr_t)ms[0]->addr,
					(size_t)n * page_sz) != 0) {
		eal_memalloc_free_seg_bulk(ms, n);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		dirty |= (ms[i]->flags & RTE_MEMSEG_FLAG_DIRTY) != 0;
	*added = malloc_heap_add_memory(mcfg, heap, eal_msl_index(mcfg, msl),
			ms[0]->addr, (size_t)n * page_sz, dirty);
	return 0;
}

struct malloc_elem *
malloc_heap_grow(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		const struct malloc_req *req)
{
	struct malloc_elem *added = NULL;
	size_t need = malloc_heap_need(req) + req->bound;
	uint64_t sizes[MALLOC_MAX_PAGE_SIZES];
	unsigned int n_sizes, i;
	struct rte_memseg **ms;
	int ret = -E2BIG; /* until a size is tried */
	uint64_t n;

	RTE_PER_LCORE(grow_failure) = NULL;
	if (heap->external || !eal_memalloc_can_grow()) {
		RTE_PER_LCORE(grow_failure) = heap_grow_why(heap, 0, 0);
		return NULL;
	}
	n_sizes = heap_grow_sizes(heap, req, sizes);
	for (i = 0; i < n_sizes && ret < 0; i++) {
		n = (need + sizes[i] - 1) / sizes[i];
		if (n > RTE_MAX_MEMSEG_PER_LIST)
			continue;
		ms = malloc(sizeof(*ms) * n);
		if (ms == NULL)
			return NULL;
		rte_mcfg_mem_write_lock();
		ret = heap_grow_pages(
				mcfg, heap, req, ms, (int)n, sizes[i], &added);
		rte_mcfg_mem_write_unlock();
		free(ms);
	}
	if (ret < 0)
		RTE_PER_LCORE(grow_failure) = heap_grow_why(heap, n_sizes, ret);
	return ret == 0 ? added : NULL;
}
