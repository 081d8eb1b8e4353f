/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * zmalloc_check: an outside user of the heap that needs nothing but
 * DPDK's public memory API, so that it builds against rtemem
 * (`pkg-config rtemem`) and against DPDK (`pkg-config libdpdk`) alike.
 * Run it alone or as a secondary process of an application such as
 * dpdk-testpmd, to look at that application's heap.
 *
 *   zmalloc_check EAL_ARGS -- fill    rte_malloc() every free element of
 *                                     the heap and a block that grows it,
 *                                     write 0xa5 over them and exit
 *                                     without freeing them (a crash, to
 *                                     the heap)
 *   zmalloc_check EAL_ARGS -- check   rte_zmalloc() the same, count the
 *                                     bytes that are not zero, and free
 *                                     them again
 *
 * Both print one line:
 *
 *   pages N dirty D blocks B bytes S nonzero Z
 *
 * N pages are mapped, D of them RTE_MEMSEG_FLAG_DIRTY; B blocks of S
 * bytes in all were allocated, of which Z bytes were not zero ("check";
 * 0 for "fill"). "check" exits 1 if Z is not 0.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_memory.h>

#define FILL_BYTE 0xa5
/* What is left of a free element once nearly all of it is handed out. */
#define ELEM_SLACK 4096
#define MAX_BLOCKS 65536
/* A block that grows the heap, where the heap can grow. */
#define GROW_SIZE (16U << 20)

struct tally {
	unsigned int pages; /* pages mapped */
	unsigned int dirty; /* of which RTE_MEMSEG_FLAG_DIRTY */
	unsigned int blocks; /* blocks allocated */
	uint64_t bytes; /* their size in all */
	uint64_t nonzero; /* bytes found not zero by "check" */
};

static int
count_page(const struct rte_memseg_list *msl, const struct rte_memseg *ms,
		void *arg)
{
	struct tally *t = arg;

	(void)msl;
	t->pages++;
	if (ms->flags & RTE_MEMSEG_FLAG_DIRTY)
		t->dirty++;
	return 0;
}

/*
 * Size of nearly all of the largest free element of this lcore's
 * socket, or 0 when it is too small to bother. Taking the largest each
 * time never grows the heap, so the blocks cover the memory it has.
 */
static size_t
largest_free(void)
{
	struct rte_malloc_socket_stats s;

	if (rte_malloc_get_socket_stats(rte_socket_id(), &s) < 0 ||
			s.greatest_free_size < 2 * ELEM_SLACK)
		return 0;
	return s.greatest_free_size - ELEM_SLACK;
}

static uint64_t
count_nonzero(const uint8_t *p, size_t len)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < len; i++)
		n += p[i] != 0;
	return n;
}

struct block {
	void *p; /* as rte_malloc() or rte_zmalloc() returned it */
	size_t len; /* bytes asked for */
};

static struct block blocks[MAX_BLOCKS];

/*
 * Allocate (with rte_zmalloc() if zero) every free element of the heap,
 * then a block that grows it; a heap that cannot grow (legacy memory)
 * does without.
 */
static void
alloc_all(struct tally *t, int zero)
{
	size_t len = 0;
	int grow;
	void *p;

	do {
		grow = t->blocks == MAX_BLOCKS - 1 ||
				(len = largest_free()) == 0;
		if (grow)
			len = GROW_SIZE;
		p = zero ? rte_zmalloc(NULL, len, 0) : rte_malloc(NULL, len, 0);
		if (p == NULL)
			return;
		blocks[t->blocks].p = p;
		blocks[t->blocks].len = len;
		t->blocks++;
		t->bytes += len;
	} while (!grow);
}

static void
fill(struct tally *t)
{
	unsigned int i;

	alloc_all(t, 0);
	for (i = 0; i < t->blocks; i++)
		memset(blocks[i].p, FILL_BYTE, blocks[i].len);
}

static int
check(struct tally *t)
{
	unsigned int i;

	alloc_all(t, 1);
	for (i = 0; i < t->blocks; i++) {
		t->nonzero += count_nonzero(blocks[i].p, blocks[i].len);
		rte_free(blocks[i].p);
	}
	return t->nonzero == 0 ? 0 : 1;
}

int
main(int argc, char **argv)
{
	struct tally t;
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "rte_eal_init: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	argc -= ret;
	argv += ret;
	if (argc != 2 ||
			(strcmp(argv[1], "fill") != 0 &&
					strcmp(argv[1], "check") != 0)) {
		fprintf(stderr, "usage: %s EAL_ARGS -- fill|check\n", argv[0]);
		return 2;
	}
	memset(&t, 0, sizeof(t));
	rte_memseg_walk(count_page, &t);
	if (strcmp(argv[1], "fill") == 0)
		fill(&t);
	else
		ret = check(&t);
	printf("pages %u dirty %u blocks %u bytes %llu nonzero %llu\n", t.pages,
			t.dirty, t.blocks, (unsigned long long)t.bytes,
			(unsigned long long)t.nonzero);
	fflush(stdout);
	if (strcmp(argv[1], "fill") == 0)
		/* Leave without freeing or cleaning up, as a crash would. */
		_exit(0);
	rte_eal_cleanup();
	return ret;
}
