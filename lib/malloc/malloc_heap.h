/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _MALLOC_HEAP_H_
#define _MALLOC_HEAP_H_

/*
 * Heaps: one per NUMA node with memory, plus external heaps. A heap owns
 * the elements of its memseg lists and a set of free lists per page size.
 * It grows by asking lib/eal for pages and shrinks by giving whole free
 * pages back.
 *
 * All of it lives in the shared memory config (malloc_state.h): no
 * pointer into the config itself, only into heap memory, which every
 * process maps at the same address.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <rte_config.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_spinlock.h>

#include "eal_memcfg.h"
#include "eal_mplock.h"
#include "malloc_bins.h"
#include "malloc_memzone.h"
#include "malloc_queue.h"

#define MALLOC_MAX_PAGE_SIZES 4
/* Socket ids of external heaps start here, as in DPDK. */
#define MALLOC_EXTERNAL_SOCKET_BASE 256

struct malloc_heap {
	struct eal_mplock lock; /* guards everything below and the elements;
				 * a process that dies holding it cannot
				 * keep it (malloc_heap_lock()) */
	uint8_t in_use; /* 1: this entry is a heap */
	uint8_t broken; /* 1: found damaged after a process died holding
			 * the lock: nothing is handed out any more */
	uint8_t external; /* 1: memory added by the application */
	int socket_id; /* NUMA node, or external heap id */
	char name[RTE_HEAP_NAME_MAX_LEN]; /* "socket_<n>" or the given name */
	size_t total_size; /* bytes of memory in the heap */
	size_t free_size; /* bytes in free elements */
	unsigned int alloc_count; /* busy elements */
	unsigned int free_count; /* free elements */
	uint64_t cleared_on_free; /* bytes cleared by frees */
	uint64_t cleared_on_zmalloc; /* bytes cleared by rte_zmalloc() */
	size_t pinned_size; /* bytes of pages that never go back (-m) */
	uint8_t keeping; /* 1: a free kept whole pages since the last trim */
	uint64_t keep_ns; /* when a free last kept pages (CLOCK_MONOTONIC) */
	uint64_t trim_activity; /* malloc_lcore_activity() at the last look */
	uint64_t look_ns; /* when the trim thread last looked at it */
	/*
	 * The least free_size since low_ns: so much stayed free, and no
	 * allocation needed it (malloc_heap_note_low()).
	 */
	size_t free_low;
	uint64_t low_ns; /* when free_low was last set to free_size */
	unsigned int n_bins; /* bins[] entries in use */
	struct malloc_bins bins[MALLOC_MAX_PAGE_SIZES]; /* per page size */
	/* Small frees not joined yet, per size (malloc_queue.h). */
	struct malloc_elem *queue[MALLOC_QUEUE_CLASSES];
	size_t queued_size; /* bytes of queued elements */
	unsigned int queued_count; /* queued elements, in alloc_count */
	/* Lcores whose cache holds this heap's elements (malloc_lcore.h). */
	uint64_t cache_lcores[RTE_MAX_LCORE / 64];
};

/* An allocation request on a heap. */
struct malloc_req {
	size_t user_size; /* bytes the caller asked for */
	size_t size; /* the same, rounded up to a cache line */
	size_t align; /* power of two, at least a cache line */
	/*
	 * The data goes this far past an aligned address: with the header's
	 * length, the element itself is aligned (slabs). 0 for most.
	 */
	size_t align_off;
	size_t bound; /* power of two >= size, or 0 */
	bool contig; /* contiguous in IOVA */
	const uint64_t *page_sz; /* acceptable page sizes; NULL: any */
	unsigned int n_page_sz; /* entries in page_sz */
};

/* @return true if memory of @p page_sz may serve @p req. */
static inline bool
malloc_req_page_ok(const struct malloc_req *req, uint64_t page_sz)
{
	unsigned int i;

	if (req->page_sz == NULL)
		return true;
	for (i = 0; i < req->n_page_sz; i++)
		if (req->page_sz[i] == page_sz)
			return true;
	return false;
}

/*
 * Rebuild @p heap's free lists, queues and counters from its elements,
 * after a process died inside an operation on it: free and queued
 * elements are joined with their free neighbours and listed, the others
 * counted as allocated. The caller holds the lock.
 *
 * @return 0, or -1 if the elements themselves do not link up (the heap
 *   cannot be rebuilt from them).
 */
int malloc_heap_rebuild(struct rte_mem_config *mcfg, struct malloc_heap *heap);

/*
 * Check @p heap after its lock was taken over from a process that died
 * holding it (malloc_check.c): a sound heap goes on, a damaged one is
 * rebuilt from its elements and checked again; one that cannot be is
 * marked broken, with an error in the log, and hands nothing out any
 * more. The caller holds the lock.
 */
void malloc_heap_recover(struct malloc_heap *heap);

/*
 * Take @p heap's lock. One that a dead process held is taken over, and
 * the heap checked before anything else touches it.
 */
