/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * --memzone-image-strategy=mmap: the image mapped read-only with
 * MAP_POPULATE, from the descriptor checked at open, and each chunk
 * copied with memcpy(): the seed's "mapped file", plus the copy that
 * writable private memory needs.
 */

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "malloc_image_restore.h"
#include "malloc_image_threads.h"

static int
mmap_open(struct malloc_image_reader *r, char *err, size_t len)
{
	void *map = mmap(NULL, r->img->hdr.file_len, PROT_READ,
			MAP_SHARED | MAP_POPULATE, r->img->fd, 0);

	if (map == MAP_FAILED)
		return malloc_image_err_out(err, len, -errno,
				"--memzone-image: cannot map %s: %s",
				r->img->path, strerror(errno));
	r->map = map;
	return 0;
}

static int
mmap_read(const struct malloc_image_reader *r,
		const struct malloc_image_chunk *c, void *bounce)
{
	RTE_SET_USED(bounce);
	memcpy((void *)(uintptr_t)c->addr, r->map + c->off, c->len);
	return 0;
}

static void
mmap_close(struct malloc_image_reader *r)
{
	if (r->map != NULL)
		munmap((void *)(uintptr_t)r->map, r->img->hdr.file_len);
	r->map = NULL;
}

const struct malloc_image_strategy malloc_image_by_mmap = {
	.id = EAL_IMAGE_MMAP,
	.fill = EAL_MAP_POPULATED,
	.open = mmap_open,
	.read = mmap_read,
	.close = mmap_close,
};
