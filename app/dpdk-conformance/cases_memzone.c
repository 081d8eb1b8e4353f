/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * DPDK 22.11's test_memzone.c, whose memzone_autotest stops at its first
 * failed step, with each step registered as a case of its own. The
 * conformance script puts DPDK's file next to this one.
 */

#include "test_memzone.c"

CONFORMANCE_CASE(memzone_autotest, test_memzone_basic)
CONFORMANCE_CASE(memzone_autotest, test_memzone_free)
CONFORMANCE_CASE(memzone_autotest,
		test_memzone_reserving_zone_size_bigger_than_the_maximum)
CONFORMANCE_CASE(memzone_autotest, test_memzone_reserve_flags)
CONFORMANCE_CASE(memzone_autotest, test_memzone_aligned)
CONFORMANCE_CASE(memzone_autotest, test_memzone_bounded)
CONFORMANCE_CASE(memzone_autotest, test_memzone_invalid_alignment)
CONFORMANCE_CASE(memzone_autotest, test_memzone_invalid_flags)
CONFORMANCE_CASE(memzone_autotest, test_memzone_reserve_max)
CONFORMANCE_CASE(memzone_autotest, test_memzone_reserve_max_aligned)
