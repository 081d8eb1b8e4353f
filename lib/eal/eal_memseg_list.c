/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Memseg list layout and occupancy.
 *
 * Layout is decided once from the page sizes found and the NUMA nodes: a
 * type (page size, node) gets as many lists as needed to cover
 * RTE_MAX_MEM_MB_PER_TYPE, each at most RTE_MAX_MEMSEG_PER_LIST slots and
 * RTE_MAX_MEM_MB_PER_LIST. Types are ordered by page size (largest first)
 * then node, so list indexes, and with them hugepage file names, are the
 * same from one run to the next with the same machine and options.
 *
 * Occupancy is a bitmap of 64-bit words (bit set: slot mapped); searches
 * skip whole words. Callers hold the hotplug lock.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_log.h>

#include "eal_bitmap.h"
#include "eal_log.h"
#include "eal_memseg_list.h"
#include "linux/eal_os.h"

/* A type of memory: one page size on one node. */
struct msl_type {
	uint64_t page_sz;
	int socket_id;
	unsigned int n_lists;
	uint32_t segs_per_list;
};

static uint64_t *
msl_bitmap(const struct rte_mem_config *mcfg, const struct rte_memseg_list *msl)
{
	return eal_mcfg_at(mcfg, msl->used_off);
}

static void
msl_type_size(struct msl_type *t)
{
	uint64_t list_mem = RTE_MIN(
			(uint64_t)RTE_MAX_MEMSEG_PER_LIST * t->page_sz,
			(uint64_t)RTE_MAX_MEM_MB_PER_LIST << 20);
	uint64_t type_mem = RTE_MIN(
			(uint64_t)RTE_MAX_MEMSEG_PER_TYPE * t->page_sz,
			(uint64_t)RTE_MAX_MEM_MB_PER_TYPE << 20);

	t->segs_per_list = (uint32_t)(list_mem / t->page_sz);
	t->n_lists = (unsigned int)RTE_MAX(type_mem / list_mem, 1ULL);
}

/* The types of memory to create lists for; returns how many. */
static unsigned int
msl_types(const struct eal_mem *mem, struct msl_type *types, unsigned int max)
{
	const struct eal_hugepage_info *hpi = mem->hpi;
	unsigned int n = 0, s, i;

	if (mem->opts->no_huge) {
		/* One list exactly as long as the memory asked for. */
		types[0].page_sz = eal_os_page_size();
		types[0].socket_id = 0;
		types[0].n_lists = 1;
		types[0].segs_per_list =
				(uint32_t)(RTE_ALIGN_CEIL(mem->opts->memory,
							   types[0].page_sz) /
						types[0].page_sz);
		return 1;
	}
	for (s = 0; s < hpi->n_sizes; s++) {
		const struct eal_hugepage_size *hs = &hpi->sizes[s];

		if (hs->total == 0 ||
				(hs->dir[0] == '\0' &&
						mem->backing->uses_files))
			continue;
		for (i = 0; i < hpi->n_nodes && n < max; i++) {
			types[n].page_sz = hs->page_sz;
			types[n].socket_id = hpi->node_ids[i];
			msl_type_size(&types[n]);
			n++;
		}
	}
	return n;
}

/*
 * Give list @p l the directory @p dir of its files, or none, with a
 * descriptor of it (eal_hugefile_name() says why).
 */
static int
msl_set_dir(struct eal_mem *mem, unsigned int l, const char *dir, char *err,
		size_t err_len)
{
	int fd = dir != NULL ? eal_os_dir_open(dir) : -1;

	if (fd < 0 && dir != NULL) {
		snprintf(err, err_len, "cannot open %s: %s", dir,
				strerror(-fd));
		return fd;
	}
	mem->local[l].dir = dir;
	mem->local[l].dir_fd = fd;
	return 0;
}

void
eal_memseg_list_dir_close(struct eal_mem *mem, unsigned int l)
{
	if (mem->local[l].dir != NULL)
		eal_os_close(mem->local[l].dir_fd);
	mem->local[l].dir = NULL;
	mem->local[l].dir_fd = -1;
}

