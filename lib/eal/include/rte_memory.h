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
 * Every walk and lookup below takes the memory hotplug lock for reading;
 * the _thread_unsafe variants do not, for use inside callbacks and while
 * holding the lock.
 */

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>

#include <rte_common.h>
#include <rte_config.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RTE_PGSIZE_4K (1ULL << 12)
#define RTE_PGSIZE_64K (1ULL << 16)
#define RTE_PGSIZE_256K (1ULL << 18)
#define RTE_PGSIZE_2M (1ULL << 21)
#define RTE_PGSIZE_16M (1ULL << 24)
#define RTE_PGSIZE_256M (1ULL << 28)
#define RTE_PGSIZE_512M (1ULL << 29)
#define RTE_PGSIZE_1G (1ULL << 30)
#define RTE_PGSIZE_4G (1ULL << 32)
#define RTE_PGSIZE_16G (1ULL << 34)

/** Any NUMA node. */
#define SOCKET_ID_ANY -1

/** I/O virtual address. */
typedef uint64_t rte_iova_t;
/** Physical address (kept for DPDK source compatibility). */
typedef uint64_t phys_addr_t;
#define RTE_BAD_IOVA ((rte_iova_t)-1)
#define RTE_BAD_PHYS_ADDR ((phys_addr_t)-1)

/** The page was mapped at init for -m or --socket-mem and stays. */
#define RTE_MEMSEG_FLAG_DO_NOT_FREE RTE_BIT32(0)
/**
 * The page may hold non-zero bytes: it came from a hugepage file that
 * existed before it was mapped (--huge-unlink=never).
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
	uint64_t segs_off; /**< slot array, from the config start (rtemem) */
	uint64_t used_off; /**< occupancy bitmap, from the config start (rtemem) */
};

/**
 * Walk callback for a single page.
 *
 * @return 0 to go on, 1 to stop with success, -1 to stop with failure.
 */
typedef int (*rte_memseg_walk_t)(const struct rte_memseg_list *msl,
		const struct rte_memseg *ms, void *arg);

/**
 * Walk callback for a run of pages contiguous in virtual memory.
 *
 * @return 0 to go on, 1 to stop with success, -1 to stop with failure.
 */
typedef int (*rte_memseg_contig_walk_t)(const struct rte_memseg_list *msl,
		const struct rte_memseg *ms, size_t len, void *arg);

/**
 * Walk callback for a memseg list.
 *
 * @return 0 to go on, 1 to stop with success, -1 to stop with failure.
 */
typedef int (*rte_memseg_list_walk_t)(
		const struct rte_memseg_list *msl, void *arg);

/**
 * Call @p func for every mapped page, in list and address order.
 *
 * @return 0 if the walk finished, 1 if a callback stopped it, -1 if a
 *   callback failed.
 */
int rte_memseg_walk(rte_memseg_walk_t func, void *arg);

/**
 * Call @p func for every run of mapped pages that are contiguous in virtual
 * memory within one list; @p len is the run's length.
 *
 * @return as rte_memseg_walk().
 */
int rte_memseg_contig_walk(rte_memseg_contig_walk_t func, void *arg);

/**
 * Call @p func for every memseg list in use.
 *
 * @return as rte_memseg_walk().
 */
int rte_memseg_list_walk(rte_memseg_list_walk_t func, void *arg);

/** rte_memseg_walk() without taking the hotplug lock. */
int rte_memseg_walk_thread_unsafe(rte_memseg_walk_t func, void *arg);

/** rte_memseg_contig_walk() without taking the hotplug lock. */
int rte_memseg_contig_walk_thread_unsafe(
		rte_memseg_contig_walk_t func, void *arg);

/** rte_memseg_list_walk() without taking the hotplug lock. */
int rte_memseg_list_walk_thread_unsafe(rte_memseg_list_walk_t func, void *arg);

/**
 * Find the memseg list whose reserved range holds @p virt.
 *
 * @return the list, or NULL with rte_errno set to EINVAL.
 */
struct rte_memseg_list *rte_mem_virt2memseg_list(const void *virt);

/**
 * Find the mapped page that holds @p virt.
 *
 * @param msl
 *   The list to look in, or NULL to find it first.
 * @return
 *   The page, or NULL (rte_errno EINVAL) if @p virt is not in a mapped page.
 */
struct rte_memseg *rte_mem_virt2memseg(
		const void *virt, const struct rte_memseg_list *msl);

