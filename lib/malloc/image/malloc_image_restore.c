/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * --memzone-image at init (malloc_image_restore.h). The image must have
 * been saved by a build with the same heap element layout, and this run
 * must lay out every memseg list the saver had where it had it: then
 * each memzone's pages are mapped in the slots they had, its bytes read
 * (or, for zero chunks on pages that come back dirty, cleared), and the
 * heaps carve the memzones out at their addresses.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_memory.h>
#include <rte_memzone_image.h>

#include "eal_keep.h"
#include "eal_log.h"
#include "eal_memalloc.h"
#include "eal_memseg_list.h"
#include "malloc_elem.h"
#include "malloc_heap.h"
#include "malloc_image_lazy.h"
#include "malloc_image_restore.h"
#include "malloc_image_threads.h"
#include "malloc_keep.h"
#include "malloc_state.h"

struct malloc_image_plan {
	struct rte_memzone_image *img;
	struct timespec start;
	const struct malloc_image_strategy *ops;
	unsigned int n_threads;
	uint64_t bytes_read;
};

static double
restore_ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1e3 + (t.tv_nsec - t0->tv_nsec) / 1e6;
}

/* The image's layout against this run's: one line on a difference. */
static int
restore_check_layout(const struct rte_mem_config *mcfg,
		const struct rte_memzone_image *img, char *err, size_t len)
{
	const struct malloc_image_hdr *h = &img->hdr;
	uint32_t i;

	if (h->n_zones > RTE_MAX_MEMZONE)
		return malloc_image_err_out(err, len, -EINVAL,
				"--memzone-image: %s holds %" PRIu32
				" memzones, this build has room for %u",
				img->path, h->n_zones, RTE_MAX_MEMZONE);
	if (h->elem_header_len != MALLOC_ELEM_HEADER_LEN ||
			h->elem_trailer_len != MALLOC_ELEM_TRAILER_LEN)
		return malloc_image_err_out(err, len, -EINVAL,
				"--memzone-image: %s was saved by a build whose "
				"heap elements have %" PRIu32
				"-byte headers and %" PRIu32
				"-byte trailers, this one has %u and %u "
				"(-Dmalloc_debug differs)",
				img->path, h->elem_header_len,
				h->elem_trailer_len, MALLOC_ELEM_HEADER_LEN,
				MALLOC_ELEM_TRAILER_LEN);
	for (i = 0; i < h->n_lists; i++) {
		const struct malloc_image_list *l = &img->lists[i];
		const struct rte_memseg_list *msl = l->msl_idx < mcfg->n_lists ?
				&mcfg->memsegs[l->msl_idx] :
				NULL;

		if (msl != NULL && !msl->external &&
				msl->addr_64 == l->base_va &&
				msl->page_sz == l->page_sz &&
				msl->n_segs == l->n_segs &&
				msl->socket_id == l->socket_id)
			continue;
		return malloc_image_err_out(err, len, -EINVAL,
				"--memzone-image: %s was saved with memseg list "
				"%" PRIu32 " of %" PRIu32 " pages of %" PRIu64
				" kB on node %d at %#" PRIx64
				"; this run %s: start with the memory options "
				"the image was saved with",
				img->path, l->msl_idx, l->n_segs,
				l->page_sz >> 10, l->socket_id, l->base_va,
				msl == NULL ? "has no such list" :
					      "lays it out otherwise");
	}
	return 0;
}

/*
 * What the heaps need of the memzones, checked before a page is mapped:
 * cache-line aligned, apart by at least an element's overhead, and
 * named once.
 */
static int
restore_check_zones(const struct rte_memzone_image *img, char *err, size_t len)
{
	const struct malloc_image_zone *z = img->zones, *y;
	uint32_t i, j;

	for (i = 0; i < img->hdr.n_zones; i++) {
		const char *fault = NULL;

		if (z[i].addr % RTE_CACHE_LINE_SIZE != 0 ||
				z[i].len % RTE_CACHE_LINE_SIZE != 0)
			fault = "is not aligned to a cache line";
		else if (i > 0 &&
				z[i - 1].addr + z[i - 1].len + MALLOC_ELEM_OVERHEAD >
						z[i].addr)
			fault = "leaves no room for a heap element before it";
		for (j = 0, y = z; fault == NULL && j < i; j++, y++)
			if (strcmp(y->name, z[i].name) == 0)
				fault = "has the name of another memzone";
		if (fault != NULL)
			return malloc_image_err_out(err, len, -EINVAL,
					"--memzone-image: memzone '%s' of %s "
					"%s",
					z[i].name, img->path, fault);
	}
	return 0;
}

