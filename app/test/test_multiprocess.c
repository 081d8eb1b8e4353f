/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Secondary processes, with real processes sharing one prefix.
 *
 *  share    a primary and two secondaries use one heap and one memzone
 *           table: each allocates (growing the heap), reads what the
 *           others wrote, frees what another allocated (shrinking it);
 *           at every step each process maps exactly the pages the lists
 *           say are used (its own HugetlbPages against a memseg walk), in
 *           a file per page and in --single-file-segments;
 *  stopped  a secondary stopped with SIGSTOP makes the primary's growth
 *           fail after EAL_MP_TIMEOUT_MS with the secondary's PID, not
 *           hang; once it runs again it catches up and the next growth
 *           reaches it;
 *  refusals no primary, another --huge-dir, an lcore the primary has, a
 *           --no-huge primary, a layout the primary does not run: each a
 *           clear error; --proc-type=auto attaches to a running primary;
 *  orphan   a primary killed under a running secondary: a new primary
 *           is refused, naming the secondary, until it exits;
 *  taken    a secondary with part of the primary's range taken is
 *           refused, naming the range and what holds it;
 *  kill     secondaries churning the heaps are killed at random instants
 *           while the primary churns: nobody hangs, the heaps stay sound.
 *
 * Each case has its own prefix and hugetlbfs directory and leaves
 * nothing behind.
 */

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_memory.h>
#include <rte_memzone.h>

#include <rte_random.h>

#include "eal_memcfg.h"
#include "malloc_check.h"
#include "malloc_heap.h"
#include "malloc_state.h"
#include "test.h"

#define MP_MAGIC 0x6d70626f78ULL /* "mpbox" */

/* What the processes of a case tell each other, in a memzone. */
struct mp_box {
	uint64_t magic;
	uint8_t *p_block; /* the primary's */
	uint8_t *a_block; /* secondary A's */
	uint8_t *b_block; /* secondary B's */
	size_t p_len, a_len, b_len;
	int32_t s_pid; /* the stopped case's secondary */
	uint32_t grown; /* the stopped case: the primary grew at last */
	uint8_t *g_block; /* what it grew */
	size_t g_len;
	rte_iova_t a_iova; /* of a_block, as A found it */
};

/*
 * Whether @p p's IOVA is what this process finds in pagemap (IOVA as
 * PA) or its address (as VA): an IOVA another process looked up first
 * holds here too.
 */
static bool
mp_iova_ok(const void *p, rte_iova_t iova)
{
	if (rte_eal_iova_mode() == RTE_IOVA_VA)
		return iova == (rte_iova_t)(uintptr_t)p;
	return iova != RTE_BAD_IOVA && iova == rte_mem_virt2phy(p);
}

/* ---- child side ---- */

static int
mp_count_used(const struct rte_memseg_list *msl, const struct rte_memseg *ms,
		void *arg)
{
	uint64_t *kb = arg;

	if (!msl->external)
		*kb += ms->len >> 10;
	return 0;
}

/*
 * Whether this process maps exactly the pages the lists say are used.
 * Prints "map KB used KB" either way.
 */
static bool
mp_maps_used(const char *who)
{
	uint64_t used = 0;
	long own;

	rte_memseg_walk(mp_count_used, &used);
	own = test_own_hugetlb_kb();
	printf("%s: map %ld kB used %" PRIu64 " kB\n", who, own, used);
	return own >= 0 && (uint64_t)own == used;
}

static bool
mp_holds(const uint8_t *p, size_t len, uint8_t v)
{
	size_t i;

	for (i = 0; i < len && p[i] == v; i++)
		;
	return i == len;
}

#define MP_CHECK(cond, ...) \
	do { \
		if (!(cond)) { \
			printf("FAIL line %d: ", __LINE__); \
			printf(__VA_ARGS__); \
			printf("\n"); \
			return 1; \
		} \
	} while (0)

static struct mp_box *
mp_box_find(void)
{
	const struct rte_memzone *mz = rte_memzone_lookup("mp_box");

	if (mz == NULL || ((struct mp_box *)mz->addr)->magic != MP_MAGIC)
		return NULL;
	return mz->addr;
}

