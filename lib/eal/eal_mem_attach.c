/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * A secondary process's memory layer (eal_mem_attach() in eal_mem.h):
 * the primary's config, its lists at the primary's addresses, its pages.
 *
 * What the primary chose is what the secondary runs with: file layout,
 * --huge-unlink mode, legacy memory, directories. A secondary that asks
 * for something else explicitly is refused, naming both; memory amounts
 * (-m, --socket-mem) are the primary's business and ignored with a note.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>

#include "eal_log.h"
#include "eal_mem.h"
#include "eal_memseg_list.h"
#include "linux/eal_hugefile.h"
#include "linux/eal_iova.h"
#include "linux/eal_os.h"

#define ATTACH_WAIT_US 1000 /* between looks at a primary still starting */

/*
 * 1 while the primary's lazy memory image still fills pages that this
 * process would map empty (wait), 0 once they are all in, or a negative
 * errno when they may never all be (filled on touch only).
 */
static int
attach_filled(const struct rte_mem_config *mcfg, char *err, size_t err_len)
{
	switch (__atomic_load_n(&mcfg->image_filling, __ATOMIC_ACQUIRE)) {
	case EAL_IMAGE_FILLED:
		return 0;
	case EAL_IMAGE_FILLING:
		return 1;
	default:
		snprintf(err, err_len,
				"the primary process of this file prefix brings "
				"its memzones back from a memory image on first "
				"touch only (--memzone-image-prefetch=off), and "
				"pages it has not touched yet would be mapped "
				"here empty");
		return -EBUSY;
	}
}

/*
 * Map the config once the primary has finished rte_eal_init() and a lazy
 * memory image of its has filled every page.
 */
static int
attach_config(struct eal_mem *mem, const struct eal_runtime *rt, char *err,
		size_t err_len)
{
	char path[PATH_MAX + 16];
	int ret;

	snprintf(path, sizeof(path), "%s/config", rt->dir);
	for (;;) {
		if (mem->mcfg == NULL) {
			ret = eal_mcfg_attach(rt->config_fd, &mem->mcfg);
			if (ret == -EPROTO) {
				snprintf(err, err_len,
						"the primary process of this file "
						"prefix runs another version of "
						"rtemem (its memory config is not "
						"version %d)",
						EAL_MCFG_VERSION);
				return ret;
			}
			if (ret < 0 && ret != -EAGAIN) {
				snprintf(err, err_len, "cannot map %s: %s",
						path, strerror(-ret));
				return ret;
			}
		}
		if (mem->mcfg != NULL &&
				__atomic_load_n(&mem->mcfg->ready,
						__ATOMIC_ACQUIRE)) {
			ret = attach_filled(mem->mcfg, err, err_len);
			if (ret <= 0)
				return ret;
		}
		if (eal_runtime_alive(path) != 1) {
			snprintf(err, err_len,
					"the primary process of this file prefix "
					"exited before it finished starting");
			return -ENOENT;
		}
		usleep(ATTACH_WAIT_US);
	}
}

static int
attach_refuse(const char *what, const char *why, char *err, size_t err_len)
{
	snprintf(err, err_len,
			"--proc-type=secondary: the primary process of this "
			"file prefix runs with %s, %s",
			what, why);
	return -ENOTSUP;
}

/* Modes a secondary cannot share. */
static int
attach_check_mode(const struct rte_mem_config *mcfg, char *err, size_t err_len)
{
	if (mcfg->no_huge)
		return attach_refuse("--no-huge",
				"whose anonymous memory no other process can map",
				err, err_len);
	if (mcfg->in_memory)
		return attach_refuse("--in-memory",
				"whose memory files no other process can open",
				err, err_len);
	if (mcfg->huge_unlink == EAL_HUGE_UNLINK_ALWAYS)
		return attach_refuse("--huge-unlink=always",
				"which removes each page's file once mapped, so "
				"no other process can map it",
				err, err_len);
	return 0;
}

static int
attach_conflict(const char *mine, const char *primary, char *err,
		size_t err_len)
{
	snprintf(err, err_len,
			"--proc-type=secondary with %s: the primary process of "
			"this file prefix runs with %s, and a secondary shares "
			"its memory as it is",
			mine, primary);
	return -EINVAL;
}

/* Options this process gave that the primary does not run with. */
static int
attach_check_options(const struct eal_mem *mem, char *err, size_t err_len)
{
	const struct rte_mem_config *mcfg = mem->mcfg;
	const struct eal_options *o = mem->opts;
	char mine[48], theirs[48];

	if (o->single_file_segments && !mcfg->single_file_segments)
		return attach_conflict("--single-file-segments",
				"a file per page", err, err_len);
	if (o->legacy_mem && !mcfg->legacy_mem)
		return attach_conflict(
				"--legacy-mem", "dynamic memory", err, err_len);
	if (o->huge_unlink_given != 0 && o->huge_unlink != mcfg->huge_unlink) {
		snprintf(mine, sizeof(mine), "--huge-unlink=%s",
				eal_huge_unlink_name(o->huge_unlink));
		snprintf(theirs, sizeof(theirs), "--huge-unlink=%s",
				eal_huge_unlink_name(mcfg->huge_unlink));
		return attach_conflict(mine, theirs, err, err_len);
	}
	if (o->keep_memzones != EAL_KEEP_OFF && !mcfg->keep_memzones)
		return attach_conflict("--keep-memzones", "no --keep-memzones",
				err, err_len);
	if (o->memory_given || o->n_socket_mem > 0)
		EAL_LOG(NOTICE,
				"-m and --socket-mem are the primary's: "
				"ignored in a secondary process");
	return 0;
}

