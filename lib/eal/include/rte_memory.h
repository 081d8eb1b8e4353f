/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _RTE_MEMORY_H_
#define _RTE_MEMORY_H_

/**
 * @file
 * Memory segments: the pages rtemem has mapped, grouped in memseg lists of
 * one page size and one NUMA node, and the calls to walk and translate them.
 *
 * The walks and the descriptor calls below take the memory hotplug lock
 * for reading; their _thread_unsafe variants do not, for use inside
 * callbacks and while holding the lock. The address lookups
 * (rte_mem_virt2memseg() and the like) take no lock: hold it around them
 * and the use of their result if memory may be unmapped meanwhile.
 */

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>

#include <rte_common.h>
#include <rte_config.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RTE_PGSIZE_4K (1ULL << 12) /**< page size of 4 KB, in bytes */
#define RTE_PGSIZE_64K (1ULL << 16) /**< page size of 64 KB, in bytes */
#define RTE_PGSIZE_256K (1ULL << 18) /**< page size of 256 KB, in bytes */
#define RTE_PGSIZE_2M (1ULL << 21) /**< page size of 2 MB, in bytes */
#define RTE_PGSIZE_16M (1ULL << 24) /**< page size of 16 MB, in bytes */
#define RTE_PGSIZE_256M (1ULL << 28) /**< page size of 256 MB, in bytes */
#define RTE_PGSIZE_512M (1ULL << 29) /**< page size of 512 MB, in bytes */
#define RTE_PGSIZE_1G (1ULL << 30) /**< page size of 1 GB, in bytes */
#define RTE_PGSIZE_4G (1ULL << 32) /**< page size of 4 GB, in bytes */
#define RTE_PGSIZE_16G (1ULL << 34) /**< page size of 16 GB, in bytes */

/** Any NUMA node. */
#define SOCKET_ID_ANY -1

/** I/O virtual address. */
typedef uint64_t rte_iova_t;
/** Physical address (kept for DPDK source compatibility). */
typedef uint64_t phys_addr_t;
/** An IOVA that is not known, or a failed translation. */
#define RTE_BAD_IOVA ((rte_iova_t)-1)
/** A physical address that is not known (the same value as RTE_BAD_IOVA). */
#define RTE_BAD_PHYS_ADDR ((phys_addr_t)-1)

/** The page was mapped at init for `-m` or `--socket-mem` and stays. */
#define RTE_MEMSEG_FLAG_DO_NOT_FREE RTE_BIT32(0)
/**
 * The page may hold non-zero bytes: it came from a hugepage file that
 * existed before it was mapped (`--huge-unlink=never`), or it is external
 * memory added with rte_malloc_heap_memory_add() (rtemem extension).
 */
#define RTE_MEMSEG_FLAG_DIRTY RTE_BIT32(1)

/** One mapped page. */
struct rte_memseg {
	rte_iova_t iova; /**< I/O address of the page start */
	union {
		void *addr; /**< virtual address of the page start */
		uint64_t addr_64; /**< the same, as a number */
	};
	size_t len; /**< length in bytes (one page) */
	uint64_t hugepage_sz; /**< page size in bytes */
	int32_t socket_id; /**< NUMA node of the page */
	uint32_t nchannel; /**< memory channels (0: unknown) */
	uint32_t nrank; /**< memory ranks (0: unknown) */
	uint32_t flags; /**< RTE_MEMSEG_FLAG_* */
} __rte_packed;

/**
 * A list of page slots of one size on one NUMA node, over a range of
 * virtual address space reserved at init. Slot i is at base_va + i * page_sz.
 * An external list instead covers memory added with
 * rte_malloc_heap_memory_add(), and its socket_id is the external heap's.
 *
 * rtemem keeps the slots and their occupancy in the shared memory
 * configuration rather than in DPDK's rte_fbarray; reach them through the
 * walks and lookups below.
 */
struct rte_memseg_list {
	union {
		void *base_va; /**< start of the reserved address range */
		uint64_t addr_64; /**< the same, as a number */
	};
	uint64_t page_sz; /**< page size in bytes */
	int socket_id; /**< NUMA node of every page in the list */
	volatile uint32_t version; /**< bumped on every map and unmap */
	size_t len; /**< length of the reserved range in bytes */
	unsigned int external; /**< 1 if the memory is not rtemem's */
	unsigned int heap; /**< 1 if the list's pages feed a malloc heap */
	uint32_t n_segs; /**< number of page slots (rtemem) */
	uint32_t n_used; /**< number of mapped slots (rtemem) */
	uint64_t segs_off; /**< slot array, config offset (rtemem) */
	uint64_t used_off; /**< occupancy bitmap, config offset (rtemem) */
};

