/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Lcore caches of small frees (malloc_cache.h). The owner's side is
 * written for the fewest instructions: plain loads and stores, ordered
 * for the compiler only; eal_thread_fence() on the drainer's side orders
 * them for the CPU.
 */

#include <string.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_pause.h>

#include "eal_bitmap.h"
#include "eal_memseg_list.h"
#include "eal_sys.h"
#include "malloc_asan.h"
#include "malloc_cache.h"
#include "malloc_cache_fast.h"
#include "malloc_elem.h"
#include "malloc_heap.h"
#include "malloc_queue.h"
#include "malloc_state.h"
#include "malloc_trim.h"

#define CACHE_WORDS MALLOC_CACHE_WORDS
#define CACHE_OWNER_SPINS (1u << 16) /* between looks at a busy owner */
RTE_BUILD_BUG_ON(RTE_MAX_LCORE % 64 != 0);

void
malloc_cache_init(struct rte_mem_config *mcfg)
{
	struct malloc_state *st = malloc_state_of(mcfg);
	size_t keep;
	int ret;

	/*
	 * Nothing is written per cache here: each cache's lines are its
	 * owner's, set at its first use (malloc_cache_heap()). Writing all
	 * 128 of them faulted in 64 pages of the config (on a disk file
	 * system, major faults of about 8 us each).
	 */
	ret = eal_thread_fence_register();
	if (ret < 0)
		RTE_LOG(INFO, MALLOC,
				"no lcore caches: the thread fence is not available (%s)\n",
				strerror(-ret));
	st->caches_on = ret == 0;
	/*
	 * Objects have no header: not where each allocation must keep its
	 * pages to itself, nor where debug builds check cookies.
	 */
	st->slabs_on = st->caches_on && !mcfg->match_allocations &&
			MALLOC_ELEM_TRAILER_LEN == 0;
	/*
	 * Empty slabs are memory a cache holds, as its cached blocks are:
	 * a table of 10000 256 byte objects takes 40 slabs, and releasing
	 * all but 16 each round cleared and carved 24 again in the next.
	 * One budget for all classes, in slab units: a table of 10000 4 KB
	 * objects takes 667 slabs, and an even share per class would
	 * release most of them every round. A table of what the cache may
	 * hold fits, with the slabs' metadata (a sixteenth at most): 64 MB
	 * of 64 KB objects took 69 large slabs, 1104 units, and a budget of
	 * 1024 (when a cache held 64 MB) cleared and carved 5 again every
	 * round.
	 */
	keep = malloc_cache_max_bytes(mcfg) / MALLOC_SLAB_LEN * 9 / 8;
	keep = RTE_MAX(keep, (size_t)MALLOC_SLAB_KEEP_MIN);
	st->slab_keep = (uint32_t)RTE_MIN(keep, (size_t)UINT32_MAX);
	st->slab_keep_empty = malloc_page_return(mcfg)->keep_empty_slabs ?
			st->slab_keep :
			0;
}

int
malloc_cache_attach(struct rte_mem_config *mcfg, char *err, size_t err_len)
{
	int ret;

	if (!malloc_state_of(mcfg)->caches_on)
		return 0;
	/* The primary's lcores cache: this process must take part. */
	ret = eal_thread_fence_register();
	if (ret < 0)
		snprintf(err, err_len,
				"the heap's lcore caches need the thread fence, "
				"which this process cannot use (%s)",
				strerror(-ret));
	return ret;
}

struct malloc_heap *
malloc_cache_heap(struct malloc_state *st, struct malloc_cache *c,
		unsigned int lcore)
{
	struct malloc_heap *local;

	if (c->heap_ref != 0)
		return &st->heaps[c->heap_ref - 1];
	local = malloc_heap_of_socket(st, (int)rte_socket_id());
	if (!st->caches_on || local == NULL || local->external)
		return NULL;
	malloc_heap_lock(local);
	local->cache_lcores[lcore / 64] |= UINT64_C(1) << (lcore % 64);
	malloc_heap_unlock(local);
	c->slab_keep_empty = st->slab_keep_empty;
	c->heap_ref = malloc_heap_idx(st, local) + 1;
	return local;
}

/* Spares carved for cache c's stack k by its owner. */
struct cache_spares {
	struct malloc_spares sp; /* first: a pointer to it is one to this */
	struct malloc_cache *c;
	int k;
};

/*
 * Put spare @p e on the stack: the owner is not inside the cache, and
 * holds the heap's lock, so no drainer has the cache.
 */
