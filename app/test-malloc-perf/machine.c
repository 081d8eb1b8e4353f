/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * The machine and the working directories.
 *
 * The benchmark works in two sub-directories of --huge-dir: "rtemem" and
 * "dpdk" (dpdk-test removes every unlocked *map_* file of its directory in
 * its default mode, so it gets one of its own). Both must be empty at
 * start, which also keeps two runs from sharing them; every file in them
 * is removed at the end, and every directory the run created too.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <linux/magic.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <rte_version.h>

#include "mperf.h"

#define HP_SYSFS "/sys/kernel/mm/hugepages"

void
mperf_progress(const struct mperf_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	if (ctx->progress == NULL)
		return;
	va_start(ap, fmt);
	vfprintf(ctx->progress, fmt, ap);
	va_end(ap);
	fflush(ctx->progress);
}

/* Read one number from a sysfs file. @return it, or -1. */
static long
sysfs_long(const char *path)
{
	long v = -1;
	FILE *f = fopen(path, "r");

	if (f == NULL)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static long
hugepages_read(uint64_t page_sz, const char *what)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), HP_SYSFS "/hugepages-%llukB/%s",
			(unsigned long long)(page_sz >> 10), what);
	return sysfs_long(path);
}

long
mperf_free_pages(const struct mperf_ctx *ctx)
{
	return hugepages_read(ctx->machine.page_sz, "free_hugepages");
}

static unsigned int
count_nodes(void)
{
	unsigned int n = 0, id;
	struct dirent *e;
	DIR *d = opendir("/sys/devices/system/node");

	if (d == NULL)
		return 1;
	while ((e = readdir(d)) != NULL)
		if (sscanf(e->d_name, "node%u", &id) == 1)
			n++;
	closedir(d);
	return n == 0 ? 1 : n;
}

static int
first_cpu(void)
{
	cpu_set_t set;
	int i;

	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return 0;
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &set))
			return i;
	return 0;
}

/* @return 1 if @p path is on hugetlbfs, 0 if not, -errno on error. */
static int
is_hugetlbfs(const char *path, uint64_t *page_sz)
{
	struct statfs st;

	if (statfs(path, &st) != 0)
		return -errno;
	*page_sz = (uint64_t)st.f_bsize;
	return st.f_type == (typeof(st.f_type))HUGETLBFS_MAGIC;
}

/* Make sure the hugetlbfs directory @p dir exists. @return 0 or -1. */
static int
huge_dir_check(const char *dir, uint64_t *page_sz, bool *created)
{
	char parent[PATH_MAX];
	int ret;

	*created = false;
	ret = is_hugetlbfs(dir, page_sz);
	if (ret == -ENOENT) {
		snprintf(parent, sizeof(parent), "%s", dir);
		if (is_hugetlbfs(dirname(parent), page_sz) != 1) {
			fprintf(stderr, "%s: --huge-dir %s: no such directory, and its parent is not on hugetlbfs\n",
					MPERF_PROG, dir);
			return -1;
		}
		if (mkdir(dir, 0700) != 0) {
			fprintf(stderr, "%s: --huge-dir: cannot create %s: %s\n",
					MPERF_PROG, dir, strerror(errno));
			return -1;
		}
		*created = true;
		ret = 1;
	}
	if (ret < 0) {
		fprintf(stderr, "%s: --huge-dir %s: %s\n", MPERF_PROG, dir,
				strerror(-ret));
		return -1;
	}
	if (ret == 0) {
		fprintf(stderr, "%s: --huge-dir %s is not on hugetlbfs (mount -t hugetlbfs nodev DIR)\n",
				MPERF_PROG, dir);
		return -1;
	}
	return 0;
}

