/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * The public memory API of rte_memory.h and rte_eal_memconfig.h: walks,
 * lookups, IOVA translation, descriptors, and the configuration locks.
 *
 * Walks read the lists under the hotplug lock (read side) unless they are
 * the _thread_unsafe variants; callbacks run with it held and must use
 * the _thread_unsafe calls themselves.
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>

#include <rte_common.h>
#include <rte_eal_memconfig.h>
#include <rte_errno.h>
#include <rte_memory.h>

#include "eal_bitmap.h"
#include "eal_mem.h"
#include "eal_mp.h"
#include "eal_memseg_list.h"
#include "linux/eal_iova.h"
#include "linux/eal_os.h"

/*
 * The IOVA word of @p ms, for atomic access: the struct is packed, but
 * its IOVA comes first and the memseg arrays are 8-byte aligned in the
 * shared config, as are its 48-byte entries.
 */
static inline rte_iova_t *
memseg_iova_word(struct rte_memseg *ms)
{
	uintptr_t addr = (uintptr_t)ms;

	RTE_BUILD_BUG_ON(offsetof(struct rte_memseg, iova) != 0 ||
			sizeof(struct rte_memseg) % sizeof(rte_iova_t) != 0);
	return (rte_iova_t *)addr;
}

/*
 * Resolve page @p ms, slot @p idx of list @p l, if its IOVA is deferred.
 * A page this process has not mapped yet (a secondary maps what the
 * primary added when it catches up, eal_mp.h) has no address in pagemap:
 * the next process, or a later ask, finds it. The first to look stores
 * what it finds, a page's physical address or RTE_BAD_IOVA for good (the
 * mapping used to fail then); any other thread or process finds the
 * same.
 */
static rte_iova_t
memseg_resolve(const struct eal_mem *mem, unsigned int l, unsigned int idx,
		struct rte_memseg *ms)
{
	rte_iova_t unresolved = EAL_IOVA_UNRESOLVED;
	rte_iova_t iova = __atomic_load_n(
			memseg_iova_word(ms), __ATOMIC_RELAXED);

