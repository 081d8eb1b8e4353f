/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * The page allocator (eal_memalloc.h): finds free slots, asks the backing
 * to map them, then records each page (address, IOVA, node, dirtiness) in
 * its memseg. A run of pages is mapped and recorded as one unit, so that
 * the backing can use one system call for the whole run where it can.
 *
 * Invariant: a slot's occupancy bit is set exactly when its memseg
 * describes a mapped page; both change only here, under the hotplug lock.
 */

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>

#include "eal_bitmap.h"
#include "eal_log.h"
#include "eal_mem.h"
#include "eal_memalloc.h"
#include "eal_memseg_list.h"
#include "linux/eal_numa.h"

/* Bytes mapped on @p socket across its lists. */
static uint64_t
memalloc_socket_bytes(const struct rte_mem_config *mcfg, int socket)
{
	uint64_t total = 0;
	unsigned int l;

	for (l = 0; l < mcfg->n_lists; l++)
		if (mcfg->memsegs[l].socket_id == socket)
			total += (uint64_t)mcfg->memsegs[l].n_used *
					mcfg->memsegs[l].page_sz;
	return total;
}

/* Record what this process maps, when other processes share the lists. */
static void
memalloc_note_mapped(struct eal_mem *mem, unsigned int l, unsigned int idx,
		unsigned int n, bool mapped)
{
	if (mem->local[l].mapped == NULL)
		return;
	/* The sync thread writes the same words (eal_mp.h). */
	pthread_mutex_lock(&mem->mp.sync_lock);
	eal_bitmap_set_range(mem->local[l].mapped, idx, n, mapped);
	pthread_mutex_unlock(&mem->mp.sync_lock);
}

static void
memalloc_fill(struct eal_mem *mem, unsigned int l, unsigned int idx,
		unsigned int n, const bool *dirty, struct rte_memseg **ms)
{
	struct rte_memseg_list *msl = &mem->mcfg->memsegs[l];
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct rte_memseg *seg = eal_msl_seg(mem->mcfg, msl, idx + i);
		void *addr = eal_msl_slot_addr(msl, idx + i);

		seg->addr = addr;
		seg->len = msl->page_sz;
		seg->hugepage_sz = msl->page_sz;
		seg->socket_id = msl->socket_id;
		seg->flags = dirty[i] ? RTE_MEMSEG_FLAG_DIRTY : 0;
		seg->nchannel = 0;
		seg->nrank = 0;
		/* With IOVA as PA, looked up when asked for. */
		seg->iova = mem->pagemap_fd < 0 ? (rte_iova_t)(uintptr_t)addr :
						  EAL_IOVA_UNRESOLVED;
		ms[i] = seg;
	}
}

/* Map one run of free slots and record it. */
static int
memalloc_map_run(struct eal_mem *mem, unsigned int l, unsigned int idx,
		unsigned int n, enum eal_map_fill fill, struct rte_memseg **ms)
{
	struct rte_memseg_list *msl = &mem->mcfg->memsegs[l];
	struct eal_numa_saved numa;
	int ret, node = -1;
	bool *dirty;

	/*
	 * An empty page has no physical address yet, and asking for its
	 * node would fault it in: IOVA as VA only, the node unchecked.
	 */
	if (fill != EAL_MAP_POPULATED && mem->pagemap_fd >= 0)
		return -ENOTSUP;
	dirty = calloc(n, sizeof(*dirty));
	if (dirty == NULL)
		return -ENOMEM;
	eal_numa_prefer(msl->socket_id, &numa);
	ret = mem->backing->map(mem, l, idx, n, fill, dirty);
	eal_numa_restore(&numa);
	if (ret == 0) {
		if (fill == EAL_MAP_POPULATED)
			ret = eal_numa_check(eal_msl_slot_addr(msl, idx),
					msl->page_sz, n, msl->socket_id, &node);
		if (ret == -EXDEV)
			EAL_LOG(ERR, "pages for node %d landed on node %d",
					msl->socket_id, node);
		if (ret == 0)
			memalloc_fill(mem, l, idx, n, dirty, ms);
		if (ret < 0) {
			memset(eal_msl_seg(mem->mcfg, msl, idx), 0,
					n * sizeof(struct rte_memseg));
			mem->backing->unmap(mem, l, idx, n);
		}
	}
	free(dirty);
	if (ret < 0)
		return ret;
	eal_msl_set_used(mem->mcfg, msl, idx, n, true);
	msl->version++;
	memalloc_note_mapped(mem, l, idx, n, true);
	if (eal_mp_publish(mem) < 0) {
		/* A process could not map them: nobody may use them. */
		memalloc_note_mapped(mem, l, idx, n, false);
		eal_msl_set_used(mem->mcfg, msl, idx, n, false);
		msl->version++;
		eal_mp_undo(mem);
		mem->backing->unmap(mem, l, idx, n);
		memset(eal_msl_seg(mem->mcfg, msl, idx), 0,
				n * sizeof(struct rte_memseg));
		return -ETIMEDOUT;
	}
	if (mem->init_done)
		eal_mem_event_notify(&mem->events, RTE_MEM_EVENT_ALLOC,
				eal_msl_slot_addr(msl, idx), n * msl->page_sz);
	return 0;
}

