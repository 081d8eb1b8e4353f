/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * The kept memzone table's file and layout (eal_keep.h).
 *
 * The header is written once per table, with its magic last: a process
 * killed while writing it leaves a file without the magic, which the
 * next run takes for no table. Its checksum catches a header that a
 * stray write of the application changed.
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_common.h>

#include "eal_keep.h"
#include "eal_log.h"
#include "eal_mem.h"
#include "linux/eal_os.h"

RTE_BUILD_BUG_ON(sizeof(struct eal_keep_hdr) > EAL_KEEP_AREA_OFF);

uint64_t
eal_keep_sum(uint64_t seed, const void *p, size_t len)
{
	const uint8_t *b = p;
	uint64_t h = 14695981039346656037ULL ^ seed;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ b[i]) * 1099511628211ULL;
	return h;
}

static uint64_t
keep_hdr_sum(const struct eal_keep_hdr *h)
{
	return eal_keep_sum(0, &h->uid,
			offsetof(struct eal_keep_hdr, n_kept) -
					offsetof(struct eal_keep_hdr, uid));
}

static void
keep_mark_path(char *buf, size_t len, const char *dir, const char *prefix)
{
	snprintf(buf, len, "%s/%s.keep", dir, prefix);
}

void
eal_keep_unmark(const char *dir, const char *prefix)
{
	char path[PATH_MAX + 80];

	keep_mark_path(path, sizeof(path), dir, prefix);
	eal_os_unlink(path);
}

/* The path of the mark of a lazy fill under way (eal_keep_filling()). */
static void
keep_filling_path(const struct eal_keep *k, char *buf, size_t len)
{
	snprintf(buf, len, "%s" EAL_KEEP_FILLING_SUFFIX, k->path);
}

/* Remove that mark. @return 0 (none there too), or -errno. */
static int
keep_filling_unmark(const struct eal_keep *k)
{
	char mark[sizeof(k->path) + sizeof(EAL_KEEP_FILLING_SUFFIX)];
	int ret;

	keep_filling_path(k, mark, sizeof(mark));
	ret = eal_os_unlink(mark);
	if (ret < 0 && ret != -ENOENT) {
		EAL_LOG(WARNING,
				"--keep-memzones: cannot remove %s: %s; the "
				"next start takes the kept memzones for lost",
				mark, strerror(-ret));
		return ret;
	}
	return 0;
}

/* Wipe the table: no magic, no record, nothing kept. */
static void
keep_reset(struct eal_keep *k)
{
	memset(k->hdr, 0, EAL_KEEP_FILE_LEN);
	k->restore = false;
	/* What the mark was about is gone with the table. */
	keep_filling_unmark(k);
}

/*
 * Say that the last run's memzones cannot come back because of @p why:
 * @return -EINVAL with the error in @p err in strict mode (with
 * memzones to lose), else 0 after logging what is discarded.
 */
static int
keep_report(const struct eal_keep *k, const char *why, char *err, size_t len)
{
	uint64_t n = k->hdr->n_kept;

	if (n == 0) {
		EAL_LOG(INFO,
				"--keep-memzones: %s held no memzone and %s: "
				"starting a new one",
				k->path, why);
	} else if (k->image != NULL && k->files_lost) {
		EAL_LOG(WARNING,
				"--keep-memzones: the last run's memzones (up to "
				"%" PRIu64
				", in %s) cannot be brought back from its files: "
				"%s; --memzone-image brings them back from %s",
				n, k->path, why, k->image);
	} else if (k->mode == EAL_KEEP_STRICT) {
		snprintf(err, len,
				"--keep-memzones: the last run's memzones (up to "
				"%" PRIu64
				", in %s) cannot be brought back: %s; "
				"give --keep-memzones=discard-mismatch to start "
				"without them",
				n, k->path, why);
		return -EINVAL;
	} else {
		EAL_LOG(WARNING,
				"--keep-memzones=discard-mismatch: discarding the "
				"last run's memzones (up to %" PRIu64
				", in %s): %s",
				n, k->path, why);
	}
	return 0;
}

int
eal_keep_mismatch(struct eal_keep *k, const char *why, char *err, size_t len)
{
	int ret = keep_report(k, why, err, len);

	if (ret == 0)
		keep_reset(k);
	return ret;
}