/**
 * Walk callback for a single page.
 *
 * @param msl
 *   The list the page is in.
 * @param ms
 *   The page.
 * @param arg
 *   The argument given to the walk.
 * @return
 *   0 to go on, 1 to stop with success, -1 to stop with failure.
 */
typedef int (*rte_memseg_walk_t)(const struct rte_memseg_list *msl,
		const struct rte_memseg *ms, void *arg);

/**
 * Walk callback for a run of pages contiguous in virtual memory.
 *
 * @param msl
 *   The list the run is in.
 * @param ms
 *   The first page of the run; the others follow it in memory, as an
 *   array.
 * @param len
 *   The length of the run in bytes.
 * @param arg
 *   The argument given to the walk.
 * @return
 *   0 to go on, 1 to stop with success, -1 to stop with failure.
 */
typedef int (*rte_memseg_contig_walk_t)(const struct rte_memseg_list *msl,
		const struct rte_memseg *ms, size_t len, void *arg);

/**
 * Walk callback for a memseg list.
 *
 * @param msl
 *   The list.
 * @param arg
 *   The argument given to the walk.
 * @return
 *   0 to go on, 1 to stop with success, -1 to stop with failure.
 */
typedef int (*rte_memseg_list_walk_t)(
		const struct rte_memseg_list *msl, void *arg);

/**
 * Call @p func for every mapped page, in list and address order, external
 * memory included.
 *
 * @p func runs with the hotplug lock held for reading: it may call only
 * the _thread_unsafe functions of this file, and must not allocate or
 * free heap memory that could map or unmap pages.
 *
 * @param func
 *   The callback.
 * @param arg
 *   Passed to @p func.
 * @return
 *   0 if the walk finished (also before rte_eal_init()), 1 if a callback
 *   stopped it, -1 if a callback failed.
 */
int rte_memseg_walk(rte_memseg_walk_t func, void *arg);

/**
 * Call @p func for every run of mapped pages that are contiguous in virtual
 * memory within one list, with the run's length. Runs do not cross lists:
 * two runs may touch in memory.
 *
 * @p func runs with the hotplug lock held for reading, as for
 * rte_memseg_walk().
 *
 * @param func
 *   The callback.
 * @param arg
 *   Passed to @p func.
 * @return
 *   As rte_memseg_walk().
 */
int rte_memseg_contig_walk(rte_memseg_contig_walk_t func, void *arg);

/**
 * Call @p func for every memseg list in use, whether it has mapped pages
 * or not; the lists of removed external memory are skipped.
 *
 * @p func runs with the hotplug lock held for reading, as for
 * rte_memseg_walk().
 *
 * @param func
 *   The callback.
 * @param arg
 *   Passed to @p func.
 * @return
 *   As rte_memseg_walk().
 */
int rte_memseg_list_walk(rte_memseg_list_walk_t func, void *arg);

/**
 * rte_memseg_walk() without taking the hotplug lock: for callbacks and
 * for code that holds the lock already.
 *
 * @param func
 *   The callback.
 * @param arg
 *   Passed to @p func.
 * @return
 *   As rte_memseg_walk().
 */
int rte_memseg_walk_thread_unsafe(rte_memseg_walk_t func, void *arg);

/**
 * rte_memseg_contig_walk() without taking the hotplug lock: for callbacks
 * and for code that holds the lock already.
 *
 * @param func
 *   The callback.
 * @param arg
 *   Passed to @p func.
 * @return
 *   As rte_memseg_walk().
 */
int rte_memseg_contig_walk_thread_unsafe(
		rte_memseg_contig_walk_t func, void *arg);

/**
 * rte_memseg_list_walk() without taking the hotplug lock: for callbacks
 * and for code that holds the lock already.
 *
 * @param func
 *   The callback.
 * @param arg
 *   Passed to @p func.
 * @return
 *   As rte_memseg_walk().
 */
int rte_memseg_list_walk_thread_unsafe(rte_memseg_list_walk_t func, void *arg);

/**
 * Find the memseg list whose reserved range holds an address, mapped or
 * not. It does not take the hotplug lock.
 *
 * @param virt
 *   The address.
 * @return
 *   The list, or NULL with rte_errno set to EINVAL.
 */
struct rte_memseg_list *rte_mem_virt2memseg_list(const void *virt);

