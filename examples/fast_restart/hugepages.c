/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * The launcher's view of hugepages, from /proc/mounts, statfs() and
 * /sys/kernel/mm/hugepages: the directories a run uses (as the EAL picks
 * them: --huge-dir, else the first hugetlbfs mount of each page size),
 * the files a file prefix holds in them, and whether the memory asked
 * for fits. It only reads: removing files is left to the EAL, which
 * knows which ones a live process holds (see launcher.c).
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>

#include "fast_restart.h"

#ifndef HUGETLBFS_MAGIC
#define HUGETLBFS_MAGIC 0x958458f6
#endif

#define HP_SYSFS "/sys/kernel/mm/hugepages"

/*
 * Add @p path to @p d unless a directory of its page size is there.
 *
 * @return 0, -ENOTSUP if it is not a hugetlbfs, or another -errno.
 */
static int
dirs_add(struct fr_huge_dirs *d, const char *path)
{
	struct statfs st;
	unsigned int i;

	if (statfs(path, &st) != 0)
		return -errno;
	if ((unsigned long)st.f_type != HUGETLBFS_MAGIC)
		return -ENOTSUP;
	for (i = 0; i < d->n; i++)
		if (d->page_sz[i] == (uint64_t)st.f_bsize)
			return 0;
	if (d->n == FR_MAX_DIRS)
		return 0;
	snprintf(d->path[d->n], sizeof(d->path[0]), "%s", path);
	d->page_sz[d->n] = (uint64_t)st.f_bsize;
	/* A mount without size= reports no blocks at all. */
	d->limit_free[d->n] = st.f_blocks == 0 ?
			UINT64_MAX :
			(uint64_t)st.f_bavail * (uint64_t)st.f_bsize;
	d->n++;
	return 0;
}

/* Undo the octal escapes (\040 for a space) of a /proc/mounts field. */
static void
mount_field_unescape(char *s)
{
	char *r = s, *w = s;

	while (*r != '\0') {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' &&
				r[2] <= '7' && r[3] >= '0' && r[3] <= '7') {
			*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 +
					(r[3] - '0'));
			r += 4;
		} else {
			*w++ = *r++;
		}
	}
	*w = '\0';
}

/* Every hugetlbfs mount point, the first one of each page size. */
static void
dirs_from_mounts(struct fr_huge_dirs *d)
{
	FILE *f = fopen("/proc/mounts", "r");
	char *line = NULL, *save, *dir, *type;
	size_t cap = 0;

	if (f == NULL)
		return;
	while (getline(&line, &cap, f) > 0) {
		if (strtok_r(line, " ", &save) == NULL)
			continue;
		dir = strtok_r(NULL, " ", &save);
		type = strtok_r(NULL, " ", &save);
		if (dir == NULL || type == NULL ||
				strcmp(type, "hugetlbfs") != 0)
			continue;
		mount_field_unescape(dir);
		dirs_add(d, dir);
	}
	free(line);
	fclose(f);
}

int
fr_huge_dirs_find(const char *huge_dir, struct fr_huge_dirs *d)
{
	int ret;

	memset(d, 0, sizeof(*d));
	if (huge_dir == NULL) {
		dirs_from_mounts(d);
		if (d->n > 0)
			return 0;
		fprintf(stderr, "fast_restart: no hugetlbfs is mounted: mount one (mount -t hugetlbfs nodev /mnt/huge) and give it with --huge-dir\n");
		return -1;
	}
	ret = dirs_add(d, huge_dir);
	if (ret == -ENOTSUP)
		fprintf(stderr, "fast_restart: --huge-dir %s is not on a hugetlbfs: give a directory where one is mounted\n",
				huge_dir);
	else if (ret < 0)
		fprintf(stderr, "fast_restart: --huge-dir %s: %s\n", huge_dir,
				strerror(-ret));
	return ret < 0 ? -1 : 0;
}

