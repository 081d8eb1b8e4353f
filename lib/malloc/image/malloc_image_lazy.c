/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * The lazy restore engine (malloc_image_lazy.h). A page's claim goes
 * NEW -> BUSY -> DONE once; whoever moves it to BUSY fills it, marks it
 * DONE, then wakes the threads waiting on it. The handler, finding a
 * page BUSY in another thread's hands, leaves it: that wake reaches every
 * thread waiting on the page, and the kernel looks at the page again
 * after queueing a fault, so no fault waits for a wake that came first.
 * A page already DONE gets a wake of its own.
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_memory.h>

#include "eal_keep.h"
#include "eal_lcore.h"
#include "eal_log.h"
#include "eal_memalloc.h"
#include "malloc_image_lazy.h"
#include "malloc_image_threads.h"

#define LAZY_THREADS_MAX 8
#define LAZY_MSGS 16
#define LAZY_PREFETCH_WAIT_MS 5
#define LAZY_EVENT_NAME "rtemem-memzone-image"

enum {
	LAZY_NEW,
	LAZY_BUSY,
	LAZY_DONE
};

/* Bytes init wrote in a page (the heap's elements), kept for its fill. */
struct lazy_write {
	uint64_t addr;
	uint64_t len;
	uint64_t at; /* in write_bytes */
};

/* A buffer to build pages in, as large as the largest page. */
struct lazy_bounce {
	void *map;
	size_t map_len;
	void *buf; /* in map, aligned to 2 MB */
};

struct malloc_image_lazy {
	const struct malloc_image_lazy_ops *ops;
	int fill_fd; /* eal_fill_open() */
	int stop_fd[2]; /* a pipe: readable once the handler has to end */
	int img_fd; /* the image, duplicated */
	char path[4096];
	uint32_t version; /* of the image's format */
	struct malloc_image_chunk *chunks; /* copies of the image's */
	struct malloc_image_zone *zones;
	struct malloc_image_lazy_page *pages; /* in address order */
	uint64_t n_pages;
	uint64_t max_len; /* of the largest page: a buffer's size */
	uint8_t *state; /* per page, LAZY_* (atomic) */
	uint64_t next; /* the prefetchers' next page (atomic) */
	uint64_t n_done; /* pages DONE (atomic) */
	/*
	 * Bumped, and woken, when a page is DONE while a memory event
	 * waits for a fill under way (lazy_wait_done()); a futex word.
	 */
	uint32_t done_seq;
	uint32_t done_waiters; /* atomic */
	uint64_t n_touched; /* of them, filled for a fault (atomic) */
	/*
	 * 1 while the handler serves faults: prefetchers start no fill
	 * meanwhile (a futex word).
	 */
	uint32_t serving;
	/*
	 * 1 once the handler served its first faults: prefetchers wait for
	 * it, LAZY_PREFETCH_WAIT_MS at most (a futex word).
	 */
	uint32_t first_served;
	uint64_t n_dropped; /* of them, given back unfilled (atomic) */
	bool watching; /* lazy_mem_event() registered */
	int stop; /* atomic: cleanup wants the threads gone */
	struct timespec t0;
	pthread_t handler;
	/*
	 * The handler's buffer, made at start (no memory then fails the
	 * start, not a fault later), under its lock while it serves: a
	 * thread that must fill everything (fork(), exit) and gets no
	 * buffer of its own borrows it.
	 */
	struct lazy_bounce hbounce;
	pthread_mutex_t hbounce_lock;
	pthread_t prefetch[LAZY_THREADS_MAX];
	unsigned int n_prefetch; /* started */
	uint8_t *filling; /* the config's image_filling */
	unsigned int n_prefetch_want;
	unsigned int prefetch_live; /* prefetchers still running (atomic) */
	bool prefetch_by_handler; /* the handler starts the prefetchers */
	bool complete_at_stop; /* fill what is left at stop (kept files) */
	/* Over the pages from the start to malloc_image_lazy_run(). */
	struct eal_scratch *scratch;
	struct lazy_write *writes; /* in address order */
	uint64_t n_writes;
	unsigned char *write_bytes;
	uint64_t write_len; /* bytes in write_bytes */
	bool handler_started;
};

/* The one lazy restore of this process, from init to cleanup or done. */
static struct malloc_image_lazy *lazy_running;
/*
 * Held from fork()'s prepare handler, which fills what is left, until the
 * fork is done (released in the parent, made anew in the child), and by
 * the stop that frees lazy_running: a fork() in one thread racing
 * rte_eal_cleanup() in another would otherwise fill through freed state.
 */
static pthread_mutex_t lazy_lock = PTHREAD_MUTEX_INITIALIZER;

/* lazy_atfork_prepare() is registered once, with the first restore. */
static pthread_once_t lazy_atfork_once = PTHREAD_ONCE_INIT;
static void lazy_atfork_register(void);
static int lazy_thread_start(pthread_t *t, void *(*fn)(void *), void *arg);

int
malloc_image_lazy_fd(const struct malloc_image_lazy *lz)
{
	return lz->fill_fd;
}

int
malloc_image_lazy_fill_err(int ret, const char *call, const char *exists,
		char *err, size_t len)
{
	/* Pages the heap gives back are never filled: not those. */
	if (ret == -ENOENT)
		return malloc_image_err_out(err, len, ret,
				"its mapping is gone, unmapped or moved by "
				"something other than the heap");
	if (ret == -EEXIST)
		return malloc_image_err_out(err, len, ret, "%s", exists);
	return malloc_image_err_out(
			err, len, ret, "%s: %s", call, strerror(-ret));
}

static double
lazy_ms(const struct malloc_image_lazy *lz)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - lz->t0.tv_sec) * 1e3 +
			(t.tv_nsec - lz->t0.tv_nsec) / 1e6;
}

/*
 * Lay what init wrote in page @p p over @p b, around the memzones: their
 * bytes are the image's.
 */
