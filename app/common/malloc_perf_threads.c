/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * The multi-thread allocator benchmark (malloc_perf_threads.h). Threads
 * meet at a barrier that yields while it waits, since a case may run
 * more threads than there are CPUs; each keeps its times in a cache line
 * of its own, so the measuring writes nothing another thread reads
 * until the round is over.
 */

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "malloc_perf_threads.h"

#define CACHE_LINE 64

const size_t mt_sizes[] = { 64, 256, 1024, 4096, 16384, 65536, 262144,
	1048576 };
const unsigned int mt_n_sizes = sizeof(mt_sizes) / sizeof(mt_sizes[0]);

static const char *const shape_names[MT_N_SHAPES] = {
	[MT_ALL_THEN_FREE] = "all-then-free",
	[MT_PAIRS] = "pairs",
	[MT_REMOTE] = "remote",
};

/* One thread's record of one round. */
struct mt_rec {
	uint64_t start; /* ns, after the round's barrier */
	uint64_t end; /* ns, its last call of the round returned */
	uint64_t busy; /* ns in its own calls */
};

/* What one thread writes: a cache line (or more) of its own. */
struct mt_thread {
	struct mt_rec rec[MT_ROUNDS + 1];
	void **blocks; /* its blocks of the current repetition */
	unsigned int n; /* how many of them were allocated */
	bool failed;
} __attribute__((aligned(CACHE_LINE)));

/* A barrier for threads that may outnumber the CPUs. */
struct mt_barrier {
	_Alignas(CACHE_LINE) atomic_uint arrived;
	_Alignas(CACHE_LINE) atomic_uint generation;
	unsigned int n;
};

struct mt_shared {
	const struct mt_case *c;
	const struct mt_alloc_ops *ops;
	unsigned int blocks; /* per thread and repetition */
	unsigned int reps; /* repetitions per warm-up round */
	unsigned int timed_reps; /* per timed round: set with warm */
	struct mt_barrier barrier;
	atomic_bool failed; /* some thread's allocation failed */
	bool warm; /* thread 0 ends the warm-up: read after a barrier */
	/* Bounced between threads 0 and 1 by line_round_trip(). */
	_Alignas(CACHE_LINE) atomic_uint_fast64_t line;
	uint64_t rtt_ns; /* written by thread 0 only */
	struct mt_thread t[MT_MAX_THREADS];
};

const char *
mt_shape_name(enum mt_shape shape)
{
	return shape < MT_N_SHAPES ? shape_names[shape] : "?";
}

int
mt_shape_parse(const char *name)
{
	int i;

	for (i = 0; i < MT_N_SHAPES; i++)
		if (strcmp(name, shape_names[i]) == 0)
			return i;
	return -1;
}

uint64_t
mt_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void
barrier_wait(struct mt_barrier *b)
{
	unsigned int gen = atomic_load_explicit(
			&b->generation, memory_order_acquire);
	unsigned int spins = 0;

	if (atomic_fetch_add_explicit(&b->arrived, 1, memory_order_acq_rel) ==
			b->n - 1) {
		atomic_store_explicit(&b->arrived, 0, memory_order_relaxed);
		atomic_fetch_add_explicit(
				&b->generation, 1, memory_order_release);
		return;
	}
	while (atomic_load_explicit(&b->generation, memory_order_acquire) ==
			gen)
		if (++spins > 1000)
			sched_yield();
}

/*
 * The loops keep what they use in locals. They read it through the
 * shared state after every call, which the compiler must assume changed
 * it, and 64 byte pairs of rtemem took 12 ns in half of the cases and
 * 7.5 in the others, by where the state was allocated: likely a load of
 * it waited for the store into a block whose address had the same low
 * 12 bits, which the CPU compares first. Since, 7.4 ns in most cases.
 */

/* Allocate this thread's blocks. @return false if one failed. */
static bool
alloc_all(struct mt_shared *s, struct mt_thread *t)
{
	void *(*alloc)(size_t size) = s->ops->alloc;
	unsigned int n, blocks = s->blocks;
	size_t size = s->c->size;
	void **v = t->blocks;

	for (n = 0; n < blocks; n++) {
		void *p = alloc(size);

		if (p == NULL)
			break;
		*(volatile char *)p = (char)n;
		v[n] = p;
	}
	t->n = n;
	return n == blocks;
}

static void
free_all(struct mt_shared *s, struct mt_thread *t)
{
	void (*free_fn)(void *p) = s->ops->free;
	unsigned int i, n = t->n;
	void **v = t->blocks;

	for (i = 0; i < n; i++)
		free_fn(v[i]);
	t->n = 0;
}

