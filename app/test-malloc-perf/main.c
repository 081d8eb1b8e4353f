/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * rtemem-malloc-perf: options, and the order of the steps.
 *
 *   1. the machine and the working directories (machine.c);
 *   2. the memory cap: free hugepages less a margin, or --max-mem; sizes
 *      above it (half of it with --compare-dpdk, where both keep warm
 *      files at once) are dropped;
 *   3. dpdk-test found and started once (--compare-dpdk);
 *   4. the start-up cases (startup.c), then the allocator table
 *      (table.c, dpdk.c), each printed when done;
 *   5. every file removed, then JSON, CSV and the plot written.
 *
 * The options are declared once, in MPERF_OPTIONS, which gives the parser
 * table and --help. Started with MPERF_CHILD_ARG first, the program is a
 * measured start-up child instead (startup.c).
 */

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <rte_common.h>

#include "mperf.h"

#define DEFAULT_REPS 5
#define MARGIN_MIN_MB 64 /* free memory left to others, at least */
#define EXIT_USAGE 2
#define EXIT_INTERRUPTED 130

static const unsigned int default_sizes_mb[] = { 1024, 2048, 4096, 8192 };

/* X(id, name, has_arg, metavar, help) */
#define MPERF_OPTIONS(X) \
	X(HUGE_DIR, "huge-dir", required_argument, "DIR", \
			"hugetlbfs directory to work in (required): the run creates\n" \
			"the sub-directories rtemem/ and dpdk/ and removes them at the end") \
	X(SIZES, "sizes", required_argument, "MB,MB,...", \
			"memory sizes of the start-up cases (default 1024,2048,4096,8192);\n" \
			"sizes above what is free are dropped") \
	X(MODES, "modes", required_argument, "MODE,MODE,...", \
			"start-up modes (default: all, listed below)") \
	X(REPS, "reps", required_argument, "N", \
			"runs of each start-up case (default 5, at most 100)") \
	X(MAX_MEM, "max-mem", required_argument, "MB", \
			"hugepage memory to use at most at a time (default: the free\n" \
			"hugepages less 5%, at least 64 MB)") \
	X(NO_STARTUP, "no-startup", no_argument, NULL, \
			"skip the start-up cases") \
	X(NO_ALLOC_TABLE, "no-alloc-table", no_argument, NULL, \
			"skip the allocator table") \
	X(MAX_SIZE, "max-size", required_argument, "BYTES", \
			"allocator table: skip block sizes above this (K, M, G suffixes)") \
	X(RUNS, "runs", required_argument, "N", \
			"allocator table: blocks per row at most (default 10000)") \
	X(JSON, "json", required_argument, "FILE", \
			"write the results as JSON") \
	X(CSV, "csv", required_argument, "FILE", "write the results as CSV") \
	X(PLOT, "plot", required_argument, "FILE", \
			"draw start-up time against memory size per mode, or with\n" \
			"--threads aggregate throughput against threads (.png or .svg;\n" \
			"needs python3 and matplotlib)") \
	X(COMPARE_DPDK, "compare-dpdk", no_argument, NULL, \
			"run upstream DPDK's dpdk-test too, in turns with rtemem, and\n" \
			"print the ratios rtemem/DPDK") \
	X(DPDK_TEST, "dpdk-test", required_argument, "PATH", \
			"the dpdk-test to run (default: dpdk-test in PATH)") \
	X(DPDK_LEGACY, "dpdk-legacy", no_argument, NULL, \
			"run dpdk-test in the legacy mode too: it maps every free\n" \
			"hugepage at start, whatever --max-mem says") \
	X(THREADS, "threads", required_argument, "N,N,...", \
			"instead of the start-up cases and the allocator table, the\n" \
			"multi-thread benchmark on 1, 2, ... threads (ascending, at most 64):\n" \
			"rtemem on lcores and on plain threads, glibc, jemalloc, tcmalloc,\n" \
			"mimalloc and list (and DPDK with --compare-dpdk), each peer in a child\n" \
			"process; --max-size caps the block sizes; --plot draws aggregate\n" \
			"throughput against threads") \
	X(PEERS, "peers", required_argument, "NAME,NAME,...|none", \
			"--threads: the peers to compare with: general-purpose allocators\n" \
			"and list, a free list per thread that is the floor of each shape\n" \
			"(default glibc,jemalloc,tcmalloc,mimalloc,list; none: rtemem only)") \
	X(ZERO, "zero", no_argument, NULL, \
			"--threads: allocate zeroed memory (rte_zmalloc, calloc) instead") \
	X(TURNS, "turns", required_argument, "N", \
			"--threads: run rtemem and each peer N times in turns and keep\n" \
			"each case's best run (default 1)") \
	X(PROJECT, "project", no_argument, NULL, \
			"fit fixed + per-GiB cost to each mode's start-up times (and\n" \
			"dpdk-test's, and the floor of warm modes) and print them at\n" \
			"64 GiB, 256 GiB and 1 TiB, with the fit's error") \
	X(POPULATE_THREADS, "populate-threads", required_argument, "N|auto", \
			"start-up cases: rtemem allocates new pages on this many\n" \
			"threads per node in the modes with a file per page\n" \
			"(its --populate-threads; the other modes take none)") \
	X(QUIET, "quiet", no_argument, NULL, "no progress on stderr") \
	X(HELP, "help", no_argument, NULL, "print this help and exit")

