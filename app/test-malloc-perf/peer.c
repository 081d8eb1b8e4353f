/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * rtemem-malloc-perf-peer: the multi-thread benchmark on an allocator
 * that is not rtemem, run by rtemem-malloc-perf --threads as a child
 * process per allocator so that none disturbs another.
 *
 *   --alloc libc   malloc() and free() on plain threads. Whichever malloc
 *                  the dynamic linker bound (the parent preloads jemalloc,
 *                  tcmalloc or mimalloc with LD_PRELOAD) is the one
 *                  measured; the program prints the object that provides
 *                  it ("mt-provider PATH"), so a preload that did not take
 *                  is seen.
 *   --alloc list   no allocator: a list of free blocks per thread, on
 *                  plain threads (peer_list.h), the floor of each shape.
 *   --zero         calloc() or rte_zmalloc() instead: zeroed memory.
 *   --alloc dpdk   upstream DPDK's rte_malloc() and rte_free() on DPDK
 *                  lcores, launched with rte_eal_remote_launch(). DPDK is
 *                  opened with dlopen(): this program is linked against
 *                  neither DPDK nor rtemem, whose symbols have the same
 *                  names. The EAL arguments follow "--".
 *
 * Output: one mt_result_print() line per run of a case (mt_case_turn()
 * says how many), in the order run.
 */

#include <dlfcn.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "malloc_perf_threads.h"
#include "peer_list.h"

#define PEER_PROG "rtemem-malloc-perf-peer"
#define PEER_MAX_SIZES 16
#define EXIT_USAGE 2

/* DPDK's EAL as this program needs it, looked up by name. */
struct dpdk_eal {
	void *handle;
	int (*init)(int argc, char **argv);
	int (*cleanup)(void);
	void *(*malloc)(const char *type, size_t size, unsigned int align);
	void *(*zmalloc)(const char *type, size_t size, unsigned int align);
	void (*free)(void *p);
	int (*remote_launch)(int (*f)(void *), void *arg, unsigned int id);
	int (*wait_lcore)(unsigned int id);
	unsigned int (*lcore_count)(void);
};

/* The EAL opened, for the allocation calls (they take no context). */
static struct dpdk_eal dpdk;

static void *
libc_alloc(size_t size)
{
	return malloc(size);
}

static void *
libc_zalloc(size_t size)
{
	return calloc(1, size);
}

static void
libc_free(void *p)
{
	free(p);
}

static void *
dpdk_alloc(size_t size)
{
	return dpdk.malloc(NULL, size, 0);
}

static void *
dpdk_zalloc(size_t size)
{
	return dpdk.zmalloc(NULL, size, 0);
}

static void
dpdk_free(void *p)
{
	dpdk.free(p);
}

static int
dpdk_open(const char *lib)
{
	const char *names[] = { lib, "librte_eal.so", "librte_eal.so.23" };
	unsigned int i;

	for (i = 0; i < 3 && dpdk.handle == NULL; i++)
		if (names[i] != NULL)
			dpdk.handle = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
	if (dpdk.handle == NULL) {
		fprintf(stderr, "%s: DPDK's EAL could not be opened: %s\n",
				PEER_PROG, dlerror());
		return -1;
	}
#define SYM(field, name) \
	do { \
		*(void **)&dpdk.field = dlsym(dpdk.handle, name); \
		if (dpdk.field == NULL) { \
			fprintf(stderr, "%s: DPDK has no %s\n", PEER_PROG, \
					name); \
			return -1; \
		} \
	} while (0)
	SYM(init, "rte_eal_init");
	SYM(cleanup, "rte_eal_cleanup");
	SYM(malloc, "rte_malloc");
	SYM(zmalloc, "rte_zmalloc");
	SYM(free, "rte_free");
	SYM(remote_launch, "rte_eal_remote_launch");
	SYM(wait_lcore, "rte_eal_wait_lcore");
	SYM(lcore_count, "rte_lcore_count");
#undef SYM
	return 0;
}

/* Print which object provides malloc(): the preload, or the C library. */
static void
provider_print(void)
{
	void *(*fn)(size_t) = malloc;
	Dl_info info;

	if (dladdr(*(void **)&fn, &info) != 0 && info.dli_fname != NULL)
		printf("mt-provider %s\n", info.dli_fname);
	else
		printf("mt-provider unknown\n");
}

static int
sizes_parse(const char *s, size_t *v, unsigned int max)
{
	unsigned int n = 0;
	char *end;

	while (*s != '\0') {
		unsigned long long x = strtoull(s, &end, 10);

		if (end == s || x == 0 || n == max)
			return -1;
		v[n++] = (size_t)x;
		if (*end == ',' && end[1] != '\0')
			end++;
		else if (*end != '\0')
			return -1;
		s = end;
	}
	return n > 0 ? (int)n : -1;
}

static void
usage(void)
{
	fprintf(stderr,
			"usage: %s --alloc libc|list|dpdk --threads N,N,... [--sizes B,B,...]\n"
			"       [--shapes SHAPE,...] [--zero] [--dpdk-lib PATH]\n"
			"       [-- EAL_ARGS...]\n"
			"Run by rtemem-malloc-perf --threads; see its --help.\n",
			PEER_PROG);
}

