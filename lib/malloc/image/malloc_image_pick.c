/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * --memzone-image-strategy=auto: pread when at least half of a sample of
 * the image's data pages is in the page cache (mincore()), else direct
 * when the file system takes O_DIRECT, else pread. The reason goes into
 * the log line that names the pick.
 */

#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_common.h>

#include "malloc_image_restore.h"

#define PICK_SAMPLES 256
#define PICK_WARM_PERCENT 50

/* Percent of a sample of the image's data pages in the page cache. */
static int
pick_resident_percent(const struct rte_memzone_image *img)
{
	const struct malloc_image_hdr *h = &img->hdr;
	long pg = sysconf(_SC_PAGESIZE);
	uint64_t npages, step, i;
	unsigned int seen = 0, in = 0;
	unsigned char vec;
	void *map;

	if (h->data_len == 0 || pg <= 0)
		return 100;
	map = mmap(NULL, h->file_len, PROT_READ, MAP_SHARED, img->fd, 0);
	if (map == MAP_FAILED)
		return -1;
	npages = h->data_len / (uint64_t)pg;
	step = RTE_MAX(npages / PICK_SAMPLES, (uint64_t)1);
	for (i = 0; i < npages; i += step) {
		char *at = (char *)map + h->data_off + i * (uint64_t)pg;

		if (mincore(at, (size_t)pg, &vec) == 0) {
			seen++;
			in += vec & 1;
		}
	}
	munmap(map, h->file_len);
	return seen == 0 ? -1 : (int)(in * 100 / seen);
}

const struct malloc_image_strategy *
malloc_image_pick(const struct rte_memzone_image *img, char *why, size_t len)
{
	int resident = pick_resident_percent(img);

	if (resident < 0) {
		snprintf(why, len,
				"mincore() cannot tell how much of it is in the "
				"page cache: pread works either way");
		return &malloc_image_by_pread;
	}
	if (resident >= PICK_WARM_PERCENT) {
		snprintf(why, len,
				"%d%% of its stored data is in the page cache: one "
				"copy from the cache into the memory, on every "
				"thread",
				resident);
		return &malloc_image_by_pread;
	}
	if (malloc_image_direct_works(img)) {
		snprintf(why, len,
				"only %d%% of its stored data is in the page "
				"cache: O_DIRECT moves it from the disk into the "
				"memory without the cache's extra copy",
				resident);
		return &malloc_image_by_direct;
	}
	snprintf(why, len,
			"only %d%% of its stored data is in the page cache and "
			"its file system does not take O_DIRECT",
			resident);
	return &malloc_image_by_pread;
}