	if (likely(iova != EAL_IOVA_UNRESOLVED))
		return iova;
	if (mem == NULL || mem->pagemap_fd < 0 ||
			(mem->local[l].mapped != NULL &&
					!eal_bitmap_get(mem->local[l].mapped,
							idx)))
		return RTE_BAD_IOVA;
	iova = eal_iova_virt2phy(mem->pagemap_fd, ms->addr);
	if (!__atomic_compare_exchange_n(memseg_iova_word(ms), &unresolved,
			    iova, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		return unresolved;
	return iova;
}

rte_iova_t
eal_memseg_iova(struct rte_memseg *ms)
{
	rte_iova_t iova = __atomic_load_n(
			memseg_iova_word(ms), __ATOMIC_RELAXED);
	const struct rte_memseg_list *msl;
	const struct eal_mem *mem;

	if (likely(iova != EAL_IOVA_UNRESOLVED))
		return iova;
	mem = eal_mem_get();
	msl = rte_mem_virt2memseg_list(ms->addr);
	if (mem == NULL || msl == NULL)
		return RTE_BAD_IOVA;
	return memseg_resolve(mem, eal_msl_index(mem->mcfg, msl),
			eal_msl_addr_idx(msl, ms->addr), ms);
}

void
eal_msl_resolve_iova(const struct rte_mem_config *mcfg,
		const struct rte_memseg_list *msl, unsigned int idx,
		unsigned int n)
{
	const struct eal_mem *mem = eal_mem_get();
	unsigned int l = eal_msl_index(mcfg, msl), i;

	for (i = idx; i < idx + n; i++)
		memseg_resolve(mem, l, i, eal_msl_seg(mcfg, msl, i));
}

int
rte_memseg_list_walk_thread_unsafe(rte_memseg_list_walk_t func, void *arg)
{
	struct rte_mem_config *mcfg = eal_mcfg_get();
	unsigned int l;
	int ret;

	for (l = 0; mcfg != NULL && l < mcfg->n_lists; l++) {
		/* A removed external list keeps its entry, empty. */
		if (mcfg->memsegs[l].base_va == NULL)
			continue;
		ret = func(&mcfg->memsegs[l], arg);
		if (ret != 0)
			return ret < 0 ? -1 : 1;
	}
	return 0;
}

int
rte_memseg_walk_thread_unsafe(rte_memseg_walk_t func, void *arg)
{
	struct rte_mem_config *mcfg = eal_mcfg_get();
	unsigned int l;
	int idx, ret;

	for (l = 0; mcfg != NULL && l < mcfg->n_lists; l++) {
		const struct rte_memseg_list *msl = &mcfg->memsegs[l];

		idx = eal_msl_find_next(mcfg, msl, 0, true);
		while (idx >= 0) {
			eal_msl_resolve_iova(mcfg, msl, (unsigned int)idx, 1);
			ret = func(msl, eal_msl_seg(mcfg, msl, idx), arg);
			if (ret != 0)
				return ret < 0 ? -1 : 1;
			idx = eal_msl_find_next(mcfg, msl, idx + 1, true);
		}
	}
	return 0;
}

/* The contiguous runs of used pages, their IOVAs resolved if @p resolve. */
static int
contig_walk(rte_memseg_contig_walk_t func, void *arg, bool resolve)
{
	struct rte_mem_config *mcfg = eal_mcfg_get();
	unsigned int l, len;
	int idx, ret;

	for (l = 0; mcfg != NULL && l < mcfg->n_lists; l++) {
		const struct rte_memseg_list *msl = &mcfg->memsegs[l];

		idx = eal_msl_find_next(mcfg, msl, 0, true);
		while (idx >= 0) {
			len = eal_msl_run_len(mcfg, msl, idx);
			if (resolve)
				eal_msl_resolve_iova(mcfg, msl,
						(unsigned int)idx, len);
			ret = func(msl, eal_msl_seg(mcfg, msl, idx),
					(size_t)len * msl->page_sz, arg);
			if (ret != 0)
				return ret < 0 ? -1 : 1;
			idx = eal_msl_find_next(mcfg, msl, idx + len, true);
		}
	}
	return 0;
}

int
rte_memseg_contig_walk_thread_unsafe(rte_memseg_contig_walk_t func, void *arg)
{
	return contig_walk(func, arg, true);
}

int
eal_memseg_contig_walk(rte_memseg_contig_walk_t func, void *arg)
{
	return contig_walk(func, arg, false);
}

int
rte_memseg_list_walk(rte_memseg_list_walk_t func, void *arg)
{
	int ret;

	rte_mcfg_mem_read_lock();
	ret = rte_memseg_list_walk_thread_unsafe(func, arg);
	rte_mcfg_mem_read_unlock();
	return ret;
}

int
rte_memseg_walk(rte_memseg_walk_t func, void *arg)
{
	int ret;

	rte_mcfg_mem_read_lock();
	ret = rte_memseg_walk_thread_unsafe(func, arg);
	rte_mcfg_mem_read_unlock();
	return ret;
}

int
rte_memseg_contig_walk(rte_memseg_contig_walk_t func, void *arg)
{
	int ret;

	rte_mcfg_mem_read_lock();
	ret = rte_memseg_contig_walk_thread_unsafe(func, arg);
	rte_mcfg_mem_read_unlock();
	return ret;
}

struct rte_memseg_list *
rte_mem_virt2memseg_list(const void *virt)
{
	struct rte_mem_config *mcfg = eal_mcfg_get();
	unsigned int l;

	for (l = 0; mcfg != NULL && l < mcfg->n_lists; l++)
		if (eal_msl_contains(&mcfg->memsegs[l], virt))
			return &mcfg->memsegs[l];
	rte_errno = EINVAL;
	return NULL;
}

struct rte_memseg *
rte_mem_virt2memseg(const void *virt, const struct rte_memseg_list *msl)
{
	struct rte_mem_config *mcfg = eal_mcfg_get();
	struct rte_memseg *ms;
	unsigned int idx;

	if (msl == NULL)
		msl = rte_mem_virt2memseg_list(virt);
	if (mcfg == NULL || msl == NULL || !eal_msl_contains(msl, virt)) {
		rte_errno = EINVAL;
		return NULL;
	}
	idx = eal_msl_addr_idx(msl, virt);
	if (!eal_msl_is_used(mcfg, msl, idx)) {
		rte_errno = EINVAL;
		return NULL;
	}
	ms = eal_msl_seg(mcfg, msl, idx);
	eal_memseg_iova(ms);
	return ms;
}

phys_addr_t
rte_mem_virt2phy(const void *virt)
{
	struct eal_mem *mem = eal_mem_get();
	phys_addr_t pa;
	int fd;

	if (mem != NULL && mem->pagemap_fd >= 0)
		return eal_iova_virt2phy(mem->pagemap_fd, virt);
	fd = eal_os_open("/proc/self/pagemap", O_RDONLY, 0);
	if (fd < 0)
		return RTE_BAD_IOVA;
	pa = eal_iova_virt2phy(fd, virt);
	eal_os_close(fd);
	return pa;
}

rte_iova_t
rte_mem_virt2iova(const void *virt)
{
	struct rte_memseg *ms = rte_mem_virt2memseg(virt, NULL);
	rte_iova_t iova = ms != NULL ? eal_memseg_iova(ms) : RTE_BAD_IOVA;

	if (iova != RTE_BAD_IOVA)
		return iova + RTE_PTR_DIFF(virt, ms->addr);
	if (rte_eal_iova_mode() == RTE_IOVA_VA)
		return (rte_iova_t)(uintptr_t)virt;
	return rte_mem_virt2phy(virt);
}

struct iova2virt_arg {
	rte_iova_t iova;
	void *virt;
};

static int
iova2virt_cb(const struct rte_memseg_list *msl, const struct rte_memseg *ms,
		void *arg)
{
	struct iova2virt_arg *a = arg;

	RTE_SET_USED(msl);
	/* A page not mapped here yet (a secondary) has none to compare. */
	if (ms->iova == RTE_BAD_IOVA || ms->iova == EAL_IOVA_UNRESOLVED ||
			a->iova < ms->iova || a->iova - ms->iova >= ms->len)
		return 0;
	a->virt = RTE_PTR_ADD(ms->addr, a->iova - ms->iova);
	return 1;
}

void *
rte_mem_iova2virt(rte_iova_t iova)
{
	struct iova2virt_arg a = { .iova = iova, .virt = NULL };

	rte_memseg_walk(iova2virt_cb, &a);
	return a.virt;
}

/* The list and slot of a mapped page, or -EINVAL. */
static int
memseg_locate(const struct rte_memseg *ms, unsigned int *l, unsigned int *idx)
{
	struct rte_mem_config *mcfg = eal_mcfg_get();
	const struct rte_memseg_list *msl;

	if (ms == NULL || mcfg == NULL)
		return -EINVAL;
	msl = rte_mem_virt2memseg_list(ms->addr);
	if (msl == NULL)
		return -EINVAL;
	*l = eal_msl_index(mcfg, msl);
	*idx = eal_msl_addr_idx(msl, ms->addr);
	if (!eal_msl_is_used(mcfg, msl, *idx) ||
			eal_msl_seg(mcfg, msl, *idx) != ms)
		return -EINVAL;
	return 0;
}

/*
 * The descriptor and offset of the file behind page @p ms: 0, or -1 with
 * rte_errno set. Memory an application added is not rtemem's: it has no
 * file here.
 */
static int
memseg_fd(const struct rte_memseg *ms, int *fd, uint64_t *off)
{
	struct rte_mem_config *mcfg = eal_mcfg_get();
	struct eal_mem *mem = eal_mem_get();
	unsigned int l, idx;
	int ret;

	ret = memseg_locate(ms, &l, &idx);
	if (ret == 0 && mcfg->memsegs[l].external)
		ret = -ENOTSUP;
	if (ret == 0)
		ret = mem->backing->get_fd(mem, l, idx, fd, off);
	if (ret < 0) {
		rte_errno = -ret;
		return -1;
	}
	return 0;
}

int
rte_memseg_get_fd_offset_thread_unsafe(
		const struct rte_memseg *ms, size_t *offset)
{
	uint64_t off;
	int fd;

	if (memseg_fd(ms, &fd, &off) < 0)
		return -1;
	if (offset != NULL)
		*offset = (size_t)off;
	return 0;
}

int
rte_memseg_get_fd_thread_unsafe(const struct rte_memseg *ms)
{
	uint64_t off;
	int fd;

	return memseg_fd(ms, &fd, &off) < 0 ? -1 : fd;
}

int
rte_memseg_get_fd(const struct rte_memseg *ms)
{
	int ret;

	rte_mcfg_mem_read_lock();
	ret = rte_memseg_get_fd_thread_unsafe(ms);
	rte_mcfg_mem_read_unlock();
	return ret;
}

int
rte_memseg_get_fd_offset(const struct rte_memseg *ms, size_t *offset)
{
	int ret;

	rte_mcfg_mem_read_lock();
	ret = rte_memseg_get_fd_offset_thread_unsafe(ms, offset);
	rte_mcfg_mem_read_unlock();
	return ret;
}

uint64_t
rte_eal_get_physmem_size(void)
{
	struct rte_mem_config *mcfg = eal_mcfg_get();
	uint64_t total = 0;
	unsigned int l;

	rte_mcfg_mem_read_lock();
	for (l = 0; mcfg != NULL && l < mcfg->n_lists; l++)
		if (!mcfg->memsegs[l].external)
			total += (uint64_t)mcfg->memsegs[l].n_used *
					mcfg->memsegs[l].page_sz;
	rte_mcfg_mem_read_unlock();
	return total;
}

static int
dump_run(const struct rte_memseg_list *msl, const struct rte_memseg *ms,
		size_t len, void *arg)
{
	FILE *f = arg;

	fprintf(f,
			"  run: va %p len 0x%zx (%zu pages) iova 0x%" PRIx64
			" socket %d flags 0x%x\n",
			ms->addr, len, len / msl->page_sz, ms->iova,
			ms->socket_id, ms->flags);
	return 0;
}

static int
dump_list(const struct rte_memseg_list *msl, void *arg)
{
	fprintf(arg,
			"list: page %" PRIu64
			" kB, socket %d, va %p len 0x%zx, %u of %u pages mapped\n",
			msl->page_sz >> 10, msl->socket_id, msl->base_va,
			msl->len, msl->n_used, msl->n_segs);
	return 0;
}

void
rte_dump_physmem_layout(FILE *f)
{
	rte_mcfg_mem_read_lock();
	rte_memseg_list_walk_thread_unsafe(dump_list, f);
	rte_memseg_contig_walk_thread_unsafe(dump_run, f);
	rte_mcfg_mem_read_unlock();
}

int
rte_mem_lock_page(const void *virt)
{
	uintptr_t page = RTE_ALIGN_FLOOR((uintptr_t)virt, eal_os_page_size());

	if (mlock((void *)page, eal_os_page_size()) != 0) {
		rte_errno = errno;
		return -1;
	}
	return 0;
}

int
rte_eal_using_phys_addrs(void)
{
	struct eal_mem *mem = eal_mem_get();

	return mem != NULL && mem->pagemap_fd >= 0;
}

unsigned int
rte_memory_get_nchannel(void)
{
	return 0;
}

unsigned int
rte_memory_get_nrank(void)
{
	return 0;
}

/* The hotplug lock is taken only once there is a config to guard. */
#define MCFG_LOCK_FN(name, lockfn, field) \
	void name(void) \
	{ \
		struct rte_mem_config *mcfg = eal_mcfg_get(); \
		if (mcfg != NULL) \
			lockfn(&mcfg->field); \
	}

/*
 * The hotplug lock is one that a process killed holding it cannot keep
 * (eal_mp.h): the next taker repairs the lists.
 */
#define HOTPLUG "memory hotplug lock"

void
rte_mcfg_mem_read_lock(void)
{
	struct rte_mem_config *mcfg = eal_mcfg_get();

	if (mcfg != NULL)
		eal_mp_read_lock(&mcfg->memory_hotplug_lock, HOTPLUG,
				eal_mp_repair_lists, eal_mem_get());
}

void
rte_mcfg_mem_read_unlock(void)
{
	struct rte_mem_config *mcfg = eal_mcfg_get();

	if (mcfg != NULL)
		eal_mp_read_unlock(&mcfg->memory_hotplug_lock);
}

void
rte_mcfg_mem_write_lock(void)
{
	struct rte_mem_config *mcfg = eal_mcfg_get();

	if (mcfg != NULL)
		eal_mp_write_lock(&mcfg->memory_hotplug_lock, HOTPLUG,
				eal_mp_repair_lists, eal_mem_get());
}

void
rte_mcfg_mem_write_unlock(void)
{
	struct rte_mem_config *mcfg = eal_mcfg_get();

	if (mcfg != NULL)
		eal_mp_write_unlock(&mcfg->memory_hotplug_lock);
}

MCFG_LOCK_FN(rte_mcfg_tailq_read_lock, rte_rwlock_read_lock, qlock)
MCFG_LOCK_FN(rte_mcfg_tailq_read_unlock, rte_rwlock_read_unlock, qlock)
MCFG_LOCK_FN(rte_mcfg_tailq_write_lock, rte_rwlock_write_lock, qlock)
MCFG_LOCK_FN(rte_mcfg_tailq_write_unlock, rte_rwlock_write_unlock, qlock)
MCFG_LOCK_FN(rte_mcfg_mempool_read_lock, rte_rwlock_read_lock, mplock)
MCFG_LOCK_FN(rte_mcfg_mempool_read_unlock, rte_rwlock_read_unlock, mplock)
MCFG_LOCK_FN(rte_mcfg_mempool_write_lock, rte_rwlock_write_lock, mplock)
MCFG_LOCK_FN(rte_mcfg_mempool_write_unlock, rte_rwlock_write_unlock, mplock)
MCFG_LOCK_FN(rte_mcfg_timer_lock, rte_spinlock_lock, tlock)
MCFG_LOCK_FN(rte_mcfg_timer_unlock, rte_spinlock_unlock, tlock)

bool
rte_mcfg_get_single_file_segments(void)
{
	struct rte_mem_config *mcfg = eal_mcfg_get();

	return mcfg != NULL && mcfg->single_file_segments;
}
