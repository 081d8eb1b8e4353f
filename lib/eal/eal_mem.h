/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _EAL_MEM_H_
#define _EAL_MEM_H_

/*
 * The process-local side of the memory layer: what this process holds that
 * another could not share (descriptors, the chosen strategies), next to the
 * shared configuration it manages.
 *
 * Two kinds of strategy are chosen once at init, each a table of functions:
 * - a backing (struct eal_backing): where pages come from. File per page,
 *   single file per list, memfd (--in-memory), anonymous (--no-huge);
 * - a mode (struct eal_mem_mode): when pages come. Dynamic (on demand, given
 *   back when freed) or legacy (all at start, never given back).
 * The --huge-unlink mode is data (struct eal_hugefile_policy) read by the
 * file backings.
 */

#include <stdbool.h>
#include <stdint.h>
#include <limits.h>
#include <pthread.h>

#include <rte_eal.h>
#include <rte_memory.h>

#include "eal_keep.h"
#include "eal_memcfg.h"
#include "eal_options.h"
#include "eal_hugepage_info.h"
#include "eal_mem_event.h"
#include "eal_memalloc.h"
#include "eal_mp.h"
#include "linux/eal_runtime.h"

struct eal_mem;
struct eal_hugefile_policy;
struct eal_msl_deferred;

/* Where pages come from. Every function is called with the hotplug lock
 * held for writing (or during init). */
struct eal_backing {
	const char *name; /* "file per page", ... */
	bool uses_files; /* pages live in named files in a hugetlbfs
			  * directory, under a --huge-unlink policy */
	/*
	 * Map slots [idx, idx + n) of list @p l at their addresses and fault
	 * them in. dirty[i] is set when page idx + i may hold data from an
	 * earlier mapping. With EAL_MAP_EMPTY, earlier data is dropped
	 * instead, and nothing is allocated or faulted in (the mapping still
	 * reserves the pages); -ENOTSUP where the backing cannot. With
	 * EAL_MAP_DEFERRED likewise, and a backing that has place makes
	 * the pages' files later, one by one. On failure
	 * every slot is back to reserved address space and no file this call
	 * created remains.
	 */
	int (*map)(struct eal_mem *mem, unsigned int l, unsigned int idx,
			unsigned int n, enum eal_map_fill fill, bool *dirty);
	/* Give slots [idx, idx + n) back; their address space stays reserved. */
	int (*unmap)(struct eal_mem *mem, unsigned int l, unsigned int idx,
			unsigned int n);
	/* The file and offset of a mapped slot (rte_memseg_get_fd). */
	int (*get_fd)(struct eal_mem *mem, unsigned int l, unsigned int idx,
			int *fd, uint64_t *off);
	/*
	 * Map slot @p idx's file page a second time, anywhere, shared, into
	 * @p view, leaving no descriptor open: a view through which a page
	 * that a userfaultfd holds can be filled. May run beside any other
	 * call: it reads only what a mapped slot keeps. NULL, or -ENOTSUP:
	 * the page has no file to map again.
	 */
	int (*view)(struct eal_mem *mem, unsigned int l, unsigned int idx,
			void **view);
	/*
	 * EAL_MAP_DEFERRED: whether slot @p idx waits for its file, and
	 * make, fill and map it (eal_memalloc_fill_deferred()). May run
	 * beside any other call, as view. NULL: the backing maps such pages
	 * empty.
	 */
	bool (*deferred)(const struct eal_mem *mem, unsigned int l,
			unsigned int idx);
	int (*place)(struct eal_mem *mem, unsigned int l, unsigned int idx,
			int (*fill)(void *view, void *arg, char *err,
					size_t err_len),
			void *arg, char *err, size_t err_len);
	/*
	 * At exit, after the list's address space is gone: drop descriptors
	 * and remove files as the --huge-unlink mode says.
	 *
	 * @return true if a page file of the list stays in its directory.
	 */
	bool (*release)(struct eal_mem *mem, unsigned int l);
	/*
	 * Whether slots [idx, idx + n) of list @p l, not mapped, have kept
	 * files holding a page each (--keep-memzones), checked without
	 * opening them. NULL: the backing keeps nothing.
	 *
	 * @return 0, or -ENOENT with what is missing in @p why.
	 */
	int (*kept)(const struct eal_mem *mem, unsigned int l, unsigned int idx,
			unsigned int n, char *why, size_t why_len);
	/*
	 * Map slots [idx, idx + n) of list @p l, which another process of
	 * the prefix mapped, from the same files. On failure every slot is
	 * back to reserved address space. NULL: other processes cannot
	 * share the backing's pages.
	 */
	int (*attach)(struct eal_mem *mem, unsigned int l, unsigned int idx,
			unsigned int n);
	/* Unmap slots another process gave back; files are left alone. */
	void (*detach)(struct eal_mem *mem, unsigned int l, unsigned int idx,
			unsigned int n);
};

extern const struct eal_backing eal_backing_file;
extern const struct eal_backing eal_backing_single;
extern const struct eal_backing eal_backing_single_shared; /* secondary */
extern const struct eal_backing eal_backing_memfd;
extern const struct eal_backing eal_backing_anon;

