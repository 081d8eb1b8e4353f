/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * The "list" peer (peer_list.h). mt_run_pthreads() starts new threads
 * for every case, so a thread's state is its case's: its region is
 * mapped at its first allocation and unmapped when it exits, after the
 * case's last barrier, when no thread touches a block any more.
 */

#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "peer_list.h"

#define LIST_ALIGN (2u << 20) /* a transparent huge page */

struct list_thread {
	void *head; /* the free blocks, each holding the next's address */
	char *next; /* the region's next block never handed out */
	char *end;
	void *map; /* the mapping, for munmap() */
	size_t map_len;
};

static _Thread_local struct list_thread list_self;
static pthread_key_t list_key;
static int list_key_err; /* pthread_key_create() failed */
static pthread_once_t list_once = PTHREAD_ONCE_INIT;

static void
list_thread_exit(void *arg)
{
	struct list_thread *t = arg;

	munmap(t->map, t->map_len);
}

static void
list_key_create(void)
{
	list_key_err = pthread_key_create(&list_key, list_thread_exit);
}

/*
 * Map this thread's region: as much as a thread holds at most, on
 * transparent huge pages where the kernel gives them, as rtemem's
 * blocks are on 2 MB pages. @return 0, or -1.
 */
static int
list_region_map(void)
{
	struct list_thread *t = &list_self;
	uintptr_t start;

	pthread_once(&list_once, list_key_create);
	if (list_key_err != 0)
		return -1;
	t->map_len = (size_t)MT_THREAD_BYTES + LIST_ALIGN;
	t->map = mmap(NULL, t->map_len, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (t->map == MAP_FAILED) {
		t->map = NULL;
		return -1;
	}
	if (pthread_setspecific(list_key, t) != 0) {
		munmap(t->map, t->map_len);
		t->map = NULL;
		return -1;
	}
	start = ((uintptr_t)t->map + LIST_ALIGN - 1) &
			~(uintptr_t)(LIST_ALIGN - 1);
	t->next = (char *)start;
	t->end = t->next + MT_THREAD_BYTES;
	/* Advice only: without it the blocks are on 4 KB pages. */
	madvise(t->next, MT_THREAD_BYTES, MADV_HUGEPAGE);
	return 0;
}

/* Cut a new block: the list is empty. */
static void *
list_cut(size_t size)
{
	struct list_thread *t = &list_self;
	void *p;

	if (t->map == NULL && list_region_map() < 0)
		return NULL;
	if ((size_t)(t->end - t->next) < size)
		return NULL;
	p = t->next;
	t->next += size;
	return p;
}

static void *
list_alloc(size_t size)
{
	struct list_thread *t = &list_self;
	void *p = t->head;

	if (p == NULL)
		return list_cut(size);
	t->head = *(void **)p;
	return p;
}

static void *
list_zalloc(size_t size)
{
	void *p = list_alloc(size);

	if (p != NULL)
		memset(p, 0, size);
	return p;
}

static void
list_free(void *p)
{
	struct list_thread *t = &list_self;

	*(void **)p = t->head;
	t->head = p;
}

const struct mt_alloc_ops peer_list_ops[2] = {
	{ list_alloc, list_free },
	{ list_zalloc, list_free },
};