static inline void
malloc_heap_lock(struct malloc_heap *heap)
{
	if (unlikely(eal_mplock_lock(&heap->lock, eal_mplock_self) != 0))
		malloc_heap_recover(heap);
}

static inline void
malloc_heap_unlock(struct malloc_heap *heap)
{
	eal_mplock_unlock(&heap->lock);
}

/*
 * Clear @p len bytes at @p data, which rte_zmalloc() hands out of
 * @p heap and may be dirty, and count them. No lock is needed.
 */
static inline void
malloc_heap_zero(struct malloc_heap *heap, void *data, size_t len)
{
	memset(data, 0, len);
	__atomic_fetch_add(&heap->cleared_on_zmalloc, len, __ATOMIC_RELAXED);
}

/*
 * Why the calling thread's last failed heap growth failed, for the log
 * line of a failed allocation, and forget it: "" if none failed since
 * the last call. Keeps the allocation path free of the bookkeeping.
 */
const char *malloc_heap_grow_failure(void);

/*
 * Allocate on @p heap, growing it if it may.
 *
 * @param dirty
 *   Set to whether the memory handed out may hold non-zero bytes.
 * @return the data pointer, or NULL.
 */
void *malloc_heap_alloc(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		const struct malloc_req *req, bool *dirty);

/*
 * Where malloc_heap_alloc_fill() puts the spares it carves: up to @p max
 * busy elements of the allocation's size, each handed to @p put while
 * the heap's lock is held (so no drain runs meanwhile). The caller embeds
 * it in what @p put needs.
 */
struct malloc_spares {
	unsigned int max;
	void (*put)(struct malloc_spares *sp, struct malloc_elem *e);
};

/*
 * As malloc_heap_alloc() for a small @p req (no alignment beyond a cache
 * line), and carve up to @p sp->max more elements of the same size right
 * above the allocation, out of the same free element (never growing the
 * heap for them), for @p sp->put. With @p sp NULL, this is
 * malloc_heap_alloc().
 */
void *malloc_heap_alloc_fill(struct rte_mem_config *mcfg,
		struct malloc_heap *heap, const struct malloc_req *req,
		bool *dirty, struct malloc_spares *sp);

/*
 * Give the allocation at @p data (checked with malloc_heap_elem_of())
 * back to @p heap: join, clear if the result is clean, return whole free
 * pages to lib/eal.
 *
 * @return 0, or -EINVAL if the element's neighbours, checked under the
 *   lock, say it is not a live allocation (nothing changes then).
 */
int malloc_heap_free(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		void *data);

/*
 * Free busy element @p e of @p heap now, without queueing; the caller
 * holds the heap lock. If the freed memory ends next to a queued element
 * whose page could go back to lib/eal, the queue is drained too.
 */
void malloc_heap_free_locked(struct rte_mem_config *mcfg,
		struct malloc_heap *heap, struct malloc_elem *e);

/*
 * Free the allocation at @p data, of which only the bytes below
 * @p used_end may be non-zero (a slab's objects never handed out are
 * not): a clean heap clears no more.
 * The caller holds the heap lock.
 */
void malloc_heap_free_used(struct rte_mem_config *mcfg,
		struct malloc_heap *heap, void *data, uintptr_t used_end);

/*
 * @return true if the page where the data of busy element @p e of
 * @p heap starts could go back to lib/eal once free: the heap shrinks,
 * does not keep free pages at the moment (malloc_trim.h) and -m does
 * not pin the page. Needs no lock.
 */
bool malloc_heap_page_may_go(struct rte_mem_config *mcfg,
		const struct malloc_heap *heap, const struct malloc_elem *e);

/*
 * First step of a drain: mark the run of freed elements around each
 * waiting element of @p list (linked through free_next), take them off
 * their free lists and count the waiting ones as freed. Cached elements
 * join only if @p cached: the drain has taken their caches. Each run's
 * first element goes on *@p runs, linked through free_prev. The elements
 * stay in memory as they are until malloc_heap_drain_runs(). The caller
 * holds the heap lock.
 */
void malloc_heap_drain_list(struct rte_mem_config *mcfg,
		struct malloc_heap *heap, struct malloc_elem *list, bool cached,
		struct malloc_elem **runs);

/*
 * Second step of a drain: make each marked run of @p runs one free
 * element, clear it and give its whole free pages back. The result is
 * what freeing the waiting elements one by one would give. The caller
 * holds the heap lock.
 */
void malloc_heap_drain_runs(struct rte_mem_config *mcfg,
		struct malloc_heap *heap, struct malloc_elem *runs);

/*
 * Resize the allocation at @p data in place to @p size bytes (rounded).
 *
 * @return true if done, false if the memory after it is not free enough.
 */
bool malloc_heap_resize(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		void *data, size_t size);

