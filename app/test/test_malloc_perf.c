/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * malloc_perf_autotest: what rte_malloc, rte_zmalloc and
 * rte_memzone_reserve cost, per operation, over sizes from 64 B to 1 GiB,
 * next to a memset reference. It asserts only that the heap ends as it
 * began (no block left behind, no error), never anything about time.
 *
 * The output has DPDK's layout, line by line, so that the two compare
 * with diff: the memset reference, then one "Performance: <API>" section
 * per API with DPDK's columns in DPDK's order (for memzones the memset
 * time is estimated from the reference, as DPDK does), all logged as
 * USER1 at INFO level; rtemem's own column (bytes the allocator cleared
 * per block) comes after DPDK's, and the C library's section after
 * DPDK's sections.
 *
 * Smaller runs for smoke tests, from the environment:
 *   RTEMEM_PERF_MAX_SIZE   largest block size in bytes (default: 1 GiB)
 *   RTEMEM_PERF_MAX_RUNS   blocks per row at most (default: 10000)
 *   RTEMEM_PERF_MEMSET_MB  memset reference buffer in MiB (default: 1024)
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <rte_log.h>

#include "malloc_perf_table.h"
#include "test.h"

/* Read a positive number from the environment; 0 (and a message) if the
 * value is there but not a positive number, @p def if it is not there.
 */
static unsigned long long
mp_env(const char *name, unsigned long long def)
{
	const char *v = getenv(name);
	unsigned long long n;
	char *end;

	if (v == NULL || *v == '\0')
		return def;
	errno = 0;
	n = strtoull(v, &end, 0);
	if (errno != 0 || *end != '\0' || n == 0) {
		printf("%s=%s is not a positive number\n", name, v);
		return 0;
	}
	return n;
}

#define MP_LOG(...) RTE_LOG(INFO, USER1, __VA_ARGS__)

struct mp_print {
	unsigned int rows; /* rows printed */
	int api; /* the API of the open section, or -1 */
	double us_per_mib; /* the memset reference */
};

static void
mp_section_end(struct mp_print *pr)
{
	if (pr->api >= 0)
		MP_LOG("\n");
	pr->api = -1;
}

static void
mp_print_row(const struct mperf_row *row, void *arg)
{
	struct mp_print *pr = arg;
	double memset_us = row->memset_us;

	if (pr->api != (int)row->api) {
		mp_section_end(pr);
		pr->api = (int)row->api;
		MP_LOG("Performance: %s\n", mperf_api_name(row->api));
		MP_LOG("%12s%8s%12s%12s%12s%17s%14s\n", "Size (B)", "Runs",
				"Alloc (us)", "Free (us)", "Total (us)",
				row->api == MPERF_MEMZONE ? "est.memset (us)" :
							    "memset (us)",
				"Cleared (B)");
	}
	if (row->api == MPERF_MEMZONE)
		memset_us = pr->us_per_mib * (double)row->size / (1 << 20);
	MP_LOG("%12zu%8u%12.2f%12.2f%12.2f%17.2f%14.0f\n", row->size, row->runs,
			row->alloc_us, row->free_us,
			row->alloc_us + row->free_us, memset_us,
			row->cleared_alloc + row->cleared_free);
	pr->rows++;
}

static int
test_malloc_perf(void)
{
	struct mperf_memset_ref ref;
	struct mperf_config cfg;
	struct mperf_heap_totals before, after;
	struct mp_print pr = { .api = -1 };
	int rc;

	mperf_config_default(&cfg);
	cfg.max_size = mp_env("RTEMEM_PERF_MAX_SIZE", 0);
	cfg.max_runs = mp_env("RTEMEM_PERF_MAX_RUNS", cfg.max_runs);
	cfg.memset_len = mp_env("RTEMEM_PERF_MEMSET_MB", 1024) << 20;
	TEST_ASSERT(cfg.max_runs > 0 && cfg.memset_len > 0,
			"bad RTEMEM_PERF_* setting");
	if (getenv("RTEMEM_PERF_MAX_SIZE") != NULL)
		TEST_ASSERT(cfg.max_size > 0, "bad RTEMEM_PERF_MAX_SIZE");

	TEST_ASSERT_SUCCESS(mperf_heap_totals(&before),
			"cannot read the heap statistics");
	if (mperf_memset_reference(&cfg, &ref) < 0)
		return test_skip_hugepages("not even 1 MiB of heap memory");
	MP_LOG("Reference: memset\n");
	MP_LOG("Result: %.3f GiB/s <=> %.2f us/MiB\n", ref.gib_per_s,
			ref.us_per_mib);
	MP_LOG("\n");
	if (ref.len < cfg.memset_len)
		printf("(the reference buffer is smaller than the %zu MiB asked: "
		       "that is all the heap could give)\n",
				cfg.memset_len >> 20);
	pr.us_per_mib = ref.us_per_mib;
	rc = mperf_run(&cfg, mp_print_row, &pr);
	mp_section_end(&pr);
	TEST_ASSERT_SUCCESS(rc, "the table could not be measured");
	TEST_ASSERT(pr.rows > 0, "no row: no size could be allocated at all");
	TEST_ASSERT_SUCCESS(mperf_heap_totals(&after),
			"cannot read the heap statistics");
	TEST_ASSERT_EQUAL(after.alloc_count, before.alloc_count,
			"the heap holds blocks the benchmark did not free");
	return TEST_SUCCESS;
}

REGISTER_PERF_TEST(malloc_perf_autotest, test_malloc_perf);
