/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Backings with one file per memseg list, mapped by ranges: a named
 * hugetlbfs file (--single-file-segments) or a memfd (--in-memory).
 *
 * A run of pages costs one fallocate, one mmap and one madvise, whatever
 * its length, which is what makes a warm restart of a big list cheap.
 *
 * Which parts of a reused file hold data cannot be read back from
 * hugetlbfs, so a slot is taken as dirty when it lies inside the file as
 * it was found (unless the file had no page at all), or when this process
 * mapped it and did not punch it out since: may_hold_data has a bit per
 * slot. A memfd starts empty; its pages are punched out when freed, so
 * only a page whose punch failed comes back dirty.
 */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "eal_bitmap.h"
#include "eal_hugefile.h"
#include "eal_log.h"
#include "eal_mem.h"
#include "eal_memseg_list.h"
#include "eal_os.h"

static void
single_path(const struct eal_mem *mem, unsigned int l, char *path, size_t len)
{
	eal_hugefile_path(path, len, mem->local[l].dir, mem->opts->file_prefix,
			mem->local[l].file_list);
}

/* Whether slot @p i may hold earlier data (no bitmap: never). */
static bool
bit_get(const uint64_t *bm, unsigned int i)
{
	return bm != NULL && eal_bitmap_get(bm, i);
}

static void
bits_set(uint64_t *bm, unsigned int idx, unsigned int n, bool v)
{
	if (bm != NULL)
		eal_bitmap_set_range(bm, idx, n, v);
}

/*
 * Mark the slots covered by the file as found as possibly holding data.
 * A file found with a page behind every byte needs no allocation where
 * it is mapped again: noted, so that a warm restart skips the fallocate,
 * which looks up each page of the range.
 */
static void
single_note_existing(struct eal_mem *mem, unsigned int l,
		const struct eal_hugefile_found *f)
{
	const struct rte_memseg_list *msl = &mem->mcfg->memsegs[l];

	if (f->allocated > 0)
		bits_set(mem->local[l].may_hold_data, 0,
				(unsigned int)RTE_MIN(f->size / msl->page_sz,
						(uint64_t)msl->n_segs),
				true);
	if (f->allocated >= f->size)
		mem->local[l].whole_len = f->size;
}

/* Pages from @p off on may have left the file: it is no longer whole. */
static void
single_note_punched(struct eal_msl_local *loc, uint64_t off)
{
	loc->whole_len = RTE_MIN(loc->whole_len, off);
}

static int memfd_open(struct eal_mem *mem, unsigned int l);

/*
 * Open the list's file that other processes of the prefix share, making
 * it if missing, without a lock (the primary's) and without replacing
 * it. Its slots may all hold data, as far as this process knows.
 */
static int
single_open_shared(struct eal_mem *mem, unsigned int l)
{
	const struct rte_memseg_list *msl = &mem->mcfg->memsegs[l];
	struct eal_msl_local *loc = &mem->local[l];
	char path[PATH_MAX];
	int fd;

	single_path(mem, l, path, sizeof(path));
	fd = eal_hugefile_open_peer(AT_FDCWD, path, 0);
	if (fd == -ENOENT)
		fd = eal_os_open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW,
				0600);
	if (fd == -EEXIST)
		fd = eal_hugefile_open_peer(AT_FDCWD, path, 0);
	if (fd < 0) {
		EAL_LOG(ERR, "cannot open %s: %s", path, strerror(-fd));
		return fd;
	}
	bits_set(loc->may_hold_data, 0, msl->n_segs, true);
	loc->fd = fd;
	loc->fd_created = false;
	return 0;
}

static int
single_open_file(struct eal_mem *mem, unsigned int l)
{
	struct eal_msl_local *loc = &mem->local[l];
	struct eal_hugefile_found f;
	char path[PATH_MAX];
	int fd, ret;

	single_path(mem, l, path, sizeof(path));
	/*
	 * Once running, a file found is never a leftover (those went at
	 * init): a secondary may have made it, and may be using it.
	 */
	fd = eal_hugefile_open_locked(AT_FDCWD, NULL, path,
			mem->policy->reuse || mem->init_done, &f);
	if (fd == -EPERM) {
		EAL_LOG(WARNING,
				"%s is %s, not a hugepage file of yours: left as "
				"it is; the pages of its list come from anonymous "
				"hugepage memory this run and are not kept",
				path, f.why);
		ret = memfd_open(mem, l);
		loc->fd_anon = ret == 0;
		return ret;
	}
	if (fd == -EBUSY)
		EAL_LOG(ERR, "%s is in use by another process", path);
	else if (fd < 0)
		EAL_LOG(ERR, "cannot open %s: %s", path, strerror(-fd));
	if (fd < 0)
		return fd;
	single_note_existing(mem, l, &f);
	loc->fd = fd;
	loc->fd_created = f.created;
	return 0;
}