/* Map the pages under memzone @p z, element header and trailer included. */
static int
restore_map_zone(const struct rte_mem_config *mcfg,
		const struct rte_memzone_image *img,
		const struct malloc_image_zone *z, enum eal_map_fill fill,
		char *err, size_t len)
{
	const struct malloc_image_list *l = &img->lists[z->list];
	const struct rte_memseg_list *msl = &mcfg->memsegs[l->msl_idx];
	uint64_t lo, end;
	char why[256];
	int ret;

	malloc_image_zone_pages(img, z, &lo, &end);
	if (lo < msl->addr_64 || end > msl->addr_64 + msl->len)
		return malloc_image_err_out(err, len, -EINVAL,
				"--memzone-image: memzone '%s' of %s does not fit "
				"its memseg list with this build's heap elements",
				z->name, img->path);
	ret = eal_memalloc_map_at(l->msl_idx,
			eal_msl_addr_idx(msl, (void *)(uintptr_t)lo),
			(unsigned int)((end - lo) / l->page_sz), fill, why,
			sizeof(why));
	if (ret == -ENOTSUP)
		return malloc_image_err_out(err, len, ret,
				"--memzone-image: memzone '%s': a lazy strategy "
				"needs IOVA as VA (--iova-mode=va), this run "
				"uses physical addresses",
				z->name);
	if (ret < 0)
		return malloc_image_err_out(err, len, ret,
				"--memzone-image: memzone '%s': %s", z->name,
				why);
	return 0;
}

/*
 * A lazy strategy registers every page under the memzones as empty: one
 * mapped before (-m, --socket-mem) would never fault, and its bytes
 * would never come.
 */
static int
restore_check_unmapped(const struct rte_mem_config *mcfg,
		const struct rte_memzone_image *img, char *err, size_t len)
{
	const struct rte_memseg_list *msl;
	const struct malloc_image_zone *z;
	uint64_t a, end;
	uint32_t i;

	for (i = 0; i < img->hdr.n_zones; i++) {
		z = &img->zones[i];
		msl = &mcfg->memsegs[img->lists[z->list].msl_idx];
		malloc_image_zone_pages(img, z, &a, &end);
		for (; a < end; a += msl->page_sz) {
			if (rte_mem_virt2memseg((void *)(uintptr_t)a, msl) ==
					NULL)
				continue;
			return malloc_image_err_out(err, len, -EBUSY,
					"--memzone-image: the page at %#" PRIx64
					" under memzone '%s' is mapped already "
					"(-m or --socket-mem), and a lazy "
					"strategy needs it empty: start without "
					"them, or with an eager strategy",
					a, z->name);
		}
	}
	return 0;
}

/*
 * Zero chunks are not in the image: a page that came back with data
 * (--huge-unlink=never over an old file) needs them cleared.
 */
static void
restore_clear_zero_chunks(const struct rte_memzone_image *img)
{
	const struct malloc_image_chunk *c;
	const struct rte_memseg *ms;
	uint64_t i, a, end, next;

	for (i = 0; i < img->hdr.n_chunks; i++) {
		c = &img->chunks[i];
		if (c->off != 0)
			continue;
		/* Page by page: pages may be smaller than a chunk. */
		for (a = c->addr, end = c->addr + c->len; a < end; a = next) {
			ms = rte_mem_virt2memseg((void *)(uintptr_t)a, NULL);
			if (ms == NULL)
				break;
			next = RTE_MIN(ms->addr_64 + ms->len, end);
			if (ms->flags & RTE_MEMSEG_FLAG_DIRTY)
				memset((void *)(uintptr_t)a, 0, next - a);
		}
	}
}

/* The strategy asked for, or the one auto picks (and says why). */
static const struct malloc_image_strategy *
restore_strategy(const struct rte_memzone_image *img)
{
	const struct eal_options *opts = eal_options_get();
	const struct malloc_image_strategy *ops;
	char why[256] = "";

	ops = malloc_image_strategy_of(opts->image_strategy);
	if (ops != NULL)
		return ops;
	ops = malloc_image_pick(img, why, sizeof(why));
	EAL_LOG(NOTICE, "--memzone-image-strategy=auto: %s, because %s",
			eal_image_strategy_name(ops->id), why);
	return ops;
}

static int
restore_fill(struct rte_mem_config *mcfg, struct malloc_image_plan *p,
		char *err, size_t len)
{
	const struct eal_options *opts = eal_options_get();
	struct malloc_image_reader r = {
		.ops = p->ops,
		.n_threads = opts->image_threads,
		.prefetch = !opts->image_no_prefetch,
		.filling = &mcfg->image_filling,
		.complete_at_stop = opts->keep_memzones != EAL_KEEP_OFF,
		.img = p->img,
	};
	int ret;

	if (r.ops->start != NULL)
		return r.ops->start(&r, err, len);
	restore_clear_zero_chunks(p->img);
	ret = malloc_image_read_all(&r, err, len);
	p->n_threads = r.n_threads;
	p->bytes_read = r.bytes_read;
	return ret;
}

int
malloc_image_map(struct rte_mem_config *mcfg, bool kept,
		struct malloc_image_plan **out, char *err, size_t err_len)
{
	const struct eal_options *opts = eal_options_get();
	struct malloc_image_plan *p;
	char why[512];
	uint32_t i;
	int ret;

