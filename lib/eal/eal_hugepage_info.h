/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _EAL_HUGEPAGE_INFO_H_
#define _EAL_HUGEPAGE_INFO_H_

/*
 * Hugepage discovery: which page sizes the kernel offers, how many pages of
 * each are free per NUMA node, and where hugetlbfs is mounted for each. All
 * of it is read under a root path ("/" in production, a fixture tree in
 * tests): <root>/sys/kernel/mm/hugepages, <root>/sys/devices/system/node,
 * <root>/proc/mounts and <root>/proc/meminfo.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <limits.h>

#include <rte_config.h>

#define EAL_MAX_PAGE_SIZES 4

/* One hugepage size. */
struct eal_hugepage_size {
	uint64_t page_sz; /* bytes */
	uint32_t total; /* nr_hugepages */
	uint32_t free; /* free_hugepages - resv_hugepages */
	uint32_t free_per_node[RTE_MAX_NUMA_NODES]; /* free_hugepages of node */
	char dir[PATH_MAX]; /* mount (or --huge-dir); "" if none */
	int64_t dir_uid; /* owner of dir; -1 if it could not be read */
	uint32_t dir_mode; /* its permission bits */
	bool dir_given; /* dir is the --huge-dir, not a mount found */
};

/* What the machine offers. Sizes are sorted from the largest down. */
struct eal_hugepage_info {
	unsigned int n_sizes; /* entries in sizes[] */
	struct eal_hugepage_size sizes[EAL_MAX_PAGE_SIZES];
	uint64_t default_page_sz; /* Hugepagesize from meminfo; 0 if none */
	unsigned int n_nodes; /* NUMA nodes found (at least 1) */
	int node_ids[RTE_MAX_NUMA_NODES]; /* their ids, ascending */
};

/*
 * Read the hugepage sizes, counts and mounts under @p root.
 *
 * free_per_node[] holds each node's free_hugepages as the kernel shows it
 * (the kernel keeps no per-node reserved count, so their sum can exceed
 * free); without per-node files, all of free is on node_ids[0].
 *
 * @param root
 *   "/" in production, a fixture tree in tests; NULL means "/".
 * @param huge_dir
 *   --huge-dir, or NULL/"": then for each size the first hugetlbfs mount
 *   (in /proc/mounts order) that the effective user owns is used, else
 *   the first one. A --huge-dir must exist, be a
 *   directory on hugetlbfs (statfs), and only its page size gets a dir.
 * @return
 *   0, or a negative errno with one line in @p err: -ENOENT (huge_dir
 *   missing), -ENOTDIR (huge_dir not a directory), -EINVAL (huge_dir not
 *   hugetlbfs), -EIO (a sysfs or procfs file unreadable, named).
 *   Finding no size, or no mount, is not an error here: see
 *   eal_hugepage_info_usable(). On error, *hpi is unspecified.
 */
int eal_hugepage_info_read(const char *root, const char *huge_dir,
		struct eal_hugepage_info *hpi, char *err, size_t err_len);

/*
 * Check that at least one page size has reserved pages and, when
 * @p need_mount (hugepage files, not --in-memory), a mount.
 *
 * @return 0, or -ENOENT with a line in @p err saying what to do: how to
 *   reserve pages (nr_hugepages), how to mount hugetlbfs, and that
 *   --no-huge exists.
 */
int eal_hugepage_info_usable(const struct eal_hugepage_info *hpi,
		bool need_mount, char *err, size_t err_len);

/*
 * Say which limit stopped the mapping of @p needed more pages of
 * @p hs->page_sz, as read now: the mount's size= (when @p hs->dir is
 * used, that is with hugepage files), the pool (free_hugepages minus
 * resv_hugepages), or, when both have room, a hugetlb cgroup limit. Each
 * with the free and needed page counts and what to do. Writes one clause
 * without a newline to @p buf.
 */
void eal_hugepage_shortage_describe(const struct eal_hugepage_size *hs,
		bool files, uint32_t needed, char *buf, size_t len);

/*
 * Log at INFO level, for each page size with pages reserved, the
 * directory its files go to, with its owner and mode.
 */
void eal_hugepage_info_log_dirs(const struct eal_hugepage_info *hpi);

/*
 * With --huge-unlink=never the files a process keeps must stay its own:
 * refuse a mount found in /proc/mounts that another user owns (or whose
 * owner cannot be read). A --huge-dir is the user's explicit choice and
 * is not checked here.
 *
 * @return 0, or -EACCES with a line in @p err naming the mount, its
 *   owner and what to do.
 */
int eal_hugepage_info_check_owner(
		const struct eal_hugepage_info *hpi, char *err, size_t err_len);

#endif /* _EAL_HUGEPAGE_INFO_H_ */