/* Entries of @p dir but . and .., or -1 if unreadable. */
static int
dir_entries(const char *dir)
{
	struct dirent *e;
	int n = 0;
	DIR *d = opendir(dir);

	if (d == NULL)
		return -1;
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

/*
 * Create (or accept an empty) working sub-directory @p name of --huge-dir,
 * and only then give its path in @p dir: the cleanup empties the
 * directories named there, so never one that holds another run's files.
 * @return 0 or -1.
 */
static int
sub_dir_make(const char *huge_dir, const char *name, char *dir, size_t len,
		bool *created)
{
	char path[PATH_MAX];

	*created = false;
	snprintf(path, sizeof(path), "%s/%s", huge_dir, name);
	if (mkdir(path, 0700) == 0) {
		*created = true;
	} else if (errno != EEXIST) {
		fprintf(stderr, "%s: cannot create %s: %s\n", MPERF_PROG, path,
				strerror(errno));
		return -1;
	} else if (dir_entries(path) != 0) {
		fprintf(stderr, "%s: %s is not empty (left by an interrupted run, or in use by another one): remove its files or use another --huge-dir\n",
				MPERF_PROG, path);
		return -1;
	}
	snprintf(dir, len, "%s", path);
	return 0;
}

int
mperf_machine_setup(struct mperf_ctx *ctx)
{
	struct mperf_machine *m = &ctx->machine;
	struct utsname u;

	if (huge_dir_check(ctx->opts.huge_dir, &m->page_sz,
			    &ctx->huge_dir_created) < 0)
		return -1;
	if (uname(&u) == 0)
		snprintf(m->kernel, sizeof(m->kernel), "%.64s %.64s", u.sysname,
				u.release);
	snprintf(m->rtemem_version, sizeof(m->rtemem_version), "%s",
			rte_version());
	m->total_pages = hugepages_read(m->page_sz, "nr_hugepages");
	m->free_pages = hugepages_read(m->page_sz, "free_hugepages");
	m->free_pages_end = -1;
	m->n_nodes = count_nodes();
	m->cpu = first_cpu();
	if (m->free_pages < 0) {
		fprintf(stderr, "%s: cannot read the free %llu kB hugepages in %s\n",
				MPERF_PROG,
				(unsigned long long)(m->page_sz >> 10),
				HP_SYSFS);
		return -1;
	}
	snprintf(ctx->prefix, sizeof(ctx->prefix), "mperf%ld", (long)getpid());
	if (sub_dir_make(ctx->opts.huge_dir, "rtemem", ctx->rt_dir,
			    sizeof(ctx->rt_dir), &ctx->rt_dir_created) < 0)
		return -1;
	if (ctx->opts.compare_dpdk &&
			sub_dir_make(ctx->opts.huge_dir, "dpdk", ctx->dpdk_dir,
					sizeof(ctx->dpdk_dir),
					&ctx->dpdk_dir_created) < 0)
		return -1;
	return 0;
}

int
mperf_dir_clear(const char *dir)
{
	struct dirent *e;
	int left = 0;
	DIR *d = opendir(dir);

	if (d == NULL)
		return errno == ENOENT ? 0 : 1;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (unlinkat(dirfd(d), e->d_name, 0) != 0) {
			fprintf(stderr, "%s: cannot remove %s/%s: %s\n",
					MPERF_PROG, dir, e->d_name,
					strerror(errno));
			left++;
		}
	}
	closedir(d);
	return left;
}

static int
dir_remove(const char *dir, bool created)
{
	if (!created || rmdir(dir) == 0 || errno == ENOENT)
		return 0;
	fprintf(stderr, "%s: cannot remove %s: %s\n", MPERF_PROG, dir,
			strerror(errno));
	return -1;
}

int
mperf_machine_cleanup(struct mperf_ctx *ctx)
{
	struct mperf_machine *m = &ctx->machine;
	int ret = 0;

	if (ctx->rt_dir[0] != '\0' && mperf_dir_clear(ctx->rt_dir) != 0)
		ret = -1;
	if (ctx->dpdk_dir[0] != '\0' && mperf_dir_clear(ctx->dpdk_dir) != 0)
		ret = -1;
	mperf_dpdk_cleanup(ctx);
	if (dir_remove(ctx->rt_dir, ctx->rt_dir_created) < 0 ||
			dir_remove(ctx->dpdk_dir, ctx->dpdk_dir_created) < 0 ||
			dir_remove(ctx->opts.huge_dir, ctx->huge_dir_created) <
					0)
		ret = -1;
	if (m->page_sz == 0)
		return ret;
	m->free_pages_end = mperf_free_pages(ctx);
	if (m->free_pages_end >= 0 && m->free_pages_end < m->free_pages)
		fprintf(stderr, "%s: warning: %ld free %llu kB hugepages at the end, %ld at the start (pages held by other processes, or files left somewhere)\n",
				MPERF_PROG, m->free_pages_end,
				(unsigned long long)(m->page_sz >> 10),
				m->free_pages);
	return ret;
}