static bool
pairs(struct mt_shared *s)
{
	void *(*alloc)(size_t size) = s->ops->alloc;
	void (*free_fn)(void *p) = s->ops->free;
	unsigned int i, blocks = s->blocks;
	size_t size = s->c->size;

	for (i = 0; i < blocks; i++) {
		void *p = alloc(size);

		if (p == NULL)
			return false;
		*(volatile char *)p = (char)i;
		free_fn(p);
	}
	return true;
}

/* One repetition of remote: this thread's time in its calls. */
static uint64_t
remote_rep(struct mt_shared *s, unsigned int idx, bool *ok)
{
	struct mt_thread *t = &s->t[idx];
	struct mt_thread *next = &s->t[(idx + 1) % s->c->threads];
	uint64_t t0, busy;

	t0 = mt_now_ns();
	*ok = alloc_all(s, t);
	busy = mt_now_ns() - t0;
	barrier_wait(&s->barrier);
	t0 = mt_now_ns();
	free_all(s, next);
	busy += mt_now_ns() - t0;
	/* next must not reuse its array before it is freed here */
	barrier_wait(&s->barrier);
	return busy;
}

static void
thread_round(struct mt_shared *s, unsigned int idx, unsigned int reps,
		struct mt_rec *rec)
{
	struct mt_thread *t = &s->t[idx];
	unsigned int r;
	bool ok = true;

	barrier_wait(&s->barrier);
	rec->start = mt_now_ns();
	rec->busy = 0;
	for (r = 0; r < reps; r++) {
		uint64_t t0 = mt_now_ns();

		switch (s->c->shape) {
		case MT_ALL_THEN_FREE:
			ok = alloc_all(s, t);
			free_all(s, t);
			rec->busy += mt_now_ns() - t0;
			break;
		case MT_PAIRS:
			ok = pairs(s);
			rec->busy += mt_now_ns() - t0;
			break;
		default:
			/* every thread runs every repetition: the barriers */
			rec->busy += remote_rep(s, idx, &ok);
			break;
		}
		if (!ok)
			atomic_store(&s->failed, true);
		if (s->c->shape != MT_REMOTE && !ok)
			break;
	}
	rec->end = mt_now_ns();
	if (!ok)
		t->failed = true;
}

/*
 * The repetitions that make a round last MT_ROUND_NS at least, when
 * @p reps took @p ns: threads start a round a few microseconds apart,
 * which would weigh in a round of 30 us.
 */
static unsigned int
round_reps(unsigned int reps, uint64_t ns)
{
	uint64_t want;

	if (ns == 0 || ns >= MT_ROUND_NS)
		return reps;
	want = ((uint64_t)reps * MT_ROUND_NS + ns - 1) / ns;
	return want > MT_MAX_REPS ? MT_MAX_REPS : (unsigned int)want;
}

/*
 * Untimed rounds into rec[0]: the first, which may map and clear all the
 * memory of the case (640 MB of 64 KB blocks: 30 ms and more), then more
 * until MT_WARMUP_NS have passed since it ended. Every thread runs as
 * many: thread 0 decides before the barrier that ends a round, and the
 * others read its decision after it. @return false if a round failed.
 */
static bool
thread_warm_up(struct mt_shared *s, unsigned int idx)
{
	const struct mt_rec *rec = &s->t[idx].rec[0];
	uint64_t first_end = 0;

	do {
		thread_round(s, idx, s->reps, &s->t[idx].rec[0]);
		if (idx == 0 && first_end == 0)
			first_end = rec->end;
		else if (idx == 0 && rec->end - first_end >= MT_WARMUP_NS) {
			s->timed_reps = round_reps(
					s->reps, rec->end - rec->start);
			s->warm = true;
		}
		/* a round with a failure ends the case for every thread */
		barrier_wait(&s->barrier);
		if (atomic_load(&s->failed))
			return false;
	} while (!s->warm);
	return true;
}

/* Wait until s->line holds @p v; yield if its peer shares the CPU. */
static void
line_wait(struct mt_shared *s, uint64_t v)
{
	unsigned int spins = 0;

	while (atomic_load_explicit(&s->line, memory_order_acquire) != v)
		if (++spins > 1000)
			sched_yield();
}

/*
 * Threads 0 and 1 hand s->line to each other MT_RTT_BATCHES times
 * MT_RTT_TRIPS times; thread 0 keeps the fastest batch's mean round trip
 * in s->rtt_ns if it is above what it holds. The others wait at the
 * barrier that follows.
 */
