/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _RTE_MEMZONE_H_
#define _RTE_MEMZONE_H_

/**
 * @file
 * Memzones: named, never-moving blocks of heap memory, found by name.
 *
 * A memzone's memory is not cleared: it may hold data, for example from
 * pages reused with --huge-unlink=never. Lookups by name take constant
 * time (a hash of the names), not a scan of the table.
 */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_common.h>
#include <rte_memory.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RTE_MEMZONE_2MB 0x00000001 /**< on 2 MB pages */
#define RTE_MEMZONE_1GB 0x00000002 /**< on 1 GB pages */
#define RTE_MEMZONE_16MB 0x00000100 /**< on 16 MB pages */
#define RTE_MEMZONE_16GB 0x00000200 /**< on 16 GB pages */
#define RTE_MEMZONE_256KB 0x00010000 /**< on 256 KB pages */
#define RTE_MEMZONE_256MB 0x00020000 /**< on 256 MB pages */
#define RTE_MEMZONE_512MB 0x00040000 /**< on 512 MB pages */
#define RTE_MEMZONE_4GB 0x00080000 /**< on 4 GB pages */
/** The page size flags are a preference: any page size will do. */
#define RTE_MEMZONE_SIZE_HINT_ONLY 0x00000004
/** The memory must be contiguous in IOVA space. */
#define RTE_MEMZONE_IOVA_CONTIG 0x00100000

/** Maximum length of a memzone name, with its terminating NUL. */
#define RTE_MEMZONE_NAMESIZE 32

/** A reserved memzone. */
struct rte_memzone {
	char name[RTE_MEMZONE_NAMESIZE]; /**< name */
	rte_iova_t iova; /**< I/O address of the start */
	union {
		void *addr; /**< virtual address of the start */
		uint64_t addr_64; /**< the same, as a number */
	};
	size_t len; /**< length in bytes */
	uint64_t hugepage_sz; /**< page size of the memory */
	int32_t socket_id; /**< NUMA node (or external heap socket id) */
	uint32_t flags; /**< the flags it was reserved with */
} __rte_packed;

/**
 * Reserve @p len bytes, aligned to a cache line, named @p name.
 *
 * @param len
 *   Bytes; 0 means the biggest block that is free now.
 * @param socket_id
 *   A NUMA node, an external heap's socket id, or SOCKET_ID_ANY.
 * @param flags
 *   RTE_MEMZONE_* page size flags, RTE_MEMZONE_SIZE_HINT_ONLY,
 *   RTE_MEMZONE_IOVA_CONTIG.
 * @return the memzone, or NULL with rte_errno: EINVAL (bad argument),
 *   ENAMETOOLONG, EEXIST (name taken), ENOSPC (RTE_MAX_MEMZONE in use),
 *   ENOMEM (no memory fits).
 */
const struct rte_memzone *rte_memzone_reserve(const char *name, size_t len,
		int socket_id, unsigned int flags);

/** As rte_memzone_reserve(), aligned to @p align (a power of two). */
const struct rte_memzone *rte_memzone_reserve_aligned(const char *name,
		size_t len, int socket_id, unsigned int flags,
		unsigned int align);

/**
 * As rte_memzone_reserve_aligned(), not crossing a multiple of @p bound
 * (a power of two at least @p len; 0 for no bound).
 */
const struct rte_memzone *rte_memzone_reserve_bounded(const char *name,
		size_t len, int socket_id, unsigned int flags,
		unsigned int align, unsigned int bound);

/**
 * Free a memzone. Its slot and name become available.
 *
 * @return 0, or -EINVAL if @p mz is NULL or not a reserved memzone.
 */
int rte_memzone_free(const struct rte_memzone *mz);

/**
 * @return the memzone called @p name, or NULL (rte_errno ENOENT).
 */
const struct rte_memzone *rte_memzone_lookup(const char *name);

/** Print every memzone. */
void rte_memzone_dump(FILE *f);

/**
 * Call @p func on every memzone. @p func must not reserve or free
 * memzones.
 */
void rte_memzone_walk(
		void (*func)(const struct rte_memzone *, void *arg), void *arg);

#ifdef __cplusplus
}
#endif

#endif /* _RTE_MEMZONE_H_ */
