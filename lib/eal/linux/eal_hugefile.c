/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Hugepage file names, policies and locks (see eal_hugefile.h).
 *
 * The prefix lock file is created in the hugetlbfs directory itself, next
 * to the files it protects: whatever runtime directory or --no-shconf a
 * process uses, two processes that could touch the same files meet on the
 * same lock. The file is empty, so it holds no hugepage. Unlinking a lock
 * file races with a process that opened it just before: after locking, the
 * locker checks that the path still names the file it locked.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_common.h>

#include "eal_hugefile.h"
#include "eal_os.h"

static const struct eal_hugefile_policy hugefile_policies[] = {
	[EAL_HUGE_UNLINK_EXISTING] = {
		.clear_stale = true,
		.unlink_on_free = true,
		.unlink_at_exit = true,
	},
	[EAL_HUGE_UNLINK_ALWAYS] = {
		.clear_stale = true,
		.unlink_after_map = true,
	},
	[EAL_HUGE_UNLINK_NEVER] = {
		.reuse = true,
	},
};

const struct eal_hugefile_policy *
eal_hugefile_policy_get(enum eal_huge_unlink mode)
{
	return &hugefile_policies[mode];
}

void
eal_hugefile_path(char *buf, size_t len, const char *dir, const char *prefix,
		unsigned int id)
{
	snprintf(buf, len, "%s/%smap_%u", dir, prefix, id);
}

static void
hugefile_lock_path(char *buf, size_t len, const char *dir, const char *prefix)
{
	snprintf(buf, len, "%s/%s.lock", dir, prefix);
}

/* @return true if @p path still names the file open as @p fd. */
static bool
hugefile_same_file(int fd, const char *path)
{
	struct stat a, b;

	return fstat(fd, &a) == 0 && stat(path, &b) == 0 &&
			a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

int
eal_hugefile_prefix_lock(
		const char *dir, const char *prefix, char *err, size_t err_len)
{
	char path[PATH_MAX];
	int fd, ret;

	hugefile_lock_path(path, sizeof(path), dir, prefix);
	for (;;) {
		fd = eal_os_open(path, O_RDWR | O_CREAT, 0600);
		if (fd < 0) {
			snprintf(err, err_len, "cannot create %s: %s", path,
					strerror(-fd));
			return fd;
		}
		ret = eal_os_trylock(fd, true);
		if (ret == 0 && hugefile_same_file(fd, path))
			return fd;
		eal_os_close(fd);
		if (ret == -EWOULDBLOCK) {
			snprintf(err, err_len,
					"file prefix '%s' is in use by another process in %s: use another --file-prefix",
					prefix, dir);
			return -EBUSY;
		}
		if (ret < 0) {
			snprintf(err, err_len, "cannot lock %s: %s", path,
					strerror(-ret));
			return ret;
		}
		/* The holder removed the file between open and lock: retry. */
	}
}

void
eal_hugefile_prefix_unlock(int fd, const char *dir, const char *prefix)
{
	char path[PATH_MAX];

	if (fd < 0)
		return;
	hugefile_lock_path(path, sizeof(path), dir, prefix);
	eal_os_unlink(path);
	eal_os_close(fd);
}

bool
eal_hugefile_match(const char *name, const char *prefix, unsigned int *id)
{
	size_t plen = strlen(prefix);
	const char *num;
	char *end;
	unsigned long v;

	if (strncmp(name, prefix, plen) != 0 ||
			strncmp(name + plen, "map_", 4) != 0)
		return false;
	num = name + plen + 4;
	if (*num < '0' || *num > '9')
		return false;
	errno = 0;
	v = strtoul(num, &end, 10);
	if (*end != '\0' || errno != 0 || v > UINT32_MAX)
		return false;
	*id = (unsigned int)v;
	return true;
}

static int
hugefile_try_open_locked(const char *path, bool expect_existing, bool *created)
{
	int fd = -ENOENT, ret;

	*created = false;
	if (expect_existing)
		fd = eal_os_open(path, O_RDWR, 0);
	if (fd == -ENOENT) {
		fd = eal_os_open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
		*created = fd >= 0;
		if (fd == -EEXIST)
			fd = eal_os_open(path, O_RDWR, 0);
	}
	if (fd < 0)
		return fd;
	ret = eal_os_trylock(fd, true);
	if (ret < 0) {
		eal_os_close(fd);
		return ret == -EWOULDBLOCK ? -EBUSY : ret;
	}
	return fd;
}

int
eal_hugefile_open_locked(const char *path, bool reuse, bool *created)
{
	int fd = hugefile_try_open_locked(path, reuse, created);

	if (fd < 0 || *created || reuse)
		return fd;
	/* A leftover nobody holds: never reuse it, start afresh. */
	eal_os_unlink(path);
	eal_os_close(fd);
	return hugefile_try_open_locked(path, false, created);
}

/* Remove one stale file unless a live process holds it. */
static bool
hugefile_try_remove(int dfd, const char *name)
{
	int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC);
	bool removed = false;

	if (fd < 0)
		return false;
	if (eal_os_trylock(fd, true) == 0)
		removed = unlinkat(dfd, name, 0) == 0;
	eal_os_close(fd);
	return removed;
}

int
eal_hugefile_clear_stale(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	unsigned int id;
	int n = 0;

	if (d == NULL)
		return -errno;
	while ((de = readdir(d)) != NULL) {
		if (eal_hugefile_match(de->d_name, prefix, &id) &&
				hugefile_try_remove(dirfd(d), de->d_name))
			n++;
	}
	closedir(d);
	return n;
}

int
eal_hugefile_count_pages(const char *dir, const char *prefix, uint64_t page_sz,
		bool single_file)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct stat st;
	unsigned int id;
	int n = 0;

	if (d == NULL)
		return -errno;
	while ((de = readdir(d)) != NULL) {
		if (!eal_hugefile_match(de->d_name, prefix, &id))
			continue;
		if (!single_file)
			n++;
		else if (fstatat(dirfd(d), de->d_name, &st, 0) == 0)
			n += (int)((uint64_t)st.st_blocks * 512 / page_sz);
	}
	closedir(d);
	return n;
}