/* Find a run in list @p l: exactly @p n slots, or the biggest run. */
static int
memalloc_find(const struct eal_mem *mem, unsigned int l, unsigned int n,
		bool exact, unsigned int *len)
{
	const struct rte_memseg_list *msl = &mem->mcfg->memsegs[l];
	int idx;

	if (exact) {
		*len = n;
		return eal_msl_find_free_run(mem->mcfg, msl, n);
	}
	idx = eal_msl_find_biggest_free(mem->mcfg, msl, len);
	*len = RTE_MIN(*len, n);
	return idx;
}

/*
 * Map free runs of list @p l until @p n pages are done. A non-exact request
 * that runs out of hugepages halves its run and tries again, so that it
 * gets as many pages as there are.
 *
 * @return 0 when done, -ENOSPC when the list has no fitting free run left,
 *   or the mapping error.
 */
static int
memalloc_fill_list(struct eal_mem *mem, unsigned int l, struct rte_memseg **ms,
		int n, int *done, bool exact)
{
	unsigned int len;
	int idx, ret;

	while (*done < n) {
		idx = memalloc_find(mem, l, n - *done, exact, &len);
		if (idx < 0 || len == 0)
			return -ENOSPC;
		ret = memalloc_map_run(mem, l, idx, len, EAL_MAP_POPULATED,
				&ms[*done]);
		while (ret == -ENOMEM && !exact && len > 1) {
			len /= 2;
			ret = memalloc_map_run(mem, l, idx, len,
					EAL_MAP_POPULATED, &ms[*done]);
		}
		if (ret < 0)
			return ret;
		*done += len;
	}
	return 0;
}

int
eal_mem_alloc_pages(struct eal_mem *mem, struct rte_memseg **ms, int n,
		uint64_t page_sz, int socket, bool exact)
{
	struct rte_mem_config *mcfg = mem->mcfg;
	unsigned int l;
	int done = 0, ret = -ENOMEM;
	uint64_t cur = memalloc_socket_bytes(mcfg, socket);

	if (n <= 0)
		return -EINVAL;
	if (mem->init_done &&
			eal_mem_event_validate(&mem->events, socket, cur,
					cur + (uint64_t)n * page_sz) < 0)
		return -EPERM;
	for (l = 0; l < mcfg->n_lists && done < n; l++) {
		const struct rte_memseg_list *msl = &mcfg->memsegs[l];

		if (msl->page_sz != page_sz || msl->socket_id != socket)
			continue;
		ret = memalloc_fill_list(mem, l, ms, n, &done, exact);
		/* The pool is per page size and node, not per list. */
		if (ret < 0 && ret != -ENOSPC)
			break;
		ret = -ENOMEM;
	}
	if (done == n || (!exact && done > 0))
		return done;
	if (done > 0)
		eal_mem_free_pages(mem, ms, done);
	return ret;
}