enum {
	OPT_FIRST = 256,
#define OPT_ENUM(id, name, has_arg, meta, help) OPT_##id,
	MPERF_OPTIONS(OPT_ENUM)
#undef OPT_ENUM
};

static const struct option long_options[] = {
#define OPT_LONG(id, name, has_arg, meta, help) \
	{ name, has_arg, NULL, OPT_##id },
	MPERF_OPTIONS(OPT_LONG)
#undef OPT_LONG
			{ NULL, 0, NULL, 0 },
};

static void
help_option(FILE *f, const char *name, const char *meta, const char *help)
{
	const char *line = help, *nl;

	fprintf(f, "  --%s%s%s\n", name, meta != NULL ? " " : "",
			meta != NULL ? meta : "");
	for (; (nl = strchr(line, '\n')) != NULL; line = nl + 1)
		fprintf(f, "        %.*s\n", (int)(nl - line), line);
	fprintf(f, "        %s\n", line);
}

static void
usage(FILE *f)
{
	unsigned int i;

	fprintf(f,
			"Usage: %s --huge-dir DIR [OPTIONS] [-- EAL_ARGS...]\n\n"
			"Start-up time of processes using rtemem (from exec to rte_eal_init\n"
			"returning, to the first rte_malloc returning, and to exit) for each\n"
			"memory size and mode, then the allocator table. EAL_ARGS are added\n"
			"to the allocator table's rte_eal_init (and to dpdk-test's), for\n"
			"example: -- --huge-unlink=never\n\nOptions:\n",
			MPERF_PROG);
#define OPT_HELP(id, name, has_arg, meta, help) \
	help_option(f, name, meta, help);
	MPERF_OPTIONS(OPT_HELP)
#undef OPT_HELP
	fprintf(f, "\nModes:\n");
	for (i = 0; i < mperf_n_modes; i++)
		fprintf(f, "  %-16s %s\n", mperf_modes[i].name,
				mperf_modes[i].desc);
}

static int
bad_value(const char *opt, const char *value, const char *why)
{
	fprintf(stderr, "%s: --%s %s: %s\n", MPERF_PROG, opt, value, why);
	return -1;
}

/* Parse a number in [min, max]. @return 0, or -1 after saying why. */
static int
parse_uint(const char *opt, const char *s, unsigned int min, unsigned int max,
		unsigned int *v)
{
	unsigned long n;
	char *end;

	errno = 0;
	n = strtoul(s, &end, 10);
	if (s[0] == '-' || end == s || *end != '\0' || errno != 0 || n < min ||
			n > max) {
		char why[64];

		snprintf(why, sizeof(why), "not a number from %u to %u", min,
				max);
		return bad_value(opt, s, why);
	}
	*v = (unsigned int)n;
	return 0;
}

static int
parse_bytes(const char *s, size_t *v)
{
	unsigned long long n;
	char *end;

	errno = 0;
	n = strtoull(s, &end, 0);
	if (s[0] == '-' || end == s || errno != 0)
		return bad_value("max-size", s, "not a size");
	switch (*end) {
	case 'G':
	case 'g':
		n <<= 10;
		/* FALLTHROUGH */
	case 'M':
	case 'm':
		n <<= 10;
		/* FALLTHROUGH */
	case 'K':
	case 'k':
		n <<= 10;
		end++;
		break;
	default:
		break;
	}
	if (*end != '\0')
		return bad_value("max-size", s, "not a size");
	*v = (size_t)n;
	return 0;
}

static int
parse_sizes(const char *s, struct mperf_opts *o)
{
	char buf[512], *tok, *save;

	snprintf(buf, sizeof(buf), "%s", s);
	o->n_sizes = 0;
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
			tok = strtok_r(NULL, ",", &save)) {
		if (o->n_sizes == MPERF_MAX_SIZES)
			return bad_value("sizes", s, "too many sizes");
		if (parse_uint("sizes", tok, 1, 1 << 24,
				    &o->sizes_mb[o->n_sizes++]) < 0)
			return -1;
	}
	return o->n_sizes == 0 ? bad_value("sizes", s, "no size") : 0;
}