static void
lazy_lay_writes(const struct malloc_image_lazy *lz,
		const struct malloc_image_lazy_page *p, unsigned char *b)
{
	const struct malloc_image_chunk *c = &lz->chunks[p->first_chunk];
	const struct malloc_image_chunk *c_end = c + p->n_chunks;
	uint64_t i, cur, end;

	for (i = p->first_write; i < p->first_write + p->n_writes; i++) {
		const struct lazy_write *w = &lz->writes[i];
		const unsigned char *src = lz->write_bytes + w->at;

		cur = w->addr;
		end = w->addr + w->len;
		for (; c < c_end && c->addr < end; c++) {
			if (c->addr + c->len <= cur)
				continue;
			if (c->addr > cur)
				memcpy(b + (cur - p->addr),
						src + (cur - w->addr),
						c->addr - cur);
			cur = RTE_MAX(cur, c->addr + c->len);
			if (cur >= end)
				break;
		}
		if (cur < end)
			memcpy(b + (cur - p->addr), src + (cur - w->addr),
					end - cur);
	}
}

int
malloc_image_lazy_build(const struct malloc_image_lazy *lz,
		const struct malloc_image_lazy_page *p, void *bounce, char *err,
		size_t len)
{
	unsigned char *b = bounce;
	uint64_t cur = p->addr, i;
	int ret;

	for (i = p->first_chunk; i < p->first_chunk + p->n_chunks; i++) {
		const struct malloc_image_chunk *c = &lz->chunks[i];
		unsigned char *at = b + (c->addr - p->addr);

		memset(b + (cur - p->addr), 0, c->addr - cur);
		cur = c->addr + c->len;
		if (c->off == 0) {
			memset(at, 0, c->len);
			continue;
		}
		ret = malloc_image_pread(lz->img_fd, at, c->len, c->off);
		if (ret < 0)
			return malloc_image_err_out(err, len, ret,
					"cannot read %s at %" PRIu64 ": %s",
					lz->path, c->off,
					ret == -ENODATA ? "the file is shorter "
							  "than when opened" :
							  strerror(-ret));
		if (malloc_image_chunk_sum(lz->version, at, c->len, NULL) !=
				c->sum)
			return malloc_image_err_out(err, len, -EILSEQ,
					"%s: memzone %s is damaged at offset "
					"%" PRIu64 " (checksum)",
					lz->path, lz->zones[c->zone].name,
					c->addr - lz->zones[c->zone].addr);
	}
	memset(b + (cur - p->addr), 0, p->addr + p->len - cur);
	lazy_lay_writes(lz, p, b);
	return 0;
}

/*
 * A page the process needs cannot be had: say so and end the process.
 * Returning would leave a thread blocked in its fault for ever.
 */
static void __rte_noreturn
lazy_fatal(const struct malloc_image_lazy *lz,
		const struct malloc_image_lazy_page *p, const char *why)
{
	EAL_LOG(CRIT,
			"--memzone-image-strategy=%s: cannot bring back the "
			"page at %#" PRIx64 ": %s; the process cannot go on "
			"without it",
			lz->ops->name, p->addr, why);
	_exit(EXIT_FAILURE);
}

static void lazy_done(struct malloc_image_lazy *lz, uint64_t i);

/* Tell the handler to end (a byte on its pipe; one is enough). */
static void
lazy_stop_handler(struct malloc_image_lazy *lz)
{
	char b = 1;

	if (write(lz->stop_fd[1], &b, 1) < 0 && errno != EAGAIN)
		EAL_LOG(ERR,
				"--memzone-image-strategy=%s: cannot stop its "
				"handler: %s",
				lz->ops->name, strerror(errno));
}

/* Wake the threads waiting on page @p p (none: no harm). */
static void
lazy_wake(const struct malloc_image_lazy *lz,
		const struct malloc_image_lazy_page *p)
{
	eal_fill_wake(lz->fill_fd, p->addr, p->len);
}

/* A fill of the strategy, for eal_memalloc_fill_on_node(). */
struct lazy_fill_call {
	const struct malloc_image_lazy *lz;
	const struct malloc_image_lazy_page *p;
	void *bounce;
	char why[768];
};

static int
lazy_fill_view_call(void *view, void *arg, char *err, size_t len)
{
	struct lazy_fill_call *f = arg;

	return f->lz->ops->fill_view(f->lz, f->p, view, f->bounce, err, len);
}

/*
 * A page without its file yet gets it now, filled before it is mapped;
 * any other (-EALREADY) is filled where it is.
 */
static int
lazy_fill_call(void *arg)
{
	struct lazy_fill_call *f = arg;
	int ret;

	ret = eal_memalloc_fill_deferred((const void *)(uintptr_t)f->p->addr,
			lazy_fill_view_call, f, f->why, sizeof(f->why));
	if (ret != -EALREADY)
		return ret;
	return f->lz->ops->fill(f->lz, f->p, f->bounce, f->why, sizeof(f->why));
}

/*
 * Claim page @p i and fill it. @return whether this thread filled it.
 * The page is allocated as it is filled, by this thread: on its list's
 * node, not on the node of the CPU the handler or prefetcher runs on.
 */
