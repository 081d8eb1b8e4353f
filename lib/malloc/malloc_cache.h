/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _MALLOC_CACHE_H_
#define _MALLOC_CACHE_H_

/*
 * Lcore caches of frees up to MALLOC_QUEUE_MAX_DATA, by size class. The heap queue (malloc_queue.h) makes a
 * small free cheap, but it still takes the heap lock: an atomic exchange
 * that alone costs about what the C library's whole free does. So each
 * lcore keeps its own stacks of small freed elements of its node's heap,
 * used by that lcore's thread without any lock or atomic instruction:
 * rte_free() of a block of a queued size pushes it there, rte_malloc()
 * of such a size pops it.
 *
 * A cached element is in state ELEM_CACHED. Like a queued one it is still
 * counted as allocated, is not an allocation (freeing or validating it
 * again fails) and is not joined. Everything that drains the heap queue
 * (statistics, dumps, the largest free block, an allocation or growth
 * that found no room, a free next to a cached element on a page that
 * could go back) first takes every cache holding elements of the heap,
 * whichever thread owns it, and frees those too; so the heap's figures
 * are exact and no cached memory is out of reach.
 *
 * Taking a cache from its owner: the owner marks itself busy with a
 * plain store, then reads the cache's claim flag, and keeps off the
 * cache if it is set. A drainer, holding the heap lock, sets the claim,
 * runs eal_thread_fence() so that each owner either sees the claim or
 * shows it is busy, waits until it is not, and empties the cache. The
 * owner pays two plain stores and a load; the drainer a system call.
 * When another lcore's cache holds elements, the drainer claims every
 * cache of the heap until it is done, empty ones too: then no element
 * is cached behind its back, and it joins cached elements where it
 * finds them, without moving them to the queue first.
 *
 * A free is cached only when neither neighbour is free, as the queue
 * requires, or when heaps keep free pages anyway (malloc_trim.h); its
 * pages and the neighbours' headers are read only once the memseg list's
 * bitmap says they are mapped. A neighbour freed while the
 * element is being cached may see it busy and not drain it: that page
 * then stays until the next drain.
 *
 * Spares: an allocation of a queued size that finds its stack empty
 * takes the heap lock anyway, so it carves a few more elements of that
 * size right above its own, out of the same free element, and puts them
 * on the stack (state ELEM_CACHED, flag ELEM_FLAG_SPARE: they hold no
 * user's bytes, so rte_zmalloc() clears them only if their memory is
 * dirty). A run of allocations then takes the lock once per batch. The
 * allocation itself is the lowest element of the batch, so no spare
 * touches free memory: freeing the allocation joins it there and drains
 * the spares if their page could go back. Batches start at none and
 * double at each miss, up to MALLOC_CACHE_FILL_BYTES; a free of that
 * size that the cache refuses (a neighbour is free) starts them over, so
 * a block allocated and freed in turn next to free memory never carves
 * spares only to drain them again.
 *
 * The owner of cache i is the thread of lcore i: threads without an
 * lcore id use the heap queue, and external heaps free at once. At most
 * malloc_cache_max_bytes() wait in a cache.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <rte_common.h>
#include <rte_lcore.h>

#include "eal_lcore.h"
#include "eal_memcfg.h"
#include "malloc_lcore.h"
#include "malloc_queue.h"
#include "malloc_slab.h"

struct malloc_elem;
struct malloc_heap;
struct rte_mem_config;

/*
 * Bytes of elements a cache holds at most when heaps keep no free pages
 * (--malloc-retain=0); else what a heap keeps, if more.
 */
#define MALLOC_CACHE_MIN_BYTES ((size_t)2 << 20)
/* Words of a mask with a bit per lcore. */
#define MALLOC_CACHE_WORDS MALLOC_LCORE_WORDS
/* Bytes of spares one allocation carves for its cache at most. */
#define MALLOC_CACHE_FILL_BYTES 4096
/*
 * The alignment, and so the stride, of the caches: a power of two, so
 * that a cache is found by a shift of its lcore id (at 1152 bytes it
 * took a multiply more). The fast paths keep the calling thread's cache
 * in a memo since (malloc_cache_mine()); the slow paths and the drains
 * still index the caches.
 */