static int
parse_modes(const char *s, struct mperf_opts *o)
{
	char buf[512], *tok, *save;
	unsigned int i;

	snprintf(buf, sizeof(buf), "%s", s);
	o->n_modes = 0;
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
			tok = strtok_r(NULL, ",", &save)) {
		const struct mperf_mode *m = mperf_mode_find(tok);

		if (strcmp(tok, "all") == 0) {
			for (i = 0; i < mperf_n_modes; i++)
				o->modes[i] = &mperf_modes[i];
			o->n_modes = mperf_n_modes;
			continue;
		}
		if (m == NULL)
			return bad_value("modes", tok,
					"no such mode (see --help for the list)");
		if (o->n_modes == RTE_DIM(o->modes))
			return bad_value("modes", s, "too many modes");
		o->modes[o->n_modes++] = m;
	}
	return o->n_modes == 0 ? bad_value("modes", s, "no mode") : 0;
}

static int
opt_set(struct mperf_opts *o, int opt, const char *arg)
{
	switch (opt) {
	case OPT_HUGE_DIR:
		o->huge_dir = arg;
		return 0;
	case OPT_SIZES:
		o->sizes_set = true;
		return parse_sizes(arg, o);
	case OPT_MODES:
		return parse_modes(arg, o);
	case OPT_REPS:
		return parse_uint("reps", arg, 1, MPERF_MAX_REPS, &o->reps);
	case OPT_MAX_MEM:
		return parse_uint("max-mem", arg, 1, 1 << 24, &o->max_mem_mb);
	case OPT_NO_STARTUP:
		o->no_startup = true;
		return 0;
	case OPT_NO_ALLOC_TABLE:
		o->no_alloc_table = true;
		return 0;
	case OPT_MAX_SIZE:
		return parse_bytes(arg, &o->max_size);
	case OPT_RUNS:
		return parse_uint("runs", arg, 1, 1000000, &o->max_runs);
	case OPT_JSON:
		o->json = arg;
		return 0;
	case OPT_CSV:
		o->csv = arg;
		return 0;
	case OPT_PLOT:
		o->plot = arg;
		return 0;
	case OPT_COMPARE_DPDK:
		o->compare_dpdk = true;
		return 0;
	case OPT_DPDK_TEST:
		o->dpdk_test = arg;
		return 0;
	case OPT_DPDK_LEGACY:
		o->dpdk_legacy = true;
		return 0;
	case OPT_THREADS: {
		int n = mt_parse_threads(arg, o->threads, MT_MAX_THREADS);

		if (n < 0)
			return bad_value("threads", arg,
					"a list of thread counts from 1 to 64, ascending");
		o->n_threads = (unsigned int)n;
		return 0;
	}
	case OPT_PEERS:
		if (mperf_peers_parse(arg, o->peers) < 0)
			return bad_value("peers", arg,
					"glibc, jemalloc, tcmalloc, mimalloc and list separated by commas, all or none");
		o->peers_set = true;
		return 0;
	case OPT_PROJECT:
		o->project = true;
		return 0;
	case OPT_ZERO:
		o->zero = true;
		return 0;
	case OPT_TURNS:
		return parse_uint("turns", arg, 1, MPERF_MAX_TURNS, &o->turns);
	case OPT_POPULATE_THREADS: {
		char *end;
		unsigned long n = strtoul(arg, &end, 10);

		if (strcmp(arg, "auto") != 0 &&
				(!isdigit((unsigned char)arg[0]) ||
						*end != '\0' || n == 0 ||
						n > 256))
			return bad_value("populate-threads", arg,
					"a number of threads from 1 to 256, or auto");
		snprintf(o->populate_arg, sizeof(o->populate_arg),
				"--populate-threads=%s", arg);
		return 0;
	}
	case OPT_QUIET:
		o->quiet = true;
		return 0;
	default:
		return -1;
	}
}