/* Unmap one run of used slots [idx, idx + n) of list @p l. */
static int
memalloc_unmap_run(struct eal_mem *mem, unsigned int l, unsigned int idx,
		unsigned int n)
{
	struct rte_memseg_list *msl = &mem->mcfg->memsegs[l];
	void *addr = eal_msl_slot_addr(msl, idx);
	int ret;

	/* Every other process lets go of the pages first. */
	eal_msl_set_used(mem->mcfg, msl, idx, n, false);
	if (eal_mp_publish(mem) < 0) {
		eal_msl_set_used(mem->mcfg, msl, idx, n, true);
		eal_mp_undo(mem);
		return -ETIMEDOUT;
	}
	memalloc_note_mapped(mem, l, idx, n, false);
	if (mem->init_done)
		eal_mem_event_notify(&mem->events, RTE_MEM_EVENT_FREE, addr,
				n * msl->page_sz);
	ret = mem->backing->unmap(mem, l, idx, n);
	if (ret < 0)
		EAL_LOG(ERR, "cannot unmap %u pages at %p: %s", n, addr,
				strerror(-ret));
	memset(eal_msl_seg(mem->mcfg, msl, idx), 0,
			n * sizeof(struct rte_memseg));
	msl->version++;
	return ret;
}

/* Check a page given to free; @return its list index or -errno. */
static int
memalloc_check_free(const struct eal_mem *mem, const struct rte_memseg *ms)
{
	const struct rte_mem_config *mcfg = mem->mcfg;
	unsigned int l;

	for (l = 0; l < mcfg->n_lists; l++) {
		const struct rte_memseg_list *msl = &mcfg->memsegs[l];
		unsigned int idx;

		if (!eal_msl_contains(msl, ms->addr))
			continue;
		idx = eal_msl_addr_idx(msl, ms->addr);
		if (eal_msl_seg(mcfg, msl, idx) != ms ||
				!eal_msl_is_used(mcfg, msl, idx))
			return -EINVAL;
		if (ms->flags & RTE_MEMSEG_FLAG_DO_NOT_FREE)
			return -EPERM;
		return (int)l;
	}
	return -EINVAL;
}

int
eal_mem_free_pages(struct eal_mem *mem, struct rte_memseg **ms, int n)
{
	int i, start, l, ret = 0;

	for (i = 0; i < n; i++) {
		l = ms[i] == NULL ? -EINVAL : memalloc_check_free(mem, ms[i]);
		if (l < 0)
			return l;
	}
	/* Unmap runs of pages that follow each other in one list. */
	for (start = 0; start < n; start = i) {
		const struct rte_memseg_list *msl;
		unsigned int idx;

		l = memalloc_check_free(mem, ms[start]);
		if (l < 0) {
			/* Given twice: already unmapped with an earlier run. */
			i = start + 1;
			ret = -EINVAL;
			continue;
		}
		msl = &mem->mcfg->memsegs[l];
		idx = eal_msl_addr_idx(msl, ms[start]->addr);
		for (i = start + 1; i < n && ms[i] == ms[i - 1] + 1 &&
				eal_msl_contains(msl, ms[i]->addr);
				i++)
			;
		if (memalloc_unmap_run(mem, l, idx, i - start) < 0)
			ret = -EIO;
	}
	return ret;
}

int
eal_memalloc_alloc_seg_bulk(struct rte_memseg **ms, int n, uint64_t page_sz,
		int socket, bool exact)
{
	struct eal_mem *mem = eal_mem_get();

	if (mem == NULL)
		return -E_RTE_NO_CONFIG;
	if (!mem->mode->can_grow)
		return -ENOTSUP;
	return eal_mem_alloc_pages(mem, ms, n, page_sz, socket, exact);
}

struct rte_memseg *
eal_memalloc_alloc_seg(uint64_t page_sz, int socket)
{
	struct rte_memseg *ms;
	int ret = eal_memalloc_alloc_seg_bulk(&ms, 1, page_sz, socket, true);

	if (ret < 0) {
		rte_errno = -ret;
		return NULL;
	}
	return ms;
}

int
eal_memalloc_free_seg_bulk(struct rte_memseg **ms, int n)
{
	struct eal_mem *mem = eal_mem_get();

	if (mem == NULL)
		return -E_RTE_NO_CONFIG;
	if (!mem->mode->can_grow)
		return -ENOTSUP;
	return eal_mem_free_pages(mem, ms, n);
}

int
eal_memalloc_free_seg(struct rte_memseg *ms)
{
	return eal_memalloc_free_seg_bulk(&ms, 1);
}

