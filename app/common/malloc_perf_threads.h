/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _MALLOC_PERF_THREADS_H_
#define _MALLOC_PERF_THREADS_H_

/**
 * @file
 * The multi-thread allocator benchmark of rtemem-malloc-perf --threads,
 * shared by the rtemem side and by the peer program that measures the
 * C library's malloc (or one preloaded in its place) and upstream DPDK.
 * It knows neither rtemem nor any peer: the caller gives the allocation
 * calls and the way to run a function on N threads at once.
 *
 * Each case is a shape, a block size and a thread count. Every thread
 * allocates and frees its own blocks, writing one byte of each, in
 * rounds of up to MT_BLOCKS blocks:
 *
 * - all-then-free: allocate the blocks, then free them in the same order;
 * - pairs: allocate a block and free it at once, as many times;
 * - remote: allocate the blocks, wait for every thread, then free the
 *   blocks the next thread allocated (thread i frees thread i+1's): a
 *   producer/consumer where every free is another thread's block. With
 *   one thread it is all-then-free.
 *
 * An operation is one allocation and one free. The time of a thread is
 * its time in its own calls (the wait between the two halves of remote
 * excluded); the wall time of a round runs from the first thread's start
 * to the last thread's end of each half. A case runs one untimed round,
 * then more for MT_WARMUP_NS, then MT_ROUNDS timed ones, and reports the
 * medians. A round runs the shape as many times as it takes MT_ROUND_NS,
 * as the last untimed round measured it.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/** Blocks per thread and round at most (malloc_perf_autotest's count). */
#define MT_BLOCKS 10000
/** Timed rounds of a case. */
#define MT_ROUNDS 5
/**
 * Runs of each case, the thread counts of a shape and size in turn, of
 * which the caller keeps the best: the gain from one thread to two then
 * compares runs a fraction of a second apart. On this VM a case's one
 * run on two threads took 1 to 2 times as long per thread as the runs
 * around it, as often as one in three cases. See mt_case_turn().
 */
#define MT_CASE_TURNS 3
/**
 * A shape and size starts no other turn of its thread counts once it has
 * run this long: a turn of the slowest cases (1 MiB blocks on threads
 * without a cache) takes seconds, and is not noise.
 */
#define MT_CASE_TURNS_NS 1000000000u
/**
 * Untimed rounds run this long after the first one (which maps the
 * case's memory) before the timed ones. A round of 10000 small blocks
 * lasts 0.1 to 0.3 ms, and a CPU that was idle before a case runs its
 * first few rounds up to twice as slowly (seen here with no allocator at
 * all, in a loop that only touches memory).
 */
#define MT_WARMUP_NS 20000000u
/**
 * A timed round lasts this long at least: the table or pairs of a
 * thread are repeated until it does (MT_MAX_REPS times at most).
 */
#define MT_ROUND_NS 2000000u
/** Repetitions of a round at most. */
#define MT_MAX_REPS 1000u
/**
 * The round trip of a cache line between two threads is measured in
 * MT_RTT_BATCHES batches of MT_RTT_TRIPS, the fastest batch kept: 50 us
 * to 0.3 ms here. The host of this VM moves its two vCPUs between cores
 * that share a cache (about 55 ns) and cores that do not (about 320 ns)
 * from one minute to the next, which sets what a free of another
 * thread's block costs.
 */
#define MT_RTT_TRIPS 100u
#define MT_RTT_BATCHES 10u
/** Threads of a case at most. */
#define MT_MAX_THREADS 64
/**
 * Bytes of blocks one thread holds at once at most: 10000 blocks up to
 * 64 KB, as malloc_perf_autotest allocates (so 1 MiB: 640).
 */
#define MT_THREAD_BYTES (640u << 20)

/** How the blocks of a case are allocated and freed. */
enum mt_shape {
	MT_ALL_THEN_FREE, /**< allocate them all, then free them all */
	MT_PAIRS, /**< allocate one and free it at once */
	MT_REMOTE, /**< allocate them all; the next thread frees them */
	MT_N_SHAPES
};

/** The allocator measured. */
struct mt_alloc_ops {
	/** Allocate @p size bytes, or return NULL. */
	void *(*alloc)(size_t size);
	/** Free what alloc returned (possibly on another thread). */
	void (*free)(void *p);
};