/* A --huge-dir given here must be the primary's directory too. */
static int
attach_check_dirs(const struct eal_mem *mem, char *err, size_t err_len)
{
	const struct rte_mem_config *mcfg = mem->mcfg;
	unsigned int s, d;

	for (s = 0; s < mem->hpi->n_sizes; s++) {
		const struct eal_hugepage_size *hs = &mem->hpi->sizes[s];

		if (!hs->dir_given)
			continue;
		for (d = 0; d < EAL_MCFG_MAX_DIRS; d++) {
			if (mcfg->dirs[d].page_sz != hs->page_sz ||
					strcmp(mcfg->dirs[d].path, hs->dir) ==
							0)
				continue;
			snprintf(err, err_len,
					"--huge-dir %s: the primary process of "
					"this file prefix keeps its %" PRIu64
					" kB pages in %s; give the same "
					"directory",
					hs->dir, hs->page_sz >> 10,
					mcfg->dirs[d].path);
			return -EINVAL;
		}
	}
	return 0;
}

/* Run with the primary's strategies. */
static int
attach_strategies(struct eal_mem *mem, char *err, size_t err_len)
{
	const struct rte_mem_config *mcfg = mem->mcfg;
	int ret;

	mem->backing = mcfg->single_file_segments ? &eal_backing_single_shared :
						    &eal_backing_file;
	mem->mode = mcfg->legacy_mem ? &eal_mem_mode_legacy :
				       &eal_mem_mode_dynamic;
	mem->policy = eal_hugefile_policy_secondary(mcfg->huge_unlink);
	if (mcfg->iova_mode != RTE_IOVA_PA)
		return 0;
	ret = eal_iova_select(
			RTE_IOVA_PA, true, &mem->pagemap_fd, err, err_len);
	return ret < 0 ? ret : 0;
}

/*
 * Take a slot, then map the primary's pages while no list changes: the
 * read hold is counted to the slot, so that it is taken back if this
 * process dies holding it.
 */
static int
attach_pages(struct eal_mem *mem, char *err, size_t err_len)
{
	struct eal_mprwlock *lock = &mem->mcfg->memory_hotplug_lock;
	int ret;

	ret = eal_mp_join(mem, true, err, err_len);
	/* Its answers must come before rounds are posted to it. */
	if (ret == 0)
		ret = eal_mp_start(mem, err, err_len);
	if (ret < 0)
		return ret;
	eal_mp_read_lock_as(&mem->mp, lock, "memory hotplug lock",
			eal_mp_repair_lists, mem);
	ret = eal_mp_sync(mem);
	if (ret < 0)
		snprintf(err, err_len,
				"cannot map the pages of the primary process "
				"(see the error above)");
	else
		eal_mp_activate(mem);
	eal_mp_read_unlock_as(&mem->mp, lock);
	return ret;
}

int
eal_mem_attach(struct eal_mem *mem, const struct eal_options *opts,
		const struct eal_hugepage_info *hpi,
		const struct eal_runtime *rt, char *err, size_t err_len)
{
	int ret;

	eal_mem_setup(mem, opts, hpi);
	mem->secondary = true;
	mem->config_fd = rt->config_fd;
	mem->backing = NULL;
	ret = attach_config(mem, rt, err, err_len);
	if (ret == 0)
		ret = attach_check_mode(mem->mcfg, err, err_len);
	if (ret == 0)
		ret = attach_check_options(mem, err, err_len);
	if (ret == 0)
		ret = attach_check_dirs(mem, err, err_len);
	if (ret == 0)
		ret = attach_strategies(mem, err, err_len);
	if (ret == 0 && mem->mcfg->keep_memzones)
		ret = eal_keep_attach(&mem->keep, EAL_KEEP_STRICT, rt->dir, err,
				err_len);
	if (ret == 0)
		ret = eal_memseg_lists_attach(mem, err, err_len);
	if (ret == 0)
		ret = attach_pages(mem, err, err_len);
	if (ret < 0) {
		eal_mem_cleanup(mem);
		return ret;
	}
	/* A round tells the others that memory is shared from now on. */
	eal_mp_write_lock_as(&mem->mp, &mem->mcfg->memory_hotplug_lock,
			"memory hotplug lock", eal_mp_repair_lists, mem);
	__atomic_store_n(&mem->mcfg->mp_shared, 1, __ATOMIC_RELEASE);
	eal_mp_publish(mem);
	eal_mp_write_unlock(&mem->mcfg->memory_hotplug_lock);
	mem->init_done = true;
	return 0;
}