/* The primary: a box, a block; then, told to, check the others' work. */
static int
mp_child_primary(int argc, char **argv)
{
	const struct rte_memzone *mz;
	struct mp_box *box;

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	MP_CHECK(rte_eal_process_type() == RTE_PROC_PRIMARY, "type");
	mz = rte_memzone_reserve("mp_box", sizeof(*box), SOCKET_ID_ANY, 0);
	MP_CHECK(mz != NULL, "box: %s", rte_strerror(rte_errno));
	box = mz->addr;
	box->p_len = 3 << 20;
	box->p_block = rte_malloc(NULL, box->p_len, 0);
	MP_CHECK(box->p_block != NULL, "p_block");
	memset(box->p_block, 0xa5, box->p_len);
	__atomic_store_n(&box->magic, MP_MAGIC, __ATOMIC_RELEASE);
	MP_CHECK(mp_maps_used("primary"), "primary maps");
	test_child_ready_hold();
	/* A's block, grown by A; B's, grown by B; P's, freed by B. */
	MP_CHECK(box->p_block == NULL, "B did not free the primary's block");
	MP_CHECK(mp_holds(box->a_block, box->a_len, 0x5a), "A's block");
	MP_CHECK(mp_holds(box->b_block, box->b_len, 0x3c), "B's block");
	MP_CHECK(rte_memzone_lookup("mp_a") == NULL, "mp_a was freed by B");
	MP_CHECK(rte_malloc_validate(box->a_block, NULL) == 0, "validate");
	MP_CHECK(rte_mem_virt2iova(box->a_block) == box->a_iova &&
					mp_iova_ok(box->a_block, box->a_iova),
			"A's block: IOVA 0x%" PRIx64
			" as A found it, 0x%" PRIx64 " here",
			box->a_iova, rte_mem_virt2iova(box->a_block));
	MP_CHECK(mp_maps_used("primary"), "primary maps at the end");
	rte_free(box->a_block);
	rte_free(box->b_block);
	MP_CHECK(mp_maps_used("primary"), "primary maps after freeing");
	printf("primary ok\n");
	return 0;
}
REGISTER_CHILD_ACTION(mp_primary, mp_child_primary)

/* Secondary A: read the primary's block, grow the heap, stay. */
static int
mp_child_a(int argc, char **argv)
{
	const struct rte_memzone *mz;
	struct mp_box *box;

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	MP_CHECK(rte_eal_process_type() == RTE_PROC_SECONDARY, "type");
	box = mp_box_find();
	MP_CHECK(box != NULL, "no box");
	MP_CHECK(mp_holds(box->p_block, box->p_len, 0xa5), "P's block");
	MP_CHECK(mp_maps_used("A"), "A maps at start");
	box->a_len = 6 << 20;
	box->a_block = rte_malloc(NULL, box->a_len, 0);
	MP_CHECK(box->a_block != NULL, "a_block");
	memset(box->a_block, 0x5a, box->a_len);
	box->a_iova = rte_mem_virt2iova(box->a_block);
	MP_CHECK(mp_iova_ok(box->a_block, box->a_iova), "A's block: IOVA");
	MP_CHECK(mp_iova_ok(box->p_block, rte_mem_virt2iova(box->p_block)),
			"P's block: IOVA");
	mz = rte_memzone_reserve("mp_a", 1 << 20, SOCKET_ID_ANY, 0);
	MP_CHECK(mz != NULL, "mp_a: %s", rte_strerror(rte_errno));
	memset(mz->addr, 0x77, mz->len);
	MP_CHECK(mp_maps_used("A"), "A maps after growing");
	test_child_ready_hold();
	/* B grew the heap and shrank it while A ran. */
	MP_CHECK(mp_holds(box->b_block, box->b_len, 0x3c), "B's block");
	MP_CHECK(mp_maps_used("A"), "A maps at the end");
	printf("A ok\n");
	return 0;
}
REGISTER_CHILD_ACTION(mp_a, mp_child_a)

static void
mp_count_zone(const struct rte_memzone *mz, void *arg)
{
	RTE_SET_USED(mz);
	(*(unsigned int *)arg)++;
}

/* Secondary B: use A's work, free the primary's block, grow, exit. */
static int
mp_child_b(int argc, char **argv)
{
	const struct rte_memzone *mz;
	unsigned int n_zones;
	struct mp_box *box;
	uint8_t *r;

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	MP_CHECK(rte_eal_process_type() == RTE_PROC_SECONDARY, "type");
	box = mp_box_find();
	MP_CHECK(box != NULL, "no box");
	MP_CHECK(mp_holds(box->a_block, box->a_len, 0x5a), "A's block");
	mz = rte_memzone_lookup("mp_a");
	MP_CHECK(mz != NULL && mp_holds(mz->addr, mz->len, 0x77), "mp_a");
	n_zones = 0;
	rte_memzone_walk(mp_count_zone, &n_zones);
	MP_CHECK(n_zones == 2, "the walk found %u memzones, not 2", n_zones);
	MP_CHECK(rte_memzone_free(mz) == 0, "free mp_a");
	rte_free(box->p_block);
	box->p_block = NULL;
	box->b_len = 5 << 20;
	box->b_block = rte_zmalloc(NULL, box->b_len, 0);
	MP_CHECK(box->b_block != NULL, "b_block");
	MP_CHECK(mp_holds(box->b_block, box->b_len, 0), "zmalloc: zeros");
	r = rte_realloc(box->b_block, box->b_len + (1 << 20), 0);
	MP_CHECK(r != NULL, "realloc");
	box->b_block = r;
	memset(box->b_block, 0x3c, box->b_len);
	MP_CHECK(mp_maps_used("B"), "B maps");
	printf("B ok\n");
	return 0;
}
REGISTER_CHILD_ACTION(mp_b, mp_child_b)

