/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Scratch (eal_sys.h) on Linux. A covered range's mappings move aside
 * with mremap(2), which takes the whole mapping along (hugetlbfs since
 * 5.16, with page-aligned addresses) and allocates nothing; a memfd on
 * small pages stands in, so what was written is found with SEEK_DATA,
 * at a cost that grows with what was written, not with the range.
 *
 * mremap(2) of a 1 GB hugetlb mapping fails with ENOMEM (6.18) when no
 * page table covers the 512 GB around it yet, as at the EAL's default
 * base address in a process that never touched memory there: a page of
 * ours in that span (an anchor, kept until the scratch goes) makes the
 * table, and the move is tried again.
 *
 * mremap(2) of a hugetlb mapping of 4 GB or more fails with ENOMEM (6.18,
 * 2 MB pages, whether any page is there or not; 3 GB moves): a range is
 * moved a gigabyte at a time, or a page at a time for larger pages.
 */

#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_common.h>

#include "eal_sys.h"

struct scratch_range {
	uintptr_t addr; /* covered */
	uintptr_t aside; /* where its mappings wait */
	uint64_t size;
	uint64_t page_sz; /* of the mappings moved */
	uint64_t off; /* of its scratch in the file */
};

/* The span of one page table of the level above 1 GB pages. */
#define SCRATCH_SPAN (UINT64_C(512) << 30)
#define SCRATCH_ANCHORS 8
#define SCRATCH_PIECE (UINT64_C(1) << 30)

struct eal_scratch {
	int fd; /* a memfd on small pages, as large as open() was told */
	uint64_t size; /* bytes the file holds for covered ranges */
	uint64_t used; /* of them, by the covered ranges */
	unsigned int n; /* covered ranges */
	unsigned int cap; /* of r */
	struct scratch_range *r; /* in the file's and the addresses' order */
	unsigned int n_anchors;
	void *anchor[SCRATCH_ANCHORS]; /* 4 KB each */
};

struct eal_scratch *
eal_scratch_open(uint64_t size)
{
	struct eal_scratch *s = calloc(1, sizeof(*s));
	int err;

	if (s == NULL)
		return NULL;
	s->size = size;
	s->fd = memfd_create("rtemem_scratch", MFD_CLOEXEC);
	if (s->fd >= 0 && ftruncate(s->fd, (off_t)size) == 0)
		return s;
	err = errno;
	if (s->fd >= 0)
		close(s->fd);
	free(s);
	errno = err;
	return NULL;
}

/*
 * A place for @p size bytes aligned to @p align (mremap(2) wants the
 * destination aligned to the huge page size), held by a reservation
 * that the move replaces.
 */
static int
scratch_aside(uint64_t size, uint64_t align, uintptr_t *aside)
{
	uint64_t len = size + align;
	uintptr_t r, a;
	void *m;

	m = mmap(NULL, len, PROT_NONE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m == MAP_FAILED)
		return -errno;
	r = (uintptr_t)m;
	a = RTE_ALIGN_CEIL(r, align);
	if (a > r)
		munmap(m, a - r);
	munmap((void *)(a + size), r + len - (a + size));
	*aside = a;
	return 0;
}

/*
 * A small page of ours, touched, in the span starting at @p span: the
 * last 4 KB below the first 1 GB line there that nothing maps.
 */
static int
scratch_anchor(struct eal_scratch *s, uintptr_t span)
{
	uintptr_t at;
	uint64_t step;
	unsigned int i;
	void *m;

	for (i = 0; i < s->n_anchors; i++)
		if (RTE_ALIGN_FLOOR((uintptr_t)s->anchor[i], SCRATCH_SPAN) ==
				span)
			return 0;
	if (s->n_anchors == SCRATCH_ANCHORS)
		return -ENOMEM;
	for (step = 1; step < SCRATCH_SPAN >> 30; step++) {
		at = span + (step << 30) - 4096;
		m = mmap((void *)at, 4096, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS |
						MAP_FIXED_NOREPLACE,
				-1, 0);
		if (m == MAP_FAILED)
			continue;
		*(volatile char *)m = 0;
		s->anchor[s->n_anchors++] = m;
		return 0;
	}
	return -ENOMEM;
}

