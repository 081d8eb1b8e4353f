/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Backing: one hugetlbfs file per page (the default).
 *
 * Mapping a page costs open, fstat, flock, mmap and close, plus ftruncate
 * and fallocate for a new page; faulting in is one madvise for the whole
 * run of pages. No descriptor stays open (see eal_hugefile.h for why the
 * lock survives). Files are opened and removed by name, from the list's
 * descriptor of its directory.
 *
 * A new page is allocated in its file (fallocate) before it is mapped, so
 * that running out of hugepages fails there: a MAP_FIXED mmap that fails
 * leaves a hole in the list's reserved range, which another mapping could
 * then take. A mapping that fails all the same is followed by
 * re-reserving the slot.
 *
 * A run of pages that the process's only thread maps (rte_eal_init()
 * before the lcores start) goes into a hole instead: over the reserved
 * range, the kernel would split the reservation for each page. The slots
 * a failure leaves empty are reserved again.
 *
 * A page mapped empty (EAL_MAP_EMPTY) is neither allocated nor faulted
 * in, and a reused file's page is punched out: the shared mapping's
 * hugetlb reservation is what makes its later allocation succeed.
 * Pages mapped EAL_MAP_DEFERRED get no file at all until they are filled
 * (see eal_backing_file_defer.c).
 *
 * A reused file (--huge-unlink=never) is dirty when it has a page
 * allocated (st_blocks > 0): a file that exists but was never faulted in
 * gives fresh, zeroed memory.
 *
 * When the entry with a page's file name is not a file of ours (another
 * user's file, a FIFO, a directory, a link: see eal_hugefile.h), the page
 * comes from a hugetlbfs memfd instead, whose descriptor stays open in
 * seg_fds: the heap can use the slot, the entry is left alone, and the
 * page is not kept for the next start.
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "eal_bitmap.h"
#include "eal_backing_file.h"
#include "eal_hugefile.h"
#include "eal_log.h"
#include "eal_mem.h"
#include "eal_memseg_list.h"
#include "eal_os.h"
#include "eal_populate.h"

static unsigned int
file_id(const struct eal_mem *mem, unsigned int l, unsigned int idx)
{
	return mem->local[l].file_list * RTE_MAX_MEMSEG_PER_LIST + idx;
}

void
eal_bfile_path(const struct eal_mem *mem, unsigned int l, unsigned int idx,
		char *path, size_t len)
{
	eal_hugefile_path(path, len, mem->local[l].dir, mem->opts->file_prefix,
			file_id(mem, l, idx));
}

/* The name of a page's file in the list's directory (dir_fd). */
static void
file_name(const struct eal_mem *mem, unsigned int l, unsigned int idx,
		char *name, size_t len)
{
	eal_hugefile_name(name, len, mem->opts->file_prefix,
			file_id(mem, l, idx));
}

void
eal_bfile_remove(const struct eal_mem *mem, unsigned int l, unsigned int idx)
{
	char name[NAME_MAX + 1];

	file_name(mem, l, idx, name, sizeof(name));
	eal_os_unlinkat(mem->local[l].dir_fd, name);
}

int
eal_bfile_open(const struct eal_mem *mem, unsigned int l, unsigned int idx,
		bool *dirty, struct eal_hugefile_found *f)
{
	uint64_t page_sz = mem->mcfg->memsegs[l].page_sz;
	char name[NAME_MAX + 1];
	int fd, ret = 0;

	*dirty = false;
	file_name(mem, l, idx, name, sizeof(name));
	fd = eal_hugefile_open_locked(mem->local[l].dir_fd, mem->local[l].dir,
			name, mem->policy->reuse, f);
	if (fd < 0)
		return fd;
	if (f->size != page_sz)
		ret = eal_os_truncate(fd, page_sz);
	if (ret < 0) {
		eal_os_close(fd);
		if (f->created)
			eal_bfile_remove(mem, l, idx);
		return ret;
	}
	*dirty = f->allocated > 0;
	return fd;
}

