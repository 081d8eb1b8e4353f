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
#include "malloc_slab.h"
#include "malloc_trim.h"

#define HEAP_MAX_RELEASE 8 /* page ranges given back by one free */

struct heap_range {
	uintptr_t start;
	uintptr_t end;
};

static inline struct rte_memseg_list *
heap_msl(struct rte_mem_config *mcfg, const struct malloc_elem *e)
{
	return &mcfg->memsegs[e->t.msl_idx];
}

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
	uint64_t page_sz = heap_msl(mcfg, e)->page_sz;

	/* Most heaps have one page size: skip the search. */
	if (heap->bins[0].page_sz == page_sz)
		return &heap->bins[0];
	return malloc_heap_bins(heap, page_sz);
}

/* Record @p e in its list's run-end array if it ends on a page boundary. */
static void
heap_note_end(struct rte_mem_config *mcfg, struct malloc_elem *e)
{
	const struct rte_memseg_list *msl = heap_msl(mcfg, e);
	uintptr_t off = RTE_PTR_DIFF(malloc_elem_end(e), msl->base_va);
	struct malloc_state *st = malloc_state_of(mcfg);
	struct malloc_elem **ends;

	if ((off & (msl->page_sz - 1)) != 0)
		return;
	ends = eal_mcfg_at(mcfg, st->run_end_off[e->t.msl_idx]);
	ends[eal_msl_addr_idx(msl, malloc_elem_end(e)) - 1] = e;
}

static void
heap_insert_free(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		struct malloc_elem *e)
{
	malloc_bins_insert(heap_bins_of(mcfg, heap, e), e);
	heap->free_count++;
}

static void
heap_remove_free(struct rte_mem_config *mcfg, struct malloc_heap *heap,
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
			heap_remove_free(mcfg, heap, n);
		}
		malloc_elem_join_next(e);
		*high = true;
	}
	/* Unjoined, e keeps its end and its run-end entry. */
	if (*low || *high)
		heap_note_end(mcfg, e);
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
			heap_insert_free(mcfg, heap, e);
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

/* Clear [start, end) outside the ranges going back to the kernel. */
static uint64_t
heap_clear(uintptr_t start, uintptr_t end, const struct heap_range *rel,
		unsigned int n_rel)
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

/* @return true if the page of slot @p idx may be given back. */
static bool
heap_page_freeable(struct rte_mem_config *mcfg,
		const struct rte_memseg_list *msl, unsigned int idx)
{
	return !(eal_msl_seg(mcfg, msl, idx)->flags &
			RTE_MEMSEG_FLAG_DO_NOT_FREE);
}

/* @return true if @p heap gives pages back to lib/eal at all. */
static bool
heap_shrinks(const struct rte_mem_config *mcfg, const struct malloc_heap *heap)
{
	return !heap->external && !mcfg->legacy_mem && eal_memalloc_can_grow();
}

bool
malloc_heap_page_may_go(struct rte_mem_config *mcfg,
		const struct malloc_heap *heap, const struct malloc_elem *e)
{
	const struct rte_memseg_list *msl = heap_msl(mcfg, e);
	const void *data = RTE_PTR_ADD(e, MALLOC_ELEM_HEADER_LEN);

	return heap_shrinks(mcfg, heap) && !malloc_trim_on(mcfg) &&
			heap_page_freeable(
					mcfg, msl, eal_msl_addr_idx(msl, data));
}

/*
 * The whole pages of free element @p e that may go back to lib/eal, as
 * ranges leaving pieces of e that are empty or at least a minimal
 * element. Only pages near [@p wlo, @p whi), the memory just freed, are
 * looked at: the rest of e was free before, and its pages were weighed
 * then. Looking at all of them would make a free next to a large free
 * element (such as the pages pinned by -m) cost a check per page.
 */
