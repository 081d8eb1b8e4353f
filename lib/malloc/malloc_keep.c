/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Kept memzone records (malloc_keep.h): written on reserve and free, read
 * back at init in two steps around the heaps' set-up (map the pages, then
 * carve the memzones), lowest address first so that each memzone is cut
 * from the top of what is still free.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_common.h>
#include <rte_log.h>

#include "eal_keep.h"
#include "eal_log.h"
#include "eal_memalloc.h"
#include "eal_memseg_list.h"
#include "malloc_elem.h"
#include "malloc_heap.h"
#include "malloc_keep.h"
#include "malloc_state.h"

RTE_BUILD_BUG_ON(sizeof(struct malloc_keep_area) +
				RTE_MAX_MEMZONE *
						sizeof(struct malloc_keep_rec) >
		EAL_KEEP_FILE_LEN - EAL_KEEP_AREA_OFF);

struct malloc_keep_plan {
	unsigned int n; /* records in idx[] */
	uint16_t idx[RTE_MAX_MEMZONE]; /* live records, by address */
	struct malloc_keep_area *area;
	struct timespec start; /* for the log line */
};

static uint64_t
keep_rec_sum(const struct malloc_keep_rec *r)
{
	return eal_keep_sum(r->msl_idx, r->name,
			sizeof(*r) - offsetof(struct malloc_keep_rec, name));
}

static struct malloc_keep_area *
keep_area(bool *restore)
{
	struct malloc_keep_area *a;
	bool r = false;
	size_t len;

	a = eal_keep_area(&len, &r);
	if (restore != NULL)
		*restore = r;
	return a;
}

static void
keep_area_init(struct malloc_keep_area *a)
{
	memset(a->recs, 0, RTE_MAX_MEMZONE * sizeof(a->recs[0]));
	a->version = MALLOC_KEEP_VERSION;
	a->header_len = MALLOC_ELEM_HEADER_LEN;
	a->trailer_len = MALLOC_ELEM_TRAILER_LEN;
	a->n_recs = RTE_MAX_MEMZONE;
	__atomic_store_n(&a->magic, MALLOC_KEEP_MAGIC, __ATOMIC_RELEASE);
}

void
malloc_keep_record(const struct rte_mem_config *mcfg, uint16_t idx,
		const struct rte_memzone *mz)
{
	struct malloc_keep_area *a = keep_area(NULL);
	const struct rte_memseg_list *msl = rte_mem_virt2memseg_list(mz->addr);
	struct malloc_keep_rec *r;

	/* An external heap's memory is the application's, not kept. */
	if (a == NULL || msl == NULL || msl->external)
		return;
	r = &a->recs[idx];
	/* Counted first: the count must never be below the live records. */
	eal_keep_count(1);
	r->msl_idx = eal_msl_index(mcfg, msl);
	memcpy(r->name, mz->name, sizeof(r->name));
	r->addr = (uint64_t)(uintptr_t)mz->addr;
	r->len = mz->len;
	r->iova = mz->iova;
	r->socket_id = mz->socket_id;
	r->flags = mz->flags;
	r->sum = keep_rec_sum(r);
	__atomic_store_n(&r->state, MALLOC_KEEP_LIVE, __ATOMIC_RELEASE);
}

void
malloc_keep_erase(uint16_t idx)
{
	struct malloc_keep_area *a = keep_area(NULL);

	if (a == NULL || a->recs[idx].state != MALLOC_KEEP_LIVE)
		return;
	__atomic_store_n(&a->recs[idx].state, 0, __ATOMIC_RELEASE);
	eal_keep_count(-1);
}

/* What is wrong with live record @p r for this run, in @p why. */
static int
keep_rec_check(const struct rte_mem_config *mcfg,
		const struct malloc_keep_rec *r, unsigned int i, char *why,
		size_t len)
{
	const struct rte_memseg_list *msl;
	uintptr_t lo, hi, base;

	if (r->sum != keep_rec_sum(r) ||
			memchr(r->name, '\0', sizeof(r->name)) == NULL ||
			r->name[0] == '\0' || r->msl_idx >= mcfg->n_lists) {
		snprintf(why, len, "record %u is damaged (checksum)", i);
		return -1;
	}
	msl = &mcfg->memsegs[r->msl_idx];
	base = (uintptr_t)msl->base_va;
	lo = (uintptr_t)r->addr - MALLOC_ELEM_HEADER_LEN;
	hi = (uintptr_t)r->addr + r->len + MALLOC_ELEM_TRAILER_LEN;
	if (msl->external || r->len == 0 || r->len % RTE_CACHE_LINE_SIZE ||
			r->addr % RTE_CACHE_LINE_SIZE || lo < base || hi < lo ||
			hi - base > msl->len) {
		snprintf(why, len,
				"memzone '%s' (%#" PRIx64 ", %" PRIu64
				" bytes) is not inside memseg list %u",
				r->name, r->addr, r->len, r->msl_idx);
		return -1;
	}
	return 0;
}