/* Open and map the file, made the user's alone. */
static int
keep_map(struct eal_keep *k, char *err, size_t len)
{
	struct stat st;
	void *p;
	int ret;

	k->fd = eal_os_open(k->path, O_RDWR | O_CREAT | O_NOFOLLOW, 0600);
	if (k->fd < 0) {
		snprintf(err, len, "--keep-memzones: cannot open %s: %s",
				k->path, strerror(-k->fd));
		return k->fd;
	}
	if (fstat(k->fd, &st) != 0 || !S_ISREG(st.st_mode) ||
			st.st_uid != geteuid() || (st.st_mode & 077) != 0) {
		snprintf(err, len,
				"--keep-memzones: %s is not a regular file of "
				"yours with no group or other access",
				k->path);
		return -EPERM;
	}
	/* A short file is an old or broken one: its header reads as zero. */
	if ((uint64_t)st.st_size != EAL_KEEP_FILE_LEN) {
		ret = eal_os_truncate(k->fd, 0);
		if (ret == 0)
			ret = eal_os_truncate(k->fd, EAL_KEEP_FILE_LEN);
		if (ret < 0) {
			snprintf(err, len,
					"--keep-memzones: cannot size %s: %s",
					k->path, strerror(-ret));
			return ret;
		}
	}
	p = mmap(NULL, EAL_KEEP_FILE_LEN, PROT_READ | PROT_WRITE, MAP_SHARED,
			k->fd, 0);
	if (p == MAP_FAILED) {
		ret = -errno;
		snprintf(err, len, "--keep-memzones: cannot map %s: %s",
				k->path, strerror(-ret));
		return ret;
	}
	k->hdr = p;
	return 0;
}

/* The hugetlbfs directory the table records for @p page_sz, or NULL. */
static const struct eal_keep_dir *
keep_dir_of(const struct eal_keep_hdr *h, uint64_t page_sz)
{
	unsigned int i;

	for (i = 0; i < h->n_dirs && i < EAL_MAX_PAGE_SIZES; i++)
		if (h->dirs[i].page_sz == page_sz)
			return &h->dirs[i];
	return NULL;
}

/* Whether the page sizes and directories in use are those recorded. */
static int
keep_check_dirs(struct eal_keep *k, const struct eal_hugepage_info *hpi,
		char *why, size_t len)
{
	const struct eal_keep_hdr *h = k->hdr;
	unsigned int s, n = 0;

	for (s = 0; s < hpi->n_sizes; s++) {
		const struct eal_hugepage_size *hs = &hpi->sizes[s];
		const struct eal_keep_dir *d;

		if (hs->dir[0] == '\0' || hs->total == 0)
			continue;
		n++;
		d = keep_dir_of(h, hs->page_sz);
		if (d == NULL) {
			snprintf(why, len,
					"this run uses %" PRIu64
					" kB pages, the last did not",
					hs->page_sz >> 10);
			return -1;
		}
		if (strcmp(d->path, hs->dir) != 0) {
			snprintf(why, len,
					"its %" PRIu64
					" kB pages were in %s, this run "
					"uses %s",
					hs->page_sz >> 10, d->path, hs->dir);
			return -1;
		}
	}
	if (n != h->n_dirs) {
		snprintf(why, len,
				"the last run used %u hugepage sizes, this run %u",
				h->n_dirs, n);
		return -1;
	}
	return 0;
}

/* What in the recorded header does not fit this run, in @p why. */
static int
keep_check_hdr(struct eal_keep *k, const struct eal_options *opts,
		const struct eal_hugepage_info *hpi, char *why, size_t len)
{
	const struct eal_keep_hdr *h = k->hdr;

	if (h->version != EAL_KEEP_VERSION) {
		snprintf(why, len, "it has version %u, this rtemem reads %u",
				h->version, EAL_KEEP_VERSION);
		return -1;
	}
	if (h->sum != keep_hdr_sum(h)) {
		snprintf(why, len, "its header is damaged (checksum)");
		return -1;
	}
	if (h->uid != geteuid()) {
		snprintf(why, len,
				"it was written by uid %u, this run is uid %u",
				h->uid, (unsigned int)geteuid());
		return -1;
	}
	if (h->single_file != opts->single_file_segments) {
		snprintf(why, len, "the last run had %s, this run %s",
				h->single_file ? "one file per memseg list" :
						 "one file per page",
				opts->single_file_segments ?
						"--single-file-segments" :
						"one file per page");
		return -1;
	}
	return keep_check_dirs(k, hpi, why, len);
}

/* Whether the last run left the mark of a lazy fill under way. */
static bool
keep_filling_marked(const struct eal_keep *k)
{
	char mark[sizeof(k->path) + sizeof(EAL_KEEP_FILLING_SUFFIX)];

	keep_filling_path(k, mark, sizeof(mark));
	return access(mark, F_OK) == 0;
}

