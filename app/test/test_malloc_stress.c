/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Several lcores allocating and freeing at once, in a child process of
 * its own: sizes from 64 B to 1 MiB (slabs, lcore caches and their size
 * classes, the heap), rte_zmalloc() checked for zeros, rte_realloc(),
 * blocks handed to the next lcore to free (remote frees), and a trim
 * thread that drains the caches and gives pages back while they work
 * (--malloc-decay=20). Every block carries a pattern checked before it
 * is freed. At the end the heap is checked, every allocation is gone and
 * rte_malloc_heap_trim() gives every page back.
 *
 * Configurations: free pages kept (the default amount), given back at
 * once (--malloc-retain=0), and --single-file-segments. The lcores are
 * four, on the CPUs the test may use (several on one CPU if need be).
 */

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_common.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>

#include "malloc_check.h"
#include "test.h"

#define ST_LCORES 4
#define ST_SLOTS 256 /* blocks an lcore holds at most */
#define ST_RING 64 /* blocks in flight to the next lcore */
#define ST_HEAD 256 /* bytes written at a block's start */
#define ST_TAIL 64 /* and at its end */

struct st_block {
	uint8_t *p;
	size_t size;
	uint8_t pat;
};

/* Blocks one lcore hands to the next: one producer, one consumer. */
struct st_ring {
	struct st_block b[ST_RING];
	uint32_t head; /* written by the producer */
	uint32_t tail; /* written by the consumer */
} __rte_cache_aligned;

struct st_lcore {
	uint64_t rng;
	struct st_block slot[ST_SLOTS];
	uint64_t ops;
	int failed; /* the step that failed, 0 if none */
	struct st_ring to_next; /* to lcore (i + 1) % n */
} __rte_cache_aligned;

struct st_run {
	unsigned int n;
	double end_ms;
	struct st_lcore l[ST_LCORES];
};

static double
st_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static uint64_t
st_rand(struct st_lcore *l)
{
	l->rng ^= l->rng << 13;
	l->rng ^= l->rng >> 7;
	l->rng ^= l->rng << 17;
	return l->rng;
}

/* 64 B to 1 MiB, mostly small, as programs allocate. */
static size_t
st_size(struct st_lcore *l)
{
	unsigned int shift = 6 + (unsigned int)(st_rand(l) % 15);
	size_t size;

	if (shift > 14 && st_rand(l) % 4 != 0)
		shift -= 8;
	size = (size_t)1 << shift;
	return size + st_rand(l) % (size / 2 + 1);
}

static void
st_mark(struct st_block *b)
{
	size_t head = RTE_MIN(b->size, (size_t)ST_HEAD);
	size_t tail = RTE_MIN(b->size, (size_t)ST_TAIL);

	memset(b->p, b->pat, head);
	memset(b->p + b->size - tail, b->pat, tail);
}

static bool
st_marked(const struct st_block *b, size_t size)
{
	size_t head = RTE_MIN(size, (size_t)ST_HEAD);
	size_t tail = RTE_MIN(size, (size_t)ST_TAIL), i;

	for (i = 0; i < head; i++)
		if (b->p[i] != b->pat)
			return false;
	for (i = size - tail; i < size; i++)
		if (b->p[i] != b->pat)
			return false;
	return true;
}

/* Every byte zero up to 64 KB; beyond, every 4 KB and the ends. */
static bool
st_zero(const uint8_t *p, size_t size)
{
	size_t step = size <= 65536 ? 1 : 4096, i;

	for (i = 0; i < size; i += step)
		if (p[i] != 0)
			return false;
	return p[size - 1] == 0;
}

static int
st_alloc(struct st_lcore *l, struct st_block *b, unsigned int lcore)
{
	bool zero = st_rand(l) % 4 == 0;

	b->size = st_size(l);
	b->pat = (uint8_t)(lcore << 5 | (l->ops & 31) | 1);
	b->p = zero ? rte_zmalloc(NULL, b->size, 0) :
		      rte_malloc(NULL, b->size, 0);
	if (b->p == NULL)
		return 1;
	if (zero && !st_zero(b->p, b->size))
		return 2;
	st_mark(b);
	return 0;
}