static unsigned int
heap_plan_release_pages(struct rte_mem_config *mcfg,
		const struct malloc_heap *heap, const struct malloc_elem *e,
		uintptr_t wlo, uintptr_t whi, struct heap_range *rel)
{
	const struct rte_memseg_list *msl = heap_msl(mcfg, e);
	uintptr_t s = (uintptr_t)e, end = (uintptr_t)malloc_elem_end(e);
	uintptr_t pg = msl->page_sz, lo, hi, a;
	unsigned int n = 0;

	if (!heap_shrinks(mcfg, heap))
		return 0;
	if (mcfg->match_allocations &&
			(e->orig_elem != e || e->size != e->orig_size))
		return 0;
	lo = RTE_ALIGN_CEIL(s, pg);
	hi = RTE_ALIGN_FLOOR(end, pg);
	if (lo > s && lo - s < MALLOC_ELEM_MIN_LEN)
		lo += pg;
	if (hi < end && end - hi < MALLOC_ELEM_MIN_LEN)
		hi -= pg;
	/* A page next to the freed memory may have been kept only because
	 * the piece beside it was too small to be an element. */
	wlo = RTE_ALIGN_FLOOR(wlo, pg);
	whi = RTE_ALIGN_CEIL(whi, pg);
	if (wlo > s + pg)
		lo = RTE_MAX(lo, wlo - pg);
	if (whi + pg < end)
		hi = RTE_MIN(hi, whi + pg);
	for (a = lo; a < hi && n < HEAP_MAX_RELEASE;) {
		unsigned int idx = eal_msl_addr_idx(msl, (void *)a);
		uintptr_t b = a;

		while (b < hi && heap_page_freeable(mcfg, msl, idx)) {
			b += pg;
			idx++;
		}
		if (b > a) {
			rel[n].start = a;
			rel[n++].end = b;
		}
		a = b + pg;
	}
	return n;
}

static inline unsigned int
heap_plan_release(struct rte_mem_config *mcfg, const struct malloc_heap *heap,
		const struct malloc_elem *e, uintptr_t wlo, uintptr_t whi,
		struct heap_range *rel)
{
	/* Most frees: no whole page inside, nothing to ask lib/eal. */
	if (e->size < heap_msl(mcfg, e)->page_sz)
		return 0;
	return heap_plan_release_pages(mcfg, heap, e, wlo, whi, rel);
}

/*
 * The pages a free would give back, unless the heap keeps them for reuse
 * (malloc_trim.h): then none. Kept pages are free memory like any other,
 * cleared by the free if the element is clean.
 */
static unsigned int
heap_plan_free(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		const struct malloc_elem *e, uintptr_t wlo, uintptr_t whi,
		struct heap_range *rel)
{
	unsigned int n = heap_plan_release(mcfg, heap, e, wlo, whi, rel);

	return n != 0 && malloc_trim_keep(mcfg, heap) ? 0 : n;
}

/* Hand pages [a, b) of list @p msl back to lib/eal. */
static int
heap_unmap(struct rte_mem_config *mcfg, struct rte_memseg_list *msl,
		uintptr_t a, uintptr_t b)
{
	unsigned int idx = eal_msl_addr_idx(msl, (void *)a);
	int n = (int)((b - a) / msl->page_sz), i, ret;
	struct rte_memseg **ms = malloc(sizeof(*ms) * (size_t)n);

	if (ms == NULL)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		ms[i] = eal_msl_seg(mcfg, msl, idx + (unsigned int)i);
	malloc_asan_unpoison((void *)a, b - a);
	rte_mcfg_mem_write_lock();
	ret = eal_memalloc_free_seg_bulk(ms, n);
	rte_mcfg_mem_write_unlock();
	free(ms);
	return ret;
}

/*
 * Cut the ranges @p rel out of free element @p e (off the lists), give
 * them back, and put the pieces left on the free lists.
 */
