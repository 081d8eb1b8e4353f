/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _EAL_HUGEFILE_H_
#define _EAL_HUGEFILE_H_

/*
 * Hugepage files: their names, what each --huge-unlink mode does with them,
 * and the locks that tell other processes a file is in use.
 *
 * Names are <dir>/<prefix>map_<n>: n = list * RTE_MAX_MEMSEG_PER_LIST + slot
 * for a file per page, n = list for a single file per list, where list is
 * the list's number among those of its page size, plus node *
 * RTE_MAX_MEMSEG_LISTS. A restart with the same prefix finds each file at
 * the same slot, also when another page size came or went in between.
 *
 * Locks: a process holds <dir>/<prefix>.lock exclusively for as long as it
 * uses the prefix, so a second process with the same prefix fails to start
 * instead of deleting or sharing its files. Each page file is also locked
 * (flock) while mapped; the lock is taken before mapping and then lives as
 * long as the mapping does, because the mapping keeps the open file alive
 * after its descriptor is closed. So no descriptor per page is held, and a
 * crashed process's locks vanish with it.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eal_options.h"

/* What a --huge-unlink mode does with files (see design.md's table). */
struct eal_hugefile_policy {
	bool clear_stale; /* at init, remove this prefix's unheld files */
	bool unlink_after_map; /* remove a file as soon as it is mapped */
	bool reuse; /* map existing files as they are (pages dirty) */
	bool unlink_on_free; /* remove a page's file when it is given back */
	bool unlink_at_exit; /* remove the files still mapped at cleanup */
	bool unlink_fresh_at_exit; /* and those without earlier data */
};

/* What eal_hugefile_open_locked() found, from the checks it made. */
struct eal_hugefile_found {
	bool created; /* the call made the file */
	uint64_t size; /* of a file found; 0 for a new one */
	uint64_t allocated; /* bytes with a page behind them */
	char why[64]; /* what an entry that is not ours is */
};

/* The policy of @p mode after a failed start (unlink_fresh_at_exit). */
const struct eal_hugefile_policy *eal_hugefile_policy_failed(
		enum eal_huge_unlink mode);

/* The policy of @p mode. */
const struct eal_hugefile_policy *eal_hugefile_policy_get(
		enum eal_huge_unlink mode);

/* Write <dir>/<prefix>map_<id> into @p buf. */
void eal_hugefile_path(char *buf, size_t len, const char *dir,
		const char *prefix, unsigned int id);

/*
 * Write <prefix>map_<id> into @p buf: the name to open relative to a
 * descriptor of the directory, which saves the kernel a walk of the
 * directory's path for each of thousands of pages.
 */
void eal_hugefile_name(
		char *buf, size_t len, const char *prefix, unsigned int id);

/*
 * Take the prefix lock in @p dir for the life of the process.
 *
 * @return the lock's descriptor, -EBUSY if another process holds it, or
 *   another -errno. A line in @p err says which.
 */
int eal_hugefile_prefix_lock(
		const char *dir, const char *prefix, char *err, size_t err_len);

/*
 * Release the prefix lock, removing its file, and the record of the
 * layout too when no page file of the prefix is left: the caller says
 * with @p left that one is, or else @p dir is read to find out.
 */
void eal_hugefile_prefix_unlock(
		int fd, const char *dir, const char *prefix, bool left);

/*
 * Open @p path, creating it if missing, and lock it exclusively. A file is
 * locked before anything else is done to it: a file that exists may belong
 * to a live process (of another program using the same names, say).
 * A relative @p path is taken from directory @p dirfd (or AT_FDCWD).
 *
 * @param reuse
 *   true (--huge-unlink=never): open an existing file as it is, trying
 *   it first (a warm restart saves a system call per page). false: an
 *   existing file that nobody holds is a leftover, replaced by a new one.
 * An entry at @p path that is not a regular file the effective user owns
 * with no group or other access is never opened as ours. One that is ours
 * but open to others is replaced by a new file (its data may have been
 * read or changed by others); anything else is left as it is.
 *
 * @p path is relative to @p dirfd, which messages name as @p dir (NULL
 * when @p path is whole).
 *
 * @return the descriptor, with @p f saying whether this call made the
 *   file and, for one it found, its size and allocated bytes; -EBUSY if
 *   another process holds it; -EPERM if the entry is not ours (what it
 *   is in f->why: "a FIFO", "owned by uid 1000"); or another -errno.
 */
int eal_hugefile_open_locked(int dirfd, const char *dir, const char *path,
		bool reuse, struct eal_hugefile_found *f);

/*
 * Remove the files of @p prefix in @p dir that no process holds locked
 * (left by a crash); files of other prefixes are never touched. Entries
 * with the prefix's names that are not files of ours (another user's, a
 * FIFO, a directory, a link) are removed only if the effective user owns
 * @p dir; otherwise they stay, with a warning.
 *
 * @return the number of files removed, or -errno if @p dir is unreadable.
 */
int eal_hugefile_clear_stale(const char *dir, const char *prefix);

/*
 * Keep the files of @p prefix in @p dir of one layout: one file per page,
 * or one per memseg list (@p single). Both name their files
 * <prefix>map_<n>, so a file kept by one layout would be taken for
 * another file by the other. An empty file <dir>/<prefix>.layout-page or
 * <prefix>.layout-single records the layout of the kept files. When it differs from @p single, every file of the prefix
 * in @p dir is removed (their pages come back), with a log line. With
 * @p keep (--huge-unlink=never) the record is then written; otherwise it
 * is removed, since no file is kept. The caller holds the prefix lock.
 *
 * @return the number of files removed, or -errno.
 */
int eal_hugefile_layout_check(
		const char *dir, const char *prefix, bool single, bool keep);

/*
 * Count the pages held by the files of @p prefix in @p dir: the pages a
 * restart with --huge-unlink=never can map again without free ones.
 * A file per page counts one page per file name (no stat per file); single
 * files count their allocated bytes.
 *
 * @return the number of pages, or -errno if @p dir is unreadable.
 */
int eal_hugefile_count_pages(const char *dir, const char *prefix,
		uint64_t page_sz, bool single_file);

/*
 * Whether @p path (relative to @p dirfd, named @p dir in messages as for
 * eal_hugefile_open_locked()) is a kept page file: a regular file of the
 * effective user, no group or other access, at least @p size bytes long,
 * with pages behind it.
 *
 * @return 0, or -1 with what it is instead in @p why ("... is missing").
 */
int eal_hugefile_holds(int dirfd, const char *dir, const char *path,
		uint64_t size, char *why, size_t why_len);

/*
 * Open @p path, a file another process of the prefix made and maps, to
 * map it too: no lock (its maker holds that), nothing created or
 * replaced. It must be a regular file of the effective user, no group
 * or other access, at least @p size bytes long. A relative @p path is
 * taken from directory @p dirfd (or AT_FDCWD).
 *
 * @return the descriptor, -EPERM for an entry that is not such a file,
 *   or another -errno (-ENOENT).
 */
int eal_hugefile_open_peer(int dirfd, const char *path, uint64_t size);

/*
 * The policy of a secondary process of a primary in @p mode: as the
 * primary's while it maps and gives back pages, but nothing at start or
 * exit, which are the primary's to do.
 */
const struct eal_hugefile_policy *eal_hugefile_policy_secondary(
		enum eal_huge_unlink mode);

/*
 * @return true if @p name is a page file of @p prefix (<prefix>map_<n>),
 *   with n in @p id.
 */
bool eal_hugefile_match(const char *name, const char *prefix, unsigned int *id);

#endif /* _EAL_HUGEFILE_H_ */