static void
cache_put_spare(struct malloc_spares *sp, struct malloc_elem *e)
{
	struct cache_spares *cs = (struct cache_spares *)sp;
	struct malloc_cache *c = cs->c;
	int k = cs->k;

	malloc_elem_poison_waiting(e);
	e->t.flags |= ELEM_FLAG_SPARE;
	e->free_next = c->head[k];
	c->head[k] = e;
	c->count[k]++;
	__atomic_store_n(&c->size, c->size + e->size, __ATOMIC_RELAXED);
	__atomic_store_n(&e->t.state, (uint8_t)ELEM_CACHED, __ATOMIC_RELEASE);
}

/* Allocate @p size bytes of class @p k on the heap, with spares for @p c. */
static void *
cache_refill(struct rte_mem_config *mcfg, struct malloc_cache *c,
		unsigned int lcore, size_t size, int k, bool zero, bool *tried)
{
	struct malloc_state *st = malloc_state_of(mcfg);
	struct malloc_heap *heap = malloc_cache_heap(st, c, lcore);
	/* The whole class: freed, the block comes back to this stack. */
	struct malloc_req req = {
		.user_size = size,
		.size = malloc_queue_class_data(k),
		.align = RTE_CACHE_LINE_SIZE,
	};
	size_t stride = MALLOC_ELEM_OVERHEAD + req.size;
	size_t held = __atomic_load_n(&c->size, __ATOMIC_RELAXED);
	struct cache_spares cs = {
		.sp = { .max = c->fill[k], .put = cache_put_spare },
		.c = c,
		.k = k,
	};
	unsigned int next;
	bool dirty = false;
	void *data;

	if (heap == NULL)
		return NULL;
	if (held + cs.sp.max * stride > malloc_cache_max_bytes(mcfg))
		cs.sp.max = 0;
	data = malloc_heap_alloc_fill(mcfg, heap, &req, &dirty, &cs.sp);
	if (data == NULL) {
		*tried = true;
		return NULL;
	}
	/* Twice as many next time, as a run of allocations goes on. */
	next = 2 * c->fill[k] + 1;
	c->fill[k] = (uint8_t)RTE_MIN(next, MALLOC_CACHE_FILL_BYTES / stride);
	if (zero && dirty)
		malloc_cache_zero(c, data, size);
	return data;
}

void *
malloc_cache_alloc(struct rte_mem_config *mcfg, size_t size, bool zero,
		bool *tried)
{
	struct malloc_state *st = malloc_state_of(mcfg);
	unsigned int lcore = malloc_cache_lcore();
	struct malloc_cache *c;
	bool claimed;
	void *data;
	int k;

	k = malloc_queue_class_for(RTE_CACHE_LINE_ROUNDUP(size));
	if (lcore >= RTE_MAX_LCORE || k < 0)
		return NULL;
	c = &st->caches[lcore];
	data = malloc_cache_alloc_hit(c, k, size, zero, &claimed);
	if (data != NULL || claimed)
		return data;
	return cache_refill(mcfg, c, lcore, size, k, zero, tried);
}

/*
 * Make memseg list @p msl_idx the one whose elements cache @p c checks
 * quickly. The caller has bound c to its heap.
 */
static void
cache_use_list(const struct rte_mem_config *mcfg, struct malloc_cache *c,
		unsigned int msl_idx)
{
	const struct rte_memseg_list *msl = &mcfg->memsegs[msl_idx];

	c->msl_idx = msl_idx;
	c->msl_base = (uintptr_t)msl->base_va;
	c->msl_len = msl->len;
	c->msl_used_off = msl->used_off;
	c->page_shift = (uint32_t)__builtin_ctzll(msl->page_sz);
	c->page_mask = ~(uintptr_t)(msl->page_sz - 1);
	c->tail = malloc_cache_tail(0, (uint8_t)msl_idx,
			(uint8_t)malloc_cache_heap_idx(c), 0, ELEM_BUSY);
}

/*
 * Push @p e into full cache @p c if it is full mostly of other sizes,
 * which a thread that moved on to another size no longer asks for: drain
 * the heap (this cache with it) and push again. A cache full of @p e's
 * own size refuses it: the thread holds more blocks than a cache keeps,
 * and draining would only send the next round to the heap.
 */
__rte_noinline bool
malloc_cache_flush_push(struct rte_mem_config *mcfg, struct malloc_cache *c,
		struct malloc_elem *e, int k)
{
	struct malloc_heap *heap;

	if ((size_t)c->count[k] * malloc_queue_class_data(k) >= c->size / 2)
		return false;
	heap = &malloc_state_of(mcfg)->heaps[malloc_cache_heap_idx(c)];
	malloc_heap_lock(heap);
	malloc_queue_drain(mcfg, heap);
	malloc_heap_unlock(heap);
	return malloc_cache_push(mcfg, c, e, k) == MALLOC_CACHE_PUSHED;
}

