/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Heap allocation and free (malloc_heap.h).
 *
 * Allocation finds a free element in the free lists of an acceptable page
 * size: first in constant time (the smallest class that surely fits, for
 * requests without bound or IOVA constraints), then by walking the
 * classes that may fit. The data is carved from the top of the element,
 * so the free part below keeps its header. If nothing fits and the memory
 * layer may grow, pages for the request are mapped and added.
 *
 * A small free may only be queued (malloc_queue.h) and done later. Free
 * joins the element with its free neighbours, works out which whole
 * pages of the result go back to lib/eal, and clears the freed bytes that
 * stay in the heap only if the result is clean (design.md, "Clean and
 * dirty memory"). An allocation carries the flag of the free memory it
 * was carved from, so freeing memory that came dirty clears nothing. Pages going back are never cleared: the kernel zeroes
 * new hugepages, and a reused file's pages come back marked dirty.
 *
 * Growth, the return of pages, drains and rebuilds have files of their
 * own (malloc_heap_priv.h).
 *
 * Locking: the heap's spinlock guards its elements and counters; growth
 * and shrink also take the hotplug lock for writing, always after it.
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
#include "malloc_lcore.h"
#include "malloc_state.h"
#include "malloc_trim.h"

struct malloc_bins *
malloc_heap_bins(struct malloc_heap *heap, uint64_t page_sz)
{
	unsigned int i;

	for (i = 0; i < heap->n_bins; i++)
		if (heap->bins[i].page_sz == page_sz)
			return &heap->bins[i];
	if (heap->n_bins == MALLOC_MAX_PAGE_SIZES)
		return NULL;
	heap->bins[heap->n_bins].page_sz = page_sz;
	return &heap->bins[heap->n_bins++];
}

static inline struct malloc_bins *
heap_bins_of(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		const struct malloc_elem *e)
{
	uint64_t page_sz = malloc_heap_msl(mcfg, e)->page_sz;

	/* Most heaps have one page size: skip the search. */
	if (heap->bins[0].page_sz == page_sz)
		return &heap->bins[0];
	return malloc_heap_bins(heap, page_sz);
}

void
malloc_heap_note_end(struct rte_mem_config *mcfg, struct malloc_elem *e)
{
	const struct rte_memseg_list *msl = malloc_heap_msl(mcfg, e);
	uintptr_t off = RTE_PTR_DIFF(malloc_elem_end(e), msl->base_va);
	struct malloc_state *st = malloc_state_of(mcfg);
	struct malloc_elem **ends;

	if ((off & (msl->page_sz - 1)) != 0)
		return;
	ends = eal_mcfg_at(mcfg, st->run_end_off[e->t.msl_idx]);
	ends[eal_msl_addr_idx(msl, malloc_elem_end(e)) - 1] = e;
}

void
malloc_heap_insert_free(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		struct malloc_elem *e)
{
	malloc_bins_insert(heap_bins_of(mcfg, heap, e), e);
	heap->free_count++;
}

void
malloc_heap_remove_free(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		struct malloc_elem *e)
{
	malloc_bins_remove(heap_bins_of(mcfg, heap, e), e);
	heap->free_count--;
}

/*
 * Join free element @p e (off the lists) with its free neighbours. The
 * headers that became data are @p e's own if *@p low, and the one at its
 * old end if *@p high. A joined neighbour's place on the free lists goes
 * to the result, which is then on the list of a size it no longer has:
 * *@p listed is that size (0: on no list), for heap_relist(). Moving
 * between lists only when the class changes keeps a free cheap.
 */
static struct malloc_elem *
heap_join(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		struct malloc_elem *e, bool *low, bool *high, size_t *listed)
{
	bool match = mcfg->match_allocations != 0;
	struct malloc_elem *p = e->prev, *n;

	*low = false;
	*high = false;
	*listed = 0;
	if (p != NULL && malloc_elem_can_join_next(p, match)) {
		*listed = p->size;
		malloc_elem_join_next(p);
		e = p;
		*low = true;
	}
	if (malloc_elem_can_join_next(e, match)) {
		n = e->next;
		if (*listed == 0) {
			*listed = n->size;
			malloc_bins_swap(heap_bins_of(mcfg, heap, n), n, e,
					n->size);
		} else {
			malloc_heap_remove_free(mcfg, heap, n);
		}
		malloc_elem_join_next(e);
		*high = true;
	}
	/* Unjoined, e keeps its end and its run-end entry. */
	if (*low || *high)
		malloc_heap_note_end(mcfg, e);
	return e;
}

/*
 * Put joined element @p e on its list (@p listed: as heap_join() left
 * it), or off all lists if @p off.
 */
static void
heap_relist(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		struct malloc_elem *e, size_t listed, bool off)
{
	struct malloc_bins *b = heap_bins_of(mcfg, heap, e);
	unsigned int f, s;

	if (listed == 0) {
		if (!off)
			malloc_heap_insert_free(mcfg, heap, e);
		return;
	}
	if (!off) {
		malloc_bins_resized(b, e, listed);
		return;
	}
	malloc_bins_class(listed, &f, &s);
	malloc_bins_unlink(b, e, f, s);
	heap->free_count--;
}

uint64_t
malloc_heap_clear_range(uintptr_t start, uintptr_t end,
		const struct malloc_heap_range *rel, unsigned int n_rel)
{
	uint64_t done = 0;
	unsigned int i;

	if (n_rel == 0) {
		/* Every small free: one memset. */
		malloc_asan_unpoison((void *)start, end - start);
		memset((void *)start, 0, end - start);
		return end - start;
	}
	for (i = 0; i <= n_rel && start < end; i++) {
		uintptr_t stop = i < n_rel ? RTE_MIN(rel[i].start, end) : end;

		if (stop > start) {
			malloc_asan_unpoison((void *)start, stop - start);
			memset((void *)start, 0, stop - start);
			done += stop - start;
		}
		if (i < n_rel)
			start = RTE_MAX(start, rel[i].end);
	}
	return done;
}

/*
 * @return true if @p e was freed into a queue or a cache, not joined, or
 * is an empty slab its owner kept.
 */
static inline bool
heap_elem_waits(const struct rte_mem_config *mcfg, const struct malloc_elem *e)
{
	/*
	 * A cache's owner sets its elements' state without the lock, after
	 * the cache's size, which the drain that may follow reads.
	 */
	uint8_t state = __atomic_load_n(&e->t.state, __ATOMIC_ACQUIRE);

	return state == ELEM_QUEUED || state == ELEM_CACHED ||
			(state == ELEM_BUSY && malloc_lcore_idle_slab(mcfg, e));
}

/*
 * @return true if free element @p e touches a queued or cached element
 * whose page might go back to lib/eal once joined: the queue must be
 * drained, or it would keep that page. Pages pinned by -m never go back.
 */
static bool
heap_queued_near(struct rte_mem_config *mcfg, const struct malloc_heap *heap,
		const struct malloc_elem *e)
{
	const struct rte_memseg_list *msl = malloc_heap_msl(mcfg, e);
	const struct malloc_elem *p = e->prev, *n = e->next;
	bool qp = p != NULL && heap_elem_waits(mcfg, p);
	bool qn = n != NULL && heap_elem_waits(mcfg, n);
	/* The pages where e meets its neighbours (used only if queued). */
	unsigned int below = eal_msl_addr_idx(msl, RTE_PTR_SUB(e, 1));
	unsigned int above = eal_msl_addr_idx(msl, malloc_elem_end(e));

	if ((!qp && !qn) || !malloc_heap_shrinks(mcfg, heap) ||
			malloc_page_return(mcfg)->wait_beside_free)
		return false;
	return (qp && malloc_heap_page_freeable(mcfg, msl, below)) ||
			(qn && malloc_heap_page_freeable(mcfg, msl, above));
}

/*
 * Free busy @p e, of which only the bytes below @p used_end may be
 * non-zero (UINTPTR_MAX: any).
 */
static void
heap_free_used(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		struct malloc_elem *e, uintptr_t used_end)
{
	uintptr_t cs = (uintptr_t)e + MALLOC_ELEM_HEADER_LEN;
	uintptr_t ce = (uintptr_t)malloc_elem_end(e);
	uintptr_t wlo = (uintptr_t)e, whi = ce;
	struct malloc_heap_range rel[MALLOC_HEAP_MAX_RELEASE];
	unsigned int n_rel;
	bool low, high, near;
	size_t listed;

	heap->alloc_count--;
	heap->free_size += e->size;
	e->t.state = ELEM_FREE;
	e->t.pad = 0;
	/*
	 * e keeps the flag of the memory it was carved from: memory that was
	 * dirty stays dirty and is not cleared now, so that rte_zmalloc()
	 * clearing it later is the only clear of this cycle.
	 */
#ifdef RTE_MALLOC_DEBUG
	/* Poisoned memory is not zero: it is dirty from now on. */
	malloc_asan_unpoison((void *)cs, ce - cs);
	memset((void *)cs, MALLOC_POISON, ce - cs);
	malloc_elem_set_dirty(e, true);
#endif
	e = heap_join(mcfg, heap, e, &low, &high, &listed);
	if (low)
		cs -= MALLOC_ELEM_HEADER_LEN;
	if (high)
		ce += MALLOC_ELEM_HEADER_LEN;
	n_rel = malloc_heap_plan_free(mcfg, heap, e, wlo, whi, rel);
	if (!malloc_elem_is_dirty(e) && used_end < whi) {
		/* The part never used is zero: the joined header is not. */
		heap->cleared_on_free += malloc_heap_clear_range(
				cs, used_end, rel, n_rel);
		if (high)
			heap->cleared_on_free += malloc_heap_clear_range(
					whi, ce, rel, n_rel);
	} else if (!malloc_elem_is_dirty(e)) {
		heap->cleared_on_free += malloc_heap_clear_range(
				cs, ce, rel, n_rel);
	}
	malloc_asan_poison(RTE_PTR_ADD(e, MALLOC_ELEM_HEADER_LEN),
			e->size - MALLOC_ELEM_HEADER_LEN);
	near = heap_queued_near(mcfg, heap, e);
	heap_relist(mcfg, heap, e, listed, n_rel != 0);
	if (n_rel != 0)
		malloc_heap_release(mcfg, heap, e, rel, n_rel);
	if (near)
		malloc_queue_drain(mcfg, heap);
}

void
malloc_heap_free_locked(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		struct malloc_elem *e)
{
	heap_free_used(mcfg, heap, e, UINTPTR_MAX);
}

void
malloc_heap_free_used(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		void *data, uintptr_t used_end)
{
	heap_free_used(mcfg, heap, malloc_elem_from_data(data), used_end);
}

void
malloc_heap_set_memzone(struct malloc_heap *heap, void *data, bool memzone)
{
	struct malloc_elem *e = malloc_elem_from_data(data);

	malloc_heap_lock(heap);
	e->t.state = memzone ? ELEM_MEMZONE : ELEM_BUSY;
	malloc_heap_unlock(heap);
}

int
malloc_heap_free(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		void *data)
{
	struct malloc_elem *e = malloc_elem_from_data(data);
	int ret = -EINVAL;

	malloc_heap_lock(heap);
	/* A damaged heap keeps what is freed into it: a leak, not worse. */
	if (unlikely(heap->broken))
		ret = 0;
	else if (malloc_heap_elem_linked(mcfg, e)) {
		if (!malloc_queue_push(heap, e))
			malloc_heap_free_locked(mcfg, heap, e);
		ret = 0;
	}
	malloc_heap_unlock(heap);
	return ret;
}

struct malloc_elem *
malloc_heap_add_memory(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		unsigned int msl_idx, void *va, size_t len, bool dirty)
{
	struct malloc_state *st = malloc_state_of(mcfg);
	struct rte_memseg_list *msl = &mcfg->memsegs[msl_idx];
	struct malloc_elem **ends = eal_mcfg_at(mcfg, st->run_end_off[msl_idx]);
	unsigned int idx = eal_msl_addr_idx(msl, va);
	unsigned int end = idx + (unsigned int)(len / msl->page_sz);
	struct malloc_elem *e = va, *j;
	bool low, high;
	size_t listed;

	malloc_elem_init(e, len, (uint8_t)msl_idx,
			(uint8_t)malloc_heap_idx(st, heap), ELEM_FREE, dirty);
	/* Mapped pages next to these are this heap's: link to them. */
	if (idx > 0 && eal_msl_is_used(mcfg, msl, idx - 1)) {
		e->prev = ends[idx - 1];
		e->prev->next = e;
	}
	if (end < msl->n_segs && eal_msl_is_used(mcfg, msl, end)) {
		e->next = RTE_PTR_ADD(va, len);
		e->next->prev = e;
	}
	heap->total_size += len;
	heap->free_size += len;
	j = heap_join(mcfg, heap, e, &low, &high, &listed);
	if (!low && !high)
		malloc_heap_note_end(mcfg, j);
	/* A clean result gets the headers that joining turned into data. */
	if (!malloc_elem_is_dirty(j) && low) {
		memset(e, 0, MALLOC_ELEM_HEADER_LEN);
		heap->cleared_on_free += MALLOC_ELEM_HEADER_LEN;
	}
	if (!malloc_elem_is_dirty(j) && high) {
		memset(RTE_PTR_ADD(va, len), 0, MALLOC_ELEM_HEADER_LEN);
		heap->cleared_on_free += MALLOC_ELEM_HEADER_LEN;
	}
	malloc_asan_poison(RTE_PTR_ADD(j, MALLOC_ELEM_HEADER_LEN),
			j->size - MALLOC_ELEM_HEADER_LEN);
	heap_relist(mcfg, heap, j, listed, false);
	return j;
}

uintptr_t
malloc_heap_iova_break(struct rte_mem_config *mcfg,
		const struct rte_memseg_list *msl, uintptr_t d, size_t len)
{
	unsigned int first = eal_msl_addr_idx(msl, (void *)d);
	unsigned int last = eal_msl_addr_idx(msl, (void *)(d + len - 1));
	unsigned int i;

	if (mcfg->iova_mode == RTE_IOVA_VA)
		return 0;
	eal_msl_resolve_iova(mcfg, msl, first, last - first + 1);
	for (i = last; i > first; i--) {
		const struct rte_memseg *a = eal_msl_seg(mcfg, msl, i - 1);
		const struct rte_memseg *b = eal_msl_seg(mcfg, msl, i);

		if (a->iova == RTE_BAD_IOVA || b->iova != a->iova + a->len)
			return (uintptr_t)b->addr;
	}
	return 0;
}

/*
 * Data address @p d for @p req in free element @p e, moved one alignment
 * down (@p down) or up if @p req aligns its header (align_off) and the
 * gap left below the header is too small for a free element: heap_carve()
 * would pad it into the allocation, whose header would then lie below
 * the aligned address.
 */
static uintptr_t
heap_fit_header(const struct malloc_elem *e, const struct malloc_req *req,
		uintptr_t d, bool down)
{
	uintptr_t gap = d - MALLOC_ELEM_HEADER_LEN - (uintptr_t)e;

	if (req->align_off == 0 || gap == 0 || gap >= MALLOC_ELEM_MIN_LEN)
		return d;
	return down ? d - req->align : d + req->align;
}

/*
 * Where the data of @p req would go in free element @p e: as high as
 * possible, aligned, not crossing the bound, IOVA-contiguous if asked.
 *
 * @return true with the data address in @p dp, or false if it cannot fit.
 */
static bool
heap_fit(struct rte_mem_config *mcfg, const struct malloc_elem *e,
		const struct malloc_req *req, uintptr_t *dp)
{
	uintptr_t start = (uintptr_t)e + MALLOC_ELEM_HEADER_LEN;
	uintptr_t end = (uintptr_t)malloc_elem_end(e) - MALLOC_ELEM_TRAILER_LEN;
	uintptr_t d, b;

	for (;;) {
		if (end < start || end - start < req->size)
			return false;
		d = RTE_ALIGN_FLOOR(end - req->size - req->align_off,
				    req->align) +
				req->align_off;
		d = heap_fit_header(e, req, d, true);
		if (d < start)
			return false;
		if (req->bound != 0) {
			b = RTE_ALIGN_FLOOR(d + req->size - 1, req->bound);
			if (b > d) {
				end = b;
				continue;
			}
		}
		if (req->contig) {
			b = malloc_heap_iova_break(mcfg,
					malloc_heap_msl(mcfg, e), d, req->size);
			if (b != 0) {
				end = b;
				continue;
			}
		}
		*dp = d;
		return true;
	}
}

/* A free element @p req fits in, with its data address in @p dp. */
static struct malloc_elem *
heap_find(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		const struct malloc_req *req, uintptr_t *dp)
{
	size_t min = MALLOC_ELEM_OVERHEAD + req->size;
	struct malloc_elem *e;
	unsigned int i;

	for (i = 0; i < heap->n_bins; i++) {
		const struct malloc_bins *b = &heap->bins[i];

		if (!malloc_req_page_ok(req, b->page_sz))
			continue;
		if (req->bound == 0 && !req->contig) {
			e = malloc_bins_find(b, malloc_heap_need(req));
			if (e != NULL && heap_fit(mcfg, e, req, dp))
				return e;
		}
		for (e = malloc_bins_next(b, min, NULL); e != NULL;
				e = malloc_bins_next(b, min, e))
			if (heap_fit(mcfg, e, req, dp))
				return e;
	}
	return NULL;
}

/* Take @p req out of free element @p e at data address @p d. */
static struct malloc_elem *
heap_carve(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		struct malloc_elem *e, const struct malloc_req *req,
		uintptr_t d)
{
	uintptr_t h = d - MALLOC_ELEM_HEADER_LEN;
	uintptr_t tail = d + req->size + MALLOC_ELEM_TRAILER_LEN;
	struct malloc_bins *b = heap_bins_of(mcfg, heap, e);
	struct malloc_elem *busy = e, *t;
	size_t old_size = e->size;
	bool listed = false; /* busy is still on e's list */

	if (h - (uintptr_t)e >= MALLOC_ELEM_MIN_LEN) {
		/* e stays free below the data, mostly in its list. */
		busy = malloc_elem_split(e, (void *)h, ELEM_BUSY);
		malloc_bins_resized(b, e, old_size);
		heap->free_size -= busy->size;
		/* e now ends at the busy header, which may start a page. */
		malloc_heap_note_end(mcfg, e);
	} else {
		listed = true;
		heap->free_size -= e->size;
	}
	if ((uintptr_t)malloc_elem_end(busy) - tail >= MALLOC_ELEM_MIN_LEN) {
		t = malloc_elem_split(busy, (void *)tail, ELEM_FREE);
		if (listed) {
			/* Carved from the bottom: t is what is left of e. */
			malloc_bins_swap(b, busy, t, old_size);
			malloc_bins_resized(b, t, old_size);
		} else {
			malloc_heap_insert_free(mcfg, heap, t);
		}
		listed = false;
		heap->free_size += t->size;
		malloc_heap_note_end(mcfg, t);
	}
	malloc_heap_note_low(heap);
	if (listed)
		malloc_heap_remove_free(mcfg, heap, busy);
	malloc_heap_note_end(mcfg, busy);
	busy->t.state = ELEM_BUSY;
	busy->t.pad = (uint32_t)(d - (uintptr_t)busy - MALLOC_ELEM_HEADER_LEN);
	if (busy->t.pad != 0) {
		struct malloc_elem_tail *m = (void *)(d - sizeof(*m));

		malloc_asan_unpoison(m, sizeof(*m));
		*m = busy->t;
		m->state = ELEM_PAD;
	}
#ifdef RTE_MALLOC_DEBUG
	*(uint64_t *)RTE_PTR_SUB(malloc_elem_end(busy),
			MALLOC_ELEM_TRAILER_LEN) = MALLOC_TRAILER_COOKIE;
#endif
	malloc_asan_unpoison((void *)d, req->user_size);
	heap->alloc_count++;
	return busy;
}

int
malloc_heap_restore(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		unsigned int msl_idx, void *data, size_t size)
{
	const struct rte_memseg_list *msl = &mcfg->memsegs[msl_idx];
	struct malloc_state *st = malloc_state_of(mcfg);
	struct malloc_elem **ends = eal_mcfg_at(mcfg, st->run_end_off[msl_idx]);
	uintptr_t d = (uintptr_t)data, h = d - MALLOC_ELEM_HEADER_LEN;
	struct malloc_req req = {
		.user_size = size,
		.size = size,
		.align = RTE_CACHE_LINE_SIZE,
	};
	struct malloc_elem *e, *busy;
	unsigned int idx, end;

	if (!eal_msl_contains(msl, (void *)h) ||
			!eal_msl_is_used(mcfg, msl,
					eal_msl_addr_idx(msl, (void *)h)))
		return -ENOSPC;
	idx = eal_msl_addr_idx(msl, (void *)h);
	end = idx + eal_msl_run_len(mcfg, msl, idx);
	/* Memzones come back lowest first: the run's top is still free. */
	for (e = ends[end - 1]; e != NULL && (uintptr_t)e > h; e = e->prev)
		;
	if (e == NULL || e->t.state != ELEM_FREE ||
			(uintptr_t)malloc_elem_end(e) <
					d + size + MALLOC_ELEM_TRAILER_LEN)
		return -ENOSPC;
	busy = heap_carve(mcfg, heap, e, &req, d);
	busy->t.state = ELEM_MEMZONE;
	return 0;
}

/*
 * Move the data of a large @p req to the bottom of free element @p e if e
 * ends a run of pages: the free rest then stays at the run's end, where
 * the next growth of the heap joins it. Carved from the top, it would be
 * a hole below the data, and a run of page-sized requests would grow a
 * page for each one and leave half of every page unused. Small requests
 * keep the top fit, which leaves e's header where it is.
 */
static void
heap_fit_low(struct rte_mem_config *mcfg, const struct malloc_elem *e,
		const struct malloc_req *req, uintptr_t *dp)
{
	uintptr_t d = RTE_ALIGN_CEIL((uintptr_t)e + MALLOC_ELEM_HEADER_LEN -
						      req->align_off,
				      req->align) +
			req->align_off;

	/* Bounds and IOVA breaks are checked from the top only. */
	if (e->next != NULL || req->bound != 0 || req->contig ||
			req->size < malloc_heap_msl(mcfg, e)->page_sz / 16)
		return;
	/* heap_carve() pads a gap too small for a free element below. */
	d = heap_fit_header(e, req, d, false);
	if (d < *dp)
		*dp = d;
}

/*
 * A free element for @p req, draining the queue or growing the heap if
 * there is none, with the data address in @p dp; *@p added is the memory
 * grown, if any. The caller holds the heap lock.
 */
static struct malloc_elem *
heap_take(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		const struct malloc_req *req, uintptr_t *dp,
		struct malloc_elem **added)
{
	struct malloc_elem *e;

	/*
	 * While heaps keep free pages, the memory that lcores hold in their
	 * caches is theirs to allocate again: growing costs one mapping,
	 * where draining would empty other lcores' caches (and clear what
	 * they hold) only for them to refill from the heap at once. So
	 * growth comes first, and the drain only when the heap cannot grow.
	 * Without keeping, the drain comes first, as pages go back at once.
	 */
	bool grow_first = malloc_page_return(mcfg)->grow_before_drain;

	*added = NULL;
	e = heap_find(mcfg, heap, req, dp);
	if (e == NULL && !grow_first && malloc_queue_pending(mcfg, heap)) {
		malloc_queue_drain(mcfg, heap);
		e = heap_find(mcfg, heap, req, dp);
	}
	if (e == NULL) {
		*added = malloc_heap_grow(mcfg, heap, req);
		if (*added != NULL) {
			e = heap_find(mcfg, heap, req, dp);
			if (e == NULL)
				malloc_heap_trim_elem(mcfg, heap, *added);
		}
	}
	if (e == NULL && grow_first && malloc_queue_pending(mcfg, heap)) {
		malloc_queue_drain(mcfg, heap);
		e = heap_find(mcfg, heap, req, dp);
	}
	return e;
}

/*
 * How many spares of @p stride bytes fit in free element @p e with the
 * allocation, below @p max, leaving e a whole free element below them.
 * None beside a free neighbour above: a spare must not keep free memory
 * from a join.
 */
static unsigned int
heap_spares_fit(const struct rte_mem_config *mcfg, const struct malloc_elem *e,
		size_t stride, unsigned int max)
{
	size_t room;

	if (max == 0 || mcfg->match_allocations ||
			(e->next != NULL && e->next->t.state == ELEM_FREE) ||
			e->size < MALLOC_ELEM_MIN_LEN + 2 * stride)
		return 0;
	room = (e->size - MALLOC_ELEM_MIN_LEN) / stride - 1;
	return room < max ? (unsigned int)room : max;
}

/*
 * Cut busy element @p x, carved for @p n + 1 elements of @p stride bytes,
 * into the allocation (the lowest, which keeps x's header) and @p n
 * spares above it, handed to @p sp.
 */
static void
heap_cut_spares(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		struct malloc_elem *x, size_t stride, unsigned int n,
		struct malloc_spares *sp)
{
	struct malloc_elem *cur = x, *s;
	unsigned int i;

	for (i = 0; i < n; i++) {
		s = malloc_elem_split(cur, RTE_PTR_ADD(cur, stride), ELEM_BUSY);
		malloc_heap_note_end(mcfg, cur);
#ifdef RTE_MALLOC_DEBUG
		*(uint64_t *)RTE_PTR_SUB(malloc_elem_end(cur),
				MALLOC_ELEM_TRAILER_LEN) = MALLOC_TRAILER_COOKIE;
#endif
		if (cur != x)
			sp->put(sp, cur);
		cur = s;
	}
	malloc_heap_note_end(mcfg, cur);
	sp->put(sp, cur);
	heap->alloc_count += n;
}

void *
malloc_heap_alloc_fill(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		const struct malloc_req *req, bool *dirty,
		struct malloc_spares *sp)
{
	size_t stride = MALLOC_ELEM_OVERHEAD + req->size;
	struct malloc_elem *e, *added;
	struct malloc_req batch = *req;
	unsigned int n;
	uintptr_t d = 0;

	malloc_heap_lock(heap);
	if (unlikely(heap->broken)) {
		malloc_heap_unlock(heap);
		return NULL;
	}
	e = malloc_queue_pop(heap, req, dirty);
	if (e != NULL) {
		malloc_heap_unlock(heap);
		return malloc_elem_data(e);
	}
	e = heap_take(mcfg, heap, req, &d, &added);
	if (e == NULL) {
		malloc_heap_unlock(heap);
		return NULL;
	}
	n = heap_spares_fit(mcfg, e, stride, sp == NULL ? 0 : sp->max);
	batch.size = (n + 1) * stride - MALLOC_ELEM_OVERHEAD;
	if (n != 0 && !heap_fit(mcfg, e, &batch, &d))
		n = 0;
	if (n == 0)
		heap_fit_low(mcfg, e, req, &d);
	e = heap_carve(mcfg, heap, e, n != 0 ? &batch : req, d);
	if (added != NULL)
		malloc_heap_trim_around(mcfg, heap, e);
	if (n != 0)
		heap_cut_spares(mcfg, heap, e, stride, n, sp);
	*dirty = malloc_elem_is_dirty(e);
	malloc_heap_unlock(heap);
	return (void *)d;
}

void *
malloc_heap_alloc(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		const struct malloc_req *req, bool *dirty)
{
	return malloc_heap_alloc_fill(mcfg, heap, req, dirty, NULL);
}

/* Grow busy @p e into its free next to end at @p want, if it can. */
static bool
heap_resize_up(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		struct malloc_elem *e, uintptr_t want)
{
	struct malloc_elem *n = e->next, *t;
	bool n_dirty;

	if (n == NULL || n->t.state != ELEM_FREE ||
			(uintptr_t)malloc_elem_end(n) < want ||
			(mcfg->match_allocations &&
					n->orig_elem != e->orig_elem))
		return false;
	n_dirty = malloc_elem_is_dirty(n);
	malloc_heap_remove_free(mcfg, heap, n);
	heap->free_size -= n->size;
	malloc_elem_join_next(e);
	malloc_asan_unpoison(n, MALLOC_ELEM_HEADER_LEN);
	if ((uintptr_t)malloc_elem_end(e) - want >= MALLOC_ELEM_MIN_LEN) {
		t = malloc_elem_split(e, (void *)want, ELEM_FREE);
		/* The rest was n's memory: as clean as n was. */
		malloc_elem_set_dirty(t, n_dirty);
		malloc_heap_insert_free(mcfg, heap, t);
		heap->free_size += t->size;
		malloc_heap_note_end(mcfg, t);
	}
	malloc_heap_note_low(heap);
	malloc_heap_note_end(mcfg, e);
	return true;
}

bool
malloc_heap_resize(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		void *data, size_t size)
{
	size_t rounded = RTE_CACHE_LINE_ROUNDUP(size);
	uintptr_t want = (uintptr_t)data + rounded + MALLOC_ELEM_TRAILER_LEN;
	struct malloc_elem *e, *t;
	bool done = true;

	malloc_heap_lock(heap);
	e = malloc_elem_from_data(data);
	if (unlikely(heap->broken)) {
		done = false;
	} else if (want > (uintptr_t)malloc_elem_end(e)) {
		done = heap_resize_up(mcfg, heap, e, want);
		if (!done && malloc_queue_pending(mcfg, heap)) {
			/* The memory after e may be queued, not joined yet. */
			malloc_queue_drain(mcfg, heap);
			done = heap_resize_up(mcfg, heap, e, want);
		}
	} else if ((uintptr_t)malloc_elem_end(e) - want >=
			MALLOC_ELEM_MIN_LEN) {
		t = malloc_elem_split(e, (void *)want, ELEM_BUSY);
		malloc_heap_note_end(mcfg, e);
		malloc_heap_note_end(mcfg, t);
		heap->alloc_count++;
		malloc_heap_free_locked(mcfg, heap, t);
	}
	if (done) {
#ifdef RTE_MALLOC_DEBUG
		*(uint64_t *)RTE_PTR_SUB(malloc_elem_end(e),
				MALLOC_ELEM_TRAILER_LEN) = MALLOC_TRAILER_COOKIE;
#endif
		malloc_asan_unpoison(data, size);
		malloc_asan_poison(RTE_PTR_ADD(data, size),
				(uintptr_t)malloc_elem_end(e) -
						(uintptr_t)data - size);
	}
	malloc_heap_unlock(heap);
	return done;
}