/* How a list's file is obtained: a named file, or a memfd. */
typedef int (*range_open_t)(struct eal_mem *mem, unsigned int l);

static int
memfd_open(struct eal_mem *mem, unsigned int l)
{
	struct eal_msl_local *loc = &mem->local[l];
	char name[32];
	int fd;

	snprintf(name, sizeof(name), "rtemem_seg_%u", l);
	fd = eal_os_memfd_huge(name, mem->mcfg->memsegs[l].page_sz);
	if (fd < 0) {
		EAL_LOG(ERR, "cannot create a hugetlbfs memfd: %s",
				strerror(-fd));
		return fd;
	}
	loc->fd = fd;
	loc->fd_created = true;
	return 0;
}

/* Open the list's file on first use, with its dirty bitmap. */
static int
range_open(struct eal_mem *mem, unsigned int l, range_open_t open_file)
{
	struct eal_msl_local *loc = &mem->local[l];
	unsigned int n = mem->mcfg->memsegs[l].n_segs;
	int ret;

	if (loc->fd >= 0)
		return 0;
	loc->may_hold_data = calloc(eal_bitmap_words(n), sizeof(uint64_t));
	if (loc->may_hold_data == NULL)
		return -ENOMEM;
	ret = open_file(mem, l);
	if (ret < 0) {
		free(loc->may_hold_data);
		loc->may_hold_data = NULL;
	}
	return ret;
}

/* Close the list's file, removing a named one when @p remove. */
static void
single_close(struct eal_mem *mem, unsigned int l, bool remove)
{
	struct eal_msl_local *loc = &mem->local[l];
	char path[PATH_MAX];

	if (remove && loc->dir != NULL && !loc->fd_anon) {
		single_path(mem, l, path, sizeof(path));
		eal_os_unlink(path);
	}
	eal_os_close(loc->fd);
	loc->fd = -1;
	loc->whole_len = 0;
	loc->fd_anon = false;
	free(loc->may_hold_data);
	loc->may_hold_data = NULL;
}

/*
 * Map @p len bytes of @p fd at @p off exactly at @p addr and, when
 * @p populate, fault them in. On failure the range is reserved address
 * space again.
 */
static int
range_map_fd(int fd, uint64_t off, void *addr, uint64_t len, bool populate)
{
	int ret = eal_os_map_shared(addr, len, fd, (off_t)off);

	if (ret < 0 && eal_os_va_restore(addr, len) < 0)
		EAL_LOG(CRIT, "address range at %p was taken by another mapping",
				addr);
	if (ret == 0 && populate) {
		ret = eal_os_populate(addr, len);
		if (ret < 0)
			eal_os_va_unmap_keep(addr, len);
	}
	return ret;
}

/*
 * Drop what the file holds under slots [idx, idx + n), for pages that
 * must come empty (EAL_MAP_EMPTY): they are then clean.
 */
static int
range_empty(struct eal_msl_local *loc, uint64_t off, uint64_t len,
		unsigned int n, bool *dirty)
{
	unsigned int i;
	bool held = false;
	int ret;

	for (i = 0; i < n; i++)
		held |= dirty[i];
	if (!held)
		return 0;
	single_note_punched(loc, off);
	ret = eal_os_punch_hole(loc->fd, off, len);
	for (i = 0; ret == 0 && i < n; i++)
		dirty[i] = false;
	return ret;
}

