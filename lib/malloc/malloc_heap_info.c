/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Looking into heaps without changing them: finding the heap of a socket
 * or of a pointer, checking that a pointer is an allocation, statistics,
 * dumps and IOVAs.
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>

#include "eal_memseg_list.h"
#include "eal_subsys.h"
#include "malloc_heap.h"
#include "malloc_lcore.h"
#include "malloc_state.h"

/*
 * The heap registers with lib/eal here, next to malloc_heap_of_socket(),
 * which every file of lib/malloc's API calls: a program linked with the
 * static library then always gets this file, and through malloc_subsys
 * the set-up code. In a file nothing references, the constructor would
 * be left out of a static link, and rte_malloc() would find no heap.
 */
RTE_INIT(malloc_register)
{
	eal_subsys_register(&malloc_subsys);
}

struct malloc_heap *
malloc_heap_of_socket(struct malloc_state *st, int socket)
{
	unsigned int i;

	if (socket >= 0 && socket < RTE_MAX_NUMA_NODES)
		return st->node_heap[socket] < 0 ?
				NULL :
				&st->heaps[st->node_heap[socket]];
	if (socket < MALLOC_EXTERNAL_SOCKET_BASE)
		return NULL;
	for (i = 0; i < RTE_MAX_HEAPS; i++)
		if (st->heaps[i].in_use && st->heaps[i].external &&
				st->heaps[i].socket_id == socket)
			return &st->heaps[i];
	return NULL;
}

int
malloc_heap_track_list(struct rte_mem_config *mcfg, unsigned int l)
{
	struct malloc_state *st = malloc_state_of(mcfg);
	uint32_t n = mcfg->memsegs[l].n_segs;
	uint64_t off;

	if (!mcfg->memsegs[l].external && malloc_lcore_track_list(mcfg, l) < 0)
		return -ENOSPC;
	if (st->run_end_len[l] >= n)
		return 0;
	if (eal_mcfg_area_alloc(mcfg, sizeof(struct malloc_elem *) * n, &off) <
			0)
		return -ENOSPC;
	st->run_end_off[l] = off;
	st->run_end_len[l] = n;
	return 0;
}

/* The heap list holding the mapped byte at @p addr, or NULL. */
static const struct rte_memseg_list *
heap_list_of(const struct rte_mem_config *mcfg, const void *addr)
{
	unsigned int l;

	for (l = 0; l < mcfg->n_lists; l++) {
		const struct rte_memseg_list *msl = &mcfg->memsegs[l];

		if (msl->heap && eal_msl_contains(msl, addr))
			return eal_msl_is_used(mcfg, msl,
					       eal_msl_addr_idx(msl, addr)) ?
					msl :
					NULL;
	}
	return NULL;
}

/* @return true if @p p is a mapped address of list @p msl. */
static bool
heap_in_list(const struct rte_mem_config *mcfg,
		const struct rte_memseg_list *msl, const void *p)
{
	return eal_msl_contains(msl, p) &&
			eal_msl_is_used(mcfg, msl, eal_msl_addr_idx(msl, p));
}

/*
 * Is @p e, in list @p msl, an element in @p state (busy, or a memzone's)
 * whose data is @p data? The page
 * before @p data is known to be mapped. Not instrumented, like
 * malloc_heap_elem_of(): a pointer freed twice may now lie inside a free
 * element, which ASan sees poisoned, and refusing it is this check's job.
 */
static bool __rte_no_asan
heap_elem_valid(const struct rte_mem_config *mcfg,
		const struct rte_memseg_list *msl, const struct malloc_elem *e,
		const void *data, uint8_t state)
{
	const struct malloc_state *st = malloc_state_of(mcfg);
	const void *before = RTE_PTR_SUB(data, 1);

	if ((eal_msl_addr_idx(msl, e) != eal_msl_addr_idx(msl, before) &&
			    !heap_in_list(mcfg, msl, e)) ||
			e->t.state != state ||
			e->t.msl_idx != eal_msl_index(mcfg, msl) ||
			e->t.heap_idx >= RTE_MAX_HEAPS ||
			!st->heaps[e->t.heap_idx].in_use ||
			malloc_elem_data(e) != data)
		return false;
	return malloc_elem_whole(e, (uintptr_t)msl->base_va, msl->len);
}