bool
eal_memalloc_can_grow(void)
{
	struct eal_mem *mem = eal_mem_get();

	return mem != NULL && mem->mode->can_grow;
}

unsigned int
eal_memalloc_page_sizes(int socket, uint64_t *sizes, unsigned int max)
{
	const struct eal_mem *mem = eal_mem_get();
	unsigned int l, i, n = 0;

	if (mem == NULL)
		return 0;
	for (l = 0; l < mem->mcfg->n_lists; l++) {
		const struct rte_memseg_list *msl = &mem->mcfg->memsegs[l];

		if (msl->socket_id != socket)
			continue;
		for (i = 0; i < n && sizes[i] != msl->page_sz; i++)
			;
		if (i == n && n < max)
			sizes[n++] = msl->page_sz;
	}
	return n;
}

/* Map the free run [idx, idx + n) of list @p l from kept files. */
static int
memalloc_map_kept_run(struct eal_mem *mem, unsigned int l, unsigned int idx,
		unsigned int n, enum eal_map_fill fill, char *err,
		size_t err_len)
{
	struct rte_memseg_list *msl = &mem->mcfg->memsegs[l];
	struct rte_memseg **ms;
	char why[PATH_MAX + 64];
	unsigned int i = 0;
	bool empty = false;
	int ret;

	ret = mem->backing->kept(mem, l, idx, n, why, sizeof(why));
	if (ret < 0) {
		snprintf(err, err_len, "%s", why);
		return ret;
	}
	ms = malloc(n * sizeof(*ms));
	if (ms == NULL)
		return -ENOMEM;
	ret = memalloc_map_run(mem, l, idx, n, fill, ms);
	while (ret == 0 && !empty && i < n)
		empty = (ms[i++]->flags & RTE_MEMSEG_FLAG_DIRTY) == 0;
	if (empty) {
		/* Checked above, yet emptied since: not the data kept. */
		memalloc_unmap_run(mem, l, idx, n);
		snprintf(err, err_len,
				"the kept page of slot %u of memseg list %u came "
				"back empty",
				idx + i - 1, l);
		ret = -ENOENT;
	} else if (ret < 0) {
		snprintf(err, err_len,
				"cannot map %u kept pages of memseg list %u at "
				"%p: %s",
				n, l, eal_msl_slot_addr(msl, idx),
				strerror(-ret));
	}
	free(ms);
	return ret;
}

/* What maps one free run of a list's slots, at init. */
typedef int (*memalloc_run_fn)(struct eal_mem *mem, unsigned int l,
		unsigned int idx, unsigned int n, enum eal_map_fill fill,
		char *err, size_t err_len);

/*
 * Map the free runs of slots [@p idx, @p idx + @p n) of list @p l with
 * @p fn; the slots already mapped are left as they are.
 *
 * @return the number of pages mapped, or @p fn's negative errno.
 */
static int
memalloc_map_free_runs(unsigned int l, unsigned int idx, unsigned int n,
		memalloc_run_fn fn, enum eal_map_fill fill, char *err,
		size_t err_len)
{
	struct eal_mem *mem = eal_mem_get();
	const struct rte_memseg_list *msl;
	unsigned int end = idx + n, run;
	int i, ret, done = 0;

	if (mem == NULL || l >= mem->mcfg->n_lists)
		return -EINVAL;
	msl = &mem->mcfg->memsegs[l];
	if (msl->external || end > msl->n_segs || end < idx)
		return -EINVAL;
	i = eal_msl_find_next(mem->mcfg, msl, idx, false);
	while (i >= 0 && (unsigned int)i < end) {
		run = RTE_MIN(eal_msl_run_len(mem->mcfg, msl, i),
				end - (unsigned int)i);
		ret = fn(mem, l, (unsigned int)i, run, fill, err, err_len);
		if (ret < 0)
			return ret;
		done += (int)run;
		i = eal_msl_find_next(mem->mcfg, msl, i + run, false);
	}
	return done;
}