static int
range_map(struct eal_mem *mem, unsigned int l, unsigned int idx, unsigned int n,
		range_open_t open_file, enum eal_map_fill fill, bool *dirty)
{
	const struct rte_memseg_list *msl = &mem->mcfg->memsegs[l];
	struct eal_msl_local *loc = &mem->local[l];
	uint64_t off = (uint64_t)idx * msl->page_sz, len = n * msl->page_sz;
	void *addr = eal_msl_slot_addr(msl, idx);
	unsigned int i;
	int ret;

	ret = range_open(mem, l, open_file);
	if (ret < 0)
		return ret;
	for (i = 0; i < n; i++)
		dirty[i] = bit_get(loc->may_hold_data, idx + i);
	if (fill != EAL_MAP_POPULATED)
		ret = range_empty(loc, off, len, n, dirty);
	else
		ret = off + len <= loc->whole_len ?
				0 :
				eal_os_allocate(loc->fd, off, len);
	if (ret == 0)
		ret = range_map_fd(loc->fd, off, addr, len,
				fill == EAL_MAP_POPULATED);
	if (ret == 0) {
		bits_set(loc->may_hold_data, idx, n, true);
		return 0;
	}
	EAL_LOG(DEBUG, "cannot map %u pages of list %u: %s", n, l,
			strerror(-ret));
	for (i = 0; i < n; i++)
		if (!dirty[i]) {
			single_note_punched(loc, off + i * msl->page_sz);
			eal_os_punch_hole(loc->fd, off + i * msl->page_sz,
					msl->page_sz);
		}
	/* A file this process made and nothing uses goes with the failure. */
	if (msl->n_used == 0 && loc->fd_created)
		single_close(mem, l, true);
	return ret == -ENOSPC || ret == -EFAULT ? -ENOMEM : ret;
}

static int
range_unmap(struct eal_mem *mem, unsigned int l, unsigned int idx,
		unsigned int n, bool keep_data)
{
	const struct rte_memseg_list *msl = &mem->mcfg->memsegs[l];
	uint64_t len = n * msl->page_sz;
	int ret;

	ret = eal_os_va_unmap_keep(eal_msl_slot_addr(msl, idx), len);
	if (ret < 0 || keep_data)
		return ret;
	single_note_punched(&mem->local[l], (uint64_t)idx * msl->page_sz);
	ret = eal_os_punch_hole(
			mem->local[l].fd, (uint64_t)idx * msl->page_sz, len);
	/* Pages that could not be punched out keep their data: dirty. */
	if (ret == 0)
		bits_set(mem->local[l].may_hold_data, idx, n, false);
	return ret;
}

static int
range_get_fd(struct eal_mem *mem, unsigned int l, unsigned int idx, int *fd,
		uint64_t *off)
{
	if (mem->local[l].fd < 0)
		return -ENOENT;
	*fd = mem->local[l].fd;
	*off = (uint64_t)idx * mem->mcfg->memsegs[l].page_sz;
	return 0;
}

static int
range_view(struct eal_mem *mem, unsigned int l, unsigned int idx, void **view)
{
	uint64_t page_sz = mem->mcfg->memsegs[l].page_sz;

	if (mem->local[l].fd < 0)
		return -ENOENT;
	return eal_os_map_view(mem->local[l].fd, (uint64_t)idx * page_sz,
			page_sz, view);
}

static int
single_map(struct eal_mem *mem, unsigned int l, unsigned int idx,
		unsigned int n, enum eal_map_fill fill, bool *dirty)
{
	return range_map(mem, l, idx, n, single_open_file, fill, dirty);
}

/* A secondary's own growth: the list's file is the primary's. */
static int
single_map_shared(struct eal_mem *mem, unsigned int l, unsigned int idx,
		unsigned int n, enum eal_map_fill fill, bool *dirty)
{
	return range_map(mem, l, idx, n, single_open_shared, fill, dirty);
}

static int
single_unmap(struct eal_mem *mem, unsigned int l, unsigned int idx,
		unsigned int n)
{
	/* With reuse, freed pages keep their data for the next mapping. */
	return range_unmap(mem, l, idx, n,
			mem->policy->reuse && !mem->local[l].fd_anon);
}

/* After a failed start: punch out the pages it mapped fresh. */
static void
single_discard_fresh(struct eal_mem *mem, unsigned int l)
{
	const struct rte_memseg_list *msl = &mem->mcfg->memsegs[l];
	int idx = eal_msl_find_next(mem->mcfg, msl, 0, true);

	while (idx >= 0) {
		if (!(eal_msl_seg(mem->mcfg, msl, (unsigned int)idx)->flags &
				    RTE_MEMSEG_FLAG_DIRTY))
			eal_os_punch_hole(mem->local[l].fd,
					(uint64_t)idx * msl->page_sz,
					msl->page_sz);
		idx = eal_msl_find_next(mem->mcfg, msl, idx + 1, true);
	}
}

