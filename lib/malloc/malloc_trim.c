/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Free pages kept for reuse, and when they go back (malloc_trim.h).
 *
 * Giving a page back and mapping it again costs a system call each way
 * and, for the kernel, clearing the page: about 130 us for a 2 MB page
 * here, where a block allocated and freed in turn on a page of its own
 * costs 50 ns once the page stays. So the heap keeps whole free pages up
 * to an amount, and gives them back when they have not been wanted for a
 * while, as jemalloc's decay does with a rate.
 *
 * The amount is measured without tracking which pages are kept: a free
 * keeps its pages while the heap's free memory, these pages included,
 * stays within the pages -m pins plus --malloc-retain. Free memory on
 * pinned pages counts against it too, so a heap keeps at most
 * --malloc-retain of pages that could go back, and less while pinned
 * memory is free.
 *
 * The thread handle is this file's only state outside the shared memory
 * config: each process that maps the heaps runs one thread, and any of
 * them may trim any heap, under its lock.
 */

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#include "eal_sys.h"
#include "malloc_heap.h"
#include "malloc_lcore.h"
#include "malloc_state.h"
#include "malloc_trim.h"

/* The two page return strategies (malloc_trim.h). */
const struct malloc_page_return malloc_page_keep = {
	.keeps_pages = true,
	.grow_before_drain = true,
	.wait_beside_free = true,
	.keep_empty_slabs = true,
	.hold_remote_frees = true,
};

const struct malloc_page_return malloc_page_eager = {
	.keeps_pages = false,
};

#define NS_PER_MS UINT64_C(1000000)

/* This process's trim thread. */
static struct {
	pthread_t thread;
	bool on; /* started, not joined yet */
	bool stop; /* asked to end (atomic) */
	/*
	 * The state it sleeps on, found once: a primary that exits first
	 * forgets where the state is (malloc_off), and a secondary must
	 * still wake its thread.
	 */
	struct malloc_state *st;
} trim_thread_state;

uint64_t
malloc_trim_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void
trim_wake(struct malloc_state *st)
{
	__atomic_add_fetch(&st->trim_seq, 1, __ATOMIC_RELEASE);
	eal_os_futex_wake(&st->trim_seq);
}

/* @p heap keeps memory from now: the trim thread must know. */
static void
trim_mark(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		bool was_keeping)
{
	__atomic_store_n(
			&heap->keep_ns, malloc_trim_now_ns(), __ATOMIC_RELAXED);
	if (!was_keeping) {
		__atomic_store_n(&heap->keeping, 1, __ATOMIC_RELEASE);
		trim_wake(malloc_state_of(mcfg));
	}
}

static bool
trim_would_keep(const struct rte_mem_config *mcfg,
		const struct malloc_heap *heap)
{
	return malloc_page_return(mcfg)->keeps_pages &&
			__atomic_load_n(&heap->free_size, __ATOMIC_RELAXED) <=
			heap->pinned_size + mcfg->malloc_retain;
}

bool
malloc_trim_keep(struct rte_mem_config *mcfg, struct malloc_heap *heap)
{
	bool was_keeping = heap->keeping != 0;

	if (!trim_would_keep(mcfg, heap))
		return false;
	trim_mark(mcfg, heap, was_keeping);
	return true;
}

void
malloc_trim_touch(struct rte_mem_config *mcfg, struct malloc_heap *heap)
{
	if (malloc_page_return(mcfg)->keeps_pages)
		trim_mark(mcfg, heap,
				__atomic_load_n(&heap->keeping,
						__ATOMIC_ACQUIRE) != 0);
}

void
malloc_trim_arm(struct rte_mem_config *mcfg, struct malloc_heap *heap)
{
	if (malloc_page_return(mcfg)->keeps_pages &&
			__atomic_load_n(&heap->keeping, __ATOMIC_ACQUIRE) == 0)
		trim_mark(mcfg, heap, false);
}

/*
 * Look at @p heap, which keeps pages and is due (its lock held): give
 * everything back if it has been idle for the decay time, else what no
 * allocation needed since the last look. @return whether it still keeps.
 */
static bool
trim_look(struct rte_mem_config *mcfg, struct malloc_heap *heap, uint64_t decay)
{
	uint64_t activity = malloc_lcore_activity(mcfg, heap);
	uint64_t now = malloc_trim_now_ns();

	__atomic_store_n(&heap->look_ns, now, __ATOMIC_RELAXED);
	/*
	 * Lcores that used their caches since the last look are at work:
	 * their memory stays for another decay time.
	 */
	if (activity != heap->trim_activity) {
		heap->trim_activity = activity;
		__atomic_store_n(&heap->keep_ns, now, __ATOMIC_RELAXED);
	}
	if (__atomic_load_n(&heap->keep_ns, __ATOMIC_RELAXED) + decay <= now) {
		malloc_heap_trim(mcfg, heap);
		return false;
	}
	/*
	 * A heap at work keeps what it reuses, but not what stayed free
	 * for a decay time: a burst's memory would otherwise stay for as
	 * long as the process works, up to --malloc-retain. Only once the
	 * count has run that long: every process's trim thread looks, and
	 * a look just after another would find nearly all free memory
	 * unused.
	 */
	if (heap->low_ns + decay <= now)
		malloc_heap_trim_unused(mcfg, heap);
	return true;
}

