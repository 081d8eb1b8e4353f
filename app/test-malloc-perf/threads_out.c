/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * --threads: the results as text (a table per shape, then the targets of
 * the allocator: rtemem on one lcore against the best general-purpose
 * peer, the gain from one lcore to two, and cross-lcore frees against
 * same-lcore ones), as JSON and as CSV.
 */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "mperf.h"

#define TARGET_VS_PEER 0.8 /* rtemem on one lcore / best peer, at least */
#define TARGET_SCALING 1.8 /* aggregate 2 lcores / 1 lcore, at least */
#define TARGET_REMOTE 2.0 /* remote / same-lcore ns per op, at most */
#define TARGET_MAX_SIZE 65536 /* the targets cover sizes up to this */

/* The general-purpose allocators rtemem is held against. */
static const char *const general[] = { "glibc", "jemalloc", "tcmalloc",
	"mimalloc" };

const struct mperf_mt_row *
mperf_mt_find(const struct mperf_mt *mt, const char *alloc, enum mt_shape shape,
		size_t size, unsigned int threads)
{
	unsigned int i;

	for (i = 0; i < mt->n; i++) {
		const struct mperf_mt_row *r = &mt->v[i];

		if (r->c.shape == shape && r->c.size == size &&
				r->c.threads == threads &&
				strcmp(r->alloc, alloc) == 0)
			return r;
	}
	return NULL;
}

/* The allocators that have rows, in the order they ran. */
static unsigned int
allocs_list(const struct mperf_mt *mt, const char **v, unsigned int max)
{
	unsigned int n = 0, i, j;

	for (i = 0; i < mt->n; i++) {
		for (j = 0; j < n; j++)
			if (strcmp(v[j], mt->v[i].alloc) == 0)
				break;
		if (j == n && n < max)
			v[n++] = mt->v[i].alloc;
	}
	return n;
}

static void
size_text(size_t size, char *buf, size_t len)
{
	if (size >= (1u << 20) && size % (1u << 20) == 0)
		snprintf(buf, len, "%zuM", size >> 20);
	else if (size >= 1024 && size % 1024 == 0)
		snprintf(buf, len, "%zuK", size >> 10);
	else
		snprintf(buf, len, "%zu", size);
}

static void
print_shape(const struct mperf_ctx *ctx, FILE *f, enum mt_shape shape,
		const char **allocs, unsigned int n_allocs)
{
	const struct mperf_opts *o = &ctx->opts;
	unsigned int s, t, a;
	char sz[24];

	fprintf(f, "\n%s: aggregate Mops/s / ns per operation per thread\n",
			mt_shape_name(shape));
	fprintf(f, "%6s %3s", "size", "thr");
	for (a = 0; a < n_allocs; a++)
		fprintf(f, " %15s", allocs[a]);
	fputc('\n', f);
	for (s = 0; s < mt_n_sizes; s++) {
		for (t = 0; t < o->n_threads; t++) {
			bool any = false;

			for (a = 0; a < n_allocs; a++)
				any |= mperf_mt_find(&ctx->mt, allocs[a], shape,
						       mt_sizes[s],
						       o->threads[t]) != NULL;
			if (!any)
				continue;
			size_text(mt_sizes[s], sz, sizeof(sz));
			fprintf(f, "%6s %3u", sz, o->threads[t]);
			for (a = 0; a < n_allocs; a++) {
				const struct mperf_mt_row *r = mperf_mt_find(
						&ctx->mt, allocs[a], shape,
						mt_sizes[s], o->threads[t]);

				if (r == NULL)
					fprintf(f, " %15s", "-");
				else
					fprintf(f, " %7.1f/%7.1f", r->r.mops,
							r->r.ns_per_op);
			}
			fputc('\n', f);
		}
	}
}

/* The best general-purpose peer of a case, or NULL. */
static const struct mperf_mt_row *
best_peer(const struct mperf_mt *mt, enum mt_shape shape, size_t size,
		unsigned int threads)
{
	const struct mperf_mt_row *best = NULL;
	unsigned int i;

	for (i = 0; i < RTE_DIM(general); i++) {
		const struct mperf_mt_row *r = mperf_mt_find(
				mt, general[i], shape, size, threads);

		if (r != NULL && (best == NULL || r->r.mops > best->r.mops))
			best = r;
	}
	return best;
}

