/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _RTE_MALLOC_H_
#define _RTE_MALLOC_H_

/**
 * @file
 * Allocation from hugepage memory: one heap per NUMA node, plus heaps over
 * memory the application brings (external heaps).
 *
 * Every allocation function takes:
 * - @p type: ignored (kept for DPDK compatibility; may be NULL);
 * - @p align: 0 (a cache line) or a power of two;
 * - @p socket: a NUMA node, or SOCKET_ID_ANY for the caller's node first,
 *   then any other.
 *
 * rtemem tracks which free memory is known to be zero, so rte_zmalloc()
 * clears only memory that may hold data (for example pages reused with
 * --huge-unlink=never) and each byte is cleared at most once per
 * free/allocate cycle.
 */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_common.h>
#include <rte_memory.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Statistics of one heap. Sizes include element headers, as in DPDK. */
struct rte_malloc_socket_stats {
	size_t heap_totalsz_bytes; /**< bytes of memory in the heap */
	size_t heap_freesz_bytes; /**< bytes in free elements */
	size_t greatest_free_size; /**< the largest free element */
	unsigned int free_count; /**< number of free elements */
	unsigned int alloc_count; /**< number of allocated elements */
	size_t heap_allocsz_bytes; /**< bytes in allocated elements */
	/**
	 * rtemem extension: bytes the allocator cleared when memory was
	 * freed into a clean (all-zero) free element.
	 */
	uint64_t heap_cleared_on_free_bytes;
	/**
	 * rtemem extension: bytes the allocator cleared in rte_zmalloc()
	 * because the memory handed out may have held data.
	 */
	uint64_t heap_cleared_on_zmalloc_bytes;
};

/**
 * Allocate memory on the caller's NUMA node, or any other if that fails.
 *
 * @return the memory, or NULL if @p size is 0, @p align is not a power of
 *   two (or 0), or no memory is left.
 */
void *rte_malloc(const char *type, size_t size, unsigned int align);

/**
 * As rte_malloc(), with the memory cleared to zero. Memory known to be zero
 * is not cleared again.
 */
void *rte_zmalloc(const char *type, size_t size, unsigned int align);

/**
 * As rte_zmalloc() for @p num elements of @p size bytes.
 *
 * @return NULL also when @p num * @p size overflows (rtemem checks this;
 *   DPDK does not).
 */
void *rte_calloc(const char *type, size_t num, size_t size, unsigned int align);

/**
 * Resize @p ptr to @p size bytes, keeping its content up to the smaller
 * size. Grows in place when the memory after it is free, otherwise moves.
 * The new bytes are not cleared. @p ptr NULL behaves as rte_malloc().
 *
 * @return the (possibly moved) memory, or NULL with @p ptr untouched.
 */
void *rte_realloc(void *ptr, size_t size, unsigned int align);

/**
 * As rte_realloc(), moving to node @p socket if the memory must move or
 * is on another node.
 */
void *rte_realloc_socket(
		void *ptr, size_t size, unsigned int align, int socket);

/** As rte_malloc() on node @p socket (no fallback unless SOCKET_ID_ANY). */
void *rte_malloc_socket(
		const char *type, size_t size, unsigned int align, int socket);

/** As rte_zmalloc() on node @p socket. */
void *rte_zmalloc_socket(
		const char *type, size_t size, unsigned int align, int socket);

/** As rte_calloc() on node @p socket. */
void *rte_calloc_socket(const char *type, size_t num, size_t size,
		unsigned int align, int socket);

/**
 * Give memory back to its heap. NULL is a no-op. A pointer that is not
 * the start of an allocation from a heap (or already freed) is reported
 * in the log and nothing changes.
 */
void rte_free(void *ptr);

/**
 * Check the allocation @p ptr (and, in builds with -Dmalloc_debug=true,
 * its header and trailer cookies).
 *
 * @param size
 *   If not NULL, receives the usable size of the allocation.
 * @return 0, or -1 if @p ptr is NULL or not a valid allocation.
 */
int rte_malloc_validate(const void *ptr, size_t *size);

/**
 * Read the statistics of the heap of @p socket (a NUMA node or an
 * external heap's socket id).
 *
 * @return 0, or -1 if there is no such heap.
 */
int rte_malloc_get_socket_stats(
		int socket, struct rte_malloc_socket_stats *socket_stats);

/** Print the statistics of every heap. @p type is ignored. */
void rte_malloc_dump_stats(FILE *f, const char *type);

/** Print every element of every heap. */
void rte_malloc_dump_heaps(FILE *f);

/**
 * @return the IOVA of heap memory @p addr, or RTE_BAD_IOVA if it is not
 *   heap memory.
 */
rte_iova_t rte_malloc_virt2iova(const void *addr);

/** Maximum length of a heap name, with its terminating NUL. */
#define RTE_HEAP_NAME_MAX_LEN 32

/**
 * Create an empty external heap called @p heap_name. Memory is added with
 * rte_malloc_heap_memory_add() and allocated through the heap's socket id
 * (rte_malloc_heap_get_socket()).
 *
 * @return 0, or -1 with rte_errno: EINVAL (NULL, empty or too long name),
 *   EEXIST (name taken), ENOSPC (no heap left).
 */
int rte_malloc_heap_create(const char *heap_name);

/**
 * Destroy an external heap. Its memory must have been removed first.
 *
 * @return 0, or -1 with rte_errno: EINVAL (bad name or an internal heap),
 *   ENOENT (no such heap), EBUSY (memory still added).
 */
int rte_malloc_heap_destroy(const char *heap_name);

/**
 * Add the memory [@p va_addr, @p va_addr + @p len) to an external heap.
 * The memory must stay mapped until removed. rtemem treats it as holding
 * data: rte_zmalloc() clears what it hands out from it.
 *
 * @param iova_addrs
 *   The IOVA of each page, or NULL (then IOVAs are RTE_BAD_IOVA).
 * @param n_pages
 *   Number of entries in @p iova_addrs; must be @p len / @p page_sz.
 * @param page_sz
 *   The page size, a power of two dividing @p len and @p va_addr.
 * @return 0, or -1 with rte_errno: EINVAL (bad arguments or an internal
 *   heap), ENOENT (no such heap), EEXIST (overlaps memory already known),
 *   ENOSPC (no memseg list left).
 */
int rte_malloc_heap_memory_add(const char *heap_name, void *va_addr, size_t len,
		rte_iova_t iova_addrs[], unsigned int n_pages, size_t page_sz);

/**
 * Remove memory added with rte_malloc_heap_memory_add(). Nothing in it may
 * be allocated.
 *
 * @return 0, or -1 with rte_errno: EINVAL (bad arguments or an internal
 *   heap), ENOENT (no such heap or memory), EBUSY (memory in use).
 */
int rte_malloc_heap_memory_remove(
		const char *heap_name, void *va_addr, size_t len);

/**
 * @return the socket id of the heap called @p name, or -1 with rte_errno:
 *   EINVAL (bad name), ENOENT (no such heap).
 */
int rte_malloc_heap_get_socket(const char *name);

/**
 * @return 1 if @p socket_id is an external heap's, 0 if it is a NUMA
 *   node's heap, -1 with rte_errno EINVAL if there is no such heap.
 */
int rte_malloc_heap_socket_is_external(int socket_id);

#ifdef __cplusplus
}
#endif

#endif /* _RTE_MALLOC_H_ */
