/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * The file per page backing's deferred pages (EAL_MAP_DEFERRED), for a
 * lazy memory image: a page's file is made when the page is filled.
 */

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "eal_backing_file.h"
#include "eal_hugefile.h"
#include "eal_log.h"
#include "eal_mem.h"
#include "eal_memseg_list.h"
#include "eal_os.h"

/*
 * Slots mapped EAL_MAP_DEFERRED: one hugetlbfs memfd per list stands in
 * for their files, its range at each slot's offset mapped over the slot,
 * for one mmap per run where files cost ~9 us a page. The stand-in
 * mapping reserves nothing; the pages are reserved in the same file past
 * the slots' range (a count of them, n_resv), so that a short pool fails
 * here as for pages mapped empty. A slot gets its own file when it is
 * filled (eal_bfile_place()), which reserves its page: one reservation of
 * the count goes then, by truncating the file by a page (a hole punched
 * would keep it). That runs in threads serving a userfaultfd while
 * others unmap slots: the count and each slot's flag are atomic. Racing
 * truncations may leave the file longer than the count says, never the
 * reservations: growing a hugetlbfs file reserves nothing, so what stays
 * reserved is what the smallest of them left, the count.
 */
struct eal_msl_deferred {
	int holder_fd;
	uint64_t n_resv; /* pages reserved past the slots' range (atomic) */
	uint8_t slot[]; /* per slot, DEFER_* (atomic) */
};

enum {
	DEFER_NONE, /* not deferred: mapped from its file, or free */
	DEFER_RESERVED, /* waits for its file; one of n_resv is its page */
	DEFER_UNRESERVED, /* waits for its file, its reservation given up */
};

bool
eal_bfile_deferred(const struct eal_mem *mem, unsigned int l, unsigned int idx)
{
	const struct eal_msl_deferred *d = mem->local[l].deferred;

	return d != NULL &&
			__atomic_load_n(&d->slot[idx], __ATOMIC_ACQUIRE) !=
			DEFER_NONE;
}

/*
 * The list's stand-in file, made on first use, and its memfd tables, so
 * that a fill never allocates one (place_anon()).
 */
static struct eal_msl_deferred *
defer_holder(struct eal_mem *mem, unsigned int l, int *ret)
{
	const struct rte_memseg_list *msl = &mem->mcfg->memsegs[l];
	struct eal_msl_local *loc = &mem->local[l];
	struct eal_msl_deferred *d = loc->deferred;
	int fd;

	*ret = eal_bfile_anon_tables(mem, l);
	if (*ret < 0 || d != NULL)
		return *ret < 0 ? NULL : d;
	d = calloc(1, sizeof(*d) + msl->n_segs);
	if (d == NULL) {
		*ret = -ENOMEM;
		return NULL;
	}
	fd = eal_bfile_memfd("rtemem_deferred", msl->page_sz,
			(uint64_t)msl->n_segs * msl->page_sz);
	if (fd < 0) {
		*ret = fd;
		free(d);
		return NULL;
	}
	d->holder_fd = fd;
	loc->deferred = d;
	return d;
}

/* Give back @p n pages of the list's deferred reservation. */
static void
defer_unreserve(struct eal_mem *mem, unsigned int l, uint64_t n)
{
	const struct rte_memseg_list *msl = &mem->mcfg->memsegs[l];
	struct eal_msl_deferred *d = mem->local[l].deferred;
	uint64_t left = __atomic_sub_fetch(&d->n_resv, n, __ATOMIC_ACQ_REL);
	int ret;

	ret = eal_os_truncate(
			d->holder_fd, (msl->n_segs + left) * msl->page_sz);
	if (ret < 0)
		EAL_LOG(WARNING,
				"cannot give back %" PRIu64
				" reserved hugepages of memseg list %u: %s; they "
				"stay reserved until the process ends",
				n, l, strerror(-ret));
}

