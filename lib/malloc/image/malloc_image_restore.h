/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _MALLOC_IMAGE_RESTORE_H_
#define _MALLOC_IMAGE_RESTORE_H_

/*
 * --memzone-image: memzones brought back from an image at init, in the
 * two steps kept memzones take (malloc_keep.h): before the heaps take the
 * mapped memory, check the image against this run's layout, map the
 * pages under its memzones and fill them; once the heaps hold them, make
 * each memzone a busy element and a table entry again, and record it in
 * the kept table when --keep-memzones is on.
 *
 * A failure at either step fails rte_eal_init(), whose cleanup unmaps
 * every page mapped so far: nothing of a refused image stays.
 */

#include <stddef.h>
#include <stdint.h>

#include "eal_memcfg.h"
#include "eal_options.h"
#include "malloc_image.h"

/* The memzones of an image between the two steps. */
struct malloc_image_plan;

/*
 * How an image's chunks get into memory that is mapped (and populated)
 * at their addresses: one per eager strategy of --memzone-image-strategy.
 */
struct malloc_image_reader {
	enum eal_image_strategy strategy;
	unsigned int n_threads;
	const struct rte_memzone_image *img;
	int fd; /* the file, opened as the strategy needs it */
	const unsigned char *map; /* the mapped image (mmap strategy) */
	uint64_t bytes_read;
};

/*
 * Read every stored chunk of @p r->img into memory, with the strategy and
 * threads of @p r (AUTO is resolved before).
 *
 * @return 0, or a negative errno with one line in @p err.
 */
int malloc_image_read_all(
		struct malloc_image_reader *r, char *err, size_t err_len);

/*
 * Resolve --memzone-image-strategy=auto for @p img: the pick and, in
 * @p why, the facts that made it.
 */
enum eal_image_strategy malloc_image_pick(
		const struct rte_memzone_image *img, char *why, size_t why_len);

/*
 * Step one, at init (nothing without --memzone-image, or when kept
 * memzones were found: @p kept).
 *
 * @return 0 with the memzones in @p plan (NULL: none), or a negative
 *   errno with one line in @p err.
 */
int malloc_image_map(struct rte_mem_config *mcfg, bool kept,
		struct malloc_image_plan **plan, char *err, size_t err_len);

/*
 * Step two: the memzones of @p plan (freed here) made memzones again.
 *
 * @return 0, or a negative errno with one line in @p err.
 */
int malloc_image_restore(struct rte_mem_config *mcfg,
		struct malloc_image_plan *plan, char *err, size_t err_len);

/* Drop @p plan (may be NULL) when init fails between the steps. */
void malloc_image_plan_free(struct malloc_image_plan *plan);

#endif /* _MALLOC_IMAGE_RESTORE_H_ */
