/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Reading the small files of /proc and /sys the remap looks at, with
 * read() into the caller's buffer: no stdio, whose buffers come from
 * malloc(), whose heap may be among what is moved.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "hugetext_priv.h"

int
ht_file_read(const char *path, char *buf, size_t cap, size_t *len)
{
	size_t off = 0;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	do {
		n = read(fd, buf + off, cap - 1 - off);
		if (n > 0)
			off += (size_t)n;
	} while ((n > 0 || (n < 0 && errno == EINTR)) && off < cap - 1);
	close(fd);
	if (n < 0)
		return -EIO;
	if (off >= cap - 1)
		return -E2BIG;
	buf[off] = '\0';
	if (len != NULL)
		*len = off;
	return 0;
}

unsigned long long
ht_file_number(const char *path)
{
	char buf[64];

	if (ht_file_read(path, buf, sizeof(buf), NULL) != 0)
		return 0;
	return strtoull(buf, NULL, 10);
}
