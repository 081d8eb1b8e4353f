/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Runtime directories (see eal_runtime.h). Each part of the path below
 * the system's base (/var/run, $XDG_RUNTIME_DIR or /tmp) is made with
 * mode 0700 or checked with lstat(): a link, another user's directory or
 * one open to others would let someone else read or replace the files.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "eal_os.h"
#include "eal_runtime.h"

#define RUNTIME_CONFIG "config"

int
eal_runtime_dir_path(const char *prefix, char *buf, size_t len)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	int n;

	if (geteuid() == 0)
		n = snprintf(buf, len, "/var/run/rtemem/%s", prefix);
	else if (xdg != NULL && xdg[0] == '/')
		n = snprintf(buf, len, "%s/rtemem/%s", xdg, prefix);
	else
		n = snprintf(buf, len, "/tmp/rtemem-%u/%s",
				(unsigned int)geteuid(), prefix);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* Make @p dir (mode 0700) or check that the existing one is ours alone. */
static int
runtime_mkdir(const char *dir, char *err, size_t err_len)
{
	struct stat st;

	if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
		snprintf(err, err_len,
				"cannot create the runtime directory %s: %s",
				dir, strerror(errno));
		return -errno;
	}
	if (lstat(dir, &st) != 0) {
		snprintf(err, err_len, "cannot read %s: %s", dir,
				strerror(errno));
		return -errno;
	}
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
			(st.st_mode & 077) != 0) {
		snprintf(err, err_len,
				"runtime directory %s is not yours alone (%s, "
				"owner uid %u, mode %04o): remove it, or use "
				"another --file-prefix or --no-shconf",
				dir,
				S_ISDIR(st.st_mode) ? "a directory" :
						      "not a directory",
				(unsigned int)st.st_uid,
				(unsigned int)(st.st_mode & 07777));
		return -EACCES;
	}
	return 0;
}

/* Make every part of @p path below the system's base directory. */
static int
runtime_mkdirs(const char *path, char *err, size_t err_len)
{
	char part[PATH_MAX];
	const char *base = geteuid() == 0 ? "/var/run" :
					    getenv("XDG_RUNTIME_DIR");
	size_t i = 0;
	int ret;

	if (base != NULL && base[0] == '/' &&
			strncmp(path, base, strlen(base)) == 0)
		i = strlen(base) + 1;
	else
		i = strlen("/tmp/");
	for (; path[i] != '\0'; i++) {
		if (path[i] != '/')
			continue;
		memcpy(part, path, i);
		part[i] = '\0';
		ret = runtime_mkdir(part, err, err_len);
		if (ret < 0)
			return ret;
	}
	return runtime_mkdir(path, err, err_len);
}

/* @return true if @p path still names the file open as @p fd. */
static bool
runtime_same_file(int fd, const char *path)
{
	struct stat a, b;

	return fstat(fd, &a) == 0 && stat(path, &b) == 0 &&
			a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* Set @p rt's directory for @p prefix. @return 0, or -ENAMETOOLONG. */
static int
runtime_dir_set(struct eal_runtime *rt, const char *prefix, char *err,
		size_t err_len)
{
	if (eal_runtime_dir_path(prefix, rt->dir, sizeof(rt->dir)) == 0)
		return 0;
	snprintf(err, err_len,
			"runtime directory of prefix '%s': path too long",
			prefix);
	rt->dir[0] = '\0';
	return -ENAMETOOLONG;
}

int
eal_runtime_open(struct eal_runtime *rt, const char *prefix, char *err,
		size_t err_len)
{
	char path[PATH_MAX + 16];
	int fd, ret;

	rt->config_fd = -1;
	ret = runtime_dir_set(rt, prefix, err, err_len);
	if (ret < 0)
		return ret;
	ret = runtime_mkdirs(rt->dir, err, err_len);
	if (ret < 0) {
		rt->dir[0] = '\0';
		return ret;
	}
	snprintf(path, sizeof(path), "%s/" RUNTIME_CONFIG, rt->dir);
	for (;;) {
		fd = open(path,
				O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK |
						O_CLOEXEC,
				0600);
		if (fd < 0) {
			ret = -errno;
			snprintf(err, err_len, "cannot create %s: %s", path,
					strerror(-ret));
			rt->dir[0] = '\0';
			return ret;
		}
		ret = eal_os_trylock(fd, true);
		/* A primary that was exiting removed the file we locked. */
		if (ret == 0 && !runtime_same_file(fd, path)) {
			close(fd);
			continue;
		}
		break;
	}
	if (ret < 0) {
		close(fd);
		if (ret == -EWOULDBLOCK)
			snprintf(err, err_len,
					"file prefix '%s' is in use by another process "
					"(its primary holds %s): use another "
					"--file-prefix",
					prefix, path);
		else
			snprintf(err, err_len, "cannot lock %s: %s", path,
					strerror(-ret));
		rt->dir[0] = '\0';
		return ret == -EWOULDBLOCK ? -EBUSY : ret;
	}
	rt->config_fd = fd;
	return 0;
}

int
eal_runtime_attach(struct eal_runtime *rt, const char *prefix, char *err,
		size_t err_len)
{
	char path[PATH_MAX + 16];
	struct stat st;
	int fd;

	rt->config_fd = -1;
	rt->secondary = true;
	fd = runtime_dir_set(rt, prefix, err, err_len);
	if (fd < 0)
		return fd;
	snprintf(path, sizeof(path), "%s/" RUNTIME_CONFIG, rt->dir);
	fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		int ret = -errno;

		snprintf(err, err_len, "cannot open %s: %s", path,
				strerror(-ret));
		rt->dir[0] = '\0';
		return ret;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
			st.st_uid != geteuid() || (st.st_mode & 077) != 0) {
		snprintf(err, err_len,
				"%s is not a config file of yours alone: not "
				"attaching to it",
				path);
		close(fd);
		rt->dir[0] = '\0';
		return -EACCES;
	}
	rt->config_fd = fd;
	return 0;
}

void
eal_runtime_close(struct eal_runtime *rt)
{
	char path[PATH_MAX + 16];

	if (rt->config_fd < 0)
		return;
	if (rt->secondary) {
		close(rt->config_fd);
		rt->config_fd = -1;
		rt->dir[0] = '\0';
		return;
	}
	snprintf(path, sizeof(path), "%s/" RUNTIME_CONFIG, rt->dir);
	/* Unlinked while locked: a starting primary then locks a new file. */
	unlink(path);
	close(rt->config_fd);
	rt->config_fd = -1;
	rmdir(rt->dir);
	rt->dir[0] = '\0';
}

int
eal_runtime_alive(const char *path)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return 0;
	ret = eal_os_trylock(fd, false);
	close(fd);
	return ret == -EWOULDBLOCK ? 1 : 0;
}