/**
 * The I/O address of @p virt: from the page's memseg when rtemem mapped
 * it, else (IOVA as PA) from /proc/self/pagemap, else the address itself.
 *
 * @return the IOVA, or RTE_BAD_IOVA.
 */
rte_iova_t rte_mem_virt2iova(const void *virt);

/**
 * The physical address of @p virt, from /proc/self/pagemap.
 *
 * @return the address, or RTE_BAD_IOVA if it cannot be known (no
 *   privilege, or the page is not present).
 */
phys_addr_t rte_mem_virt2phy(const void *virt);

/**
 * The virtual address of @p iova inside rtemem's mapped pages.
 *
 * @return the address, or NULL if no mapped page has that IOVA.
 */
void *rte_mem_iova2virt(rte_iova_t iova);

/**
 * The file descriptor behind a page, for sharing it (vhost, virtio-user).
 *
 * @return the descriptor, or -1 with rte_errno: ENOTSUP (anonymous memory,
 *   --huge-unlink=always), ENOENT (file closed: file per page), EINVAL.
 */
int rte_memseg_get_fd(const struct rte_memseg *ms);

/** rte_memseg_get_fd() without taking the hotplug lock. */
int rte_memseg_get_fd_thread_unsafe(const struct rte_memseg *ms);

/**
 * The offset of a page inside the file rte_memseg_get_fd() returns.
 *
 * @return 0 and @p offset set, or -1 with rte_errno as rte_memseg_get_fd().
 */
int rte_memseg_get_fd_offset(const struct rte_memseg *ms, size_t *offset);

/** rte_memseg_get_fd_offset() without taking the hotplug lock. */
int rte_memseg_get_fd_offset_thread_unsafe(
		const struct rte_memseg *ms, size_t *offset);

/** @return the bytes of all mapped pages. */
uint64_t rte_eal_get_physmem_size(void);

/** Print every list and its runs of mapped pages to @p f. */
void rte_dump_physmem_layout(FILE *f);

/**
 * Lock the page that holds @p virt in memory (mlock(2)).
 *
 * @return 0, or -1 with rte_errno set.
 */
int rte_mem_lock_page(const void *virt);

/** @return 1 if IOVAs are physical addresses read from pagemap, else 0. */
int rte_eal_using_phys_addrs(void);

/** @return the number of memory channels given at init (0: unknown). */
unsigned int rte_memory_get_nchannel(void);

/** @return the number of memory ranks given at init (0: unknown). */
unsigned int rte_memory_get_nrank(void);

/** What a memory event reports. */
enum rte_mem_event {
	RTE_MEM_EVENT_ALLOC = 0, /**< pages were mapped */
	RTE_MEM_EVENT_FREE, /**< pages are about to be unmapped */
};

/**
 * Memory event callback: @p addr and @p len cover the pages, which are
 * VA-contiguous and in one list. Called with the hotplug lock held for
 * writing; it must not map or unmap memory.
 */
typedef void (*rte_mem_event_callback_t)(enum rte_mem_event event_type,
		const void *addr, size_t len, void *arg);

/**
 * Be told when pages are mapped or unmapped at run time.
 *
 * @param name
 *   Unique name of the callback (with @p arg, the key for unregistering).
 * @return
 *   0, or -1 with rte_errno: EINVAL, EEXIST (same name and arg), ENOSPC.
 */
int rte_mem_event_callback_register(
		const char *name, rte_mem_event_callback_t clb, void *arg);

/**
 * Stop being told about memory events.
 *
 * @return 0, or -1 with rte_errno: EINVAL, ENOENT.
 */
int rte_mem_event_callback_unregister(const char *name, void *arg);

/**
 * Validator: asked before a node's memory grows past @p cur_limit.
 *
 * @return 0 to allow the growth to @p new_len bytes, -1 to refuse it.
 */
typedef int (*rte_mem_alloc_validator_t)(
		int socket_id, size_t cur_limit, size_t new_len);

/**
 * Veto the growth of @p socket_id's memory beyond @p limit bytes.
 *
 * @return 0, or -1 with rte_errno: EINVAL, EEXIST, ENOSPC.
 */
int rte_mem_alloc_validator_register(const char *name,
		rte_mem_alloc_validator_t clb, int socket_id, size_t limit);

/**
 * Remove a validator.
 *
 * @return 0, or -1 with rte_errno: EINVAL, ENOENT.
 */
int rte_mem_alloc_validator_unregister(const char *name, int socket_id);

#ifdef __cplusplus
}
#endif

#endif /* _RTE_MEMORY_H_ */