/**
 * Find the mapped page that holds an address. It does not take the
 * hotplug lock.
 *
 * @param virt
 *   The address.
 * @param msl
 *   The list to look in, or NULL to find it first.
 * @return
 *   The page, or NULL (rte_errno EINVAL) if @p virt is not in a mapped page
 *   (of @p msl, if given).
 */
struct rte_memseg *rte_mem_virt2memseg(
		const void *virt, const struct rte_memseg_list *msl);

/**
 * The I/O address of an address, to hand it to a device: from the page's
 * memseg when the address is in a mapped page with a known IOVA; else the
 * address itself in IOVA-as-VA mode; else its physical address, as
 * rte_mem_virt2phy().
 *
 * @param virt
 *   The address, in rtemem memory or not.
 * @return
 *   The IOVA, or RTE_BAD_IOVA if it cannot be known.
 */
rte_iova_t rte_mem_virt2iova(const void *virt);

/**
 * The physical address of an address, from /proc/self/pagemap.
 *
 * @param virt
 *   The address, in any memory of the process.
 * @return
 *   The physical address, or RTE_BAD_IOVA if it cannot be known (no
 *   privilege, or the page is not present).
 */
phys_addr_t rte_mem_virt2phy(const void *virt);

/**
 * The virtual address of an IOVA inside rtemem's mapped pages, by a walk
 * of every page (it takes the hotplug lock for reading).
 *
 * @param iova
 *   The I/O address.
 * @return
 *   The address, or NULL if no mapped page has that IOVA.
 */
void *rte_mem_iova2virt(rte_iova_t iova);

/**
 * The file descriptor behind a page, for sharing it (vhost, virtio-user).
 *
 * The descriptor belongs to rtemem: do not close it. With one file per
 * page, the file is opened on the first request and stays open.
 *
 * @param ms
 *   A mapped page, as given by a walk or rte_mem_virt2memseg().
 * @return
 *   The descriptor, or -1 with rte_errno: ENOTSUP (`--no-huge`, the
 *   file was unlinked: `--huge-unlink=always`, or @p ms is external
 *   memory, which has no file known to rtemem), ENOENT (the file of the
 *   list is closed), EINVAL (@p ms is not a mapped page), EAGAIN (a page
 *   a lazy `--memzone-image` restore has not filled yet: its file comes
 *   with its first touch), or the error of opening the page's file.
 */
int rte_memseg_get_fd(const struct rte_memseg *ms);

/**
 * rte_memseg_get_fd() without taking the hotplug lock: for callbacks and
 * for code that holds the lock already.
 *
 * @param ms
 *   A mapped page.
 * @return
 *   As rte_memseg_get_fd().
 */
int rte_memseg_get_fd_thread_unsafe(const struct rte_memseg *ms);

/**
 * The offset of a page inside the file rte_memseg_get_fd() returns: 0
 * with one file per page, the page's place in the list's file otherwise.
 *
 * @param ms
 *   A mapped page.
 * @param offset
 *   Receives the offset in bytes.
 * @return
 *   0 and @p offset set, or -1 with rte_errno as rte_memseg_get_fd().
 */
int rte_memseg_get_fd_offset(const struct rte_memseg *ms, size_t *offset);

/**
 * rte_memseg_get_fd_offset() without taking the hotplug lock: for
 * callbacks and for code that holds the lock already.
 *
 * @param ms
 *   A mapped page.
 * @param offset
 *   Receives the offset in bytes, if not NULL.
 * @return
 *   As rte_memseg_get_fd_offset().
 */
int rte_memseg_get_fd_offset_thread_unsafe(
		const struct rte_memseg *ms, size_t *offset);

/**
 * The amount of hugepage memory rtemem has mapped now.
 *
 * @return
 *   The bytes of all mapped pages, external memory not included; 0 before
 *   init.
 */
uint64_t rte_eal_get_physmem_size(void);

/**
 * Print every memseg list, then every run of mapped pages, for debugging.
 *
 * @param f
 *   The stream to print to.
 */
void rte_dump_physmem_layout(FILE *f);

/**
 * Lock the page that holds an address in memory (mlock(2)), so that it
 * is not swapped out and its physical address does not change.
 *
 * @param virt
 *   The address; the system page (not hugepage) that holds it is locked.
 * @return
 *   0, or -1 with rte_errno set to the errno of mlock(2).
 */
int rte_mem_lock_page(const void *virt);

/**
 * Whether rtemem reads physical addresses for its pages.
 *
 * @return
 *   1 if IOVAs are physical addresses read from /proc/self/pagemap (IOVA
 *   as PA), else 0 (also before init).
 */