static double
mp_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/*
 * The stopped case's primary: told to, grow while the secondary is
 * stopped (must fail in time), wake it, grow again (must work).
 */
static int
mp_child_grower(int argc, char **argv)
{
	const struct rte_memzone *mz;
	struct mp_box *box;
	double t0, t1;
	void *p;

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	mz = rte_memzone_reserve("mp_box", sizeof(*box), SOCKET_ID_ANY, 0);
	MP_CHECK(mz != NULL, "box");
	box = mz->addr;
	__atomic_store_n(&box->magic, MP_MAGIC, __ATOMIC_RELEASE);
	test_child_ready_hold();
	MP_CHECK(box->s_pid > 0, "no secondary");
	t0 = mp_now_ms();
	p = rte_malloc(NULL, 4 << 20, 0);
	t1 = mp_now_ms();
	printf("grow with a stopped secondary: %s after %.0f ms\n",
			p == NULL ? "failed" : "worked", t1 - t0);
	MP_CHECK(p == NULL, "growth reached a stopped process");
	MP_CHECK(mp_maps_used("grower"), "the failed growth left pages");
	kill(box->s_pid, SIGCONT);
	box->g_len = 4 << 20;
	box->g_block = rte_malloc(NULL, box->g_len, 0);
	MP_CHECK(box->g_block != NULL, "growth after SIGCONT: %s",
			rte_strerror(rte_errno));
	memset(box->g_block, 0x99, box->g_len);
	__atomic_store_n(&box->grown, 1, __ATOMIC_RELEASE);
	MP_CHECK(mp_maps_used("grower"), "grower maps");
	printf("grower ok\n");
	return 0;
}
REGISTER_CHILD_ACTION(mp_grower, mp_child_grower)

/* The stopped case's secondary: wait to be stopped, then check. */
static int
mp_child_stopped(int argc, char **argv)
{
	struct mp_box *box;

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	box = mp_box_find();
	MP_CHECK(box != NULL, "no box");
	box->s_pid = getpid();
	test_child_ready_hold();
	MP_CHECK(__atomic_load_n(&box->grown, __ATOMIC_ACQUIRE) == 1,
			"the primary did not grow");
	MP_CHECK(mp_holds(box->g_block, box->g_len, 0x99), "grown block");
	MP_CHECK(mp_maps_used("stopped"), "stopped maps");
	printf("stopped ok\n");
	return 0;
}
REGISTER_CHILD_ACTION(mp_stopped, mp_child_stopped)

/* A primary with a box, until told to exit. */
static int
mp_child_hold(int argc, char **argv)
{
	const struct rte_memzone *mz;

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	mz = rte_memzone_reserve(
			"mp_box", sizeof(struct mp_box), SOCKET_ID_ANY, 0);
	MP_CHECK(mz != NULL, "box");
	__atomic_store_n(&((struct mp_box *)mz->addr)->magic, MP_MAGIC,
			__ATOMIC_RELEASE);
	test_child_ready_hold();
	return 0;
}
REGISTER_CHILD_ACTION(mp_hold, mp_child_hold)

/*
 * On an lcore id the primary has: allocate and free small blocks, which
 * must not go through the primary's lcore cache.
 */
static int
mp_child_lcore_shared(int argc, char **argv)
{
	const struct malloc_cache *c0 =
			&malloc_state_of(eal_mcfg_get())->caches[0];
	size_t held = c0->size;
	unsigned int i, round;
	void *p[64];

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	MP_CHECK(rte_lcore_id() == 0, "lcore %u", rte_lcore_id());
	for (round = 0; round < 100; round++) {
		for (i = 0; i < RTE_DIM(p); i++)
			MP_CHECK((p[i] = rte_malloc(NULL, 64, 0)) != NULL,
					"malloc");
		for (i = 0; i < RTE_DIM(p); i++)
			rte_free(p[i]);
	}
	/* Cached frees would stay there: the primary is idle. */
	MP_CHECK(c0->size == held, "lcore 0's cache went from %zu to %zu", held,
			c0->size);
	return 0;
}
REGISTER_CHILD_ACTION(mp_lcore_shared, mp_child_lcore_shared)

/* One random heap or memzone operation on the churn's slots. */
static void
mp_churn_op(void **blocks, unsigned int n, unsigned int *zone_gen)
{
	uint64_t r = rte_rand();
	unsigned int i = (unsigned int)(r % n);
	char name[RTE_MEMZONE_NAMESIZE];
	const struct rte_memzone *mz;
	size_t len;

	if (blocks[i] != NULL) {
		rte_free(blocks[i]);
		blocks[i] = NULL;
		return;
	}
	/* Small (lcore cache), medium (heap lock), big (growth). */
	switch ((r >> 8) % 16) {
	case 0:
		len = (size_t)4 << 20;
		break;
	case 1:
	case 2:
		snprintf(name, sizeof(name), "mpz%u_%u", getpid() % 1000,
				(*zone_gen)++ % 8);
		mz = rte_memzone_lookup(name);
		if (mz != NULL)
			rte_memzone_free(mz);
		else
			rte_memzone_reserve(name, 1 + (r >> 16) % 200000,
					SOCKET_ID_ANY, 0);
		return;
	default:
		len = (r >> 8) % 2 ? 64 + (r >> 16) % 960 :
				     1024 + (r >> 16) % 200000;
	}
	blocks[i] = rte_malloc(NULL, len, 0);
	if (blocks[i] != NULL)
		memset(blocks[i], 0x6b, len < 4096 ? len : 4096);
}

