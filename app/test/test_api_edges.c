/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * The edge cases of the memory API, one assertion per row of the table
 * in doc/guides/dpdk.rst ("Edge cases"), which gives DPDK 22.11's result
 * next to rtemem's: sizes 0, alignments 0 and not a power of two, NULL
 * and empty names, names of RTE_MEMZONE_NAMESIZE - 1 and
 * RTE_MEMZONE_NAMESIZE bytes, sockets out of range, and calls after
 * rte_eal_cleanup() (the same state as before rte_eal_init()).
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_memory.h>
#include <rte_memzone.h>

#include "eal_memcfg.h"
#include "test.h"

/* Call @p expr with rte_errno set to a marker; check result and errno. */
#define EDGE(expr, want_null, want_errno, what) \
	do { \
		rte_errno = 12345; \
		TEST_ASSERT(((expr) == NULL) == (want_null), "%s: result %s", \
				what, want_null ? "not NULL" : "NULL"); \
		TEST_ASSERT_EQUAL(rte_errno, want_errno, \
				"%s: rte_errno %d, expected %d", what, \
				rte_errno, want_errno); \
	} while (0)

static int
test_edges_malloc(void)
{
	void *p;

	EDGE(rte_malloc(NULL, 0, 0), true, EINVAL, "size 0");
	EDGE(rte_zmalloc(NULL, 0, 0), true, EINVAL, "zmalloc size 0");
	EDGE(rte_malloc(NULL, 64, 3), true, EINVAL, "align 3");
	EDGE(rte_calloc(NULL, SIZE_MAX / 2, 4, 0), true, EINVAL,
			"calloc overflow");
	EDGE(rte_malloc_socket(NULL, 64, 0, RTE_MAX_NUMA_NODES + 1), true,
			EINVAL, "socket out of range");
	EDGE(rte_malloc(NULL, (size_t)1 << 60, 0), true, ENOMEM, "too large");
	p = rte_malloc(NULL, 100, 0);
	TEST_ASSERT(p != NULL && (uintptr_t)p % RTE_CACHE_LINE_SIZE == 0,
			"align 0: %p", p);
	TEST_ASSERT(rte_realloc(p, 0, 0) == p, "realloc to 0 keeps the block");
	TEST_ASSERT_SUCCESS(rte_malloc_validate(p, NULL), "block kept");
	rte_free(p);
	rte_free(NULL);
	TEST_ASSERT_EQUAL(rte_malloc_validate(NULL, NULL), -1, "validate NULL");
	p = rte_realloc(NULL, 64, 0);
	TEST_ASSERT_NOT_NULL(p, "realloc NULL allocates");
	rte_free(p);
	return TEST_SUCCESS;
}

static int
test_edges_memzone(void)
{
	char n31[RTE_MEMZONE_NAMESIZE], n32[RTE_MEMZONE_NAMESIZE + 1];
	const struct rte_memzone *mz;

	memset(n31, 'e', sizeof(n31) - 1);
	n31[sizeof(n31) - 1] = '\0';
	memset(n32, 'e', sizeof(n32) - 1);
	n32[sizeof(n32) - 1] = '\0';
	EDGE(rte_memzone_reserve(NULL, 64, SOCKET_ID_ANY, 0), true, EINVAL,
			"NULL name");
	EDGE(rte_memzone_reserve("", 64, SOCKET_ID_ANY, 0), true, EINVAL,
			"empty name");
	EDGE(rte_memzone_reserve(n32, 64, SOCKET_ID_ANY, 0), true, ENAMETOOLONG,
			"name of RTE_MEMZONE_NAMESIZE");
	EDGE(rte_memzone_reserve("edge_a", 64, RTE_MAX_NUMA_NODES + 1, 0), true,
			EINVAL, "socket out of range");
	EDGE(rte_memzone_reserve("edge_a", 64, -2, 0), true, EINVAL,
			"negative socket");
	EDGE(rte_memzone_reserve("edge_a", 64, SOCKET_ID_ANY, 0x8), true,
			EINVAL, "unknown flag");
	EDGE(rte_memzone_reserve_aligned("edge_a", 64, SOCKET_ID_ANY, 0, 100),
			true, EINVAL, "align 100");
	EDGE(rte_memzone_reserve_bounded(
			     "edge_a", 8192, SOCKET_ID_ANY, 0, 64, 4096),
			true, EINVAL, "len above bound");
	EDGE(rte_memzone_reserve("edge_a", SIZE_MAX, SOCKET_ID_ANY, 0), true,
			EINVAL, "len SIZE_MAX");
	EDGE(rte_memzone_lookup(NULL), true, EINVAL, "lookup NULL");
	EDGE(rte_memzone_lookup("edge_none"), true, ENOENT, "lookup missing");
	mz = rte_memzone_reserve(n31, 1, SOCKET_ID_ANY, 0);
	TEST_ASSERT(mz != NULL && mz->len == RTE_CACHE_LINE_SIZE,
			"name of RTE_MEMZONE_NAMESIZE - 1, len 1");
	EDGE(rte_memzone_reserve(n31, 64, SOCKET_ID_ANY, 0), true, EEXIST,
			"duplicate");
	TEST_ASSERT_SUCCESS(rte_memzone_free(mz), "free");
	TEST_ASSERT_EQUAL(rte_memzone_free(mz), -EINVAL, "free twice");
	TEST_ASSERT_EQUAL(rte_memzone_free(NULL), -EINVAL, "free NULL");
	mz = rte_memzone_reserve_aligned("edge_b", 64, SOCKET_ID_ANY, 0, 0);
	TEST_ASSERT(mz != NULL && mz->addr_64 % RTE_CACHE_LINE_SIZE == 0,
			"align 0");
	TEST_ASSERT_SUCCESS(rte_memzone_free(mz), "free");
	return TEST_SUCCESS;
}

