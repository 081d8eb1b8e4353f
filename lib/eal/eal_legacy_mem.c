/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Legacy memory mode (--legacy-mem, and --no-huge): everything is mapped at
 * start and nothing is given back until exit. Without -m / --socket-mem
 * that is every free hugepage; with --no-huge it is the one list of 4 KB
 * pages sized by -m.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "eal_mem.h"
#include "eal_mem_plan.h"

static int
legacy_init_nohuge(struct eal_mem *mem, char *err, size_t err_len)
{
	const struct rte_memseg_list *msl = &mem->mcfg->memsegs[0];
	struct rte_memseg **ms = malloc(msl->n_segs * sizeof(*ms));
	uint32_t i;
	int ret;

	if (ms == NULL)
		return -ENOMEM;
	ret = eal_mem_alloc_pages(mem, ms, (int)msl->n_segs, msl->page_sz,
			msl->socket_id, true);
	for (i = 0; ret > 0 && i < (uint32_t)ret; i++)
		ms[i]->flags |= RTE_MEMSEG_FLAG_DO_NOT_FREE;
	free(ms);
	if (ret < 0) {
		snprintf(err, err_len, "--no-huge: cannot map %zu MB: %s",
				msl->len >> 20, strerror(-ret));
		return ret;
	}
	return 0;
}

static int
legacy_init(struct eal_mem *mem, char *err, size_t err_len)
{
	const struct eal_options *opts = mem->opts;
	struct eal_mem_plan plan;
	int ret;

	if (opts->no_huge)
		return legacy_init_nohuge(mem, err, err_len);
	if (opts->memory_given || opts->n_socket_mem > 0)
		ret = eal_mem_plan_requested(mem, &plan, err, err_len);
	else
		ret = eal_mem_plan_all(mem, &plan, err, err_len);
	if (ret < 0)
		return ret;
	return eal_mem_plan_map(mem, &plan, err, err_len);
}

const struct eal_mem_mode eal_mem_mode_legacy = {
	.name = "legacy",
	.can_grow = false,
	.init = legacy_init,
};
