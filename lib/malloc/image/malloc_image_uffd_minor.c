/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * --memzone-image-strategy=uffd-minor: pages are mapped empty and
 * registered for missing and minor faults. A page is filled in place,
 * through a second mapping of its hugetlbfs file (eal_memalloc_page_view:
 * the chunks read straight into it and checked there, zeros around
 * them), then UFFDIO_CONTINUE maps the page-cache page into the
 * process's own mapping. No buffer and no second copy, whatever the page
 * size (1 GB pages need no 1 GB buffer), but the kernel clears the page
 * when the view first touches it. A thread touching the page between the
 * fill and the CONTINUE takes a minor fault, served by the same claim
 * (malloc_image_lazy.c). A page whose file is made as it is filled
 * (EAL_MAP_DEFERRED) is read into a view of the new file, which is then
 * mapped in place: no UFFDIO_CONTINUE.
 */

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "eal_memalloc.h"
#include "malloc_image_lazy.h"
#include "malloc_image_restore.h"
#include "malloc_image_threads.h"

static int
uffd_minor_fill(const struct malloc_image_lazy *lz,
		const struct malloc_image_lazy_page *p, void *bounce, char *err,
		size_t len)
{
	void *view;
	int ret;

	RTE_SET_USED(bounce);
	ret = eal_memalloc_page_view((const void *)(uintptr_t)p->addr, &view);
	if (ret < 0)
		return malloc_image_err_out(err, len, ret,
				"cannot map its file a second time: %s",
				strerror(-ret));
	ret = malloc_image_lazy_build(lz, p, view, err, len);
	munmap(view, p->len);
	if (ret < 0)
		return ret;
	ret = eal_fill_map(malloc_image_lazy_fd(lz), p->addr, p->len);
	if (ret == 0)
		return 0;
	return malloc_image_lazy_fill_err(ret, "UFFDIO_CONTINUE",
			"it was mapped before it was filled", err, len);
}

/* A page that gets its file now: read straight into the new file. */
static int
uffd_minor_fill_view(const struct malloc_image_lazy *lz,
		const struct malloc_image_lazy_page *p, void *view,
		void *bounce, char *err, size_t len)
{
	RTE_SET_USED(bounce);
	return malloc_image_lazy_build(lz, p, view, err, len);
}

static const struct malloc_image_lazy_ops uffd_minor_ops = {
	.name = "uffd-minor",
	.mode = EAL_FILL_FROM_FILE,
	.bounce = false,
	.fill = uffd_minor_fill,
	.fill_view = uffd_minor_fill_view,
};

/*
 * Whether the pages have files to map a second time, found before the
 * start rather than at the first fault.
 */
static int
uffd_minor_probe(const struct rte_memzone_image *img, char *err, size_t len)
{
	const void *addr;
	void *view;
	int ret;

	if (img->hdr.n_zones == 0)
		return 0;
	addr = (const void *)(uintptr_t)img->zones[0].addr;
	/*
	 * A page whose file comes with its fill is read through that file
	 * before it goes (--huge-unlink=always): the layout decides for
	 * every page, a file each or one per list.
	 */
	if (eal_memalloc_page_deferred(addr))
		return 0;
	ret = eal_memalloc_page_view(addr, &view);
	if (ret < 0)
		return malloc_image_err_out(err, len, ret,
				"--memzone-image-strategy=uffd-minor fills pages "
				"through their hugepage files, which this run "
				"%s",
				ret == -ENOTSUP ? "does not keep (it needs a "
						  "--huge-unlink mode other "
						  "than always)" :
						  "cannot map again");
	munmap(view, img->lists[img->zones[0].list].page_sz);
	return 0;
}

static int
uffd_minor_start(struct malloc_image_reader *r, char *err, size_t len)
{
	int ret;

	ret = uffd_minor_probe(r->img, err, len);
	if (ret < 0)
		return ret;
	return malloc_image_lazy_start(&uffd_minor_ops, r, err, len);
}

const struct malloc_image_strategy malloc_image_by_uffd_minor = {
	.id = EAL_IMAGE_UFFD_MINOR,
	.fill = EAL_MAP_DEFERRED,
	.start = uffd_minor_start,
};