/* An int call: check its result and rte_errno (-1 for "not checked"). */
#define EDGE_INT(expr, want, want_errno, what) \
	do { \
		int edge_ret_; \
		rte_errno = 12345; \
		edge_ret_ = (expr); \
		TEST_ASSERT_EQUAL(edge_ret_, want, "%s: returned %d", what, \
				edge_ret_); \
		if ((want_errno) >= 0) \
			TEST_ASSERT_EQUAL(rte_errno, want_errno, \
					"%s: rte_errno %d, expected %d", what, \
					rte_errno, want_errno); \
	} while (0)

static void
edge_cb(enum rte_mem_event type, const void *addr, size_t len, void *arg)
{
	RTE_SET_USED(type);
	RTE_SET_USED(addr);
	RTE_SET_USED(len);
	RTE_SET_USED(arg);
}

static int
test_edges_memory_heaps(void)
{
	char long_name[RTE_HEAP_NAME_MAX_LEN + 1];
	struct rte_malloc_socket_stats st;
	int local = 0;

	memset(long_name, 'h', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	TEST_ASSERT_NULL(rte_mem_virt2memseg(&local, NULL), "stack address");
	TEST_ASSERT_NULL(rte_mem_virt2memseg_list(NULL), "NULL address");
	/* As DPDK: the address itself, or its physical address. */
	TEST_ASSERT_EQUAL(rte_mem_virt2iova(&local),
			rte_eal_iova_mode() == RTE_IOVA_VA ?
					(rte_iova_t)(uintptr_t)&local :
					rte_mem_virt2phy(&local),
			"IOVA of a stack address");
	EDGE_INT(rte_memseg_get_fd(NULL), -1, EINVAL, "get_fd(NULL)");
	EDGE_INT(rte_mem_event_callback_register(NULL, edge_cb, NULL), -1,
			EINVAL, "callback name NULL");
	EDGE_INT(rte_mem_event_callback_register("edge", NULL, NULL), -1,
			EINVAL, "callback NULL");
	EDGE_INT(rte_mem_event_callback_unregister("edge_nope", NULL), -1,
			ENOENT, "unregister an unknown callback");
	EDGE_INT(rte_malloc_get_socket_stats(RTE_MAX_NUMA_NODES + 1, &st), -1,
			-1, "stats of an unknown socket");
	EDGE_INT(rte_malloc_heap_create(NULL), -1, EINVAL, "create NULL");
	EDGE_INT(rte_malloc_heap_create(""), -1, EINVAL, "create \"\"");
	EDGE_INT(rte_malloc_heap_create(long_name), -1, EINVAL,
			"create a name of RTE_HEAP_NAME_MAX_LEN");
	EDGE_INT(rte_malloc_heap_get_socket(NULL), -1, EINVAL, "socket NULL");
	EDGE_INT(rte_malloc_heap_get_socket("edge_nope"), -1, ENOENT,
			"socket of an unknown heap");
	EDGE_INT(rte_malloc_heap_destroy("edge_nope"), -1, ENOENT,
			"destroy an unknown heap");
	return TEST_SUCCESS;
}

/*
 * Child: after rte_eal_cleanup() (as before rte_eal_init()) the API fails
 * cleanly with E_RTE_NO_CONFIG; then the EAL starts again for the
 * child's own cleanup, with its config elsewhere: a thread keeps its
 * lcore cache keyed on the config's address (eal_lcore_memo), which must
 * not name another config, and the heap serves it again.
 */
static int
edges_child_after_cleanup(int argc, char **argv)
{
	const char *const args[] = { "edges", "--no-huge", "-m", "8", NULL };
	const struct rte_mem_config *old = eal_mcfg_get();
	unsigned int i;
	void *p, *taken;

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	/* The calling thread keeps its cache in the first config. */
	rte_free(rte_malloc(NULL, 64, 0));
	if (rte_eal_cleanup() != 0)
		return 10;
	/*
	 * Its addresses stay taken, for no other mapping. A kernel before
	 * 4.17 takes the flag for a hint, and maps elsewhere if taken.
	 */
	taken = mmap((void *)(uintptr_t)old, 4096, PROT_NONE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1,
			0);
	if (taken != MAP_FAILED)
		munmap(taken, 4096);
	TEST_ASSERT((taken == MAP_FAILED && errno == EEXIST) ||
					(taken != MAP_FAILED && taken != old),
			"the old config's addresses are free after cleanup");
	EDGE(rte_malloc(NULL, 64, 0), true, E_RTE_NO_CONFIG, "rte_malloc");
	EDGE(rte_zmalloc(NULL, 64, 0), true, E_RTE_NO_CONFIG, "rte_zmalloc");
	EDGE(rte_memzone_reserve("x", 64, SOCKET_ID_ANY, 0), true,
			E_RTE_NO_CONFIG, "rte_memzone_reserve");
	EDGE(rte_memzone_lookup("x"), true, E_RTE_NO_CONFIG,
			"rte_memzone_lookup");
	rte_free((void *)(uintptr_t)0x1000);
	TEST_ASSERT_EQUAL(rte_eal_cleanup(), -1, "a second cleanup");
	TEST_ASSERT_EQUAL(rte_errno, EALREADY, "second cleanup: %d", rte_errno);
	TEST_ASSERT(rte_eal_init(4, (char **)(uintptr_t)args) >= 0,
			"init again after cleanup");
	TEST_ASSERT(eal_mcfg_get() != old,
			"the new config took the old one's address %p", old);
	/* Slab objects, then cached blocks, each freed and taken again. */
	for (i = 0; i < 2 * 12; i++) {
		size_t size = (size_t)64 << (i % 12);

		p = rte_malloc(NULL, size, 0);
		TEST_ASSERT(p != NULL && rte_malloc_validate(p, NULL) == 0,
				"%zu bytes after init again", size);
		rte_free(p);
	}
	TEST_ASSERT_EQUAL(rte_eal_init(4, (char **)(uintptr_t)args), -1,
			"a second init");
	TEST_ASSERT_EQUAL(rte_errno, EALREADY, "second init: %d", rte_errno);
	return 0;
}

REGISTER_CHILD_ACTION(edges_after_cleanup, edges_child_after_cleanup)

static int
test_edges_after_cleanup(void)
{
	static const char *const args[] = { "--no-huge", "-m", "8", NULL };
	struct test_child_result res;

	TEST_ASSERT_SUCCESS(test_child_run("edges_after_cleanup", args, &res),
			"child");
	TEST_ASSERT_EQUAL(res.exit_code, 0, "exit %d:\n%s", res.exit_code,
			res.output);
	return TEST_SUCCESS;
}

static struct unit_test_suite edges_suite = {
	.suite_name = "API edge cases",
	.unit_test_cases = {
		TEST_CASE(test_edges_malloc),
		TEST_CASE(test_edges_memzone),
		TEST_CASE(test_edges_memory_heaps),
		TEST_CASE(test_edges_after_cleanup),
		TEST_CASES_END(),
	},
};

static int
test_api_edges(void)
{
	return unit_test_suite_runner(&edges_suite);
}

REGISTER_FAST_TEST(api_edges_autotest, NOHUGE_SKIP, ASAN_OK, test_api_edges);
