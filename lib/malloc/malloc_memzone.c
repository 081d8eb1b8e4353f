/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Memzones (rte_memzone.h): named heap allocations recorded in a table in
 * the shared config (malloc_memzone.h). The table changes under the
 * config's mlock held for writing; lookups and walks hold it for reading.
 * A memzone's memory comes from the heaps like rte_malloc()'s and is
 * never cleared.
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_memzone.h>

#include "eal_mp.h"
#include "malloc_heap.h"
#include "malloc_keep.h"
#include "malloc_state.h"

#define MZ_PAGE_FLAGS \
	(RTE_MEMZONE_2MB | RTE_MEMZONE_1GB | RTE_MEMZONE_16MB | \
			RTE_MEMZONE_16GB | RTE_MEMZONE_256KB | \
			RTE_MEMZONE_256MB | RTE_MEMZONE_512MB | \
			RTE_MEMZONE_4GB)
#define MZ_FLAGS \
	(MZ_PAGE_FLAGS | RTE_MEMZONE_SIZE_HINT_ONLY | RTE_MEMZONE_IOVA_CONTIG)

static const struct {
	unsigned int flag;
	uint64_t page_sz;
} mz_page_flags[] = {
	{ RTE_MEMZONE_256KB, 256ULL << 10 },
	{ RTE_MEMZONE_2MB, 2ULL << 20 },
	{ RTE_MEMZONE_16MB, 16ULL << 20 },
	{ RTE_MEMZONE_256MB, 256ULL << 20 },
	{ RTE_MEMZONE_512MB, 512ULL << 20 },
	{ RTE_MEMZONE_1GB, 1ULL << 30 },
	{ RTE_MEMZONE_4GB, 4ULL << 30 },
	{ RTE_MEMZONE_16GB, 16ULL << 30 },
};

void
malloc_mz_table_init(struct malloc_mz_table *t)
{
	unsigned int i;

	memset(t->bucket, 0xff, sizeof(t->bucket));
	memset(t->free_mask, 0, sizeof(t->free_mask));
	for (i = 0; i < RTE_MAX_MEMZONE; i++)
		t->free_mask[i / 64] |= 1ULL << (i % 64);
	t->n_free = RTE_MAX_MEMZONE;
	t->n_used = 0;
}

/* Take the lowest free entry; the table must have one. */
static uint16_t
mz_take_entry(struct malloc_mz_table *t)
{
	unsigned int w = 0;
	uint32_t bit;

	while (t->free_mask[w] == 0)
		w++;
	bit = rte_ctz64(t->free_mask[w]);
	t->free_mask[w] &= ~(1ULL << bit);
	t->n_free--;
	return (uint16_t)(w * 64 + bit);
}

/* Index taken entry @p idx under its name's hash @p hash. */
static void
mz_link(struct malloc_mz_table *t, uint16_t idx, unsigned int hash)
{
	t->chain[idx] = t->bucket[hash];
	t->bucket[hash] = idx;
	t->n_used++;
}

static unsigned int
mz_hash(const char *name)
{
	uint32_t h = 2166136261U;

	for (; *name != '\0'; name++)
		h = (h ^ (uint8_t)*name) * 16777619U;
	return h & (MALLOC_MZ_BUCKETS - 1);
}

/* The entry named @p name, of hash @p hash, or MALLOC_MZ_NONE. */
static uint16_t
mz_find(const struct malloc_mz_table *t, const char *name, unsigned int hash)
{
	uint16_t i;

	for (i = t->bucket[hash]; i != MALLOC_MZ_NONE; i = t->chain[i])
		if (strncmp(t->zones[i].name, name, RTE_MEMZONE_NAMESIZE) == 0)
			return i;
	return MALLOC_MZ_NONE;
}

static void
mz_unchain(struct malloc_mz_table *t, uint16_t idx)
{
	uint16_t *link = &t->bucket[mz_hash(t->zones[idx].name)];

	while (*link != idx)
		link = &t->chain[*link];
	*link = t->chain[idx];
}

