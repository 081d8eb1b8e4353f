/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * NUMA placement without libnuma: the build assumes one node, so there is
 * no policy to set and nothing to check.
 */

#include <sched.h>

#include <rte_common.h>

#include "eal_numa.h"

void
eal_numa_prefer(int socket, struct eal_numa_saved *saved)
{
	RTE_SET_USED(socket);
	saved->mode = -1;
}

void
eal_numa_restore(const struct eal_numa_saved *saved)
{
	RTE_SET_USED(saved);
}

int
eal_numa_check(void *addr, uint64_t page_sz, unsigned int n, int socket,
		int *found)
{
	RTE_SET_USED(addr);
	RTE_SET_USED(page_sz);
	RTE_SET_USED(n);
	RTE_SET_USED(socket);
	RTE_SET_USED(found);
	return 0;
}

unsigned int
eal_numa_cpu_count(int socket)
{
	cpu_set_t allowed;
	int n;

	RTE_SET_USED(socket);
	if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0)
		return 1;
	n = CPU_COUNT(&allowed);
	return n > 0 ? (unsigned int)n : 1;
}

int
eal_numa_bind_thread(int socket)
{
	RTE_SET_USED(socket);
	return 0;
}
