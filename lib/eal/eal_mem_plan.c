/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Planning the memory mapped at start (eal_mem_plan.h).
 *
 * A plan depends only on the options, the page sizes and the pages
 * available, so the same command line on the same machine maps the same
 * slots, and a restart with --huge-unlink=never finds its files again.
 * With --huge-unlink=never the pages held by this prefix's files count as
 * available: a warm restart needs no free page.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "eal_log.h"
#include "eal_mem_plan.h"
#include "linux/eal_hugefile.h"

/* Whether memory of size index @p s can be mapped at all. */
static bool
plan_size_usable(const struct eal_mem *mem, unsigned int s)
{
	const struct eal_hugepage_size *hs = &mem->hpi->sizes[s];

	return hs->total > 0 &&
			(hs->dir[0] != '\0' || !mem->backing->uses_files);
}

/* Slots the lists of page size @p page_sz on @p node have. */
static uint64_t
plan_slots(const struct eal_mem *mem, uint64_t page_sz, int node)
{
	const struct rte_mem_config *mcfg = mem->mcfg;
	uint64_t n = 0;
	unsigned int l;

	for (l = 0; l < mcfg->n_lists; l++)
		if (mcfg->memsegs[l].page_sz == page_sz &&
				mcfg->memsegs[l].socket_id == node)
			n += mcfg->memsegs[l].n_segs;
	return n;
}

/*
 * Pages of size @p s that node @p node can provide: free ones, plus those
 * this prefix's files hold when they will be reused, but never more than
 * the lists have slots for.
 */
static uint64_t
plan_available(const struct eal_mem *mem, unsigned int s, int node)
{
	const struct eal_hugepage_size *hs = &mem->hpi->sizes[s];
	uint64_t avail = hs->free_per_node[node];
	int held;

	if (mem->policy != NULL && mem->policy->reuse) {
		held = eal_hugefile_count_pages(hs->dir, mem->opts->file_prefix,
				hs->page_sz, mem->opts->single_file_segments);
		avail += held > 0 ? (uint64_t)held : 0;
	}
	return RTE_MIN(avail, plan_slots(mem, hs->page_sz, node));
}

static void
plan_describe(const struct eal_mem *mem, int node, char *buf, size_t len)
{
	unsigned int s;
	size_t off = 0;

	buf[0] = '\0';
	for (s = 0; s < mem->hpi->n_sizes && off < len; s++) {
		if (!plan_size_usable(mem, s))
			continue;
		off += snprintf(buf + off, len - off,
				"%s%" PRIu64 " free %" PRIu64 " kB pages",
				off ? ", " : "", plan_available(mem, s, node),
				mem->hpi->sizes[s].page_sz >> 10);
	}
}

/* Plan @p bytes on @p node, largest pages first. @return bytes unmet. */
static uint64_t
plan_node(const struct eal_mem *mem, struct eal_mem_plan *plan, int node,
		uint64_t bytes)
{
	int s, last = -1;

	for (s = 0; s < (int)mem->hpi->n_sizes; s++)
		if (plan_size_usable(mem, s))
			last = s;
	for (s = 0; s <= last && bytes > 0; s++) {
		uint64_t sz = mem->hpi->sizes[s].page_sz, n;

		if (!plan_size_usable(mem, s))
			continue;
		/* Only the smallest size rounds up. */
		n = s == last ? (bytes + sz - 1) / sz : bytes / sz;
		n = RTE_MIN(n, plan_available(mem, s, node));
		plan->pages[s][node] += (uint32_t)n;
		bytes -= RTE_MIN(bytes, n * sz);
	}
	return bytes;
}

static int
plan_fail(const struct eal_mem *mem, int node, uint64_t asked, uint64_t unmet,
		char *err, size_t err_len)
{
	char avail[256];

	plan_describe(mem, node, avail, sizeof(avail));
	snprintf(err, err_len,
			"not enough hugepages on node %d: %s asks for %" PRIu64
			" MB, %" PRIu64
			" MB short (the pool has %s): raise the "
			"pool (nr_hugepages) or ask for less",
			node, mem->opts->n_socket_mem ? "--socket-mem" : "-m",
			asked >> 20, (unmet + (1 << 20) - 1) >> 20, avail);
	return -ENOMEM;
}

/* Whether the machine has NUMA node @p node (with memory). */
static bool
plan_node_exists(const struct eal_mem *mem, int node)
{
	unsigned int i;

	for (i = 0; i < mem->hpi->n_nodes; i++)
		if (mem->hpi->node_ids[i] == node)
			return true;
	return false;
}