/* A secondary that churns until it is killed. */
static int
mp_child_churn(int argc, char **argv)
{
	void *blocks[64] = { NULL };
	unsigned int zone_gen = 0;

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	rte_srand((uint64_t)getpid() * 7919);
	test_child_ready();
	for (;;)
		mp_churn_op(blocks, RTE_DIM(blocks), &zone_gen);
	return 0;
}
REGISTER_CHILD_ACTION(mp_churn, mp_child_churn)

/*
 * The primary of the kill loop: churn too until told to stop, then check
 * every heap: the secondaries killed at random instants must have left
 * them sound (or repaired).
 */
static int
mp_child_churn_primary(int argc, char **argv)
{
	void *blocks[64] = { NULL };
	unsigned int zone_gen = 0, i;
	unsigned long ops = 0;
	char err[256];
	sigset_t set;

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	test_child_ready();
	for (;;) {
		for (i = 0; i < 64; i++, ops++)
			mp_churn_op(blocks, RTE_DIM(blocks), &zone_gen);
		sigpending(&set);
		if (sigismember(&set, SIGUSR1))
			break;
	}
	for (i = 0; i < RTE_DIM(blocks); i++)
		rte_free(blocks[i]);
	printf("primary: %lu operations\n", ops);
	MP_CHECK(malloc_heap_check_all(false, err, sizeof(err)) == 0, "%s",
			err);
	MP_CHECK(mp_maps_used("primary"), "primary maps");
	printf("heaps sound\n");
	return 0;
}
REGISTER_CHILD_ACTION(mp_churn_primary, mp_child_churn_primary)

/* A secondary that dies holding the lock of node 0's heap. */
static int
mp_child_heap_lock(int argc, char **argv)
{
	struct malloc_heap *heap = malloc_heap_of_socket(
			malloc_state_of(eal_mcfg_get()), 0);

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (heap == NULL)
		return 1;
	malloc_heap_lock(heap);
	test_child_ready();
	for (;;)
		pause();
	return 0;
}
REGISTER_CHILD_ACTION(mp_heap_lock, mp_child_heap_lock)

/* Print the process type: for --proc-type=auto. */
static int
mp_child_type(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	printf("type %s\n",
			rte_eal_process_type() == RTE_PROC_SECONDARY ?
					"secondary" :
					"primary");
	return mp_box_find() != NULL ? 0 : 1;
}
REGISTER_CHILD_ACTION(mp_type, mp_child_type)

/* ---- parent side ---- */

struct mp_case {
	char dir[PATH_MAX];
	char dir_arg[PATH_MAX + 16];
	char prefix_arg[64];
	char rt_dir[PATH_MAX];
};

static int
mp_case_open(struct mp_case *c, const char *name)
{
	if (test_scratch_dir(name, c->dir, sizeof(c->dir)) < 0)
		return -1;
	snprintf(c->dir_arg, sizeof(c->dir_arg), "--huge-dir=%s", c->dir);
	snprintf(c->prefix_arg, sizeof(c->prefix_arg), "--file-prefix=mp%s",
			name);
	snprintf(c->rt_dir, sizeof(c->rt_dir), "/var/run/rtemem/mp%s", name);
	return 0;
}

/*
 * A last start in the default mode removes the files --huge-unlink=never
 * kept; then nothing of the case may be left: files, runtime directory.
 */
static int
mp_case_close(struct mp_case *c)
{
	const char *args[] = { c->dir_arg, c->prefix_arg, "-m", "0", NULL };
	struct test_child_result res;
	struct stat st;
	int ret = TEST_SUCCESS;

	if (test_child_run(NULL, args, &res) != 0 || res.exit_code != 0) {
		printf("cleanup run: exit %d\n%s", res.exit_code, res.output);
		ret = TEST_FAILED;
	}
	if (test_dir_count(c->dir, NULL) != 0) {
		printf("%d entries left in %s\n", test_dir_count(c->dir, NULL),
				c->dir);
		ret = TEST_FAILED;
	}
	if (lstat(c->rt_dir, &st) == 0) {
		printf("%s left behind\n", c->rt_dir);
		ret = TEST_FAILED;
	}
	test_dir_clear(c->dir);
	if (test_scratch_dir_remove(c->dir) < 0)
		ret = TEST_FAILED;
	return ret;
}