int
eal_memalloc_map_kept(unsigned int l, unsigned int idx, unsigned int n,
		char *err, size_t err_len)
{
	struct eal_mem *mem = eal_mem_get();

	if (mem == NULL || mem->backing->kept == NULL)
		return -EINVAL;
	return memalloc_map_free_runs(l, idx, n, memalloc_map_kept_run,
			EAL_MAP_POPULATED, err, err_len);
}

/* Map the free run [idx, idx + n) of list @p l, within the limits. */
static int
memalloc_map_limited_run(struct eal_mem *mem, unsigned int l, unsigned int idx,
		unsigned int n, enum eal_map_fill fill, char *err,
		size_t err_len)
{
	const struct rte_memseg_list *msl = &mem->mcfg->memsegs[l];
	uint64_t cur = memalloc_socket_bytes(mem->mcfg, msl->socket_id);
	struct rte_memseg **ms;
	int ret;

	/* The limits hold for memory that must be at an address too. */
	if (eal_mem_event_validate(&mem->events, msl->socket_id, cur,
			    cur + (uint64_t)n * msl->page_sz) < 0) {
		snprintf(err, err_len,
				"%u more pages of %" PRIu64
				" kB would pass a memory limit of NUMA node %d "
				"(--socket-limit, or a validator the application "
				"registered)",
				n, msl->page_sz >> 10, msl->socket_id);
		return -EPERM;
	}
	ms = malloc(n * sizeof(*ms));
	if (ms == NULL)
		return -ENOMEM;
	ret = memalloc_map_run(mem, l, idx, n, fill, ms);
	free(ms);
	if (ret < 0)
		snprintf(err, err_len,
				"cannot map %u pages of %" PRIu64
				" kB at %p: %s",
				n, msl->page_sz >> 10,
				eal_msl_slot_addr(msl, idx), strerror(-ret));
	return ret;
}

/* The list and slot of @p addr in a list of this process's pages. */
static struct eal_mem *
memalloc_slot_of(const void *addr, unsigned int *l, unsigned int *idx)
{
	struct eal_mem *mem = eal_mem_get();
	const struct rte_memseg_list *msl;

	if (mem == NULL)
		return NULL;
	msl = rte_mem_virt2memseg_list(addr);
	if (msl == NULL || msl->external)
		return NULL;
	*l = (unsigned int)(msl - mem->mcfg->memsegs);
	*idx = eal_msl_addr_idx(msl, addr);
	return mem;
}

int
eal_memalloc_page_view(const void *addr, void **view)
{
	unsigned int l, idx;
	struct eal_mem *mem = memalloc_slot_of(addr, &l, &idx);

	if (mem == NULL)
		return -EINVAL;
	if (mem->backing->view == NULL)
		return -ENOTSUP;
	return mem->backing->view(mem, l, idx, view);
}

bool
eal_memalloc_page_deferred(const void *addr)
{
	unsigned int l, idx;
	struct eal_mem *mem = memalloc_slot_of(addr, &l, &idx);

	return mem != NULL && mem->backing->deferred != NULL &&
			mem->backing->deferred(mem, l, idx);
}

int
eal_memalloc_fill_deferred(const void *addr,
		int (*fill)(void *view, void *arg, char *err, size_t err_len),
		void *arg, char *err, size_t err_len)
{
	unsigned int l, idx;
	struct eal_mem *mem = memalloc_slot_of(addr, &l, &idx);

	/* Every fill of a page mapped otherwise asks: no line for it. */
	if (mem == NULL || mem->backing->deferred == NULL ||
			!mem->backing->deferred(mem, l, idx))
		return -EALREADY;
	return mem->backing->place(mem, l, idx, fill, arg, err, err_len);
}

int
eal_memalloc_fill_on_node(const void *addr, int (*fill)(void *arg), void *arg)
{
	const struct rte_memseg_list *msl = rte_mem_virt2memseg_list(addr);
	struct eal_numa_saved numa;
	int ret;

	eal_numa_prefer(msl == NULL ? -1 : msl->socket_id, &numa);
	ret = fill(arg);
	eal_numa_restore(&numa);
	return ret;
}

int
eal_memalloc_map_at(unsigned int l, unsigned int idx, unsigned int n,
		enum eal_map_fill fill, char *err, size_t err_len)
{
	return memalloc_map_free_runs(l, idx, n, memalloc_map_limited_run, fill,
			err, err_len);
}
