/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _RTE_LCORE_H_
#define _RTE_LCORE_H_

/**
 * @file
 * Logical cores: the main thread and one worker thread per other CPU in
 * `-l/--lcores`, each pinned to its CPU.
 */

#include <stdint.h>

#include <rte_common.h>
#include <rte_config.h>
#include <rte_per_lcore.h>
#include <rte_launch.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The lcore id of threads that rtemem did not start. */
#define LCORE_ID_ANY UINT32_MAX

/** The storage behind rte_lcore_id(): call that, not this name. */
RTE_DECLARE_PER_LCORE(unsigned int, _lcore_id);

/**
 * The lcore the calling thread is.
 *
 * @return
 *   The lcore id, which is the CPU number, of the main thread (after
 *   rte_eal_init()) and of the worker threads; LCORE_ID_ANY for any other
 *   thread.
 */
static inline unsigned int
rte_lcore_id(void)
{
	return RTE_PER_LCORE(_lcore_id);
}

/**
 * The lcore that rte_eal_init() was called on.
 *
 * @return
 *   The id of the main lcore: the first CPU of `-l/--lcores` (or of the
 *   process's affinity); 0 before init.
 */
unsigned int rte_get_main_lcore(void);

/**
 * The number of lcores, the main one included.
 *
 * @return
 *   The number of enabled lcores; 0 before init.
 */
unsigned int rte_lcore_count(void);

/**
 * Whether an lcore id is one of this process's lcores.
 *
 * @param lcore_id
 *   The lcore id.
 * @return
 *   1 if @p lcore_id is enabled, 0 otherwise (and before init).
 */
int rte_lcore_is_enabled(unsigned int lcore_id);

/**
 * The position of an lcore among the enabled ones, for indexing a
 * per-lcore array of rte_lcore_count() entries.
 *
 * @param lcore_id
 *   The lcore id; a negative value (LCORE_ID_ANY converted to int is -1)
 *   means the calling thread's.
 * @return
 *   The index: the lcore's position in `-l/--lcores` (or in the affinity),
 *   from 0 for the main lcore; -1 if the lcore is not enabled.
 */
int rte_lcore_index(int lcore_id);

/**
 * The NUMA node of the calling thread, to allocate near it.
 *
 * @return
 *   The node of an lcore's CPU; for another thread, the node of the CPU
 *   it runs on now. 0 if the node cannot be known.
 */
unsigned int rte_socket_id(void);

/**
 * The NUMA node of an lcore.
 *
 * @param lcore_id
 *   The lcore id.
 * @return
 *   The NUMA node of the lcore's CPU, or 0 if the lcore is not enabled.
 */
unsigned int rte_lcore_to_socket_id(unsigned int lcore_id);

/**
 * The CPU an lcore is pinned to.
 *
 * @param lcore_id
 *   The lcore id.
 * @return
 *   The CPU number, which in rtemem is @p lcore_id itself, or -1 if the
 *   lcore is not enabled.
 */
int rte_lcore_to_cpu_id(int lcore_id);

/**
 * The number of NUMA nodes, to iterate with rte_socket_id_by_idx().
 *
 * @return
 *   The number of nodes found at init in /sys/devices/system/node (1 if
 *   there is none); 0 before init.
 */
unsigned int rte_socket_count(void);

/**
 * The NUMA node at a position, for walking the nodes.
 *
 * @param idx
 *   The position, below rte_socket_count(); nodes are in ascending order.
 * @return
 *   The node id, or -1 with rte_errno EINVAL if @p idx is out of range or
 *   rtemem is not initialized.
 */
int rte_socket_id_by_idx(unsigned int idx);

/**
 * The next enabled lcore after @p i, for iterating over the lcores (see
 * RTE_LCORE_FOREACH()).
 *
 * @param i
 *   Start after this id (-1 to start at the first).
 * @param skip_main
 *   Skip the main lcore.
 * @param wrap
 *   Wrap around past the last lcore.
 * @return
 *   The id, or RTE_MAX_LCORE if there is none.
 */
unsigned int rte_get_next_lcore(unsigned int i, int skip_main, int wrap);

/**
 * Give the calling thread, which is no lcore, an lcore id of its own, as
 * DPDK does: the lowest id that is not one of the process's lcores, that
 * no other thread registered and that no other process of the file
 * prefix uses. rte_lcore_id() then returns it, and what is kept per lcore
 * id (the heap's lcore cache and slabs) serves the thread; the id is not
 * an enabled lcore (rte_lcore_count() and RTE_LCORE_FOREACH() do not
 * count it) and cannot be launched on. Two threads must not share an id:
 * call rte_thread_unregister() before the thread exits.
 *
 * @return
 *   0 (also if the thread has an lcore id already), or -1 with rte_errno
 *   set: EINVAL before rte_eal_init(), ENOMEM if every id is taken.
 */
int rte_thread_register(void);

/**
 * Give back the lcore id rte_thread_register() gave the calling thread;
 * rte_lcore_id() is LCORE_ID_ANY again. Blocks the id's cache holds stay
 * there for the next thread that registers it. Does nothing for a thread
 * that did not register (an lcore's, or one without an id).
 */
void rte_thread_unregister(void);

/** Iterate over every enabled lcore. */
#define RTE_LCORE_FOREACH(i) \
	for (i = rte_get_next_lcore(-1, 0, 0); i < RTE_MAX_LCORE; \
			i = rte_get_next_lcore(i, 0, 0))

/** Iterate over every enabled lcore but the main one. */
#define RTE_LCORE_FOREACH_WORKER(i) \
	for (i = rte_get_next_lcore(-1, 1, 0); i < RTE_MAX_LCORE; \
			i = rte_get_next_lcore(i, 1, 0))

#ifdef __cplusplus
}
#endif

#endif /* _RTE_LCORE_H_ */
