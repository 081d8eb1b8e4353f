/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Moving one range onto huge pages.
 *
 * The new memory is reserved first, away from the range: hugetlb pages
 * (MAP_PRIVATE, so that fork(), ptrace and core dumps treat it as the
 * process's own memory, and the kernel reserves the pages at mmap()
 * time, so a short pool fails here and not with SIGBUS later), or
 * anonymous memory aligned to the THP size and advised to use it.
 *
 * Then, with no call in between that could write to the range: copy
 * what is mapped, give the copy the range's protection, and mremap() it
 * over the range. mremap() unmaps the destination and moves the copy in
 * under the mmap lock, so no thread ever sees the range unmapped, and
 * the code doing it may even run from the range itself. Should mremap()
 * fail after unmapping the destination (the kernel checks the map count
 * before, leaving only allocation failures), the contents are put back
 * from the copy on anonymous small pages.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "hugetext_copy.h"
#include "hugetext_priv.h"

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif
#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif
#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT 26
#endif

static int
log2_size(size_t size)
{
	return __builtin_ctzll((unsigned long long)size);
}

static void *
reserve_thp(size_t len, size_t align)
{
	uint8_t *p, *a;

	p = mmap(NULL, len + align, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	a = (uint8_t *)(((uintptr_t)p + align - 1) & ~((uintptr_t)align - 1));
	if (a > p)
		munmap(p, (size_t)(a - p));
	munmap(a + len, (size_t)(p + len + align - (a + len)));
	madvise(a, len, MADV_HUGEPAGE);
	return a;
}

int
ht_range_reserve(struct ht_range *r, bool hugetlb)
{
	void *p;

	if (!hugetlb) {
		r->copy = reserve_thp(r->len, r->page_size);
		r->backing = RTE_HUGETEXT_THP_COPY;
		return r->copy != NULL ? 0 : -ENOMEM;
	}
	p = mmap(NULL, r->len, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB |
					(log2_size(r->page_size)
							<< MAP_HUGE_SHIFT),
			-1, 0);
	if (p == MAP_FAILED)
		return -errno;
	r->copy = p;
	r->backing = RTE_HUGETEXT_HUGETLB;
	return 0;
}

void
ht_range_release(struct ht_range *r)
{
	if (r->copy != NULL)
		munmap(r->copy, r->len);
	r->copy = NULL;
}

/* A /proc/self/pagemap entry of a page that holds data. */
static bool
pm_used(uint64_t ent)
{
	return (ent >> 62) != 0; /* present (bit 63) or swapped (bit 62) */
}

/* Entries of @p n pages from @p addr; false if unreadable. */
static bool
pm_read(int pagemap, uintptr_t addr, size_t pg, uint64_t *ent, size_t n)
{
	ssize_t want = (ssize_t)(n * sizeof(*ent));

	return pagemap >= 0 &&
			pread(pagemap, ent, (size_t)want,
					(off_t)(addr / pg * sizeof(*ent))) ==
			want;
}

/*
 * Copy the anonymous [s, s + len) to @p dst, skipping the pages never
 * touched: they read as zero, and so does the new memory, whose pages the
 * kernel then clears only when the program touches them, as it would have
 * for the small pages. A .bss of hundreds of MB is mostly such pages.
 * Without /proc/self/pagemap, everything is copied.
 */
static void
copy_anon(uint8_t *dst, uintptr_t s, size_t len, int pagemap)
{
	size_t pg = (size_t)getpagesize(), i, n, run;
	uint64_t ent[1024];

	for (; len > 0; dst += n * pg, s += n * pg, len -= n * pg) {
		n = len / pg < 1024 ? len / pg : 1024;
		if (!pm_read(pagemap, s, pg, ent, n)) {
			ht_copy(dst, (const void *)s, len);
			return;
		}
		for (i = 0; i < n; i += run) {
			for (run = 1; i + run < n &&
					pm_used(ent[i + run]) ==
							pm_used(ent[i]);
					run++)
				;
			if (pm_used(ent[i]))
				ht_copy(dst + i * pg,
						(const void *)(s + i * pg),
						run * pg);
		}
	}
}

/* Copy what is mapped of the range into the reserved memory. */
static void
range_fill(struct ht_range *r, const struct ht_maps *maps)
{
	int pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	const struct ht_map *m = NULL;
	uint8_t *copy = r->copy;
	uintptr_t s, e;

	while (ht_maps_next(maps, &m, r->start, r->start + r->len, &s, &e)) {
		if (m->prot == PROT_NONE)
			continue; /* padding: left zero */
		if (m->path[0] == '\0' || m->path[0] == '[') {
			copy_anon(copy + (s - r->start), s, e - s, pagemap);
			continue;
		}
		/* One call faults the file in, not one fault per page. */
		madvise((void *)s, e - s, MADV_POPULATE_READ);
		ht_copy(copy + (s - r->start), (const void *)s, e - s);
	}
	if (pagemap >= 0)
		close(pagemap);
}

/*
 * Whether everything mapped in the range before the move still is:
 * msync() fails with ENOMEM where nothing is mapped. The range itself
 * may hold holes (padding, space above the object), which must not be
 * taken for a failed move's unmapping.
 */
static bool
range_intact(const struct ht_range *r, const struct ht_maps *maps)
{
	const struct ht_map *m = NULL;
	uintptr_t s, e;

	while (ht_maps_next(maps, &m, r->start, r->start + r->len, &s, &e))
		if (msync((void *)s, e - s, MS_ASYNC) != 0)
			return false;
	return true;
}

/* The range was unmapped and the copy not moved: put the bytes back. */
static int
range_restore(struct ht_range *r, const struct ht_log *log)
{
	void *p;

	p = mmap((void *)r->start, r->len, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	if (p == MAP_FAILED) {
		ht_log(log, HT_ERR, "range %#lx lost, cannot map it again\n",
				(unsigned long)r->start);
		return -ENOMEM;
	}
	ht_copy(p, r->copy, r->len);
	mprotect(p, r->len, r->prot);
	ht_log(log, HT_WARNING, "range %#lx put back on small pages\n",
			(unsigned long)r->start);
	return 0;
}

int
ht_range_move(struct ht_range *r, const struct ht_maps *maps,
		const struct ht_log *log)
{
	void *to = (void *)r->start;
	int err;

	range_fill(r, maps);
	if (r->backing == RTE_HUGETEXT_THP_COPY)
		madvise(r->copy, r->len, MADV_COLLAPSE);
	if (mprotect(r->copy, r->len, r->prot) != 0 ||
			mremap(r->copy, r->len, r->len,
					MREMAP_MAYMOVE | MREMAP_FIXED,
					to) != to) {
		err = -errno;
		if (!range_intact(r, maps) && range_restore(r, log) != 0)
			return err;
		ht_range_release(r);
		return err;
	}
	r->copy = NULL;
	return 0;
}

/* Is @p line the header of an smaps entry ("start-end perms ...")? */
static bool
smaps_header(const char *line, uintptr_t *start)
{
	char *end;

	*start = (uintptr_t)strtoull(line, &end, 16);
	return end > line && *end == '-';
}

/* Bytes of AnonHugePages in the smaps entry starting at @p start. */
static size_t
smaps_anon_huge(uintptr_t start)
{
	char buf[65536], *line, *nl;
	size_t have = 0, result = 0;
	bool in = false;
	ssize_t n;
	int fd;

	fd = open("/proc/self/smaps", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	while ((n = read(fd, buf + have, sizeof(buf) - 1 - have)) > 0) {
		have += (size_t)n;
		buf[have] = '\0';
		for (line = buf; (nl = strchr(line, '\n')) != NULL;
				line = nl + 1) {
			unsigned long long kb;
			uintptr_t a;

			*nl = '\0';
			if (smaps_header(line, &a))
				in = a == start;
			else if (in &&
					sscanf(line, "AnonHugePages: %llu kB",
							&kb) == 1)
				result = (size_t)kb << 10;
		}
		have = strlen(line);
		memmove(buf, line, have);
	}
	close(fd);
	return result;
}

void
ht_range_measure(struct ht_range *r)
{
	if (r->backing == RTE_HUGETEXT_HUGETLB)
		r->huge_bytes = r->len;
	else
		r->huge_bytes = smaps_anon_huge(r->start);
}