static int
keep_cmp_addr(const void *a, const void *b, void *arg)
{
	const struct malloc_keep_area *area = arg;
	uint64_t x = area->recs[*(const uint16_t *)a].addr;
	uint64_t y = area->recs[*(const uint16_t *)b].addr;

	return x < y ? -1 : x > y;
}

/* Collect the live records into @p p, checked and sorted by address. */
static int
keep_collect(const struct rte_mem_config *mcfg,
		const struct malloc_keep_area *a, struct malloc_keep_plan *p,
		char *why, size_t len)
{
	unsigned int i;

	if (a->magic != MALLOC_KEEP_MAGIC ||
			a->version != MALLOC_KEEP_VERSION ||
			a->header_len != MALLOC_ELEM_HEADER_LEN ||
			a->trailer_len != MALLOC_ELEM_TRAILER_LEN ||
			a->n_recs != RTE_MAX_MEMZONE) {
		snprintf(why, len,
				"its records were written by another build of "
				"rtemem (format %u, element header %u bytes)",
				a->version, a->header_len);
		return -1;
	}
	for (i = 0; i < RTE_MAX_MEMZONE; i++) {
		const struct malloc_keep_rec *r = &a->recs[i];

		if (r->state == 0)
			continue;
		if (r->state != MALLOC_KEEP_LIVE) {
			snprintf(why, len, "record %u is damaged (state)", i);
			return -1;
		}
		if (keep_rec_check(mcfg, r, i, why, len) < 0)
			return -1;
		p->idx[p->n++] = (uint16_t)i;
	}
	qsort_r(p->idx, p->n, sizeof(p->idx[0]), keep_cmp_addr, (void *)a);
	for (i = 1; i < p->n; i++) {
		const struct malloc_keep_rec *x = &a->recs[p->idx[i - 1]];
		const struct malloc_keep_rec *y = &a->recs[p->idx[i]];

		if (x->addr + x->len + MALLOC_ELEM_OVERHEAD > y->addr) {
			snprintf(why, len, "memzones '%s' and '%s' overlap",
					x->name, y->name);
			return -1;
		}
	}
	return 0;
}

/* Map the pages under each memzone of @p p, header and trailer included. */
static int
keep_map_pages(const struct rte_mem_config *mcfg,
		const struct malloc_keep_plan *p, char *why, size_t len)
{
	unsigned int i;
	int ret;

	for (i = 0; i < p->n; i++) {
		const struct malloc_keep_rec *r = &p->area->recs[p->idx[i]];
		const struct rte_memseg_list *msl = &mcfg->memsegs[r->msl_idx];
		void *lo = (void *)(uintptr_t)(r->addr -
				MALLOC_ELEM_HEADER_LEN);
		void *hi = (void *)(uintptr_t)(r->addr + r->len +
				MALLOC_ELEM_TRAILER_LEN - 1);
		unsigned int first = eal_msl_addr_idx(msl, lo);
		unsigned int last = eal_msl_addr_idx(msl, hi);
		char what[PATH_MAX + 128];

		ret = eal_memalloc_map_kept(r->msl_idx, first, last - first + 1,
				what, sizeof(what));
		if (ret < 0) {
			snprintf(why, len, "memzone '%s': %s", r->name, what);
			return ret;
		}
	}
	return 0;
}

