/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Building and tearing down the memory layer (eal_mem.h).
 *
 * Init order: choose the strategies; take the prefix lock of every
 * hugetlbfs directory in use (so no other process with this prefix runs);
 * clear this prefix's stale files if the mode says so; lay out the lists;
 * choose the IOVA mode; map what the options ask for (the mode's init).
 * Every step undoes itself on failure, and a failed init leaves no file.
 *
 * Cleanup unmaps each list's whole range in one call, without clearing:
 * the kernel zeroes a hugepage before anyone else gets it.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "eal_log.h"
#include "eal_mem.h"
#include "eal_memseg_list.h"
#include "linux/eal_hugefile.h"
#include "linux/eal_iova.h"
#include "linux/eal_os.h"
#include "eal_sys.h"

static const struct eal_backing *
mem_choose_backing(const struct eal_options *opts)
{
	if (opts->no_huge)
		return &eal_backing_anon;
	if (opts->in_memory)
		return &eal_backing_memfd;
	if (opts->single_file_segments)
		return &eal_backing_single;
	return &eal_backing_file;
}

/*
 * Release the prefix locks. @p left[s], if given, says that a page file
 * of the prefix stays in directory s, which then is not read again.
 */
static void
mem_unlock_dirs(struct eal_mem *mem, const bool *left)
{
	unsigned int s;

	for (s = 0; s < EAL_MAX_PAGE_SIZES; s++) {
		if (mem->prefix_lock_fd[s] >= 0)
			eal_hugefile_prefix_unlock(mem->prefix_lock_fd[s],
					mem->hpi->sizes[s].dir,
					mem->opts->file_prefix,
					left != NULL && left[s]);
		mem->prefix_lock_fd[s] = -1;
	}
}

/* Lock the prefix in every directory with pages, then clear stale files. */
static int
mem_lock_dirs(struct eal_mem *mem, char *err, size_t err_len)
{
	const struct eal_hugepage_info *hpi = mem->hpi;
	unsigned int s;
	int fd, n;

	for (s = 0; s < hpi->n_sizes; s++) {
		if (hpi->sizes[s].dir[0] == '\0' || hpi->sizes[s].total == 0)
			continue;
		fd = eal_hugefile_prefix_lock(hpi->sizes[s].dir,
				mem->opts->file_prefix, err, err_len);
		if (fd < 0) {
			mem_unlock_dirs(mem, NULL);
			return fd;
		}
		mem->prefix_lock_fd[s] = fd;
		/* Memory this run may reuse is no kept memzone's any more. */
		if (mem->keep.hdr == NULL)
			eal_keep_unmark(hpi->sizes[s].dir,
					mem->opts->file_prefix);
		n = eal_hugefile_layout_check(hpi->sizes[s].dir,
				mem->opts->file_prefix,
				mem->opts->single_file_segments,
				mem->policy->reuse);
		if (n < 0) {
			snprintf(err, err_len,
					"cannot record the file layout of prefix "
					"'%s' in %s: %s",
					mem->opts->file_prefix,
					hpi->sizes[s].dir, strerror(-n));
			mem_unlock_dirs(mem, NULL);
			return n;
		}
		if (!mem->policy->clear_stale)
			continue;
		n = eal_hugefile_clear_stale(
				hpi->sizes[s].dir, mem->opts->file_prefix);
		if (n > 0)
			EAL_LOG(INFO, "removed %d stale files of prefix '%s' in %s",
					n, mem->opts->file_prefix,
					hpi->sizes[s].dir);
	}
	return 0;
}

/* Mark the page size directory of list @p l in @p left. */
static void
mem_dir_left(const struct eal_mem *mem, unsigned int l, bool *left)
{
	unsigned int s;

	for (s = 0; s < EAL_MAX_PAGE_SIZES; s++)
		if (mem->local[l].dir != NULL &&
				strcmp(mem->hpi->sizes[s].dir,
						mem->local[l].dir) == 0)
			left[s] = true;
}

static void
mem_release_lists(struct eal_mem *mem)
{
	bool left[EAL_MAX_PAGE_SIZES] = { false };
	unsigned int l;

	eal_mp_leave(mem);
	eal_memseg_lists_destroy(mem);
	for (l = 0; mem->mcfg != NULL && l < mem->mcfg->n_lists; l++) {
		if (!mem->mcfg->memsegs[l].external && mem->backing != NULL &&
				mem->backing->release(mem, l))
			mem_dir_left(mem, l, left);
		eal_memseg_list_dir_close(mem, l);
	}
	eal_mcfg_destroy(mem->mcfg);
	mem->mcfg = NULL;
	eal_keep_close(&mem->keep);
	eal_os_close(mem->pagemap_fd);
	mem->pagemap_fd = -1;
	mem_unlock_dirs(mem, left);
}

void
eal_mem_setup(struct eal_mem *mem, const struct eal_options *opts,
		const struct eal_hugepage_info *hpi)
{
	unsigned int i;

	memset(mem, 0, sizeof(*mem));
	mem->opts = opts;
	mem->hpi = hpi;
	mem->pagemap_fd = -1;
	mem->mp.slot = -1;
	pthread_mutex_init(&mem->mp.sync_lock, NULL);
	/* The identity shared locks record their holders by. */
	mem->mp.self = eal_proc_self_id();
	pthread_mutex_init(&mem->fd_lock, NULL);
	pthread_mutex_init(&mem->pool_lock, NULL);
	mem->keep.fd = -1;
	for (i = 0; i < RTE_DIM(mem->prefix_lock_fd); i++)
		mem->prefix_lock_fd[i] = -1;
	mem->backing = mem_choose_backing(opts);
	mem->mode = opts->legacy_mem ? &eal_mem_mode_legacy :
				       &eal_mem_mode_dynamic;
	if (mem->backing->uses_files)
		mem->policy = eal_hugefile_policy_get(opts->huge_unlink);
	eal_mem_events_init(&mem->events);
}

/* Write down what a secondary process needs to find the files. */
static void
mem_publish_layout(struct eal_mem *mem)
{
	struct rte_mem_config *mcfg = mem->mcfg;
	const struct eal_options *opts = mem->opts;
	unsigned int s, l;

	mcfg->legacy_mem = opts->legacy_mem;
	mcfg->single_file_segments = opts->single_file_segments;
	mcfg->no_huge = opts->no_huge;
	mcfg->in_memory = opts->in_memory;
	mcfg->huge_unlink = (uint8_t)opts->huge_unlink;
	mcfg->keep_memzones = opts->keep_memzones != EAL_KEEP_OFF;
	mcfg->match_allocations = opts->match_allocations;
	/* Modes whose pages never go back, page by page, keep none. */
	mcfg->malloc_retain = opts->legacy_mem || opts->match_allocations ?
			0 :
			opts->malloc_retain;
	mcfg->malloc_decay_ms = opts->malloc_decay_ms;
	RTE_BUILD_BUG_ON(EAL_MCFG_MAX_DIRS < EAL_MAX_PAGE_SIZES);
	for (s = 0; s < mem->hpi->n_sizes; s++) {
		mcfg->dirs[s].page_sz = mem->hpi->sizes[s].page_sz;
		snprintf(mcfg->dirs[s].path, sizeof(mcfg->dirs[s].path), "%s",
				mem->hpi->sizes[s].dir);
	}
	for (l = 0; l < mcfg->n_lists; l++)
		mcfg->file_list[l] = mem->local[l].file_list;
}

int
eal_mem_init(struct eal_mem *mem, const struct eal_options *opts,
		const struct eal_hugepage_info *hpi,
		const struct eal_runtime *rt, char *err, size_t err_len)
{
	int ret;

	eal_mem_setup(mem, opts, hpi);
	mem->config_fd = rt->config_fd;
	ret = eal_mp_check_orphans(rt->config_fd, err, err_len);
	if (ret < 0)
		return ret;
	/* Before the files are touched: a mismatch must find them intact. */
	ret = eal_keep_open(&mem->keep, opts, hpi, rt->dir, err, err_len);
	if (ret < 0)
		return ret;
	if (mem->policy != NULL) {
		ret = mem_lock_dirs(mem, err, err_len);
		if (ret == 0)
			ret = eal_keep_check_marks(&mem->keep,
					opts->file_prefix, err, err_len);
		if (ret < 0) {
			mem_unlock_dirs(mem, NULL);
			eal_keep_close(&mem->keep);
			return ret;
		}
	}
	ret = eal_memseg_lists_create(mem, err, err_len);
	if (ret == 0) {
		ret = eal_iova_select(opts->iova_mode, !opts->no_huge,
				&mem->pagemap_fd, err, err_len);
		if (ret >= 0) {
			mem->mcfg->iova_mode = (uint8_t)ret;
			ret = 0;
		}
	}
	if (ret == 0) {
		mem_publish_layout(mem);
		ret = mem->mode->init(mem, err, err_len);
	}
	/* Secondaries find it through the runtime directory only. */
	if (ret == 0 && mem->config_fd >= 0)
		ret = eal_mp_join(mem, false, err, err_len);
	if (ret < 0) {
		/* A failed start keeps nothing it made, also with "never". */
		if (mem->policy != NULL)
			mem->policy = eal_hugefile_policy_failed(
					opts->huge_unlink);
		eal_mem_cleanup(mem);
		return ret;
	}
	mem->init_done = true;
	return 0;
}

void
eal_mem_cleanup(struct eal_mem *mem)
{
	mem->init_done = false;
	mem_release_lists(mem);
}
