/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Which huge pages of each object may be moved.
 *
 * The plan walks each object's extent in huge pages of the grain size. A
 * huge page H qualifies when everything mapped in it belongs to the
 * object (its file's private mappings, the anonymous .bss inside its
 * extent, or for the executable the brk heap) and has one protection
 * with read access, so the copy can be given exactly that protection.
 * Holes are allowed only above the object's extent and never in code:
 * the tail of .bss may take a whole huge page, the start of the heap
 * with it. Pages that mix a RELRO part with .data, text with a PROT_NONE
 * gap, or two objects, stay as they are.
 *
 * The brk heap must not end inside a moved huge page, or brk() could not
 * grow past it: ht_heap_prepare() first moves brk's end to the end of
 * the huge page holding the end of .bss, when the heap starts in it.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "hugetext_priv.h"

#define ALIGN_DOWN(x, a) ((x) & ~((uintptr_t)(a)-1))
#define ALIGN_UP(x, a) ALIGN_DOWN((x) + (a)-1, a)

/* start_brk, field 47 of /proc/self/stat (proc(5)); 0 if unreadable. */
static uintptr_t
stat_start_brk(void)
{
	char buf[1024], *p;
	int field;

	if (ht_file_read("/proc/self/stat", buf, sizeof(buf), NULL) != 0)
		return 0;
	/* The command name may hold spaces: count from its ')'. */
	p = strrchr(buf, ')');
	for (field = 2; p != NULL && field < 47; field++)
		p = strchr(p + 1, ' ');
	return p != NULL ? (uintptr_t)strtoull(p + 1, NULL, 10) : 0;
}

int
ht_heap_prepare(struct ht_heap *heap, const struct ht_object *exe, size_t grain,
		const struct ht_log *log)
{
	uintptr_t tail_end = ALIGN_UP(exe->hi, grain);
	void *cur = sbrk(0);

	memset(heap, 0, sizeof(*heap));
	heap->start = stat_start_brk();
	if (heap->start == 0 || cur == (void *)-1)
		return 0;
	heap->end = (uintptr_t)cur;
	if (heap->start >= tail_end || heap->end >= tail_end)
		return 0;
	if (sbrk((intptr_t)(tail_end - heap->end)) == (void *)-1) {
		heap->extend_failed = true;
		ht_log(log, HT_NOTICE,
				"brk heap cannot grow to %#lx: the last "
				"huge page of .bss stays small\n",
				(unsigned long)tail_end);
		return 0;
	}
	ht_log(log, HT_DEBUG, "brk moved from %#lx to %#lx\n",
			(unsigned long)heap->end, (unsigned long)tail_end);
	heap->end = tail_end;
	return 0;
}

struct h_check {
	const struct ht_object *o;
	const struct ht_heap *heap;
	uintptr_t ext_end; /* end of the object's extent, page aligned */
};

static size_t
overlap(uintptr_t a0, uintptr_t a1, uintptr_t b0, uintptr_t b1)
{
	uintptr_t s = a0 > b0 ? a0 : b0, e = a1 < b1 ? a1 : b1;

	return e > s ? e - s : 0;
}

static size_t
segment_bytes(const struct ht_object *o, uintptr_t s, uintptr_t e)
{
	size_t n = 0;
	unsigned int i;

	for (i = 0; i < o->n_seg; i++)
		n += overlap(o->seg[i].start, o->seg[i].end, s, e);
	return n;
}

/*
 * May [s, e) be a hole that the copy fills with zeroes? Above the
 * object's extent, yes. Inside it, only what lies between two segments:
 * the padding of an aligned link, unmapped or PROT_NONE, which nothing
 * reads. What the padding held in the file is not copied.
 */
static bool
hole_ok(const struct h_check *c, uintptr_t s, uintptr_t e)
{
	if (s >= c->ext_end)
		return true;
	return s >= c->o->lo && segment_bytes(c->o, s, e) == 0;
}

/* Does mapping @p m, seen within [s, e), belong to the object? */
static bool
map_owned(const struct h_check *c, const struct ht_map *m, uintptr_t s,
		uintptr_t e)
{
	if (m->shared)
		return false;
	if (strcmp(m->path, c->o->path) == 0)
		return true;
	if (m->path[0] == '\0')
		return s >= c->o->lo && e <= c->ext_end;
	return c->o->is_exe && strcmp(m->path, "[heap]") == 0;
}