int
malloc_keep_map(struct rte_mem_config *mcfg, struct malloc_keep_plan **out,
		char *err, size_t err_len)
{
	char why[PATH_MAX + 256];
	struct malloc_keep_area *a;
	struct malloc_keep_plan *p;
	bool restore;
	int ret;

	*out = NULL;
	a = keep_area(&restore);
	if (a == NULL)
		return 0;
	if (!restore) {
		keep_area_init(a);
		return 0;
	}
	p = calloc(1, sizeof(*p));
	if (p == NULL)
		return -ENOMEM;
	clock_gettime(CLOCK_MONOTONIC, &p->start);
	p->area = a;
	ret = keep_collect(mcfg, a, p, why, sizeof(why));
	if (ret == 0 && p->n == 0) {
		/* Nothing to bring back: --memzone-image may. */
		free(p);
		return 0;
	}
	if (ret == 0)
		ret = keep_map_pages(mcfg, p, why, sizeof(why));
	if (ret < 0) {
		free(p);
		/* Pages mapped for earlier memzones stay, as free memory. */
		ret = eal_keep_area_mismatch(why, err, err_len);
		if (ret == 0)
			keep_area_init(a);
		return ret;
	}
	*out = p;
	return 0;
}

int
malloc_keep_restore_zone(struct rte_mem_config *mcfg, unsigned int msl_idx,
		uint16_t idx, const struct rte_memzone *want, const char *what,
		const struct rte_memzone **out, char *err, size_t err_len)
{
	struct malloc_state *st = malloc_state_of(mcfg);
	const struct rte_memseg_list *msl = &mcfg->memsegs[msl_idx];
	struct malloc_heap *heap = malloc_heap_of_socket(st, msl->socket_id);
	const struct rte_memzone *mz;
	struct rte_memzone z = *want;

	z.hugepage_sz = msl->page_sz;
	if (heap == NULL ||
			malloc_heap_restore(mcfg, heap, msl_idx, z.addr,
					z.len) < 0) {
		snprintf(err, err_len,
				"%s: the memory of memzone '%s' at %p is not free "
				"heap memory after init",
				what, z.name, z.addr);
		return -EFAULT;
	}
	z.iova = malloc_heap_virt2iova(mcfg, z.addr);
	mz = malloc_mz_table_restore(&st->memzones, idx, &z);
	if (mz == NULL) {
		snprintf(err, err_len, "%s: memzone '%s' is there twice", what,
				z.name);
		return -EEXIST;
	}
	*out = mz;
	return 0;
}

/* Bring back the memzone of record @p i. */
static int
keep_restore_one(struct rte_mem_config *mcfg, struct malloc_keep_rec *r,
		uint16_t i, char *err, size_t err_len)
{
	const struct rte_memzone *mz = NULL;
	struct rte_memzone want;
	int ret;

	memset(&want, 0, sizeof(want));
	memcpy(want.name, r->name, sizeof(want.name));
	want.addr = (void *)(uintptr_t)r->addr;
	want.len = r->len;
	want.socket_id = r->socket_id;
	want.flags = r->flags;
	ret = malloc_keep_restore_zone(mcfg, r->msl_idx, i, &want,
			"--keep-memzones", &mz, err, err_len);
	if (ret < 0)
		return ret;
	if (mz->iova != r->iova) {
		EAL_LOG(WARNING,
				"--keep-memzones: memzone '%s' is back with IOVA "
				"%#" PRIx64 ", it had %#" PRIx64
				" (the kernel moved its pages)",
				r->name, mz->iova, r->iova);
		__atomic_store_n(&r->iova, mz->iova, __ATOMIC_RELAXED);
	}
	return 0;
}

int
malloc_keep_restore(struct rte_mem_config *mcfg, struct malloc_keep_plan *p,
		char *err, size_t err_len)
{
	struct timespec end;
	uint64_t bytes = 0;
	unsigned int i;
	int ret = 0;

	if (p == NULL)
		return 0;
	for (i = 0; i < p->n && ret == 0; i++) {
		struct malloc_keep_rec *r = &p->area->recs[p->idx[i]];

		ret = keep_restore_one(mcfg, r, p->idx[i], err, err_len);
		bytes += r->len;
	}
	clock_gettime(CLOCK_MONOTONIC, &end);
	if (ret == 0)
		EAL_LOG(INFO,
				"--keep-memzones: brought back %u memzones "
				"(%" PRIu64 " kB) of the last run in %.3f ms",
				p->n, bytes >> 10,
				(end.tv_sec - p->start.tv_sec) * 1e3 +
						(end.tv_nsec - p->start.tv_nsec) /
								1e6);
	free(p);
	return ret;
}
