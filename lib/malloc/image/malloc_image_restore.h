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

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eal_memalloc.h"
#include "eal_memcfg.h"
#include "eal_options.h"
#include "malloc_image.h"

/* The memzones of an image between the two steps. */
struct malloc_image_plan;

struct malloc_image_reader;

/*
 * One way of getting an image's stored chunks into memory at their
 * addresses: one per --memzone-image-strategy, each in a file of its own
 * (malloc_image_<name>.c). An eager strategy reads every chunk into
 * populated pages before init goes on (open, read, close); a lazy one
 * takes over pages mapped empty and fills them later (start).
 */
struct malloc_image_strategy {
	enum eal_image_strategy id;
	enum eal_map_fill fill; /* how the pages are mapped for it */
	size_t bounce_len; /* bytes of a per-thread buffer; 0: none */
	/* Make the image readable as the strategy needs it. */
	int (*open)(struct malloc_image_reader *r, char *err, size_t len);
	/* Put chunk @p c at its address; @return 0 or a negative errno. */
	int (*read)(const struct malloc_image_reader *r,
			const struct malloc_image_chunk *c, void *bounce);
	/* Undo open (also after a failed open). */
	void (*close)(struct malloc_image_reader *r);
	/* Lazy: hand the pages over (malloc_image_lazy.h). */
	int (*start)(struct malloc_image_reader *r, char *err, size_t len);
};

extern const struct malloc_image_strategy malloc_image_by_pread;
extern const struct malloc_image_strategy malloc_image_by_mmap;
extern const struct malloc_image_strategy malloc_image_by_direct;
extern const struct malloc_image_strategy malloc_image_by_uffd_copy;
extern const struct malloc_image_strategy malloc_image_by_uffd_minor;

/* A read of an image under way. */
struct malloc_image_reader {
	const struct malloc_image_strategy *ops;
	unsigned int n_threads; /* asked for (0: default), then used */
	bool prefetch; /* lazy: fill untouched pages in the background */
	uint8_t *filling; /* lazy: the config's image_filling, for secondaries */
	bool complete_at_stop; /* lazy: fill what is left at exit (kept) */
	const struct rte_memzone_image *img;
	int fd; /* what the strategy reads, or -1 */
	const unsigned char *map; /* the mapped image (mmap), or NULL */
	uint64_t bytes_read;
};

/*
 * Read every stored chunk of @p r->img into memory with @p r->ops on
 * @p r->n_threads threads, checking each chunk's sum where it landed.
 *
 * @return 0, or a negative errno with one line in @p err.
 */
int malloc_image_read_all(
		struct malloc_image_reader *r, char *err, size_t err_len);

/* The strategy named @p s (not AUTO), or NULL. */
const struct malloc_image_strategy *malloc_image_strategy_of(
		enum eal_image_strategy s);

/*
 * Resolve --memzone-image-strategy=auto for @p img: the pick and, in
 * @p why, the facts that made it.
 */
const struct malloc_image_strategy *malloc_image_pick(
		const struct rte_memzone_image *img, char *why, size_t why_len);

/* Whether the file system of @p img takes O_DIRECT (direct strategy). */
bool malloc_image_direct_works(const struct rte_memzone_image *img);

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