static bool
single_release(struct eal_mem *mem, unsigned int l)
{
	struct eal_msl_local *loc = &mem->local[l];
	bool remove, named;

	if (loc->fd < 0)
		return false;
	if (mem->policy->unlink_fresh_at_exit && !loc->fd_created)
		single_discard_fresh(mem, l);
	remove = mem->policy->unlink_at_exit ||
			(mem->policy->unlink_fresh_at_exit && loc->fd_created);
	named = loc->dir != NULL && !loc->fd_anon &&
			!mem->policy->unlink_after_map;
	single_close(mem, l, remove);
	return named && !remove;
}

static int
memfd_map(struct eal_mem *mem, unsigned int l, unsigned int idx, unsigned int n,
		enum eal_map_fill fill, bool *dirty)
{
	return range_map(mem, l, idx, n, memfd_open, fill, dirty);
}

static int
memfd_unmap(struct eal_mem *mem, unsigned int l, unsigned int idx,
		unsigned int n)
{
	return range_unmap(mem, l, idx, n, false);
}

static int
single_attach(struct eal_mem *mem, unsigned int l, unsigned int idx,
		unsigned int n)
{
	const struct rte_memseg_list *msl = &mem->mcfg->memsegs[l];
	struct eal_msl_local *loc = &mem->local[l];
	uint64_t off = (uint64_t)idx * msl->page_sz, len = n * msl->page_sz;
	void *addr = eal_msl_slot_addr(msl, idx);
	int ret;

	if (loc->fd_anon)
		return -ENOTSUP; /* the primary's memfd: nothing to open */
	ret = range_open(mem, l, single_open_shared);
	if (ret < 0)
		return ret;
	/* Faulted in now: a page that is not there fails here, not later. */
	ret = range_map_fd(loc->fd, off, addr, len, true);
	/* Whoever maps them next finds what the mapper left. */
	if (ret == 0)
		bits_set(loc->may_hold_data, idx, n, true);
	return ret;
}

static void
single_detach(struct eal_mem *mem, unsigned int l, unsigned int idx,
		unsigned int n)
{
	const struct rte_memseg_list *msl = &mem->mcfg->memsegs[l];

	eal_os_va_unmap_keep(eal_msl_slot_addr(msl, idx), n * msl->page_sz);
}

static bool
memfd_release(struct eal_mem *mem, unsigned int l)
{
	if (mem->local[l].fd >= 0)
		single_close(mem, l, false);
	return false;
}

static int
single_kept(const struct eal_mem *mem, unsigned int l, unsigned int idx,
		unsigned int n, char *why, size_t why_len)
{
	uint64_t page_sz = mem->mcfg->memsegs[l].page_sz;
	char path[PATH_MAX];

	/* Holes cannot be seen in hugetlbfs: the size is what is checked. */
	single_path(mem, l, path, sizeof(path));
	return eal_hugefile_holds(AT_FDCWD, NULL, path,
			       (uint64_t)(idx + n) * page_sz, why,
			       why_len) < 0 ?
			-ENOENT :
			0;
}

const struct eal_backing eal_backing_single = {
	.name = "single file per list",
	.uses_files = true,
	.map = single_map,
	.unmap = single_unmap,
	.get_fd = range_get_fd,
	.view = range_view,
	.release = single_release,
	.kept = single_kept,
	.attach = single_attach,
	.detach = single_detach,
};

/* Single file per list, in a secondary process: no lock, no replacing. */
const struct eal_backing eal_backing_single_shared = {
	.name = "single file per list, shared",
	.uses_files = true,
	.map = single_map_shared,
	.unmap = single_unmap,
	.get_fd = range_get_fd,
	.view = range_view,
	.release = single_release,
	.attach = single_attach,
	.detach = single_detach,
};

const struct eal_backing eal_backing_memfd = {
	.name = "memfd",
	.map = memfd_map,
	.unmap = memfd_unmap,
	.get_fd = range_get_fd,
	.view = range_view,
	.release = memfd_release,
};