int
eal_bfile_map_slot(const struct rte_memseg_list *msl, unsigned int idx, int fd,
		bool hole)
{
	void *addr = eal_msl_slot_addr(msl, idx);
	int ret;

	if (hole)
		return eal_os_map_shared_hole(addr, msl->page_sz, fd, 0);
	ret = eal_os_map_shared(addr, msl->page_sz, fd, 0);
	if (ret < 0 && eal_os_va_restore(addr, msl->page_sz) < 0)
		EAL_LOG(CRIT, "address range at %p was taken by another mapping",
				addr);
	return ret;
}

static bool
file_is_anon(const struct eal_mem *mem, unsigned int l, unsigned int idx)
{
	const uint64_t *bm = mem->local[l].anon_slots;

	/* A deferred page's fill may set another bit of the word. */
	return bm != NULL && eal_bitmap_get_atomic(bm, idx);
}

/* The list's table of page descriptors, all -1 at first. */
static int
file_seg_fds(struct eal_mem *mem, unsigned int l)
{
	struct eal_msl_local *loc = &mem->local[l];
	unsigned int i, n = mem->mcfg->memsegs[l].n_segs;

	if (loc->seg_fds != NULL)
		return 0;
	loc->seg_fds = malloc(n * sizeof(int));
	if (loc->seg_fds == NULL)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		loc->seg_fds[i] = -1;
	return 0;
}

int
eal_bfile_anon_tables(struct eal_mem *mem, unsigned int l)
{
	struct eal_msl_local *loc = &mem->local[l];

	if (loc->anon_slots == NULL) {
		loc->anon_slots = calloc(
				eal_bitmap_words(mem->mcfg->memsegs[l].n_segs),
				sizeof(uint64_t));
		if (loc->anon_slots == NULL)
			return -ENOMEM;
	}
	return file_seg_fds(mem, l);
}

int
eal_bfile_memfd(const char *name, uint64_t page_sz, uint64_t size)
{
	int fd = eal_os_memfd_huge(name, page_sz);
	int ret = fd < 0 ? fd : eal_os_truncate(fd, size);

	if (ret < 0 && fd >= 0)
		eal_os_close(fd);
	return ret < 0 ? ret : fd;
}

void
eal_bfile_anon_set(
		struct eal_mem *mem, unsigned int l, unsigned int idx, int fd)
{
	mem->local[l].seg_fds[idx] = fd;
	eal_bitmap_set_atomic(mem->local[l].anon_slots, idx, true);
}

void
eal_bfile_foreign(char *buf, size_t len, const char *path, const char *why)
{
	snprintf(buf, len,
			"%s is %s, not a hugepage file of yours: left as it is",
			path, why);
}

void
eal_bfile_anon_warn(const char *what)
{
	EAL_LOG(WARNING,
			"%s; its page comes from anonymous hugepage memory this "
			"run and is not kept",
			what);
}

/* Serve slot @p idx from a memfd: its file's name is taken. */
static int
file_map_anon(struct eal_mem *mem, unsigned int l, unsigned int idx,
		enum eal_map_fill fill, bool hole)
{
	const struct rte_memseg_list *msl = &mem->mcfg->memsegs[l];
	int fd, ret;

	ret = eal_bfile_anon_tables(mem, l);
	if (ret < 0)
		return ret;
	fd = eal_bfile_memfd("rtemem_slot", msl->page_sz, msl->page_sz);
	if (fd < 0)
		return fd;
	ret = fill == EAL_MAP_POPULATED ? eal_os_allocate(fd, 0, msl->page_sz) :
					  0;
	if (ret == 0)
		ret = eal_bfile_map_slot(msl, idx, fd, hole);
	if (ret < 0) {
		eal_os_close(fd);
		return ret == -ENOSPC ? -ENOMEM : ret;
	}
	eal_bfile_anon_set(mem, l, idx, fd);
	return 0;
}

/* Forget that slots [idx, idx + n) were served by memfds. */
static void
file_anon_clear(struct eal_mem *mem, unsigned int l, unsigned int idx,
		unsigned int n)
{
	uint64_t *bm = mem->local[l].anon_slots;
	unsigned int i;

	for (i = idx; bm != NULL && i < idx + n; i++)
		eal_bitmap_set_atomic(bm, i, false);
}