int
eal_keep_open(struct eal_keep *k, const struct eal_options *opts,
		const struct eal_hugepage_info *hpi, const char *rt_dir,
		char *err, size_t len)
{
	char why[PATH_MAX + 128];
	int ret;

	memset(k, 0, sizeof(*k));
	k->fd = -1;
	k->mode = opts->keep_memzones;
	if (opts->memzone_image[0] != '\0')
		k->image = opts->memzone_image;
	if (rt_dir[0] == '\0')
		return 0;
	snprintf(k->path, sizeof(k->path), "%s/" EAL_KEEP_FILE, rt_dir);
	if (k->mode == EAL_KEEP_OFF) {
		keep_filling_unmark(k);
		ret = eal_os_unlink(k->path);
		if (ret == 0)
			EAL_LOG(INFO,
					"discarded the memzone table %s: this "
					"run has no --keep-memzones",
					k->path);
		return 0;
	}
	ret = keep_map(k, err, len);
	if (ret < 0) {
		eal_keep_close(k);
		return ret;
	}
	if (__atomic_load_n(&k->hdr->magic, __ATOMIC_ACQUIRE) !=
			EAL_KEEP_MAGIC) {
		keep_reset(k);
		return 0;
	}
	k->restore = true;
	if (keep_check_hdr(k, opts, hpi, why, sizeof(why)) < 0) {
		ret = eal_keep_mismatch(k, why, err, len);
	} else if (keep_filling_marked(k)) {
		k->files_lost = true;
		ret = eal_keep_mismatch(k,
				"a lazy --memzone-image restore was still "
				"filling them when the last run ended, and the "
				"pages it never wrote would come back as zeros",
				err, len);
	}
	if (ret < 0)
		eal_keep_close(k);
	return ret;
}

int
eal_keep_attach(struct eal_keep *k, enum eal_keep_memzones mode,
		const char *rt_dir, char *err, size_t len)
{
	int ret;

	memset(k, 0, sizeof(*k));
	k->fd = -1;
	k->mode = mode;
	snprintf(k->path, sizeof(k->path), "%s/" EAL_KEEP_FILE, rt_dir);
	ret = keep_map(k, err, len);
	if (ret == 0 &&
			__atomic_load_n(&k->hdr->magic, __ATOMIC_ACQUIRE) !=
					EAL_KEEP_MAGIC) {
		snprintf(err, len,
				"the primary process keeps memzones, but its "
				"table %s is not set up",
				k->path);
		ret = -EPROTO;
	}
	if (ret < 0)
		eal_keep_close(k);
	return ret;
}

int
eal_keep_check_marks(
		struct eal_keep *k, const char *prefix, char *err, size_t len)
{
	char path[PATH_MAX + 80], why[PATH_MAX + 256];
	const struct eal_keep_hdr *h = k->hdr;
	unsigned int i;
	struct stat st;
	bool gone;

	if (!k->restore)
		return 0;
	for (i = 0; i < h->n_dirs && i < EAL_MAX_PAGE_SIZES; i++) {
		const struct eal_keep_dir *d = &h->dirs[i];

		keep_mark_path(path, sizeof(path), d->path, prefix);
		gone = lstat(path, &st) != 0;
		if (!gone && st.st_ino == d->mark_ino &&
				st.st_ctim.tv_sec == d->mark_sec &&
				st.st_ctim.tv_nsec == d->mark_nsec)
			continue;
		snprintf(why, sizeof(why),
				"%s is %s: the files were removed (a reboot, a "
				"clean-up), or a run without --keep-memzones has "
				"used them since",
				path, gone ? "gone" : "not the one recorded");
		k->files_lost = true;
		return eal_keep_mismatch(k, why, err, len);
	}
	return 0;
}

int
eal_keep_list_check(struct eal_keep *k, unsigned int l,
		const struct eal_keep_list *want, void **base, char *err,
		size_t len)
{
	const struct eal_keep_list *had;
	char why[256];

	*base = NULL;
	if (!k->restore)
		return 0;
	had = &k->hdr->lists[l];
	if (l >= k->hdr->n_lists) {
		snprintf(why, sizeof(why),
				"this run lays out more than its %u memseg lists",
				k->hdr->n_lists);
		return eal_keep_mismatch(k, why, err, len);
	}
	if (had->page_sz != want->page_sz ||
			had->socket_id != want->socket_id ||
			had->n_segs != want->n_segs ||
			had->file_list != want->file_list) {
		snprintf(why, sizeof(why),
				"its memseg list %u had %u pages of %" PRIu64
				" kB on node %d, this run's has %u of %" PRIu64
				" kB on node %d",
				l, had->n_segs, had->page_sz >> 10,
				had->socket_id, want->n_segs,
				want->page_sz >> 10, want->socket_id);
		return eal_keep_mismatch(k, why, err, len);
	}
	*base = (void *)(uintptr_t)had->base_va;
	return 0;
}

