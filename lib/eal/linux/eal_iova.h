/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _EAL_IOVA_H_
#define _EAL_IOVA_H_

/*
 * I/O addresses of pages: the virtual address (IOVA as VA) or the physical
 * address from /proc/self/pagemap (IOVA as PA). The mode is decided once at
 * init; pagemap is opened once and read with one pread per page.
 */

#include <stdint.h>

#include <rte_eal.h>
#include <rte_memory.h>

/*
 * Decide the IOVA mode: @p requested, or for RTE_IOVA_DC physical
 * addresses when this process can read them and memory is pinned
 * hugepages, else virtual ones. Opens pagemap into @p pagemap_fd for PA.
 *
 * @return the mode, or -EACCES with a line in @p err when PA was asked
 *   for and cannot be read.
 */
int eal_iova_select(enum rte_iova_mode requested, bool hugepages,
		int *pagemap_fd, char *err, size_t err_len);

/*
 * Physical address of @p va through an open pagemap descriptor.
 *
 * @return the address, or RTE_BAD_IOVA (page not present, no privilege).
 */
phys_addr_t eal_iova_virt2phy(int pagemap_fd, const void *va);

#endif /* _EAL_IOVA_H_ */
