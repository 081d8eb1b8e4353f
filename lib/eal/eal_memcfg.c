/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * The memory configuration region (layout in eal_memcfg.h).
 *
 * The region is mapped shared and anonymous, with MAP_NORESERVE: a 2 MB
 * page list's slot array is ~400 KB, but only the slots that are used are
 * ever touched, so the region costs memory only for what is mapped.
 * Its size is fixed at creation; lists are laid out once, at init.
 */

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include <rte_common.h>

#include "eal_memcfg.h"

/* Room for the shared state of higher layers (heaps, memzones). */
#define EAL_MCFG_AREA_LEN (32ULL << 20)

uint64_t
eal_mcfg_segs_bytes(uint32_t n_segs)
{
	return RTE_ALIGN_CEIL((uint64_t)n_segs * sizeof(struct rte_memseg),
			RTE_CACHE_LINE_SIZE);
}

uint64_t
eal_mcfg_list_bytes(uint32_t n_segs)
{
	uint64_t bitmap = RTE_ALIGN_CEIL((uint64_t)n_segs, 64) / 8;

	return eal_mcfg_segs_bytes(n_segs) +
			RTE_ALIGN_CEIL(bitmap, RTE_CACHE_LINE_SIZE);
}

int
eal_mcfg_create(uint64_t lists_bytes, struct rte_mem_config **out)
{
	uint64_t head = RTE_ALIGN_CEIL(sizeof(struct rte_mem_config), 4096);
	uint64_t size = head + RTE_ALIGN_CEIL(lists_bytes, 4096) +
			EAL_MCFG_AREA_LEN;
	struct rte_mem_config *mcfg;

	mcfg = mmap(NULL, size, PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (mcfg == MAP_FAILED)
		return -errno;
	mcfg->magic = EAL_MCFG_MAGIC;
	mcfg->version = EAL_MCFG_VERSION;
	mcfg->size = size;
	/* Slot arrays and subsystem state share one bump area. */
	mcfg->area_off = head;
	mcfg->area_len = size - head;
	*out = mcfg;
	return 0;
}

void
eal_mcfg_destroy(struct rte_mem_config *mcfg)
{
	if (mcfg != NULL)
		munmap(mcfg, mcfg->size);
}

int
eal_mcfg_area_alloc(struct rte_mem_config *mcfg, uint64_t size, uint64_t *off)
{
	uint64_t len = RTE_ALIGN_CEIL(size, RTE_CACHE_LINE_SIZE);

	if (len > mcfg->area_len - mcfg->area_used)
		return -ENOSPC;
	*off = mcfg->area_off + mcfg->area_used;
	mcfg->area_used += len;
	return 0;
}
