/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * --memzone-image-strategy=pread: one pread() per chunk, straight into
 * the memory. The kernel copies from the page cache once, reading the
 * disk first when the image is cold. It reads the descriptor that was
 * checked at open, so a save renaming a new image onto the path meanwhile
 * cannot slip other bytes under the checked metadata.
 */

#include "malloc_image_restore.h"

static int
pread_open(struct malloc_image_reader *r, char *err, size_t len)
{
	RTE_SET_USED(err);
	RTE_SET_USED(len);
	r->fd = r->img->fd;
	return 0;
}

static int
pread_read(const struct malloc_image_reader *r,
		const struct malloc_image_chunk *c, void *bounce)
{
	RTE_SET_USED(bounce);
	return malloc_image_pread(
			r->fd, (void *)(uintptr_t)c->addr, c->len, c->off);
}

static void
pread_close(struct malloc_image_reader *r)
{
	r->fd = -1; /* the image's own */
}

const struct malloc_image_strategy malloc_image_by_pread = {
	.id = EAL_IMAGE_PREAD,
	.fill = EAL_MAP_POPULATED,
	.open = pread_open,
	.read = pread_read,
	.close = pread_close,
};