/* A run being mapped, page by page, by one or more threads. */
struct file_run {
	struct eal_mem *mem;
	unsigned int l, idx;
	enum eal_map_fill fill;
	bool *dirty;
	bool hole; /* the run's range is a hole (eal_os_va_hole()) */
	pthread_mutex_t anon_lock; /* the list's memfd tables */
};

/*
 * Open, allocate and map page @p i of the run. Threads may map other pages
 * of the list at the same time: the memfd tables change under anon_lock.
 */
static int
file_map_one(void *arg, unsigned int i)
{
	struct file_run *r = arg;
	struct eal_mem *mem = r->mem;
	unsigned int l = r->l, idx = r->idx + i;
	const struct rte_memseg_list *msl = &mem->mcfg->memsegs[l];
	enum eal_map_fill fill = r->fill;
	bool *dirty = &r->dirty[i];
	struct eal_hugefile_found f;
	char path[PATH_MAX], what[PATH_MAX + 128];
	int fd, ret;

	fd = eal_bfile_open(mem, l, idx, dirty, &f);
	if (fd < 0)
		eal_bfile_path(mem, l, idx, path, sizeof(path));
	if (fd == -EPERM) {
		eal_bfile_foreign(what, sizeof(what), path, f.why);
		eal_bfile_anon_warn(what);
		pthread_mutex_lock(&r->anon_lock);
		ret = file_map_anon(mem, l, idx, fill, r->hole);
		pthread_mutex_unlock(&r->anon_lock);
		return ret;
	}
	if (fd == -EBUSY)
		EAL_LOG(ERR, "%s is in use by another process", path);
	else if (fd < 0)
		EAL_LOG(ERR, "cannot open %s: %s", path, strerror(-fd));
	if (fd < 0)
		return fd;
	ret = 0;
	if (fill == EAL_MAP_EMPTY && *dirty) {
		ret = eal_os_punch_hole(fd, 0, msl->page_sz);
		*dirty = ret < 0;
	} else if (fill == EAL_MAP_POPULATED && !*dirty) {
		ret = eal_os_allocate(fd, 0, msl->page_sz);
		if (ret == -ENOSPC)
			ret = -ENOMEM;
	}
	if (ret == 0)
		ret = eal_bfile_map_slot(msl, idx, fd, r->hole);
	eal_os_close(fd);
	if (ret < 0) {
		/* We hold the file: without data, it is ours to remove. */
		if (!*dirty)
			eal_bfile_remove(mem, l, idx);
		eal_bfile_path(mem, l, idx, path, sizeof(path));
		EAL_LOG(DEBUG, "cannot map %s: %s", path, strerror(-ret));
	}
	return ret;
}

/*
 * Undo the pages [idx, idx + n) of a failed map whose @p mapped is set:
 * files without data go.
 */
static void
file_rollback(struct eal_mem *mem, unsigned int l, unsigned int idx,
		unsigned int n, const bool *dirty, const bool *mapped)
{
	const struct rte_memseg_list *msl = &mem->mcfg->memsegs[l];
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (!mapped[i])
			continue;
		eal_os_va_unmap_keep(
				eal_msl_slot_addr(msl, idx + i), msl->page_sz);
		if (file_is_anon(mem, l, idx + i)) {
			eal_os_close(mem->local[l].seg_fds[idx + i]);
			mem->local[l].seg_fds[idx + i] = -1;
			file_anon_clear(mem, l, idx + i, 1);
			continue;
		}
		if (!dirty[i])
			eal_bfile_remove(mem, l, idx + i);
	}
}

/* Shortest run worth a hole: the check that allows it costs a page's gain. */
#define FILE_HOLE_MIN_PAGES 4

/*
 * Turn the range of slots [idx, idx + n) into a hole to map the pages
 * into, if the run is long enough and this thread, mapping them alone, is
 * the process's only one (see eal_os_single_thread()).
 *
 * @return whether the range is now a hole.
 */