struct peer_opts {
	const char *alloc;
	const char *dpdk_lib;
	unsigned int threads[MT_MAX_THREADS];
	int n_threads;
	size_t sizes[PEER_MAX_SIZES];
	int n_sizes;
	bool shapes[MT_N_SHAPES];
	bool zero; /* calloc() and rte_zmalloc() */
};

static int
shapes_parse(char *s, bool *shapes)
{
	char *tok, *save = NULL;

	memset(shapes, 0, MT_N_SHAPES * sizeof(*shapes));
	for (tok = strtok_r(s, ",", &save); tok != NULL;
			tok = strtok_r(NULL, ",", &save)) {
		int sh = mt_shape_parse(tok);

		if (sh < 0)
			return -1;
		shapes[sh] = true;
	}
	return 0;
}

static int
opts_parse(int argc, char **argv, struct peer_opts *o)
{
	static const struct option longopts[] = {
		{ "alloc", required_argument, NULL, 'a' },
		{ "threads", required_argument, NULL, 't' },
		{ "sizes", required_argument, NULL, 's' },
		{ "shapes", required_argument, NULL, 'S' },
		{ "dpdk-lib", required_argument, NULL, 'd' },
		{ "zero", no_argument, NULL, 'z' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned int i;
	int c;

	memset(o, 0, sizeof(*o));
	for (i = 0; i < mt_n_sizes && i < PEER_MAX_SIZES; i++)
		o->sizes[o->n_sizes++] = mt_sizes[i];
	for (i = 0; i < MT_N_SHAPES; i++)
		o->shapes[i] = true;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'a':
			o->alloc = optarg;
			break;
		case 't':
			o->n_threads = mt_parse_threads(
					optarg, o->threads, MT_MAX_THREADS);
			break;
		case 's':
			o->n_sizes = sizes_parse(
					optarg, o->sizes, PEER_MAX_SIZES);
			break;
		case 'S':
			if (shapes_parse(optarg, o->shapes) < 0)
				return -1;
			break;
		case 'd':
			o->dpdk_lib = optarg;
			break;
		case 'z':
			o->zero = true;
			break;
		default:
			return -1;
		}
	}
	if (o->alloc == NULL || o->n_threads <= 0 || o->n_sizes <= 0 ||
			(strcmp(o->alloc, "libc") != 0 &&
					strcmp(o->alloc, "list") != 0 &&
					strcmp(o->alloc, "dpdk") != 0))
		return -1;
	return 0;
}

static int
cases_run(const struct peer_opts *o, const struct mt_alloc_ops *ops,
		mt_run_fn *run, void *run_ctx)
{
	unsigned int sh, i;
	int s, ret = 0;

	for (sh = 0; sh < MT_N_SHAPES; sh++) {
		if (!o->shapes[sh])
			continue;
		for (s = 0; s < o->n_sizes; s++) {
			uint64_t start = mt_now_ns();

			/* The thread counts in turn: the parent keeps the best. */
			for (i = 0; mt_case_turn(i, (unsigned int)o->n_threads,
					     start);
					i++) {
				struct mt_case c = {
					(enum mt_shape)sh, o->sizes[s],
					o->threads[i % (unsigned int)o->n_threads]
				};
				struct mt_result res;

				if (mt_case_run(&c, ops, run, run_ctx, &res) <
						0) {
					fprintf(stderr, "%s: %s %zu B on %u threads failed%s\n",
							PEER_PROG,
							mt_shape_name(c.shape),
							c.size, c.threads,
							res.failed ? ": out of memory" :
								     "");
					ret = -1;
					continue;
				}
				mt_result_print(stdout, &c, &res);
				fflush(stdout);
			}
		}
	}
	return ret;
}

int
main(int argc, char **argv)
{
	static const struct mt_alloc_ops libc_ops[2] = {
		{ libc_alloc, libc_free }, { libc_zalloc, libc_free }
	};
	static const struct mt_alloc_ops dpdk_ops[2] = {
		{ dpdk_alloc, dpdk_free }, { dpdk_zalloc, dpdk_free }
	};
	struct mt_lcore_launcher launcher;
	struct peer_opts o;
	int ret;

	if (opts_parse(argc, argv, &o) < 0) {
		usage();
		return EXIT_USAGE;
	}
	/* malloc() or the list, on plain threads */
	if (strcmp(o.alloc, "dpdk") != 0) {
		bool libc = strcmp(o.alloc, "libc") == 0;

		if (libc)
			provider_print();
		return cases_run(&o,
				       libc ? &libc_ops[o.zero] :
					      &peer_list_ops[o.zero],
				       mt_run_pthreads, NULL) == 0 ?
				EXIT_SUCCESS :
				EXIT_FAILURE;
	}
	if (dpdk_open(o.dpdk_lib) < 0)
		return EXIT_FAILURE;
	/* the EAL arguments: what follows "--", under our program name */
	argv[optind - 1] = argv[0];
	if (dpdk.init(argc - optind + 1, argv + optind - 1) < 0) {
		fprintf(stderr, "%s: DPDK's rte_eal_init failed\n", PEER_PROG);
		return EXIT_FAILURE;
	}
	launcher = (struct mt_lcore_launcher){ dpdk.remote_launch,
		dpdk.wait_lcore, dpdk.lcore_count };
	ret = cases_run(&o, &dpdk_ops[o.zero], mt_run_lcores, &launcher);
	dpdk.cleanup();
	return ret == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
