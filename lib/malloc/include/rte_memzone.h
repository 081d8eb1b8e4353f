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
 * pages reused with `--huge-unlink=never`. Lookups by name take constant
 * time (a hash of the names), not a scan of the table.
 *
 * Before rte_eal_init() and after rte_eal_cleanup() the functions here
 * fail with rte_errno E_RTE_NO_CONFIG (the walk and dump do nothing).
 */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_common.h>
#include <rte_memory.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Page size flags: the memzone must be on pages of one of these sizes. */
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
 * The memory comes from the heaps, as rte_malloc()'s, and stays at its
 * address until rte_memzone_free(). Another part of the program can find
 * it by name with rte_memzone_lookup().
 *
 * @param name
 *   The name, unique, 1 to RTE_MEMZONE_NAMESIZE - 1 characters.
 * @param len
 *   Bytes; 0 means the biggest block that is free now (without mapping
 *   more pages).
 * @param socket_id
 *   A NUMA node, an external heap's socket id, or SOCKET_ID_ANY for the
 *   caller's node first, then any other.
 * @param flags
 *   0, or RTE_MEMZONE_* page size flags, RTE_MEMZONE_SIZE_HINT_ONLY,
 *   RTE_MEMZONE_IOVA_CONTIG.
 * @return
 *   The memzone, or NULL with rte_errno: EINVAL (bad argument),
 *   ENAMETOOLONG, EEXIST (name taken), ENOSPC (RTE_MAX_MEMZONE in use),
 *   ENOMEM (no memory fits).
 */
const struct rte_memzone *rte_memzone_reserve(const char *name, size_t len,
		int socket_id, unsigned int flags);

/**
 * As rte_memzone_reserve(), aligned to @p align.
 *
 * @param name
 *   As for rte_memzone_reserve().
 * @param len
 *   As for rte_memzone_reserve().
 * @param socket_id
 *   As for rte_memzone_reserve().
 * @param flags
 *   As for rte_memzone_reserve().
 * @param align
 *   0, or the alignment in bytes: a power of two. The memzone is always
 *   aligned to at least a cache line.
 * @return
 *   As rte_memzone_reserve().
 */
const struct rte_memzone *rte_memzone_reserve_aligned(const char *name,
		size_t len, int socket_id, unsigned int flags,
		unsigned int align);

/**
 * As rte_memzone_reserve_aligned(), not crossing a multiple of @p bound
 * (a power of two at least @p len; 0 for no bound).
 *
 * @param name
 *   As for rte_memzone_reserve().
 * @param len
 *   As for rte_memzone_reserve(); with @p len 0 the memzone is at most
 *   @p bound bytes.
 * @param socket_id
 *   As for rte_memzone_reserve().
 * @param flags
 *   As for rte_memzone_reserve().
 * @param align
 *   As for rte_memzone_reserve_aligned().
 * @param bound
 *   0, or a power of two, at least @p len rounded up to a cache line,
 *   that the memzone must not cross a multiple of.
 * @return
 *   As rte_memzone_reserve().
 */
const struct rte_memzone *rte_memzone_reserve_bounded(const char *name,
		size_t len, int socket_id, unsigned int flags,
		unsigned int align, unsigned int bound);

/**
 * Free a memzone. Its slot and name become available, and its memory goes
 * back to the heap.
 *
 * @param mz
 *   The memzone, as returned by a reserve call or rte_memzone_lookup().
 * @return
 *   0, or -EINVAL if @p mz is NULL or not a reserved memzone, or rtemem
 *   is not initialized.
 */
int rte_memzone_free(const struct rte_memzone *mz);

/**
 * Find a memzone by name, for example one that another part of the
 * program reserved.
 *
 * @param name
 *   The name.
 * @return
 *   The memzone, or NULL with rte_errno: ENOENT (no such memzone), EINVAL
 *   (@p name is NULL).
 */
const struct rte_memzone *rte_memzone_lookup(const char *name);

/**
 * Print every memzone, one per line, for debugging.
 *
 * @param f
 *   The stream to print to.
 */
void rte_memzone_dump(FILE *f);

/**
 * Call @p func on every memzone. @p func runs with the memzone table
 * locked for reading: it must not reserve or free memzones.
 *
 * @param func
 *   The callback; it gets the memzone and @p arg.
 * @param arg
 *   Passed to @p func.
 */
void rte_memzone_walk(
		void (*func)(const struct rte_memzone *, void *arg), void *arg);

#ifdef __cplusplus
}
#endif

#endif /* _RTE_MEMZONE_H_ */