static struct malloc_elem *__rte_no_asan
heap_elem_in_state(struct rte_mem_config *mcfg, const void *data,
		struct malloc_heap **heap, uint8_t state)
{
	const struct malloc_elem_tail *t = RTE_PTR_SUB(data, sizeof(*t));
	const struct rte_memseg_list *msl;
	struct malloc_elem *e;

	if (data == NULL || ((uintptr_t)data & RTE_CACHE_LINE_MASK) != 0)
		return NULL;
	msl = heap_list_of(mcfg, t);
	if (msl == NULL || !eal_msl_contains(msl, data))
		return NULL;
	if (t->state == ELEM_PAD &&
			t->pad > RTE_PTR_DIFF(data, msl->base_va) -
							MALLOC_ELEM_HEADER_LEN)
		return NULL;
	e = malloc_elem_from_data(data);
	if (!heap_elem_valid(mcfg, msl, e, data, state))
		return NULL;
	*heap = &malloc_state_of(mcfg)->heaps[e->t.heap_idx];
	return e;
}

struct malloc_elem *
malloc_heap_elem_of(struct rte_mem_config *mcfg, const void *data,
		struct malloc_heap **heap)
{
	return heap_elem_in_state(mcfg, data, heap, ELEM_BUSY);
}

struct malloc_elem *
malloc_heap_memzone_elem_of(struct rte_mem_config *mcfg, const void *data,
		struct malloc_heap **heap)
{
	return heap_elem_in_state(mcfg, data, heap, ELEM_MEMZONE);
}

bool
malloc_heap_elem_linked(
		struct rte_mem_config *mcfg, const struct malloc_elem *e)
{
	const struct rte_memseg_list *msl = &mcfg->memsegs[e->t.msl_idx];
	const struct malloc_elem *p = e->prev;

	if (e->t.state != ELEM_BUSY)
		return false;
	if (e->next != NULL && (void *)e->next != malloc_elem_end(e))
		return false;
	/*
	 * A busy element's neighbours are heap elements, mapped: its header
	 * was checked before the lock, and only a racing free could have
	 * changed it. A bound check on prev is enough to read it safely.
	 */
	return p == NULL ||
			((uintptr_t)p >= (uintptr_t)msl->base_va &&
					(uintptr_t)p < (uintptr_t)e &&
					malloc_elem_end(p) == (void *)e);
}

struct malloc_elem *
malloc_heap_largest(struct malloc_heap *heap, const struct malloc_req *req)
{
	struct malloc_elem *best = NULL, *e;
	unsigned int i;

	for (i = 0; i < heap->n_bins; i++) {
		if (req != NULL &&
				!malloc_req_page_ok(req, heap->bins[i].page_sz))
			continue;
		e = malloc_bins_largest(&heap->bins[i]);
		if (e != NULL && (best == NULL || e->size > best->size))
			best = e;
	}
	return best;
}

void
malloc_heap_get_stats(
		struct malloc_heap *heap, struct rte_malloc_socket_stats *s)
{
	struct malloc_elem *e;

	malloc_heap_lock(heap);
	/* The figures are those of a heap where every free is done. */
	malloc_queue_drain(eal_mcfg_get(), heap);
	e = malloc_heap_largest(heap, NULL);
	s->heap_totalsz_bytes = heap->total_size;
	s->heap_freesz_bytes = heap->free_size;
	s->greatest_free_size = e == NULL ? 0 : e->size;
	s->free_count = heap->free_count;
	s->alloc_count = heap->alloc_count;
	/* Its own count, and what the lcores' caches counted for it. */
	s->heap_cleared_on_zmalloc_bytes = __atomic_load_n(
			&heap->cleared_on_zmalloc, __ATOMIC_RELAXED);
	malloc_lcore_stats(eal_mcfg_get(), heap, s);
	s->heap_allocsz_bytes = heap->total_size - s->heap_freesz_bytes;
	s->heap_cleared_on_free_bytes = heap->cleared_on_free;
	malloc_heap_unlock(heap);
}