/* Can huge page [hs, he) move? Its protection in *prot if so. */
static bool
page_movable(const struct h_check *c, const struct ht_maps *maps, uintptr_t hs,
		uintptr_t he, int *prot)
{
	const struct ht_map *m = NULL;
	uintptr_t cur = hs, s, e;
	bool fresh = false; /* takes address space above the object */

	*prot = -1;
	if (c->o->is_exe && c->heap->end >= hs && c->heap->end < he &&
			c->heap->start < he)
		return false; /* brk could not grow past it */
	while (ht_maps_next(maps, &m, hs, he, &s, &e)) {
		if (s > cur) {
			if (!hole_ok(c, cur, s))
				return false;
			fresh |= s > c->ext_end;
		}
		cur = e;
		if (!map_owned(c, m, s, e))
			return false;
		if (m->prot == PROT_NONE && hole_ok(c, s, e))
			continue;
		if (!(m->prot & PROT_READ))
			return false;
		if (*prot != -1 && m->prot != *prot)
			return false;
		*prot = m->prot;
	}
	if (cur < he) {
		if (!hole_ok(c, cur, he))
			return false;
		fresh |= he > c->ext_end;
	}
	/* Never claim fresh address space for code. */
	return *prot != -1 && !(fresh && (*prot & PROT_EXEC));
}

/* Add [s, e) of object @p oi at page size @p size; false when full. */
static bool
plan_add(struct ht_plan *p, unsigned int oi, uintptr_t s, uintptr_t e,
		size_t size, int prot, const struct ht_heap *heap,
		const struct ht_object *o)
{
	struct ht_range *r;

	if (p->n == HT_MAX_RANGES)
		return false;
	r = &p->r[p->n++];
	memset(r, 0, sizeof(*r));
	r->start = s;
	r->len = e - s;
	r->page_size = size;
	r->prot = prot;
	r->obj = oi;
	r->seg_bytes = segment_bytes(o, s, e);
	if (o->is_exe)
		r->heap_bytes = overlap(heap->start, heap->end, s, e);
	return true;
}

/* Cut run [s, e) into ranges, larger pages where whole ones fit. */
static bool
plan_run(struct ht_plan *p, const struct ht_sizes *sz, unsigned int idx,
		unsigned int oi, uintptr_t s, uintptr_t e, int prot,
		const struct ht_heap *heap, const struct ht_object *o)
{
	size_t size;
	uintptr_t a, b;

	if (s >= e)
		return true;
	if (idx == 0)
		return plan_add(p, oi, s, e, sz->grain, prot, heap, o);
	size = sz->hugetlb[idx];
	a = ALIGN_UP(s, size);
	b = ALIGN_DOWN(e, size);
	if (a >= b)
		return plan_run(p, sz, idx - 1, oi, s, e, prot, heap, o);
	return plan_run(p, sz, idx - 1, oi, s, a, prot, heap, o) &&
			plan_add(p, oi, a, b, size, prot, heap, o) &&
			plan_run(p, sz, idx - 1, oi, b, e, prot, heap, o);
}

static void
plan_object(struct ht_plan *p, unsigned int oi, const struct ht_object *o,
		const struct ht_maps *maps, const struct ht_sizes *sz,
		const struct ht_heap *heap, const struct ht_log *log)
{
	const struct h_check c = {
		.o = o,
		.heap = heap,
		.ext_end = ALIGN_UP(o->hi, (uintptr_t)getpagesize()),
	};
	size_t g = sz->grain, moved = 0,
	       total = segment_bytes(o, 0, UINTPTR_MAX);
	unsigned int top = sz->n_hugetlb > 0 ? sz->n_hugetlb - 1 : 0;
	uintptr_t h, run_s = 0, run_e = 0;
	int prot, run_prot = -1;

	p->segments += o->n_seg;
	for (h = ALIGN_DOWN(o->lo, g); h < o->hi; h += g) {
		bool ok = segment_bytes(o, h, h + g) > 0 &&
				page_movable(&c, maps, h, h + g, &prot);

		if (ok && run_prot == prot && run_e == h) {
			run_e += g;
		} else {
			if (!plan_run(p, sz, top, oi, run_s, run_e, run_prot,
					    heap, o))
				break;
			run_s = h;
			run_e = ok ? h + g : h;
			run_prot = ok ? prot : -1;
		}
		if (ok)
			moved += segment_bytes(o, h, h + g);
	}
	if (h >= o->hi &&
			!plan_run(p, sz, top, oi, run_s, run_e, run_prot, heap,
					o))
		h = 0;
	if (h < o->hi) {
		ht_log(log, HT_WARNING,
				"more than %d ranges: the rest of %s "
				"stays on small pages\n",
				HT_MAX_RANGES, o->name);
		moved = 0;
		for (unsigned int i = 0; i < p->n; i++)
			if (p->r[i].obj == oi)
				moved += segment_bytes(o, p->r[i].start,
						p->r[i].start + p->r[i].len);
	}
	p->small_bytes += total - moved;
}

void
ht_plan_build(struct ht_plan *plan, const struct ht_object *obj,
		unsigned int n_obj, const struct ht_maps *maps,
		const struct ht_sizes *sizes, const struct ht_heap *heap,
		const struct ht_log *log)
{
	unsigned int i;

	/* Not the whole plan: only the ranges made are ever touched. */
	plan->n = 0;
	plan->segments = 0;
	plan->small_bytes = 0;
	for (i = 0; i < n_obj; i++)
		plan_object(plan, i, &obj[i], maps, sizes, heap, log);
}