#define MALLOC_CACHE_ALIGN 2048

struct malloc_cache {
	uint32_t busy; /* the owner is inside a cache operation */
	uint32_t claim; /* a drainer takes the cache: the owner keeps off */
	/*
	 * Heap of its elements plus one, 0 before the first
	 * (malloc_cache_heap_idx()): a new config's zeros, which init does
	 * not write for every cache.
	 */
	uint32_t heap_ref;
	size_t size; /* bytes held: 0 when empty */
	/*
	 * The memseg list of the last element put, whose figures every free
	 * reads: copied here, they share the cache's lines.
	 */
	uint32_t msl_idx; /* its index */
	uint32_t page_shift; /* log2 of its page size */
	uintptr_t msl_base; /* its first address; 0: no list yet */
	uintptr_t page_mask; /* the bits of an address that name its page */
	size_t msl_len; /* bytes of its range */
	uint64_t msl_used_off; /* its occupancy bitmap, config offset */
	uint64_t tail; /* the tail of its busy elements, flags 0, no pad */
	struct malloc_elem *head[MALLOC_QUEUE_CLASSES]; /* stack per size */
	uint32_t count[MALLOC_QUEUE_CLASSES]; /* elements on each stack */
	/* Blocks taken and put by the owner: the trim thread reads it. */
	uint64_t ops;
	uint8_t fill[MALLOC_QUEUE_CLASSES]; /* spares to carve at a miss */
	/* Slabs (malloc_slab.h): with free objects, and full ones. */
	struct malloc_slab *slabs[MALLOC_SLAB_CLASSES];
	/*
	 * The memseg list of the newest slab, where the owner's frees look
	 * first (malloc_slab_free_owned()): its first address, 0 before the
	 * first slab, its length and its slab marks (config offset).
	 */
	uintptr_t slab_msl_base;
	size_t slab_msl_len;
	uint64_t slab_map_off;
	struct malloc_slab *full[MALLOC_SLAB_CLASSES];
	/*
	 * Empty slabs kept, by kind: any class of the kind takes one before
	 * it makes a slab (a thread that moves from one size to another
	 * reuses the slabs the last one emptied).
	 */
	struct malloc_slab *idle[MALLOC_SLAB_KINDS];
	uint32_t slab_n[MALLOC_SLAB_CLASSES]; /* slabs owned */
	uint32_t slab_total; /* slab units owned, all classes */
	/*
	 * Slab units up to which the owner's free keeps a slab it empties
	 * without a call (malloc_slab_keeps_empty()): the state's slab_keep
	 * where empty slabs are kept, else 0. A copy on this line: reading
	 * the strategy and the state's budget at every free of a pair took
	 * four loads of three other lines.
	 */
	uint32_t slab_keep_empty;
	/*
	 * Work for a drain (malloc_slab_sweep()), set without the claim:
	 * slab_remote, 1 when another thread freed onto a slab, and
	 * slab_idle, 1 when an empty slab was kept. Other lcores set the
	 * first, on a line of its own: next to what the owner writes as it
	 * frees, it moved between the CPUs at every hand-over of remote
	 * frees (64 byte objects freed by another lcore took 9.7-16.3 ns,
	 * 9.2-9.9 since).
	 */
	uint32_t slab_remote __rte_cache_aligned;
	uint32_t slab_idle __rte_cache_aligned;
	/*
	 * Objects of another lcore's slab that this lcore freed (marked
	 * REMOTE) and has not counted yet, to count them in one go
	 * (malloc_slab_free_other()).
	 */
	struct malloc_slab *held_slab; /* their slab, or NULL */
	uint32_t held_n; /* how many: drainers read it */
	/*
	 * Bytes rte_zmalloc() cleared in blocks of this cache's heap that
	 * the owner took from the cache or its slabs: added to the heap's
	 * count when its statistics are read (malloc_cache_zero()).
	 */
	uint64_t cleared;
} __rte_aligned(MALLOC_CACHE_ALIGN);

/* The heap of @p c's elements, or -1 before the first. */
static inline int32_t
malloc_cache_heap_idx(const struct malloc_cache *c)
{
	return (int32_t)c->heap_ref - 1;
}