static const char *
msl_dir(const struct eal_mem *mem, uint64_t page_sz)
{
	unsigned int s;

	if (!mem->backing->uses_files)
		return NULL;
	for (s = 0; s < mem->hpi->n_sizes; s++)
		if (mem->hpi->sizes[s].page_sz == page_sz)
			return mem->hpi->sizes[s].dir;
	return NULL;
}

/*
 * The list's number in hugepage file names. It depends only on the node
 * and on the lists of the same page size before it (each page size has its
 * own directory), so that a restart finds its files even when another page
 * size appeared or went away in between.
 */
static unsigned int
msl_file_list_of(const struct rte_mem_config *mcfg, unsigned int l,
		const struct msl_type *t)
{
	unsigned int i, k = 0;

	for (i = 0; i < l; i++)
		if (mcfg->memsegs[i].page_sz == t->page_sz &&
				mcfg->memsegs[i].socket_id == t->socket_id)
			k++;
	return (unsigned int)t->socket_id * RTE_MAX_MEMSEG_LISTS + k;
}

/*
 * Reserve the list at the --base-virtaddr hint @p want, aligned up to the
 * list's page size as DPDK does. A hint that cannot be honoured is not
 * fatal, as in DPDK: the list goes where the kernel puts it, and a
 * warning names the range and what holds it.
 */
static int
msl_reserve_hinted(struct rte_memseg_list *msl, void *want, void **addr)
{
	void *at = RTE_PTR_ALIGN_CEIL(want, msl->page_sz);
	char owner[256];
	int ret, why;

	if ((uintptr_t)at >= (uintptr_t)want) {
		why = eal_os_va_reserve(at, msl->len, msl->page_sz, true, addr);
		if (why == 0)
			return 0;
	} else {
		why = -ERANGE; /* aligning it up wrapped around */
	}
	eal_os_va_owner(at, msl->len, owner, sizeof(owner));
	ret = eal_os_va_reserve(NULL, msl->len, msl->page_sz, false, addr);
	EAL_LOG(WARNING,
			"--base-virtaddr: %zu MB at %p cannot be reserved (%s%s): "
			"the list of %" PRIu64 " kB pages is at %p instead",
			msl->len >> 20, at, owner[0] != '\0' ? "taken by " : "",
			owner[0] != '\0' ? owner : strerror(-why),
			msl->page_sz >> 10, ret == 0 ? *addr : NULL);
	return ret;
}

/*
 * Reserve the list exactly at @p at, where the last run had it: its kept
 * memzones must come back at their addresses.
 */
static int
msl_reserve_kept(struct eal_mem *mem, struct rte_memseg_list *msl, void *at,
		void **addr, char *err, size_t err_len)
{
	char owner[256], why[512];
	int ret;

	ret = eal_os_va_reserve(at, msl->len, msl->page_sz, true, addr);
	if (ret == 0 && *addr == at)
		return 0;
	if (ret == 0)
		eal_os_va_release(*addr, msl->len);
	eal_os_va_owner(at, msl->len, owner, sizeof(owner));
	snprintf(why, sizeof(why),
			"its memory was at %p-%p, which this process has "
			"taken (%s)",
			at, RTE_PTR_ADD(at, msl->len),
			owner[0] != '\0' ? owner : strerror(-ret));
	ret = eal_keep_mismatch(&mem->keep, why, err, err_len);
	if (ret < 0)
		return ret;
	return eal_os_va_reserve(NULL, msl->len, msl->page_sz, false, addr);
}

