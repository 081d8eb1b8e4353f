/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * The heap invariant checker (malloc_check.h): one walk over every
 * element of a heap under its lock, counting what the counters say.
 */

#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_log.h>

#include "eal_memseg_list.h"
#include "malloc_asan.h"
#include "malloc_check.h"
#include "malloc_heap.h"
#include "malloc_lcore.h"
#include "malloc_state.h"

/* More elements than any list can hold: a list this long loops. */
#define CHECK_MAX (1u << 26)

struct check_ctx {
	struct rte_mem_config *mcfg;
	const struct malloc_heap *heap;
	bool check_zero;
	size_t total; /* bytes of all elements */
	size_t free_size; /* bytes of free elements */
	size_t queued_size; /* bytes of queued elements */
	unsigned int n_free, n_busy, n_queued;
	char *err;
	size_t err_len;
};

static int
check_fail(struct check_ctx *c, const struct malloc_elem *e, const char *what)
{
	snprintf(c->err, c->err_len, "heap %s: element %p: %s", c->heap->name,
			(const void *)e, what);
	return -1;
}

/* @return true if @p e is on the free list its size belongs to. */
static bool
check_listed(const struct malloc_heap *heap, const struct rte_memseg_list *msl,
		const struct malloc_elem *e)
{
	const struct malloc_bins *b = NULL;
	const struct malloc_elem *x;
	unsigned int i, n = 0;

	for (i = 0; i < heap->n_bins; i++)
		if (heap->bins[i].page_sz == msl->page_sz)
			b = &heap->bins[i];
	if (b == NULL)
		return false;
	/*
	 * The first non-empty class from e's on is e's, if e is listed. The
	 * walk is bounded: a process that died inside an operation may have
	 * left a list that loops.
	 */
	x = malloc_bins_next(b, e->size, NULL);
	while (x != NULL && x != e && x->free_next != NULL && ++n < CHECK_MAX)
		x = x->free_next;
	return x == e;
}

/*
 * Growth links new pages to the element the run-end array names, so that
 * must be the element ending there: @return true if it is.
 */
static bool
check_run_end(struct rte_mem_config *mcfg, const struct rte_memseg_list *msl,
		const struct malloc_elem *e)
{
	const struct malloc_state *st = malloc_state_of(mcfg);
	uintptr_t off = RTE_PTR_DIFF(malloc_elem_end(e), msl->base_va);
	struct malloc_elem *const *ends;

	if ((off & (msl->page_sz - 1)) != 0)
		return true;
	ends = eal_mcfg_at(mcfg, st->run_end_off[e->t.msl_idx]);
	return ends[off / msl->page_sz - 1] == e;
}

/*
 * A chain of elements covers its run of mapped pages whole: @return true
 * if @p e, the last of its chain, ends where the mapped pages do. A
 * growth cut short by a dying process leaves mapped pages that no
 * element covers, which the next growth next to them would link to.
 */
static bool
check_run_ends(struct rte_mem_config *mcfg, const struct rte_memseg_list *msl,
		const struct malloc_elem *e)
{
	const void *end = malloc_elem_end(e);
	uintptr_t off = RTE_PTR_DIFF(end, msl->base_va);
	unsigned int idx;

	if ((off & (msl->page_sz - 1)) != 0)
		return false;
	idx = eal_msl_addr_idx(msl, end);
	return idx >= msl->n_segs || !eal_msl_is_used(mcfg, msl, idx);
}

static bool __rte_no_asan
check_is_zero(const struct malloc_elem *e)
{
	const uint8_t *p = RTE_PTR_ADD(e, MALLOC_ELEM_HEADER_LEN);
	size_t i, n = e->size - MALLOC_ELEM_HEADER_LEN;

	for (i = 0; i < n; i++)
		if (p[i] != 0)
			return false;
	return true;
}

static int
check_elem(const struct rte_memseg_list *msl, const struct malloc_elem *e,
		bool run_start, void *arg)
{
	struct check_ctx *c = arg;
	/* Read once: an lcore cache's owner changes it without the lock. */
	uint8_t state = __atomic_load_n(&e->t.state, __ATOMIC_RELAXED);

	if (run_start && e->prev != NULL)
		return check_fail(c, e, "run start with a neighbour below");
	if (e->next == NULL && !check_run_ends(c->mcfg, msl, e))
		return check_fail(c, e,
				"ends its chain before the mapped pages end "
				"(pages no element covers)");
	if (e->next != NULL &&
			(e->next != malloc_elem_end(e) || e->next->prev != e))
		return check_fail(c, e, "broken neighbour links");
	if (e->size < MALLOC_ELEM_MIN_LEN || (e->size & 63) != 0)
		return check_fail(c, e, "bad size");
	if (!check_run_end(c->mcfg, msl, e))
		return check_fail(c, e,
				"ends a page but not in the run-end array");
	c->total += e->size;
	if (state == ELEM_BUSY || state == ELEM_CACHED ||
			state == ELEM_MEMZONE) {
		/* A cached element counts as allocated until drained. */
		c->n_busy++;
		return 0;
	}
	if (state == ELEM_QUEUED) {
		/* Counted as allocated until drained. */
		c->n_busy++;
		c->n_queued++;
		c->queued_size += e->size;
		return 0;
	}
	if (state != ELEM_FREE)
		return check_fail(c, e, "bad state");
	if ((e->t.flags & ELEM_FLAG_SPARE) != 0)
		return check_fail(c, e, "free but marked spare");
	c->n_free++;
	c->free_size += e->size;
	if (e->next != NULL && e->next->t.state == ELEM_FREE &&
			e->next->orig_elem == e->orig_elem)
		return check_fail(c, e, "two free neighbours not joined");
	if (!check_listed(c->heap, msl, e))
		return check_fail(c, e, "free but not on its free list");
	if (c->check_zero && !malloc_elem_is_dirty(e) && !check_is_zero(e))
		return check_fail(c, e, "marked clean but not zero");
	return 0;
}