/*
 * Find the heap and header of an allocation the application passed in,
 * rejecting anything that is not the data pointer of a busy element. Only
 * what another thread cannot change is checked here; the caller checks
 * the rest with malloc_heap_elem_linked() under the heap lock.
 *
 * @return the header, or NULL.
 */
struct malloc_elem *malloc_heap_elem_of(struct rte_mem_config *mcfg,
		const void *data, struct malloc_heap **heap);

/* As malloc_heap_elem_of() for the memory of a memzone. */
struct malloc_elem *malloc_heap_memzone_elem_of(struct rte_mem_config *mcfg,
		const void *data, struct malloc_heap **heap);

/*
 * Make the busy element at @p data a memzone's (@p memzone) or an
 * allocation again, under @p heap's lock.
 */
void malloc_heap_set_memzone(
		struct malloc_heap *heap, void *data, bool memzone);

/*
 * The checks of malloc_heap_elem_of() that read neighbours, which change
 * under the heap lock: the caller holds it.
 */
bool malloc_heap_elem_linked(
		struct rte_mem_config *mcfg, const struct malloc_elem *e);

/*
 * Add memory [@p va, @p va + @p len) of memseg list @p msl_idx to @p heap
 * as one free element, joined with free neighbours. The caller holds the
 * heap lock and the hotplug lock.
 *
 * @return the free element holding the memory.
 */
struct malloc_elem *malloc_heap_add_memory(struct rte_mem_config *mcfg,
		struct malloc_heap *heap, unsigned int msl_idx, void *va,
		size_t len, bool dirty);

/*
 * Make [@p data, @p data + @p size) of list @p msl_idx a memzone's busy
 * element again, carved out of the free memory of @p heap that holds it
 * and its header, at init (--keep-memzones). Memzones are restored in
 * address order. The bytes at @p data are not touched.
 *
 * @return 0, or -ENOSPC if that memory is not free heap memory.
 */
int malloc_heap_restore(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		unsigned int msl_idx, void *data, size_t size);

/*
 * The largest free element of @p heap among the acceptable page sizes of
 * @p req (caller holds the lock), or NULL.
 */
struct malloc_elem *malloc_heap_largest(
		struct malloc_heap *heap, const struct malloc_req *req);

/*
 * Give back every whole free page of @p heap that may go to lib/eal:
 * the queue and the caches are drained first. The caller holds the lock.
 *
 * @return the bytes given back.
 */
size_t malloc_heap_trim(struct rte_mem_config *mcfg, struct malloc_heap *heap);

/*
 * Give back whole free pages of @p heap, as many bytes as stayed free
 * since the last call (free_low) beyond the free memory that cannot go
 * (pinned pages, pieces of pages), and start the next count: memory no
 * allocation needed for a while. The queue and the caches are left to
 * their owners, who are at work. The caller holds the lock.
 *
 * @return the bytes given back.
 */
size_t malloc_heap_trim_unused(
		struct rte_mem_config *mcfg, struct malloc_heap *heap);

/* Start counting @p heap's least free memory anew (the lock is held). */
void malloc_heap_low_reset(struct malloc_heap *heap);

/*
 * @p heap's free memory may have gone down (the lock is held): called
 * once the change is whole, so that a split that takes an element and
 * gives its tail back counts no dip.
 */
static inline void
malloc_heap_note_low(struct malloc_heap *heap)
{
	if (heap->free_size < heap->free_low)
		heap->free_low = heap->free_size;
}

/* Fill @p s from @p heap (takes the lock, drains the queue). */
void malloc_heap_get_stats(
		struct malloc_heap *heap, struct rte_malloc_socket_stats *s);

/*
 * Walk callback: @p run_start is true for the first element of a run of
 * mapped pages. @return 0 to go on, anything else to stop with it.
 */
typedef int (*malloc_heap_walk_t)(const struct rte_memseg_list *msl,
		const struct malloc_elem *e, bool run_start, void *arg);

/* Call @p fn on every element of @p heap; the caller holds its lock. */
int malloc_heap_walk_locked(struct rte_mem_config *mcfg,
		const struct malloc_heap *heap, malloc_heap_walk_t fn,
		void *arg);

/* Print every element of @p heap (takes the lock, drains the queue). */
void malloc_heap_dump(struct malloc_heap *heap, FILE *f);

/* The free lists of @p heap for @p page_sz, created if missing. */
struct malloc_bins *malloc_heap_bins(
		struct malloc_heap *heap, uint64_t page_sz);

/*
 * Give @p heap a run-end array for list @p l (struct malloc_state's
 * run_end_off), and the lcores what they need of it.
 * The caller holds the hotplug lock for writing. @return 0 or -ENOSPC.
 */
int malloc_heap_track_list(struct rte_mem_config *mcfg, unsigned int l);

/* The IOVA of heap memory at @p addr, or RTE_BAD_IOVA. */
rte_iova_t malloc_heap_virt2iova(
		const struct rte_mem_config *mcfg, const void *addr);

#endif /* _MALLOC_HEAP_H_ */