/* Rules between options. @return 0, or -1 after saying why. */
static int
opts_check(const struct mperf_opts *o)
{
	const char *ext = o->plot != NULL ? strrchr(o->plot, '.') : NULL;

	if (o->huge_dir == NULL) {
		fprintf(stderr, "%s: --huge-dir DIR is required: a hugetlbfs directory (or a new one on hugetlbfs) to work in\n",
				MPERF_PROG);
		return -1;
	}
	if (o->plot != NULL &&
			(ext == NULL ||
					(strcasecmp(ext, ".png") != 0 &&
							strcasecmp(ext, ".svg") !=
									0)))
		return bad_value("plot", o->plot,
				"the file name must end in .png or .svg");
	if (o->project && (o->no_startup || o->n_threads > 0)) {
		fprintf(stderr, "%s: --project fits the start-up cases: not with --no-startup or --threads\n",
				MPERF_PROG);
		return -1;
	}
	if ((o->peers_set || o->zero || o->turns != 1) && o->n_threads == 0) {
		fprintf(stderr, "%s: --%s applies to --threads only\n",
				MPERF_PROG,
				o->zero			     ? "zero" :
						o->peers_set ? "peers" :
							       "turns");
		return -1;
	}
	if (o->n_threads > 0 &&
			(o->no_startup || o->no_alloc_table ||
					o->reps != DEFAULT_REPS ||
					o->n_modes != mperf_n_modes ||
					o->sizes_set || o->dpdk_legacy)) {
		fprintf(stderr, "%s: --threads runs neither the start-up cases nor the allocator table: --sizes, --modes, --reps, --no-startup, --no-alloc-table and --dpdk-legacy do not apply\n",
				MPERF_PROG);
		return -1;
	}
	if (o->plot != NULL && o->no_startup) {
		fprintf(stderr, "%s: --plot draws the start-up cases: it cannot be used with --no-startup\n",
				MPERF_PROG);
		return -1;
	}
	if (o->no_startup && o->no_alloc_table) {
		fprintf(stderr, "%s: --no-startup and --no-alloc-table leave nothing to measure\n",
				MPERF_PROG);
		return -1;
	}
	if (o->n_eal_args > MPERF_MAX_EAL_ARGS) {
		fprintf(stderr, "%s: more than %u EAL arguments after --\n",
				MPERF_PROG, MPERF_MAX_EAL_ARGS);
		return -1;
	}
	return 0;
}

/* @return 0 to run, 1 after --help, -1 on a usage error. */
static int
opts_parse(int argc, char **argv, struct mperf_opts *o)
{
	unsigned int i;
	int opt;

	memset(o, 0, sizeof(*o));
	mperf_peers_parse("all", o->peers);
	o->reps = DEFAULT_REPS;
	o->turns = 1;
	o->max_runs = 10000;
	for (i = 0; i < RTE_DIM(default_sizes_mb); i++)
		o->sizes_mb[i] = default_sizes_mb[i];
	o->n_sizes = RTE_DIM(default_sizes_mb);
	for (i = 0; i < mperf_n_modes; i++)
		o->modes[i] = &mperf_modes[i];
	o->n_modes = mperf_n_modes;

	while ((opt = getopt_long(argc, argv, "+h", long_options, NULL)) !=
			-1) {
		if (opt == 'h' || opt == OPT_HELP) {
			usage(stdout);
			return 1;
		}
		if (opt == '?' || opt_set(o, opt, optarg) < 0) {
			fprintf(stderr, "Try '%s --help'.\n", MPERF_PROG);
			return -1;
		}
	}
	if (optind < argc && strcmp(argv[optind - 1], "--") != 0) {
		fprintf(stderr, "%s: unexpected argument %s (EAL arguments go after --)\n",
				MPERF_PROG, argv[optind]);
		return -1;
	}
	o->eal_args = &argv[optind];
	o->n_eal_args = (unsigned int)(argc - optind);
	return opts_check(o);
}