/* Replace the marker of @p d with a new one, recording its identity. */
static int
keep_mark(struct eal_keep_dir *d, const char *prefix, char *err, size_t len)
{
	char path[PATH_MAX + 80];
	struct stat st;
	int fd;

	keep_mark_path(path, sizeof(path), d->path, prefix);
	eal_os_unlink(path);
	fd = eal_os_open(path, O_RDONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
	/* Left by another user, in a directory we may not remove it from. */
	if (fd == -EEXIST && lstat(path, &st) == 0 && st.st_uid != geteuid()) {
		snprintf(err, len,
				"--keep-memzones: %s is uid %u's: another user keeps "
				"memzones with file prefix '%s' there; use another "
				"--file-prefix",
				path, (unsigned int)st.st_uid, prefix);
		return -EACCES;
	}
	if (fd < 0) {
		snprintf(err, len, "--keep-memzones: cannot create %s: %s",
				path, strerror(-fd));
		return fd;
	}
	if (fstat(fd, &st) != 0) {
		fd = -errno;
		snprintf(err, len, "--keep-memzones: cannot stat %s: %s", path,
				strerror(-fd));
		return fd;
	}
	eal_os_close(fd);
	d->mark_ino = st.st_ino;
	d->mark_sec = st.st_ctim.tv_sec;
	d->mark_nsec = st.st_ctim.tv_nsec;
	return 0;
}

int
eal_keep_commit(struct eal_keep *k, const struct eal_options *opts,
		const struct eal_hugepage_info *hpi,
		const struct eal_keep_list *lists, unsigned int n_lists,
		char *err, size_t len)
{
	struct eal_keep_hdr *h = k->hdr;
	unsigned int s;
	int ret;

	if (h == NULL || k->restore)
		return 0;
	keep_reset(k);
	h->version = EAL_KEEP_VERSION;
	h->uid = (uint32_t)geteuid();
	h->single_file = opts->single_file_segments;
	for (s = 0; s < hpi->n_sizes; s++) {
		struct eal_keep_dir *d = &h->dirs[h->n_dirs];

		if (hpi->sizes[s].dir[0] == '\0' || hpi->sizes[s].total == 0)
			continue;
		d->page_sz = hpi->sizes[s].page_sz;
		snprintf(d->path, sizeof(d->path), "%s", hpi->sizes[s].dir);
		ret = keep_mark(d, opts->file_prefix, err, len);
		if (ret < 0)
			return ret;
		h->n_dirs++;
	}
	memcpy(h->lists, lists, n_lists * sizeof(*lists));
	h->n_lists = n_lists;
	h->sum = keep_hdr_sum(h);
	__atomic_store_n(&h->magic, EAL_KEEP_MAGIC, __ATOMIC_RELEASE);
	return 0;
}

void
eal_keep_close(struct eal_keep *k)
{
	if (k->hdr != NULL)
		munmap(k->hdr, EAL_KEEP_FILE_LEN);
	k->hdr = NULL;
	eal_os_close(k->fd);
	k->fd = -1;
	k->restore = false;
}

void *
eal_keep_area(size_t *len, bool *restore)
{
	struct eal_mem *mem = eal_mem_get();

	if (mem == NULL || mem->keep.hdr == NULL)
		return NULL;
	*len = EAL_KEEP_FILE_LEN - EAL_KEEP_AREA_OFF;
	*restore = mem->keep.restore;
	return RTE_PTR_ADD(mem->keep.hdr, EAL_KEEP_AREA_OFF);
}

int
eal_keep_area_mismatch(const char *why, char *err, size_t len)
{
	struct eal_keep *k = &eal_mem_get()->keep;
	int ret;

	/* A kept file missing or short, or records that do not hold. */
	k->files_lost = true;
	ret = keep_report(k, why, err, len);

	/* The layout is this run's, committed: only the records go. */
	if (ret == 0) {
		memset(RTE_PTR_ADD(k->hdr, EAL_KEEP_AREA_OFF), 0,
				EAL_KEEP_FILE_LEN - EAL_KEEP_AREA_OFF);
		__atomic_store_n(&k->hdr->n_kept, 0, __ATOMIC_RELEASE);
	}
	return ret;
}

void
eal_keep_count(int delta)
{
	struct eal_mem *mem = eal_mem_get();

	if (mem != NULL && mem->keep.hdr != NULL)
		__atomic_fetch_add(&mem->keep.hdr->n_kept, (int64_t)delta,
				__ATOMIC_RELEASE);
}

int
eal_keep_filling(bool on)
{
	struct eal_mem *mem = eal_mem_get();
	char mark[sizeof(mem->keep.path) + sizeof(EAL_KEEP_FILLING_SUFFIX)];
	int fd;

	if (mem == NULL || mem->keep.hdr == NULL)
		return 0;
	if (!on)
		return keep_filling_unmark(&mem->keep);
	keep_filling_path(&mem->keep, mark, sizeof(mark));
	fd = eal_os_open(mark, O_WRONLY | O_CREAT | O_NOFOLLOW, 0600);
	if (fd < 0)
		return fd;
	eal_os_close(fd);
	return 0;
}
