/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/* rte_memzone_image_verify(): every stored chunk read back and summed. */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_memzone_image.h>

#include "malloc_image.h"
#include "malloc_image_threads.h"

struct image_verify {
	const struct rte_memzone_image *img;
	uint64_t next_chunk; /* next chunk to take (atomic) */
	struct malloc_image_err error;
};

static void *
verify_worker(void *arg)
{
	struct image_verify *v = arg;
	const struct rte_memzone_image *img = v->img;
	const struct malloc_image_chunk *c;
	const struct malloc_image_zone *z;
	void *buf = malloc(MALLOC_IMAGE_CHUNK);
	uint64_t i;
	int ret;

	if (buf == NULL) {
		malloc_image_err(&v->error, -ENOMEM, "out of memory");
		return NULL;
	}
	while (!malloc_image_err_set(&v->error)) {
		i = __atomic_fetch_add(&v->next_chunk, 1, __ATOMIC_RELAXED);
		if (i >= img->hdr.n_chunks)
			break;
		c = &img->chunks[i];
		if (c->off == 0)
			continue;
		z = &img->zones[c->zone];
		ret = malloc_image_pread(img->fd, buf, c->len, c->off);
		if (ret < 0)
			malloc_image_err(&v->error, ret,
					"cannot read %s at %" PRIu64 ": %s",
					img->path, c->off, strerror(-ret));
		else if (malloc_image_chunk_sum(img->hdr.version, buf, c->len,
					 NULL) != c->sum)
			malloc_image_err(&v->error, -EILSEQ,
					"%s: memzone %s is damaged at offset "
					"%" PRIu64 " (%" PRIu32
					" bytes at file offset %" PRIu64
					", checksum)",
					img->path, z->name, c->addr - z->addr,
					c->len, c->off);
	}
	free(buf);
	return NULL;
}

int
rte_memzone_image_verify(struct rte_memzone_image *img, unsigned int n_threads,
		char *err, size_t err_len)
{
	struct image_verify v = { .img = img };

	if (img == NULL)
		return malloc_image_err_out(
				err, err_len, -EINVAL, "no image given");
	malloc_image_threads_run(
			n_threads, img->hdr.n_chunks, verify_worker, &v);
	if (!malloc_image_err_set(&v.error))
		return 0;
	malloc_image_err_copy(&v.error, err, err_len);
	return v.error.code;
}