static int
st_realloc(struct st_lcore *l, struct st_block *b)
{
	size_t size = st_size(l), keep = RTE_MIN(size, b->size), i;
	uint8_t *p = rte_realloc(b->p, size, 0);

	if (p == NULL)
		return 3;
	b->p = p;
	/* The head is kept as written; the old tail may be cut off. */
	for (i = 0; i < RTE_MIN(keep, (size_t)ST_HEAD); i++)
		if (p[i] != b->pat)
			return 4;
	b->size = size;
	st_mark(b);
	return 0;
}

/* Hand @p b to the next lcore, if its ring has room. */
static bool
st_send(struct st_ring *r, const struct st_block *b)
{
	uint32_t head = r->head;

	if (head - __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE) == ST_RING)
		return false;
	r->b[head % ST_RING] = *b;
	__atomic_store_n(&r->head, head + 1, __ATOMIC_RELEASE);
	return true;
}

/* Free what the previous lcore handed over. @return a failed step. */
static int
st_receive(struct st_ring *r)
{
	uint32_t tail = r->tail;

	while (tail != __atomic_load_n(&r->head, __ATOMIC_ACQUIRE)) {
		struct st_block *b = &r->b[tail % ST_RING];

		if (!st_marked(b, b->size))
			return 5;
		rte_free(b->p);
		tail++;
		__atomic_store_n(&r->tail, tail, __ATOMIC_RELEASE);
	}
	return 0;
}

static int
st_step(struct st_run *run, unsigned int i)
{
	struct st_lcore *l = &run->l[i];
	struct st_ring *from = &run->l[(i + run->n - 1) % run->n].to_next;
	struct st_block *b = &l->slot[st_rand(l) % ST_SLOTS];
	unsigned int op = (unsigned int)(st_rand(l) % 8);
	int ret;

	l->ops++;
	/* The trim thread leaves busy lcores alone: trim among them. */
	if (i == 0 && l->ops % 4096 == 0 &&
			rte_malloc_heap_trim(SOCKET_ID_ANY) < 0)
		return 8;
	if (b->p == NULL)
		return st_alloc(l, b, i);
	if (!st_marked(b, b->size))
		return 6;
	if (op == 0)
		return st_realloc(l, b);
	if (op == 1 && st_send(&l->to_next, b)) {
		b->p = NULL;
		return st_receive(from);
	}
	rte_free(b->p);
	b->p = NULL;
	ret = st_receive(from);
	return ret != 0 ? ret : st_alloc(l, b, i);
}

static int
st_lcore_main(void *arg)
{
	struct st_run *run = arg;
	unsigned int i = rte_lcore_id(), k;
	struct st_lcore *l = &run->l[i];

	l->rng = 0x9e3779b97f4a7c15ULL * (i + 1);
	while (l->failed == 0 && st_now_ms() < run->end_ms)
		l->failed = st_step(run, i);
	for (k = 0; k < ST_SLOTS; k++) {
		if (l->slot[k].p != NULL && l->failed == 0 &&
				!st_marked(&l->slot[k], l->slot[k].size))
			l->failed = 7;
		rte_free(l->slot[k].p);
		l->slot[k].p = NULL;
	}
	return 0;
}

/*
 * Child: four lcores for argv[1] ms, then the checks. Returns the number
 * of the failed step (lcore steps are 1-8).
 */
static int
st_child(int argc, char **argv)
{
	static struct st_run run;
	struct rte_malloc_socket_stats s;
	long base_kb = test_own_hugetlb_kb();
	char err[256] = "";
	uint64_t ops = 0;
	unsigned int i;

	if (argc < 2 || rte_lcore_count() != ST_LCORES)
		return 10;
	run.n = ST_LCORES;
	run.end_ms = st_now_ms() + atof(argv[1]);
	rte_eal_mp_remote_launch(st_lcore_main, &run, CALL_MAIN);
	rte_eal_mp_wait_lcore();
	/* What is still in flight on the rings. */
	for (i = 0; i < ST_LCORES; i++)
		if (st_receive(&run.l[i].to_next) != 0)
			return 11;
	for (i = 0; i < ST_LCORES; i++) {
		if (run.l[i].failed != 0) {
			printf("lcore %u: step %d failed after %llu ops\n", i,
					run.l[i].failed,
					(unsigned long long)run.l[i].ops);
			return run.l[i].failed;
		}
		ops += run.l[i].ops;
	}
	if (malloc_heap_check_all(true, err, sizeof(err)) < 0) {
		printf("heap check: %s\n", err);
		return 12;
	}
	if (rte_malloc_get_socket_stats(0, &s) < 0 || s.alloc_count != 0) {
		printf("%u allocations left\n", s.alloc_count);
		return 13;
	}
	if (rte_malloc_heap_trim(SOCKET_ID_ANY) < 0 ||
			rte_malloc_get_socket_stats(0, &s) < 0 ||
			s.heap_totalsz_bytes != 0 ||
			test_own_hugetlb_kb() > base_kb) {
		printf("after trim: heap %zu bytes, %ld kB mapped, %ld at start\n",
				s.heap_totalsz_bytes, test_own_hugetlb_kb(),
				base_kb);
		return 14;
	}
	printf("stress ok: %llu operations on %u lcores\n",
			(unsigned long long)ops, ST_LCORES);
	return 0;
}
REGISTER_CHILD_ACTION(malloc_stress, st_child)

