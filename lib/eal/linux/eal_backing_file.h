/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _EAL_BACKING_FILE_H_
#define _EAL_BACKING_FILE_H_

/*
 * The file per page backing (eal_backing_file.c) and its deferred pages
 * (eal_backing_file_defer.c): what they share. Called as the backing's
 * functions are (eal_mem.h), except where said.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_memory.h>

#include "eal_hugefile.h"
#include "eal_mem.h"

/* The path of a page's file, for messages and for calls made rarely. */
void eal_bfile_path(const struct eal_mem *mem, unsigned int l, unsigned int idx,
		char *path, size_t len);

/* Remove a page's file, by name from the list's directory. */
void eal_bfile_remove(
		const struct eal_mem *mem, unsigned int l, unsigned int idx);

/*
 * Open and lock a page's file as the policy says, sized to one page, and
 * tell whether it holds earlier data.
 *
 * @return the descriptor, or as eal_hugefile_open_locked().
 */
int eal_bfile_open(const struct eal_mem *mem, unsigned int l, unsigned int idx,
		bool *dirty, struct eal_hugefile_found *f);

/*
 * Map a page's file at its slot, keeping the slot reserved on failure;
 * or, in a @p hole (see eal_os_single_thread()), leaving it a hole.
 */
int eal_bfile_map_slot(const struct rte_memseg_list *msl, unsigned int idx,
		int fd, bool hole);

/* The list's memfd tables: its descriptors and which slots are memfds. */
int eal_bfile_anon_tables(struct eal_mem *mem, unsigned int l);

/*
 * A hugetlbfs memfd named @p name, of pages of @p page_sz, @p size bytes
 * long: one page for a slot whose file name is taken, a list's slots
 * for the stand-in of its deferred ones.
 * @return it, or a negative errno.
 */
int eal_bfile_memfd(const char *name, uint64_t page_sz, uint64_t size);

/*
 * Slot @p idx is served by memfd @p fd from now on (the tables exist;
 * other slots' bits may change at the same time).
 */
void eal_bfile_anon_set(
		struct eal_mem *mem, unsigned int l, unsigned int idx, int fd);

/* Into @p buf: the entry at @p path is @p why, not a file of ours. */
void eal_bfile_foreign(
		char *buf, size_t len, const char *path, const char *why);

/* Say that a page comes from a memfd, because of @p what. */
void eal_bfile_anon_warn(const char *what);

/*
 * Deferred slots: map [idx, idx + n) EAL_MAP_DEFERRED (at init); whether
 * slot @p idx waits for its file (from any thread); make, fill and map
 * its file (the backing's place); end [idx, idx + n) as they are
 * unmapped, in one call for the run; free the list's stand-in at
 * release.
 */
int eal_bfile_defer(struct eal_mem *mem, unsigned int l, unsigned int idx,
		unsigned int n);
bool eal_bfile_deferred(
		const struct eal_mem *mem, unsigned int l, unsigned int idx);
int eal_bfile_place(struct eal_mem *mem, unsigned int l, unsigned int idx,
		int (*fill)(void *view, void *arg, char *err, size_t err_len),
		void *arg, char *err, size_t err_len);
void eal_bfile_defer_unmap(struct eal_mem *mem, unsigned int l,
		unsigned int idx, unsigned int n);
void eal_bfile_defer_free(struct eal_mem *mem, unsigned int l);

#endif /* _EAL_BACKING_FILE_H_ */