/* EAL args of the case, then @p extra (NULL-terminated), into @p args. */
static const char **
mp_args(const struct mp_case *c, const char **args, const char *const *extra)
{
	unsigned int n = 0, i;

	args[n++] = c->dir_arg;
	args[n++] = c->prefix_arg;
	args[n++] = "-m";
	args[n++] = "0";
	for (i = 0; extra[i] != NULL; i++)
		args[n++] = extra[i];
	args[n] = NULL;
	return args;
}

static pid_t
mp_start(const struct mp_case *c, const char *action, const char *const *extra,
		struct test_child_result *res)
{
	const char *args[16];

	return test_child_start(action, mp_args(c, args, extra), res);
}

static int
mp_run(const struct mp_case *c, const char *action, const char *const *extra,
		struct test_child_result *res)
{
	const char *args[16];

	return test_child_run(action, mp_args(c, args, extra), res);
}

static int
mp_skip_check(void)
{
	if (geteuid() != 0)
		return test_skip_hugepages(
				"not root: the runtime directory is /var/run");
	return TEST_SUCCESS;
}

/* Run @p body on a new case, then remove everything of it. */
static int
mp_with_case(const char *name, int (*body)(struct mp_case *c, const void *arg),
		const void *arg)
{
	struct mp_case c;
	int ret = mp_skip_check();

	if (ret != TEST_SUCCESS)
		return ret;
	if (mp_case_open(&c, name) < 0)
		return test_skip_hugepages("no hugetlbfs scratch directory");
	ret = body(&c, arg);
	if (mp_case_close(&c) != TEST_SUCCESS)
		ret = TEST_FAILED;
	return ret;
}

static int
mp_share_body(struct mp_case *c, const void *arg)
{
	const char *const *layout = arg;
	const char *p_args[8] = { "-l", "0" }, *a_args[8], *b_args[8];
	struct test_child_result pr, ar, br;
	pid_t p, a;
	unsigned int i;

	a_args[0] = "--proc-type=secondary";
	a_args[1] = "--lcores";
	a_args[2] = "1@0";
	b_args[0] = "--proc-type=secondary";
	b_args[1] = "--lcores=2@0";
	for (i = 0; layout[i] != NULL; i++)
		p_args[2 + i] = layout[i];
	p_args[2 + i] = NULL;
	a_args[3] = NULL;
	b_args[2] = NULL;
	p = mp_start(c, "mp_primary", p_args, &pr);
	TEST_ASSERT(p > 0, "primary: %s", pr.output);
	a = mp_start(c, "mp_a", a_args, &ar);
	if (a < 0) {
		test_child_finish(p, SIGKILL, &pr);
		TEST_ASSERT(false, "A: exit %d\n%s", ar.exit_code, ar.output);
	}
	TEST_ASSERT_SUCCESS(mp_run(c, "mp_b", b_args, &br), "B");
	TEST_ASSERT_SUCCESS(test_child_finish(a, SIGUSR1, &ar), "A");
	TEST_ASSERT_SUCCESS(test_child_finish(p, SIGUSR1, &pr), "P");
	TEST_ASSERT(br.exit_code == 0, "B: exit %d\n%s", br.exit_code,
			br.output);
	TEST_ASSERT(ar.exit_code == 0, "A: exit %d\n%s", ar.exit_code,
			ar.output);
	TEST_ASSERT(pr.exit_code == 0, "P: exit %d\n%s", pr.exit_code,
			pr.output);
	TEST_ASSERT_STR_CONTAINS(pr.output, "primary ok", "%s", pr.output);
	return TEST_SUCCESS;
}

static int
test_mp_share(void)
{
	static const char *const page[] = { NULL };
	static const char *const single[] = { "--single-file-segments", NULL };
	static const char *const never[] = { "--huge-unlink=never", NULL };
	int ret = mp_skip_check();

	if (ret == TEST_SUCCESS)
		ret = mp_with_case("page", mp_share_body, page);
	if (ret == TEST_SUCCESS)
		ret = mp_with_case("single", mp_share_body, single);
	if (ret == TEST_SUCCESS)
		ret = mp_with_case("never", mp_share_body, never);
	return ret;
}

