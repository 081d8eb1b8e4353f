/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _HUGETEXT_PRIV_H_
#define _HUGETEXT_PRIV_H_

/*
 * The remap in three steps, one file each: find the objects and their
 * PT_LOAD segments (hugetext_object.c), plan the huge pages that may be
 * moved from what /proc/self/maps says is there (hugetext_plan.c, with
 * hugetext_maps.c), then reserve, fill and move each range
 * (hugetext_move.c). All state lives in one struct ht_ctx, mapped with
 * mmap() rather than malloc() because the brk heap may be among what is
 * moved: nothing may write to it between a copy and its move.
 */

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rte_hugetext.h"

#define HT_MAX_OBJECTS 16 /* executable + libraries examined */
/*
 * PT_LOAD segments per object: as many as an ELF header can count
 * (e_phnum), and ranges per call: a page each at least. The state is
 * mapped with MAP_NORESERVE: only what a call fills is memory.
 */
#define HT_MAX_SEGMENTS 65535
#define HT_MAX_RANGES (1U << 16)
#define HT_MAX_SIZES 4 /* hugetlb page sizes */
#define HT_MAX_MAPS 32768 /* lines of /proc/self/maps */
#define HT_MAPS_TEXT (4 << 20) /* bytes of /proc/self/maps */

/* Where messages go and which are wanted. */
struct ht_log {
	rte_hugetext_log_t fn; /* NULL: stderr */
	void *arg; /* for fn */
	unsigned int max_level; /* lines above are dropped */
};

void ht_log(const struct ht_log *log, unsigned int level, const char *fmt, ...)
		__attribute__((format(printf, 3, 4)));

#define HT_ERR 4U
#define HT_WARNING 5U
#define HT_NOTICE 6U
#define HT_INFO 7U
#define HT_DEBUG 8U

/*
 * Read the file at @p path, NUL-terminated, into @p buf of @p cap bytes;
 * its length in *len if @p len is not NULL. 0, or -errno: -E2BIG if it
 * does not fit.
 */
int ht_file_read(const char *path, char *buf, size_t cap, size_t *len)
		__attribute__((warn_unused_result));

/* The decimal number a file starts with; 0 if it cannot be read. */
unsigned long long ht_file_number(const char *path);

/* One line of /proc/self/maps. */
struct ht_map {
	uintptr_t start, end; /* [start, end) */
	int prot; /* PROT_* */
	bool shared; /* 's' rather than 'p' */
	const char *path; /* "" for anonymous, "[heap]", a file... */
};

struct ht_maps {
	struct ht_map map[HT_MAX_MAPS]; /* sorted by address */
	unsigned int n;
	char text[HT_MAPS_TEXT]; /* the file, paths point here */
};

int ht_maps_read(struct ht_maps *maps) __attribute__((warn_unused_result));
/*
 * Walk the lines over [@p start, @p end): from *@p m (NULL: the first),
 * the next one into *@p m, clipped to [*@p s, *@p e).
 * @return false past the last.
 */
bool ht_maps_next(const struct ht_maps *maps, const struct ht_map **m,
		uintptr_t start, uintptr_t end, uintptr_t *s, uintptr_t *e);

/* A loaded ELF object and where its PT_LOAD segments are in memory. */
struct ht_object {
	char path[PATH_MAX]; /* canonical, as /proc/self/maps names it */
	const char *name; /* base name, in path */
	bool is_exe; /* the main program: it owns the brk heap */
	uintptr_t bias; /* load address minus link address */
	uintptr_t lo, hi; /* extent of the segments */
	unsigned int n_seg;
	struct {
		uintptr_t start, end; /* [p_vaddr, p_vaddr + p_memsz) + base */
	} seg[HT_MAX_SEGMENTS];
};

int ht_objects_find(struct ht_object *obj, unsigned int *n, const char *libs,
		const struct ht_log *log) __attribute__((warn_unused_result));

/*
 * What a mode may do. Each mode is one row of a table (rte_hugetext.c),
 * read where its choices matter, instead of the mode being tested there.
 */
struct ht_policy {
	bool hugetlb; /* try hugetlb pages */
	bool thp; /* copy to THP what gets no hugetlb pages */
	bool all_or_nothing; /* a range without hugetlb pages fails the call,
			      * before anything moved */
	bool best_effort; /* no usable page size is nothing to do */
};

/* Page sizes this call may use, ascending. */
struct ht_sizes {
	size_t hugetlb[HT_MAX_SIZES]; /* allowed and offered by the kernel */
	unsigned int n_hugetlb;
	size_t thp; /* PMD size; 0 if THP is off */
	size_t grain; /* granule of the plan */
};

int ht_sizes_find(struct ht_sizes *sizes, const struct ht_policy *policy,
		uint64_t allowed, const struct ht_log *log)
		__attribute__((warn_unused_result));

/* A run of huge pages to move as one mapping. */
struct ht_range {
	uintptr_t start; /* aligned to page_size */
	size_t len; /* multiple of page_size */
	size_t page_size; /* hugetlb size; the THP size if none fits */
	int prot; /* PROT_* of everything in it */
	unsigned int obj; /* index of its object */
	size_t heap_bytes; /* brk heap in it */
	size_t seg_bytes; /* bytes of segments in it */
	void *copy; /* the new memory, until moved */
	enum rte_hugetext_backing backing;
	size_t huge_bytes; /* after the move: bytes on huge pages */
};

struct ht_plan {
	struct ht_range r[HT_MAX_RANGES];
	unsigned int n;
	unsigned int segments; /* PT_LOAD segments seen */
	size_t small_bytes; /* bytes of segments that stay small */
};

/* The brk heap, as the planner needs it. */
struct ht_heap {
	uintptr_t start; /* start_brk; 0 if unknown */
	uintptr_t end; /* brk after ht_heap_prepare() */
	bool extend_failed; /* a huge page would hold brk's end */
};

int ht_heap_prepare(struct ht_heap *heap, const struct ht_object *exe,
		size_t grain, const struct ht_log *log)
		__attribute__((warn_unused_result));

void ht_plan_build(struct ht_plan *plan, const struct ht_object *obj,
		unsigned int n_obj, const struct ht_maps *maps,
		const struct ht_sizes *sizes, const struct ht_heap *heap,
		const struct ht_log *log);

int ht_range_reserve(struct ht_range *r, bool hugetlb)
		__attribute__((warn_unused_result));
void ht_range_release(struct ht_range *r);
int ht_range_move(struct ht_range *r, const struct ht_maps *maps,
		const struct ht_log *log) __attribute__((warn_unused_result));
void ht_range_measure(struct ht_range *r);

int ht_perf_map_write(const struct ht_plan *plan, const struct ht_object *obj,
		unsigned int n_obj, const struct ht_log *log);

/*
 * rte_hugetext_remap(), logging at @p nothing_level that enforce mode
 * found no whole huge page to move (-ENOEXEC).
 */
int ht_remap(const struct rte_hugetext_conf *conf, unsigned int nothing_level);

/* Everything one call needs, mapped as one block. */
struct ht_ctx {
	struct ht_log log;
	struct ht_sizes sizes;
	struct ht_heap heap;
	unsigned int n_obj;
	struct ht_object obj[HT_MAX_OBJECTS];
	struct ht_plan plan;
	struct ht_maps maps;
};

#endif /* _HUGETEXT_PRIV_H_ */