/* At init (under the memory lock): reservations are added nowhere else. */
int
eal_bfile_defer(struct eal_mem *mem, unsigned int l, unsigned int idx,
		unsigned int n)
{
	const struct rte_memseg_list *msl = &mem->mcfg->memsegs[l];
	void *addr = eal_msl_slot_addr(msl, idx);
	size_t len = (size_t)n * msl->page_sz;
	struct eal_msl_deferred *d;
	unsigned int i;
	int ret;

	d = defer_holder(mem, l, &ret);
	if (d == NULL)
		return ret;
	ret = eal_os_huge_reserve(d->holder_fd,
			(msl->n_segs +
					__atomic_load_n(&d->n_resv,
							__ATOMIC_ACQUIRE)) *
					msl->page_sz,
			len);
	if (ret < 0)
		return ret;
	__atomic_add_fetch(&d->n_resv, n, __ATOMIC_ACQ_REL);
	ret = eal_os_map_shared_noreserve(
			addr, len, d->holder_fd, (off_t)idx * msl->page_sz);
	if (ret < 0) {
		defer_unreserve(mem, l, n);
		if (eal_os_va_restore(addr, len) < 0)
			EAL_LOG(CRIT,
					"address range at %p was taken by "
					"another mapping",
					addr);
		return ret;
	}
	for (i = idx; i < idx + n; i++)
		__atomic_store_n(&d->slot[i], DEFER_RESERVED, __ATOMIC_RELEASE);
	return 0;
}

/* Give up the reservation of deferred slot @p idx, if it has one. */
static void
defer_drop(struct eal_mem *mem, unsigned int l, unsigned int idx)
{
	uint8_t *slot = &mem->local[l].deferred->slot[idx];

	if (__atomic_exchange_n(slot, DEFER_UNRESERVED, __ATOMIC_ACQ_REL) ==
			DEFER_RESERVED)
		defer_unreserve(mem, l, 1);
}

/* Slot @p idx no longer waits for its file, nor holds a reservation. */
static void
defer_end(struct eal_mem *mem, unsigned int l, unsigned int idx)
{
	defer_drop(mem, l, idx);
	__atomic_store_n(&mem->local[l].deferred->slot[idx], DEFER_NONE,
			__ATOMIC_RELEASE);
}

void
eal_bfile_defer_unmap(struct eal_mem *mem, unsigned int l, unsigned int idx,
		unsigned int n)
{
	struct eal_msl_deferred *d = mem->local[l].deferred;
	uint64_t page_sz = mem->mcfg->memsegs[l].page_sz, resv = 0;
	unsigned int i;
	uint8_t was;
	int ret;

	if (d == NULL)
		return;
	for (i = idx; i < idx + n; i++) {
		was = __atomic_exchange_n(
				&d->slot[i], DEFER_NONE, __ATOMIC_ACQ_REL);
		resv += was == DEFER_RESERVED;
	}
	/* One truncation and one hole for the run, not two calls a page. */
	if (resv > 0)
		defer_unreserve(mem, l, resv);
	/*
	 * Filled slots never allocate in the stand-in (their faults go to
	 * the userfaultfd); one unmapped unfilled may have, if touched
	 * where none watched (after the restore stopped). Where nothing
	 * was allocated the hole costs nothing.
	 */
	ret = eal_os_punch_hole(d->holder_fd, (uint64_t)idx * page_sz,
			(uint64_t)n * page_sz);
	if (ret < 0)
		EAL_LOG(WARNING,
				"cannot drop the stand-in pages of slots %u-%u "
				"of memseg list %u: %s; they stay until the "
				"process ends",
				idx, idx + n - 1, l, strerror(-ret));
}

void
eal_bfile_defer_free(struct eal_mem *mem, unsigned int l)
{
	struct eal_msl_deferred *d = mem->local[l].deferred;

	if (d == NULL)
		return;
	eal_os_close(d->holder_fd);
	free(d);
	mem->local[l].deferred = NULL;
}

/*
 * A view of @p fd, the new file of deferred slot @p idx. Its page needs
 * a reservation of its own; in a pool with none to spare, the slot's is
 * given up first. Both tries hold the pool lock, so that no other
 * mapping of this process (a heap growing, another fill) takes the page
 * in between; another process still could: the fill then fails as a
 * short pool would.
 */
static int
place_view(struct eal_mem *mem, unsigned int l, unsigned int idx, int fd,
		void **view)
{
	uint64_t page_sz = mem->mcfg->memsegs[l].page_sz;
	int ret;

	pthread_mutex_lock(&mem->pool_lock);
	ret = eal_os_map_view(fd, 0, page_sz, view);
	if (ret == -ENOMEM) {
		defer_drop(mem, l, idx);
		ret = eal_os_map_view(fd, 0, page_sz, view);
	}
	pthread_mutex_unlock(&mem->pool_lock);
	return ret;
}

/*
 * Fill deferred slot @p idx through a view of @p fd, its page's file,
 * then map the file over the stand-in: a thread touching the page finds
 * it whole.
 */
