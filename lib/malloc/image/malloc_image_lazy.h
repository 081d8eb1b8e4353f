/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _MALLOC_IMAGE_LAZY_H_
#define _MALLOC_IMAGE_LAZY_H_

/*
 * Lazy --memzone-image strategies: rte_eal_init() returns as soon as the
 * pages under the memzones are mapped empty (EAL_MAP_DEFERRED: with a file
 * per page, their files are made as they are filled) and registered with
 * a userfaultfd. From then on a handler thread fills each page the process
 * touches first, and prefetch threads fill the others in address order;
 * a page is filled once, by whichever gets to it first (a claim per
 * page). When every page is in, the registration goes and the threads
 * end. The strategy says how a page is filled (malloc_image_uffd_*.c).
 *
 * A page that cannot be filled (the image became unreadable, or its
 * bytes no longer match their sums) ends the process with one line
 * saying why: the thread that touched it cannot go on without it, and
 * neither a hang nor a SIGBUS says anything.
 *
 * This is per process state, like the trim thread's: the memory it
 * fills is the process's own mapping.
 */

#include <stdbool.h>
#include <stdint.h>

#include "eal_sys.h"
#include "malloc_image.h"
#include "malloc_image_restore.h"

/*
 * One huge page under the memzones, the chunks that fall in it, and what
 * init wrote there (the heap's elements around the memzones).
 */
struct malloc_image_lazy_page {
	uint64_t addr;
	uint64_t len; /* the page size */
	uint64_t first_chunk; /* into the image's chunks, in address order */
	uint64_t n_chunks;
	uint64_t first_write; /* into init's writes, in address order */
	uint64_t n_writes;
};

struct malloc_image_lazy;

/* How a lazy strategy fills pages. */
struct malloc_image_lazy_ops {
	const char *name; /* --memzone-image-strategy */
	enum eal_fill_mode mode; /* how the OS fills a page (eal_sys.h) */
	bool bounce; /* fill() builds pages in a buffer of its own */
	/*
	 * Fill page @p p and make it present without waking the threads that
	 * wait on it (the engine wakes them once the page counts as done),
	 * with @p bounce of the page's size to build it in (NULL without
	 * ops->bounce).
	 *
	 * @return 0, or a negative errno with one line in @p err.
	 */
	int (*fill)(const struct malloc_image_lazy *lz,
			const struct malloc_image_lazy_page *p, void *bounce,
			char *err, size_t len);
	/*
	 * Fill page @p p, mapped EAL_MAP_DEFERRED, through @p view: a
	 * mapping of its new file that no other thread sees, put in place
	 * afterwards (eal_memalloc_fill_deferred()); @p bounce as for fill.
	 *
	 * @return 0, or a negative errno with one line in @p err.
	 */
	int (*fill_view)(const struct malloc_image_lazy *lz,
			const struct malloc_image_lazy_page *p, void *view,
			void *bounce, char *err, size_t len);
};

/* The page fill descriptor of @p lz (eal_fill_open()), for fill(). */
int malloc_image_lazy_fd(const struct malloc_image_lazy *lz);

/*
 * The line of fill() when @p call (eal_fill_copy() or eal_fill_map())
 * failed with @p ret: @p exists says why a page may be there already.
 * @return @p ret.
 */
int malloc_image_lazy_fill_err(int ret, const char *call, const char *exists,
		char *err, size_t len);

/*
 * Build @p p in @p bounce from the image of @p lz: the stored chunks read
 * and checked, what init wrote around the memzones, zeros everywhere
 * else.
 *
 * @return 0, or a negative errno with one line in @p err.
 */
int malloc_image_lazy_build(const struct malloc_image_lazy *lz,
		const struct malloc_image_lazy_page *p, void *bounce, char *err,
		size_t len);

/*
 * Take over the pages under the memzones of @p r->img, mapped empty, to
 * be filled with @p ops. Until malloc_image_lazy_run(), scratch memory
 * covers them (eal_scratch_cover()): init writes the heap's elements
 * around the memzones there without waiting for a page. Nothing of the
 * image is used after this returns. With @p r->prefetch, up to
 * @p r->n_threads prefetch threads (0: the default) come with
 * malloc_image_lazy_run(). @p r->filling says to secondary processes
 * that pages are still to come, until every page is in.
 *
 * @return 0, or a negative errno with one line in @p err, naming the
 *   strategy (the pages are then as they were).
 */
int malloc_image_lazy_start(const struct malloc_image_lazy_ops *ops,
		const struct malloc_image_reader *r, char *err, size_t len);

/*
 * Once init has written what it writes around the memzones, and before
 * the EAL starts its threads: keep what was written, put the pages back
 * in place of the scratch, register them and start the handler, which
 * starts the prefetch threads (started earlier, they would take the CPUs
 * init needs). Nothing without a lazy restore running.
 *
 * @return 0, or a negative errno with one line in @p err, naming the
 *   strategy (then malloc_image_lazy_stop()).
 */
int malloc_image_lazy_run(char *err, size_t len);

/*
 * Stop filling (rte_eal_cleanup, or a failed init after the start) and
 * wait for the threads. Pages never touched are left empty: the memory
 * is about to go.
 */
void malloc_image_lazy_stop(void);

#endif /* _MALLOC_IMAGE_LAZY_H_ */