/* What a line of the targets compares. */
enum target_kind {
	TARGET_KIND_PEER, /* rtemem on one lcore / the best peer */
	TARGET_KIND_SCALING, /* rtemem on two lcores / one */
	TARGET_KIND_REMOTE, /* rtemem's remote / same-lcore frees */
};

/*
 * The ratio of one size on one line of the targets for allocator @p who,
 * or NAN if a row is missing; *ok says whether it meets the target, which
 * only rtemem has: the list's lines give the floor of the same ratios.
 */
static double
target_ratio(const struct mperf_mt *mt, const char *who, enum mt_shape shape,
		size_t size, enum target_kind kind, bool *ok)
{
	bool floor = strcmp(who, "rtemem") != 0;
	const struct mperf_mt_row *a = NULL, *b = NULL;
	double ratio;

	switch (kind) {
	case TARGET_KIND_PEER:
		a = mperf_mt_find(mt, who, shape, size, 1);
		b = best_peer(mt, shape, size, 1);
		break;
	case TARGET_KIND_SCALING:
		a = mperf_mt_find(mt, who, shape, size, 2);
		b = mperf_mt_find(mt, who, shape, size, 1);
		break;
	case TARGET_KIND_REMOTE:
		a = mperf_mt_find(mt, who, MT_REMOTE, size, 2);
		b = mperf_mt_find(mt, who, MT_ALL_THEN_FREE, size, 2);
		break;
	}
	if (a == NULL || b == NULL)
		return NAN;
	if (kind == TARGET_KIND_REMOTE) {
		ratio = a->r.ns_per_op / b->r.ns_per_op;
		*ok = floor || ratio <= TARGET_REMOTE;
	} else {
		ratio = a->r.mops / b->r.mops;
		*ok = floor ||
				ratio >= (kind == TARGET_KIND_PEER ? TARGET_VS_PEER :
								     TARGET_SCALING);
	}
	return ratio;
}

/*
 * One line of a target for allocator @p who: the ratio per size.
 * @return cases missed.
 */
static unsigned int
print_target_line(const struct mperf_ctx *ctx, FILE *f, const char *what,
		const char *who, enum mt_shape shape, enum target_kind kind)
{
	const struct mperf_mt *mt = &ctx->mt;
	unsigned int s, missed = 0;

	fprintf(f, "%-24s %-13s", what, mt_shape_name(shape));
	for (s = 0; s < mt_n_sizes && mt_sizes[s] <= TARGET_MAX_SIZE; s++) {
		bool ok = false;
		double ratio = target_ratio(
				mt, who, shape, mt_sizes[s], kind, &ok);

		if (isnan(ratio)) {
			fprintf(f, " %6s", "-");
			continue;
		}
		fprintf(f, " %5.2f%c", ratio, ok ? ' ' : '!');
		missed += !ok;
	}
	fputc('\n', f);
	return missed;
}

/*
 * The round trip of a cache line between rtemem's two lcores during the
 * kept run of each size of @p shape (mt_result.rtt_ns): it sets what the
 * gain from a second lcore and a free of another lcore's block cost.
 */
static void
print_rtt_line(const struct mperf_ctx *ctx, FILE *f, const char *what,
		enum mt_shape shape)
{
	unsigned int s;

	fprintf(f, "%-24s %-13s", what, mt_shape_name(shape));
	for (s = 0; s < mt_n_sizes && mt_sizes[s] <= TARGET_MAX_SIZE; s++) {
		const struct mperf_mt_row *r = mperf_mt_find(
				&ctx->mt, "rtemem", shape, mt_sizes[s], 2);

		if (r == NULL || r->r.rtt_ns <= 0)
			fprintf(f, " %6s", "-");
		else
			fprintf(f, " %6.0f", r->r.rtt_ns);
	}
	fputc('\n', f);
}