/*
 * The lcore whose cache and slabs the calling thread may use: its own,
 * or RTE_MAX_LCORE for a thread that is no lcore, and for an lcore id
 * that another process of the prefix uses too (its cache is that
 * process's).
 */
static inline unsigned int
malloc_cache_lcore(void)
{
	return RTE_PER_LCORE(eal_lcore_own);
}

/*
 * Bytes of elements a cache may hold: as much as a heap keeps
 * (--malloc-retain), so that a thread freeing a table of blocks and
 * allocating it again finds them in its cache, at least
 * MALLOC_CACHE_MIN_BYTES. A quarter of it made a table of 10000 64 KB
 * objects (malloc_perf_autotest's) release and clear most of its slabs
 * every round. Cached memory is not free memory to the heap: the trim
 * thread drains caches like the pages the heap keeps (malloc_trim.h).
 */
static inline size_t
malloc_cache_max_bytes(const struct rte_mem_config *mcfg)
{
	return RTE_MAX(MALLOC_CACHE_MIN_BYTES, (size_t)mcfg->malloc_retain);
}

/*
 * Set the caches of @p mcfg up, or leave them off if the system cannot
 * stop their owners (then every small free uses the heap queue).
 */
void malloc_cache_init(struct rte_mem_config *mcfg);

/*
 * Take part in the caches of @p mcfg, set up by the primary process: a
 * secondary's lcores cache too, and its drains stop the caches of every
 * process.
 *
 * @return 0, or a negative errno with one line in @p err.
 */
int malloc_cache_attach(struct rte_mem_config *mcfg, char *err, size_t err_len);

/*
 * Enter the cache as its owner. @return false if a drainer has it; the
 * caller then keeps off.
 */
static inline bool
malloc_cache_enter(struct malloc_cache *c)
{
	__atomic_store_n(&c->busy, 1, __ATOMIC_RELAXED);
	/*
	 * The CPU may still let the load pass the store: the drainer's
	 * thread fence is what orders them. The compiler must not.
	 */
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (__atomic_load_n(&c->claim, __ATOMIC_ACQUIRE) == 0)
		return true;
	__atomic_store_n(&c->busy, 0, __ATOMIC_RELEASE);
	return false;
}

static inline void
malloc_cache_leave(struct malloc_cache *c)
{
	__atomic_store_n(&c->busy, 0, __ATOMIC_RELEASE);
}

/*
 * Clear @p len bytes at @p data, a block of cache @p c's heap handed out
 * by the calling lcore, its owner, and count them. A count per cache: a
 * locked add to the heap's counter right after the memset would wait for
 * every store of the memset to reach the cache (a 1 KB block cleared that
 * way took 150 ns in all, 128 without it), and all lcores would write
 * the heap's line.
 */
static inline void
malloc_cache_zero(struct malloc_cache *c, void *data, size_t len)
{
	memset(data, 0, len);
	__atomic_store_n(&c->cleared, c->cleared + len, __ATOMIC_RELAXED);
}

/*
 * Take an element of class @p k from cache @p c, the calling lcore's,
 * marking it busy and setting *@p dirty if its memory may be. Inline:
 * rte_malloc() serves a cached block without a call.
 *
 * @return the element, or NULL if the stack is empty, or if a drainer
 *   has the cache: then *@p claimed is set, and the cache must not be
 *   touched (no refill).
 */
static inline struct malloc_elem *
malloc_cache_pop(struct malloc_cache *c, int k, bool *dirty, bool *claimed)
{
	struct malloc_elem *e;

	*claimed = !malloc_cache_enter(c);
	if (unlikely(*claimed))
		return NULL;
	e = c->head[k];
	if (likely(e != NULL)) {
		c->head[k] = e->free_next;
		c->count[k]--;
		__atomic_store_n(&c->ops, c->ops + 1, __ATOMIC_RELAXED);
		__atomic_store_n(&c->size, c->size - e->size, __ATOMIC_RELAXED);
		e->free_next = NULL;
		*dirty = malloc_elem_take_waiting(e);
		__atomic_store_n(&e->t.state, (uint8_t)ELEM_BUSY,
				__ATOMIC_RELAXED);
	}
	malloc_cache_leave(c);
	return e;
}