bool
malloc_cache_put(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		struct malloc_elem *e)
{
	struct malloc_state *st = malloc_state_of(mcfg);
	unsigned int lcore = malloc_cache_lcore();
	int k = malloc_queue_class(e->size);
	struct malloc_cache *c;

	if (lcore >= RTE_MAX_LCORE || k < 0)
		return false;
	c = &st->caches[lcore];
	/* A cache serves its lcore's node; others free to their heap. */
	if (malloc_cache_heap(st, c, lcore) != heap)
		return false;
	/* The next free is likely on the same list: check that one first. */
	if (c->msl_base == 0 || c->msl_idx != e->t.msl_idx)
		cache_use_list(mcfg, c, e->t.msl_idx);
	/* e is validated: only what the cache adds is checked. */
	if (malloc_cache_elem_head(mcfg, c, malloc_elem_data(e)) == e &&
			malloc_cache_elem_fits(mcfg, c, e, &k) &&
			malloc_cache_push_flush(mcfg, c, e, k))
		return true;
	malloc_cache_refused(c, k);
	return false;
}

/* The first lcore at or after @p l in mask @p m, or RTE_MAX_LCORE. */
static inline unsigned int
cache_next(const uint64_t *m, unsigned int l)
{
	unsigned int w = l / 64;
	uint64_t bits;

	if (l >= RTE_MAX_LCORE)
		return RTE_MAX_LCORE;
	bits = m[w] & (UINT64_MAX << (l % 64));
	while (bits == 0 && ++w < CACHE_WORDS)
		bits = m[w];
	return bits == 0 ? RTE_MAX_LCORE :
			   w * 64 + (unsigned int)__builtin_ctzll(bits);
}

/*
 * @return true if cache @p c holds elements, or slabs a drain may give
 * back: busy slabs are no reason to stop their owner.
 */
static inline bool
cache_holds(const struct malloc_cache *c)
{
	return __atomic_load_n(&c->size, __ATOMIC_RELAXED) != 0 ||
			__atomic_load_n(&c->slab_remote, __ATOMIC_RELAXED) !=
			0 ||
			__atomic_load_n(&c->slab_idle, __ATOMIC_RELAXED) != 0 ||
			__atomic_load_n(&c->held_n, __ATOMIC_RELAXED) != 0;
}

/* Each lcore @p l of mask @p m. */
#define CACHE_FOREACH(m, l) \
	for (l = cache_next(m, 0); l < RTE_MAX_LCORE; l = cache_next(m, l + 1))

uint64_t
malloc_lcore_activity(const struct rte_mem_config *mcfg,
		const struct malloc_heap *heap)
{
	const struct malloc_state *st = malloc_state_of(mcfg);
	uint64_t sum = 0;
	unsigned int l;

	CACHE_FOREACH(heap->cache_lcores, l)
	sum += __atomic_load_n(&st->caches[l].ops, __ATOMIC_RELAXED);
	return sum;
}

bool
malloc_lcore_pending(const struct rte_mem_config *mcfg,
		const struct malloc_heap *heap)
{
	const struct malloc_state *st = malloc_state_of(mcfg);
	unsigned int l;

	CACHE_FOREACH(heap->cache_lcores, l)
	if (cache_holds(&st->caches[l]))
		return true;
	return false;
}

/*
 * Wait until the owner of cache @p c (lcore @p l) is out of it. An owner
 * process that died inside a cache operation left it busy: its cache is
 * taken as it is (an element it was moving may be lost, a leak).
 */
static void
cache_wait_idle(struct rte_mem_config *mcfg, struct malloc_cache *c,
		unsigned int l)
{
	unsigned int spins = 0;
	uint64_t owner;

	while (__atomic_load_n(&c->busy, __ATOMIC_ACQUIRE)) {
		if (++spins < CACHE_OWNER_SPINS) {
			rte_pause();
			continue;
		}
		spins = 0;
		owner = __atomic_load_n(
				&mcfg->lcore_owner[l], __ATOMIC_ACQUIRE);
		if (owner == 0 || eal_proc_alive(owner))
			continue;
		RTE_LOG(WARNING, MALLOC,
				"the process of lcore %u died inside its cache: "
				"the cache is taken as it is\n",
				l);
		__atomic_store_n(&c->busy, 0, __ATOMIC_RELEASE);
	}
}

/*
 * malloc_cache_take(), or with @p all every cache of @p heap, whether it
 * holds anything or not (no fence when the caller's is the only one).
 */