static bool
file_hole_open(const struct eal_mem *mem, const struct rte_memseg_list *msl,
		unsigned int idx, unsigned int n, unsigned int threads)
{
	/*
	 * Only within rte_eal_init(), whose lists lie where their hint put
	 * them: a list the kernel placed (no hint) may be the highest free
	 * gap, where a mapping this very thread makes in the window (a
	 * message's buffer) would land.
	 */
	return !mem->init_done && n >= FILE_HOLE_MIN_PAGES && threads == 1 &&
			eal_os_single_thread() &&
			eal_os_va_hole(eal_msl_slot_addr(msl, idx),
					(size_t)n * msl->page_sz) == 0;
}

/* Reserve again the slots [idx, idx + n) of a hole. */
static void
file_hole_fill(const struct rte_memseg_list *msl, unsigned int idx,
		unsigned int n)
{
	void *addr = eal_msl_slot_addr(msl, idx);

	if (n > 0 && eal_os_va_restore(addr, (size_t)n * msl->page_sz) < 0)
		EAL_LOG(CRIT, "address range at %p was taken by another mapping",
				addr);
}

/* Reserve again the slots of a hole that @p mapped says stayed empty. */
static void
file_hole_close(const struct rte_memseg_list *msl, unsigned int idx,
		unsigned int n, const bool *mapped)
{
	unsigned int i, end;

	for (i = 0; i < n; i = end) {
		for (end = i + 1; end < n && mapped[end] == mapped[i]; end++)
			;
		if (!mapped[i])
			file_hole_fill(msl, idx + i, end - i);
	}
}

/*
 * Open, allocate and map each page of the run, on --populate-threads
 * threads when it is long enough (new pages are cleared as they are
 * allocated: that is the work they share), then fault them all in.
 */
static int
file_map(struct eal_mem *mem, unsigned int l, unsigned int idx, unsigned int n,
		enum eal_map_fill fill, bool *dirty)
{
	const struct rte_memseg_list *msl = &mem->mcfg->memsegs[l];
	struct file_run r = {
		.mem = mem, .l = l, .idx = idx, .fill = fill, .dirty = dirty
	};
	unsigned int threads = eal_populate_run_threads(
			eal_populate_threads(mem->opts, msl->socket_id), n);
	bool *mapped, populating;
	unsigned int i;
	int ret;

	if (fill == EAL_MAP_DEFERRED)
		return eal_bfile_defer(mem, l, idx, n);
	mapped = malloc(n * sizeof(*mapped));
	if (mapped == NULL)
		return -ENOMEM;
	pthread_mutex_init(&r.anon_lock, NULL);
	r.hole = file_hole_open(mem, msl, idx, n, threads);
	if (r.hole)
		EAL_LOG(DEBUG, "mapping %u pages into a hole at %p", n,
				eal_msl_slot_addr(msl, idx));
	/*
	 * Pages are reserved (mapped) and allocated (faulted in) from here:
	 * a deferred page's fill trades reservations meanwhile (see
	 * eal_backing_file_defer.c). Nothing under the lock touches memory a lazy
	 * restore fills, whose handler may wait for the lock.
	 */
	pthread_mutex_lock(&mem->pool_lock);
	ret = eal_populate_run(
			threads, msl->socket_id, n, file_map_one, &r, mapped);
	pthread_mutex_destroy(&r.anon_lock);
	if (ret < 0 && r.hole)
		file_hole_close(msl, idx, n, mapped);
	populating = ret == 0 && fill == EAL_MAP_POPULATED;
	if (populating)
		ret = eal_os_populate(
				eal_msl_slot_addr(msl, idx), n * msl->page_sz);
	pthread_mutex_unlock(&mem->pool_lock);
	if (populating && ret < 0)
		EAL_LOG(DEBUG, "cannot fault in %u pages of %" PRIu64 " kB: %s",
				n, msl->page_sz >> 10, strerror(-ret));
	if (populating && ret == -EFAULT)
		ret = -ENOMEM;
	if (ret < 0) {
		file_rollback(mem, l, idx, n, dirty, mapped);
		free(mapped);
		return ret;
	}
	free(mapped);
	for (i = 0; i < n && mem->policy->unlink_after_map; i++)
		if (!file_is_anon(mem, l, idx + i))
			eal_bfile_remove(mem, l, idx + i);
	return 0;
}