static void
heap_release(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		struct malloc_elem *e, const struct heap_range *rel,
		unsigned int n_rel)
{
	struct rte_memseg_list *msl = heap_msl(mcfg, e);
	unsigned int msl_idx = e->t.msl_idx, i;
	struct malloc_elem *cur = e, *r, *tail;

	for (i = 0; i < n_rel && cur != NULL; i++) {
		r = cur;
		if ((uintptr_t)cur < rel[i].start) {
			r = malloc_elem_split(
					cur, (void *)rel[i].start, ELEM_FREE);
			heap_insert_free(mcfg, heap, cur);
			heap_note_end(mcfg, cur);
		}
		tail = NULL;
		if ((uintptr_t)malloc_elem_end(r) > rel[i].end)
			tail = malloc_elem_split(
					r, (void *)rel[i].end, ELEM_FREE);
		if (r->prev != NULL)
			r->prev->next = NULL;
		if (r->next != NULL)
			r->next->prev = NULL;
		heap->total_size -= r->size;
		heap->free_size -= r->size;
		if (heap_unmap(mcfg, msl, rel[i].start, rel[i].end) < 0) {
			RTE_LOG(ERR, MALLOC,
					"cannot give back pages at %p, keeping them\n",
					(void *)rel[i].start);
			malloc_heap_add_memory(mcfg, heap, msl_idx,
					(void *)rel[i].start,
					rel[i].end - rel[i].start, true);
		}
		cur = tail;
	}
	if (cur != NULL) {
		/* The run-end entry still names the element before release. */
		heap_insert_free(mcfg, heap, cur);
		heap_note_end(mcfg, cur);
	}
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
			(state == ELEM_BUSY && malloc_slab_idle(mcfg, e));
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
	const struct rte_memseg_list *msl = heap_msl(mcfg, e);
	const struct malloc_elem *p = e->prev, *n = e->next;
	bool qp = p != NULL && heap_elem_waits(mcfg, p);
	bool qn = n != NULL && heap_elem_waits(mcfg, n);
	/* The pages where e meets its neighbours (used only if queued). */
	unsigned int below = eal_msl_addr_idx(msl, RTE_PTR_SUB(e, 1));
	unsigned int above = eal_msl_addr_idx(msl, malloc_elem_end(e));

	if ((!qp && !qn) || !heap_shrinks(mcfg, heap) || malloc_trim_on(mcfg))
		return false;
	return (qp && heap_page_freeable(mcfg, msl, below)) ||
			(qn && heap_page_freeable(mcfg, msl, above));
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
	struct heap_range rel[HEAP_MAX_RELEASE];
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
	n_rel = heap_plan_free(mcfg, heap, e, wlo, whi, rel);
	if (!malloc_elem_is_dirty(e) && used_end < whi) {
		/* The part never used is zero: the joined header is not. */
		heap->cleared_on_free += heap_clear(cs, used_end, rel, n_rel);
		if (high)
			heap->cleared_on_free += heap_clear(
					whi, ce, rel, n_rel);
	} else if (!malloc_elem_is_dirty(e)) {
		heap->cleared_on_free += heap_clear(cs, ce, rel, n_rel);
	}
	malloc_asan_poison(RTE_PTR_ADD(e, MALLOC_ELEM_HEADER_LEN),
			e->size - MALLOC_ELEM_HEADER_LEN);
	near = heap_queued_near(mcfg, heap, e);
	heap_relist(mcfg, heap, e, listed, n_rel != 0);
	if (n_rel != 0)
		heap_release(mcfg, heap, e, rel, n_rel);
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

/*
 * A drain (malloc_queue_drain()) joins in two steps. First it marks each
 * run of freed elements around a waiting one: every element is taken
 * off its list and counted as freed, but left as it is in memory, since
 * the queues and cache stacks being walked go through them. Then it
 * makes each run one free element, clears it and gives its pages back.
 * Each element is touched once per step, without a call: a drain after
 * a table of small frees joins thousands of them.
 */

/*
 * @return true if @p b, next to @p a in a run being marked, is freed and
 * joins it; a cached element only if @p cached (the drain has its cache).
 */
static inline bool
heap_drain_joins(const struct malloc_elem *a, const struct malloc_elem *b,
		bool match, bool cached)
{
	uint8_t s = b->t.state;

	return (s == ELEM_FREE || s == ELEM_QUEUED ||
			       (cached && s == ELEM_CACHED)) &&
			(!match || a->orig_elem == b->orig_elem);
}

/*
 * Walks along a run chase pointers through more headers than the cache
 * holds: fetch a header a few elements ahead in direction @p dir (1 up,
 * -1 down), guessing the elements there are of @p e's size, as they are
 * after a table of frees.
 */
static inline void
heap_drain_prefetch(const struct malloc_elem *e, int dir)
{
	__builtin_prefetch((const char *)e + dir * 8 * (intptr_t)e->size);
}

/* Mark @p e as part of a run; *@p n and *@p bytes count waiting ones. */
static inline void
heap_drain_take(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		struct malloc_elem *e, unsigned int *n, size_t *bytes)
{
	if (e->t.state == ELEM_FREE) {
		heap_remove_free(mcfg, heap, e);
		e->t.state = ELEM_RUN_FREE;
	} else {
		(*n)++;
		*bytes += e->size;
		e->t.state = ELEM_RUN_WAITING;
	}
}

void
malloc_heap_drain_list(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		struct malloc_elem *list, bool cached,
		struct malloc_elem **runs)
{
	bool match = mcfg->match_allocations != 0;
	struct malloc_elem *q, *next, *e;
	unsigned int n = 0;
	size_t bytes = 0;

	for (q = list; q != NULL; q = next) {
		next = q->free_next;
		/* Elements an earlier run took are marked already. */
		if (q->t.state == ELEM_RUN_WAITING)
			continue;
		heap_drain_take(mcfg, heap, q, &n, &bytes);
		for (e = q; e->next != NULL &&
				heap_drain_joins(e, e->next, match, cached);) {
			e = e->next;
			heap_drain_prefetch(e, 1);
			heap_drain_take(mcfg, heap, e, &n, &bytes);
		}
		for (e = q; e->prev != NULL &&
				heap_drain_joins(e, e->prev, match, cached);) {
			e = e->prev;
			heap_drain_prefetch(e, -1);
			heap_drain_take(mcfg, heap, e, &n, &bytes);
			/*
			 * A stack of frees made in address order goes down
			 * the run: skip what the walk takes as it goes, not
			 * in a second pass.
			 */
			if (e == next)
				next = e->free_next;
		}
		/* e is the run's first: the list of runs goes through it. */
		e->free_prev = *runs;
		*runs = e;
	}
	heap->alloc_count -= n;
	heap->free_size += bytes;
}

/* @return true if @p e, in a marked run, held a user's bytes. */
static inline bool
heap_run_used(const struct malloc_elem *e)
{
	return e->t.state == ELEM_RUN_WAITING &&
			(e->t.flags & ELEM_FLAG_SPARE) == 0;
}

/*
 * Clear what a run joined into clean element @p e was not known to hold as
 * zero: the waiting elements' bytes (their users wrote them; spares held
 * none) and the headers that became data. The first element was
 * @p first_size bytes, and held a user's bytes if @p first_used; the
 * others' headers are still intact. Adjacent pieces are cleared together.
 */
static uint64_t
heap_run_clear(struct malloc_elem *e, size_t first_size, bool first_used,
		const struct heap_range *rel, unsigned int n_rel)
{
	uintptr_t p = (uintptr_t)e + first_size;
	uintptr_t end = (uintptr_t)malloc_elem_end(e);
	uintptr_t cs = (uintptr_t)e + MALLOC_ELEM_HEADER_LEN, ce = cs;
	uint64_t done = 0;

	if (first_used)
		ce = p;
	while (p < end) {
		const struct malloc_elem *n = (const void *)p;
		size_t len = heap_run_used(n) ? n->size :
						MALLOC_ELEM_HEADER_LEN;

		if (p != ce) {
			if (ce > cs)
				done += heap_clear(cs, ce, rel, n_rel);
			cs = p;
		}
		ce = p + len;
		p += n->size;
	}
	if (ce > cs)
		done += heap_clear(cs, ce, rel, n_rel);
	return done;
}

/* @return true if @p e is the next element of the run of @p first. */
static inline bool
heap_run_member(const struct malloc_elem *first, const struct malloc_elem *e,
		bool match)
{
	return (e->t.state == ELEM_RUN_FREE ||
			       e->t.state == ELEM_RUN_WAITING) &&
			(!match || e->orig_elem == first->orig_elem);
}

/* Make the run marked from @p first one free element, and free it. */
static void
heap_drain_run(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		struct malloc_elem *first)
{
	bool match = mcfg->match_allocations != 0;
	struct malloc_elem *last = first, *n;
	struct heap_range rel[HEAP_MAX_RELEASE];
	uintptr_t wlo = UINTPTR_MAX, whi = 0;
	uint8_t flags = first->t.flags;
	bool first_used = heap_run_used(first);
	size_t first_size = first->size;
	unsigned int n_rel;

	if (first->t.state == ELEM_RUN_WAITING) {
		wlo = (uintptr_t)first;
		whi = (uintptr_t)malloc_elem_end(first);
	}
	while ((n = last->next) != NULL && heap_run_member(first, n, match)) {
		heap_drain_prefetch(n, 1);
		flags |= n->t.flags;
		/* The walk goes up: the first waiting one is the lowest. */
		if (n->t.state == ELEM_RUN_WAITING) {
			wlo = RTE_MIN(wlo, (uintptr_t)n);
			whi = (uintptr_t)malloc_elem_end(n);
		}
		last = n;
	}
	flags &= ELEM_FLAG_DIRTY;
#ifdef RTE_MALLOC_DEBUG
	/* The waiting elements were poisoned when they were freed. */
	flags |= ELEM_FLAG_DIRTY;
#endif
	first->size = RTE_PTR_DIFF(malloc_elem_end(last), first);
	first->next = last->next;
	if (last->next != NULL)
		last->next->prev = first;
	first->t.flags = flags;
	first->t.state = ELEM_FREE;
	first->t.pad = 0;
	n_rel = heap_plan_free(mcfg, heap, first, wlo, whi, rel);
	if (!malloc_elem_is_dirty(first))
		heap->cleared_on_free += heap_run_clear(
				first, first_size, first_used, rel, n_rel);
	malloc_asan_poison(RTE_PTR_ADD(first, MALLOC_ELEM_HEADER_LEN),
			first->size - MALLOC_ELEM_HEADER_LEN);
	if (first != last)
		heap_note_end(mcfg, first);
	if (n_rel != 0)
		heap_release(mcfg, heap, first, rel, n_rel);
	else
		heap_insert_free(mcfg, heap, first);
}

void
malloc_heap_drain_runs(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		struct malloc_elem *runs)
{
	struct malloc_elem *first;

	while (runs != NULL) {
		first = runs;
		runs = first->free_prev;
		heap_drain_run(mcfg, heap, first);
	}
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
		heap_note_end(mcfg, j);
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

/*
 * The highest page boundary in [d, d + len) where IOVAs are not
 * contiguous, or 0 if they are.
 */
static uintptr_t
heap_iova_break(struct rte_mem_config *mcfg, const struct rte_memseg_list *msl,
		uintptr_t d, size_t len)
{
	unsigned int first = eal_msl_addr_idx(msl, (void *)d);
	unsigned int last = eal_msl_addr_idx(msl, (void *)(d + len - 1));
	unsigned int i;

	if (mcfg->iova_mode == RTE_IOVA_VA)
		return 0;
	for (i = last; i > first; i--) {
		const struct rte_memseg *a = eal_msl_seg(mcfg, msl, i - 1);
		const struct rte_memseg *b = eal_msl_seg(mcfg, msl, i);

		if (a->iova == RTE_BAD_IOVA || b->iova != a->iova + a->len)
			return (uintptr_t)b->addr;
	}
	return 0;
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
		d = RTE_ALIGN_FLOOR(end - req->size, req->align);
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
			b = heap_iova_break(
					mcfg, heap_msl(mcfg, e), d, req->size);
			if (b != 0) {
				end = b;
				continue;
			}
		}
		*dp = d;
		return true;
	}
}