static bool
cache_take(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		uint64_t *taken, bool all)
{
	struct malloc_state *st = malloc_state_of(mcfg);
	unsigned int self = malloc_cache_lcore(), l;
	bool others = false, alone = true, fenced;

	CACHE_FOREACH(heap->cache_lcores, l)
	{
		/*
		 * The caller's own count of another lcore's objects goes to
		 * that lcore's slab: its cache must be swept too.
		 */
		if (l == self) {
			if (__atomic_load_n(&st->caches[l].held_n,
					    __ATOMIC_RELAXED) != 0)
				others = true;
			continue;
		}
		alone = false;
		if (all || cache_holds(&st->caches[l]))
			others = true;
	}
	/*
	 * If another cache holds elements, claim every cache of the heap,
	 * even empty ones, then fence once: each owner has then either seen
	 * its claim or is seen busy, and none caches anything until the
	 * drain is over. Else take only the caller's own, which it is not
	 * using: it is here.
	 */
	CACHE_FOREACH(heap->cache_lcores, l)
	{
		if (l != self && !others)
			continue;
		taken[l / 64] |= UINT64_C(1) << (l % 64);
		if (l != self)
			__atomic_store_n(&st->caches[l].claim, 1,
					__ATOMIC_RELAXED);
	}
	fenced = !others || eal_thread_fence() == 0;
	CACHE_FOREACH(taken, l)
	{
		struct malloc_cache *c = &st->caches[l];

		if (l == self)
			continue;
		if (!fenced) {
			/* Without the fence, another owner's cache is not safe. */
			__atomic_store_n(&c->claim, 0, __ATOMIC_RELEASE);
			taken[l / 64] &= ~(UINT64_C(1) << (l % 64));
			continue;
		}
		cache_wait_idle(mcfg, c, l);
	}
	if (!fenced)
		RTE_LOG(ERR, MALLOC,
				"thread fence failed: other lcores' caches stay\n");
	return others ? fenced : alone;
}

bool
malloc_cache_take(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		uint64_t *taken)
{
	return cache_take(mcfg, heap, taken, false);
}

void
malloc_cache_take_all(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		uint64_t *taken)
{
	cache_take(mcfg, heap, taken, true);
}

void
malloc_cache_drain(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		const uint64_t *taken, bool cached, struct malloc_elem **runs,
		struct malloc_slab **empty)
{
	struct malloc_state *st = malloc_state_of(mcfg);
	struct malloc_elem *e;
	unsigned int l;
	int k;

	/*
	 * Without the other caches, cached elements must not join: the
	 * taken ones are queued ones now. All of them before any walk, or
	 * a run would stop at one not relabelled yet, next to another run.
	 */
	CACHE_FOREACH(taken, l)
	for (k = 0; !cached && k < MALLOC_QUEUE_CLASSES; k++)
		for (e = st->caches[l].head[k]; e != NULL; e = e->free_next)
			e->t.state = ELEM_QUEUED;
	/* Objects held for a slab before any sweep of its owner. */
	CACHE_FOREACH(taken, l)
	malloc_slab_flush_held(mcfg, &st->caches[l]);
	CACHE_FOREACH(taken, l)
	{
		struct malloc_cache *c = &st->caches[l];

		/* A drain next to a freed block may find a few in one class. */
		for (k = 0; k < MALLOC_QUEUE_CLASSES; k++) {
			if (c->head[k] == NULL)
				continue;
			malloc_heap_drain_list(
					mcfg, heap, c->head[k], cached, runs);
			c->head[k] = NULL;
			c->count[k] = 0;
		}
		__atomic_store_n(&c->size, 0, __ATOMIC_RELAXED);
		malloc_slab_sweep(mcfg, heap, c, empty);
	}
}

void
malloc_cache_give_back(struct rte_mem_config *mcfg, const uint64_t *taken)
{
	struct malloc_state *st = malloc_state_of(mcfg);
	unsigned int l;

	CACHE_FOREACH(taken, l)
	__atomic_store_n(&st->caches[l].claim, 0, __ATOMIC_RELEASE);
}

void
malloc_cache_forget(struct rte_mem_config *mcfg, const uint64_t *taken)
{
	struct malloc_state *st = malloc_state_of(mcfg);
	unsigned int l;

	CACHE_FOREACH(taken, l)
	{
		struct malloc_cache *c = &st->caches[l];

		memset(c->head, 0, sizeof(c->head));
		memset(c->count, 0, sizeof(c->count));
		__atomic_store_n(&c->size, 0, __ATOMIC_RELAXED);
		/* Held objects stay out of use: their count may be stale. */
		c->held_slab = NULL;
		__atomic_store_n(&c->held_n, 0, __ATOMIC_RELAXED);
	}
}