static int
mp_stopped_body(struct mp_case *c, const void *arg)
{
	static const char *const p_args[] = { "-l", "0", NULL };
	static const char *const s_args[] = { "--proc-type=secondary",
		"--lcores=1@0", NULL };
	struct test_child_result pr, sr;
	siginfo_t info;
	pid_t p, s;

	RTE_SET_USED(arg);
	p = mp_start(c, "mp_grower", p_args, &pr);
	TEST_ASSERT(p > 0, "primary: %s", pr.output);
	s = mp_start(c, "mp_stopped", s_args, &sr);
	if (s < 0) {
		test_child_finish(p, SIGKILL, &pr);
		TEST_ASSERT(false, "secondary: %s", sr.output);
	}
	/* Stopped for good: every thread, its memory sync thread too. */
	kill(s, SIGSTOP);
	waitid(P_PID, (id_t)s, &info, WSTOPPED | WNOWAIT);
	TEST_ASSERT_SUCCESS(test_child_finish(p, SIGUSR1, &pr), "primary");
	/* The primary woke it: it must run its checks now. */
	TEST_ASSERT_SUCCESS(test_child_finish(s, SIGUSR1, &sr),
			"secondary:\n%s\nprimary:\n%s", sr.output, pr.output);
	TEST_ASSERT(pr.exit_code == 0 && sr.exit_code == 0,
			"primary: exit %d\n%s\nsecondary: exit %d\n%s",
			pr.exit_code, pr.output, sr.exit_code, sr.output);
	TEST_ASSERT_STR_CONTAINS(pr.output,
			"did not update its memory map within",
			"no error naming the stopped process:\n%s", pr.output);
	return TEST_SUCCESS;
}

static int
test_mp_stopped(void)
{
	return mp_with_case("stop", mp_stopped_body, NULL);
}

/* A secondary run with @p extra must fail with @p msg in its output. */
static int
mp_refused(const struct mp_case *c, const char *const *extra, const char *msg)
{
	struct test_child_result res;

	TEST_ASSERT_SUCCESS(mp_run(c, "mp_type", extra, &res), "run");
	TEST_ASSERT(res.exit_code == TEST_CHILD_INIT_FAILED, "%s: exit %d\n%s",
			extra[0], res.exit_code, res.output);
	TEST_ASSERT_STR_CONTAINS(res.output, msg, "%s", res.output);
	return TEST_SUCCESS;
}

static int
mp_refusals_body(struct mp_case *c, const void *arg)
{
	static const char *const sec[] = { "--proc-type=secondary",
		"--lcores=1@0", NULL };
	static const char *const auto_[] = { "--proc-type=auto", "--lcores=1@0",
		NULL };
	static const char *const same_lcore[] = { "--proc-type=secondary", "-l",
		"0", NULL };
	static const char *const single[] = { "--proc-type=secondary",
		"--lcores=1@0", "--single-file-segments", NULL };
	static const char *const p_args[] = { "-l", "0", NULL };
	const char *other_dir[6] = { "--proc-type=secondary", "--lcores=1@0" };
	char other[PATH_MAX], other_arg[PATH_MAX + 16];
	struct test_child_result pr, res;
	int ret = TEST_FAILED;
	pid_t p;

	RTE_SET_USED(arg);
	TEST_ASSERT_SUCCESS(mp_refused(c, sec,
					    "no primary process of file "
					    "prefix 'mprefuse' is running"),
			"no primary");
	p = mp_start(c, "mp_hold", p_args, &pr);
	TEST_ASSERT(p > 0, "primary: %s", pr.output);
	/* DPDK lets processes share lcore ids: not the lcore's cache. */
	if (mp_run(c, "mp_lcore_shared", same_lcore, &res) != 0 ||
			res.exit_code != 0 ||
			strstr(res.output,
					"lcore 0 is also used by the primary "
					"process") == NULL) {
		printf("shared lcore: exit %d\n%s", res.exit_code, res.output);
		goto out;
	}
	if (mp_refused(c, single,
			    "--proc-type=secondary with --single-file-segments: "
			    "the primary process of this file prefix runs with a "
			    "file per page") != 0)
		goto out;
	if (test_scratch_dir("refuse2", other, sizeof(other)) < 0)
		goto out;
	snprintf(other_arg, sizeof(other_arg), "--huge-dir=%s", other);
	other_dir[2] = other_arg;
	other_dir[3] = NULL;
	/* The case's --huge-dir comes first; the last one given counts. */
	ret = mp_refused(c, other_dir, "keeps its 2048 kB pages in");
	test_scratch_dir_remove(other);
	if (ret != 0)
		goto out;
	ret = TEST_FAILED;
	if (mp_run(c, "mp_type", auto_, &res) != 0 || res.exit_code != 0 ||
			strstr(res.output, "type secondary") == NULL) {
		printf("auto: exit %d\n%s", res.exit_code, res.output);
		goto out;
	}
	ret = TEST_SUCCESS;
out:
	if (test_child_finish(p, SIGUSR1, &pr) != 0 || pr.exit_code != 0) {
		printf("primary: exit %d\n%s", pr.exit_code, pr.output);
		ret = TEST_FAILED;
	}
	return ret;
}

static int
test_mp_refusals(void)
{
	return mp_with_case("refuse", mp_refusals_body, NULL);
}

/*
 * A secondary that has the primary's addresses taken (as a library or a
 * stack could) is refused, naming the range and what holds it.
 */