/* @return true if @p name is a page file of @p prefix: <prefix>map_<n>. */
static bool
is_page_file(const char *name, const char *prefix)
{
	size_t plen = strlen(prefix);
	const char *p = name + plen + 4;

	if (strncmp(name, prefix, plen) != 0 ||
			strncmp(name + plen, "map_", 4) != 0 || *p == '\0')
		return false;
	for (; *p != '\0'; p++)
		if (*p < '0' || *p > '9')
			return false;
	return true;
}

/* Add the page files of @p prefix in @p dir to @p t. */
static void
tally_dir(const char *dir, const char *prefix, struct fr_file_tally *t)
{
	DIR *dp = opendir(dir);
	struct dirent *de;
	struct stat st;

	if (dp == NULL)
		return;
	while ((de = readdir(dp)) != NULL) {
		if (!is_page_file(de->d_name, prefix))
			continue;
		t->files++;
		if (fstatat(dirfd(dp), de->d_name, &st, 0) == 0)
			t->bytes += (uint64_t)st.st_blocks * 512;
	}
	closedir(dp);
}

void
fr_files_tally(const struct fr_huge_dirs *d, const char *prefix,
		struct fr_file_tally *t)
{
	unsigned int i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < d->n; i++)
		tally_dir(d->path[i], prefix, t);
}

/* @return the number in @p file of the pages of size @p page_sz, or 0. */
static uint64_t
sysfs_read(uint64_t page_sz, const char *file)
{
	char path[128];
	unsigned long long n = 0;
	FILE *f;

	snprintf(path, sizeof(path), HP_SYSFS "/hugepages-%" PRIu64 "kB/%s",
			page_sz >> 10, file);
	f = fopen(path, "r");
	if (f == NULL)
		return 0;
	if (fscanf(f, "%llu", &n) != 1)
		n = 0;
	fclose(f);
	return n;
}

/* Bytes of hugepages a start could map in directory @p i of @p d. */
static uint64_t
dir_available(const struct fr_huge_dirs *d, unsigned int i, const char *prefix,
		bool verbose)
{
	struct fr_file_tally t = { 0, 0 };
	uint64_t n_free = sysfs_read(d->page_sz[i], "free_hugepages");
	uint64_t avail = n_free * d->page_sz[i];

	if (avail > d->limit_free[i])
		avail = d->limit_free[i];
	tally_dir(d->path[i], prefix, &t);
	if (verbose)
		fprintf(stderr,
				"  %s (%" PRIu64 " kB pages): %" PRIu64
				" free pages%s, %" PRIu64
				" MB in files of prefix '%s'\n",
				d->path[i], d->page_sz[i] >> 10, n_free,
				d->limit_free[i] == UINT64_MAX ?
						"" :
						" (less under the mount's size= limit)",
				t.bytes / FR_MB, prefix);
	return avail + t.bytes;
}

int
fr_huge_check_fit(const struct fr_huge_dirs *d, const char *prefix,
		uint64_t need_mb, const char *why)
{
	uint64_t avail = 0, smallest = UINT64_MAX, need, short_pages;
	unsigned int i;

	for (i = 0; i < d->n; i++) {
		avail += dir_available(d, i, prefix, false);
		if (d->page_sz[i] < smallest)
			smallest = d->page_sz[i];
	}
	need = (need_mb * FR_MB + smallest - 1) / smallest * smallest;
	if (avail >= need)
		return 0;
	fprintf(stderr,
			"fast_restart: each start maps %" PRIu64
			" MB of hugepages (%s), but only %" PRIu64
			" MB can be had:\n",
			need / FR_MB, why, avail / FR_MB);
	for (i = 0; i < d->n; i++)
		dir_available(d, i, prefix, true);
	short_pages = (need - avail + smallest - 1) / smallest;
	fprintf(stderr,
			"Give a smaller --size, or reserve %" PRIu64
			" more pages: echo %" PRIu64 " > %s/hugepages-%" PRIu64
			"kB/nr_hugepages (as root).\n",
			short_pages,
			sysfs_read(smallest, "nr_hugepages") + short_pages,
			HP_SYSFS, smallest >> 10);
	return -1;
}
