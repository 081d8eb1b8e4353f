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
 *
 * Nothing found in the directory is trusted: another user may create
 * entries with our names in a shared mount. Every entry is opened without
 * following a symbolic link and without blocking (a FIFO would block an
 * open forever), and is used only if it is a regular file that the
 * effective user owns with no group or other access bits. Anything else
 * is never truncated, mapped or locked as ours; it is removed only as a
 * stale entry of a directory the user owns.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_common.h>

#include "eal_hugefile.h"
#include "eal_log.h"
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

/*
 * After a failed start: the same, and the files the start made (or found
 * without data) go, whatever the mode: they would hold pages for nobody.
 */
static const struct eal_hugefile_policy hugefile_failed_policies[] = {
	[EAL_HUGE_UNLINK_EXISTING] = {
		.clear_stale = true,
		.unlink_on_free = true,
		.unlink_at_exit = true,
		.unlink_fresh_at_exit = true,
	},
	[EAL_HUGE_UNLINK_ALWAYS] = {
		.clear_stale = true,
		.unlink_after_map = true,
		.unlink_fresh_at_exit = true,
	},
	[EAL_HUGE_UNLINK_NEVER] = {
		.reuse = true,
		.unlink_fresh_at_exit = true,
	},
};

static const struct eal_hugefile_policy hugefile_secondary_policies[] = {
	[EAL_HUGE_UNLINK_EXISTING] = {
		.unlink_on_free = true,
	},
	[EAL_HUGE_UNLINK_ALWAYS] = {
		.unlink_after_map = true,
	},
	[EAL_HUGE_UNLINK_NEVER] = {
		.reuse = true,
	},
};

const struct eal_hugefile_policy *
eal_hugefile_policy_secondary(enum eal_huge_unlink mode)
{
	return &hugefile_secondary_policies[mode];
}

const struct eal_hugefile_policy *
eal_hugefile_policy_get(enum eal_huge_unlink mode)
{
	return &hugefile_policies[mode];
}

const struct eal_hugefile_policy *
eal_hugefile_policy_failed(enum eal_huge_unlink mode)
{
	return &hugefile_failed_policies[mode];
}

void
eal_hugefile_path(char *buf, size_t len, const char *dir, const char *prefix,
		unsigned int id)
{
	snprintf(buf, len, "%s/%smap_%u", dir, prefix, id);
}

void
eal_hugefile_name(char *buf, size_t len, const char *prefix, unsigned int id)
{
	snprintf(buf, len, "%smap_%u", prefix, id);
}

static void
hugefile_lock_path(char *buf, size_t len, const char *dir, const char *prefix)
{
	snprintf(buf, len, "%s/%s.lock", dir, prefix);
}

/* The flags of every open of an entry of the directory. */
#define HUGEFILE_OPEN_FLAGS (O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)

/*
 * Whether the open @p fd is ours to use: 0; -EACCES for a file of ours
 * that others may open; -EPERM for anything else. What it is goes to
 * @p why ("a FIFO", "owned by uid 1000", ...). The same fstat() gives
 * the size and allocated bytes to @p f, if not NULL: one call per page.
 */
static int
hugefile_check_fd(int fd, char *why, size_t len, struct eal_hugefile_found *f)
{
	struct stat st;

	if (fstat(fd, &st) != 0)
		return -errno;
	if (f != NULL) {
		f->size = (uint64_t)st.st_size;
		/* st_blocks counts 512-byte units, whatever the file system. */
		f->allocated = (uint64_t)st.st_blocks * 512;
	}
	if (S_ISDIR(st.st_mode))
		snprintf(why, len, "a directory");
	else if (S_ISFIFO(st.st_mode))
		snprintf(why, len, "a FIFO");
	else if (!S_ISREG(st.st_mode))
		snprintf(why, len, "not a regular file (mode 0%o)",
				(unsigned int)st.st_mode);
	else if (st.st_uid != geteuid())
		snprintf(why, len, "owned by uid %u", (unsigned int)st.st_uid);
	else if ((st.st_mode & 077) != 0) {
		snprintf(why, len, "open to other users (mode %04o)",
				(unsigned int)(st.st_mode & 07777));
		return -EACCES;
	} else {
		return 0;
	}
	return -EPERM;
}