static void
line_round_trip(struct mt_shared *s, unsigned int idx)
{
	uint64_t v = 0, best = UINT64_MAX;
	unsigned int b, i;

	barrier_wait(&s->barrier);
	if (idx > 1)
		return;
	for (b = 0; b < MT_RTT_BATCHES; b++) {
		uint64_t t0 = mt_now_ns();

		for (i = 0; i < MT_RTT_TRIPS; i++) {
			/* thread 0 writes odd values, thread 1 even ones */
			if (idx == 0) {
				atomic_store_explicit(&s->line, ++v,
						memory_order_release);
				line_wait(s, ++v);
			} else {
				line_wait(s, ++v);
				atomic_store_explicit(&s->line, ++v,
						memory_order_release);
			}
		}
		t0 = (mt_now_ns() - t0) / MT_RTT_TRIPS;
		best = t0 < best ? t0 : best;
	}
	if (idx == 0 && best > s->rtt_ns)
		s->rtt_ns = best;
}

static void
thread_main(unsigned int idx, void *arg)
{
	struct mt_shared *s = arg;
	unsigned int round;

	if (!thread_warm_up(s, idx))
		return;
	if (s->c->threads > 1)
		line_round_trip(s, idx);
	for (round = 1; round <= MT_ROUNDS; round++) {
		thread_round(s, idx, s->timed_reps, &s->t[idx].rec[round]);
		barrier_wait(&s->barrier);
		if (atomic_load(&s->failed))
			break;
	}
	/* the host may move the CPUs during the rounds: the worse counts */
	if (s->c->threads > 1 && !atomic_load(&s->failed))
		line_round_trip(s, idx);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double
median(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The medians of the timed rounds (rec[0] is the last warm-up round). */
static void
result_fill(const struct mt_shared *s, struct mt_result *res)
{
	double ns[MT_ROUNDS], mops[MT_ROUNDS];
	unsigned int n = s->c->threads, r, i;
	double ops = (double)s->blocks * s->timed_reps;

	for (r = 1; r <= MT_ROUNDS; r++) {
		uint64_t first = UINT64_MAX, last = 0, busy = 0;

		for (i = 0; i < n; i++) {
			const struct mt_rec *rec = &s->t[i].rec[r];

			first = rec->start < first ? rec->start : first;
			last = rec->end > last ? rec->end : last;
			busy += rec->busy;
		}
		ns[r - 1] = (double)busy / n / ops;
		mops[r - 1] = ops * n / ((double)(last - first) / 1000.0);
	}
	res->ns_per_op = median(ns, MT_ROUNDS);
	res->mops = median(mops, MT_ROUNDS);
}

bool
mt_case_turn(unsigned int i, unsigned int n_threads, uint64_t start_ns)
{
	if (n_threads == 0 || i >= MT_CASE_TURNS * n_threads)
		return false;
	return i % n_threads != 0 || i == 0 ||
			mt_now_ns() - start_ns < MT_CASE_TURNS_NS;
}

int
mt_case_run(const struct mt_case *c, const struct mt_alloc_ops *ops,
		mt_run_fn *run, void *run_ctx, struct mt_result *res)
{
	struct mt_shared *s;
	unsigned int i;
	int ret = -1;

	memset(res, 0, sizeof(*res));
	if (c->threads < 1 || c->threads > MT_MAX_THREADS || c->size == 0)
		return -1;
	s = aligned_alloc(CACHE_LINE, sizeof(*s));
	if (s == NULL)
		return -1;
	memset(s, 0, sizeof(*s));
	s->c = c;
	s->ops = ops;
	s->blocks = MT_THREAD_BYTES / c->size;
	s->blocks = s->blocks > MT_BLOCKS ? MT_BLOCKS : s->blocks;
	s->blocks = s->blocks ? s->blocks : 1;
	s->reps = MT_BLOCKS / s->blocks;
	s->barrier.n = c->threads;
	for (i = 0; i < c->threads; i++) {
		s->t[i].blocks = calloc(s->blocks, sizeof(void *));
		if (s->t[i].blocks == NULL)
			goto out;
	}
	if (run(c->threads, thread_main, s, run_ctx) == 0 &&
			!atomic_load(&s->failed)) {
		result_fill(s, res);
		ret = 0;
	}
	res->failed = atomic_load(&s->failed);
	res->blocks = s->blocks;
	res->reps = s->timed_reps;
	res->rtt_ns = (double)s->rtt_ns;
out:
	for (i = 0; i < c->threads; i++)
		free(s->t[i].blocks);
	free(s);
	return ret;
}

struct pthread_arg {
	pthread_t tid;
	unsigned int idx;
	int cpu; /* -1: not pinned */
	void (*fn)(unsigned int idx, void *arg);
	void *arg;
};

static void *
pthread_main(void *p)
{
	struct pthread_arg *a = p;

	if (a->cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(a->cpu, &set);
		pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	}
	a->fn(a->idx, a->arg);
	return NULL;
}

int
mt_nth_cpu(unsigned int i)
{
	cpu_set_t set;
	int cpu, count;

	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return -1;
	count = CPU_COUNT(&set);
	if (count == 0)
		return -1;
	i %= (unsigned int)count;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &set) && i-- == 0)
			return cpu;
	return -1;
}

