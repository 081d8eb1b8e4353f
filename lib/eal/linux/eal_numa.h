/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _EAL_NUMA_H_
#define _EAL_NUMA_H_

/*
 * NUMA placement of pages: prefer a node while pages are faulted in, then
 * check where they landed. Built on libnuma (eal_numa.c) or, without it,
 * on nothing (eal_numa_none.c: one node, nothing to check).
 */

#include <stdint.h>

/* The calling thread's memory policy, saved to be restored. */
struct eal_numa_saved {
	int mode; /* policy mode, or -1 if nothing was changed */
	unsigned long mask[16]; /* node mask of that policy */
};

/* Make the calling thread prefer @p socket for new pages. */
void eal_numa_prefer(int socket, struct eal_numa_saved *saved);

/* Restore the policy eal_numa_prefer() replaced. */
void eal_numa_restore(const struct eal_numa_saved *saved);

/*
 * Check that the @p n pages of @p page_sz from @p addr are on @p socket.
 *
 * @return 0, or -EXDEV with the node found in @p found.
 */
int eal_numa_check(void *addr, uint64_t page_sz, unsigned int n, int socket,
		int *found);

/*
 * CPUs of node @p socket this process may run on (all it may run on when
 * the build or the machine has one node), at least 1.
 */
unsigned int eal_numa_cpu_count(int socket);

/*
 * Let the calling thread run only on the CPUs of node @p socket that the
 * process may use, and prefer that node for new pages: what a thread that
 * populates the node's pages does first. Nothing with one node.
 *
 * @return 0, or -errno if the thread could not be moved.
 */
int eal_numa_bind_thread(int socket);

#endif /* _EAL_NUMA_H_ */