static int
mp_taken_body(struct mp_case *c, const void *arg)
{
	static const char *const p_args[] = { "-l", "0",
		"--base-virtaddr=0x500000000000", NULL };
	static const char *const s_args[] = { "--proc-type=secondary",
		"--lcores=1@0", NULL };
	struct test_child_result pr, res;
	int ret;
	pid_t p;

	RTE_SET_USED(arg);
	p = mp_start(c, "mp_hold", p_args, &pr);
	TEST_ASSERT(p > 0, "primary: %s", pr.output);
	setenv("RTEMEM_TEST_CHILD_OCCUPY", "500000100000:1000", 1);
	ret = mp_refused(c, s_args, "the primary's memory at 0x500000000000-");
	unsetenv("RTEMEM_TEST_CHILD_OCCUPY");
	/* With the range free, the same secondary attaches. */
	if (ret == 0 &&
			(mp_run(c, "mp_type", s_args, &res) != 0 ||
					res.exit_code != 0 ||
					strstr(res.output, "type secondary") ==
							NULL)) {
		printf("free range: exit %d\n%s", res.exit_code, res.output);
		ret = -1;
	}
	test_child_finish(p, SIGUSR1, &pr);
	TEST_ASSERT_SUCCESS(ret, "taken range");
	TEST_ASSERT(pr.exit_code == 0, "primary: exit %d\n%s", pr.exit_code,
			pr.output);
	return TEST_SUCCESS;
}

static int
test_mp_taken(void)
{
	return mp_with_case("taken", mp_taken_body, NULL);
}

/* A --no-huge primary has nothing another process could map. */
static int
mp_nohuge_body(struct mp_case *c, const void *arg)
{
	const char *p_args[] = { c->prefix_arg, "--no-huge", "-m", "64", "-l",
		"0", NULL };
	const char *s_args[] = { c->prefix_arg, "--proc-type=auto",
		"--lcores=1@0", NULL };
	struct test_child_result pr, res;
	pid_t p;

	RTE_SET_USED(arg);
	p = test_child_start("mp_hold", p_args, &pr);
	TEST_ASSERT(p > 0, "primary: %s", pr.output);
	test_child_run("mp_type", s_args, &res);
	test_child_finish(p, SIGUSR1, &pr);
	TEST_ASSERT(pr.exit_code == 0, "primary: exit %d\n%s", pr.exit_code,
			pr.output);
	TEST_ASSERT(res.exit_code == TEST_CHILD_INIT_FAILED, "exit %d\n%s",
			res.exit_code, res.output);
	TEST_ASSERT_STR_CONTAINS(res.output,
			"the primary process of this file prefix runs with "
			"--no-huge",
			"%s", res.output);
	return TEST_SUCCESS;
}

static int
test_mp_nohuge(void)
{
	return mp_with_case("nohuge", mp_nohuge_body, NULL);
}

/*
 * A primary killed under a running secondary: a new primary must not
 * pull the memory from under it, until it exits.
 */
static int
mp_orphan_body(struct mp_case *c, const void *arg)
{
	static const char *const p_args[] = { "-l", "0", NULL };
	static const char *const s_args[] = { "--proc-type=secondary",
		"--lcores=1@0", NULL };
	struct test_child_result pr, sr, res;
	char want[160];
	pid_t p, s;

	RTE_SET_USED(arg);
	p = mp_start(c, "mp_hold", p_args, &pr);
	TEST_ASSERT(p > 0, "primary: %s", pr.output);
	s = mp_start(c, "mp_stopped", s_args, &sr);
	if (s < 0) {
		test_child_finish(p, SIGKILL, &pr);
		TEST_ASSERT(false, "secondary: %s", sr.output);
	}
	test_child_finish(p, SIGKILL, &pr);
	TEST_ASSERT_SUCCESS(mp_run(c, "mp_type", p_args, &res), "new primary");
	snprintf(want, sizeof(want),
			"secondary process %d of an earlier primary of this "
			"file prefix still runs",
			(int)s);
	test_child_finish(s, SIGKILL, &sr);
	TEST_ASSERT(res.exit_code == TEST_CHILD_INIT_FAILED, "exit %d\n%s",
			res.exit_code, res.output);
	TEST_ASSERT_STR_CONTAINS(res.output, want, "%s", res.output);
	/* Once it is gone, a primary starts (and clears what was left). */
	TEST_ASSERT_SUCCESS(mp_run(c, NULL, p_args, &res), "primary");
	TEST_ASSERT(res.exit_code == 0, "exit %d\n%s", res.exit_code,
			res.output);
	return TEST_SUCCESS;
}

static int
test_mp_orphan(void)
{
	return mp_with_case("orphan", mp_orphan_body, NULL);
}

static unsigned int
mp_env_uint(const char *name, unsigned int dflt)
{
	const char *v = getenv(name);

	return v != NULL ? (unsigned int)strtoul(v, NULL, 0) : dflt;
}

/* Lines of @p out that contain @p what. */
static unsigned int
mp_count(const char *out, const char *what)
{
	unsigned int n = 0;

	for (; (out = strstr(out, what)) != NULL; out++)
		n++;
	return n;
}