static int
file_view(struct eal_mem *mem, unsigned int l, unsigned int idx, void **view)
{
	uint64_t page_sz = mem->mcfg->memsegs[l].page_sz;
	char path[PATH_MAX];
	int fd, ret;

	if (file_is_anon(mem, l, idx))
		return eal_os_map_view(
				mem->local[l].seg_fds[idx], 0, page_sz, view);
	if (mem->policy->unlink_after_map)
		return -ENOTSUP; /* the file is gone */
	if (eal_bfile_deferred(mem, l, idx))
		return -ENOENT; /* not made yet */
	eal_bfile_path(mem, l, idx, path, sizeof(path));
	fd = eal_os_open(path, O_RDWR, 0);
	if (fd < 0)
		return fd;
	ret = eal_os_map_view(fd, 0, page_sz, view);
	eal_os_close(fd);
	return ret;
}

static void
file_close_fds(struct eal_mem *mem, unsigned int l, unsigned int idx,
		unsigned int n)
{
	int *fds = mem->local[l].seg_fds;
	unsigned int i;

	if (fds == NULL)
		return;
	for (i = idx; i < idx + n; i++) {
		eal_os_close(fds[i]);
		fds[i] = -1;
	}
}

static int
file_unmap(struct eal_mem *mem, unsigned int l, unsigned int idx,
		unsigned int n)
{
	const struct rte_memseg_list *msl = &mem->mcfg->memsegs[l];
	unsigned int i;
	int ret;

	ret = eal_os_va_unmap_keep(
			eal_msl_slot_addr(msl, idx), n * msl->page_sz);
	if (ret < 0)
		return ret;
	file_close_fds(mem, l, idx, n);
	for (i = 0; i < n; i++)
		if (!eal_bfile_deferred(mem, l, idx + i) &&
				mem->policy->unlink_on_free &&
				!file_is_anon(mem, l, idx + i))
			eal_bfile_remove(mem, l, idx + i);
	eal_bfile_defer_unmap(mem, l, idx, n);
	file_anon_clear(mem, l, idx, n);
	return 0;
}

/* Map slots another process of the prefix mapped, from their files. */
static int
file_attach(struct eal_mem *mem, unsigned int l, unsigned int idx,
		unsigned int n)
{
	const struct rte_memseg_list *msl = &mem->mcfg->memsegs[l];
	char name[NAME_MAX + 1], path[PATH_MAX];
	unsigned int i;
	int fd, ret = 0;

	for (i = 0; i < n; i++) {
		file_name(mem, l, idx + i, name, sizeof(name));
		fd = eal_hugefile_open_peer(
				mem->local[l].dir_fd, name, msl->page_sz);
		if (fd < 0) {
			eal_bfile_path(mem, l, idx + i, path, sizeof(path));
			EAL_LOG(ERR, "cannot open %s: %s", path, strerror(-fd));
			ret = fd;
			break;
		}
		ret = eal_bfile_map_slot(msl, idx + i, fd, false);
		eal_os_close(fd);
		if (ret < 0)
			break;
	}
	/* Faulted in now: a page that is not there fails here, not later. */
	if (ret == 0)
		ret = eal_os_populate(eal_msl_slot_addr(msl, idx),
				(size_t)n * msl->page_sz);
	if (ret < 0 && i == n)
		eal_os_va_unmap_keep(eal_msl_slot_addr(msl, idx),
				(size_t)n * msl->page_sz);
	/* Slot idx + i is reserved again already; undo those before it. */
	else if (ret < 0 && i > 0)
		eal_os_va_unmap_keep(eal_msl_slot_addr(msl, idx),
				(size_t)i * msl->page_sz);
	return ret;
}

/* Unmap slots another process gave back; their files are its business. */
static void
file_detach(struct eal_mem *mem, unsigned int l, unsigned int idx,
		unsigned int n)
{
	const struct rte_memseg_list *msl = &mem->mcfg->memsegs[l];

	eal_os_va_unmap_keep(eal_msl_slot_addr(msl, idx), n * msl->page_sz);
	pthread_mutex_lock(&mem->fd_lock);
	file_close_fds(mem, l, idx, n);
	pthread_mutex_unlock(&mem->fd_lock);
}

