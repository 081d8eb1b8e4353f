/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * External heaps: heaps over memory the application mapped. The heap
 * table changes under the hotplug lock (as in DPDK); each added range is
 * an external memseg list whose pages are dirty, and is never grown,
 * shrunk or unmapped by rtemem.
 */

#include <errno.h>
#include <string.h>

#include <rte_common.h>
#include <rte_eal_memconfig.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#include "eal_memseg_list.h"
#include "malloc_asan.h"
#include "malloc_heap.h"
#include "malloc_state.h"

static int
ext_fail(int err)
{
	rte_errno = err;
	return -1;
}

static bool
ext_name_ok(const char *name)
{
	return name != NULL && name[0] != '\0' &&
			strnlen(name, RTE_HEAP_NAME_MAX_LEN) <
			RTE_HEAP_NAME_MAX_LEN;
}

static struct malloc_heap *
ext_find(struct malloc_state *st, const char *name)
{
	unsigned int i;

	for (i = 0; i < RTE_MAX_HEAPS; i++)
		if (st->heaps[i].in_use && strcmp(st->heaps[i].name, name) == 0)
			return &st->heaps[i];
	return NULL;
}

/*
 * The external heap called @p name, with the config, or NULL with
 * rte_errno set. Called with the hotplug lock held.
 */
static struct malloc_heap *
ext_get(const char *name, struct rte_mem_config **mcfg)
{
	struct malloc_heap *heap;

	*mcfg = malloc_mcfg_get();
	if (*mcfg == NULL)
		return NULL;
	if (!ext_name_ok(name)) {
		rte_errno = EINVAL;
		return NULL;
	}
	heap = ext_find(malloc_state_of(*mcfg), name);
	if (heap == NULL)
		rte_errno = ENOENT;
	else if (!heap->external) {
		rte_errno = EINVAL;
		heap = NULL;
	}
	return heap;
}

int
rte_malloc_heap_create(const char *heap_name)
{
	struct rte_mem_config *mcfg = malloc_mcfg_get();
	struct malloc_state *st;
	struct malloc_heap *heap = NULL;
	unsigned int i;
	int err = 0;

	if (mcfg == NULL)
		return -1;
	if (!ext_name_ok(heap_name))
		return ext_fail(EINVAL);
	st = malloc_state_of(mcfg);
	rte_mcfg_mem_write_lock();
	if (ext_find(st, heap_name) != NULL)
		err = EEXIST;
	for (i = 0; err == 0 && i < RTE_MAX_HEAPS && heap == NULL; i++)
		if (!st->heaps[i].in_use)
			heap = &st->heaps[i];
	if (err == 0 && heap == NULL)
		err = ENOSPC;
	if (err == 0) {
		memset(heap, 0, sizeof(*heap));
		eal_mplock_init(&heap->lock);
		strcpy(heap->name, heap_name);
		heap->socket_id = st->next_external_socket++;
		heap->external = 1;
		heap->in_use = 1;
		malloc_state_heap_used(st, (unsigned int)(heap - st->heaps));
	}
	rte_mcfg_mem_write_unlock();
	return err == 0 ? 0 : ext_fail(err);
}

int
rte_malloc_heap_destroy(const char *heap_name)
{
	struct rte_mem_config *mcfg;
	struct malloc_heap *heap;
	int err = 0;

	rte_mcfg_mem_write_lock();
	heap = ext_get(heap_name, &mcfg);
	if (heap == NULL)
		err = rte_errno;
	else if (heap->total_size != 0)
		err = EBUSY;
	else
		memset(heap, 0, sizeof(*heap));
	rte_mcfg_mem_write_unlock();
	return err == 0 ? 0 : ext_fail(err);
}

static bool
ext_range_ok(const void *va, size_t len, size_t page_sz)
{
	return va != NULL && len != 0 && page_sz != 0 &&
			(page_sz & (page_sz - 1)) == 0 &&
			page_sz >= MALLOC_ELEM_MIN_LEN &&
			((uintptr_t)va & (page_sz - 1)) == 0 &&
			(len & (page_sz - 1)) == 0 &&
			len >= MALLOC_ELEM_MIN_LEN;
}