/* When pages come. */
struct eal_mem_mode {
	const char *name; /* "dynamic" or "legacy" */
	bool can_grow; /* pages may be mapped and unmapped after init */
	/* Map the memory the options ask for at start. */
	int (*init)(struct eal_mem *mem, char *err, size_t err_len);
};

extern const struct eal_mem_mode eal_mem_mode_dynamic;
extern const struct eal_mem_mode eal_mem_mode_legacy;

/* Per memseg list, what this process holds. */
struct eal_msl_local {
	const char *dir; /* hugetlbfs directory of the list's files, or NULL */
	int dir_fd; /* an O_PATH descriptor of dir, when dir is set */
	unsigned int file_list; /* the list's number in file names: node *
				 * RTE_MAX_MEMSEG_LISTS + its index among the
				 * lists of its page size and node */
	int fd; /* single file or memfd: the list's file; -1 otherwise */
	bool fd_created; /* single file: this process created the file */
	bool fd_anon; /* single file: a memfd serves the list, because the
		       * entry with its file's name is not ours */
	uint64_t *may_hold_data; /* single file: bit per slot whose file range
				  * may hold earlier data; NULL otherwise */
	uint64_t whole_len; /* single file: bytes from its start that have
			     * a page behind each, as far as this process
			     * knows (a file found full); 0 if unknown */
	int *seg_fds; /* file per page: descriptors opened on demand by
		       * rte_memseg_get_fd(), -1 when closed; NULL until then */
	uint64_t *anon_slots; /* file per page: bit per slot served by a
			       * memfd because the entry with its file's
			       * name is not ours; NULL until one is */
	struct eal_msl_deferred *deferred; /* file per page: the slots mapped
					    * EAL_MAP_DEFERRED; NULL until
					    * one is */
	bool reserved; /* secondary: the list's range is reserved here */
	uint64_t *mapped; /* bit per slot this process maps, when other
			   * processes may share the list (eal_mp.h) */
};

/* The memory layer of this process. */
struct eal_mem {
	struct rte_mem_config *mcfg; /* shared configuration */
	const struct eal_options *opts; /* parsed options */
	const struct eal_hugepage_info *hpi; /* discovered page sizes */
	const struct eal_backing *backing;
	const struct eal_mem_mode *mode;
	const struct eal_hugefile_policy *policy; /* NULL without files */
	struct eal_msl_local local[RTE_MAX_MEMSEG_LISTS];
	int prefix_lock_fd[EAL_MAX_PAGE_SIZES]; /* per hugetlbfs dir, or -1 */
	int pagemap_fd; /* /proc/self/pagemap, kept open for IOVA as PA */
	pthread_mutex_t fd_lock; /* guards seg_fds: walks may run in parallel */
	/*
	 * Held by the backing while it takes hugepages from the pool, and
	 * by a deferred page's fill while it trades the page's reservation
	 * for one of its own file (EAL_MAP_DEFERRED), so that no other
	 * mapping of this process takes the page in between. Taken after
	 * the hotplug lock; whoever holds it touches no memory a lazy
	 * restore fills (the fill may be waiting for it).
	 */
	pthread_mutex_t pool_lock;
	struct eal_mem_events events; /* callbacks and validators */
	struct eal_keep keep; /* --keep-memzones table */
	int config_fd; /* the runtime directory's config file, or -1 */
	struct eal_mp mp; /* this process in the config's process table */
	bool secondary; /* the config is a primary's, attached to */
	bool init_done; /* events are sent only after init */
};

/*
 * Build the memory layer in runtime directory @p rt (none with
 * --no-shconf): open the kept memzone table, lay out and create the
 * memseg lists with the memory config in the config file, take the file
 * prefix lock, clear stale files, map what the options ask for.
 *
 * @return 0, or a negative errno with one line in @p err.
 */
int eal_mem_init(struct eal_mem *mem, const struct eal_options *opts,
		const struct eal_hugepage_info *hpi,
		const struct eal_runtime *rt, char *err, size_t err_len);

/* Set @p mem up empty, with the strategies @p opts choose. */
void eal_mem_setup(struct eal_mem *mem, const struct eal_options *opts,
		const struct eal_hugepage_info *hpi);

/*
 * Attach to the memory layer of the live primary of runtime directory
 * @p rt, as a secondary process: map its config, check that this process
 * can share it (version, hugetlbfs directories, file modes), reserve
 * each list at the primary's address and map every used page there.
 *
 * @return 0, or a negative errno with one line in @p err.
 */
int eal_mem_attach(struct eal_mem *mem, const struct eal_options *opts,
		const struct eal_hugepage_info *hpi,
		const struct eal_runtime *rt, char *err, size_t err_len);

/*
 * Unmap every page without clearing it, drop files as the mode says (a
 * secondary only unmaps: the config and the files are the primary's).
 */
void eal_mem_cleanup(struct eal_mem *mem);

/*
 * The page allocator on an explicit memory layer (eal_memalloc.h has the
 * same calls on the process's one); used during init, before it is
 * published.
 */
int eal_mem_alloc_pages(struct eal_mem *mem, struct rte_memseg **ms, int n,
		uint64_t page_sz, int socket, bool exact);
int eal_mem_free_pages(struct eal_mem *mem, struct rte_memseg **ms, int n);

/* The process-wide memory layer, or NULL before init (rte_* entry points). */
struct eal_mem *eal_mem_get(void);

#endif /* _EAL_MEM_H_ */