struct rte_memzone *
malloc_mz_table_restore(struct malloc_mz_table *t, uint16_t idx,
		const struct rte_memzone *mz)
{
	unsigned int hash = mz_hash(mz->name);
	uint64_t bit = 1ULL << (idx % 64);

	if (idx >= RTE_MAX_MEMZONE || (t->free_mask[idx / 64] & bit) == 0 ||
			mz_find(t, mz->name, hash) != MALLOC_MZ_NONE)
		return NULL;
	t->free_mask[idx / 64] &= ~bit;
	t->n_free--;
	t->zones[idx] = *mz;
	mz_link(t, idx, hash);
	return &t->zones[idx];
}

/* The page sizes of @p flags in @p sizes; @return how many. */
static unsigned int
mz_page_sizes(unsigned int flags, uint64_t *sizes)
{
	unsigned int i, n = 0;

	for (i = 0; i < RTE_DIM(mz_page_flags); i++)
		if (flags & mz_page_flags[i].flag)
			sizes[n++] = mz_page_flags[i].page_sz;
	return n;
}

/* The argument checks; @return 0 or the rte_errno value. */
static int
mz_check_args(const char *name, size_t len, int socket, unsigned int flags,
		unsigned int align, unsigned int bound)
{
	if (name == NULL || name[0] == '\0')
		return EINVAL;
	/* As DPDK: a length that cannot be rounded to a cache line. */
	if (len > SIZE_MAX - RTE_CACHE_LINE_MASK)
		return EINVAL;
	if (strnlen(name, RTE_MEMZONE_NAMESIZE) == RTE_MEMZONE_NAMESIZE)
		return ENAMETOOLONG;
	if ((flags & ~MZ_FLAGS) != 0 || (align & (align - 1)) != 0 ||
			(bound & (bound - 1)) != 0 ||
			(bound != 0 && RTE_CACHE_LINE_ROUNDUP(len) > bound))
		return EINVAL;
	if (socket != SOCKET_ID_ANY &&
			(socket < 0 ||
					(socket >= RTE_MAX_NUMA_NODES &&
							socket < MALLOC_EXTERNAL_SOCKET_BASE)))
		return EINVAL;
	return 0;
}

/* The heaps to try for @p socket, in order; @return how many. */
static unsigned int
mz_heaps(struct malloc_state *st, int socket, struct malloc_heap **heaps)
{
	struct malloc_heap *h;
	unsigned int n = 0, local = rte_socket_id(), i;

	if (socket != SOCKET_ID_ANY) {
		h = malloc_heap_of_socket(st, socket);
		if (h != NULL)
			heaps[n++] = h;
		return n;
	}
	if (local < RTE_MAX_NUMA_NODES && st->node_heap[local] >= 0)
		heaps[n++] = &st->heaps[st->node_heap[local]];
	for (i = 0; i < RTE_MAX_NUMA_NODES; i++) {
		if (st->node_heap[i] < 0)
			continue;
		h = &st->heaps[st->node_heap[i]];
		if (n == 0 || h != heaps[0])
			heaps[n++] = h;
	}
	return n;
}

/*
 * For len 0: the biggest block @p req could get now on one of @p heaps;
 * sets req->size and @return that heap, or NULL.
 */