/*
 * Hand out a block of class @p k for @p size bytes from cache @p c, the
 * calling lcore's, clearing them if @p zero and they may be dirty: the
 * hit of malloc_cache_alloc(), which rte_malloc() also makes inline.
 *
 * @return the data, or NULL as malloc_cache_pop() says.
 */
static inline void *
malloc_cache_alloc_hit(struct malloc_cache *c, int k, size_t size, bool zero,
		bool *claimed)
{
	bool dirty = false;
	struct malloc_elem *e = malloc_cache_pop(c, k, &dirty, claimed);
	void *data;

	if (e == NULL)
		return NULL;
	data = RTE_PTR_ADD(e, MALLOC_ELEM_HEADER_LEN);
	malloc_asan_unpoison(data, size);
	if (zero && dirty)
		malloc_cache_zero(c, data, size);
	return data;
}

struct malloc_state;

/*
 * The heap of cache @p c of @p lcore: the lcore's node's, given to the
 * cache at its first use. NULL if the cache cannot be used.
 */
struct malloc_heap *malloc_cache_heap(struct malloc_state *st,
		struct malloc_cache *c, unsigned int lcore);

/*
 * Serve an allocation of @p size bytes (no alignment beyond a cache line,
 * any node or the caller's) from the calling lcore's cache, clearing
 * the bytes if @p zero and they may be dirty. No lock is taken, unless
 * the cache has no element of that size: then the allocation is made on
 * the cache's heap, with spares for the cache.
 *
 * @param tried
 *   Set to true if the cache's heap (the lcore's node's) had no room.
 * @return the data, or NULL.
 */
void *malloc_cache_alloc(struct rte_mem_config *mcfg, size_t size, bool zero,
		bool *tried);

/*
 * Put busy element @p e of @p heap, already validated, in the calling
 * lcore's cache instead of freeing it. No lock is taken, except the
 * first time an lcore's cache is given its heap.
 *
 * @return true if cached, false if the caller must free it.
 */
bool malloc_cache_put(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		struct malloc_elem *e);

/*
 * Take the caches that may hold elements of @p heap from their owners,
 * for a drain, and set their lcores in @p taken (MALLOC_CACHE_WORDS
 * words, zero on entry). They stay claimed, their owners keeping off,
 * until malloc_cache_give_back(). The caller holds the heap lock.
 *
 * @return true if no element of the heap can be cached but in a taken
 *   cache until then: the drain may join cached elements it meets.
 */
bool malloc_cache_take(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		uint64_t *taken);

/*
 * Take every cache of @p heap from its owner, as malloc_cache_take()
 * does, those holding nothing too, to read what they hold; give them
 * back with malloc_cache_give_back(). The caller holds the heap lock.
 * Without a thread fence only the caller's own is taken.
 */
void malloc_cache_take_all(struct rte_mem_config *mcfg,
		struct malloc_heap *heap, uint64_t *taken);

/*
 * Mark the runs around the elements of the caches in @p taken, as
 * malloc_heap_drain_list() does, and empty those caches. @p cached is
 * what malloc_cache_take() returned. The caller holds the heap lock.
 */
void malloc_cache_drain(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		const uint64_t *taken, bool cached, struct malloc_elem **runs,
		struct malloc_slab **empty);

/* Give the caches in @p taken back to their owners, empty. */
void malloc_cache_give_back(struct rte_mem_config *mcfg, const uint64_t *taken);

/*
 * Empty the stacks of the caches in @p taken without freeing what they
 * held, after a process died inside a heap operation: they may name
 * elements a drain had half dealt with. Their elements stay CACHED, for
 * malloc_heap_rebuild() to free; the slab objects they held back for
 * other lcores stay out of use (a leak, as their count may be stale).
 * The caller holds the heap lock and the caches (malloc_cache_take()).
 */
void malloc_cache_forget(struct rte_mem_config *mcfg, const uint64_t *taken);

#endif /* _MALLOC_CACHE_H_ */