/* "0@a,1@b,2@a,3@b": four lcores on the first two usable CPUs. */
static int
st_lcores_arg(char *buf, size_t len)
{
	cpu_set_t set;
	int cpus[2] = { -1, -1 }, n = 0, cpu;

	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return -1;
	for (cpu = 0; cpu < CPU_SETSIZE && n < 2; cpu++)
		if (CPU_ISSET(cpu, &set))
			cpus[n++] = cpu;
	if (n == 0)
		return -1;
	if (n == 1)
		cpus[1] = cpus[0];
	snprintf(buf, len, "0@%d,1@%d,2@%d,3@%d", cpus[0], cpus[1], cpus[0],
			cpus[1]);
	return 0;
}

static int
st_run(const char *name, const char *opt)
{
	char dir[256], dir_arg[300], prefix[64], lcores[64], lcores_arg[80];
	const char *args[10];
	const char *ms = getenv("RTEMEM_STRESS_MS");
	struct test_child_result res;
	int n = 0, ret;

	if (st_lcores_arg(lcores, sizeof(lcores)) < 0)
		return TEST_FAILED;
	if (test_scratch_dir(name, dir, sizeof(dir)) < 0)
		return test_skip_hugepages("no hugetlbfs for a scratch dir");
	snprintf(dir_arg, sizeof(dir_arg), "--huge-dir=%s", dir);
	snprintf(prefix, sizeof(prefix), "--file-prefix=st%s", name);
	snprintf(lcores_arg, sizeof(lcores_arg), "--lcores=%s", lcores);
	args[n++] = dir_arg;
	args[n++] = prefix;
	args[n++] = lcores_arg;
	args[n++] = "--socket-limit=512";
	args[n++] = "--malloc-decay=20";
	if (opt != NULL)
		args[n++] = opt;
	args[n++] = "--";
	args[n++] = ms != NULL ? ms : "1500";
	args[n] = NULL;
	ret = test_child_run("malloc_stress", args, &res);
	test_dir_clear(dir);
	TEST_ASSERT_SUCCESS(test_scratch_dir_remove(dir), "scratch dir");
	TEST_ASSERT_SUCCESS(ret, "child did not run: %s", res.output);
	TEST_ASSERT(res.exit_code == 0 && res.signal == 0,
			"%s: step %d, signal %d:\n%s", name, res.exit_code,
			res.signal, res.output);
	TEST_ASSERT_STR_CONTAINS(res.output, "stress ok", "%s", res.output);
	return TEST_SUCCESS;
}

static int
test_stress_keep(void)
{
	return st_run("keep", NULL);
}

static int
test_stress_eager(void)
{
	return st_run("eager", "--malloc-retain=0");
}

static int
test_stress_single(void)
{
	return st_run("single", "--single-file-segments");
}

static struct unit_test_suite st_suite = {
	.suite_name = "lcores allocating at once",
	.unit_test_cases = {
		TEST_CASE(test_stress_keep),
		TEST_CASE(test_stress_eager),
		TEST_CASE(test_stress_single),
		TEST_CASES_END(),
	},
};

static int
test_malloc_stress(void)
{
	return unit_test_suite_runner(&st_suite);
}

REGISTER_FAST_TEST(malloc_stress_autotest, NOHUGE_SKIP, ASAN_OK,
		test_malloc_stress);
