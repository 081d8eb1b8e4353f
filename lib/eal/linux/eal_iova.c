/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * IOVA mode and physical addresses (see eal_iova.h).
 *
 * A pagemap entry is 64 bits per base page: bit 63 "present", bits 0-54
 * the page frame number, which reads as 0 without CAP_SYS_ADMIN.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>

#include "eal_iova.h"
#include "eal_os.h"

#define PAGEMAP_PFN_MASK ((UINT64_C(1) << 55) - 1)
#define PAGEMAP_PRESENT RTE_BIT64(63)

phys_addr_t
eal_iova_virt2phy(int pagemap_fd, const void *va)
{
	size_t base_sz = eal_os_page_size();
	uint64_t entry, off = ((uintptr_t)va / base_sz) * sizeof(entry);

	if (pread(pagemap_fd, &entry, sizeof(entry), (off_t)off) !=
			sizeof(entry))
		return RTE_BAD_IOVA;
	if (!(entry & PAGEMAP_PRESENT) || (entry & PAGEMAP_PFN_MASK) == 0)
		return RTE_BAD_IOVA;
	return (entry & PAGEMAP_PFN_MASK) * base_sz + (uintptr_t)va % base_sz;
}

/* @return true if pagemap shows this process physical addresses. */
static bool
iova_phys_readable(int fd)
{
	volatile uint64_t probe = 1; /* on the stack: present, written */

	return eal_iova_virt2phy(fd, (const void *)&probe) != RTE_BAD_IOVA;
}

int
eal_iova_select(enum rte_iova_mode requested, bool hugepages, int *pagemap_fd,
		char *err, size_t err_len)
{
	int fd;

	*pagemap_fd = -1;
	if (requested == RTE_IOVA_VA ||
			(!hugepages && requested == RTE_IOVA_DC))
		return RTE_IOVA_VA;
	fd = eal_os_open("/proc/self/pagemap", O_RDONLY, 0);
	if (fd >= 0 && iova_phys_readable(fd)) {
		*pagemap_fd = fd;
		return RTE_IOVA_PA;
	}
	eal_os_close(fd);
	if (requested == RTE_IOVA_DC)
		return RTE_IOVA_VA;
	snprintf(err, err_len,
			"--iova-mode=pa: physical addresses are not readable from /proc/self/pagemap (needs CAP_SYS_ADMIN); use --iova-mode=va");
	return -EACCES;
}
