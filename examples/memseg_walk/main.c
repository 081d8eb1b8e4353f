/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * memseg_walk: the smallest outside user of rtemem. It includes only the
 * public headers, builds with `pkg-config --cflags --libs rtemem`, inits
 * with whatever EAL options it is given, and prints one line about the
 * pages it got:
 *
 *   pages N dirty D bytes B
 *
 * With the application argument "fill" it also writes a byte into every
 * page, so that a restart with --huge-unlink=never finds them dirty.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_memory.h>

struct tally {
	unsigned int pages; /* pages walked */
	unsigned int dirty; /* of which RTE_MEMSEG_FLAG_DIRTY */
	int fill; /* write into each page */
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
	if (t->fill)
		*(volatile char *)ms->addr = 1;
	return 0;
}

int
main(int argc, char **argv)
{
	struct tally t = { 0, 0, 0 };
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "rte_eal_init: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	argc -= ret;
	argv += ret;
	t.fill = argc > 1 && strcmp(argv[1], "fill") == 0;
	rte_memseg_walk(count_page, &t);
	printf("pages %u dirty %u bytes %llu\n", t.pages, t.dirty,
			(unsigned long long)rte_eal_get_physmem_size());
	rte_eal_cleanup();
	return 0;
}
