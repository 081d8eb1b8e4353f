/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * --memzone-image-strategy=direct: O_DIRECT reads, which move a cold
 * image from the disk into the memory without the page cache's extra
 * copy. The checked descriptor is opened again through /proc/self/fd
 * (O_DIRECT is a property of the open file), and its inode compared. A
 * chunk that does not start and end on 4 KB goes through a bounce buffer.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_common.h>

#include "malloc_image_restore.h"
#include "malloc_image_threads.h"

#define DIRECT_ALIGN 4096U

static int
direct_reopen(const struct rte_memzone_image *img)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", img->fd);
	return open(path, O_RDONLY | O_CLOEXEC | O_DIRECT);
}

bool
malloc_image_direct_works(const struct rte_memzone_image *img)
{
	int fd = direct_reopen(img);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

static int
direct_open(struct malloc_image_reader *r, char *err, size_t len)
{
	const struct rte_memzone_image *img = r->img;
	struct stat a, b;

	r->fd = direct_reopen(img);
	if (r->fd < 0 && errno == EINVAL)
		return malloc_image_err_out(err, len, -EINVAL,
				"--memzone-image-strategy=direct: the file "
				"system of %s does not take O_DIRECT",
				img->path);
	if (r->fd < 0)
		return malloc_image_err_out(err, len, -errno,
				"--memzone-image: cannot open %s again: %s",
				img->path, strerror(errno));
	if (fstat(img->fd, &a) < 0 || fstat(r->fd, &b) < 0 ||
			a.st_dev != b.st_dev || a.st_ino != b.st_ino)
		return malloc_image_err_out(err, len, -ESTALE,
				"--memzone-image: %s changed while it was read",
				img->path);
	return 0;
}

static int
direct_read(const struct malloc_image_reader *r,
		const struct malloc_image_chunk *c, void *bounce)
{
	uint64_t len = RTE_ALIGN_CEIL((uint64_t)c->len, (uint64_t)DIRECT_ALIGN);
	int ret;

	if (c->addr % DIRECT_ALIGN == 0 && c->len % DIRECT_ALIGN == 0)
		return malloc_image_pread(r->fd, (void *)(uintptr_t)c->addr,
				c->len, c->off);
	ret = malloc_image_pread(r->fd, bounce, len, c->off);
	if (ret == 0)
		memcpy((void *)(uintptr_t)c->addr, bounce, c->len);
	return ret;
}

static void
direct_close(struct malloc_image_reader *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
}

const struct malloc_image_strategy malloc_image_by_direct = {
	.id = EAL_IMAGE_DIRECT,
	.fill = EAL_MAP_POPULATED,
	.bounce_len = MALLOC_IMAGE_CHUNK + DIRECT_ALIGN,
	.open = direct_open,
	.read = direct_read,
	.close = direct_close,
};