static int
place_fd(struct eal_mem *mem, unsigned int l, unsigned int idx, int fd,
		int (*fill)(void *view, void *arg, char *err, size_t err_len),
		void *arg, char *err, size_t err_len)
{
	const struct rte_memseg_list *msl = &mem->mcfg->memsegs[l];
	void *view;
	int ret;

	ret = place_view(mem, l, idx, fd, &view);
	if (ret < 0) {
		snprintf(err, err_len,
				"cannot map a page of %" PRIu64 " kB: %s",
				msl->page_sz >> 10, strerror(-ret));
		return ret;
	}
	ret = fill(view, arg, err, err_len);
	eal_os_va_release(view, msl->page_sz);
	if (ret < 0)
		return ret;
	ret = eal_bfile_map_slot(msl, idx, fd, false);
	if (ret < 0)
		snprintf(err, err_len, "cannot map its file at %p: %s",
				eal_msl_slot_addr(msl, idx), strerror(-ret));
	return ret;
}

/*
 * The entry with slot @p idx's file name is not a file of ours (@p err
 * says what it is): its page comes from a memfd instead, as at start
 * (eal_bfile_memfd()); the tables were made with the stand-in, and other
 * slots' bits change atomically. A file of ours that another process
 * holds is not taken so: it looks like a page file to a secondary
 * process and to the next start, which would take its bytes for ours.
 */
static int
place_anon(struct eal_mem *mem, unsigned int l, unsigned int idx,
		int (*fill)(void *view, void *arg, char *err, size_t err_len),
		void *arg, char *err, size_t err_len)
{
	char why[PATH_MAX + 128];
	int fd, ret;

	snprintf(why, sizeof(why), "%s", err); /* place_open()'s */
	fd = eal_bfile_memfd("rtemem_slot", mem->mcfg->memsegs[l].page_sz,
			mem->mcfg->memsegs[l].page_sz);
	if (fd < 0) {
		snprintf(err, err_len, "cannot make a hugepage memfd: %s",
				strerror(-fd));
		return fd;
	}
	ret = place_fd(mem, l, idx, fd, fill, arg, err, err_len);
	if (ret < 0) {
		eal_os_close(fd);
		return ret;
	}
	eal_bfile_anon_set(mem, l, idx, fd);
	defer_end(mem, l, idx);
	eal_bfile_anon_warn(why);
	return 0;
}

/* Open deferred slot @p idx's file for eal_bfile_place(), empty. */
static int
place_open(struct eal_mem *mem, unsigned int l, unsigned int idx, char *err,
		size_t err_len)
{
	uint64_t page_sz = mem->mcfg->memsegs[l].page_sz;
	struct eal_hugefile_found f;
	char path[PATH_MAX];
	bool dirty;
	int fd, ret;

	fd = eal_bfile_open(mem, l, idx, &dirty, &f);
	if (fd < 0)
		eal_bfile_path(mem, l, idx, path, sizeof(path));
	if (fd == -EPERM)
		eal_bfile_foreign(err, err_len, path, f.why);
	else if (fd == -EBUSY)
		snprintf(err, err_len, "%s is in use by another process", path);
	else if (fd < 0)
		snprintf(err, err_len, "cannot open %s: %s", path,
				strerror(-fd));
	if (fd < 0 || !dirty)
		return fd;
	/* Earlier data: UFFDIO_COPY needs the page missing. */
	ret = eal_os_punch_hole(fd, 0, page_sz);
	if (ret == 0)
		return fd;
	eal_os_close(fd);
	eal_bfile_path(mem, l, idx, path, sizeof(path));
	snprintf(err, err_len, "cannot drop the earlier data of %s: %s", path,
			strerror(-ret));
	return ret;
}

int
eal_bfile_place(struct eal_mem *mem, unsigned int l, unsigned int idx,
		int (*fill)(void *view, void *arg, char *err, size_t err_len),
		void *arg, char *err, size_t err_len)
{
	int fd, ret;

	fd = place_open(mem, l, idx, err, err_len);
	if (fd == -EPERM)
		return place_anon(mem, l, idx, fill, arg, err, err_len);
	if (fd < 0)
		return fd;
	ret = place_fd(mem, l, idx, fd, fill, arg, err, err_len);
	eal_os_close(fd);
	if (ret < 0) {
		eal_bfile_remove(mem, l,
				idx); /* punched or new: nothing in it */
		return ret;
	}
	defer_end(mem, l, idx);
	if (mem->policy->unlink_after_map)
		eal_bfile_remove(mem, l, idx);
	return 0;
}