int
mt_run_pthreads(unsigned int n, void (*fn)(unsigned int idx, void *arg),
		void *arg, void *run_ctx)
{
	struct pthread_arg a[MT_MAX_THREADS];
	unsigned int i, started;
	int ret = 0;

	(void)run_ctx;
	if (n > MT_MAX_THREADS)
		return -1;
	for (started = 0; started < n; started++) {
		a[started] = (struct pthread_arg){ .idx = started,
			.cpu = mt_nth_cpu(started),
			.fn = fn,
			.arg = arg };
		if (pthread_create(&a[started].tid, NULL, pthread_main,
				    &a[started]) != 0) {
			ret = -1;
			break;
		}
	}
	/*
	 * Threads that did start wait at the first barrier for the others:
	 * a partial start cannot be undone, so it must not happen. Give up
	 * the whole process rather than hang.
	 */
	if (ret != 0 && started > 0)
		abort();
	for (i = 0; i < started; i++)
		pthread_join(a[i].tid, NULL);
	return ret;
}

/* A worker lcore's call. */
struct lcore_call {
	void (*fn)(unsigned int idx, void *arg);
	void *arg;
	unsigned int idx;
};

static int
lcore_call_main(void *p)
{
	struct lcore_call *c = p;

	c->fn(c->idx, c->arg);
	return 0;
}

int
mt_run_lcores(unsigned int n, void (*fn)(unsigned int idx, void *arg),
		void *arg, void *run_ctx)
{
	const struct mt_lcore_launcher *l = run_ctx;
	struct lcore_call calls[MT_MAX_THREADS];
	unsigned int i;

	if (n > MT_MAX_THREADS || n > l->count())
		return -1;
	for (i = 1; i < n; i++) {
		calls[i] = (struct lcore_call){ fn, arg, i };
		if (l->launch(lcore_call_main, &calls[i], i) != 0) {
			/* the launched ones wait at the first barrier */
			fprintf(stderr, "lcore %u could not be launched\n", i);
			abort();
		}
	}
	fn(0, arg);
	for (i = 1; i < n; i++)
		l->wait(i);
	return 0;
}

int
mt_parse_threads(const char *s, unsigned int *v, unsigned int max)
{
	unsigned int n = 0;
	const char *p = s;

	while (*p != '\0') {
		char *end;
		unsigned long x;

		if (*p < '0' || *p > '9')
			return -1;
		errno = 0;
		x = strtoul(p, &end, 10);
		if (errno != 0 || x < 1 || x > MT_MAX_THREADS || n == max ||
				(n > 0 && x <= v[n - 1]))
			return -1;
		v[n++] = (unsigned int)x;
		if (*end == ',' && end[1] != '\0')
			end++;
		else if (*end != '\0')
			return -1;
		p = end;
	}
	return n > 0 ? (int)n : -1;
}

void
mt_result_print(FILE *f, const struct mt_case *c, const struct mt_result *res)
{
	fprintf(f, "mt-row %s %zu %u %u %u %.3f %.4f %.0f\n",
			mt_shape_name(c->shape), c->size, c->threads,
			res->blocks, res->reps, res->ns_per_op, res->mops,
			res->rtt_ns);
}

int
mt_result_parse(const char *line, struct mt_case *c, struct mt_result *res)
{
	char shape[32];
	int sh;

	memset(res, 0, sizeof(*res));
	if (sscanf(line, "mt-row %31s %zu %u %u %u %lf %lf %lf", shape,
			    &c->size, &c->threads, &res->blocks, &res->reps,
			    &res->ns_per_op, &res->mops, &res->rtt_ns) != 8)
		return -1;
	sh = mt_shape_parse(shape);
	if (sh < 0)
		return -1;
	c->shape = (enum mt_shape)sh;
	return 0;
}
