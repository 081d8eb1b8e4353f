/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _EAL_KEEP_H_
#define _EAL_KEEP_H_

/*
 * The kept state of --keep-memzones: a file "memzones" in the runtime
 * directory, mapped shared, that outlives the process (clean exit or
 * SIGKILL) as its hugepage files do. It holds
 *  - the layout the memory had (page sizes, hugetlbfs directories, file
 *    layout, and every memseg list's geometry and address), written by
 *    lib/eal;
 *  - an area lib/malloc keeps its memzone records in (malloc_keep.h).
 *
 * A new primary with --keep-memzones validates the layout against its
 * own, reserves each list at the address it had, and lets lib/malloc
 * bring the memzones back. Anything that does not match is one error,
 * or with --keep-memzones=discard-mismatch a warning and a start
 * without them: never a memzone over the wrong memory.
 *
 * Between two runs with --keep-memzones, another run of the prefix
 * without it may reuse the files as plain heap memory. Each hugetlbfs
 * directory therefore holds a marker, <prefix>.keep, whose inode and
 * change time the table records: every run without --keep-memzones
 * removes it, so the table no longer matches.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <limits.h>

#include <rte_config.h>

#include "eal_hugepage_info.h"
#include "eal_options.h"

#define EAL_KEEP_MAGIC 0x4b5a4d52U /* "RMZK" */
#define EAL_KEEP_VERSION 1
#define EAL_KEEP_FILE "memzones"
/* Beside it while a lazy image restore fills kept memzones. */
#define EAL_KEEP_FILLING_SUFFIX ".filling"
#define EAL_KEEP_AREA_OFF (64U << 10)
#define EAL_KEEP_FILE_LEN (1U << 20)

/* A memseg list as the table records it. */
struct eal_keep_list {
	uint64_t base_va;
	uint64_t page_sz;
	uint32_t n_segs;
	int32_t socket_id;
	uint32_t file_list; /* the list's number in file names */
	uint32_t reserved;
};

/* A hugetlbfs directory and its marker. */
struct eal_keep_dir {
	uint64_t page_sz;
	uint64_t mark_ino; /* inode of <dir>/<prefix>.keep */
	int64_t mark_sec; /* its change time */
	int64_t mark_nsec;
	char path[PATH_MAX];
};

/* The start of the file. */
struct eal_keep_hdr {
	uint32_t magic; /* EAL_KEEP_MAGIC, written last */
	uint32_t version; /* EAL_KEEP_VERSION */
	uint64_t sum; /* checksum of what follows it, up to n_kept */
	uint32_t uid; /* effective user that wrote it */
	uint32_t single_file; /* 1: --single-file-segments */
	uint32_t n_dirs;
	uint32_t n_lists;
	struct eal_keep_dir dirs[EAL_MAX_PAGE_SIZES];
	struct eal_keep_list lists[RTE_MAX_MEMSEG_LISTS];
	/*
	 * At least the number of memzones the area holds: lib/malloc adds
	 * one before a record is made live and takes one after a record
	 * is erased. 0 says that discarding the table loses nothing.
	 */
	uint64_t n_kept;
};

/* This process's view of the table. */
struct eal_keep {
	enum eal_keep_memzones mode; /* EAL_KEEP_OFF: no table */
	int fd; /* the file, or -1 */
	struct eal_keep_hdr *hdr; /* the mapped file, or NULL */
	bool restore; /* the table is the last run's and matches so far */
	const char *image; /* --memzone-image, which the memzones come from
			    * when the kept files are lost; NULL without it */
	bool files_lost; /* the mismatch is lost files, not the options */
	char path[PATH_MAX + 16]; /* of the file, for messages */
};

/*
 * Map the table of the primary process in runtime directory @p rt_dir, as
 * a secondary process: the memzones it reserves and frees are recorded
 * there as the primary's are. The primary checked and set the table up.
 *
 * @return 0, or a negative errno with one line in @p err.
 */
int eal_keep_attach(struct eal_keep *k, enum eal_keep_memzones mode,
		const char *rt_dir, char *err, size_t len);

/*
 * Open the table in runtime directory @p rt_dir (creating it), before
 * the prefix's files are touched, and check what can be checked before
 * the lists are laid out: version, user, file layout, directories. With
 * EAL_KEEP_OFF, remove it instead: this run will reuse its memory.
 *
 * @return 0, or a negative errno with one line in @p err.
 */
int eal_keep_open(struct eal_keep *k, const struct eal_options *opts,
		const struct eal_hugepage_info *hpi, const char *rt_dir,
		char *err, size_t err_len);

/*
 * After the prefix lock of every directory is held: check their markers.
 * Without a table, remove the marker of @p dir (a run that may reuse the
 * files' memory).
 */
int eal_keep_check_marks(struct eal_keep *k, const char *prefix, char *err,
		size_t err_len);

/* Remove the marker of @p prefix in @p dir (a run without a table). */
void eal_keep_unmark(const char *dir, const char *prefix);

/*
 * Whether list @p l of geometry @p want matches the table. When it does
 * and the table is being restored, @p base is set to where the list must
 * be reserved (exactly); otherwise to NULL.
 *
 * @return 0, or a negative errno with one line in @p err (strict mode).
 */
int eal_keep_list_check(struct eal_keep *k, unsigned int l,
		const struct eal_keep_list *want, void **base, char *err,
		size_t err_len);

/*
 * The table does not match this run because of @p why: with nothing kept
 * or in discard-mismatch mode, reset it (logging what was discarded) and
 * return 0; in strict mode return -EINVAL with the error in @p err.
 */
int eal_keep_mismatch(
		struct eal_keep *k, const char *why, char *err, size_t err_len);

/*
 * Write the layout of this run (lists laid out and reserved) into a table
 * that is not being restored, with fresh markers in each directory.
 *
 * @return 0, or a negative errno with one line in @p err.
 */
int eal_keep_commit(struct eal_keep *k, const struct eal_options *opts,
		const struct eal_hugepage_info *hpi,
		const struct eal_keep_list *lists, unsigned int n_lists,
		char *err, size_t err_len);

/* Unmap and close the table; the file stays. */
void eal_keep_close(struct eal_keep *k);

/*
 * For lib/malloc: the area of the initialized EAL's table, its length in
 * @p len, and in @p restore whether it holds the last run's records.
 *
 * @return the area, or NULL without --keep-memzones.
 */
void *eal_keep_area(size_t *len, bool *restore);

/*
 * For lib/malloc: the table cannot be restored because of @p why
 * (eal_keep_mismatch() on the initialized EAL's table).
 */
int eal_keep_area_mismatch(const char *why, char *err, size_t err_len);

/*
 * The checksum of the table's parts: FNV-1a over @p len bytes at @p p,
 * started from @p seed.
 */
uint64_t eal_keep_sum(uint64_t seed, const void *p, size_t len);

/* For lib/malloc: add @p delta to n_kept (see struct eal_keep_hdr). */
void eal_keep_count(int delta);

/*
 * For lib/malloc: mark (@p on) that the kept memzones are being filled
 * lazily from a memory image, or clear the mark once every page is in.
 * A process that ends in between leaves pages it never wrote: holes,
 * which a restart cannot see in a file of one memseg list, and would
 * read as zeros. While the mark (a file beside the table) is there, the
 * next start takes the kept memzones for lost: it brings them back from
 * --memzone-image if given, else refuses (strict) or discards them.
 *
 * @return 0, or -errno (the mark could not be made: nothing is kept
 *   safely then).
 */
int eal_keep_filling(bool on);

#endif /* _EAL_KEEP_H_ */
