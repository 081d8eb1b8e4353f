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
 * - @p align: 0 (a cache line) or a power of two; memory is always
 *   aligned to at least a cache line;
 * - @p socket: a NUMA node, or SOCKET_ID_ANY for the caller's node first,
 *   then any other.
 *
 * Before rte_eal_init() and after rte_eal_cleanup() there are no heaps:
 * the functions here fail with rte_errno E_RTE_NO_CONFIG (rte_free() and
 * the dump functions do nothing).
 *
 * rtemem tracks which free memory is known to be zero, so rte_zmalloc()
 * clears only memory that may hold data (for example pages reused with
 * `--huge-unlink=never`) and each byte is cleared at most once per
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

/**
 * Statistics of one heap. Sizes include element headers, as in DPDK.
 * Allocations of up to 4 KB are objects packed in 64 KB slabs, with
 * no header each: a slab's free objects count as free bytes (but not as
 * free elements), its live ones as allocations of their object size, and
 * the rest of it as allocated bytes.
 */
struct rte_malloc_socket_stats {
	size_t heap_totalsz_bytes; /**< bytes of memory in the heap */
	size_t heap_freesz_bytes; /**< bytes in free elements and objects */
	size_t greatest_free_size; /**< the largest free element */
	unsigned int free_count; /**< number of free elements */
	unsigned int alloc_count; /**< number of allocations */
	size_t heap_allocsz_bytes; /**< total less free bytes */
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
 * The memory is not cleared.
 *
 * @param type
 *   Ignored; may be NULL.
 * @param size
 *   Bytes to allocate.
 * @param align
 *   0, or the alignment in bytes: a power of two.
 * @return
 *   The memory, or NULL with rte_errno: EINVAL (@p size is 0 or above
 *   2^52, or @p align is not a power of two), ENOMEM (no memory left).
 */
void *rte_malloc(const char *type, size_t size, unsigned int align);

/**
 * As rte_malloc(), with the memory cleared to zero. Memory known to be zero
 * is not cleared again.
 *
 * @param type
 *   Ignored; may be NULL.
 * @param size
 *   Bytes to allocate.
 * @param align
 *   0, or the alignment in bytes: a power of two.
 * @return
 *   As rte_malloc().
 */
void *rte_zmalloc(const char *type, size_t size, unsigned int align);

/**
 * As rte_zmalloc() for @p num elements of @p size bytes.
 *
 * @param type
 *   Ignored; may be NULL.
 * @param num
 *   Number of elements.
 * @param size
 *   Size of one element in bytes.
 * @param align
 *   0, or the alignment in bytes: a power of two.
 * @return
 *   As rte_malloc(); also NULL with rte_errno EINVAL when @p num * @p size
 *   overflows (rtemem checks this; DPDK does not).
 */
void *rte_calloc(const char *type, size_t num, size_t size, unsigned int align);

/**
 * Resize @p ptr to @p size bytes, keeping its content up to the smaller
 * size. Grows in place when the memory after it is free, otherwise moves
 * within the heap of @p ptr. The new bytes are not cleared. @p ptr NULL
 * behaves as rte_malloc(). As in DPDK and unlike realloc(3), a @p size of
 * 0 does not free @p ptr: it is kept, as a block of the smallest size.
 *
 * @param ptr
 *   Memory from rte_malloc() and the like, or NULL.
 * @param size
 *   The new size in bytes.
 * @param align
 *   0, or the alignment in bytes: a power of two. Memory that does not
 *   have it is moved.
 * @return
 *   The (possibly moved) memory, or NULL with @p ptr untouched and
 *   rte_errno: EINVAL (bad @p size or @p align, or @p ptr is not an
 *   allocation), ENOMEM.
 */
void *rte_realloc(void *ptr, size_t size, unsigned int align);

/**
 * As rte_realloc(), moving to node @p socket if the memory must move or
 * is on another node.
 *
 * @param ptr
 *   Memory from rte_malloc() and the like, or NULL.
 * @param size
 *   The new size in bytes.
 * @param align
 *   0, or the alignment in bytes: a power of two.
 * @param socket
 *   The NUMA node (or external heap socket id) the memory must be on, or
 *   SOCKET_ID_ANY to keep it in its heap.
 * @return
 *   As rte_realloc().
 */
void *rte_realloc_socket(
		void *ptr, size_t size, unsigned int align, int socket);

/**
 * As rte_malloc() on node @p socket, with no fallback to another node
 * unless @p socket is SOCKET_ID_ANY.
 *
 * @param type
 *   Ignored; may be NULL.
 * @param size
 *   Bytes to allocate.
 * @param align
 *   0, or the alignment in bytes: a power of two.
 * @param socket
 *   A NUMA node, an external heap's socket id, or SOCKET_ID_ANY. With
 *   `--no-huge` a NUMA node means any node.
 * @return
 *   As rte_malloc(); also NULL with rte_errno EINVAL if there is no heap
 *   for @p socket.
 */
void *rte_malloc_socket(
		const char *type, size_t size, unsigned int align, int socket);

/**
 * As rte_zmalloc() on node @p socket, with no fallback to another node
 * unless @p socket is SOCKET_ID_ANY.
 *
 * @param type
 *   Ignored; may be NULL.
 * @param size
 *   Bytes to allocate.
 * @param align
 *   0, or the alignment in bytes: a power of two.
 * @param socket
 *   As for rte_malloc_socket().
 * @return
 *   As rte_malloc_socket().
 */
void *rte_zmalloc_socket(
		const char *type, size_t size, unsigned int align, int socket);

/**
 * As rte_calloc() on node @p socket, with no fallback to another node
 * unless @p socket is SOCKET_ID_ANY.
 *
 * @param type
 *   Ignored; may be NULL.
 * @param num
 *   Number of elements.
 * @param size
 *   Size of one element in bytes.
 * @param align
 *   0, or the alignment in bytes: a power of two.
 * @param socket
 *   As for rte_malloc_socket().
 * @return
 *   As rte_calloc() and rte_malloc_socket().
 */
void *rte_calloc_socket(const char *type, size_t num, size_t size,
		unsigned int align, int socket);

/**
 * Give memory back to its heap. NULL is a no-op. A pointer that is not
 * the start of an allocation from a heap (or already freed) is reported
 * in the log and nothing changes.
 *
 * If the block was carved from memory known to be zero, and the free
 * blocks it joins are too, its bytes are cleared now, so that a later
 * rte_zmalloc() need not clear them; otherwise nothing is cleared. Whole
 * pages given back to the system are not cleared.
 *
 * @param ptr
 *   Memory from rte_malloc() and the like, rte_realloc() included, or
 *   NULL.
 */
void rte_free(void *ptr);

/**
 * Check the allocation @p ptr (and, in builds with -Dmalloc_debug=true,
 * its header and trailer cookies), for debugging.
 *
 * @param ptr
 *   The start of an allocation.
 * @param size
 *   If not NULL, receives the usable size of the allocation.
 * @return
 *   0, or -1 if @p ptr is NULL or not a valid allocation, or rtemem is
 *   not initialized.
 */
int rte_malloc_validate(const void *ptr, size_t *size);

/**
 * Read the statistics of the heap of @p socket (a NUMA node or an
 * external heap's socket id).
 *
 * @param socket
 *   The NUMA node or external heap socket id.
 * @param socket_stats
 *   Receives the statistics.
 * @return
 *   0, or -1 if there is no such heap, @p socket_stats is NULL or rtemem
 *   is not initialized.
 */
int rte_malloc_get_socket_stats(
		int socket, struct rte_malloc_socket_stats *socket_stats);

/**
 * Print the statistics of every heap, for debugging.
 *
 * @param f
 *   The stream to print to.
 * @param type
 *   Ignored; may be NULL.
 */
void rte_malloc_dump_stats(FILE *f, const char *type);

/**
 * Print every element of every heap, for debugging.
 *
 * @param f
 *   The stream to print to.
 */
void rte_malloc_dump_heaps(FILE *f);

/**
 * The I/O address of heap memory, to hand it to a device.
 *
 * @param addr
 *   An address in heap memory, such as one returned by rte_malloc().
 * @return
 *   The IOVA, or RTE_BAD_IOVA if @p addr is not heap memory or its IOVA
 *   is not known (external memory added without IOVAs).
 */
rte_iova_t rte_malloc_virt2iova(const void *addr);

/**
 * Give back to the kernel, at once, the whole free pages a heap keeps
 * mapped for reuse (see --malloc-retain and --malloc-decay), as the trim
 * thread does once they have stayed unused for the decay time. Blocks
 * waiting in the heap's queue and in the lcore caches are freed first,
 * so every page no allocation uses goes back, except those -m pins.
 * Heaps that never give pages back (--legacy-mem, --no-huge, external
 * heaps) give back nothing.
 *
 * @param socket_id
 *   The NUMA node (or external heap socket id) of the heap, or
 *   SOCKET_ID_ANY for every heap.
 * @return
 *   The bytes given back, or -1 with rte_errno set: EINVAL if
 *   @p socket_id has no heap, E_RTE_NO_CONFIG before rte_eal_init().
 */
int64_t rte_malloc_heap_trim(int socket_id);

/** Maximum length of a heap name, with its terminating NUL. */
#define RTE_HEAP_NAME_MAX_LEN 32

/**
 * Create an empty external heap called @p heap_name. Memory is added with
 * rte_malloc_heap_memory_add() and allocated through the heap's socket id
 * (rte_malloc_heap_get_socket()).
 *
 * @param heap_name
 *   The name, 1 to RTE_HEAP_NAME_MAX_LEN - 1 characters.
 * @return
 *   0, or -1 with rte_errno: EINVAL (NULL, empty or too long name), EEXIST
 *   (name taken), ENOSPC (no heap left).
 */
int rte_malloc_heap_create(const char *heap_name);

/**
 * Destroy an external heap. Its memory must have been removed first.
 *
 * @param heap_name
 *   The name given to rte_malloc_heap_create().
 * @return
 *   0, or -1 with rte_errno: EINVAL (bad name or an internal heap), ENOENT
 *   (no such heap), EBUSY (memory still added).
 */
int rte_malloc_heap_destroy(const char *heap_name);

/**
 * Add the memory [@p va_addr, @p va_addr + @p len) to an external heap.
 * The memory must stay mapped until removed. rtemem treats it as holding
 * data: rte_zmalloc() clears what it hands out from it.
 *
 * @param heap_name
 *   The name given to rte_malloc_heap_create().
 * @param va_addr
 *   Start of the memory, a multiple of @p page_sz.
 * @param len
 *   Length of the memory in bytes, a multiple of @p page_sz.
 * @param iova_addrs
 *   The IOVA of each page, or NULL (then IOVAs are RTE_BAD_IOVA).
 * @param n_pages
 *   Number of entries in @p iova_addrs; must be @p len / @p page_sz when
 *   @p iova_addrs is not NULL, and is ignored otherwise.
 * @param page_sz
 *   The page size, a power of two dividing @p len and @p va_addr.
 * @return
 *   0, or -1 with rte_errno: EINVAL (bad arguments or an internal heap),
 *   ENOENT (no such heap), EEXIST (overlaps memory already known), ENOSPC
 *   (no memseg list left).
 */
int rte_malloc_heap_memory_add(const char *heap_name, void *va_addr, size_t len,
		rte_iova_t iova_addrs[], unsigned int n_pages, size_t page_sz);

/**
 * Remove memory added with rte_malloc_heap_memory_add(). Nothing in it may
 * be allocated. The memory is the application's again; rtemem does not
 * unmap it.
 *
 * @param heap_name
 *   The name of the heap the memory was added to.
 * @param va_addr
 *   Start of the memory, as given to rte_malloc_heap_memory_add().
 * @param len
 *   Length of the memory, as given to rte_malloc_heap_memory_add().
 * @return
 *   0, or -1 with rte_errno: EINVAL (bad arguments or an internal heap),
 *   ENOENT (no such heap, or no memory added at exactly that range),
 *   EBUSY (memory in use).
 */
int rte_malloc_heap_memory_remove(
		const char *heap_name, void *va_addr, size_t len);

/**
 * The socket id to allocate from a heap by name, with rte_malloc_socket()
 * or rte_memzone_reserve().
 *
 * @param name
 *   The heap's name: an external heap's, or "socket_N" for the heap of
 *   NUMA node N.
 * @return
 *   The socket id, or -1 with rte_errno: EINVAL (bad name), ENOENT (no
 *   such heap).
 */
int rte_malloc_heap_get_socket(const char *name);

/**
 * Whether a socket id names an external heap or a NUMA node's heap.
 *
 * @param socket_id
 *   The socket id.
 * @return
 *   1 if @p socket_id is an external heap's, 0 if it is a NUMA node's
 *   heap, -1 with rte_errno EINVAL if there is no such heap.
 */
int rte_malloc_heap_socket_is_external(int socket_id);

#ifdef __cplusplus
}
#endif

#endif /* _RTE_MALLOC_H_ */
