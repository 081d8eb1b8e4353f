/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _RTE_EAL_MEMCONFIG_H_
#define _RTE_EAL_MEMCONFIG_H_

/**
 * @file
 * The locks of the shared memory configuration.
 *
 * The memory hotplug lock guards the memseg lists: walks read-lock it,
 * mapping and unmapping pages write-lock it. Take it for reading around
 * several _thread_unsafe calls that must see the same memory.
 *
 * The tail queue, mempool and timer locks exist so that code written for
 * DPDK builds and runs: rtemem itself does not use them. Before
 * rte_eal_init() and after rte_eal_cleanup() the lock functions do
 * nothing.
 */

#include <stdbool.h>

#include <rte_memory.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Take the memory hotplug lock for reading. */
void rte_mcfg_mem_read_lock(void);
/** Release the memory hotplug lock after reading. */
void rte_mcfg_mem_read_unlock(void);
/** Take the memory hotplug lock for writing. */
void rte_mcfg_mem_write_lock(void);
/** Release the memory hotplug lock after writing. */
void rte_mcfg_mem_write_unlock(void);

/** Take the tail queue lock for reading. */
void rte_mcfg_tailq_read_lock(void);
/** Release the tail queue lock after reading. */
void rte_mcfg_tailq_read_unlock(void);
/** Take the tail queue lock for writing. */
void rte_mcfg_tailq_write_lock(void);
/** Release the tail queue lock after writing. */
void rte_mcfg_tailq_write_unlock(void);

/** Take the mempool lock for reading. */
void rte_mcfg_mempool_read_lock(void);
/** Release the mempool lock after reading. */
void rte_mcfg_mempool_read_unlock(void);
/** Take the mempool lock for writing. */
void rte_mcfg_mempool_write_lock(void);
/** Release the mempool lock after writing. */
void rte_mcfg_mempool_write_unlock(void);

/** Take the timer lock. */
void rte_mcfg_timer_lock(void);
/** Release the timer lock. */
void rte_mcfg_timer_unlock(void);

/**
 * Whether hugepages live in one file per memseg list.
 *
 * @return
 *   true after an rte_eal_init() with `--single-file-segments`, else false.
 */
bool rte_mcfg_get_single_file_segments(void);

#ifdef __cplusplus
}
#endif

#endif /* _RTE_EAL_MEMCONFIG_H_ */