static int
msl_reserve(struct eal_mem *mem, struct rte_memseg_list *msl, void **hint,
		void *kept, char *err, size_t err_len)
{
	void *addr;
	int ret;

	if (kept != NULL) {
		ret = msl_reserve_kept(mem, msl, kept, &addr, err, err_len);
		if (ret == -EINVAL)
			return ret; /* the message is in err */
	} else if (mem->opts->base_virtaddr != 0) {
		ret = msl_reserve_hinted(msl, *hint, &addr);
	} else {
		ret = eal_os_va_reserve(
				*hint, msl->len, msl->page_sz, false, &addr);
	}
	if (ret < 0) {
		snprintf(err, err_len,
				"cannot reserve %zu MB of address space: %s",
				msl->len >> 20, strerror(-ret));
		return ret;
	}
	msl->base_va = addr;
	*hint = RTE_PTR_ADD(addr, msl->len);
	return 0;
}

static int
msl_init_list(struct eal_mem *mem, const struct msl_type *t, void **hint,
		char *err, size_t err_len)
{
	struct rte_mem_config *mcfg = mem->mcfg;
	unsigned int l = mcfg->n_lists;
	struct rte_memseg_list *msl = &mcfg->memsegs[l];
	struct eal_keep_list geo = {
		.page_sz = t->page_sz,
		.n_segs = t->segs_per_list,
		.socket_id = t->socket_id,
		.file_list = msl_file_list_of(mcfg, l, t),
	};
	void *kept;
	uint64_t off;
	int ret;

	ret = eal_mcfg_area_alloc(
			mcfg, eal_mcfg_list_bytes(t->segs_per_list), &off);
	if (ret < 0) {
		snprintf(err, err_len, "memory config too small for list %u",
				l);
		return ret;
	}
	msl->page_sz = t->page_sz;
	msl->socket_id = t->socket_id;
	msl->n_segs = t->segs_per_list;
	msl->len = (size_t)t->segs_per_list * t->page_sz;
	msl->segs_off = off;
	msl->used_off = off + eal_mcfg_segs_bytes(t->segs_per_list);
	msl->heap = 1;
	ret = eal_keep_list_check(&mem->keep, l, &geo, &kept, err, err_len);
	if (ret == 0)
		ret = msl_reserve(mem, msl, hint, kept, err, err_len);
	if (ret == 0) {
		ret = msl_set_dir(
				mem, l, msl_dir(mem, t->page_sz), err, err_len);
		if (ret < 0) {
			eal_os_va_release(msl->base_va, msl->len);
			msl->base_va = NULL;
		}
	}
	if (ret < 0)
		return ret;
	mem->local[l].file_list = geo.file_list;
	mem->local[l].fd = -1;
	mcfg->n_lists++;
	return 0;
}

/*
 * Where kept memory goes when --base-virtaddr is not given: a fixed
 * address rather than one the kernel randomizes, so that the next run's
 * libraries and stacks are unlikely to sit where the kept lists must come
 * back. The first that is free for all the lists: DPDK's usual base, then
 * two far above what a program, its heap and its libraries use (4 GiB is
 * inside the shadow memory of an ASan build, for instance).
 */
static const uint64_t msl_keep_bases[] = { 0x100000000ULL, 0x200000000000ULL,
	0x300000000000ULL };

/* The first of msl_keep_bases with @p span bytes free, or NULL. */
static void *
msl_keep_base(size_t span)
{
	unsigned int i;
	void *addr;

	for (i = 0; i < RTE_DIM(msl_keep_bases); i++) {
		void *at = (void *)(uintptr_t)msl_keep_bases[i];

		if (eal_os_va_reserve(at, span, 4096, true, &addr) != 0)
			continue;
		eal_os_va_release(addr, span);
		if (addr == at)
			return at;
	}
	return NULL;
}