/*
 * The memory cap, and the sizes that fit under it. @return 0, or -1 if a
 * size is not a whole number of pages.
 */
static int
caps_apply(struct mperf_ctx *ctx)
{
	struct mperf_opts *o = &ctx->opts;
	uint64_t page_mb = ctx->machine.page_sz >> 20;
	uint64_t free_mb = (uint64_t)ctx->machine.free_pages;
	uint64_t margin;
	unsigned int i, n = 0, per_case;

	free_mb = (free_mb * ctx->machine.page_sz) >> 20;
	margin = RTE_MAX((uint64_t)MARGIN_MIN_MB, free_mb / 20);
	ctx->cap_mb = free_mb > margin ? (unsigned int)(free_mb - margin) : 0;
	if (o->max_mem_mb != 0 && o->max_mem_mb < ctx->cap_mb)
		ctx->cap_mb = o->max_mem_mb;
	/* A limit of 0 would mean no limit to --socket-limit. */
	if (ctx->cap_mb == 0 || ctx->cap_mb < page_mb) {
		fprintf(stderr, "%s: %u MB may be used, less than a hugepage (--max-mem %u; %ld hugepages free, %llu MB of them kept for others)\n",
				MPERF_PROG, ctx->cap_mb, o->max_mem_mb,
				ctx->machine.free_pages,
				(unsigned long long)margin);
		return -1;
	}
	/* Warm cases keep rtemem's and DPDK's files at the same time. */
	per_case = ctx->compare ? ctx->cap_mb / 2 : ctx->cap_mb;
	for (i = 0; i < o->n_sizes; i++) {
		unsigned int mb = o->sizes_mb[i];

		if (page_mb != 0 && mb % page_mb != 0) {
			fprintf(stderr, "%s: --sizes: %u MB is not a multiple of the %llu MB hugepage size\n",
					MPERF_PROG, mb,
					(unsigned long long)page_mb);
			return -1;
		}
		if (mb <= per_case)
			o->sizes_mb[n++] = mb;
		else
			ctx->dropped_mb[ctx->n_dropped++] = mb;
	}
	o->n_sizes = n;
	if (ctx->n_dropped != 0 && !o->no_startup && o->n_threads == 0) {
		fprintf(stderr, "%s: sizes above %u MB dropped:", MPERF_PROG,
				per_case);
		for (i = 0; i < ctx->n_dropped; i++)
			fprintf(stderr, " %u", ctx->dropped_mb[i]);
		fprintf(stderr, " (%ld hugepages free, at most %u MB at a time%s)\n",
				ctx->machine.free_pages, ctx->cap_mb,
				ctx->compare ? ", halved: rtemem and DPDK keep warm files at once" :
					       "");
	}
	return 0;
}

static void
print_header(const struct mperf_ctx *ctx, FILE *f)
{
	const struct mperf_machine *m = &ctx->machine;

	fprintf(f, "%s (%s) on %s: %llu kB hugepages, %ld of %ld free, %u NUMA node%s, CPU %d\n",
			MPERF_PROG, m->rtemem_version, m->kernel,
			(unsigned long long)(m->page_sz >> 10), m->free_pages,
			m->total_pages, m->n_nodes, m->n_nodes > 1 ? "s" : "",
			m->cpu);
	fprintf(f, "working in %s, file prefix %s, at most %u MB at a time\n",
			ctx->opts.huge_dir, ctx->prefix, ctx->cap_mb);
	if (ctx->opts.populate_arg[0] != '\0')
		fprintf(f, "rtemem's start-up children with %s in the modes with a file per page\n",
				ctx->opts.populate_arg);
	if (ctx->compare)
		fprintf(f, "compared with %s (%s); its exec to exit without hugepages: %.1f ms\n",
				ctx->dpdk.path,
				ctx->dpdk.version[0] != '\0' ?
						ctx->dpdk.version :
						"version unknown",
				ctx->dpdk.nohuge_ms);
	else if (ctx->opts.compare_dpdk)
		fprintf(f, "no DPDK comparison: %s\n", ctx->dpdk.note);
	fflush(f);
}