/*
 * Open an existing entry as ours: the descriptor, -ENOENT, or -EPERM or
 * -EACCES (see hugefile_check_fd()) with what the entry is in @p why.
 */
static int
hugefile_open_ours(int dirfd, const char *path, int flags, char *why,
		size_t len, struct eal_hugefile_found *f)
{
	int fd = openat(dirfd, path, flags | HUGEFILE_OPEN_FLAGS), ret;

	if (fd < 0) {
		ret = -errno;
		if (ret == -ELOOP)
			snprintf(why, len, "a symbolic link");
		else if (ret == -EISDIR)
			snprintf(why, len, "a directory");
		else if (ret == -EACCES)
			snprintf(why, len, "another user's (no access)");
		else
			return ret;
		return -EPERM;
	}
	ret = hugefile_check_fd(fd, why, len, f);
	if (ret < 0) {
		close(fd);
		return ret;
	}
	return fd;
}

/* Create @p path as a new file of ours: the descriptor, or -errno. */
static int
hugefile_create(int dirfd, const char *path)
{
	int fd = openat(dirfd, path,
			O_RDWR | O_CREAT | O_EXCL | HUGEFILE_OPEN_FLAGS, 0600);

	return fd < 0 ? -errno : fd;
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
	char path[PATH_MAX], why[64];
	int fd, ret;

	hugefile_lock_path(path, sizeof(path), dir, prefix);
	for (;;) {
		fd = hugefile_open_ours(
				AT_FDCWD, path, O_RDWR, why, sizeof(why), NULL);
		if (fd == -ENOENT)
			fd = hugefile_create(AT_FDCWD, path);
		if (fd == -EEXIST)
			continue; /* created meanwhile: open it */
		if (fd == -EPERM || fd == -EACCES) {
			snprintf(err, err_len,
					"cannot lock file prefix '%s': %s is %s, "
					"not a lock file of yours: remove it or use "
					"another --file-prefix",
					prefix, path, why);
			return -EACCES;
		}
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

static int hugefile_layout_write(
		const char *dir, const char *prefix, bool single, bool keep);

/* Whether @p dir holds a page file of @p prefix. */
static bool
hugefile_any(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	unsigned int id;
	bool found = false;

	if (d == NULL)
		return true; /* unknown: keep the record */
	while (!found && (de = readdir(d)) != NULL)
		found = eal_hugefile_match(de->d_name, prefix, &id);
	closedir(d);
	return found;
}

void
eal_hugefile_prefix_unlock(
		int fd, const char *dir, const char *prefix, bool left)
{
	char path[PATH_MAX];

	if (fd < 0)
		return;
	/* The record of the kept files' layout goes with the last one. */
	if (!left && !hugefile_any(dir, prefix)) {
		hugefile_layout_write(dir, prefix, false, false);
		hugefile_layout_write(dir, prefix, true, false);
	}
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
hugefile_try_open_locked(int dirfd, const char *path, bool expect_existing,
		struct eal_hugefile_found *f)
{
	int fd = -ENOENT, ret;

	f->created = false;
	f->size = f->allocated = 0;
	if (expect_existing)
		fd = hugefile_open_ours(
				dirfd, path, O_RDWR, f->why, sizeof(f->why), f);
	if (fd == -ENOENT) {
		fd = hugefile_create(dirfd, path);
		f->created = fd >= 0;
		if (fd == -EEXIST)
			fd = hugefile_open_ours(dirfd, path, O_RDWR, f->why,
					sizeof(f->why), f);
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

/* @p path under @p dir (NULL: @p path is whole), for messages. */
static const char *
hugefile_shown(const char *dir, const char *path, char *buf, size_t len)
{
	if (dir == NULL)
		return path;
	snprintf(buf, len, "%s/%s", dir, path);
	return buf;
}

int
eal_hugefile_open_locked(int dirfd, const char *dir, const char *path,
		bool reuse, struct eal_hugefile_found *f)
{
	char shown[PATH_MAX];
	int fd;

	f->why[0] = '\0';
	fd = hugefile_try_open_locked(dirfd, path, reuse, f);
	/*
	 * A file of ours that others may have read or mapped: never reuse
	 * its data; being ours, it may go. Anything else stays as it is.
	 */
	if (fd == -EACCES) {
		EAL_LOG(WARNING, "%s is %s: replaced by a new file",
				hugefile_shown(dir, path, shown, sizeof(shown)),
				f->why);
		if (eal_os_unlinkat(dirfd, path) < 0)
			return -EPERM;
		fd = hugefile_try_open_locked(dirfd, path, false, f);
		return fd == -EACCES ? -EPERM : fd;
	}
	if (fd < 0 || f->created || reuse)
		return fd;
	/* A leftover nobody holds: never reuse it, start afresh. */
	eal_os_unlinkat(dirfd, path);
	eal_os_close(fd);
	return hugefile_try_open_locked(dirfd, path, false, f);
}

/*
 * Remove the stale entry @p name of a directory: a file of ours unless a
 * live process holds it, or, when @p dir_ours, whatever it is (an empty
 * directory too). @return 1 if removed, 0 if kept.
 */
static int
hugefile_try_remove(int dfd, const char *name, bool dir_ours, const char *dir)
{
	int fd = openat(dfd, name, O_RDONLY | HUGEFILE_OPEN_FLAGS);
	char why[64] = "not openable";
	bool ours = false, held = false;

	if (fd >= 0) {
		/* Ours even if open to others: a stale file of ours goes. */
		ours = hugefile_check_fd(fd, why, sizeof(why), NULL) != -EPERM;
		held = eal_os_trylock(fd, true) != 0;
		eal_os_close(fd);
	} else if (errno == ELOOP) {
		snprintf(why, sizeof(why), "a symbolic link");
	} else if (errno == EISDIR) {
		snprintf(why, sizeof(why), "a directory");
	} else if (errno == EACCES) {
		snprintf(why, sizeof(why), "another user's (no access)");
	}
	if (held)
		return 0;
	if (ours)
		return unlinkat(dfd, name, 0) == 0;
	if (dir_ours &&
			(unlinkat(dfd, name, 0) == 0 ||
					unlinkat(dfd, name, AT_REMOVEDIR) ==
							0)) {
		EAL_LOG(INFO, "removed %s/%s, %s, from your directory", dir,
				name, why);
		return 1;
	}
	EAL_LOG(WARNING,
			"%s/%s has a name of this prefix but is %s: left as "
			"it is, its page slot is served from anonymous memory",
			dir, name, why);
	return 0;
}

int
eal_hugefile_clear_stale(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct stat st;
	unsigned int id;
	bool dir_ours;
	int n = 0;

	if (d == NULL)
		return -errno;
	dir_ours = fstat(dirfd(d), &st) == 0 && st.st_uid == geteuid();
	while ((de = readdir(d)) != NULL) {
		if (eal_hugefile_match(de->d_name, prefix, &id))
			n += hugefile_try_remove(
					dirfd(d), de->d_name, dir_ours, dir);
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
		if (!eal_hugefile_match(de->d_name, prefix, &id) ||
				(de->d_type != DT_REG &&
						de->d_type != DT_UNKNOWN))
			continue;
		if (!single_file)
			n++;
		else if (fstatat(dirfd(d), de->d_name, &st, 0) == 0)
			n += (int)((uint64_t)st.st_blocks * 512 / page_sz);
	}
	closedir(d);
	return n;
}

/*
 * The layout is in the name of an empty file, <prefix>.layout-page or
 * <prefix>.layout-single: hugetlbfs files cannot be written to.
 */
static const char *const hugefile_layouts[] = { "page", "single" };

static void
hugefile_layout_path(char *buf, size_t len, const char *dir, const char *prefix,
		bool single)
{
	snprintf(buf, len, "%s/%s.layout-%s", dir, prefix,
			hugefile_layouts[single]);
}

/* The recorded layout: 0 per page, 1 single, -1 none. */
static int
hugefile_layout_read(const char *dir, const char *prefix)
{
	char path[PATH_MAX], why[64];
	int l, fd;

	for (l = 1; l >= 0; l--) {
		hugefile_layout_path(path, sizeof(path), dir, prefix, l);
		fd = hugefile_open_ours(AT_FDCWD, path, O_RDONLY, why,
				sizeof(why), NULL);
		if (fd >= 0) {
			close(fd);
			return l;
		}
	}
	return -1;
}

/* Record @p single (with @p keep) or nothing; @return 0 or -errno. */
static int
hugefile_layout_write(
		const char *dir, const char *prefix, bool single, bool keep)
{
	char path[PATH_MAX];
	int fd;

	hugefile_layout_path(path, sizeof(path), dir, prefix, !single);
	if (unlink(path) != 0 && errno != ENOENT)
		return -errno;
	hugefile_layout_path(path, sizeof(path), dir, prefix, single);
	if (!keep)
		return unlink(path) != 0 && errno != ENOENT ? -errno : 0;
	fd = hugefile_create(AT_FDCWD, path);
	if (fd == -EEXIST)
		return 0;
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

/* Remove every file of @p prefix in @p dir: @return how many. */
static int
hugefile_remove_all(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	unsigned int id;
	int n = 0;

	if (d == NULL)
		return -errno;
	while ((de = readdir(d)) != NULL)
		if (eal_hugefile_match(de->d_name, prefix, &id))
			n += hugefile_try_remove(
					dirfd(d), de->d_name, false, dir);
	closedir(d);
	return n;
}

int
eal_hugefile_layout_check(
		const char *dir, const char *prefix, bool single, bool keep)
{
	int old = hugefile_layout_read(dir, prefix), n = 0, ret;

	if (old >= 0 && old != (int)single) {
		n = hugefile_remove_all(dir, prefix);
		if (n > 0)
			EAL_LOG(INFO,
					"removed %d files of prefix '%s' in %s: "
					"they were kept %s, and this start uses %s",
					n, prefix, dir,
					old ? "with one file per memseg list" :
					      "with one file per page",
					single ? "one file per memseg list" :
						 "one file per page");
	}
	ret = hugefile_layout_write(dir, prefix, single, keep);
	return ret < 0 ? ret : n;
}

int
eal_hugefile_holds(int dirfd, const char *dir, const char *name, uint64_t size,
		char *why, size_t why_len)
{
	char shown[PATH_MAX];
	struct stat st;

	/* The path is made only for a message: a restart checks every page. */
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		snprintf(why, why_len, "%s is missing",
				hugefile_shown(dir, name, shown,
						sizeof(shown)));
	else if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
			(st.st_mode & 077) != 0)
		snprintf(why, why_len, "%s is not a hugepage file of yours",
				hugefile_shown(dir, name, shown,
						sizeof(shown)));
	else if ((uint64_t)st.st_size < size || st.st_blocks == 0)
		snprintf(why, why_len,
				"%s holds %" PRIu64 " bytes, %" PRIu64
				" were kept there",
				hugefile_shown(dir, name, shown, sizeof(shown)),
				st.st_blocks == 0 ? 0 : (uint64_t)st.st_size,
				size);
	else
		return 0;
	return -1;
}

int
eal_hugefile_open_peer(int dirfd, const char *path, uint64_t size)
{
	struct stat st;
	int fd = openat(dirfd, path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
			st.st_uid != geteuid() || (st.st_mode & 077) != 0 ||
			(uint64_t)st.st_size < size) {
		eal_os_close(fd);
		return -EPERM;
	}
	return fd;
}