/* Record the lists in the kept table, if this run starts a new one. */
static int
msl_keep_commit(struct eal_mem *mem, char *err, size_t err_len)
{
	const struct rte_mem_config *mcfg = mem->mcfg;
	struct eal_keep_list lists[RTE_MAX_MEMSEG_LISTS];
	unsigned int l;

	if (mem->keep.hdr == NULL)
		return 0;
	if (mem->keep.restore && mcfg->n_lists != mem->keep.hdr->n_lists) {
		char why[128];
		int ret;

		snprintf(why, sizeof(why),
				"it had %u memseg lists, this run lays out %u",
				mem->keep.hdr->n_lists, mcfg->n_lists);
		ret = eal_keep_mismatch(&mem->keep, why, err, err_len);
		if (ret < 0)
			return ret;
	}
	for (l = 0; l < mcfg->n_lists; l++) {
		const struct rte_memseg_list *msl = &mcfg->memsegs[l];

		memset(&lists[l], 0, sizeof(lists[l]));
		lists[l].base_va = (uint64_t)(uintptr_t)msl->base_va;
		lists[l].page_sz = msl->page_sz;
		lists[l].n_segs = msl->n_segs;
		lists[l].socket_id = msl->socket_id;
		lists[l].file_list = mem->local[l].file_list;
	}
	return eal_keep_commit(&mem->keep, mem->opts, mem->hpi, lists,
			mcfg->n_lists, err, err_len);
}

int
eal_memseg_lists_create(struct eal_mem *mem, char *err, size_t err_len)
{
	struct msl_type types[EAL_MAX_PAGE_SIZES * RTE_MAX_NUMA_NODES];
	unsigned int n_types, t, i, n_lists = 0;
	void *hint = (void *)(uintptr_t)mem->opts->base_virtaddr;
	uint64_t bytes = 0, span = 0;
	int ret;

	n_types = msl_types(mem, types, RTE_DIM(types));
	for (t = 0; t < n_types; t++) {
		n_lists += types[t].n_lists;
		bytes += types[t].n_lists *
				eal_mcfg_list_bytes(types[t].segs_per_list);
		/* Each list is aligned to its page size: room for that too. */
		span += types[t].n_lists *
				(types[t].segs_per_list * types[t].page_sz +
						types[t].page_sz);
	}
	if (n_lists > RTE_MAX_MEMSEG_LISTS) {
		snprintf(err, err_len,
				"%u memseg lists needed, at most %u supported",
				n_lists, RTE_MAX_MEMSEG_LISTS);
		return -ENOSPC;
	}
	ret = eal_mcfg_create(bytes, mem->config_fd, &mem->mcfg);
	if (ret < 0) {
		snprintf(err, err_len, "cannot map the memory config: %s",
				strerror(-ret));
		return ret;
	}
	/*
	 * Kept memory, memory secondaries may attach to, and memory an image
	 * is brought back into, needs an address that the next process is
	 * likely to find free, and that a process saving an image had.
	 */
	if (hint == NULL &&
			(mem->keep.hdr != NULL || mem->config_fd >= 0 ||
					mem->opts->memzone_image[0] != '\0') &&
			!mem->keep.restore)
		hint = msl_keep_base(span);
	for (t = 0; t < n_types; t++) {
		for (i = 0; i < types[t].n_lists; i++) {
			ret = msl_init_list(
					mem, &types[t], &hint, err, err_len);
			if (ret < 0)
				return ret;
		}
	}
	return msl_keep_commit(mem, err, err_len);
}

/* The primary's hugetlbfs directory of @p page_sz, or NULL. */
static const char *
msl_peer_dir(const struct rte_mem_config *mcfg, uint64_t page_sz)
{
	unsigned int s;

	for (s = 0; s < EAL_MCFG_MAX_DIRS; s++)
		if (mcfg->dirs[s].page_sz == page_sz)
			return mcfg->dirs[s].path;
	return NULL;
}