/*
 * Secondaries churning the shared heaps are killed at random instants,
 * one after the other, while the primary churns too: nobody may hang,
 * and the heaps must be sound at the end. RTEMEM_MP_KILL_ITERATIONS
 * (default 12) and RTEMEM_MP_KILL_SEED choose the run.
 */
static int
mp_kill_body(struct mp_case *c, const void *arg)
{
	static const char *const p_args[] = { "-l", "0", NULL };
	static const char *const s_args[] = { "--proc-type=secondary",
		"--lcores=1@0", NULL };
	unsigned int iters = mp_env_uint("RTEMEM_MP_KILL_ITERATIONS", 12);
	unsigned int i, takeovers = 0;
	struct test_child_result pr, sr;
	const char *args[16];
	pid_t p, s;

	RTE_SET_USED(arg);
	rte_srand(mp_env_uint("RTEMEM_MP_KILL_SEED", 0x6d70));
	p = mp_start(c, "mp_churn_primary", p_args, &pr);
	TEST_ASSERT(p > 0, "primary: %s", pr.output);
	for (i = 0; i < iters; i++) {
		s = test_child_start("mp_churn", mp_args(c, args, s_args), &sr);
		if (s < 0) {
			test_child_finish(p, SIGKILL, &pr);
			TEST_ASSERT(false,
					"secondary %u: exit %d\n%s\nprimary: "
					"exit %d signal %d\n%s",
					i, sr.exit_code, sr.output,
					pr.exit_code, pr.signal, pr.output);
		}
		usleep(20000 + (useconds_t)(rte_rand() % 180000));
		test_child_finish(s, SIGKILL, &sr);
		takeovers += mp_count(sr.output, "died holding");
	}
	TEST_ASSERT_SUCCESS(test_child_finish(p, SIGUSR1, &pr), "primary");
	takeovers += mp_count(pr.output, "died holding");
	printf("%u secondaries killed, %u locks taken over from them\n", iters,
			takeovers);
	TEST_ASSERT(pr.exit_code == 0, "primary: exit %d\n%s", pr.exit_code,
			pr.output);
	TEST_ASSERT(strstr(pr.output, "damaged") == NULL, "%s", pr.output);
	return TEST_SUCCESS;
}

static int
test_mp_kill(void)
{
	return mp_with_case("kill", mp_kill_body, NULL);
}

/*
 * A secondary killed while it holds the heap's lock: the primary, which
 * churns meanwhile, takes the lock over and rebuilds the heap from its
 * elements (reading memory it poisoned in an ASan build), and its heaps
 * are sound at the end. The random kills above reach this only by luck.
 */
static int
mp_lock_death_body(struct mp_case *c, const void *arg)
{
	static const char *const p_args[] = { "-l", "0", NULL };
	static const char *const s_args[] = { "--proc-type=secondary",
		"--lcores=1@0", NULL };
	struct test_child_result pr, sr;
	const char *args[16];
	pid_t p, s;

	RTE_SET_USED(arg);
	p = mp_start(c, "mp_churn_primary", p_args, &pr);
	TEST_ASSERT(p > 0, "primary: %s", pr.output);
	s = test_child_start("mp_heap_lock", mp_args(c, args, s_args), &sr);
	if (s < 0)
		test_child_finish(p, SIGKILL, &pr);
	TEST_ASSERT(s > 0, "secondary: exit %d\n%s", sr.exit_code, sr.output);
	TEST_ASSERT_SUCCESS(test_child_finish(s, SIGKILL, &sr), "secondary");
	usleep(200000);
	TEST_ASSERT_SUCCESS(test_child_finish(p, SIGUSR1, &pr), "primary");
	TEST_ASSERT(pr.exit_code == 0, "primary: exit %d signal %d\n%s",
			pr.exit_code, pr.signal, pr.output);
	TEST_ASSERT_STR_CONTAINS(pr.output,
			"died holding the lock of heap socket_0: rebuilding the "
			"heap from its elements",
			"rebuild");
	TEST_ASSERT_STR_CONTAINS(pr.output, "heaps sound", "heaps");
	return TEST_SUCCESS;
}

static int
test_mp_lock_death(void)
{
	return mp_with_case("lockdeath", mp_lock_death_body, NULL);
}

static struct unit_test_suite mp_suite = {
	.suite_name = "secondary processes",
	.unit_test_cases = {
		TEST_CASE(test_mp_stopped),
		TEST_CASE(test_mp_share),
		TEST_CASE(test_mp_refusals),
		TEST_CASE(test_mp_nohuge),
		TEST_CASE(test_mp_taken),
		TEST_CASE(test_mp_orphan),
		TEST_CASE(test_mp_kill),
		TEST_CASE(test_mp_lock_death),
		TEST_CASES_END(),
	},
};

static int
test_multiprocess(void)
{
	return unit_test_suite_runner(&mp_suite);
}

REGISTER_FAST_TEST(
		multiprocess_autotest, NOHUGE_SKIP, ASAN_OK, test_multiprocess);