static struct malloc_heap *
mz_biggest(struct malloc_heap **heaps, unsigned int n, struct malloc_req *req)
{
	struct malloc_heap *best = NULL;
	size_t best_len = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct malloc_elem *e;
		uintptr_t d, end;

		malloc_heap_lock(heaps[i]);
		malloc_queue_drain(eal_mcfg_get(), heaps[i]);
		e = malloc_heap_largest(heaps[i], req);
		if (e != NULL) {
			d = RTE_ALIGN_CEIL(
					(uintptr_t)e + MALLOC_ELEM_HEADER_LEN,
					req->align);
			end = (uintptr_t)malloc_elem_end(e) -
					MALLOC_ELEM_TRAILER_LEN;
			if (end > d && RTE_ALIGN_FLOOR(end - d, 64) > best_len) {
				best_len = RTE_ALIGN_FLOOR(end - d, 64);
				best = heaps[i];
			}
		}
		malloc_heap_unlock(heaps[i]);
	}
	if (req->bound != 0)
		best_len = RTE_MIN(best_len, req->bound);
	req->size = req->user_size = best_len;
	return best_len == 0 ? NULL : best;
}

/* Allocate for @p req on the first of @p heaps that has room. */
static void *
mz_alloc(struct rte_mem_config *mcfg, struct malloc_heap **heaps,
		unsigned int n, const struct malloc_req *req,
		struct malloc_heap **heap)
{
	unsigned int i;
	bool dirty;
	void *p;

	for (i = 0; i < n; i++) {
		p = malloc_heap_alloc(mcfg, heaps[i], req, &dirty);
		if (p != NULL) {
			*heap = heaps[i];
			return p;
		}
	}
	return NULL;
}