	*out = NULL;
	if (opts->memzone_image[0] == '\0')
		return 0;
	if (kept) {
		EAL_LOG(NOTICE,
				"--memzone-image: the memzones came back from the "
				"kept hugepage files; %s is not read",
				opts->memzone_image);
		return 0;
	}
	p = calloc(1, sizeof(*p));
	if (p == NULL)
		return malloc_image_err_out(err, err_len, -ENOMEM,
				"--memzone-image: out of memory");
	clock_gettime(CLOCK_MONOTONIC, &p->start);
	p->img = rte_memzone_image_open(opts->memzone_image, why, sizeof(why));
	if (p->img == NULL) {
		free(p);
		return malloc_image_err_out(err, err_len, -rte_errno,
				"--memzone-image: %s", why);
	}
	ret = restore_check_layout(mcfg, p->img, err, err_len);
	if (ret == 0)
		ret = restore_check_zones(p->img, err, err_len);
	if (ret == 0)
		p->ops = restore_strategy(p->img);
	if (ret == 0 && p->ops->fill != EAL_MAP_POPULATED)
		ret = restore_check_unmapped(mcfg, p->img, err, err_len);
	/*
	 * Pages mapped empty are holes in the kept files until filled: the
	 * mark says so to the next start, before there is any (none without
	 * memzones: the lazy engine does not even start then).
	 */
	if (ret == 0 && p->ops->fill != EAL_MAP_POPULATED &&
			opts->keep_memzones != EAL_KEEP_OFF &&
			p->img->hdr.n_zones != 0) {
		ret = eal_keep_filling(true);
		if (ret < 0)
			malloc_image_err_out(err, err_len, ret,
					"--memzone-image: cannot mark the kept "
					"memzones as being filled: %s",
					strerror(-ret));
	}
	for (i = 0; ret == 0 && i < p->img->hdr.n_zones; i++)
		ret = restore_map_zone(mcfg, p->img, &p->img->zones[i],
				p->ops->fill, err, err_len);
	if (ret == 0)
		ret = restore_fill(mcfg, p, err, err_len);
	if (ret < 0) {
		if (p->ops != NULL && p->ops->fill != EAL_MAP_POPULATED)
			eal_keep_filling(false);
		rte_memzone_image_close(p->img);
		free(p);
		return ret;
	}
	*out = p;
	return 0;
}

/* The line of a restore done. */
static void
restore_said(const struct malloc_image_plan *p)
{
	const struct rte_memzone_image *img = p->img;
	double ms = restore_ms_since(&p->start);

	if (p->ops->start != NULL)
		EAL_LOG(INFO,
				"--memzone-image: brought back %" PRIu32
				" memzones (%" PRIu64 " kB) from %s with %s in "
				"%.3f ms; their bytes come on first touch",
				img->hdr.n_zones, img->hdr.zone_bytes >> 10,
				img->path, eal_image_strategy_name(p->ops->id),
				ms);
	else
		EAL_LOG(INFO,
				"--memzone-image: brought back %" PRIu32
				" memzones (%" PRIu64 " kB, %" PRIu64
				" kB read) from %s with %s on %u thread(s) in "
				"%.3f ms",
				img->hdr.n_zones, img->hdr.zone_bytes >> 10,
				p->bytes_read >> 10, img->path,
				eal_image_strategy_name(p->ops->id),
				p->n_threads, ms);
}

int
malloc_image_restore(struct rte_mem_config *mcfg, struct malloc_image_plan *p,
		char *err, size_t err_len)
{
	const struct rte_memzone_image *img;
	const struct rte_memzone *mz;
	struct rte_memzone want;
	uint32_t i, n;
	int ret = 0;

	if (p == NULL)
		return 0;
	img = p->img;
	n = img->hdr.n_zones;
	for (i = 0; i < n; i++) {
		const struct malloc_image_zone *z = &img->zones[i];

		memset(&want, 0, sizeof(want));
		memcpy(want.name, z->name, sizeof(want.name));
		want.addr = (void *)(uintptr_t)z->addr;
		want.len = z->len;
		want.socket_id = z->socket_id;
		want.flags = z->flags;
		ret = malloc_keep_restore_zone(mcfg,
				img->lists[z->list].msl_idx, (uint16_t)i, &want,
				"--memzone-image", &mz, err, err_len);
		if (ret < 0)
			break;
	}
	/*
	 * With --keep-memzones the next start finds them in the files: all
	 * of them or, when one failed (and so does the start), none.
	 */
	for (uint32_t k = 0; i == n && k < n; k++)
		malloc_keep_record(mcfg, (uint16_t)k,
				&malloc_state_of(mcfg)->memzones.zones[k]);
	if (i == n)
		ret = malloc_image_lazy_run(err, err_len);
	if (ret == 0)
		restore_said(p);
	rte_memzone_image_close(p->img);
	free(p);
	return ret;
}

void
malloc_image_plan_free(struct malloc_image_plan *p)
{
	if (p == NULL)
		return;
	rte_memzone_image_close(p->img);
	free(p);
}