/*
 * Every queued element is on the queue of its size, and the walk found
 * each of them: @return 0, or -1 with the error in @p c.
 */
static int
check_queues(struct check_ctx *c)
{
	const struct malloc_heap *heap = c->heap;
	const struct malloc_elem *e, *p;
	unsigned int q, n = 0;

	for (q = 0; q < MALLOC_QUEUE_CLASSES; q++)
		for (p = NULL, e = heap->queue[q]; e != NULL;
				p = e, e = e->free_next, n++) {
			if (e->t.state != ELEM_QUEUED)
				return check_fail(
						c, e, "on a queue, not queued");
			if (malloc_queue_class(e->size) != (int)q)
				return check_fail(c, e, "on the wrong queue");
			if (e->free_prev != p)
				return check_fail(c, e, "bad queue back link");
			if (n > c->n_queued)
				break;
		}
	if (n != c->n_queued || n != heap->queued_count ||
			c->queued_size != heap->queued_size) {
		snprintf(c->err, c->err_len,
				"heap %s: queues hold %u elements, the walk found %u queued (%zu bytes), the counters say %u (%zu)",
				heap->name, n, c->n_queued, c->queued_size,
				heap->queued_count, heap->queued_size);
		return -1;
	}
	return 0;
}

static int
check_heap(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		bool check_zero, char *err, size_t err_len)
{
	struct check_ctx c = {
		.mcfg = mcfg,
		.heap = heap,
		.check_zero = check_zero,
		.err = err,
		.err_len = err_len,
	};
	int ret;

	ret = malloc_heap_walk_locked(mcfg, heap, check_elem, &c);
	if (ret == 0 &&
			(c.total != heap->total_size ||
					c.free_size != heap->free_size ||
					c.n_free != heap->free_count ||
					c.n_busy != heap->alloc_count)) {
		snprintf(err, err_len,
				"heap %s: counters (total %zu, free %zu in %u, %u busy) differ from elements (%zu, %zu in %u, %u)",
				heap->name, heap->total_size, heap->free_size,
				heap->free_count, heap->alloc_count, c.total,
				c.free_size, c.n_free, c.n_busy);
		ret = -1;
	}
	if (ret == 0)
		ret = check_queues(&c);
	return ret;
}

void
malloc_heap_recover(struct malloc_heap *heap)
{
	struct rte_mem_config *mcfg = eal_mcfg_get();
	struct malloc_lcore_drain d = { 0 };
	char err[256];
	int ret;

	RTE_LOG(WARNING, MALLOC,
			"a process died holding the lock of heap %s: rebuilding "
			"the heap from its elements\n",
			heap->name);
	/*
	 * Whatever the dead process was doing (a split, a join, a drain of
	 * the lcore caches), the elements themselves say what is free: the
	 * caches' stacks, which a drain may have left half done, are
	 * emptied, and lists, queues and counters rebuilt from the elements.
	 */
	malloc_lcore_forget(mcfg, heap, &d);
	ret = malloc_heap_rebuild(mcfg, heap);
	if (ret == 0)
		ret = check_heap(mcfg, heap, false, err, sizeof(err));
	else
		snprintf(err, sizeof(err), "its elements do not link up");
	malloc_lcore_drain_end(mcfg, heap, &d);
	if (ret == 0) {
		RTE_LOG(WARNING, MALLOC, "heap %s is sound\n", heap->name);
		return;
	}
	heap->broken = 1;
	RTE_LOG(ERR, MALLOC,
			"heap %s is damaged (%s): it hands nothing out any "
			"more; restart the processes of this file prefix\n",
			heap->name, err);
}

int
malloc_heap_check_all(bool check_zero, char *err, size_t err_len)
{
	struct rte_mem_config *mcfg = malloc_mcfg_get();
	unsigned int i;
	int ret;

	if (mcfg == NULL) {
		snprintf(err, err_len, "no heaps: EAL not initialized");
		return -1;
	}
	for (i = 0; i < RTE_MAX_HEAPS; i++) {
		struct malloc_heap *heap = &malloc_state_of(mcfg)->heaps[i];

		if (!heap->in_use)
			continue;
		malloc_heap_lock(heap);
		ret = check_heap(mcfg, heap, check_zero, err, err_len);
		malloc_heap_unlock(heap);
		if (ret < 0)
			return -1;
	}
	return 0;
}