/* Describe the range as a list and add it to @p heap. */
static int
ext_add(struct rte_mem_config *mcfg, struct malloc_heap *heap, void *va,
		size_t len, rte_iova_t iova[], size_t page_sz)
{
	struct rte_memseg_list *msl;
	unsigned int l;
	int ret;

	if (malloc_heap_bins(heap, page_sz) == NULL)
		return EINVAL;
	ret = eal_memseg_list_add_external(
			va, len, iova, page_sz, heap->socket_id, &msl);
	if (ret < 0)
		return -ret;
	l = eal_msl_index(mcfg, msl);
	if (malloc_heap_track_list(mcfg, l) < 0) {
		eal_memseg_list_remove_external(msl);
		return ENOSPC;
	}
	malloc_heap_lock(heap);
	malloc_heap_add_memory(mcfg, heap, l, va, len, true);
	malloc_heap_unlock(heap);
	return 0;
}

int
rte_malloc_heap_memory_add(const char *heap_name, void *va_addr, size_t len,
		rte_iova_t iova_addrs[], unsigned int n_pages, size_t page_sz)
{
	struct rte_mem_config *mcfg;
	struct malloc_heap *heap;
	int err;

	if (!ext_range_ok(va_addr, len, page_sz) ||
			(iova_addrs != NULL && n_pages != len / page_sz))
		return ext_fail(EINVAL);
	rte_mcfg_mem_write_lock();
	heap = ext_get(heap_name, &mcfg);
	err = heap == NULL ?
			rte_errno :
			ext_add(mcfg, heap, va_addr, len, iova_addrs, page_sz);
	rte_mcfg_mem_write_unlock();
	return err == 0 ? 0 : ext_fail(err);
}

/* The list of @p heap that is exactly [va, va + len), or NULL. */
static struct rte_memseg_list *
ext_list(struct rte_mem_config *mcfg, const struct malloc_heap *heap,
		const void *va, size_t len)
{
	unsigned int l;

	for (l = 0; l < mcfg->n_lists; l++) {
		struct rte_memseg_list *msl = &mcfg->memsegs[l];

		if (msl->external && msl->base_va == va && msl->len == len &&
				msl->socket_id == heap->socket_id)
			return msl;
	}
	return NULL;
}

/* Take the range out of @p heap if none of it is allocated. */
static int
ext_remove(struct rte_mem_config *mcfg, struct malloc_heap *heap, void *va,
		size_t len)
{
	struct rte_memseg_list *msl = ext_list(mcfg, heap, va, len);
	struct malloc_elem *e = va;
	int err = 0;

	if (msl == NULL)
		return ENOENT;
	malloc_heap_lock(heap);
	if (e->t.state != ELEM_FREE || e->size != len)
		err = EBUSY;
	else {
		malloc_bins_remove(malloc_heap_bins(heap, msl->page_sz), e);
		heap->free_count--;
		heap->free_size -= len;
		heap->total_size -= len;
	}
	malloc_heap_unlock(heap);
	if (err == 0) {
		/* The memory is the application's again: no poison left. */
		malloc_asan_unpoison(va, len);
		eal_memseg_list_remove_external(msl);
	}
	return err;
}

int
rte_malloc_heap_memory_remove(const char *heap_name, void *va_addr, size_t len)
{
	struct rte_mem_config *mcfg;
	struct malloc_heap *heap;
	int err;

	if (va_addr == NULL || len == 0)
		return ext_fail(EINVAL);
	rte_mcfg_mem_write_lock();
	heap = ext_get(heap_name, &mcfg);
	err = heap == NULL ? rte_errno : ext_remove(mcfg, heap, va_addr, len);
	rte_mcfg_mem_write_unlock();
	return err == 0 ? 0 : ext_fail(err);
}

int
rte_malloc_heap_get_socket(const char *name)
{
	struct rte_mem_config *mcfg = malloc_mcfg_get();
	struct malloc_heap *heap;
	int socket;

	if (mcfg == NULL)
		return -1;
	if (!ext_name_ok(name))
		return ext_fail(EINVAL);
	rte_mcfg_mem_read_lock();
	heap = ext_find(malloc_state_of(mcfg), name);
	socket = heap == NULL ? -1 : heap->socket_id;
	rte_mcfg_mem_read_unlock();
	return socket < 0 ? ext_fail(ENOENT) : socket;
}

int
rte_malloc_heap_socket_is_external(int socket_id)
{
	struct rte_mem_config *mcfg = malloc_mcfg_get();
	struct malloc_heap *heap;

	if (mcfg == NULL)
		return -1;
	heap = malloc_heap_of_socket(malloc_state_of(mcfg), socket_id);
	if (heap == NULL)
		return ext_fail(EINVAL);
	return heap->external;
}
