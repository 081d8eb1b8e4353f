/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * What every eager --memzone-image strategy shares: threads that take
 * stored chunks in turn, have the strategy put each at its address, and
 * check its sum where it landed, so that damaged data fails the start as
 * damaged metadata does. The strategies are malloc_image_pread.c,
 * malloc_image_mmap.c and malloc_image_direct.c; auto picks one
 * (malloc_image_pick.c).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "malloc_image_restore.h"
#include "malloc_image_threads.h"

#define READ_BOUNCE_ALIGN 4096U

static const struct malloc_image_strategy *const strategies[] = {
	&malloc_image_by_pread,
	&malloc_image_by_mmap,
	&malloc_image_by_direct,
	&malloc_image_by_uffd_copy,
	&malloc_image_by_uffd_minor,
};

const struct malloc_image_strategy *
malloc_image_strategy_of(enum eal_image_strategy s)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(strategies); i++)
		if (strategies[i]->id == s)
			return strategies[i];
	return NULL;
}

struct read_run {
	struct malloc_image_reader *r;
	uint64_t next_chunk; /* atomic */
	uint64_t bytes; /* atomic */
	struct malloc_image_err error;
};

/* Chunk @p c through the strategy, then its sum where it landed. */
static int
read_one(struct read_run *run, const struct malloc_image_chunk *c, void *bounce)
{
	const struct rte_memzone_image *img = run->r->img;
	const struct malloc_image_zone *z = &img->zones[c->zone];
	int ret = run->r->ops->read(run->r, c, bounce);

	if (ret < 0)
		return malloc_image_err(&run->error, ret,
				"--memzone-image: cannot read %s at %" PRIu64
				": %s",
				img->path, c->off,
				ret == -ENODATA ? "the file is shorter than "
						  "when opened" :
						  strerror(-ret));
	if (malloc_image_chunk_sum(img->hdr.version,
			    (const void *)(uintptr_t)c->addr, c->len,
			    NULL) != c->sum)
		return malloc_image_err(&run->error, -EILSEQ,
				"--memzone-image: %s: memzone %s is damaged at "
				"offset %" PRIu64 " (checksum)",
				img->path, z->name, c->addr - z->addr);
	return 0;
}

static void *
read_worker(void *arg)
{
	struct read_run *run = arg;
	const struct rte_memzone_image *img = run->r->img;
	size_t bounce_len = run->r->ops->bounce_len;
	const struct malloc_image_chunk *c;
	void *bounce = NULL;
	uint64_t i;

	if (bounce_len > 0 &&
			posix_memalign(&bounce, READ_BOUNCE_ALIGN,
					bounce_len) != 0) {
		malloc_image_err(&run->error, -ENOMEM, "out of memory");
		return NULL;
	}
	while (!malloc_image_err_set(&run->error)) {
		i = __atomic_fetch_add(&run->next_chunk, 1, __ATOMIC_RELAXED);
		if (i >= img->hdr.n_chunks)
			break;
		c = &img->chunks[i];
		if (c->off == 0)
			continue;
		if (read_one(run, c, bounce) < 0)
			break;
		__atomic_fetch_add(&run->bytes, c->len, __ATOMIC_RELAXED);
	}
	free(bounce);
	return NULL;
}

int
malloc_image_read_all(struct malloc_image_reader *r, char *err, size_t len)
{
	struct read_run run = { .r = r };
	int ret;

	r->fd = -1;
	r->map = NULL;
	ret = r->ops->open(r, err, len);
	if (ret == 0) {
		r->n_threads = malloc_image_threads_run(r->n_threads,
				r->img->hdr.n_chunks, read_worker, &run);
		r->bytes_read = run.bytes;
		if (malloc_image_err_set(&run.error)) {
			malloc_image_err_copy(&run.error, err, len);
			ret = run.error.code;
		}
	}
	r->ops->close(r);
	return ret;
}