static void
print_targets(const struct mperf_ctx *ctx, FILE *f)
{
	unsigned int s, missed = 0;
	char sz[24];

	fprintf(f, "\ntargets ('!': missed)%17s", "");
	for (s = 0; s < mt_n_sizes && mt_sizes[s] <= TARGET_MAX_SIZE; s++) {
		size_text(mt_sizes[s], sz, sizeof(sz));
		fprintf(f, " %6s", sz);
	}
	fputc('\n', f);
	missed += print_target_line(ctx, f, "1 lcore / best peer>=0.8",
			"rtemem", MT_ALL_THEN_FREE, TARGET_KIND_PEER);
	missed += print_target_line(
			ctx, f, "", "rtemem", MT_PAIRS, TARGET_KIND_PEER);
	missed += print_target_line(ctx, f, "2 lcores / 1 >= 1.8", "rtemem",
			MT_ALL_THEN_FREE, TARGET_KIND_SCALING);
	missed += print_target_line(
			ctx, f, "", "rtemem", MT_PAIRS, TARGET_KIND_SCALING);
	missed += print_target_line(ctx, f, "remote / same, 2, <= 2", "rtemem",
			MT_REMOTE, TARGET_KIND_REMOTE);
	/* What the machine gives two threads, no allocator: no target. */
	print_target_line(ctx, f, "floor: list, 2 / 1", "list",
			MT_ALL_THEN_FREE, TARGET_KIND_SCALING);
	print_target_line(ctx, f, "", "list", MT_PAIRS, TARGET_KIND_SCALING);
	print_target_line(ctx, f, "floor: list, remote/same", "list", MT_REMOTE,
			TARGET_KIND_REMOTE);
	print_rtt_line(ctx, f, "line round trip, ns", MT_ALL_THEN_FREE);
	print_rtt_line(ctx, f, "(2 lcores, rtemem)", MT_PAIRS);
	print_rtt_line(ctx, f, "", MT_REMOTE);
	fprintf(f, "targets missed: %u\n", missed);
}

void
mperf_print_threads(const struct mperf_ctx *ctx, FILE *f)
{
	const char *allocs[16];
	unsigned int n, sh;

	n = allocs_list(&ctx->mt, allocs, RTE_DIM(allocs));
	if (n == 0)
		return;
	fprintf(f, "\nmulti-thread allocator: up to %u blocks per thread, repeated for %u ms or more a round, median of %u rounds after %u ms of untimed ones",
			MT_BLOCKS, MT_ROUND_NS / 1000000u, MT_ROUNDS,
			MT_WARMUP_NS / 1000000u);
	if (ctx->opts.turns > 1)
		fprintf(f, ", best of %u turns of every allocator",
				ctx->opts.turns);
	fprintf(f, "%s\n",
			ctx->opts.zero ? "; zeroed: rte_zmalloc(), calloc()" :
					 "");
	for (sh = 0; sh < MT_N_SHAPES; sh++)
		print_shape(ctx, f, (enum mt_shape)sh, allocs, n);
	print_targets(ctx, f);
	fflush(f);
}

int
mperf_write_threads_json(const struct mperf_ctx *ctx, FILE *f)
{
	unsigned int i;

	fprintf(f, "  \"threads\": [");
	for (i = 0; i < ctx->mt.n; i++) {
		const struct mperf_mt_row *r = &ctx->mt.v[i];

		/* No allocator or shape name holds a quote or a backslash. */
		fprintf(f, "%s\n    {\"alloc\": \"%s\", \"shape\": \"%s\", \"size\": %zu, \"threads\": %u, \"blocks\": %u, \"reps\": %u, \"ns_per_op\": %.4f, \"mops\": %.4f, \"rtt_ns\": %.0f}",
				i ? "," : "", r->alloc,
				mt_shape_name(r->c.shape), r->c.size,
				r->c.threads, r->r.blocks, r->r.reps,
				r->r.ns_per_op, r->r.mops, r->r.rtt_ns);
	}
	fprintf(f, "\n  ]");
	return ferror(f) ? -1 : 0;
}

int
mperf_write_threads_csv(const struct mperf_ctx *ctx, const char *path)
{
	FILE *f = fopen(path, "w");
	unsigned int i;

	if (f == NULL) {
		fprintf(stderr, "%s: --csv %s: %s\n", MPERF_PROG, path,
				strerror(errno));
		return -1;
	}
	fputs("alloc,shape,size,threads,blocks,reps,ns_per_op,mops,rtt_ns\n",
			f);
	for (i = 0; i < ctx->mt.n; i++) {
		const struct mperf_mt_row *r = &ctx->mt.v[i];

		fprintf(f, "%s,%s,%zu,%u,%u,%u,%.4f,%.4f,%.0f\n", r->alloc,
				mt_shape_name(r->c.shape), r->c.size,
				r->c.threads, r->r.blocks, r->r.reps,
				r->r.ns_per_op, r->r.mops, r->r.rtt_ns);
	}
	if (fclose(f) != 0) {
		fprintf(stderr, "%s: --csv %s: %s\n", MPERF_PROG, path,
				strerror(errno));
		return -1;
	}
	return 0;
}