/* Reserve list @p l of a primary's config exactly where the primary has it. */
static int
msl_attach_list(struct eal_mem *mem, unsigned int l, char *err, size_t err_len)
{
	const struct rte_memseg_list *msl = &mem->mcfg->memsegs[l];
	char owner[256];
	void *addr;
	int ret;

	ret = eal_os_va_reserve(
			msl->base_va, msl->len, msl->page_sz, true, &addr);
	if (ret == 0 && addr == msl->base_va) {
		ret = msl_set_dir(mem, l, msl_peer_dir(mem->mcfg, msl->page_sz),
				err, err_len);
		if (ret < 0) {
			eal_os_va_release(addr, msl->len);
			return ret;
		}
		mem->local[l].file_list = mem->mcfg->file_list[l];
		mem->local[l].fd = -1;
		mem->local[l].reserved = true;
		return 0;
	}
	if (ret == 0)
		eal_os_va_release(addr, msl->len);
	eal_os_va_owner(msl->base_va, msl->len, owner, sizeof(owner));
	snprintf(err, err_len,
			"the primary's memory at %p-%p is taken in this process "
			"(%s): start the primary with --base-virtaddr at a "
			"range both processes leave free",
			msl->base_va, RTE_PTR_ADD(msl->base_va, msl->len),
			owner[0] != '\0' ? owner : strerror(-ret));
	return -EADDRINUSE;
}

int
eal_memseg_lists_attach(struct eal_mem *mem, char *err, size_t err_len)
{
	unsigned int l;
	int ret;

	for (l = 0; l < mem->mcfg->n_lists; l++) {
		if (mem->mcfg->memsegs[l].external)
			continue;
		ret = msl_attach_list(mem, l, err, err_len);
		if (ret < 0)
			return ret;
	}
	return 0;
}

void
eal_memseg_lists_destroy(struct eal_mem *mem)
{
	struct rte_mem_config *mcfg = mem->mcfg;
	unsigned int l;

	if (mcfg == NULL)
		return;
	for (l = 0; l < mcfg->n_lists; l++) {
		struct rte_memseg_list *msl = &mcfg->memsegs[l];

		if (mem->secondary) {
			/* The primary's lists: release our view only. */
			if (mem->local[l].reserved)
				eal_os_va_release(msl->base_va, msl->len);
			mem->local[l].reserved = false;
			continue;
		}
		/* External memory belongs to the application. */
		if (msl->base_va != NULL && !msl->external)
			eal_os_va_release(msl->base_va, msl->len);
		msl->base_va = NULL;
	}
}

void
eal_msl_set_used(const struct rte_mem_config *mcfg, struct rte_memseg_list *msl,
		unsigned int idx, unsigned int n, bool used)
{
	eal_bitmap_set_range(msl_bitmap(mcfg, msl), idx, n, used);
	if (used)
		msl->n_used += n;
	else
		msl->n_used -= n;
}

int
eal_msl_find_next(const struct rte_mem_config *mcfg,
		const struct rte_memseg_list *msl, unsigned int start,
		bool used)
{
	const uint64_t *bm = msl_bitmap(mcfg, msl);
	unsigned int w, n_words = (msl->n_segs + 63) / 64;
	uint64_t word;

	if (start >= msl->n_segs)
		return -1;
	w = start / 64;
	word = used ? bm[w] : ~bm[w];
	word &= ~0ULL << (start % 64);
	for (;;) {
		if (word != 0) {
			unsigned int idx = w * 64 + rte_ctz64(word);

			return idx < msl->n_segs ? (int)idx : -1;
		}
		if (++w >= n_words)
			return -1;
		word = used ? bm[w] : ~bm[w];
	}
}

unsigned int
eal_msl_run_len(const struct rte_mem_config *mcfg,
		const struct rte_memseg_list *msl, unsigned int idx)
{
	bool used = eal_msl_is_used(mcfg, msl, idx);
	int end = eal_msl_find_next(mcfg, msl, idx, !used);

	return (end < 0 ? msl->n_segs : (unsigned int)end) - idx;
}

int
eal_msl_find_free_run(const struct rte_mem_config *mcfg,
		const struct rte_memseg_list *msl, unsigned int n)
{
	int idx = eal_msl_find_next(mcfg, msl, 0, false);

	while (idx >= 0) {
		unsigned int len = eal_msl_run_len(mcfg, msl, idx);

		if (len >= n)
			return idx;
		idx = eal_msl_find_next(mcfg, msl, idx + len, false);
	}
	return -1;
}