/* The descriptor of a mapped page, opened on first request. */
static int
file_get_fd_locked(
		struct eal_mem *mem, unsigned int l, unsigned int idx, int *fd)
{
	struct eal_msl_local *loc = &mem->local[l];
	char path[PATH_MAX];
	int ret = file_seg_fds(mem, l);

	if (ret < 0)
		return ret;
	if (loc->seg_fds[idx] < 0) {
		eal_bfile_path(mem, l, idx, path, sizeof(path));
		loc->seg_fds[idx] = eal_os_open(path, O_RDWR, 0);
		if (loc->seg_fds[idx] < 0)
			return loc->seg_fds[idx];
	}
	*fd = loc->seg_fds[idx];
	return 0;
}

static int
file_get_fd(struct eal_mem *mem, unsigned int l, unsigned int idx, int *fd,
		uint64_t *off)
{
	int ret;

	if (mem->policy->unlink_after_map)
		return -ENOTSUP; /* the file is gone */
	if (eal_bfile_deferred(mem, l, idx))
		return -EAGAIN; /* made when the page is filled */
	/* Callers hold the hotplug lock only for reading. */
	pthread_mutex_lock(&mem->fd_lock);
	ret = file_get_fd_locked(mem, l, idx, fd);
	pthread_mutex_unlock(&mem->fd_lock);
	*off = 0;
	return ret;
}

/* Whether the page of slot @p idx came with data from a kept file. */
static bool
file_seg_dirty(const struct eal_mem *mem, unsigned int l, int idx)
{
	const struct rte_memseg_list *msl = &mem->mcfg->memsegs[l];

	return (eal_msl_seg(mem->mcfg, msl, (unsigned int)idx)->flags &
			       RTE_MEMSEG_FLAG_DIRTY) != 0;
}

static bool
file_release(struct eal_mem *mem, unsigned int l)
{
	const struct rte_memseg_list *msl = &mem->mcfg->memsegs[l];
	bool drop, left = false;
	int idx;

	file_close_fds(mem, l, 0, mem->local[l].seg_fds ? msl->n_segs : 0);
	free(mem->local[l].seg_fds);
	mem->local[l].seg_fds = NULL;
	idx = eal_msl_find_next(mem->mcfg, msl, 0, true);
	while (idx >= 0) {
		/* At exit as the mode says; after a failed start, what it
		 * made (a page with data came from a kept file). */
		drop = mem->policy->unlink_at_exit ||
				(mem->policy->unlink_fresh_at_exit &&
						!file_seg_dirty(mem, l, idx));
		/* A memfd page's name is another's entry; a deferred
		 * slot has no file. */
		if (file_is_anon(mem, l, (unsigned int)idx) ||
				eal_bfile_deferred(mem, l, (unsigned int)idx))
			;
		else if (drop)
			eal_bfile_remove(mem, l, (unsigned int)idx);
		else
			left = true;
		idx = eal_msl_find_next(mem->mcfg, msl, idx + 1, true);
	}
	free(mem->local[l].anon_slots);
	mem->local[l].anon_slots = NULL;
	eal_bfile_defer_free(mem, l);
	return left && !mem->policy->unlink_after_map;
}

static int
file_kept(const struct eal_mem *mem, unsigned int l, unsigned int idx,
		unsigned int n, char *why, size_t why_len)
{
	uint64_t page_sz = mem->mcfg->memsegs[l].page_sz;
	char name[NAME_MAX + 1];
	unsigned int i;

	for (i = 0; i < n; i++) {
		file_name(mem, l, idx + i, name, sizeof(name));
		if (eal_hugefile_holds(mem->local[l].dir_fd, mem->local[l].dir,
				    name, page_sz, why, why_len) < 0)
			return -ENOENT;
	}
	return 0;
}

const struct eal_backing eal_backing_file = {
	.name = "file per page",
	.uses_files = true,
	.map = file_map,
	.unmap = file_unmap,
	.view = file_view,
	.deferred = eal_bfile_deferred,
	.place = eal_bfile_place,
	.get_fd = file_get_fd,
	.release = file_release,
	.kept = file_kept,
	.attach = file_attach,
	.detach = file_detach,
};
