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

#define RTE_EXEC_ENV_LINUX 1
#define RTE_ARCH_X86_64 1
#define RTE_ARCH_64 1

#define RTE_CACHE_LINE_SIZE 64
#define RTE_MAX_LCORE 128
#define RTE_MAX_NUMA_NODES 32
#define RTE_MAX_HEAPS 32
#define RTE_MAX_MEMZONE 2560
#define RTE_MAX_TAILQ 32

#define RTE_MAX_MEMSEG_LISTS 128
#define RTE_MAX_MEMSEG_PER_LIST 8192
#define RTE_MAX_MEM_MB_PER_LIST 32768
#define RTE_MAX_MEMSEG_PER_TYPE 32768
#define RTE_MAX_MEM_MB_PER_TYPE 65536
#define RTE_MAX_MEM_MB 524288

#define RTE_LOG_DP_LEVEL RTE_LOG_INFO

#endif /* _RTE_CONFIG_H_ */
