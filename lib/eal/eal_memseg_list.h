/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _EAL_MEMSEG_LIST_H_
#define _EAL_MEMSEG_LIST_H_

/*
 * Memseg lists: one or more per (page size, NUMA node), each a fixed range
 * of reserved address space cut into page slots. A slot's memseg and its
 * occupancy bit live in the shared configuration.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_memory.h>

#include "eal_bitmap.h"
#include "eal_mem.h"

/*
 * Lay out the lists for the page sizes and nodes in use, create the shared
 * configuration sized for them and reserve each list's address space.
 *
 * @return 0, or a negative errno with one line in @p err.
 */
int eal_memseg_lists_create(struct eal_mem *mem, char *err, size_t err_len);

/*
 * Reserve the lists of a primary's config (a secondary process) exactly
 * at their addresses, for its pages to be mapped there.
 *
 * @return 0, or -EADDRINUSE with a line in @p err naming the range and
 *   what holds it in this process.
 */
int eal_memseg_lists_attach(struct eal_mem *mem, char *err, size_t err_len);

/* Release every list's address space (whatever is mapped in it). */
void eal_memseg_lists_destroy(struct eal_mem *mem);

/*
 * Close the descriptor of list @p l's directory, after its backing's
 * release: the list has no directory any more.
 */
void eal_memseg_list_dir_close(struct eal_mem *mem, unsigned int l);

/* The memseg of slot @p idx. */
static inline struct rte_memseg *
eal_msl_seg(const struct rte_mem_config *mcfg,
		const struct rte_memseg_list *msl, unsigned int idx)
{
	struct rte_memseg *segs = eal_mcfg_at(mcfg, msl->segs_off);

	return &segs[idx];
}

/*
 * The IOVA of a page mapped with IOVA as PA whose physical address was
 * not looked up yet. Reading one page's entry of /proc/self/pagemap costs
 * a system call, about 1 us: half a millisecond per GiB of 2 MB pages on
 * every start, even a warm restart that maps nothing new. So the lookup
 * waits until something asks for the page's IOVA: the walks and lookups
 * of rte_memory.h, the heaps' IOVA translation and their checks of IOVA
 * contiguity resolve the pages they hand out or read. Only a page the
 * calling process has not mapped yet (a secondary catching up with the
 * primary) keeps it when handed out; rte_mem_virt2iova() and the like
 * report RTE_BAD_IOVA for it.
 */
#define EAL_IOVA_UNRESOLVED ((rte_iova_t)-2)

/*
 * The IOVA of used page @p ms, looked up now if it was deferred
 * (EAL_IOVA_UNRESOLVED): RTE_BAD_IOVA from then on if pagemap has none,
 * RTE_BAD_IOVA for now (the page keeps EAL_IOVA_UNRESOLVED) if this
 * process has not mapped the page yet.
 */
rte_iova_t eal_memseg_iova(struct rte_memseg *ms);

/* eal_memseg_iova() of the @p n used slots from @p idx of list @p msl. */
void eal_msl_resolve_iova(const struct rte_mem_config *mcfg,
		const struct rte_memseg_list *msl, unsigned int idx,
		unsigned int n);

/*
 * rte_memseg_contig_walk_thread_unsafe() for callers that read no IOVA:
 * the pages' IOVAs may be EAL_IOVA_UNRESOLVED.
 */
int eal_memseg_contig_walk(rte_memseg_contig_walk_t func, void *arg);

/* The address of slot @p idx. */
static inline void *
eal_msl_slot_addr(const struct rte_memseg_list *msl, unsigned int idx)
{
	return RTE_PTR_ADD(msl->base_va, (size_t)idx * msl->page_sz);
}

/*
 * The slot of @p addr, which lies inside the list's range. Page sizes are
 * powers of two: a shift, where a division would cost tens of cycles on
 * every rte_free().
 */
static inline unsigned int
eal_msl_addr_idx(const struct rte_memseg_list *msl, const void *addr)
{
	return (unsigned int)(RTE_PTR_DIFF(addr, msl->base_va) >>
			__builtin_ctzll(msl->page_sz));
}

/*
 * @return true if slot @p idx is mapped. Inline: the heap asks on every
 * rte_free().
 */
static inline bool
eal_msl_is_used(const struct rte_mem_config *mcfg,
		const struct rte_memseg_list *msl, unsigned int idx)
{
	return eal_bitmap_get(eal_mcfg_at(mcfg, msl->used_off), idx);
}

/* Mark slots [idx, idx + n) mapped or not. */
void eal_msl_set_used(const struct rte_mem_config *mcfg,
		struct rte_memseg_list *msl, unsigned int idx, unsigned int n,
		bool used);

/*
 * The first slot at or after @p start whose state is @p used.
 *
 * @return the index, or -1 if there is none.
 */
int eal_msl_find_next(const struct rte_mem_config *mcfg,
		const struct rte_memseg_list *msl, unsigned int start,
		bool used);

/* How many slots from @p idx on share the state of slot @p idx. */
unsigned int eal_msl_run_len(const struct rte_mem_config *mcfg,
		const struct rte_memseg_list *msl, unsigned int idx);

/*
 * The first run of @p n free slots.
 *
 * @return its first index, or -1.
 */
int eal_msl_find_free_run(const struct rte_mem_config *mcfg,
		const struct rte_memseg_list *msl, unsigned int n);

/*
 * The longest run of free slots.
 *
 * @return its first index with its length in @p len, or -1 if none.
 */
int eal_msl_find_biggest_free(const struct rte_mem_config *mcfg,
		const struct rte_memseg_list *msl, unsigned int *len);

/* @return the list index of @p msl in the configuration. */
static inline unsigned int
eal_msl_index(const struct rte_mem_config *mcfg,
		const struct rte_memseg_list *msl)
{
	return (unsigned int)(msl - mcfg->memsegs);
}

/* @return true if @p addr is inside the list's reserved range. */
static inline bool
eal_msl_contains(const struct rte_memseg_list *msl, const void *addr)
{
	uintptr_t a = (uintptr_t)addr, base = (uintptr_t)msl->base_va;

	return msl->base_va != NULL && a >= base && a - base < msl->len;
}

/*
 * Describe memory the application mapped, [@p va, @p va + @p len) in pages
 * of @p page_sz with the given IOVAs (NULL: unknown), as an external list
 * owned by @p socket (an external heap's id). Its pages are marked dirty.
 * The caller holds the hotplug lock for writing.
 *
 * @return 0 with the list in @p out, or -EEXIST (overlaps a list), -ENOSPC
 *   (no list entry or config space left).
 */
int eal_memseg_list_add_external(void *va, size_t len, const rte_iova_t iova[],
		uint64_t page_sz, int socket, struct rte_memseg_list **out);

/*
 * Forget an external list; its entry stays for reuse. The caller holds the
 * hotplug lock for writing.
 */
void eal_memseg_list_remove_external(struct rte_memseg_list *msl);

#endif /* _EAL_MEMSEG_LIST_H_ */
