/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _CONFORMANCE_RTE_EAL_PAGING_H_
#define _CONFORMANCE_RTE_EAL_PAGING_H_

/*
 * DPDK's internal rte_eal_paging.h, which its test_malloc.c includes
 * for the system page size. DPDK does not install it, nor does rtemem.
 */

#include <stddef.h>
#include <unistd.h>

static inline size_t
rte_mem_page_size(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

#endif /* _CONFORMANCE_RTE_EAL_PAGING_H_ */