/*
 * Trim the heaps whose kept pages are due.
 *
 * @return ms until the next heap is due, or -1 if none keeps pages.
 */
static int
trim_due(struct rte_mem_config *mcfg, struct malloc_state *st)
{
	uint64_t decay = mcfg->malloc_decay_ms * NS_PER_MS, next = UINT64_MAX;
	unsigned int i, end = __atomic_load_n(&st->heaps_end, __ATOMIC_ACQUIRE);

	for (i = 0; i < end; i++) {
		struct malloc_heap *heap = &st->heaps[i];
		uint64_t now, at;

		if (!heap->in_use ||
				!__atomic_load_n(&heap->keeping,
						__ATOMIC_ACQUIRE))
			continue;
		now = malloc_trim_now_ns();
		/* Due when idle for the decay time, and at least that often. */
		at = RTE_MIN(__atomic_load_n(&heap->keep_ns, __ATOMIC_RELAXED),
				     __atomic_load_n(&heap->look_ns,
						     __ATOMIC_RELAXED)) +
				decay;
		if (at > now) {
			next = RTE_MIN(next, at - now);
			continue;
		}
		malloc_heap_lock(heap);
		/* A trim may have run since: look again. */
		if (heap->keeping && trim_look(mcfg, heap, decay))
			next = RTE_MIN(next, decay);
		malloc_heap_unlock(heap);
	}
	if (next == UINT64_MAX)
		return -1;
	return (int)(next / NS_PER_MS) + 1;
}

static void *
trim_thread(void *arg)
{
	struct rte_mem_config *mcfg = arg;
	struct malloc_state *st = trim_thread_state.st;

	while (!__atomic_load_n(&trim_thread_state.stop, __ATOMIC_ACQUIRE)) {
		uint32_t seq = __atomic_load_n(&st->trim_seq, __ATOMIC_ACQUIRE);
		int wait_ms = trim_due(mcfg, st);

		if (__atomic_load_n(&trim_thread_state.stop, __ATOMIC_ACQUIRE))
			break;
		eal_os_futex_wait(&st->trim_seq, seq, wait_ms);
	}
	return NULL;
}

int
malloc_trim_start(struct rte_mem_config *mcfg, char *err, size_t err_len)
{
	sigset_t all, old;
	int ret;

	if (!malloc_page_return(mcfg)->keeps_pages || mcfg->legacy_mem ||
			trim_thread_state.on)
		return 0;
	trim_thread_state.stop = false;
	trim_thread_state.st = malloc_state_of(mcfg);
	/* The application's signals are not for this thread. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = pthread_create(
			&trim_thread_state.thread, NULL, trim_thread, mcfg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret != 0) {
		snprintf(err, err_len, "cannot start the heap trim thread: %s",
				strerror(ret));
		return -ret;
	}
	pthread_setname_np(trim_thread_state.thread, "rte_malloc_trim");
	trim_thread_state.on = true;
	return 0;
}

void
malloc_trim_stop(void)
{
	if (!trim_thread_state.on)
		return;
	__atomic_store_n(&trim_thread_state.stop, true, __ATOMIC_RELEASE);
	trim_wake(trim_thread_state.st);
	pthread_join(trim_thread_state.thread, NULL);
	trim_thread_state.on = false;
}

int64_t
rte_malloc_heap_trim(int socket_id)
{
	struct rte_mem_config *mcfg = malloc_mcfg_get();
	struct malloc_state *st;
	struct malloc_heap *heap;
	int64_t total = 0;
	unsigned int i;

	if (mcfg == NULL)
		return -1;
	st = malloc_state_of(mcfg);
	if (socket_id != SOCKET_ID_ANY) {
		heap = malloc_heap_of_socket(st, socket_id);
		if (heap == NULL) {
			rte_errno = EINVAL;
			return -1;
		}
		malloc_heap_lock(heap);
		total = (int64_t)malloc_heap_trim(mcfg, heap);
		malloc_heap_unlock(heap);
		return total;
	}
	for (i = 0; i < RTE_MAX_HEAPS; i++) {
		heap = &st->heaps[i];
		if (!heap->in_use)
			continue;
		malloc_heap_lock(heap);
		total += (int64_t)malloc_heap_trim(mcfg, heap);
		malloc_heap_unlock(heap);
	}
	return total;
}
