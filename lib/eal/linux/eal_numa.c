/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * NUMA placement with libnuma. The check asks the kernel where a whole run
 * of pages is in one move_pages() call (with no target nodes, it only
 * reports), instead of one get_mempolicy() per page. On a machine with one
 * node, nothing is asked.
 */

#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <numa.h>
#include <numaif.h>
#include <pthread.h>

#include <rte_common.h>

#include "eal_numa.h"

#define NUMA_CHECK_BATCH 256

/*
 * With one node, pages can land nowhere else: asking the kernel to place
 * them and checking where they went would cost six system calls on every
 * growth of the heap (libnuma's probe is one). libnuma counts the nodes
 * once, when it loads.
 */
static bool
numa_matters(void)
{
	return numa_num_configured_nodes() > 1 && numa_available() >= 0;
}

void
eal_numa_prefer(int socket, struct eal_numa_saved *saved)
{
	unsigned long mask[RTE_DIM(saved->mask)] = { 0 };

	saved->mode = -1;
	if (socket < 0 || !numa_matters())
		return;
	if (get_mempolicy(&saved->mode, saved->mask, sizeof(saved->mask) * 8,
			    NULL, 0) != 0) {
		saved->mode = -1;
		return;
	}
	mask[socket / 64] = 1UL << (socket % 64);
	if (set_mempolicy(MPOL_PREFERRED, mask, sizeof(mask) * 8) != 0)
		saved->mode = -1;
}

void
eal_numa_restore(const struct eal_numa_saved *saved)
{
	if (saved->mode < 0)
		return;
	set_mempolicy(saved->mode, saved->mask, sizeof(saved->mask) * 8);
}

int
eal_numa_check(void *addr, uint64_t page_sz, unsigned int n, int socket,
		int *found)
{
	void *pages[NUMA_CHECK_BATCH];
	int status[NUMA_CHECK_BATCH];
	unsigned int i, done, batch;

	if (!numa_matters())
		return 0;
	for (done = 0; done < n; done += batch) {
		batch = RTE_MIN(n - done, (unsigned int)NUMA_CHECK_BATCH);
		for (i = 0; i < batch; i++)
			pages[i] = RTE_PTR_ADD(addr, (done + i) * page_sz);
		if (move_pages(0, batch, pages, NULL, status, 0) != 0)
			return -errno;
		for (i = 0; i < batch; i++) {
			if (status[i] != socket) {
				*found = status[i];
				return -EXDEV;
			}
		}
	}
	return 0;
}

/* The CPUs of @p socket in @p set, within what the process may use. */
static int
numa_node_cpus(int socket, cpu_set_t *set)
{
	struct bitmask *cpus;
	unsigned int cpu;
	cpu_set_t allowed;
	int ret = 0;

	CPU_ZERO(set);
	if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0)
		return -errno;
	if (socket < 0 || !numa_matters()) {
		*set = allowed;
		return 0;
	}
	cpus = numa_allocate_cpumask();
	if (cpus == NULL)
		return -ENOMEM;
	if (numa_node_to_cpus(socket, cpus) != 0)
		ret = -errno;
	for (cpu = 0; ret == 0 && cpu < CPU_SETSIZE && cpu < cpus->size; cpu++)
		if (numa_bitmask_isbitset(cpus, cpu) &&
				CPU_ISSET(cpu, &allowed))
			CPU_SET(cpu, set);
	numa_free_cpumask(cpus);
	return ret;
}

unsigned int
eal_numa_cpu_count(int socket)
{
	cpu_set_t set;
	int n;

	if (numa_node_cpus(socket, &set) < 0)
		return 1;
	n = CPU_COUNT(&set);
	return n > 0 ? (unsigned int)n : 1;
}

int
eal_numa_bind_thread(int socket)
{
	struct eal_numa_saved saved;
	cpu_set_t set;
	int ret;

	if (socket < 0 || !numa_matters())
		return 0;
	ret = numa_node_cpus(socket, &set);
	if (ret == 0 && CPU_COUNT(&set) == 0)
		ret = -ENODEV;
	if (ret == 0)
		ret = -pthread_setaffinity_np(
				pthread_self(), sizeof(set), &set);
	/* The thread ends after populating: nothing to restore. */
	if (ret == 0)
		eal_numa_prefer(socket, &saved);
	return ret;
}