static const char *
heap_state_name(uint8_t state)
{
	switch (state) {
	case ELEM_FREE:
		return "FREE";
	case ELEM_BUSY:
		return "BUSY";
	case ELEM_QUEUED:
		return "QUEUED";
	case ELEM_CACHED:
		return "CACHED";
	case ELEM_MEMZONE:
		return "MEMZONE";
	default:
		return "?";
	}
}

struct heap_walk {
	unsigned int heap_idx; /* the heap walked */
	malloc_heap_walk_t fn;
	void *arg;
	int ret; /* what fn stopped with */
};

/* Walk the elements of one run of mapped pages, which starts with one. */
static int
heap_walk_run(const struct rte_memseg_list *msl, const struct rte_memseg *ms,
		size_t len, void *arg)
{
	const struct malloc_elem *e = ms->addr;
	struct heap_walk *w = arg;
	bool start = true;

	RTE_SET_USED(len);
	/* A list feeds one heap. */
	if (!msl->heap || e->t.heap_idx != w->heap_idx)
		return 0;
	for (; e != NULL && w->ret == 0; e = e->next, start = false)
		w->ret = w->fn(msl, e, start, w->arg);
	return w->ret != 0;
}

int
malloc_heap_walk_locked(struct rte_mem_config *mcfg,
		const struct malloc_heap *heap, malloc_heap_walk_t fn,
		void *arg)
{
	struct heap_walk w = {
		.heap_idx = malloc_heap_idx(malloc_state_of(mcfg), heap),
		.fn = fn,
		.arg = arg,
	};

	eal_memseg_contig_walk(heap_walk_run, &w);
	return w.ret;
}

static int
heap_dump_elem(const struct rte_memseg_list *msl, const struct malloc_elem *e,
		bool run_start, void *arg)
{
	FILE *f = arg;

	if (run_start)
		fprintf(f, "  run in list of %" PRIu64 " kB pages, node %d\n",
				msl->page_sz >> 10, msl->socket_id);
	fprintf(f, "    elem %p: %s, %zu bytes, %s, pad %u\n", (const void *)e,
			heap_state_name(e->t.state), e->size,
			malloc_elem_is_dirty(e) ? "dirty" : "clean", e->t.pad);
	if (e->t.state == ELEM_BUSY)
		malloc_lcore_dump_elem(eal_mcfg_get(), e, f);
	return 0;
}

void
malloc_heap_dump(struct malloc_heap *heap, FILE *f)
{
	struct rte_mem_config *mcfg = eal_mcfg_get();

	malloc_heap_lock(heap);
	malloc_queue_drain(mcfg, heap);
	fprintf(f, "Heap %s (socket %d): %zu bytes, %u allocated, %u free\n",
			heap->name, heap->socket_id, heap->total_size,
			heap->alloc_count, heap->free_count);
	malloc_heap_walk_locked(mcfg, heap, heap_dump_elem, f);
	malloc_heap_unlock(heap);
}

rte_iova_t
malloc_heap_virt2iova(const struct rte_mem_config *mcfg, const void *addr)
{
	const struct rte_memseg_list *msl = heap_list_of(mcfg, addr);
	struct rte_memseg *ms;
	rte_iova_t iova;

	if (msl == NULL)
		return RTE_BAD_IOVA;
	ms = eal_msl_seg(mcfg, msl, eal_msl_addr_idx(msl, addr));
	iova = eal_memseg_iova(ms);
	if (iova != RTE_BAD_IOVA)
		return iova + RTE_PTR_DIFF(addr, ms->addr);
	/* External memory has the IOVAs it was given, or none. */
	if (mcfg->iova_mode == RTE_IOVA_VA && !msl->external)
		return (rte_iova_t)(uintptr_t)addr;
	return RTE_BAD_IOVA;
}
