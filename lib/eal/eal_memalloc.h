/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _EAL_MEMALLOC_H_
#define _EAL_MEMALLOC_H_

/*
 * The page allocator: the interface the heap builds on. It maps pages into
 * free slots of the memseg lists of one page size and node, and unmaps
 * them. Pages reused from earlier files carry RTE_MEMSEG_FLAG_DIRTY.
 *
 * Callers hold the memory hotplug lock for writing (rte_mcfg_mem_write_lock)
 * or are inside init. After init, listeners get RTE_MEM_EVENT_ALLOC after
 * pages are mapped and RTE_MEM_EVENT_FREE before they are unmapped, and
 * validators (--socket-limit) may refuse growth.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_memory.h>

/*
 * What a page holds once mapped. A lazy memory image (uffd-copy) needs
 * pages that are not there yet: userfaultfd hands it the first touch of
 * each, and it fills the page in the same step as the kernel allocates it.
 */
enum eal_map_fill {
	EAL_MAP_POPULATED, /* allocated and faulted in */
	EAL_MAP_EMPTY, /* reserved but not allocated: no data, no fault yet */
	/*
	 * As EAL_MAP_EMPTY, and with a file per page the pages' files are
	 * not made yet: each is made, filled and put in place later by
	 * eal_memalloc_fill_deferred(), so that mapping a run costs the same
	 * whatever its length. Other backings map such pages empty.
	 */
	EAL_MAP_DEFERRED,
};

/*
 * Map @p n pages of @p page_sz on node @p socket.
 *
 * @param exact
 *   true: all @p n pages contiguous in one list, or nothing.
 *   false: as many as possible up to @p n, in runs.
 * @return
 *   The number of pages mapped (their memsegs in @p ms, in address order
 *   within each run), or -ENOMEM (no free pages or slots), -EPERM (a
 *   validator refused), -EBUSY (a file is held by another process),
 *   -EXDEV (pages landed on another node), -ETIMEDOUT (another process
 *   of the prefix did not map them in time: see eal_mp.h), another
 *   -errno.
 *   On failure nothing stays mapped.
 */
int eal_memalloc_alloc_seg_bulk(struct rte_memseg **ms, int n, uint64_t page_sz,
		int socket, bool exact);

/* Map one page. @return its memseg, or NULL with rte_errno set. */
struct rte_memseg *eal_memalloc_alloc_seg(uint64_t page_sz, int socket);

/*
 * Unmap @p n pages. Their memory is not cleared: the kernel clears a
 * hugepage before anyone else gets it, and with --huge-unlink=never the
 * next mapping of the file is marked dirty.
 *
 * @return 0, or -EPERM if a page is RTE_MEMSEG_FLAG_DO_NOT_FREE, -EINVAL
 *   if it is not a mapped page (nothing is unmapped then), -EIO if a
 *   run could not be unmapped (another process of the prefix did not
 *   let go of it in time: it stays mapped and used).
 */
int eal_memalloc_free_seg_bulk(struct rte_memseg **ms, int n);

/* Unmap one page. */
int eal_memalloc_free_seg(struct rte_memseg *ms);

/* @return true if pages may be mapped and unmapped after init. */
bool eal_memalloc_can_grow(void);

/*
 * The page sizes that memory can come from on @p socket (largest first).
 *
 * @return how many were written to @p sizes (at most @p max).
 */
unsigned int eal_memalloc_page_sizes(
		int socket, uint64_t *sizes, unsigned int max);

/*
 * Map slots [@p idx, @p idx + @p n) of list @p l from the files the last
 * run kept there (--keep-memzones), at init: the slots already mapped are
 * left as they are, the others must each have a kept file holding a page,
 * which is mapped as it is (dirty). A page that comes back without its
 * data is unmapped again and fails the call.
 *
 * @return the number of pages this call mapped, or a negative errno with
 *   one line in @p err (-ENOENT: a kept file is missing or short).
 */
int eal_memalloc_map_kept(unsigned int l, unsigned int idx, unsigned int n,
		char *err, size_t err_len);

/*
 * Map slots [@p idx, @p idx + @p n) of list @p l at init, as the heaps
 * would when they grow (a new page, or in --huge-unlink=never mode the
 * page its file kept, dirty); the slots already mapped are left as they
 * are. For memory that must be at given addresses (a memory image). The
 * memory limits (--socket-limit, the validators) hold as for heap growth.
 * With @p fill EAL_MAP_EMPTY or EAL_MAP_DEFERRED the pages are reserved
 * but left for a userfaultfd to fill: no earlier data, no fault, and IOVA
 * as VA only.
 *
 * @return the number of pages this call mapped, or a negative errno with
 *   one line in @p err (-EPERM: a limit refused; -ENOTSUP: empty pages
 *   asked for with IOVA as PA, or of a backing without files).
 */
int eal_memalloc_map_at(unsigned int l, unsigned int idx, unsigned int n,
		enum eal_map_fill fill, char *err, size_t err_len);

/*
 * Map the mapped hugepage at @p addr a second time, elsewhere, through its
 * file: a view to fill a page that a userfaultfd holds (its first touch
 * in the process's own mapping waits for the fill). Takes no lock, so a
 * thread serving faults may call it while init holds the memory lock.
 * Unmap the view (its length is the page size) with munmap().
 *
 * @return 0, or a negative errno: -EINVAL (not a mapped hugepage of a
 *   list), -ENOTSUP (no file to map again: --no-huge, or the file is
 *   gone with --huge-unlink=always), -ENOENT (a deferred page: no file
 *   yet).
 */
int eal_memalloc_page_view(const void *addr, void **view);

/*
 * Whether the page at @p addr was mapped EAL_MAP_DEFERRED and has no file
 * yet (eal_memalloc_fill_deferred() not called, or failed). Takes no
 * lock.
 */
bool eal_memalloc_page_deferred(const void *addr);

/*
 * Make the file of the page at @p addr, mapped EAL_MAP_DEFERRED, have
 * @p fill(@p view, @p arg, @p err, @p err_len) write the page through
 * @p view, a mapping of the file no other thread sees, then map the file
 * at @p addr in place of what stood in for it. A thread that touches the
 * page therefore finds it whole, never half filled; a thread waiting on
 * it in a userfaultfd is not woken. When the entry with the page's file
 * name is not a hugepage file of this user, a memfd serves the page, with
 * a warning, as at start. Takes no lock the caller may hold, as
 * eal_memalloc_page_view(): the caller makes sure that one thread at a
 * time places a page, and that it is not unmapped meanwhile.
 *
 * @return 0, -EALREADY (not a deferred page: nothing done, no line), or
 *   a negative errno with one line in @p err (@p fill's own when it
 *   failed): -EBUSY (another process holds the file), -ENOMEM (no
 *   hugepage).
 */
int eal_memalloc_fill_deferred(const void *addr,
		int (*fill)(void *view, void *arg, char *err, size_t err_len),
		void *arg, char *err, size_t err_len);

/*
 * Run @p fill(@p arg) with the calling thread's pages preferring the
 * NUMA node of the memseg list holding @p addr: a thread that fills
 * pages mapped empty (EAL_MAP_EMPTY) allocates them as it fills them,
 * and they would otherwise come from its own node, not the list's. The
 * thread's policy is restored after. Takes no lock.
 *
 * @return what @p fill returned.
 */
int eal_memalloc_fill_on_node(
		const void *addr, int (*fill)(void *arg), void *arg);

#endif /* _EAL_MEMALLOC_H_ */
