/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Rebuilding a heap whose lock holder died (malloc_heap.h): its elements
 * are walked page run by page run, chains that do not hold are cut, and
 * the free lists and counters are made again from what is left.
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
#include "malloc_state.h"
#include "malloc_trim.h"

#define HEAP_REBUILD_ORPHANS 64 /* page runs with no element, at most */

struct heap_rebuild {
	struct rte_mem_config *mcfg;
	struct malloc_heap *heap;
	unsigned int heap_idx;
	int ret;
	unsigned int n_orphans;
	struct {
		unsigned int msl_idx;
		void *va;
		size_t len;
	} orphans[HEAP_REBUILD_ORPHANS];
};

/* Whether @p e's links agree with its size and its neighbour's. */
static bool
heap_rebuild_linked(const struct malloc_elem *e)
{
	if (e->size < MALLOC_ELEM_MIN_LEN || (e->size & 63) != 0)
		return false;
	return e->next == NULL ||
			(e->next == malloc_elem_end(e) && e->next->prev == e);
}

static bool
heap_rebuild_joinable(const struct rte_mem_config *mcfg,
		const struct malloc_elem *e, const struct malloc_elem *n)
{
	return n != NULL &&
			(n->t.state == ELEM_FREE || n->t.state == ELEM_QUEUED ||
					n->t.state == ELEM_CACHED) &&
			(!mcfg->match_allocations ||
					n->orig_elem == e->orig_elem) &&
			heap_rebuild_linked(n);
}

/*
 * Whether a chain of this heap's elements starts at page @p e of list
 * @p l, inside a run ending at @p end: growth links each run of pages to
 * the chain of the pages next to it, so a chain starts only at a run's
 * start or after pages that a dying process mapped and never added.
 */
static bool
heap_rebuild_chain_at(const struct heap_rebuild *r, unsigned int l,
		const struct malloc_elem *e, uintptr_t end)
{
	uint8_t state = e->t.state;

	return e->prev == NULL && e->t.msl_idx == l &&
			e->t.heap_idx == r->heap_idx &&
			(uintptr_t)e + e->size <= end &&
			(state == ELEM_FREE || state == ELEM_QUEUED ||
					state == ELEM_BUSY ||
					state == ELEM_CACHED ||
					state == ELEM_MEMZONE) &&
			heap_rebuild_linked(e);
}

/* File element @p e again: free (joined with free neighbours) or not. */
static int
heap_rebuild_elem(struct heap_rebuild *r, struct malloc_elem *e)
{
	uint8_t state = e->t.state;

	if (!heap_rebuild_linked(e))
		return -1;
	if (state == ELEM_QUEUED || state == ELEM_FREE ||
			state == ELEM_CACHED) {
		/*
		 * Queued: freed, not joined yet; cached: freed into a cache
		 * whose stacks were emptied (malloc_lcore_forget()). Join
		 * it now.
		 */
		e->t.state = ELEM_FREE;
		e->t.flags &= ~ELEM_FLAG_SPARE;
		while (heap_rebuild_joinable(r->mcfg, e, e->next))
			malloc_elem_join_next(e);
		malloc_asan_poison(RTE_PTR_ADD(e, MALLOC_ELEM_HEADER_LEN),
				e->size - MALLOC_ELEM_HEADER_LEN);
		malloc_heap_insert_free(r->mcfg, r->heap, e);
		r->heap->free_size += e->size;
	} else if (state == ELEM_BUSY || state == ELEM_MEMZONE) {
		r->heap->alloc_count++;
	} else {
		return -1;
	}
	r->heap->total_size += e->size;
	malloc_heap_note_end(r->mcfg, e);
	return 0;
}

/*
 * Walk one run of mapped pages: its chains of elements, and the pages
 * between them that no element covers (a growth cut short), which are
 * noted for adding back.
 */
static int
heap_rebuild_run(const struct rte_memseg_list *msl, const struct rte_memseg *ms,
		size_t len, void *arg)
{
	struct heap_rebuild *r = arg;
	unsigned int l = eal_msl_index(r->mcfg, msl);
	uintptr_t a = (uintptr_t)ms->addr, end = a + len, o;
	struct malloc_elem *e;

	/* A node's lists feed its heap (the first element may be gone). */
	if (msl->external || !msl->heap ||
			malloc_heap_of_socket(malloc_state_of(r->mcfg),
					msl->socket_id) != r->heap)
		return 0;
	/*
	 * The walk reads page starts and headers wherever the dead holder
	 * left them, inside free memory this process poisoned too: free
	 * elements are poisoned again as they are filed.
	 */
	malloc_asan_unpoison((void *)a, len);
	while (a < end) {
		for (o = a; a < end &&
				!heap_rebuild_chain_at(r, l, (void *)a, end);
				a += msl->page_sz)
			;
		if (a > o) {
			if (r->n_orphans == HEAP_REBUILD_ORPHANS)
				return r->ret = -1;
			r->orphans[r->n_orphans].msl_idx = l;
			r->orphans[r->n_orphans].va = (void *)o;
			r->orphans[r->n_orphans++].len = a - o;
		}
		for (e = (void *)a; a < end && e != NULL; e = e->next) {
			if (heap_rebuild_elem(r, e) < 0)
				return r->ret = -1;
			a = (uintptr_t)malloc_elem_end(e);
		}
	}
	return 0;
}

int
malloc_heap_rebuild(struct rte_mem_config *mcfg, struct malloc_heap *heap)
{
	struct heap_rebuild *r = calloc(1, sizeof(*r));
	unsigned int i;
	int ret;

	if (r == NULL)
		return -1;
	r->mcfg = mcfg;
	r->heap = heap;
	r->heap_idx = malloc_heap_idx(malloc_state_of(mcfg), heap);
	for (i = 0; i < heap->n_bins; i++) {
		struct malloc_bins *b = &heap->bins[i];

		b->fl_map = 0;
		memset(b->sl_map, 0, sizeof(b->sl_map));
		memset(b->head, 0, sizeof(b->head));
	}
	memset(heap->queue, 0, sizeof(heap->queue));
	heap->queued_size = 0;
	heap->queued_count = 0;
	heap->total_size = 0;
	heap->free_size = 0;
	heap->free_low = 0; /* nothing known to have stayed free */
	heap->free_count = 0;
	heap->alloc_count = 0;
	eal_memseg_contig_walk(heap_rebuild_run, r);
	/* Pages mapped for a growth that never reached the heap. */
	for (i = 0; r->ret == 0 && i < r->n_orphans; i++)
		malloc_heap_add_memory(mcfg, heap, r->orphans[i].msl_idx,
				r->orphans[i].va, r->orphans[i].len, true);
	if (r->n_orphans > 0)
		RTE_LOG(WARNING, MALLOC,
				"heap %s: %u runs of pages no element covered "
				"are free memory again\n",
				heap->name, r->n_orphans);
	ret = r->ret;
	free(r);
	return ret;
}