static int
scratch_mremap(uintptr_t from, uintptr_t to, uint64_t size)
{
	void *m = mremap((void *)from, size, size,
			MREMAP_MAYMOVE | MREMAP_FIXED, (void *)to);

	return m == MAP_FAILED ? -errno : 0;
}

/* Anchor every span [@p addr, @p addr + @p size) touches. */
static int
scratch_anchor_all(struct eal_scratch *s, uintptr_t addr, uint64_t size)
{
	uintptr_t span;
	int ret;

	for (span = RTE_ALIGN_FLOOR(addr, SCRATCH_SPAN); span < addr + size;
			span += SCRATCH_SPAN) {
		ret = scratch_anchor(s, span);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/*
 * After a failed move of [@p from, @p from + @p size) to @p to: a move of
 * several mappings (6.17) fails after the first ones went; they come
 * back a page at a time (a page no longer mapped at @p from went).
 */
static void
scratch_unmove(uintptr_t from, uintptr_t to, uint64_t size, uint64_t page_sz)
{
	unsigned char v;
	uint64_t k;

	for (k = 0; k < size; k += page_sz)
		if (mincore((void *)(from + k), 4096, &v) != 0 &&
				errno == ENOMEM)
			scratch_mremap(to + k, from + k, page_sz);
}

/* Move @p size bytes of mappings, pages of @p page_sz, to @p to. */
static int
scratch_move(struct eal_scratch *s, uintptr_t from, uintptr_t to, uint64_t size,
		uint64_t page_sz)
{
	int ret;

	ret = scratch_mremap(from, to, size);
	if (ret == 0)
		return 0;
	scratch_unmove(from, to, size, page_sz);
	if (ret != -ENOMEM || scratch_anchor_all(s, from, size) < 0 ||
			scratch_anchor_all(s, to, size) < 0)
		return ret;
	ret = scratch_mremap(from, to, size);
	if (ret < 0)
		scratch_unmove(from, to, size, page_sz);
	return ret;
}

/* Cover one piece, one mapping or more. */
static int
scratch_cover_one(struct eal_scratch *s, uintptr_t addr, uint64_t size,
		uint64_t page_sz)
{
	struct scratch_range *r = &s->r[s->n];
	void *m;
	int ret;

	ret = scratch_aside(size, page_sz, &r->aside);
	if (ret < 0)
		return ret;
	ret = scratch_move(s, addr, r->aside, size, page_sz);
	if (ret < 0) {
		munmap((void *)r->aside, size);
		return ret;
	}
	m = mmap((void *)addr, size, PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_FIXED_NOREPLACE, s->fd,
			(off_t)s->used);
	if (m == MAP_FAILED) {
		ret = -errno;
		if (scratch_move(s, r->aside, addr, size, page_sz) < 0)
			munmap((void *)r->aside, size);
		return ret;
	}
	/* A transparent huge page would clear 2 MB for one header. */
	madvise(m, size, MADV_NOHUGEPAGE);
	r->addr = addr;
	r->size = size;
	r->page_sz = page_sz;
	r->off = s->used;
	s->used += size;
	s->n++;
	return 0;
}

static int
scratch_room(struct eal_scratch *s, unsigned int more)
{
	struct scratch_range *r;
	unsigned int cap = s->cap;

	if (s->n + more <= cap)
		return 0;
	while (cap < s->n + more)
		cap = cap == 0 ? 16 : cap * 2;
	r = realloc(s->r, cap * sizeof(*r));
	if (r == NULL)
		return -ENOMEM;
	s->r = r;
	s->cap = cap;
	return 0;
}

/* Put pieces [@p from, n) back where they were. */
static int
scratch_undo(struct eal_scratch *s, unsigned int from)
{
	int ret = 0, one;

	while (s->n > from) {
		struct scratch_range *r = &s->r[--s->n];

		one = scratch_move(s, r->aside, r->addr, r->size, r->page_sz);
		if (one < 0) {
			munmap((void *)r->aside, r->size);
			munmap((void *)r->addr, r->size);
			if (ret == 0)
				ret = one;
		}
		s->used -= r->size;
	}
	return ret;
}

/* Cover [@p addr, @p addr + @p size) in pieces of @p piece at most. */
static int
scratch_cover_pieces(struct eal_scratch *s, uintptr_t addr, uint64_t size,
		uint64_t page_sz, uint64_t piece)
{
	unsigned int first = s->n;
	uint64_t done, n;
	int ret;

	ret = scratch_room(s, (unsigned int)((size + piece - 1) / piece));
	for (done = 0; ret == 0 && done < size; done += n) {
		n = RTE_MIN(size - done, piece);
		ret = scratch_cover_one(s, addr + done, n, page_sz);
	}
	if (ret < 0)
		scratch_undo(s, first);
	return ret;
}

int
eal_scratch_cover(struct eal_scratch *s, uintptr_t addr, uint64_t size,
		uint64_t page_sz)
{
	int ret;

	if (size > s->size - s->used)
		return -ENOSPC;
	if (s->n > 0 && addr < s->r[s->n - 1].addr + s->r[s->n - 1].size)
		return -EINVAL;
	ret = scratch_cover_pieces(s, addr, size, page_sz,
			RTE_MAX(SCRATCH_PIECE, page_sz));
	/*
	 * Before 6.17, one mremap(2) moves one mapping: several go a page
	 * at a time.
	 */
	if (ret == -EFAULT)
		ret = scratch_cover_pieces(s, addr, size, page_sz, page_sz);
	return ret;
}

/* The piece holding file offset @p off (there is one). */
static const struct scratch_range *
scratch_at(const struct eal_scratch *s, uint64_t off)
{
	unsigned int lo = 0, hi = s->n, mid;

	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (s->r[mid].off <= off)
			lo = mid;
		else
			hi = mid;
	}
	return &s->r[lo];
}

/*
 * The file offset of the first covered byte at or after @p addr (used:
 * none); ranges are in the addresses' order as in the file's.
 */
static uint64_t
scratch_off(const struct eal_scratch *s, uintptr_t addr)
{
	unsigned int lo = 0, hi = s->n, mid;
	const struct scratch_range *r;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (s->r[mid].addr + s->r[mid].size <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == s->n)
		return s->used;
	r = &s->r[lo];
	return r->off + (addr > r->addr ? addr - r->addr : 0);
}

int
eal_scratch_next(const struct eal_scratch *s, uintptr_t *addr, uint64_t *len)
{
	const struct scratch_range *r;
	off_t data, hole;
	uint64_t from = scratch_off(s, *addr), end;

	if (from >= s->used)
		return 0;
	data = lseek(s->fd, (off_t)from, SEEK_DATA);
	if (data < 0)
		return errno == ENXIO ? 0 : -errno;
	if ((uint64_t)data >= s->used)
		return 0;
	hole = lseek(s->fd, data, SEEK_HOLE);
	if (hole < 0)
		return -errno;
	r = scratch_at(s, (uint64_t)data);
	end = RTE_MIN((uint64_t)hole, r->off + r->size);
	*addr = r->addr + ((uint64_t)data - r->off);
	*len = end - (uint64_t)data;
	return 1;
}

int
eal_scratch_read(const struct eal_scratch *s, uintptr_t addr, void *buf,
		uint64_t len)
{
	const struct scratch_range *r;
	uint64_t off = scratch_off(s, addr), done;
	ssize_t n;

	if (off >= s->used)
		return -EINVAL;
	r = scratch_at(s, off);
	if (addr < r->addr || addr + len > r->addr + r->size)
		return -EINVAL;
	for (done = 0; done < len; done += (uint64_t)n) {
		n = pread(s->fd, (char *)buf + done, len - done,
				(off_t)(off + done));
		if (n < 0 && errno == EINTR)
			n = 0;
		else if (n < 0)
			return -errno;
		else if (n == 0)
			return -EIO;
	}
	return 0;
}

int
eal_scratch_close(struct eal_scratch *s)
{
	int ret;

	if (s == NULL)
		return 0;
	ret = scratch_undo(s, 0);
	while (s->n_anchors > 0)
		munmap(s->anchor[--s->n_anchors], 4096);
	close(s->fd);
	free(s->r);
	free(s);
	return ret;
}
