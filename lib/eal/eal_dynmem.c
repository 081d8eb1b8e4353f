/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Dynamic memory mode (the default): -m / --socket-mem pages are mapped and
 * pinned at start; the heap maps more on demand and gives whole free pages
 * back. --socket-limit becomes one allocation validator per node.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include <rte_common.h>

#include "eal_mem.h"
#include "eal_mem_plan.h"

static int
dynmem_limit_refuse(int socket_id, size_t cur_limit, size_t new_len)
{
	RTE_SET_USED(socket_id);
	RTE_SET_USED(cur_limit);
	RTE_SET_USED(new_len);
	return -1;
}

/* The smallest page size with pages reserved; 0 if none. */
static uint64_t
dynmem_smallest_page(const struct eal_hugepage_info *hpi)
{
	uint64_t sz = 0;
	unsigned int i;

	for (i = 0; i < hpi->n_sizes; i++)
		if (hpi->sizes[i].total != 0 &&
				(sz == 0 || hpi->sizes[i].page_sz < sz))
			sz = hpi->sizes[i].page_sz;
	return sz;
}

static int
dynmem_set_limits(struct eal_mem *mem, char *err, size_t err_len)
{
	const struct eal_options *opts = mem->opts;
	struct eal_mem_events *ev = &mem->events;
	uint64_t page = dynmem_smallest_page(mem->hpi);
	unsigned int i;

	for (i = 0; i < opts->n_socket_limit; i++) {
		struct eal_mem_validator *v;

		if (opts->socket_limit[i] == 0)
			continue;
		/* Such a heap could never grow: surely not what was meant. */
		if (opts->socket_limit[i] < page) {
			snprintf(err, err_len,
					"--socket-limit: the limit %" PRIu64
					" KB on NUMA node %u is below one %" PRIu64
					" kB hugepage, so the heap could never "
					"grow: give at least %" PRIu64
					"K, or 0 for no limit",
					opts->socket_limit[i] / 1024, i,
					page / 1024, page / 1024);
			return -EINVAL;
		}
		if (ev->n_vals == EAL_MEM_EVENT_MAX)
			return -ENOSPC;
		v = &ev->vals[ev->n_vals++];
		snprintf(v->name, sizeof(v->name), "socket-limit");
		v->fn = dynmem_limit_refuse;
		v->socket_id = (int)i;
		v->limit = opts->socket_limit[i];
	}
	return 0;
}

static int
dynmem_init(struct eal_mem *mem, char *err, size_t err_len)
{
	struct eal_mem_plan plan;
	int ret;

	ret = dynmem_set_limits(mem, err, err_len);
	if (ret < 0)
		return ret;
	ret = eal_mem_plan_requested(mem, &plan, err, err_len);
	if (ret < 0)
		return ret;
	return eal_mem_plan_map(mem, &plan, err, err_len);
}

const struct eal_mem_mode eal_mem_mode_dynamic = {
	.name = "dynamic",
	.can_grow = true,
	.init = dynmem_init,
};
