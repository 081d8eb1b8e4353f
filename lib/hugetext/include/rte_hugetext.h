/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _RTE_HUGETEXT_H_
#define _RTE_HUGETEXT_H_

/**
 * @file
 * Program text and data on huge pages.
 *
 * rte_hugetext_remap() moves the loadable segments of the running
 * executable (and of shared libraries named by the caller) onto huge
 * pages: code, read-only data, .data, .bss and the start of the brk heap
 * that shares a huge page with .bss. Each huge page is filled with a copy
 * of what is there, given the protection of what it replaces, and moved
 * into place with one mremap() that replaces the old mapping atomically;
 * the program keeps running from the same addresses.
 *
 * Only huge pages lying wholly inside what the object maps are moved, so
 * a binary linked without huge page alignment keeps the unaligned head
 * and tail of each segment on small pages. Pages that mix protections
 * (a RELRO boundary) or objects are left alone.
 *
 * The library needs no hugetlbfs mount and nothing else of rtemem. It is
 * used three ways: called by the application, by rte_eal_init() for the
 * EAL option --huge-text, and as a preload library for unmodified
 * programs: when librtemem_hugetext.so is loaded, the environment
 * variable RTEMEM_HUGETEXT (off, auto, enforce or thp) applies, with
 * RTEMEM_HUGETEXT_LIBS, RTEMEM_HUGETEXT_PERF_MAP and
 * RTEMEM_HUGETEXT_VERBOSE.
 *
 * The remap copies writable data and then moves the copy in: call it
 * while no other thread runs, as at start-up; a write by another thread
 * between the copy and the move would be lost.
 */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** What rte_hugetext_remap() may do. */
enum rte_hugetext_mode {
	/** Change nothing. */
	RTE_HUGETEXT_OFF = 0,
	/**
	 * Hugetlb pages where the pool has them, else an anonymous copy on
	 * transparent huge pages, else leave the range on small pages; never
	 * fails for lack of pages.
	 */
	RTE_HUGETEXT_AUTO,
	/**
	 * Hugetlb pages for every range that can be moved, and at least one
	 * range; otherwise fail and change nothing.
	 */
	RTE_HUGETEXT_ENFORCE,
	/** Transparent huge pages only (an anonymous copy collapsed). */
	RTE_HUGETEXT_THP,
};

/** How a moved range is backed. */
enum rte_hugetext_backing {
	RTE_HUGETEXT_HUGETLB = 0, /**< hugetlb pages, private */
	RTE_HUGETEXT_THP_COPY, /**< anonymous memory, transparent huge pages */
};

/** Log callback: @p level as in rte_log.h (4 error ... 8 debug). */
typedef void (*rte_hugetext_log_t)(
		unsigned int level, const char *line, void *arg);

/** Parameters of rte_hugetext_remap(). Zero-initialise, then set. */
struct rte_hugetext_conf {
	enum rte_hugetext_mode mode; /**< what may be done */
	/**
	 * Shared libraries to move too, separated by commas: a file name
	 * ("libcrypto.so.3") or a name prefix ("libcrypto") matched against
	 * the base name of each loaded object. NULL or "": the executable
	 * only.
	 */
	const char *libs;
	/**
	 * Hugetlb page sizes that may be used, as the bitwise OR of the sizes
	 * in bytes ((1 << 21) | (1 << 30)); 0 for every size the kernel
	 * offers. A range takes the largest size that has whole pages in it.
	 */
	uint64_t page_sizes;
	/**
	 * Non-zero: write /tmp/perf-PID.map naming the functions of moved
	 * code, so that perf can name them: it cannot read symbols from
	 * anonymous memory.
	 */
	int perf_map;
	rte_hugetext_log_t log; /**< NULL: lines to stderr, errors and warnings */
	void *log_arg; /**< passed to @p log */
};

/** One range moved onto huge pages. */
struct rte_hugetext_range {
	uintptr_t start; /**< first byte, aligned to @p page_size */
	size_t len; /**< bytes, a multiple of @p page_size */
	size_t page_size; /**< hugetlb or THP page size, bytes */
	int prot; /**< PROT_* it had and keeps */
	enum rte_hugetext_backing backing; /**< how it is backed now */
	size_t huge_bytes; /**< of @p len, bytes the kernel backs with huge pages */
	size_t heap_bytes; /**< of @p len, bytes that were brk heap */
	char object[64]; /**< base name of the object ("" if truncated) */
};

/** What the last rte_hugetext_remap() did. */
struct rte_hugetext_report {
	enum rte_hugetext_mode mode; /**< mode it ran in; OFF if never run */
	int status; /**< its return value */
	unsigned int objects; /**< objects examined */
	unsigned int segments; /**< PT_LOAD segments examined */
	unsigned int ranges; /**< ranges moved */
	size_t hugetlb_bytes; /**< bytes now on hugetlb pages */
	size_t thp_bytes; /**< bytes now in THP copies */
	size_t small_bytes; /**< bytes of the segments left on small pages */
	size_t heap_bytes; /**< bytes of brk heap moved with .bss */
	unsigned int fallbacks; /**< ranges copied to THP for lack of hugetlb pages */
	uint64_t elapsed_ns; /**< time the remap took */
};

/**
 * Move the executable's segments (and the libraries in @p conf) onto huge
 * pages.
 *
 * Each range is either moved or left exactly as it was: a copy is built
 * away from it, and one mremap() replaces the original. If even that
 * fails, the contents are put back on small pages. In enforce mode the
 * hugetlb pages for every range are reserved before anything is moved,
 * so a short pool changes nothing.
 *
 * A second call finds what the first moved no longer backed by the file
 * and moves nothing more; it returns 0.
 *
 * @param conf
 *   What to do; NULL is the executable in auto mode.
 * @return
 *   0 on success (in auto mode also when nothing could be moved);
 *   -EINVAL for a bad @p conf; -ENOENT if a library in @p conf->libs is
 *   not loaded; in enforce mode -ENOMEM if hugetlb pages are short and
 *   -ENOEXEC if no range can be moved; another -errno if reading
 *   /proc/self fails. The reason is logged.
 */
int rte_hugetext_remap(const struct rte_hugetext_conf *conf);

/**
 * Parse a mode name: "off", "auto", "enforce" or "thp".
 *
 * @param name
 *   The name.
 * @param mode
 *   Set to the mode named.
 * @return
 *   0 and @p mode set, or -EINVAL.
 */
int rte_hugetext_mode_parse(const char *name, enum rte_hugetext_mode *mode);

/**
 * The name of a mode, as rte_hugetext_mode_parse() reads it.
 *
 * @param mode
 *   A mode.
 * @return
 *   A static string; "?" for a value out of range.
 */
const char *rte_hugetext_mode_name(enum rte_hugetext_mode mode);

/**
 * What the last rte_hugetext_remap() in this process did.
 *
 * @param report
 *   Filled in; all zero (mode OFF) if it never ran.
 * @return
 *   0, or -EINVAL if @p report is NULL.
 */
int rte_hugetext_report_get(struct rte_hugetext_report *report);

/**
 * One range moved by the last rte_hugetext_remap().
 *
 * @param idx
 *   0 to report->ranges - 1.
 * @param range
 *   Filled in.
 * @return
 *   0, or -EINVAL if @p range is NULL or @p idx out of range.
 */
int rte_hugetext_range_get(unsigned int idx, struct rte_hugetext_range *range);

#ifdef __cplusplus
}
#endif

#endif /* _RTE_HUGETEXT_H_ */