static int
plan_no_node(const struct eal_mem *mem, unsigned int node, char *err,
		size_t err_len)
{
	char nodes[128];
	size_t off = 0;
	unsigned int i;

	nodes[0] = '\0';
	for (i = 0; i < mem->hpi->n_nodes && off < sizeof(nodes); i++)
		off += snprintf(nodes + off, sizeof(nodes) - off, "%s%d",
				i ? "," : "", mem->hpi->node_ids[i]);
	snprintf(err, err_len,
			"--socket-mem asks for %" PRIu64 " MB on NUMA node %u, "
			"which this machine does not have (nodes with memory: "
			"%s)",
			mem->opts->socket_mem[node] >> 20, node, nodes);
	return -EINVAL;
}

int
eal_mem_plan_requested(const struct eal_mem *mem, struct eal_mem_plan *plan,
		char *err, size_t err_len)
{
	const struct eal_options *opts = mem->opts;
	uint64_t left = opts->memory;
	unsigned int i;

	memset(plan, 0, sizeof(*plan));
	for (i = 0; i < opts->n_socket_mem; i++) {
		uint64_t unmet;

		if (opts->socket_mem[i] == 0)
			continue;
		if (!plan_node_exists(mem, (int)i))
			return plan_no_node(mem, i, err, err_len);
		unmet = plan_node(mem, plan, (int)i, opts->socket_mem[i]);
		if (unmet > 0)
			return plan_fail(mem, (int)i, opts->socket_mem[i],
					unmet, err, err_len);
	}
	/* -m: fill the nodes in order. */
	for (i = 0; i < mem->hpi->n_nodes && left > 0; i++)
		left = plan_node(mem, plan, mem->hpi->node_ids[i], left);
	if (left > 0)
		return plan_fail(mem, mem->hpi->node_ids[0], opts->memory, left,
				err, err_len);
	return 0;
}

int
eal_mem_plan_all(const struct eal_mem *mem, struct eal_mem_plan *plan,
		char *err, size_t err_len)
{
	uint64_t total = 0;
	unsigned int s, i;

	memset(plan, 0, sizeof(*plan));
	for (s = 0; s < mem->hpi->n_sizes; s++) {
		if (!plan_size_usable(mem, s))
			continue;
		for (i = 0; i < mem->hpi->n_nodes; i++) {
			int node = mem->hpi->node_ids[i];

			plan->pages[s][node] = (uint32_t)plan_available(
					mem, s, node);
			total += plan->pages[s][node];
		}
	}
	if (total > 0)
		return 0;
	snprintf(err, err_len,
			"--legacy-mem maps every free hugepage at start, and none is free");
	return -ENOMEM;
}

static int
plan_map_one(struct eal_mem *mem, const struct eal_hugepage_size *hs, int node,
		uint32_t n, char *err, size_t err_len)
{
	uint64_t page_sz = hs->page_sz;
	char why[384] = "";
	struct rte_memseg **ms = malloc(n * sizeof(*ms));
	uint32_t done = 0, i;
	int ret = 0;

	if (ms == NULL)
		return -ENOMEM;
	while (done < n) {
		ret = eal_mem_alloc_pages(
				mem, ms, (int)(n - done), page_sz, node, false);
		if (ret < 0)
			break;
		for (i = 0; i < (uint32_t)ret; i++)
			ms[i]->flags |= RTE_MEMSEG_FLAG_DO_NOT_FREE;
		done += (uint32_t)ret;
	}
	free(ms);
	if (ret == -ENOMEM)
		eal_hugepage_shortage_describe(hs, mem->policy != NULL,
				n - done, why, sizeof(why));
	if (ret < 0)
		snprintf(err, err_len,
				"cannot map %u pages of %" PRIu64
				" kB on node %d (%u mapped): %s%s%s",
				n, page_sz >> 10, node, done, strerror(-ret),
				why[0] != '\0' ? ": " : "", why);
	return ret < 0 ? ret : 0;
}

int
eal_mem_plan_map(struct eal_mem *mem, const struct eal_mem_plan *plan,
		char *err, size_t err_len)
{
	unsigned int s;
	int node, ret;

	for (s = 0; s < mem->hpi->n_sizes; s++) {
		for (node = 0; node < RTE_MAX_NUMA_NODES; node++) {
			if (plan->pages[s][node] == 0)
				continue;
			ret = plan_map_one(mem, &mem->hpi->sizes[s], node,
					plan->pages[s][node], err, err_len);
			if (ret < 0)
				return ret;
		}
	}
	return 0;
}
