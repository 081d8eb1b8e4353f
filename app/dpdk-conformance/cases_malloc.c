/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * DPDK 22.11's test_malloc.c, whose malloc_autotest stops at its first
 * failed step, with each step registered as a case of its own. The
 * conformance script puts DPDK's file next to this one.
 */

#include "test_malloc.c"

CONFORMANCE_CASE(malloc_autotest, test_str_to_size)
CONFORMANCE_CASE(malloc_autotest, test_zero_aligned_alloc)
CONFORMANCE_CASE(malloc_autotest, test_malloc_bad_params)
CONFORMANCE_CASE(malloc_autotest, test_realloc)
CONFORMANCE_WORKER_CASE(malloc_autotest, test_align_overlap_per_lcore)
CONFORMANCE_WORKER_CASE(malloc_autotest, test_reordered_free_per_lcore)
CONFORMANCE_WORKER_CASE(malloc_autotest, test_random_alloc_free)
CONFORMANCE_CASE(malloc_autotest, test_rte_malloc_validate)
CONFORMANCE_CASE(malloc_autotest, test_alloc_socket)
CONFORMANCE_CASE(malloc_autotest, test_multi_alloc_statistics)
