/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _RTE_CONFIG_H_
#define _RTE_CONFIG_H_

/**
 * @file
 * Build-time limits, with the values of a distribution build of DPDK so
 * that code sized by them behaves the same against rtemem.
 */

/** Defined: rtemem runs on Linux. */
#define RTE_EXEC_ENV_LINUX 1
/** Defined: rtemem is built for x86-64. */
#define RTE_ARCH_X86_64 1
/** Defined: pointers are 64 bits wide. */
#define RTE_ARCH_64 1

/** Cache line size in bytes: the least alignment of heap allocations. */
#define RTE_CACHE_LINE_SIZE 64
/** Lcore ids, which are CPU numbers, are below this. */
#define RTE_MAX_LCORE 128
/** NUMA node ids that rtemem places memory on are below this. */
#define RTE_MAX_NUMA_NODES 32
/** Maximum number of malloc heaps: one per NUMA node, plus external ones. */
#define RTE_MAX_HEAPS 32
/** Maximum number of memzones reserved at the same time. */
#define RTE_MAX_MEMZONE 2560
/** Kept for source compatibility: rtemem has no shared tail queues. */
#define RTE_MAX_TAILQ 32

/** Maximum number of memseg lists, external memory included. */
#define RTE_MAX_MEMSEG_LISTS 128
/** Maximum number of page slots in one memseg list. */
#define RTE_MAX_MEMSEG_PER_LIST 8192
/** Maximum size of one memseg list, in MB. */
#define RTE_MAX_MEM_MB_PER_LIST 32768
/**
 * Maximum number of page slots reserved for one type of memory (one page
 * size on one NUMA node), over all its lists.
 */
#define RTE_MAX_MEMSEG_PER_TYPE 32768
/** Maximum address space reserved for one type of memory, in MB. */
#define RTE_MAX_MEM_MB_PER_TYPE 65536
/** The most memory that `-m` or one `--socket-mem` value may ask for, in MB. */
#define RTE_MAX_MEM_MB 524288

/** Kept for source compatibility: DPDK's level of data path logs. */
#define RTE_LOG_DP_LEVEL RTE_LOG_INFO

#endif /* _RTE_CONFIG_H_ */
