/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * The allocator table (app/common/malloc_perf_table.h), run in this
 * process once the start-up cases are done: rte_eal_init() with the
 * working directory, the CPU of the start-up cases, a memory limit and
 * the EAL arguments given after "--"; then the memset reference and the
 * table; then rte_eal_cleanup() and the directory emptied.
 *
 * The table allocates until memory runs out, so the heap is held to the
 * run's memory cap with --socket-limit (or -m with --legacy-mem or
 * --no-huge, where memory does not grow).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_errno.h>

#include "mperf.h"

int
mperf_rows_add(struct mperf_rows *rows, const struct mperf_row *row)
{
	if (rows->n == rows->cap) {
		unsigned int cap = rows->cap == 0 ? 32 : rows->cap * 2;
		struct mperf_row *v = realloc(rows->v, cap * sizeof(*v));

		if (v == NULL)
			return -1;
		rows->v = v;
		rows->cap = cap;
	}
	rows->v[rows->n++] = *row;
	return 0;
}

void
mperf_rows_free(struct mperf_rows *rows)
{
	free(rows->v);
	memset(rows, 0, sizeof(*rows));
}

/* What the row callback fills. */
struct table_sink {
	struct mperf_rows *rows;
	bool oom; /* a row could not be kept */
};

static void
table_row(const struct mperf_row *row, void *arg)
{
	struct table_sink *sink = arg;

	if (mperf_rows_add(sink->rows, row) < 0)
		sink->oom = true;
}

/* @return true if the EAL arguments after "--" contain @p opt. */
static bool
eal_args_have(const struct mperf_opts *o, const char *opt)
{
	unsigned int i;

	for (i = 0; i < o->n_eal_args; i++)
		if (strcmp(o->eal_args[i], opt) == 0)
			return true;
	return false;
}

const char *
mperf_table_limit(const struct mperf_ctx *ctx, char *buf, size_t len)
{
	const struct mperf_opts *o = &ctx->opts;
	unsigned int i;
	size_t off = 0;

	if (eal_args_have(o, "--legacy-mem") || eal_args_have(o, "--no-huge")) {
		snprintf(buf, len, "%u", ctx->cap_mb);
		return "-m";
	}
	buf[0] = '\0';
	for (i = 0; i < ctx->machine.n_nodes && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%u", i ? "," : "",
				ctx->cap_mb);
	return "--socket-limit";
}

int
mperf_table_run(struct mperf_ctx *ctx)
{
	const struct mperf_opts *o = &ctx->opts;
	struct table_sink sink = { &ctx->rows, false };
	char *argv[MPERF_MAX_ARGV], cpu[16], limit[256];
	struct mperf_config cfg;
	unsigned int n = 0, i;
	int ret = 0;

	snprintf(cpu, sizeof(cpu), "%d", ctx->machine.cpu);
	argv[n++] = (char *)(uintptr_t)MPERF_PROG;
	argv[n++] = (char *)(uintptr_t) "--huge-dir";
	argv[n++] = ctx->rt_dir;
	argv[n++] = (char *)(uintptr_t) "--file-prefix";
	argv[n++] = ctx->prefix;
	argv[n++] = (char *)(uintptr_t) "-l";
	argv[n++] = cpu;
	argv[n++] = (char *)(uintptr_t)mperf_table_limit(
			ctx, limit, sizeof(limit));
	argv[n++] = limit;
	for (i = 0; i < o->n_eal_args; i++)
		argv[n++] = o->eal_args[i];
	argv[n] = NULL;

	mperf_progress(ctx, "allocator table: rte_eal_init");
	for (i = 1; i < n; i++)
		mperf_progress(ctx, " %s", argv[i]);
	mperf_progress(ctx, "\n");
	if (rte_eal_init((int)n, argv) < 0) {
		fprintf(stderr, "%s: allocator table: rte_eal_init failed: %s\n",
				MPERF_PROG, rte_strerror(rte_errno));
		mperf_dir_clear(ctx->rt_dir);
		return -1;
	}
	mperf_config_default(&cfg);
	cfg.max_size = o->max_size;
	cfg.max_runs = o->max_runs;
	cfg.progress = ctx->progress;
	if (mperf_memset_reference(&cfg, &ctx->memset) < 0) {
		fprintf(stderr, "%s: allocator table: not even 1 MiB could be allocated for the memset reference\n",
				MPERF_PROG);
		ret = -1;
	} else if (mperf_run(&cfg, table_row, &sink) < 0 || sink.oom) {
		fprintf(stderr, "%s: allocator table: %s\n", MPERF_PROG,
				sink.oom ? "out of memory for the rows" :
					   "a block could not be freed, or the heap statistics could not be read");
		ret = -1;
	}
	ctx->have_table = ret == 0 || ctx->rows.n > 0;
	if (rte_eal_cleanup() < 0)
		ret = -1;
	if (mperf_dir_clear(ctx->rt_dir) != 0)
		ret = -1;
	return ret;
}