/* Reserve with the table locked; @return the entry or NULL with errno. */
static const struct rte_memzone *
mz_reserve_locked(struct rte_mem_config *mcfg, const char *name, size_t len,
		int socket, unsigned int flags, unsigned int align,
		unsigned int bound)
{
	struct malloc_state *st = malloc_state_of(mcfg);
	struct malloc_mz_table *t = &st->memzones;
	struct malloc_heap *heaps[RTE_MAX_NUMA_NODES], *heap = NULL;
	uint64_t sizes[RTE_DIM(mz_page_flags)];
	struct malloc_req req = {
		/* The whole reported length is the caller's (ASan). */
		.user_size = RTE_CACHE_LINE_ROUNDUP(len),
		.size = RTE_CACHE_LINE_ROUNDUP(len),
		.align = RTE_MAX(align, (unsigned int)RTE_CACHE_LINE_SIZE),
		.bound = bound,
		.contig = (flags & RTE_MEMZONE_IOVA_CONTIG) != 0,
		.page_sz = sizes,
		.n_page_sz = mz_page_sizes(flags, sizes),
	};
	unsigned int n_heaps = mz_heaps(st, socket, heaps);
	unsigned int hash = mz_hash(name);
	struct rte_memzone *mz;
	uint16_t idx;
	void *p = NULL;

	/* Past the nodes, only an existing external heap is a socket. */
	if (socket >= RTE_MAX_NUMA_NODES && n_heaps == 0) {
		rte_errno = EINVAL;
		return NULL;
	}
	if (mz_find(t, name, hash) != MALLOC_MZ_NONE) {
		rte_errno = EEXIST;
		return NULL;
	}
	if (t->n_free == 0) {
		rte_errno = ENOSPC;
		return NULL;
	}
	if (req.n_page_sz == 0)
		req.page_sz = NULL;
	if (len == 0) {
		struct malloc_heap *h = mz_biggest(heaps, n_heaps, &req);

		n_heaps = h == NULL ? 0 : 1;
		heaps[0] = h;
	}
	if (n_heaps > 0 && req.size != 0)
		p = mz_alloc(mcfg, heaps, n_heaps, &req, &heap);
	if (p == NULL && req.page_sz != NULL &&
			(flags & RTE_MEMZONE_SIZE_HINT_ONLY)) {
		req.page_sz = NULL;
		p = mz_alloc(mcfg, heaps, n_heaps, &req, &heap);
	}
	if (p == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	/* Its memory is the memzone's: rte_free() must refuse it. */
	malloc_heap_set_memzone(heap, p, true);
	idx = mz_take_entry(t);
	mz = &t->zones[idx];
	memset(mz, 0, sizeof(*mz));
	strcpy(mz->name, name);
	mz->addr = p;
	mz->iova = malloc_heap_virt2iova(mcfg, p);
	/* DPDK reports the length it reserved: whole cache lines. */
	mz->len = req.size;
	mz->hugepage_sz = rte_mem_virt2memseg_list(p)->page_sz;
	mz->socket_id = heap->socket_id;
	mz->flags = flags;
	mz_link(t, idx, hash);
	malloc_keep_record(mcfg, idx, mz);
	return mz;
}

/* Whether entry @p z is a whole memzone: a name, and its heap memory. */
static bool
mz_entry_whole(struct rte_mem_config *mcfg, const struct rte_memzone *z)
{
	struct malloc_heap *heap;

	return memchr(z->name, '\0', sizeof(z->name)) != NULL && z->len != 0 &&
			malloc_heap_memzone_elem_of(mcfg, z->addr, &heap) !=
			NULL;
}

/*
 * After a process died holding the memzone lock: keep the entries that
 * are whole memzones, clear the others (a reserve or free it left
 * half done), and rebuild the name index and the free entries.
 */
static void
mz_repair(void *arg)
{
	struct rte_mem_config *mcfg = arg;
	struct malloc_mz_table *t = &malloc_state_of(mcfg)->memzones;
	unsigned int i, cleared = 0;

	malloc_mz_table_init(t);
	for (i = 0; i < RTE_MAX_MEMZONE; i++) {
		struct rte_memzone *z = &t->zones[i];

		if (z->name[0] == '\0')
			continue;
		if (!mz_entry_whole(mcfg, z) ||
				mz_find(t, z->name, mz_hash(z->name)) !=
						MALLOC_MZ_NONE) {
			malloc_keep_erase((uint16_t)i);
			memset(z, 0, sizeof(*z));
			cleared++;
			continue;
		}
		t->free_mask[i / 64] &= ~(1ULL << (i % 64));
		t->n_free--;
		mz_link(t, (uint16_t)i, mz_hash(z->name));
	}
	RTE_LOG(WARNING, MALLOC,
			"memzone table checked: %u memzones, %u half-made entries "
			"cleared\n",
			t->n_used, cleared);
}

#define MZ_LOCK "memzone lock"

static void
mz_write_lock(struct rte_mem_config *mcfg)
{
	eal_mp_write_lock(&mcfg->mlock, MZ_LOCK, mz_repair, mcfg);
}

static void
mz_read_lock(struct rte_mem_config *mcfg)
{
	eal_mp_read_lock(&mcfg->mlock, MZ_LOCK, mz_repair, mcfg);
}

static const struct rte_memzone *
mz_reserve(const char *name, size_t len, int socket, unsigned int flags,
		unsigned int align, unsigned int bound)
{
	struct rte_mem_config *mcfg = malloc_mcfg_get();
	const struct rte_memzone *mz;
	int err;

	if (mcfg == NULL)
		return NULL;
	err = mz_check_args(name, len, socket, flags, align, bound);
	if (err != 0) {
		rte_errno = err;
		return NULL;
	}
	if (len > ((size_t)1 << 52)) {
		rte_errno = ENOMEM;
		return NULL;
	}
	mz_write_lock(mcfg);
	mz = mz_reserve_locked(mcfg, name, len, socket, flags, align, bound);
	eal_mp_write_unlock(&mcfg->mlock);
	return mz;
}

const struct rte_memzone *
rte_memzone_reserve(
		const char *name, size_t len, int socket_id, unsigned int flags)
{
	return mz_reserve(name, len, socket_id, flags, RTE_CACHE_LINE_SIZE, 0);
}

const struct rte_memzone *
rte_memzone_reserve_aligned(const char *name, size_t len, int socket_id,
		unsigned int flags, unsigned int align)
{
	return mz_reserve(name, len, socket_id, flags, align, 0);
}

const struct rte_memzone *
rte_memzone_reserve_bounded(const char *name, size_t len, int socket_id,
		unsigned int flags, unsigned int align, unsigned int bound)
{
	return mz_reserve(name, len, socket_id, flags, align, bound);
}

/* The index of table entry @p mz if it is a reserved memzone, or -1. */
static int
mz_index(const struct malloc_mz_table *t, const struct rte_memzone *mz)
{
	uintptr_t off = (uintptr_t)mz - (uintptr_t)t->zones;

	if ((uintptr_t)mz < (uintptr_t)t->zones || off >= sizeof(t->zones) ||
			off % sizeof(*mz) != 0 || mz->name[0] == '\0')
		return -1;
	return (int)(off / sizeof(*mz));
}

int
rte_memzone_free(const struct rte_memzone *mz)
{
	struct rte_mem_config *mcfg = malloc_mcfg_get();
	struct malloc_mz_table *t;
	struct malloc_heap *heap;
	int idx;

	if (mcfg == NULL || mz == NULL)
		return -EINVAL;
	t = &malloc_state_of(mcfg)->memzones;
	mz_write_lock(mcfg);
	idx = mz_index(t, mz);
	if (idx >= 0 &&
			malloc_heap_memzone_elem_of(mcfg, mz->addr, &heap) !=
					NULL) {
		/* Out of the kept table before the memory is anyone's. */
		malloc_keep_erase((uint16_t)idx);
		malloc_heap_set_memzone(heap, mz->addr, false);
		malloc_heap_free(mcfg, heap, mz->addr);
		mz_unchain(t, (uint16_t)idx);
		memset(&t->zones[idx], 0, sizeof(t->zones[idx]));
		t->free_mask[idx / 64] |= 1ULL << (idx % 64);
		t->n_free++;
		t->n_used--;
	}
	eal_mp_write_unlock(&mcfg->mlock);
	return idx < 0 ? -EINVAL : 0;
}

const struct rte_memzone *
rte_memzone_lookup(const char *name)
{
	struct rte_mem_config *mcfg = malloc_mcfg_get();
	const struct malloc_mz_table *t;
	const struct rte_memzone *mz = NULL;
	uint16_t idx;

	if (mcfg == NULL)
		return NULL;
	if (name == NULL) {
		rte_errno = EINVAL;
		return NULL;
	}
	t = &malloc_state_of(mcfg)->memzones;
	mz_read_lock(mcfg);
	idx = mz_find(t, name, mz_hash(name));
	if (idx != MALLOC_MZ_NONE)
		mz = &t->zones[idx];
	eal_mp_read_unlock(&mcfg->mlock);
	if (mz == NULL)
		rte_errno = ENOENT;
	return mz;
}

void
rte_memzone_walk(void (*func)(const struct rte_memzone *, void *), void *arg)
{
	struct rte_mem_config *mcfg = malloc_mcfg_get();
	const struct malloc_mz_table *t;
	unsigned int i;

	if (mcfg == NULL)
		return;
	t = &malloc_state_of(mcfg)->memzones;
	mz_read_lock(mcfg);
	for (i = 0; i < RTE_MAX_MEMZONE; i++)
		if (t->zones[i].name[0] != '\0')
			func(&t->zones[i], arg);
	eal_mp_read_unlock(&mcfg->mlock);
}

static void
mz_dump_one(const struct rte_memzone *mz, void *arg)
{
	FILE *f = arg;

	fprintf(f,
			"Zone %s: len 0x%zx, virt %p, iova 0x%" PRIx64
			", socket %d, page %" PRIu64 " kB, flags 0x%x\n",
			mz->name, mz->len, mz->addr, mz->iova, mz->socket_id,
			mz->hugepage_sz >> 10, mz->flags);
}

void
rte_memzone_dump(FILE *f)
{
	rte_memzone_walk(mz_dump_one, f);
}
