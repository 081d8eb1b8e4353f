/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * The memory configuration region (layout in eal_memcfg.h).
 *
 * The region is the runtime directory's config file (tmpfs), or shared
 * anonymous memory with MAP_NORESERVE without one. Either way it is
 * sparse: a 2 MB page list's slot array is ~400 KB, but only the slots
 * that are used are ever touched, so the region costs memory only for
 * what is mapped. Its size is fixed at creation; lists are laid out once,
 * at init.
 */

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_common.h>

#include "eal_memcfg.h"
#include "linux/eal_os.h"

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

/*
 * Empty the config file, so that nothing of an earlier primary's is kept.
 * A file that is empty already (the usual case: a clean exit removes it)
 * is left alone: on ext4 (auto_da_alloc) any truncation to 0 makes the
 * last close write the file's pages to disk, and the exit wait for it.
 */
static int
mcfg_file_empty(int fd)
{
	struct stat st;

	if (fstat(fd, &st) != 0)
		return -errno;
	return st.st_size == 0 ? 0 : eal_os_truncate(fd, 0);
}

/*
 * The config is a sparse file of tens of MB of which a process touches a
 * few hundred kB. Where the runtime directory is on a disk file system
 * (ext4, not tmpfs), a fault reads ahead and fills the page cache with
 * megabytes of zeros, which the exit then frees: 5 to 9 ms of a restart
 * that otherwise takes as long. A hint: without it only time is lost.
 */
static void
mcfg_no_readahead(void *addr, uint64_t size)
{
	posix_madvise(addr, size, POSIX_MADV_RANDOM);
}

int
eal_mcfg_create(uint64_t lists_bytes, int fd, struct rte_mem_config **out)
{
	uint64_t head = RTE_ALIGN_CEIL(sizeof(struct rte_mem_config), 4096);
	uint64_t size = head + RTE_ALIGN_CEIL(lists_bytes, 4096) +
			EAL_MCFG_AREA_LEN;
	int flags = MAP_SHARED | MAP_NORESERVE, ret;
	struct rte_mem_config *mcfg;

	if (fd < 0) {
		flags |= MAP_ANONYMOUS;
	} else {
		ret = mcfg_file_empty(fd);
		if (ret == 0)
			ret = eal_os_truncate(fd, size);
		if (ret < 0)
			return ret;
	}
	mcfg = mmap(NULL, size, PROT_READ | PROT_WRITE, flags, fd, 0);
	if (mcfg == MAP_FAILED)
		return -errno;
	mcfg_no_readahead(mcfg, size);
	mcfg->version = EAL_MCFG_VERSION;
	mcfg->primary_pid = (int32_t)getpid();
	mcfg->size = size;
	/* Slot arrays and subsystem state share one bump area. */
	mcfg->area_off = head;
	mcfg->area_len = size - head;
	/* Last: a reader of the file sees a region only once it is one. */
	__atomic_store_n(&mcfg->magic, EAL_MCFG_MAGIC, __ATOMIC_RELEASE);
	*out = mcfg;
	return 0;
}

int
eal_mcfg_attach(int fd, struct rte_mem_config **out)
{
	struct rte_mem_config head;
	ssize_t n = pread(fd, &head, sizeof(head), 0);
	void *addr;

	if (n < 0)
		return -errno;
	if ((size_t)n < offsetof(struct rte_mem_config, ready) + 1 ||
			head.magic != EAL_MCFG_MAGIC)
		return -EAGAIN;
	if (head.version != EAL_MCFG_VERSION)
		return -EPROTO;
	addr = mmap(NULL, head.size, PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_NORESERVE, fd, 0);
	if (addr == MAP_FAILED)
		return -errno;
	mcfg_no_readahead(addr, head.size);
	*out = addr;
	return 0;
}

void
eal_mcfg_destroy(struct rte_mem_config *mcfg)
{
	uint64_t size;

	if (mcfg == NULL)
		return;
	size = mcfg->size;
	/*
	 * Left mapped if the reservation cannot replace it (the count of
	 * mappings at its limit): memory lost is better than the address
	 * reused.
	 */
	(void)mmap(mcfg, size, PROT_NONE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE,
			-1, 0);
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
