/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * --memzone-image-strategy=uffd-copy: pages are mapped empty, and each is
 * built in a buffer (its chunks read and checked, zeros around them) and
 * handed to UFFDIO_COPY, which allocates the hugepage and copies the
 * buffer into it in one pass: the kernel never clears it first. A page
 * whose file is made as it is filled (EAL_MAP_DEFERRED) takes the copy
 * through a view of the new file, then the file is mapped in place. A page
 * is filled when first touched (the handler) or before (the prefetchers:
 * malloc_image_lazy.c).
 */

#include "malloc_image_lazy.h"
#include "malloc_image_restore.h"
#include "malloc_image_threads.h"

static int
uffd_copy_fill(const struct malloc_image_lazy *lz,
		const struct malloc_image_lazy_page *p, void *bounce, char *err,
		size_t len)
{
	int ret;

	ret = malloc_image_lazy_build(lz, p, bounce, err, len);
	if (ret < 0)
		return ret;
	ret = eal_fill_copy(malloc_image_lazy_fd(lz), p->addr, bounce, p->len);
	if (ret == 0)
		return 0;
	return malloc_image_lazy_fill_err(ret, "UFFDIO_COPY",
			"another process touched it first (a child or a "
			"secondary process), so its memzone's bytes are lost",
			err, len);
}

/*
 * A page that gets its file now: the view is registered while it lives,
 * so that UFFDIO_COPY allocates the page without the kernel clearing it.
 */
static int
uffd_copy_fill_view(const struct malloc_image_lazy *lz,
		const struct malloc_image_lazy_page *p, void *view,
		void *bounce, char *err, size_t len)
{
	int fd = malloc_image_lazy_fd(lz), ret;

	ret = malloc_image_lazy_build(lz, p, bounce, err, len);
	if (ret == 0)
		ret = eal_fill_watch(fd, EAL_FILL_COPY, (uintptr_t)view, p->len,
				err, len);
	if (ret < 0)
		return ret;
	ret = eal_fill_copy(fd, (uintptr_t)view, bounce, p->len);
	if (ret == 0)
		return 0;
	return malloc_image_lazy_fill_err(ret, "UFFDIO_COPY",
			"its new file held a page already", err, len);
}

static const struct malloc_image_lazy_ops uffd_copy_ops = {
	.name = "uffd-copy",
	.mode = EAL_FILL_COPY,
	.bounce = true,
	.fill = uffd_copy_fill,
	.fill_view = uffd_copy_fill_view,
};

static int
uffd_copy_start(struct malloc_image_reader *r, char *err, size_t len)
{
	return malloc_image_lazy_start(&uffd_copy_ops, r, err, len);
}

const struct malloc_image_strategy malloc_image_by_uffd_copy = {
	.id = EAL_IMAGE_UFFD_COPY,
	.fill = EAL_MAP_DEFERRED,
	.start = uffd_copy_start,
};