int rte_eal_using_phys_addrs(void);

/**
 * The number of memory channels, which DPDK takes from its `-n` option.
 *
 * @return
 *   0 (unknown): rtemem has no such option.
 */
unsigned int rte_memory_get_nchannel(void);

/**
 * The number of memory ranks, which DPDK takes from its `-r` option.
 *
 * @return
 *   0 (unknown): rtemem has no such option.
 */
unsigned int rte_memory_get_nrank(void);

/** What a memory event reports. */
enum rte_mem_event {
	RTE_MEM_EVENT_ALLOC = 0, /**< pages were mapped */
	RTE_MEM_EVENT_FREE, /**< pages are about to be unmapped */
};

/**
 * Memory event callback. It is called with the hotplug lock held for
 * writing and with the callback table locked: it must not map or unmap
 * memory, nor register or unregister callbacks.
 *
 * @param event_type
 *   What happened.
 * @param addr
 *   The start of the pages, which are VA-contiguous and in one list.
 * @param len
 *   The length of the pages in bytes.
 * @param arg
 *   The argument given at registration.
 */
typedef void (*rte_mem_event_callback_t)(enum rte_mem_event event_type,
		const void *addr, size_t len, void *arg);

/**
 * Be told when pages are mapped or unmapped at run time, for example to
 * register them with a device. Only changes after the registration are
 * reported: walk the memory (rte_memseg_contig_walk()) to learn what is
 * mapped already.
 *
 * @param name
 *   Unique name of the callback (with @p arg, the key for unregistering);
 *   shorter than 64 bytes.
 * @param clb
 *   The callback.
 * @param arg
 *   Passed to @p clb.
 * @return
 *   0, or -1 with rte_errno: EINVAL (NULL @p name or @p clb),
 *   ENAMETOOLONG, EEXIST (same name and arg), ENOSPC (64 callbacks
 *   registered), ENOTSUP (`--legacy-mem`: memory never changes),
 *   E_RTE_NO_CONFIG (not initialized).
 */
int rte_mem_event_callback_register(
		const char *name, rte_mem_event_callback_t clb, void *arg);

/**
 * Stop being told about memory events.
 *
 * @param name
 *   The name the callback was registered with.
 * @param arg
 *   The argument it was registered with.
 * @return
 *   0, or -1 with rte_errno: ENOENT (no such callback), or as
 *   rte_mem_event_callback_register() for @p name and the state of
 *   rtemem.
 */
int rte_mem_event_callback_unregister(const char *name, void *arg);

/**
 * Validator: asked before a node's memory grows past @p cur_limit.
 *
 * @param socket_id
 *   The NUMA node whose memory would grow.
 * @param cur_limit
 *   The limit the validator was registered with, in bytes.
 * @param new_len
 *   The node's mapped memory after the growth, in bytes.
 * @return
 *   0 to allow the growth, -1 to refuse it: the pages are then not
 *   mapped.
 */
typedef int (*rte_mem_alloc_validator_t)(
		int socket_id, size_t cur_limit, size_t new_len);

/**
 * Ask a validator before the memory of a NUMA node grows beyond a limit,
 * so that it can refuse the growth.
 *
 * @param name
 *   Name of the validator (with @p socket_id, the key for unregistering);
 *   shorter than 64 bytes.
 * @param clb
 *   The validator.
 * @param socket_id
 *   The NUMA node, below RTE_MAX_NUMA_NODES.
 * @param limit
 *   The validator is asked only about growths past this many bytes.
 * @return
 *   0, or -1 with rte_errno: EINVAL (NULL @p name or @p clb, bad
 *   @p socket_id), ENAMETOOLONG, EEXIST (same name and node), ENOSPC (64
 *   validators registered), ENOTSUP (`--legacy-mem`), E_RTE_NO_CONFIG (not
 *   initialized).
 */
int rte_mem_alloc_validator_register(const char *name,
		rte_mem_alloc_validator_t clb, int socket_id, size_t limit);

/**
 * Remove a validator.
 *
 * @param name
 *   The name it was registered with.
 * @param socket_id
 *   The NUMA node it was registered for.
 * @return
 *   0, or -1 with rte_errno: ENOENT (no such validator), or as
 *   rte_mem_alloc_validator_register() for @p name and the state of
 *   rtemem.
 */
int rte_mem_alloc_validator_unregister(const char *name, int socket_id);

#ifdef __cplusplus
}
#endif

#endif /* _RTE_MEMORY_H_ */
