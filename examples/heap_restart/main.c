/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * heap_restart: an outside user of rtemem's heap. It includes only the
 * public headers and builds with `pkg-config --cflags --libs rtemem`.
 *
 *   heap_restart EAL_ARGS -- fill MB    rte_malloc MB in 1 MB blocks,
 *                                       write 0xa5 everywhere, exit
 *                                       without freeing (a crash, to the
 *                                       heap)
 *   heap_restart EAL_ARGS -- check MB   rte_zmalloc MB in 1 MB blocks and
 *                                       check every byte is zero
 *
 * "check" prints one line, "zero MB dirty|clean", saying whether the
 * heap had to clear memory (it was dirty) or not, and exits 1 on a
 * non-zero byte.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#define BLOCK (1U << 20)

static int
fill(unsigned int mb)
{
	unsigned int i;

	for (i = 0; i < mb; i++) {
		void *p = rte_malloc(NULL, BLOCK, 0);

		if (p == NULL) {
			printf("rte_malloc failed: %s\n",
					rte_strerror(rte_errno));
			return 1;
		}
		memset(p, 0xa5, BLOCK);
	}
	printf("filled %u\n", mb);
	fflush(stdout);
	return 0;
}

static int
check(unsigned int mb)
{
	struct rte_malloc_socket_stats s;
	unsigned int i, j;

	for (i = 0; i < mb; i++) {
		const uint8_t *p = rte_zmalloc(NULL, BLOCK, 0);

		if (p == NULL) {
			printf("rte_zmalloc failed: %s\n",
					rte_strerror(rte_errno));
			return 1;
		}
		for (j = 0; j < BLOCK; j++) {
			if (p[j] != 0) {
				printf("non-zero byte at block %u offset %u\n",
						i, j);
				return 1;
			}
		}
	}
	if (rte_malloc_get_socket_stats(0, &s) < 0) {
		printf("no heap on socket 0\n");
		return 1;
	}
	printf("zero %u %s\n", mb,
			s.heap_cleared_on_zmalloc_bytes > 0 ? "dirty" :
							      "clean");
	return 0;
}

int
main(int argc, char **argv)
{
	int n = rte_eal_init(argc, argv), ret;
	unsigned int mb;

	if (n < 0) {
		fprintf(stderr, "rte_eal_init: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	argc -= n;
	argv += n;
	if (argc != 3) {
		fprintf(stderr, "usage: %s EAL_ARGS -- fill|check MB\n",
				argv[0]);
		return 1;
	}
	mb = (unsigned int)strtoul(argv[2], NULL, 0);
	if (strcmp(argv[1], "fill") == 0)
		/* Leave without freeing or cleaning up, as a crash would. */
		_exit(fill(mb));
	ret = check(mb);
	rte_eal_cleanup();
	return ret;
}
