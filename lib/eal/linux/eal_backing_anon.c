/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Backing: anonymous 4 KB pages (--no-huge). Nothing to name, lock or
 * reuse; the pages are new and zeroed, and cannot be shared by descriptor.
 */

#include <errno.h>

#include "eal_mem.h"
#include "eal_memseg_list.h"
#include "eal_os.h"

static int
anon_map(struct eal_mem *mem, unsigned int l, unsigned int idx, unsigned int n,
		enum eal_map_fill fill, bool *dirty)
{
	const struct rte_memseg_list *msl = &mem->mcfg->memsegs[l];
	void *addr = eal_msl_slot_addr(msl, idx);
	size_t len = (size_t)n * msl->page_sz;
	unsigned int i;
	int ret;

	/* Anonymous memory has no page cache to fill lazily. */
	if (fill != EAL_MAP_POPULATED)
		return -ENOTSUP;
	for (i = 0; i < n; i++)
		dirty[i] = false;
	ret = eal_os_map_anon(addr, len);
	if (ret < 0) {
		eal_os_va_restore(addr, len);
		return ret;
	}
	ret = eal_os_populate(addr, len);
	if (ret < 0)
		eal_os_va_unmap_keep(addr, len);
	return ret;
}

static int
anon_unmap(struct eal_mem *mem, unsigned int l, unsigned int idx,
		unsigned int n)
{
	const struct rte_memseg_list *msl = &mem->mcfg->memsegs[l];

	return eal_os_va_unmap_keep(
			eal_msl_slot_addr(msl, idx), (size_t)n * msl->page_sz);
}

static int
anon_get_fd(struct eal_mem *mem, unsigned int l, unsigned int idx, int *fd,
		uint64_t *off)
{
	RTE_SET_USED(mem);
	RTE_SET_USED(l);
	RTE_SET_USED(idx);
	RTE_SET_USED(fd);
	RTE_SET_USED(off);
	return -ENOTSUP;
}

static bool
anon_release(struct eal_mem *mem, unsigned int l)
{
	RTE_SET_USED(mem);
	RTE_SET_USED(l);
	return false;
}

const struct eal_backing eal_backing_anon = {
	.name = "anonymous",
	.map = anon_map,
	.unmap = anon_unmap,
	.get_fd = anon_get_fd,
	.release = anon_release,
};