/* Bytes of free element that surely hold @p req wherever it is aligned. */
static size_t
heap_need(const struct malloc_req *req)
{
	return MALLOC_ELEM_OVERHEAD + req->size +
			(req->align - RTE_CACHE_LINE_SIZE);
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
			e = malloc_bins_find(b, heap_need(req));
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
		heap_note_end(mcfg, e);
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
			heap_insert_free(mcfg, heap, t);
		}
		listed = false;
		heap->free_size += t->size;
		heap_note_end(mcfg, t);
	}
	if (listed)
		heap_remove_free(mcfg, heap, busy);
	heap_note_end(mcfg, busy);
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
			heap_iova_break(mcfg, msl, (uintptr_t)ms[0]->addr,
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

/*
 * Give back the whole free pages of free element @p e: pages grown for a
 * request that still did not fit.
 */
static void
heap_trim(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		struct malloc_elem *e)
{
	struct heap_range rel[HEAP_MAX_RELEASE];
	unsigned int n_rel = heap_plan_release(mcfg, heap, e, (uintptr_t)e,
			(uintptr_t)malloc_elem_end(e), rel);

	if (n_rel == 0)
		return;
	heap_remove_free(mcfg, heap, e);
	heap_release(mcfg, heap, e, rel, n_rel);
}

/* Free elements with a whole page, collected by one pass of a trim. */
#define HEAP_TRIM_BATCH 64

/*
 * Up to HEAP_TRIM_BATCH free elements of @p b that hold a whole page
 * that may go back, into @p v. The lists are only read.
 */
static unsigned int
heap_trim_collect(struct rte_mem_config *mcfg, const struct malloc_heap *heap,
		const struct malloc_bins *b, struct malloc_elem **v)
{
	struct heap_range rel[HEAP_MAX_RELEASE];
	unsigned int f, s, n = 0;
	struct malloc_elem *e;

	malloc_bins_class(b->page_sz, &f, &s);
	for (; f < MALLOC_BINS_FL_COUNT; f++, s = 0) {
		for (; s < MALLOC_BINS_SL_COUNT; s++) {
			for (e = b->head[f][s]; e != NULL; e = e->free_next) {
				if (heap_plan_release(mcfg, heap, e,
						    (uintptr_t)e,
						    (uintptr_t)malloc_elem_end(
								    e),
						    rel) == 0)
					continue;
				v[n++] = e;
				if (n == HEAP_TRIM_BATCH)
					return n;
			}
		}
	}
	return n;
}

size_t
malloc_heap_trim(struct rte_mem_config *mcfg, struct malloc_heap *heap)
{
	struct malloc_elem *v[HEAP_TRIM_BATCH];
	size_t before = heap->total_size;
	unsigned int i, j, n;

	if (!heap_shrinks(mcfg, heap))
		return 0;
	malloc_queue_drain(mcfg, heap);
	for (i = 0; i < heap->n_bins; i++) {
		/* A pass changes the lists: collect again until none is left. */
		while ((n = heap_trim_collect(mcfg, heap, &heap->bins[i], v)) >
				0) {
			size_t total = heap->total_size;

			for (j = 0; j < n; j++)
				heap_trim(mcfg, heap, v[j]);
			if (heap->total_size == total)
				break; /* lib/eal refused: do not spin */
		}
	}
	heap->keeping = 0;
	return before - heap->total_size;
}

/*
 * Give back the whole free pages beside @p e, just carved from grown
 * memory. Growth maps pages for the whole request, without counting the
 * free memory it joins, so the rest may hold a page nothing uses.
 */
static void
heap_trim_around(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		struct malloc_elem *e)
{
	if (e->next != NULL && e->next->t.state == ELEM_FREE)
		heap_trim(mcfg, heap, e->next);
	if (e->prev != NULL && e->prev->t.state == ELEM_FREE)
		heap_trim(mcfg, heap, e->prev);
}

/*
 * Grow @p heap by enough pages for @p req.
 *
 * @return the free element now holding them, or NULL.
 */
static struct malloc_elem *
heap_grow(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		const struct malloc_req *req)
{
	struct malloc_elem *added = NULL;
	size_t need = heap_need(req) + req->bound;
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
	uintptr_t d = RTE_ALIGN_CEIL(
			(uintptr_t)e + MALLOC_ELEM_HEADER_LEN, req->align);

	/* Bounds and IOVA breaks are checked from the top only. */
	if (e->next != NULL || req->bound != 0 || req->contig ||
			req->size < heap_msl(mcfg, e)->page_sz / 16)
		return;
	/* heap_carve() pads a gap too small for a free element below. */
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
	bool grow_first = malloc_trim_on(mcfg);

	*added = NULL;
	e = heap_find(mcfg, heap, req, dp);
	if (e == NULL && !grow_first && malloc_queue_pending(mcfg, heap)) {
		malloc_queue_drain(mcfg, heap);
		e = heap_find(mcfg, heap, req, dp);
	}
	if (e == NULL) {
		*added = heap_grow(mcfg, heap, req);
		if (*added != NULL) {
			e = heap_find(mcfg, heap, req, dp);
			if (e == NULL)
				heap_trim(mcfg, heap, *added);
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
 * spares above it, handed to lcore cache @p c, class @p k.
 */
static void
heap_cut_spares(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		struct malloc_elem *x, size_t stride, unsigned int n,
		struct malloc_cache *c, int k)
{
	struct malloc_elem *cur = x, *s;
	unsigned int i;

	for (i = 0; i < n; i++) {
		s = malloc_elem_split(cur, RTE_PTR_ADD(cur, stride), ELEM_BUSY);
		heap_note_end(mcfg, cur);
#ifdef RTE_MALLOC_DEBUG
		*(uint64_t *)RTE_PTR_SUB(malloc_elem_end(cur),
				MALLOC_ELEM_TRAILER_LEN) = MALLOC_TRAILER_COOKIE;
#endif
		if (cur != x)
			malloc_cache_add_spare(c, cur, k);
		cur = s;
	}
	heap_note_end(mcfg, cur);
	malloc_cache_add_spare(c, cur, k);
	heap->alloc_count += n;
}

void *
malloc_heap_alloc_fill(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		const struct malloc_req *req, bool *dirty,
		struct malloc_cache *c, int k, unsigned int max_spares)
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
	n = heap_spares_fit(mcfg, e, stride, max_spares);
	batch.size = (n + 1) * stride - MALLOC_ELEM_OVERHEAD;
	if (n != 0 && !heap_fit(mcfg, e, &batch, &d))
		n = 0;
	if (n == 0)
		heap_fit_low(mcfg, e, req, &d);
	e = heap_carve(mcfg, heap, e, n != 0 ? &batch : req, d);
	if (added != NULL)
		heap_trim_around(mcfg, heap, e);
	if (n != 0)
		heap_cut_spares(mcfg, heap, e, stride, n, c, k);
	*dirty = malloc_elem_is_dirty(e);
	malloc_heap_unlock(heap);
	return (void *)d;
}

void *
malloc_heap_alloc(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		const struct malloc_req *req, bool *dirty)
{
	return malloc_heap_alloc_fill(mcfg, heap, req, dirty, NULL, -1, 0);
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
	heap_remove_free(mcfg, heap, n);
	heap->free_size -= n->size;
	malloc_elem_join_next(e);
	malloc_asan_unpoison(n, MALLOC_ELEM_HEADER_LEN);
	if ((uintptr_t)malloc_elem_end(e) - want >= MALLOC_ELEM_MIN_LEN) {
		t = malloc_elem_split(e, (void *)want, ELEM_FREE);
		/* The rest was n's memory: as clean as n was. */
		malloc_elem_set_dirty(t, n_dirty);
		heap_insert_free(mcfg, heap, t);
		heap->free_size += t->size;
		heap_note_end(mcfg, t);
	}
	heap_note_end(mcfg, e);
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
		heap_note_end(mcfg, e);
		heap_note_end(mcfg, t);
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
		 * whose stacks were emptied (malloc_cache_forget()). Join
		 * it now.
		 */
		e->t.state = ELEM_FREE;
		e->t.flags &= ~ELEM_FLAG_SPARE;
		while (heap_rebuild_joinable(r->mcfg, e, e->next))
			malloc_elem_join_next(e);
		heap_insert_free(r->mcfg, r->heap, e);
		r->heap->free_size += e->size;
	} else if (state == ELEM_BUSY || state == ELEM_MEMZONE) {
		r->heap->alloc_count++;
	} else {
		return -1;
	}
	r->heap->total_size += e->size;
	heap_note_end(r->mcfg, e);
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
	heap->free_count = 0;
	heap->alloc_count = 0;
	rte_memseg_contig_walk_thread_unsafe(heap_rebuild_run, r);
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
