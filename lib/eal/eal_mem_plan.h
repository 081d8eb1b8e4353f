/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _EAL_MEM_PLAN_H_
#define _EAL_MEM_PLAN_H_

/*
 * What to map at start: a count of pages per (page size, node), planned
 * from -m / --socket-mem against the pages available, then mapped and
 * pinned (RTE_MEMSEG_FLAG_DO_NOT_FREE). Shared by the dynamic and legacy
 * modes.
 */

#include <stdint.h>

#include "eal_mem.h"

struct eal_mem_plan {
	/* pages[s][node]: pages of hpi->sizes[s] to map on that node id */
	uint32_t pages[EAL_MAX_PAGE_SIZES][RTE_MAX_NUMA_NODES];
};

/*
 * Plan the pages -m or --socket-mem ask for, largest page size first.
 * Nothing is planned when neither was given.
 *
 * @return 0, or -ENOMEM with a line in @p err when not enough pages are
 *   available on a node.
 */
int eal_mem_plan_requested(const struct eal_mem *mem, struct eal_mem_plan *plan,
		char *err, size_t err_len);

/* Plan every available page of every size and node (legacy, no -m). */
int eal_mem_plan_all(const struct eal_mem *mem, struct eal_mem_plan *plan,
		char *err, size_t err_len);

/*
 * Map and pin the planned pages.
 *
 * @return 0, or a negative errno with a line in @p err.
 */
int eal_mem_plan_map(struct eal_mem *mem, const struct eal_mem_plan *plan,
		char *err, size_t err_len);

#endif /* _EAL_MEM_PLAN_H_ */
