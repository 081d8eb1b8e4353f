/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _RTE_LCORE_H_
#define _RTE_LCORE_H_

/**
 * @file
 * Logical cores: the main thread and one worker thread per other CPU in
 * -l/--lcores, each pinned to its CPU.
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

RTE_DECLARE_PER_LCORE(unsigned int, _lcore_id);

/** @return the lcore id of the calling thread, or LCORE_ID_ANY. */
static inline unsigned int
rte_lcore_id(void)
{
	return RTE_PER_LCORE(_lcore_id);
}

/** @return the id of the main lcore. */
unsigned int rte_get_main_lcore(void);

/** @return the number of enabled lcores. */
unsigned int rte_lcore_count(void);

/** @return 1 if @p lcore_id is enabled. */
int rte_lcore_is_enabled(unsigned int lcore_id);

/** @return the index of @p lcore_id among enabled lcores (-1 for any
 * lcore_id not enabled; LCORE_ID_ANY or a negative means the caller's). */
int rte_lcore_index(int lcore_id);

/** @return the NUMA node of the calling thread's CPU. */
unsigned int rte_socket_id(void);

/** @return the NUMA node of @p lcore_id's CPU. */
unsigned int rte_lcore_to_socket_id(unsigned int lcore_id);

/** @return the CPU that @p lcore_id runs on, or -1. */
int rte_lcore_to_cpu_id(int lcore_id);

/** @return the number of NUMA nodes that have CPUs or memory. */
unsigned int rte_socket_count(void);

/**
 * @return the id of the @p idx-th NUMA node, or -1 (rte_errno EINVAL).
 */
int rte_socket_id_by_idx(unsigned int idx);

/**
 * The next enabled lcore after @p i.
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