static bool
lazy_fill(struct malloc_image_lazy *lz, uint64_t i, void *bounce)
{
	struct lazy_fill_call f = {
		.lz = lz, .p = &lz->pages[i], .bounce = bounce
	};
	const struct malloc_image_lazy_page *p = f.p;
	uint8_t want = LAZY_NEW;

	if (!__atomic_compare_exchange_n(&lz->state[i], &want, LAZY_BUSY, false,
			    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return false;
	if (eal_memalloc_fill_on_node((const void *)(uintptr_t)p->addr,
			    lazy_fill_call, &f) < 0)
		lazy_fatal(lz, p, f.why);
	lazy_done(lz, i);
	/*
	 * Only now: a thread that resumes finds the page done, and, when it
	 * was the last, secondaries free to attach.
	 */
	lazy_wake(lz, p);
	return true;
}

/*
 * Faulted in here, so that the first page fault served does not pay for
 * it. The handler's is on a transparent huge page where the kernel gives
 * one (a fault per 2 MB instead of 512); the prefetchers' are not, since
 * a huge page may need compaction under the mmap lock, which then holds
 * up the handler's copies for milliseconds.
 */
static int
lazy_bounce_get(const struct malloc_image_lazy *lz, struct lazy_bounce *b,
		bool thp)
{
	const size_t align = 2u << 20;
	size_t max = lz->max_len;

	b->map = NULL;
	b->buf = NULL;
	if (!lz->ops->bounce)
		return 0;
	b->map_len = max + align;
	b->map = mmap(NULL, b->map_len, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (b->map == MAP_FAILED) {
		b->map = NULL;
		return -errno;
	}
	b->buf = RTE_PTR_ALIGN_CEIL(b->map, align);
	if (thp && max <= align)
		madvise(b->buf, max, MADV_HUGEPAGE);
	/*
	 * One call, not a loop: on a huge page that is one fault, and the
	 * kernel's clearing is all it costs (0.20-0.26 ms, 2 MB, where the
	 * fault and a memset() of the page took 0.23-0.40).
	 */
	if (madvise(b->buf, max, MADV_POPULATE_WRITE) != 0)
		memset(b->buf, 0, max);
	return 0;
}

static void
lazy_bounce_put(struct lazy_bounce *b)
{
	if (b->map != NULL)
		munmap(b->map, b->map_len);
	b->map = NULL;
}

/*
 * A prefetcher ends. When the last one ends with pages left (it had no
 * memory for a buffer), they come on first touch only, which secondaries
 * must know rather than wait for.
 */
static void
lazy_prefetch_gone(struct malloc_image_lazy *lz)
{
	if (__atomic_sub_fetch(&lz->prefetch_live, 1, __ATOMIC_ACQ_REL) != 0 ||
			__atomic_load_n(&lz->stop, __ATOMIC_RELAXED) ||
			__atomic_load_n(&lz->n_done, __ATOMIC_ACQUIRE) ==
					lz->n_pages)
		return;
	__atomic_store_n(lz->filling, EAL_IMAGE_FILLING_ON_TOUCH,
			__ATOMIC_RELEASE);
	/* The last page may have come meanwhile, its FILLED overwritten. */
	if (__atomic_load_n(&lz->n_done, __ATOMIC_ACQUIRE) == lz->n_pages)
		__atomic_store_n(lz->filling, EAL_IMAGE_FILLED,
				__ATOMIC_RELEASE);
	else
		EAL_LOG(WARNING,
				"--memzone-image-strategy=%s: prefetching "
				"stopped with pages left: they come on first "
				"touch only",
				lz->ops->name);
}

static void *
lazy_prefetch(void *arg)
{
	struct malloc_image_lazy *lz = arg;
	struct lazy_bounce b = { 0 };
	uint64_t i;

	/*
	 * Prefetching gives way to the application's threads and to the
	 * handler serving their faults (no fill starts while it serves
	 * one), on SCHED_IDLE: the handler, woken on the same CPU, takes
	 * it at once. First accesses took 0.40-0.59 ms, 0.40-0.89 at nice
	 * 19 (24 starts each, 2 CPUs, 512 MB). A faulting thread that waits
	 * for the page a prefetcher holds sleeps, and leaves its CPU to it.
	 */
	eal_thread_idle();
	/*
	 * The application's first touches come right after init: a fill
	 * under way then (the CPUs, the mmap lock) took the first access
	 * from 1.0-1.5 to 1.4-3.7 ms on 2 CPUs. Prefetching starts once the
	 * handler served its first faults, or after a while without any.
	 */
	eal_os_futex_wait(&lz->first_served, 0, LAZY_PREFETCH_WAIT_MS);
	/*
	 * Every page may be in by now (touched meanwhile, or filled by init
	 * where its writes could not go to scratch): then a buffer would
	 * only take memory. Without one, the handler still fills every page
	 * touched.
	 */
	if (__atomic_load_n(&lz->n_done, __ATOMIC_ACQUIRE) != lz->n_pages &&
			lazy_bounce_get(lz, &b, false) == 0) {
		while (!__atomic_load_n(&lz->stop, __ATOMIC_RELAXED)) {
			while (__atomic_load_n(&lz->serving, __ATOMIC_ACQUIRE))
				eal_os_futex_wait(&lz->serving, 1, 10);
			i = __atomic_fetch_add(&lz->next, 1, __ATOMIC_RELAXED);
			if (i >= lz->n_pages)
				break;
			lazy_fill(lz, i, b.buf);
		}
		lazy_bounce_put(&b);
	}
	lazy_prefetch_gone(lz);
	return NULL;
}

/*
 * Start the prefetchers, once, from a thread with every signal blocked:
 * they take its mask.
 */
static void
lazy_prefetch_start(struct malloc_image_lazy *lz)
{
	unsigned int i;

	if (lz->n_prefetch_want == 0 || lz->n_prefetch > 0)
		return;
	/*
	 * A prefetcher that cannot start leaves its pages to the others;
	 * one more count, dropped below, keeps the last one from deciding
	 * before they all started.
	 */
	__atomic_store_n(&lz->prefetch_live, 1, __ATOMIC_RELAXED);
	for (i = 0; i < lz->n_prefetch_want &&
			!__atomic_load_n(&lz->stop, __ATOMIC_RELAXED);
			i++) {
		__atomic_add_fetch(&lz->prefetch_live, 1, __ATOMIC_RELAXED);
		if (lazy_thread_start(&lz->prefetch[lz->n_prefetch],
				    lazy_prefetch, lz) == 0)
			lz->n_prefetch++;
		else
			__atomic_sub_fetch(&lz->prefetch_live, 1,
					__ATOMIC_RELAXED);
	}
	lazy_prefetch_gone(lz);
}

/* Wait for the prefetchers, by the thread that started them. */
static void
lazy_prefetch_join(struct malloc_image_lazy *lz)
{
	unsigned int i;

	for (i = 0; i < lz->n_prefetch; i++)
		pthread_join(lz->prefetch[i], NULL);
	lz->n_prefetch = 0;
}

/* The first page that ends after @p addr (n_pages: none). */
static uint64_t
lazy_page_from(const struct malloc_image_lazy *lz, uint64_t addr)
{
	uint64_t lo = 0, hi = lz->n_pages, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (lz->pages[mid].addr + lz->pages[mid].len <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The page holding @p addr, or -1. */
static int64_t
lazy_page_of(const struct malloc_image_lazy *lz, uint64_t addr)
{
	uint64_t i = lazy_page_from(lz, addr);

	return i < lz->n_pages && lz->pages[i].addr <= addr ? (int64_t)i : -1;
}

/*
 * Page @p i is DONE. After the last one, secondaries may map the pages,
 * and the handler can finish.
 */
static void
lazy_done(struct malloc_image_lazy *lz, uint64_t i)
{
	__atomic_store_n(&lz->state[i], LAZY_DONE, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&lz->done_waiters, __ATOMIC_SEQ_CST) != 0) {
		__atomic_fetch_add(&lz->done_seq, 1, __ATOMIC_SEQ_CST);
		eal_os_futex_wake(&lz->done_seq);
	}
	if (__atomic_add_fetch(&lz->n_done, 1, __ATOMIC_ACQ_REL) != lz->n_pages)
		return;
	__atomic_store_n(lz->filling, EAL_IMAGE_FILLED, __ATOMIC_RELEASE);
	lazy_stop_handler(lz);
}

/*
 * Wait until page @p i, which another thread fills, is DONE: a fill may
 * copy a whole 1 GB page, too long to spin on. The filler bumps and
 * wakes done_seq when it sees a waiter; all orders are sequentially
 * consistent, so either it sees this waiter or this waiter sees DONE.
 */
static void
lazy_wait_done(struct malloc_image_lazy *lz, uint64_t i)
{
	uint32_t seq;

	__atomic_fetch_add(&lz->done_waiters, 1, __ATOMIC_SEQ_CST);
	for (;;) {
		seq = __atomic_load_n(&lz->done_seq, __ATOMIC_SEQ_CST);
		if (__atomic_load_n(&lz->state[i], __ATOMIC_SEQ_CST) ==
				LAZY_DONE)
			break;
		eal_os_futex_wait(&lz->done_seq, seq, 100);
	}
	__atomic_fetch_sub(&lz->done_waiters, 1, __ATOMIC_SEQ_CST);
}

/*
 * Pages given back before they were filled (their memzone freed) must
 * not be filled later: their address may hold another page by then,
 * which a fill through the file (uffd-minor) would overwrite. Told
 * before the unmap, under the memory lock: a fill under way finishes
 * into the old page first, and is waited for.
 */
static void
lazy_mem_event(enum rte_mem_event type, const void *addr, size_t len, void *arg)
{
	struct malloc_image_lazy *lz = arg;
	uint64_t a = (uint64_t)(uintptr_t)addr, i;
	uint8_t want;

	if (type != RTE_MEM_EVENT_FREE)
		return;
	for (i = lazy_page_from(lz, a);
			i < lz->n_pages && lz->pages[i].addr < a + len; i++) {
		want = LAZY_NEW;
		if (__atomic_compare_exchange_n(&lz->state[i], &want, LAZY_BUSY,
				    false, __ATOMIC_ACQUIRE,
				    __ATOMIC_RELAXED)) {
			__atomic_fetch_add(&lz->n_dropped, 1, __ATOMIC_RELAXED);
			lazy_done(lz, i);
			/* A thread faulting on freed memory: let it fault on. */
			lazy_wake(lz, &lz->pages[i]);
			continue;
		}
		lazy_wait_done(lz, i);
	}
}

/* Serve a fault at @p addr: fill its page, or leave it to whoever does. */
static void
lazy_serve(struct malloc_image_lazy *lz, uint64_t addr, void *bounce)
{
	int64_t i = lazy_page_of(lz, addr);

	if (i < 0) {
		EAL_LOG(CRIT,
				"--memzone-image-strategy=%s: a fault at "
				"%#" PRIx64 " is outside the image's pages",
				lz->ops->name, addr);
		_exit(EXIT_FAILURE);
	}
	if (lazy_fill(lz, (uint64_t)i, bounce)) {
		__atomic_fetch_add(&lz->n_touched, 1, __ATOMIC_RELAXED);
		return;
	}
	/*
	 * Another thread holds it: its wake, once the page is done, reaches
	 * every thread waiting on the page, the kernel checking the page
	 * again after queueing a fault.
	 */
	if (__atomic_load_n(&lz->state[i], __ATOMIC_ACQUIRE) != LAZY_DONE)
		return;
	lazy_wake(lz, &lz->pages[i]);
}

/* Serve the faults queued; @return false when the descriptor failed. */
static bool
lazy_drain(struct malloc_image_lazy *lz, void *bounce)
{
	uintptr_t addr[LAZY_MSGS];
	int got, k;

	got = eal_fill_next(lz->fill_fd, addr, LAZY_MSGS);
	if (got < 0) {
		errno = -got;
		return false;
	}
	for (k = 0; k < got; k++)
		lazy_serve(lz, addr[k], bounce);
	return true;
}

/*
 * The end of the run of adjacent pages of one size that page @p i
 * starts: one mapping at most, registered and covered as one.
 */
static uint64_t
lazy_run_end(const struct malloc_image_lazy *lz, uint64_t i)
{
	const struct malloc_image_lazy_page *p = lz->pages;

	for (i++; i < lz->n_pages &&
			p[i].addr == p[i - 1].addr + p[i - 1].len &&
			p[i].len == p[i - 1].len;
			i++)
		;
	return i;
}

/* The start and length of the pages [@p i, @p j). */
static void
lazy_range(const struct malloc_image_lazy *lz, uint64_t i, uint64_t j,
		uintptr_t *addr, size_t *size)
{
	const struct malloc_image_lazy_page *last = &lz->pages[j - 1];

	*addr = lz->pages[i].addr;
	*size = last->addr + last->len - lz->pages[i].addr;
}

static void
lazy_unwatch(struct malloc_image_lazy *lz)
{
	if (lz->watching)
		rte_mem_event_callback_unregister(LAZY_EVENT_NAME, lz);
	lz->watching = false;
}

/* Every page is in: the registration can go, and the descriptor. */
static void
lazy_finish(struct malloc_image_lazy *lz)
{
	uintptr_t addr;
	uint64_t i, j;
	size_t size;

	for (i = 0; i < lz->n_pages; i = j) {
		j = lazy_run_end(lz, i);
		lazy_range(lz, i, j, &addr, &size);
		/* A range given back since is simply no longer there. */
		eal_fill_unwatch(lz->fill_fd, addr, size);
	}
	lazy_unwatch(lz);
	/* The kept files hold every page now (eal_keep_filling()). */
	if (lz->complete_at_stop)
		eal_keep_filling(false);
	__atomic_store_n(lz->filling, EAL_IMAGE_FILLED, __ATOMIC_RELEASE);
	EAL_LOG(INFO,
			"--memzone-image-strategy=%s: all %" PRIu64
			" pages of %s are in, %.3f ms after the start (%" PRIu64
			" filled on first touch, %" PRIu64
			" given back unfilled)",
			lz->ops->name, lz->n_pages, lz->path, lazy_ms(lz),
			__atomic_load_n(&lz->n_touched, __ATOMIC_RELAXED),
			__atomic_load_n(&lz->n_dropped, __ATOMIC_RELAXED));
}

/*
 * The fill descriptor failed: no fault can be served from now on, and a
 * thread touching a page not yet in would wait for ever.
 */
static void __rte_noreturn
lazy_handler_lost(const struct malloc_image_lazy *lz, const char *call)
{
	EAL_LOG(CRIT,
			"--memzone-image-strategy=%s: %s on its userfaultfd "
			"failed: %s; the pages not yet in cannot come",
			lz->ops->name, call, strerror(errno));
	_exit(EXIT_FAILURE);
}

static void *
lazy_handler(void *arg)
{
	struct malloc_image_lazy *lz = arg;
	struct pollfd pfd[2] = {
		{ .fd = lz->fill_fd, .events = POLLIN },
		{ .fd = lz->stop_fd[0], .events = POLLIN },
	};
	bool ok;

	/*
	 * Here, not in init: the 0.04-0.07 ms their start takes comes
	 * before the application's first touch only on this CPU.
	 */
	if (lz->prefetch_by_handler)
		lazy_prefetch_start(lz);
	for (;;) {
		if (poll(pfd, 2, -1) < 0 && errno != EINTR)
			lazy_handler_lost(lz, "poll");
		if (pfd[0].revents & POLLIN) {
			__atomic_store_n(&lz->serving, 1, __ATOMIC_RELEASE);
			pthread_mutex_lock(&lz->hbounce_lock);
			ok = lazy_drain(lz, lz->hbounce.buf);
			pthread_mutex_unlock(&lz->hbounce_lock);
			if (!ok)
				lazy_handler_lost(lz, "read");
			__atomic_store_n(&lz->serving, 0, __ATOMIC_RELEASE);
			eal_os_futex_wake(&lz->serving);
			if (!__atomic_exchange_n(&lz->first_served, 1,
					    __ATOMIC_RELEASE))
				eal_os_futex_wake(&lz->first_served);
		}
		if (pfd[1].revents & POLLIN)
			break;
	}
	/* Its prefetchers end first: one may be filling the last page. */
	if (lz->prefetch_by_handler)
		lazy_prefetch_join(lz);
	if (__atomic_load_n(&lz->n_done, __ATOMIC_ACQUIRE) == lz->n_pages)
		lazy_finish(lz);
	return NULL;
}

/* Append the pages under zone @p z to @p lz->pages (sorted later). */
static int
lazy_add_zone_pages(struct malloc_image_lazy *lz,
		const struct rte_memzone_image *img,
		const struct malloc_image_zone *z, uint64_t *cap)
{
	uint64_t ps = img->lists[z->list].page_sz, a, end;
	struct malloc_image_lazy_page *np;

	malloc_image_zone_pages(img, z, &a, &end);
	for (; a < end; a += ps) {
		if (lz->n_pages > 0 && lz->pages[lz->n_pages - 1].addr == a)
			continue;
		if (lz->n_pages == *cap) {
			*cap = *cap == 0 ? 64 : *cap * 2;
			np = realloc(lz->pages, *cap * sizeof(*np));
			if (np == NULL)
				return -ENOMEM;
			lz->pages = np;
		}
		lz->max_len = RTE_MAX(lz->max_len, ps);
		lz->pages[lz->n_pages++] = (struct malloc_image_lazy_page){
			.addr = a,
			.len = ps,
		};
	}
	return 0;
}

/*
 * The pages under the memzones, each with its chunks. Memzones and
 * chunks come in address order, so one pass pairs them.
 */
static int
lazy_pages(struct malloc_image_lazy *lz, const struct rte_memzone_image *img,
		char *err, size_t len)
{
	struct malloc_image_lazy_page *p;
	uint64_t cap = 0, c = 0, i;
	int ret = 0;

	for (i = 0; ret == 0 && i < img->hdr.n_zones; i++)
		ret = lazy_add_zone_pages(lz, img, &img->zones[i], &cap);
	if (ret < 0)
		return malloc_image_err_out(err, len, ret, "out of memory");
	for (i = 0; i < lz->n_pages; i++) {
		p = &lz->pages[i];
		p->first_chunk = c;
		while (c < img->hdr.n_chunks &&
				img->chunks[c].addr < p->addr + p->len)
			c++;
		p->n_chunks = c - p->first_chunk;
		if (p->n_chunks > 0 &&
				(img->chunks[p->first_chunk].addr < p->addr ||
						img->chunks[c - 1].addr + img->chunks[c - 1].len >
								p->addr + p->len))
			return malloc_image_err_out(err, len, -EINVAL,
					"%s has a chunk across the page at "
					"%#" PRIx64,
					img->path, p->addr);
	}
	if (c != img->hdr.n_chunks)
		return malloc_image_err_out(err, len, -EINVAL,
				"%s has chunks outside its memzones' pages",
				img->path);
	return 0;
}

/* Watch each run of adjacent pages. */
static int
lazy_register(struct malloc_image_lazy *lz, char *err, size_t len)
{
	uintptr_t addr;
	uint64_t i, j;
	size_t size;
	int ret;

	for (i = 0; i < lz->n_pages; i = j) {
		j = lazy_run_end(lz, i);
		lazy_range(lz, i, j, &addr, &size);
		ret = eal_fill_watch(lz->fill_fd, lz->ops->mode, addr, size,
				err, len);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* The pages back in place of the scratch, if any, without what it holds. */
static void
lazy_uncover(struct malloc_image_lazy *lz)
{
	if (eal_scratch_close(lz->scratch) < 0)
		EAL_LOG(ERR,
				"--memzone-image-strategy=%s: some of its pages "
				"could not be put back in place",
				lz->ops->name);
	lz->scratch = NULL;
}

static void
lazy_free(struct malloc_image_lazy *lz)
{
	/* Init failed before the run: its pages as they were. */
	lazy_uncover(lz);
	free(lz->writes);
	free(lz->write_bytes);
	if (lz->fill_fd >= 0)
		close(lz->fill_fd); /* also drops what it watched */
	if (lz->stop_fd[0] >= 0)
		close(lz->stop_fd[0]);
	if (lz->stop_fd[1] >= 0)
		close(lz->stop_fd[1]);
	if (lz->img_fd >= 0)
		close(lz->img_fd);
	free(lz->chunks);
	free(lz->zones);
	free(lz->pages);
	free(lz->state);
	lazy_bounce_put(&lz->hbounce);
	pthread_mutex_destroy(&lz->hbounce_lock);
	free(lz);
}

/* Everything but the threads, from @p img. */
static int
lazy_setup(struct malloc_image_lazy *lz, const struct rte_memzone_image *img,
		char *err, size_t len)
{
	size_t nc = img->hdr.n_chunks, nz = img->hdr.n_zones;

	snprintf(lz->path, sizeof(lz->path), "%s", img->path);
	lz->version = img->hdr.version;
	lz->chunks = malloc(RTE_MAX(nc, (size_t)1) * sizeof(*lz->chunks));
	lz->zones = malloc(RTE_MAX(nz, (size_t)1) * sizeof(*lz->zones));
	lz->img_fd = fcntl(img->fd, F_DUPFD_CLOEXEC, 0);
	if (pipe2(lz->stop_fd, O_CLOEXEC | O_NONBLOCK) < 0)
		lz->stop_fd[0] = lz->stop_fd[1] = -1;
	if (lz->chunks == NULL || lz->zones == NULL || lz->img_fd < 0 ||
			lz->stop_fd[0] < 0)
		return malloc_image_err_out(err, len, -ENOMEM,
				"cannot set up: %s", strerror(errno));
	memcpy(lz->chunks, img->chunks, nc * sizeof(*lz->chunks));
	memcpy(lz->zones, img->zones, nz * sizeof(*lz->zones));
	if (lazy_pages(lz, img, err, len) < 0)
		return -EINVAL;
	lz->state = calloc(RTE_MAX(lz->n_pages, (uint64_t)1), 1);
	if (lz->state == NULL)
		return malloc_image_err_out(err, len, -ENOMEM, "out of memory");
	lz->fill_fd = eal_fill_open(lz->ops->mode, err, len);
	return lz->fill_fd < 0 ? lz->fill_fd : 0;
}

/*
 * One prefetcher per CPU but one, which the application and the handler
 * need: measured on 2 CPUs, a second prefetcher took a first access from
 * under 1 ms to 5-8 ms and did not fill the memory any sooner.
 */
static unsigned int
lazy_n_prefetch(const struct malloc_image_lazy *lz, unsigned int asked)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	uint64_t n = asked != 0 ? asked : (uint64_t)RTE_MAX(cpus - 1, 1L);
	n = RTE_MIN(n, (uint64_t)LAZY_THREADS_MAX);
	/* A buffer per prefetcher: one 1 GB buffer is plenty. */
	if (lz->ops->bounce && lz->max_len > (2u << 20))
		n = 1;
	return (unsigned int)RTE_MIN(n, lz->n_pages);
}

/*
 * Start one of the engine's threads on the CPUs no lcore is pinned to, or
 * at least not the main lcore's (eal_lcores_spare_cpus()): it must not
 * share a CPU with an lcore that may poll without pause, and the main
 * lcore's thread is the one whose first touch waits. A prefetcher that
 * could run there kept that thread from its CPU for up to 3.7 ms after
 * the handler had served its fault (first access 0.4-4.2 ms, 2 CPUs,
 * 512 MB, one file); on the other CPU, 0.4-0.9 ms.
 */
static int
lazy_thread_start(pthread_t *t, void *(*fn)(void *), void *arg)
{
	const struct eal_lcores *lc = eal_lcores_get();
	pthread_attr_t attr;
	cpu_set_t cpus;
	int ret;

	ret = pthread_attr_init(&attr);
	if (ret != 0)
		return ret;
	if (lc != NULL) {
		eal_lcores_spare_cpus(lc, &cpus);
		if (CPU_COUNT(&cpus) > 0)
			pthread_attr_setaffinity_np(&attr, sizeof(cpus), &cpus);
	}
	ret = pthread_create(t, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	return ret;
}

/*
 * Cover the pages with scratch until init has written the heap's
 * elements around the memzones (malloc_image_lazy_run()): a header
 * written into a page waiting for its fill would make init wait for the
 * fill, two of them or more on the way to the first access.
 */
static void
lazy_cover(struct malloc_image_lazy *lz)
{
	const struct malloc_image_lazy_page *p = lz->pages;
	uint64_t i, j, total = 0;
	uintptr_t addr;
	size_t size;
	int ret = 0;

	for (i = 0; i < lz->n_pages; i++)
		total += p[i].len;
	lz->scratch = eal_scratch_open(total);
	if (lz->scratch == NULL)
		ret = -errno;
	for (i = 0; ret == 0 && i < lz->n_pages; i = j) {
		j = lazy_run_end(lz, i);
		lazy_range(lz, i, j, &addr, &size);
		ret = eal_scratch_cover(lz->scratch, addr, size, p[i].len);
	}
	if (ret == 0)
		return;
	/*
	 * Only slower: init then fills the pages it writes (before Linux
	 * 5.16, mremap() does not move hugetlb mappings).
	 */
	EAL_LOG(INFO,
			"--memzone-image-strategy=%s: no scratch memory over "
			"the pages (%s): init fills those it writes into",
			lz->ops->name, strerror(-ret));
	lazy_uncover(lz);
}

/* Keep @p n bytes at @p addr, written by init in page @p pg. */
static int
lazy_keep_write(struct malloc_image_lazy *lz, uint64_t pg, uintptr_t addr,
		uint64_t n, uint64_t *cap, uint64_t *bytes_cap)
{
	struct malloc_image_lazy_page *p = &lz->pages[pg];
	uint64_t at = lz->write_len;
	void *m;
	int ret;

	if (lz->n_writes == *cap) {
		*cap = *cap == 0 ? 16 : *cap * 2;
		m = realloc(lz->writes, *cap * sizeof(*lz->writes));
		if (m == NULL)
			return -ENOMEM;
		lz->writes = m;
	}
	if (at + n > *bytes_cap) {
		*bytes_cap = RTE_MAX(*bytes_cap * 2, at + n);
		m = realloc(lz->write_bytes, *bytes_cap);
		if (m == NULL)
			return -ENOMEM;
		lz->write_bytes = m;
	}
	ret = eal_scratch_read(lz->scratch, addr, lz->write_bytes + at, n);
	if (ret < 0)
		return ret;
	if (p->n_writes == 0)
		p->first_write = lz->n_writes;
	p->n_writes++;
	lz->writes[lz->n_writes++] = (struct lazy_write){
		.addr = addr, .len = n, .at = at
	};
	lz->write_len += n;
	return 0;
}

/*
 * Keep what init wrote into the scratch, page by page; found by the
 * scratch, so the cost is what was written, not the image's size.
 */
static int
lazy_keep_writes(struct malloc_image_lazy *lz)
{
	uint64_t cap = 0, bytes_cap = 0, n, piece;
	uintptr_t addr = 0;
	int64_t pg;
	int ret;

	while ((ret = eal_scratch_next(lz->scratch, &addr, &n)) > 0) {
		for (; n > 0; addr += piece, n -= piece) {
			pg = lazy_page_of(lz, addr);
			if (pg < 0)
				return -EFAULT;
			piece = RTE_MIN(n,
					lz->pages[pg].addr + lz->pages[pg].len -
							addr);
			ret = lazy_keep_write(lz, (uint64_t)pg, addr, piece,
					&cap, &bytes_cap);
			if (ret < 0)
				return ret;
		}
	}
	return ret;
}

/*
 * Keep what init wrote, put the pages back in place of the scratch,
 * register them and start the handler.
 */
static int
lazy_take_over(struct malloc_image_lazy *lz, char *err, size_t len)
{
	sigset_t all, old;
	int ret;

	ret = lz->scratch == NULL ? 0 : lazy_keep_writes(lz);
	if (ret < 0)
		return malloc_image_err_out(err, len, ret,
				"cannot keep what init wrote in the pages: %s",
				strerror(-ret));
	ret = eal_scratch_close(lz->scratch);
	lz->scratch = NULL;
	if (ret < 0)
		return malloc_image_err_out(err, len, ret,
				"cannot put its pages back in place: %s",
				strerror(-ret));
	ret = lazy_register(lz, err, len);
	if (ret < 0)
		return ret;
	/* The application's signals are not for this thread. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = -lazy_thread_start(&lz->handler, lazy_handler, lz);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret < 0)
		return malloc_image_err_out(err, len, ret,
				"cannot start its thread: %s", strerror(-ret));
	__atomic_store_n(&lz->handler_started, true, __ATOMIC_RELEASE);
	EAL_LOG(INFO,
			"--memzone-image-strategy=%s: %" PRIu64
			" pages of %s registered %.3f ms after the start, %" PRIu64
			" bytes written by init kept; filled on first touch%s",
			lz->ops->name, lz->n_pages, lz->path, lazy_ms(lz),
			lz->write_len,
			lz->n_prefetch_want > 0 ? " and by prefetch threads" :
						  " only");
	return 0;
}

static int
lazy_start(const struct malloc_image_lazy_ops *ops,
		const struct malloc_image_reader *r, char *err, size_t len)
{
	struct malloc_image_lazy *lz;
	int ret;

	if (r->img->hdr.n_zones == 0)
		return 0; /* no page to fill */
	if (lazy_running != NULL)
		return malloc_image_err_out(err, len, -EBUSY,
				"a lazy restore is already running");
	lz = calloc(1, sizeof(*lz));
	if (lz == NULL)
		return malloc_image_err_out(err, len, -ENOMEM, "out of memory");
	lz->ops = ops;
	lz->fill_fd = lz->stop_fd[0] = lz->stop_fd[1] = lz->img_fd = -1;
	pthread_mutex_init(&lz->hbounce_lock, NULL);
	clock_gettime(CLOCK_MONOTONIC, &lz->t0);
	lz->filling = r->filling;
	lz->complete_at_stop = r->complete_at_stop;
	ret = lazy_setup(lz, r->img, err, len);
	/* Before any thread could fill the last page and clear it. */
	if (ret == 0)
		__atomic_store_n(lz->filling,
				r->prefetch ? EAL_IMAGE_FILLING :
					      EAL_IMAGE_FILLING_ON_TOUCH,
				__ATOMIC_RELEASE);
	if (ret == 0 &&
			rte_mem_event_callback_register(LAZY_EVENT_NAME,
					lazy_mem_event, lz) < 0)
		ret = malloc_image_err_out(err, len, -rte_errno,
				"cannot watch for pages given back: %s",
				rte_strerror(rte_errno));
	lz->watching = ret == 0;
	if (ret == 0) {
		ret = lazy_bounce_get(lz, &lz->hbounce, true);
		if (ret < 0)
			malloc_image_err_out(err, len, ret,
					"no memory for a page buffer: %s",
					strerror(-ret));
	}
	lz->n_prefetch_want = r->prefetch ? lazy_n_prefetch(lz, r->n_threads) :
					    0;
	if (ret == 0)
		lazy_cover(lz);
	if (ret == 0 && lz->scratch == NULL)
		ret = lazy_take_over(lz, err, len);
	if (ret < 0) {
		__atomic_store_n(lz->filling, EAL_IMAGE_FILLED,
				__ATOMIC_RELEASE);
		lazy_unwatch(lz);
		lazy_free(lz);
		return ret;
	}
	pthread_once(&lazy_atfork_once, lazy_atfork_register);
	pthread_mutex_lock(&lazy_lock);
	__atomic_store_n(&lazy_running, lz, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&lazy_lock);
	return 0;
}

int
malloc_image_lazy_start(const struct malloc_image_lazy_ops *ops,
		const struct malloc_image_reader *r, char *err, size_t len)
{
	char why[768];
	int ret = lazy_start(ops, r, why, sizeof(why));

	if (ret < 0)
		return malloc_image_err_out(err, len, ret,
				"--memzone-image-strategy=%s: %s", ops->name,
				why);
	return 0;
}

int
malloc_image_lazy_run(char *err, size_t len)
{
	struct malloc_image_lazy *lz = lazy_running;
	sigset_t all, old;
	char why[768];
	int ret;

	if (lz == NULL)
		return 0;
	if (!lz->handler_started) {
		lz->prefetch_by_handler = true;
		ret = lazy_take_over(lz, why, sizeof(why));
		if (ret < 0)
			return malloc_image_err_out(err, len, ret,
					"--memzone-image-strategy=%s: %s",
					lz->ops->name, why);
		return 0;
	}
	/* The handler came with the start (no scratch): init is done now. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	lazy_prefetch_start(lz);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return 0;
}

/*
 * Fill every page still to come, here and now, @p why (for a message).
 * @return the pages this thread filled.
 */
static uint64_t
lazy_complete(struct malloc_image_lazy *lz, const char *why)
{
	struct lazy_bounce b = { 0 };
	bool borrowed;
	uint64_t i, n = 0;

	if (__atomic_load_n(&lz->n_done, __ATOMIC_ACQUIRE) == lz->n_pages)
		return 0;
	/* With no memory for one, the handler's: faults wait meanwhile. */
	borrowed = lazy_bounce_get(lz, &b, false) < 0;
	if (borrowed) {
		EAL_LOG(INFO,
				"--memzone-image-strategy=%s: no memory for a "
				"page buffer: the handler's fills the pages left "
				"%s",
				lz->ops->name, why);
		pthread_mutex_lock(&lz->hbounce_lock);
		b.buf = lz->hbounce.buf;
	}
	for (i = 0; i < lz->n_pages; i++)
		n += lazy_fill(lz, i, b.buf);
	if (borrowed)
		pthread_mutex_unlock(&lz->hbounce_lock);
	else
		lazy_bounce_put(&b);
	return n;
}

/*
 * fork() while pages are still to come: a child's mappings of the
 * hugepage files are not watched by the userfaultfd, so a page the child
 * touched first would come in empty, in the file both map, and the
 * parent would then find it in place and never fill it. The forking
 * thread fills every page left first, and waits for those that other threads
 * are filling.
 */
static void
lazy_atfork_prepare(void)
{
	struct malloc_image_lazy *lz;
	uint64_t i, n;

	pthread_mutex_lock(&lazy_lock);
	lz = __atomic_load_n(&lazy_running, __ATOMIC_ACQUIRE);
	/*
	 * Every page in: the child finds them all, nothing to wait for.
	 * Init not done: no thread has the memzones' addresses yet.
	 */
	if (lz == NULL ||
			!__atomic_load_n(&lz->handler_started,
					__ATOMIC_ACQUIRE) ||
			__atomic_load_n(&lz->n_done, __ATOMIC_ACQUIRE) ==
					lz->n_pages)
		return;
	n = lazy_complete(lz, "before fork(), which the child would see empty");
	for (i = 0; i < lz->n_pages; i++)
		lazy_wait_done(lz, i);
	if (n > 0)
		EAL_LOG(INFO,
				"--memzone-image-strategy=%s: fork(): filled "
				"the %" PRIu64 " pages left first",
				lz->ops->name, n);
}

/* After fork(), in the parent. */
static void
lazy_atfork_parent(void)
{
	pthread_mutex_unlock(&lazy_lock);
}

/*
 * In the child, which has every page and none of the threads: nothing
 * runs, nothing is to be stopped (a cleanup there would wait for threads
 * it does not have), and the lock is its own.
 */
static void
lazy_atfork_child(void)
{
	__atomic_store_n(&lazy_running, NULL, __ATOMIC_RELEASE);
	pthread_mutex_init(&lazy_lock, NULL);
}

static void
lazy_atfork_register(void)
{
	if (pthread_atfork(lazy_atfork_prepare, lazy_atfork_parent,
			    lazy_atfork_child) != 0)
		EAL_LOG(WARNING,
				"--memzone-image: cannot watch for fork(): a "
				"child forked before every page is in sees the "
				"pages left empty");
}

/* Stop @p lz and free it, under lazy_lock. */
static void
lazy_end(struct malloc_image_lazy *lz)
{
	/*
	 * The kept files must hold the memzones' bytes once we are gone.
	 * Init failed before the run: nothing to keep, and the mark that
	 * the kept memzones are being filled stays for the next start.
	 */
	bool complete = lz->complete_at_stop && lz->handler_started;

	if (complete)
		lazy_complete(lz,
				"before exit, which the kept files would "
				"then miss");
	__atomic_store_n(&lz->stop, 1, __ATOMIC_RELAXED);
	/* The handler joins the prefetchers it started. */
	if (!lz->prefetch_by_handler)
		lazy_prefetch_join(lz);
	if (lz->handler_started) {
		lazy_stop_handler(lz);
		pthread_join(lz->handler, NULL);
	}
	/*
	 * Every page is in, or held by a thread giving its memzone back:
	 * then the kept files hold what they must (the handler may have
	 * ended before that thread, and not said so).
	 */
	if (complete) {
		for (uint64_t p = 0; p < lz->n_pages; p++)
			lazy_wait_done(lz, p);
		eal_keep_filling(false);
	}
	lazy_unwatch(lz);
	__atomic_store_n(lz->filling, EAL_IMAGE_FILLED, __ATOMIC_RELEASE);
	__atomic_store_n(&lazy_running, NULL, __ATOMIC_RELEASE);
	lazy_free(lz);
}

void
malloc_image_lazy_stop(void)
{
	struct malloc_image_lazy *lz;

	pthread_mutex_lock(&lazy_lock);
	lz = lazy_running;
	if (lz != NULL)
		lazy_end(lz);
	pthread_mutex_unlock(&lazy_lock);
}
