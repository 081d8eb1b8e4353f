/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * The rte_malloc.h API over the heaps: argument rules, the choice of
 * heap (the caller's node first for SOCKET_ID_ANY), clearing for
 * rte_zmalloc() only when the memory handed out may be dirty.
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_malloc.h>

#include "malloc_asan.h"
#include "malloc_cache.h"
#include "malloc_cache_fast.h"
#include "malloc_elem.h"
#include "malloc_heap.h"
#include "malloc_slab.h"
#include "malloc_slab_fast.h"
#include "malloc_state.h"

/* Larger requests cannot be memory anyway; refusing them early keeps the
 * size arithmetic below from overflowing. */
#define MALLOC_MAX_SIZE ((size_t)1 << 52)

/*
 * The entry points every allocation and free goes through start on a
 * cache line: the same code 16 bytes further took 64 byte pairs 9.2 ns
 * against 8.1, and where each started followed unrelated changes.
 */
#define MALLOC_ENTRY __rte_aligned(RTE_CACHE_LINE_SIZE)

/* Why malloc_req_make() refused: a bad argument, or more than memory. */
static int
malloc_req_errno(size_t size, unsigned int align)
{
	return size == 0 || (align & (align - 1)) != 0 ? EINVAL : ENOMEM;
}

static bool
malloc_req_make(struct malloc_req *req, size_t size, unsigned int align)
{
	if (size == 0 || size > MALLOC_MAX_SIZE || (align & (align - 1)) != 0)
		return false;
	memset(req, 0, sizeof(*req));
	req->user_size = size;
	req->size = RTE_CACHE_LINE_ROUNDUP(size);
	req->align = RTE_MAX((size_t)align, (size_t)RTE_CACHE_LINE_SIZE);
	return true;
}

/* Allocate on @p heap, clearing if @p zero and the memory may be dirty. */
static void *
malloc_on_heap(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		const struct malloc_req *req, bool zero)
{
	bool dirty = false;
	void *p = malloc_heap_alloc(mcfg, heap, req, &dirty);

	if (p != NULL && zero && dirty)
		malloc_heap_zero(heap, p, req->user_size);
	return p;
}

/*
 * The caller's node's heap first (unless @p local_tried), then every
 * other node's.
 */
static void *
malloc_any_node(struct rte_mem_config *mcfg, const struct malloc_req *req,
		bool zero, bool local_tried)
{
	struct malloc_state *st = malloc_state_of(mcfg);
	struct malloc_heap *local;
	unsigned int socket = rte_socket_id(), i;
	void *p = NULL;

	local = socket < RTE_MAX_NUMA_NODES ?
			malloc_heap_of_socket(st, (int)socket) :
			NULL;
	if (local != NULL && !local_tried)
		p = malloc_on_heap(mcfg, local, req, zero);
	for (i = 0; p == NULL && i < RTE_MAX_NUMA_NODES; i++) {
		struct malloc_heap *h = malloc_heap_of_socket(st, (int)i);

		if (h != NULL && h != local)
			p = malloc_on_heap(mcfg, h, req, zero);
	}
	return p;
}

/* The one DEBUG line of a failed allocation; @return NULL. */
static void *
malloc_failed(size_t size, unsigned int align, int socket, const char *why)
{
	RTE_LOG(DEBUG, MALLOC,
			"allocation of %zu bytes (align %u) on socket %d failed: "
			"%s\n",
			size, align, socket, why);
	return NULL;
}

/*
 * An allocation once the current slab did not serve it: @p cls is the
 * slab class it may still come from, or -1.
 */
static __rte_noinline void *
malloc_socket_any(struct rte_mem_config *mcfg, size_t size, unsigned int align,
		int socket, bool zero, int cls)
{
	struct malloc_heap *heap;
	struct malloc_req req;
	bool tried = false;
	void *p;

	if (cls >= 0) {
		p = malloc_slab_alloc(mcfg, size, cls, zero);
		if (p != NULL)
			return p;
	}
	/* A small block of the caller's node may wait in its lcore cache. */
	if (size - 1 < MALLOC_QUEUE_MAX_DATA && align <= RTE_CACHE_LINE_SIZE &&
			(align & (align - 1)) == 0 &&
			(socket == SOCKET_ID_ANY ||
					socket == (int)rte_socket_id())) {
		p = malloc_cache_alloc(mcfg, size, zero, &tried);
		if (p != NULL)
			return p;
	}
	if (!malloc_req_make(&req, size, align)) {
		rte_errno = malloc_req_errno(size, align);
		return malloc_failed(size, align, socket,
				size == 0 ? "size 0" :
						(align & (align - 1)) != 0 ?
					    "alignment not a power of two" :
					    "size too large");
	}
	/* Without hugepages nodes mean nothing; external heaps still do. */
	if (socket == SOCKET_ID_ANY ||
			(mcfg->no_huge && socket >= 0 &&
					socket < RTE_MAX_NUMA_NODES))
		p = malloc_any_node(mcfg, &req, zero, tried);
	else if (tried)
		p = NULL; /* the cache tried the node's heap */
	else {
		heap = malloc_heap_of_socket(malloc_state_of(mcfg), socket);
		if (heap == NULL) {
			rte_errno = EINVAL;
			return malloc_failed(size, align, socket,
					"no heap has this socket id");
		}
		p = malloc_on_heap(mcfg, heap, &req, zero);
	}
	if (p == NULL) {
		const char *why = malloc_heap_grow_failure();

		rte_errno = ENOMEM;
		return malloc_failed(size, align, socket,
				why[0] != '\0' ? why :
						 "no free block big enough");
	}
	return p;
}

/*
 * A block of up to MALLOC_QUEUE_MAX_DATA bytes waiting in the calling
 * lcore's cache, inline in rte_malloc(). @return it, or NULL: then
 * malloc_cache_alloc() refills the cache or says why not.
 */
static inline void *
malloc_cache_alloc_inline(struct rte_mem_config *mcfg, size_t size, bool zero)
{
	struct malloc_cache *c = malloc_cache_mine(mcfg);
	int k = malloc_queue_class_for(RTE_CACHE_LINE_ROUNDUP(size));
	bool claimed;

	if (unlikely(c == NULL || k < 0))
		return NULL;
	return malloc_cache_alloc_hit(c, k, size, zero, &claimed);
}

static inline void *
malloc_socket(size_t size, unsigned int align, int socket, bool zero)
{
	struct rte_mem_config *mcfg = malloc_mcfg_get();
	bool local;
	void *p;
	int cls;

	if (mcfg == NULL)
		return NULL;
	local = socket == SOCKET_ID_ANY || socket == (int)rte_socket_id();
	/* Small objects of the caller's node come from its slabs. */
	cls = malloc_slab_class(size, align);
	if (cls >= 0 && (align & (align - 1)) == 0 && local) {
		p = malloc_slab_alloc_owned(mcfg, size, cls, zero);
		if (p != NULL)
			return p;
	} else {
		cls = -1;
		/* Larger ones may wait in its cache. */
		if (size - 1 < MALLOC_QUEUE_MAX_DATA &&
				align <= RTE_CACHE_LINE_SIZE &&
				(align & (align - 1)) == 0 && local) {
			p = malloc_cache_alloc_inline(mcfg, size, zero);
			if (p != NULL)
				return p;
		}
	}
	return malloc_socket_any(mcfg, size, align, socket, zero, cls);
}

MALLOC_ENTRY void *
rte_malloc_socket(const char *type, size_t size, unsigned int align, int socket)
{
	RTE_SET_USED(type);
	return malloc_socket(size, align, socket, false);
}

MALLOC_ENTRY void *
rte_malloc(const char *type, size_t size, unsigned int align)
{
	RTE_SET_USED(type);
	return malloc_socket(size, align, SOCKET_ID_ANY, false);
}

MALLOC_ENTRY void *
rte_zmalloc_socket(
		const char *type, size_t size, unsigned int align, int socket)
{
	RTE_SET_USED(type);
	return malloc_socket(size, align, socket, true);
}

MALLOC_ENTRY void *
rte_zmalloc(const char *type, size_t size, unsigned int align)
{
	RTE_SET_USED(type);
	return malloc_socket(size, align, SOCKET_ID_ANY, true);
}

void *
rte_calloc_socket(const char *type, size_t num, size_t size, unsigned int align,
		int socket)
{
	RTE_SET_USED(type);
	if (size != 0 && num > SIZE_MAX / size) {
		rte_errno = EINVAL;
		return NULL;
	}
	return malloc_socket(num * size, align, socket, true);
}

void *
rte_calloc(const char *type, size_t num, size_t size, unsigned int align)
{
	return rte_calloc_socket(type, num, size, align, SOCKET_ID_ANY);
}

/* The heap and header of an allocation, or NULL after logging why. */
static struct malloc_elem *
malloc_elem_checked(struct rte_mem_config *mcfg, const void *ptr,
		struct malloc_heap **heap, const char *what)
{
	struct malloc_elem *e = malloc_heap_elem_of(mcfg, ptr, heap);

	if (e == NULL && malloc_heap_memzone_elem_of(mcfg, ptr, heap) != NULL)
		RTE_LOG(ERR, MALLOC,
				"%s: %p is the memory of a memzone: give it back "
				"with rte_memzone_free()\n",
				what, ptr);
	else if (e == NULL)
		RTE_LOG(ERR, MALLOC,
				"%s: invalid memory %p, not an allocation\n",
				what, ptr);
	return e;
}

/*
 * rte_free() of @p ptr, an element (no slab object) that the caller's
 * cache did not take: unchecked, or checked and on @p heap
 * (malloc_cache_free()).
 */
static __rte_noinline void
free_refused(struct rte_mem_config *mcfg, void *ptr, bool checked,
		struct malloc_heap *heap)
{
	struct malloc_elem *e;

	if (!checked) {
		e = malloc_elem_checked(mcfg, ptr, &heap, "rte_free");
		if (e == NULL || malloc_cache_put(mcfg, heap, e))
			return;
	}
	if (malloc_heap_free(mcfg, heap, ptr) < 0)
		RTE_LOG(ERR, MALLOC,
				"rte_free: invalid memory %p, not an allocation\n",
				ptr);
}

/* rte_free() of element @p ptr: most go to the caller's cache. */
static inline void
free_element(struct rte_mem_config *mcfg, void *ptr)
{
	struct malloc_heap *heap = NULL;
	enum malloc_cache_verdict v = malloc_cache_free(mcfg, ptr, &heap);

	if (v != MALLOC_CACHE_TAKEN)
		free_refused(mcfg, ptr, v == MALLOC_CACHE_CHECKED, heap);
}

/*
 * rte_free() of @p ptr, once the owner's slab path could not tell: a
 * slab object of any thread, or an element.
 */
static __rte_noinline void
free_any(struct rte_mem_config *mcfg, void *ptr)
{
	switch (malloc_slab_free(mcfg, ptr)) {
	case MALLOC_SLAB_FREED:
		return;
	case MALLOC_SLAB_INVALID:
		RTE_LOG(ERR, MALLOC,
				"rte_free: invalid memory %p, not an allocation\n",
				ptr);
		return;
	case MALLOC_SLAB_NONE:
		break;
	}
	free_element(mcfg, ptr);
}

/*
 * rte_free() of @p ptr, a live object of another lcore's slab of @p kind
 * (malloc_slab_free_owned()).
 */
static __rte_noinline void
free_other(struct rte_mem_config *mcfg, void *ptr, enum malloc_slab_kind kind)
{
	struct malloc_slab *s = malloc_slab_floor(ptr, kind);

	if (!malloc_slab_free_other(mcfg, s, malloc_slab_live_idx(s, ptr)))
		free_any(mcfg, ptr);
}

MALLOC_ENTRY void
rte_free(void *ptr)
{
	struct rte_mem_config *mcfg;
	enum malloc_slab_owned owned;

	if (ptr == NULL)
		return;
	mcfg = malloc_mcfg_get();
	if (mcfg == NULL)
		return;
	owned = malloc_slab_free_owned(mcfg, ptr);
	/* Blocks up to 64 KB, most of those freed, are slab objects. */
	if (likely(owned == MALLOC_SLAB_OWNED_FREED))
		return;
	if (owned == MALLOC_SLAB_OWNED_NOT_SLAB)
		free_element(mcfg, ptr);
	else if (owned == MALLOC_SLAB_OWNED_OTHER_SMALL)
		free_other(mcfg, ptr, MALLOC_SLAB_KIND_SMALL);
	else if (owned == MALLOC_SLAB_OWNED_OTHER_LARGE)
		free_other(mcfg, ptr, MALLOC_SLAB_KIND_LARGE);
	else
		free_any(mcfg, ptr);
}

/*
 * rte_realloc() of @p ptr in @p slab, a live object if @p live: in place
 * while the request fits the object, else moved.
 */
static void *
realloc_slab_obj(struct rte_mem_config *mcfg, struct malloc_slab *slab,
		bool live, void *ptr, const struct malloc_req *req, int socket)
{
	struct malloc_heap *heap = &malloc_state_of(mcfg)->heaps[slab->heap_idx];
	size_t have = malloc_slab_obj_size(slab);
	void *p;

	if (!live) {
		RTE_LOG(ERR, MALLOC,
				"rte_realloc: invalid memory %p, not an allocation\n",
				ptr);
		rte_errno = EINVAL;
		return NULL;
	}
	if (socket == SOCKET_ID_ANY || socket == heap->socket_id) {
		if (req->user_size <= have &&
				((uintptr_t)ptr & (req->align - 1)) == 0) {
			malloc_asan_unpoison(ptr, req->user_size);
			return ptr;
		}
		socket = heap->socket_id;
	}
	p = malloc_socket(req->user_size, (unsigned int)req->align, socket,
			false);
	if (p == NULL)
		return NULL;
	/* The slack past the old size is poisoned in ASan builds. */
	malloc_asan_unpoison(ptr, have);
	memcpy(p, ptr, RTE_MIN(req->user_size, have));
	malloc_slab_free(mcfg, ptr);
	return p;
}

void *
rte_realloc_socket(void *ptr, size_t size, unsigned int align, int socket)
{
	struct rte_mem_config *mcfg;
	struct malloc_heap *heap;
	struct malloc_slab *slab;
	struct malloc_req req;
	struct malloc_elem *e;
	bool live;
	void *p;

	if (ptr == NULL)
		return malloc_socket(size, align, socket, false);
	mcfg = malloc_mcfg_get();
	if (mcfg == NULL)
		return NULL;
	/* As DPDK: size 0 keeps the smallest block, it does not free. */
	if (size == 0)
		size = 1;
	if (!malloc_req_make(&req, size, align)) {
		rte_errno = malloc_req_errno(size, align);
		return NULL;
	}
	slab = malloc_slab_of(mcfg, ptr, &live);
	if (slab != NULL)
		return realloc_slab_obj(mcfg, slab, live, ptr, &req, socket);
	e = malloc_elem_checked(mcfg, ptr, &heap, "rte_realloc");
	if (e == NULL) {
		rte_errno = EINVAL;
		return NULL;
	}
	if (((uintptr_t)ptr & (req.align - 1)) == 0 &&
			(socket == SOCKET_ID_ANY ||
					socket == heap->socket_id) &&
			malloc_heap_resize(mcfg, heap, ptr, size))
		return ptr;
	p = malloc_socket(size, align,
			socket == SOCKET_ID_ANY ? heap->socket_id : socket,
			false);
	if (p == NULL)
		return NULL;
	/* The slack past the old size is poisoned in ASan builds. */
	malloc_asan_unpoison(ptr, malloc_elem_usable(e));
	memcpy(p, ptr, RTE_MIN(size, malloc_elem_usable(e)));
	malloc_heap_free(mcfg, heap, ptr);
	return p;
}

void *
rte_realloc(void *ptr, size_t size, unsigned int align)
{
	return rte_realloc_socket(ptr, size, align, SOCKET_ID_ANY);
}

int
rte_malloc_validate(const void *ptr, size_t *size)
{
	struct rte_mem_config *mcfg = malloc_mcfg_get();
	struct malloc_heap *heap;
	struct malloc_slab *slab;
	struct malloc_elem *e;
	bool valid;

	if (ptr == NULL || mcfg == NULL)
		return -1;
	slab = malloc_slab_of(mcfg, ptr, &valid);
	if (slab != NULL) {
		if (valid && size != NULL)
			*size = malloc_slab_obj_size(slab);
		return valid ? 0 : -1;
	}
	e = malloc_heap_elem_of(mcfg, ptr, &heap);
	if (e == NULL)
		return -1;
	malloc_heap_lock(heap);
	valid = malloc_heap_elem_linked(mcfg, e);
	malloc_heap_unlock(heap);
	if (!valid)
		return -1;
	if (size != NULL)
		*size = malloc_elem_usable(e);
	return 0;
}

int
rte_malloc_get_socket_stats(int socket, struct rte_malloc_socket_stats *stats)
{
	struct rte_mem_config *mcfg = malloc_mcfg_get();
	struct malloc_heap *heap;

	if (mcfg == NULL || stats == NULL)
		return -1;
	heap = malloc_heap_of_socket(malloc_state_of(mcfg), socket);
	if (heap == NULL)
		return -1;
	malloc_heap_get_stats(heap, stats);
	return 0;
}

void
rte_malloc_dump_stats(FILE *f, const char *type)
{
	struct rte_mem_config *mcfg = malloc_mcfg_get();
	struct rte_malloc_socket_stats s;
	unsigned int i;

	RTE_SET_USED(type);
	for (i = 0; mcfg != NULL && i < RTE_MAX_HEAPS; i++) {
		struct malloc_heap *heap = &malloc_state_of(mcfg)->heaps[i];

		if (!heap->in_use)
			continue;
		malloc_heap_get_stats(heap, &s);
		fprintf(f,
				"Heap %u: %s, socket %d\n"
				"\ttotal %zu, free %zu, allocated %zu bytes\n"
				"\tgreatest free %zu bytes, %u free, %u allocated elements\n"
				"\tcleared on free %" PRIu64
				", on zmalloc %" PRIu64 " bytes\n",
				i, heap->name, heap->socket_id,
				s.heap_totalsz_bytes, s.heap_freesz_bytes,
				s.heap_allocsz_bytes, s.greatest_free_size,
				s.free_count, s.alloc_count,
				s.heap_cleared_on_free_bytes,
				s.heap_cleared_on_zmalloc_bytes);
	}
}

void
rte_malloc_dump_heaps(FILE *f)
{
	struct rte_mem_config *mcfg = malloc_mcfg_get();
	unsigned int i;

	for (i = 0; mcfg != NULL && i < RTE_MAX_HEAPS; i++)
		if (malloc_state_of(mcfg)->heaps[i].in_use)
			malloc_heap_dump(&malloc_state_of(mcfg)->heaps[i], f);
}

rte_iova_t
rte_malloc_virt2iova(const void *addr)
{
	struct rte_mem_config *mcfg = malloc_mcfg_get();

	return mcfg == NULL ? RTE_BAD_IOVA : malloc_heap_virt2iova(mcfg, addr);
}