/**
 * Run @p fn on @p n threads at once, with indexes 0 .. n-1 (the calling
 * thread may be one of them), and return when every call returned.
 *
 * @return 0, or -1 if the threads could not be started.
 */
typedef int(mt_run_fn)(unsigned int n, void (*fn)(unsigned int idx, void *arg),
		void *arg, void *run_ctx);

/** One case to measure. */
struct mt_case {
	enum mt_shape shape;
	size_t size; /**< bytes per block */
	unsigned int threads; /**< 1 .. MT_MAX_THREADS */
};

/** What a case measured. */
struct mt_result {
	unsigned int blocks; /**< blocks per thread and round */
	unsigned int reps; /**< times each thread runs them per round */
	double ns_per_op; /**< median round: mean thread time per operation */
	double mops; /**< median round: all threads' operations per wall us */
	/**
	 * With two threads or more: the round trip of a cache line between
	 * threads 0 and 1 in ns, the worse of before and after the timed
	 * rounds; 0 with one thread.
	 */
	double rtt_ns;
	bool failed; /**< an allocation returned NULL */
};

/** Name of a shape as printed and parsed ("all-then-free", ...). */
const char *mt_shape_name(enum mt_shape shape);

/** @return the shape named @p name, or -1. */
int mt_shape_parse(const char *name);

/** The default block sizes, ascending: 64 B to 1 MiB. */
extern const size_t mt_sizes[];
/** Number of entries in mt_sizes. */
extern const unsigned int mt_n_sizes;

/**
 * Measure one case.
 *
 * @return
 *   0, or -1 if the threads could not be run or an allocation failed
 *   (@p res->failed then says which).
 */
int mt_case_run(const struct mt_case *c, const struct mt_alloc_ops *ops,
		mt_run_fn *run, void *run_ctx, struct mt_result *res);

/** @return CLOCK_MONOTONIC in ns. */
uint64_t mt_now_ns(void);

/**
 * Whether run @p i (from 0) of a shape and size is due, the
 * @p n_threads thread counts taken in turn, the first run having started
 * at @p start_ns (mt_now_ns()): MT_CASE_TURNS turns of them, and no turn
 * started after MT_CASE_TURNS_NS.
 */
bool mt_case_turn(unsigned int i, unsigned int n_threads, uint64_t start_ns);

/**
 * A runner on plain threads (pthreads), thread i pinned to the i-th CPU
 * the process may run on (wrapping around). @p run_ctx is unused.
 */
int mt_run_pthreads(unsigned int n, void (*fn)(unsigned int idx, void *arg),
		void *arg, void *run_ctx);

/** The launch calls of an EAL (rtemem's, or DPDK's opened by name). */
struct mt_lcore_launcher {
	/** rte_eal_remote_launch() */
	int (*launch)(int (*f)(void *), void *arg, unsigned int id);
	/** rte_eal_wait_lcore() */
	int (*wait)(unsigned int id);
	/** rte_lcore_count() */
	unsigned int (*count)(void);
};

/**
 * A runner on lcores 0 .. n-1, 0 being the calling thread (the main
 * lcore): @p run_ctx is a struct mt_lcore_launcher. The EAL arguments
 * name the lcores with -l or --lcores.
 */
int mt_run_lcores(unsigned int n, void (*fn)(unsigned int idx, void *arg),
		void *arg, void *run_ctx);

/**
 * The @p i-th CPU this process may run on, wrapping around, as
 * mt_run_pthreads() pins thread i; -1 if none can be read.
 */
int mt_nth_cpu(unsigned int i);

/**
 * Parse a list of thread counts ("1,2,4"), ascending and unique, each
 * from 1 to MT_MAX_THREADS.
 *
 * @return the number of entries (at most @p max), or -1.
 */
int mt_parse_threads(const char *s, unsigned int *v, unsigned int max);

/**
 * The line a peer prints per case, read back by mt_result_parse():
 * "mt-row SHAPE SIZE THREADS BLOCKS REPS NS_PER_OP MOPS RTT_NS".
 */
void mt_result_print(
		FILE *f, const struct mt_case *c, const struct mt_result *res);

/**
 * Parse one line of mt_result_print().
 *
 * @return 0, or -1 if @p line is not such a line.
 */
int mt_result_parse(const char *line, struct mt_case *c, struct mt_result *res);

#endif /* _MALLOC_PERF_THREADS_H_ */
