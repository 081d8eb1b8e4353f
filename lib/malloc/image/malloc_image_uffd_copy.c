/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * --memzone-image-strategy=uffd-copy: pages are mapped empty, and each is
 * built in a buffer (its chunks read and checked, zeros around them) and
 * handed to UFFDIO_COPY, which allocates the hugepage and copies the
 * buffer into it in one pass: the kernel never clears it first. A page
 * is filled when first touched (the handler) or before (the prefetchers:
 * malloc_image_lazy.c).
 */

#include <errno.h>
#include <inttypes.h>
#include <linux/userfaultfd.h>
#include <string.h>
#include <sys/ioctl.h>

#include "malloc_image_lazy.h"
#include "malloc_image_restore.h"
#include "malloc_image_threads.h"

static int
uffd_copy_fill(const struct malloc_image_lazy *lz,
		const struct malloc_image_lazy_page *p, void *bounce, char *err,
		size_t len)
{
	struct uffdio_copy cp;
	int ret;

	ret = malloc_image_lazy_build(lz, p, bounce, err, len);
	if (ret < 0)
		return ret;
	do {
		memset(&cp, 0, sizeof(cp));
		cp.dst = p->addr;
		cp.src = (uint64_t)(uintptr_t)bounce;
		cp.len = p->len;
		cp.mode = UFFDIO_COPY_MODE_DONTWAKE;
		ret = ioctl(malloc_image_lazy_uffd(lz), UFFDIO_COPY, &cp);
	} while (ret < 0 && errno == EAGAIN && cp.copy <= 0);
	if (ret == 0)
		return 0;
	/* Pages the heap gives back are never filled: not those. */
	if (errno == ENOENT)
		return malloc_image_err_out(err, len, -ENOENT,
				"its mapping is gone, unmapped or moved by "
				"something other than the heap");
	if (errno == EEXIST)
		return malloc_image_err_out(err, len, -EEXIST,
				"another process touched it first (a child or a "
				"secondary process), so its memzone's bytes "
				"are lost");
	return malloc_image_err_out(
			err, len, -errno, "UFFDIO_COPY: %s", strerror(errno));
}

static const struct malloc_image_lazy_ops uffd_copy_ops = {
	.name = "uffd-copy",
	.features = UFFD_FEATURE_MISSING_HUGETLBFS,
	.mode = UFFDIO_REGISTER_MODE_MISSING,
	.ioctls = (uint64_t)1 << _UFFDIO_COPY,
	.bounce = true,
	.fill = uffd_copy_fill,
};

static int
uffd_copy_start(struct malloc_image_reader *r, char *err, size_t len)
{
	return malloc_image_lazy_start(&uffd_copy_ops, r, err, len);
}

const struct malloc_image_strategy malloc_image_by_uffd_copy = {
	.id = EAL_IMAGE_UFFD_COPY,
	.fill = EAL_MAP_EMPTY,
	.start = uffd_copy_start,
};