/* Measure what the options ask for. @return 0, or -1 if a step failed. */
static int
measure(struct mperf_ctx *ctx)
{
	int ret = 0;

	if (ctx->opts.n_threads > 0) {
		ret = mperf_threads_run(ctx);
		mperf_print_threads(ctx, stdout);
		return ret;
	}
	if (!ctx->opts.no_startup) {
		if (ctx->opts.n_sizes == 0) {
			fprintf(stderr, "%s: no start-up size fits in the free memory\n",
					MPERF_PROG);
			ret = -1;
		} else if (mperf_startup_run(ctx) < 0) {
			ret = -1;
		}
		mperf_print_startup(ctx, stdout);
		if (ctx->opts.project)
			mperf_print_projection(ctx, stdout);
		fflush(stdout);
	}
	if (ctx->opts.no_alloc_table || mperf_interrupted())
		return ret;
	if (mperf_table_run(ctx) < 0)
		ret = -1;
	if (ctx->compare && !mperf_interrupted() &&
			mperf_dpdk_table_run(ctx) < 0)
		fprintf(stderr, "%s: %s\n", MPERF_PROG, ctx->dpdk.note);
	if (ctx->have_table)
		mperf_print_table(ctx, stdout);
	return ret;
}

/* JSON, CSV and the plot. @return 0, or -1 if one could not be written. */
static int
write_outputs(const struct mperf_ctx *ctx)
{
	char tmp[] = "/tmp/rtemem-malloc-perf-XXXXXX.json";
	const char *json = ctx->opts.json;
	int ret = 0, fd;

	if (json == NULL && ctx->opts.plot != NULL) {
		fd = mkstemps(tmp, 5);
		if (fd < 0) {
			fprintf(stderr, "%s: --plot: cannot create %s\n",
					MPERF_PROG, tmp);
			return -1;
		}
		close(fd);
		json = tmp;
	}
	if (json != NULL && mperf_write_json(ctx, json) < 0)
		ret = -1;
	if (ctx->opts.csv != NULL &&
			(ctx->opts.n_threads > 0 ? mperf_write_threads_csv(ctx,
								   ctx->opts.csv) :
						   mperf_write_csv(ctx,
								   ctx->opts.csv)) <
					0)
		ret = -1;
	if (ctx->opts.plot != NULL && ret == 0 &&
			mperf_plot(json, ctx->opts.plot) < 0)
		ret = -1;
	if (json == tmp)
		unlink(tmp);
	return ret;
}

int
main(int argc, char **argv)
{
	struct mperf_ctx ctx;
	bool measured = false;
	int ret;

	if (argc >= 2 && strcmp(argv[1], MPERF_CHILD_ARG) == 0) {
		argv[1] = argv[0];
		return mperf_startup_child(argc - 1, argv + 1);
	}
	if (argc >= 2 && strcmp(argv[1], MPERF_FLOOR_ARG) == 0)
		return mperf_floor_child(argc - 1, argv + 1);
	if (argc >= 2 && strcmp(argv[1], MPERF_HOLD_ARG) == 0) {
		argv[1] = argv[0];
		return mperf_hold_child(argc - 1, argv + 1);
	}
	memset(&ctx, 0, sizeof(ctx));
	ret = opts_parse(argc, argv, &ctx.opts);
	if (ret != 0)
		return ret > 0 ? EXIT_SUCCESS : EXIT_USAGE;
	ctx.progress = ctx.opts.quiet ? NULL : stderr;
	mperf_signals_init();
	ret = mperf_machine_setup(&ctx);
	if (ret == 0 && ctx.opts.compare_dpdk) {
		mperf_dpdk_probe(&ctx);
		if (!ctx.compare)
			fprintf(stderr, "%s: no DPDK comparison: %s\n",
					MPERF_PROG, ctx.dpdk.note);
	}
	if (ret == 0)
		ret = caps_apply(&ctx);
	if (ret == 0) {
		print_header(&ctx, stdout);
		ret = measure(&ctx);
		measured = true;
	}
	if (mperf_machine_cleanup(&ctx) < 0)
		ret = -1;
	if (measured && !mperf_interrupted() && write_outputs(&ctx) < 0)
		ret = -1;
	free(ctx.startup);
	mperf_rows_free(&ctx.rows);
	mperf_rows_free(&ctx.dpdk.rows);
	free(ctx.mt.v);
	if (mperf_interrupted()) {
		fprintf(stderr, "%s: interrupted; files removed\n", MPERF_PROG);
		return EXIT_INTERRUPTED;
	}
	return ret == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