int
eal_msl_find_biggest_free(const struct rte_mem_config *mcfg,
		const struct rte_memseg_list *msl, unsigned int *len)
{
	int idx = eal_msl_find_next(mcfg, msl, 0, false), best = -1;
	unsigned int best_len = 0;

	while (idx >= 0) {
		unsigned int run = eal_msl_run_len(mcfg, msl, idx);

		if (run > best_len) {
			best = idx;
			best_len = run;
		}
		idx = eal_msl_find_next(mcfg, msl, idx + run, false);
	}
	*len = best_len;
	return best;
}

/* An entry for an external list: a removed one big enough, or a new one. */
static struct rte_memseg_list *
msl_external_entry(struct rte_mem_config *mcfg, unsigned int n_pages)
{
	struct rte_memseg_list *msl;
	unsigned int l;
	uint64_t off;

	for (l = 0; l < mcfg->n_lists; l++) {
		msl = &mcfg->memsegs[l];
		if (msl->external && msl->base_va == NULL &&
				msl->n_segs >= n_pages)
			return msl;
	}
	if (mcfg->n_lists == RTE_MAX_MEMSEG_LISTS ||
			eal_mcfg_area_alloc(mcfg, eal_mcfg_list_bytes(n_pages),
					&off) < 0)
		return NULL;
	msl = &mcfg->memsegs[mcfg->n_lists++];
	msl->external = 1;
	msl->n_segs = n_pages;
	msl->segs_off = off;
	msl->used_off = off + eal_mcfg_segs_bytes(n_pages);
	return msl;
}

static bool
msl_overlaps(const struct rte_mem_config *mcfg, const void *va, size_t len)
{
	uintptr_t a = (uintptr_t)va;
	unsigned int l;

	for (l = 0; l < mcfg->n_lists; l++) {
		const struct rte_memseg_list *msl = &mcfg->memsegs[l];
		uintptr_t b = (uintptr_t)msl->base_va;

		if (msl->base_va != NULL && a < b + msl->len && b < a + len)
			return true;
	}
	return false;
}

int
eal_memseg_list_add_external(void *va, size_t len, const rte_iova_t iova[],
		uint64_t page_sz, int socket, struct rte_memseg_list **out)
{
	struct rte_mem_config *mcfg = eal_mcfg_get();
	unsigned int n = (unsigned int)(len / page_sz), i;
	struct rte_memseg_list *msl;

	if (mcfg == NULL)
		return -E_RTE_NO_CONFIG;
	if (msl_overlaps(mcfg, va, len))
		return -EEXIST;
	msl = msl_external_entry(mcfg, n);
	if (msl == NULL)
		return -ENOSPC;
	msl->base_va = va;
	msl->page_sz = page_sz;
	msl->socket_id = socket;
	msl->len = len;
	msl->heap = 1;
	for (i = 0; i < n; i++) {
		struct rte_memseg *ms = eal_msl_seg(mcfg, msl, i);

		memset(ms, 0, sizeof(*ms));
		ms->addr = eal_msl_slot_addr(msl, i);
		/* Not page aligned, so no IOVA: it would read as "not yet". */
		ms->iova = iova == NULL || iova[i] == EAL_IOVA_UNRESOLVED ?
				RTE_BAD_IOVA :
				iova[i];
		ms->len = page_sz;
		ms->hugepage_sz = page_sz;
		ms->socket_id = socket;
		/* Nothing says what the application left in it. */
		ms->flags = RTE_MEMSEG_FLAG_DIRTY;
	}
	eal_msl_set_used(mcfg, msl, 0, n, true);
	msl->version++;
	*out = msl;
	return 0;
}

void
eal_memseg_list_remove_external(struct rte_memseg_list *msl)
{
	struct rte_mem_config *mcfg = eal_mcfg_get();

	eal_msl_set_used(mcfg, msl, 0, (unsigned int)(msl->len / msl->page_sz),
			false);
	msl->base_va = NULL;
	msl->len = 0;
	msl->version++;
}
