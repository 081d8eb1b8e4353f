/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * The results as a text table (stdout), JSON and CSV.
 *
 * JSON: one object (machine, config, startup, projection with --project,
 * memset, alloc_table, dpdk); a number that is not finite is written as
 * null. CSV: a header, then one row per (kind, case) with the kinds
 * "startup", "memset" and "alloc" and the implementations "rtemem" and
 * "dpdk"; columns that do not apply to a kind are empty. Both formats are
 * described in doc/guides/tools/malloc_perf.rst.
 */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "mperf.h"

#define MIB ((size_t)1 << 20)

static const char *const metric_names[MPERF_N_METRICS] = {
	[MPERF_T_INIT] = "init_ms",
	[MPERF_T_ALLOC] = "first_alloc_ms",
	[MPERF_T_EXIT] = "exit_ms",
};

/* "median (min-max)" of @p s into @p buf, or "-" without samples. */
static const char *
stats_text(const struct mperf_samples *s, char *buf, size_t len)
{
	struct mperf_stats st;

	if (s->n == 0)
		return "-";
	mperf_stats_get(s, &st);
	snprintf(buf, len, "%.1f (%.1f-%.1f)", st.median, st.min, st.max);
	return buf;
}

/* rtemem's median exit time over DPDK's, or NAN. */
static double
exit_ratio(const struct mperf_startup *c)
{
	struct mperf_stats rt, dpdk;

	if (c->rt[MPERF_T_EXIT].n == 0 || c->dpdk_exit.n == 0)
		return NAN;
	mperf_stats_get(&c->rt[MPERF_T_EXIT], &rt);
	mperf_stats_get(&c->dpdk_exit, &dpdk);
	return dpdk.median > 0 ? rt.median / dpdk.median : NAN;
}

/* Print @p line without its trailing blanks. */
static void
print_trimmed(FILE *f, char *line)
{
	size_t n = strlen(line);

	while (n > 0 && line[n - 1] == ' ')
		line[--n] = '\0';
	fprintf(f, "%s\n", line);
}

/* The DPDK columns of case @p c, into @p line at @p off. */
static int
startup_dpdk_cols(const struct mperf_startup *c, char *line, size_t len)
{
	double r = exit_ratio(c);
	char b[64], ratio[32] = "-";

	if (isfinite(r))
		snprintf(ratio, sizeof(ratio), "%.3f", r);
	return snprintf(line, len, " %-22s %s",
			c->dpdk_skipped ?
					"not run" :
					stats_text(&c->dpdk_exit, b, sizeof(b)),
			ratio);
}

void
mperf_print_startup(const struct mperf_ctx *ctx, FILE *f)
{
	char line[512], b[64];
	bool skipped = false;
	unsigned int i, m;
	size_t off;

	fprintf(f, "\nStart-up, ms from exec: median (min-max) of %u runs\n",
			ctx->opts.reps);
	off = snprintf(line, sizeof(line), "%-15s %6s  %-22s %-22s %-22s",
			"mode", "MB", "rte_eal_init returned",
			"first rte_malloc", "exit");
	if (ctx->compare)
		snprintf(line + off, sizeof(line) - off, " %-22s %s",
				"dpdk-test exit", "rtemem/DPDK");
	print_trimmed(f, line);
	for (i = 0; i < ctx->n_startup; i++) {
		const struct mperf_startup *c = &ctx->startup[i];

		off = snprintf(line, sizeof(line), "%-15s %6u ", c->mode->name,
				c->size_mb);
		for (m = 0; m < MPERF_N_METRICS; m++)
			off += snprintf(line + off, sizeof(line) - off,
					" %-22s",
					stats_text(&c->rt[m], b, sizeof(b)));
		if (ctx->compare)
			off += startup_dpdk_cols(
					c, line + off, sizeof(line) - off);
		snprintf(line + off, sizeof(line) - off, "%s%s",
				c->failed ? "  (rtemem failed)" : "",
				c->dpdk_failed ? "  (dpdk-test failed)" : "");
		print_trimmed(f, line);
		skipped |= c->dpdk_skipped;
	}
	if (skipped)
		fprintf(f, "dpdk-test was not run with --legacy-mem: it maps every free hugepage at start (--dpdk-legacy runs it)\n");
}

static const struct mperf_row *
row_find(const struct mperf_rows *rows, enum mperf_api api, size_t size)
{
	unsigned int i;

	for (i = 0; i < rows->n; i++)
		if (rows->v[i].api == api && rows->v[i].size == size)
			return &rows->v[i];
	return NULL;
}

static void
print_compare(const struct mperf_ctx *ctx, FILE *f)
{
	const struct mperf_dpdk *d = &ctx->dpdk;
	unsigned int i;

	fprintf(f, "\nAllocator table against %s, us per block (ratio: rtemem/DPDK)\n",
			d->version[0] != '\0' ? d->version : "DPDK");
	fprintf(f, "memset reference: rtemem %.2f us/MiB, DPDK %.2f us/MiB\n",
			ctx->memset.us_per_mib, d->memset.us_per_mib);
	fprintf(f, "%-19s %10s %6s %6s %10s %10s %7s %10s %10s %7s\n", "API",
			"Size(B)", "Runs", "DPDK", "Alloc", "DPDK", "ratio",
			"Free", "DPDK", "ratio");
	for (i = 0; i < ctx->rows.n; i++) {
		const struct mperf_row *r = &ctx->rows.v[i];
		const struct mperf_row *o = row_find(&d->rows, r->api, r->size);

		if (o == NULL)
			continue;
		fprintf(f, "%-19s %10zu %6u %6u %10.2f %10.2f %7.2f %10.2f %10.2f %7.2f\n",
				mperf_api_name(r->api), r->size, r->runs,
				o->runs, r->alloc_us, o->alloc_us,
				o->alloc_us > 0 ? r->alloc_us / o->alloc_us :
						  NAN,
				r->free_us, o->free_us,
				o->free_us > 0 ? r->free_us / o->free_us : NAN);
	}
}

void
mperf_print_table(const struct mperf_ctx *ctx, FILE *f)
{
	unsigned int i;

	fprintf(f, "\nAllocator table (%s), us per block\n",
			ctx->machine.rtemem_version);
	mperf_print_memset(f, &ctx->memset);
	mperf_print_header(f);
	for (i = 0; i < ctx->rows.n; i++)
		mperf_print_row(f, &ctx->rows.v[i]);
	if (ctx->dpdk.have_table)
		print_compare(ctx, f);
}

/* ---- JSON ---- */

static void
json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s != NULL && *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* A number: whole ones in full (byte counts), others to 6 digits. */
static void
json_num(FILE *f, double v)
{
	if (!isfinite(v))
		fputs("null", f);
	else if (v == floor(v) && fabs(v) < 1e15)
		fprintf(f, "%.0f", v);
	else
		fprintf(f, "%.6g", v);
}

static void
json_samples(FILE *f, const struct mperf_samples *s)
{
	struct mperf_stats st;
	unsigned int i;

	if (s->n == 0) {
		fputs("null", f);
		return;
	}
	mperf_stats_get(s, &st);
	fputs("{\"samples\": [", f);
	for (i = 0; i < s->n; i++) {
		fputs(i ? ", " : "", f);
		json_num(f, s->ms[i]);
	}
	fputs("], \"median\": ", f);
	json_num(f, st.median);
	fputs(", \"min\": ", f);
	json_num(f, st.min);
	fputs(", \"max\": ", f);
	json_num(f, st.max);
	fputc('}', f);
}

static void
json_mode_args(FILE *f, const struct mperf_mode *mode)
{
	unsigned int i;

	fputc('[', f);
	for (i = 0; mode->eal_args[i] != NULL; i++) {
		fputs(i ? ", " : "", f);
		json_str(f, mode->eal_args[i]);
	}
	fputc(']', f);
}

static void
json_machine(const struct mperf_ctx *ctx, FILE *f)
{
	const struct mperf_machine *m = &ctx->machine;

	fputs("  \"machine\": {\"kernel\": ", f);
	json_str(f, m->kernel);
	fprintf(f, ", \"hugepage_kb\": %llu, \"total_hugepages\": %ld, \"free_hugepages\": %ld, \"free_hugepages_end\": %ld, \"numa_nodes\": %u, \"cpu\": %d},\n",
			(unsigned long long)(m->page_sz >> 10), m->total_pages,
			m->free_pages, m->free_pages_end, m->n_nodes, m->cpu);
}

static void
json_config(const struct mperf_ctx *ctx, FILE *f)
{
	const struct mperf_opts *o = &ctx->opts;
	unsigned int i;

	fputs("  \"config\": {\"huge_dir\": ", f);
	json_str(f, o->huge_dir);
	fputs(", \"sizes_mb\": [", f);
	for (i = 0; i < o->n_sizes; i++)
		fprintf(f, "%s%u", i ? ", " : "", o->sizes_mb[i]);
	fputs("], \"dropped_sizes_mb\": [", f);
	for (i = 0; i < ctx->n_dropped; i++)
		fprintf(f, "%s%u", i ? ", " : "", ctx->dropped_mb[i]);
	fputs("], \"modes\": [", f);
	for (i = 0; i < o->n_modes; i++) {
		fputs(i ? ", " : "", f);
		json_str(f, o->modes[i]->name);
	}
	fprintf(f, "], \"reps\": %u, \"cap_mb\": %u, \"max_size\": %zu, \"max_runs\": %u, \"table_eal_args\": [",
			o->reps, ctx->cap_mb, o->max_size, o->max_runs);
	for (i = 0; i < o->n_eal_args; i++) {
		fputs(i ? ", " : "", f);
		json_str(f, o->eal_args[i]);
	}
	fprintf(f, "], \"compare_dpdk\": %s, \"dpdk_legacy\": %s, \"zero\": %s, \"turns\": %u, \"populate_threads\": ",
			o->compare_dpdk ? "true" : "false",
			o->dpdk_legacy ? "true" : "false",
			o->zero ? "true" : "false", o->turns);
	if (o->populate_arg[0] != '\0')
		json_str(f, strchr(o->populate_arg, '=') + 1);
	else
		fputs("null", f);
	fputs("},\n", f);
}

static void
json_startup(const struct mperf_ctx *ctx, FILE *f)
{
	unsigned int i, m;

	fputs("  \"startup\": [", f);
	for (i = 0; i < ctx->n_startup; i++) {
		const struct mperf_startup *c = &ctx->startup[i];

		fputs(i ? ",\n    {" : "\n    {", f);
		fputs("\"mode\": ", f);
		json_str(f, c->mode->name);
		fputs(", \"eal_args\": ", f);
		json_mode_args(f, c->mode);
		fprintf(f, ", \"warm\": %s, \"size_mb\": %u, \"reps\": %u, \"failed\": %s",
				c->mode->warm ? "true" : "false", c->size_mb,
				c->rt[MPERF_T_EXIT].n,
				c->failed ? "true" : "false");
		for (m = 0; m < MPERF_N_METRICS; m++) {
			fprintf(f, ",\n     \"%s\": ", metric_names[m]);
			json_samples(f, &c->rt[m]);
		}
		fputs(",\n     \"dpdk_exit_ms\": ", f);
		json_samples(f, &c->dpdk_exit);
		fputs(",\n     \"floor_exit_ms\": ", f);
		json_samples(f, &c->floor_exit);
		fprintf(f, ", \"dpdk_failed\": %s, \"dpdk_skipped\": %s, \"ratio_exit\": ",
				c->dpdk_failed ? "true" : "false",
				c->dpdk_skipped ? "true" : "false");
		json_num(f, exit_ratio(c));
		fputc('}', f);
	}
	fputs(ctx->n_startup ? "\n  ],\n" : "],\n", f);
}

/*
 * --project: each fitted line, for a plot to draw to 1 TiB. The time a
 * line gives at a size is fixed_ms + per_gib_ms * GiB.
 */
static void
json_projection(const struct mperf_ctx *ctx, FILE *f)
{
	struct mperf_proj p[MPERF_MAX_PROJ];
	unsigned int n = mperf_projection(ctx, p, RTE_DIM(p)), i;

	fputs("  \"projection\": [", f);
	for (i = 0; i < n; i++) {
		fputs(i ? ",\n    {" : "\n    {", f);
		fputs("\"mode\": ", f);
		json_str(f, p[i].mode->name);
		fputs(", \"who\": ", f);
		json_str(f, p[i].who);
		fputs(", \"metric\": ", f);
		json_str(f, metric_names[p[i].metric]);
		fputs(", \"fixed_ms\": ", f);
		json_num(f, p[i].fit.fixed);
		fputs(", \"per_gib_ms\": ", f);
		json_num(f, p[i].fit.per_gib);
		fputs(", \"max_rel_err\": ", f);
		json_num(f, p[i].fit.max_rel_err);
		fprintf(f, ", \"sizes\": %u}", p[i].fit.n);
	}
	fputs(n ? "\n  ],\n" : "],\n", f);
}

static void
json_memset(FILE *f, const struct mperf_memset_ref *r, bool have)
{
	if (!have) {
		fputs("null", f);
		return;
	}
	/* DPDK does not print its buffer size and repetitions. */
	fputs("{\"bytes\": ", f);
	json_num(f, r->len != 0 ? (double)r->len : NAN);
	fputs(", \"reps\": ", f);
	json_num(f, r->reps != 0 ? (double)r->reps : NAN);
	fputs(", \"gib_per_s\": ", f);
	json_num(f, r->gib_per_s);
	fputs(", \"us_per_mib\": ", f);
	json_num(f, r->us_per_mib);
	fputc('}', f);
}

static void
json_rows(FILE *f, const struct mperf_rows *rows, const char *indent)
{
	unsigned int i;

	fputc('[', f);
	for (i = 0; i < rows->n; i++) {
		const struct mperf_row *r = &rows->v[i];

		fprintf(f, "%s\n%s{\"api\": ", i ? "," : "", indent);
		json_str(f, mperf_api_name(r->api));
		fprintf(f, ", \"size\": %zu, \"runs\": %u, \"alloc_us\": ",
				r->size, r->runs);
		json_num(f, r->alloc_us);
		fputs(", \"free_us\": ", f);
		json_num(f, r->free_us);
		fputs(", \"memset_us\": ", f);
		json_num(f, r->memset_us);
		fputs(", \"cleared_alloc\": ", f);
		json_num(f, r->cleared_alloc);
		fputs(", \"cleared_free\": ", f);
		json_num(f, r->cleared_free);
		fputc('}', f);
	}
	fputc(']', f);
}

static void
json_dpdk(const struct mperf_ctx *ctx, FILE *f)
{
	const struct mperf_dpdk *d = &ctx->dpdk;

	fprintf(f, "  \"dpdk\": {\"compared\": %s, \"path\": ",
			ctx->compare ? "true" : "false");
	if (d->path[0] != '\0')
		json_str(f, d->path);
	else
		fputs("null", f);
	fputs(", \"version\": ", f);
	json_str(f, d->version);
	fputs(", \"note\": ", f);
	json_str(f, d->note);
	fputs(", \"nohuge_exit_ms\": ", f);
	json_num(f, ctx->compare ? d->nohuge_ms : NAN);
	fputs(",\n    \"memset\": ", f);
	json_memset(f, &d->memset, d->have_table);
	fputs(",\n    \"alloc_table\": ", f);
	json_rows(f, &d->rows, "      ");
	fputs("}\n", f);
}

int
mperf_write_json(const struct mperf_ctx *ctx, const char *path)
{
	FILE *f = fopen(path, "w");

	if (f == NULL) {
		fprintf(stderr, "%s: --json %s: %s\n", MPERF_PROG, path,
				strerror(errno));
		return -1;
	}
	fputs("{\n  \"tool\": ", f);
	json_str(f, MPERF_PROG);
	fputs(", \"version\": ", f);
	json_str(f, ctx->machine.rtemem_version);
	fputs(",\n", f);
	json_machine(ctx, f);
	json_config(ctx, f);
	json_startup(ctx, f);
	if (ctx->opts.project)
		json_projection(ctx, f);
	fputs("  \"memset\": ", f);
	json_memset(f, &ctx->memset, ctx->have_table);
	fputs(",\n  \"alloc_table\": ", f);
	json_rows(f, &ctx->rows, "    ");
	fputs(",\n", f);
	json_dpdk(ctx, f);
	if (ctx->mt.n > 0) {
		fputs(",\n", f);
		mperf_write_threads_json(ctx, f);
	}
	fputs("\n}\n", f);
	if (fclose(f) != 0) {
		fprintf(stderr, "%s: --json %s: %s\n", MPERF_PROG, path,
				strerror(errno));
		return -1;
	}
	return 0;
}

/* ---- CSV ---- */

#define CSV_HEADER \
	"kind,impl,mode,size_mb,reps," \
	"init_median_ms,init_min_ms,init_max_ms," \
	"first_alloc_median_ms,first_alloc_min_ms,first_alloc_max_ms," \
	"exit_median_ms,exit_min_ms,exit_max_ms,ratio_exit," \
	"api,block_bytes,runs,alloc_us,free_us,memset_us," \
	"cleared_alloc,cleared_free,gib_per_s,us_per_mib\n"

/* An empty field for each of @p n columns, each with its comma. */
static void
csv_skip(FILE *f, unsigned int n)
{
	while (n-- > 0)
		fputc(',', f);
}

static void
csv_num(FILE *f, double v, bool last)
{
	if (isfinite(v))
		fprintf(f, "%.6g", v);
	fputc(last ? '\n' : ',', f);
}

static void
csv_stats(FILE *f, const struct mperf_samples *s)
{
	struct mperf_stats st;

	if (s->n == 0) {
		csv_skip(f, 3);
		return;
	}
	mperf_stats_get(s, &st);
	csv_num(f, st.median, false);
	csv_num(f, st.min, false);
	csv_num(f, st.max, false);
}

static void
csv_startup(FILE *f, const struct mperf_startup *c)
{
	unsigned int m;

	fprintf(f, "startup,rtemem,%s,%u,%u,", c->mode->name, c->size_mb,
			c->rt[MPERF_T_EXIT].n);
	for (m = 0; m < MPERF_N_METRICS; m++)
		csv_stats(f, &c->rt[m]);
	csv_num(f, exit_ratio(c), false);
	csv_skip(f, 9);
	fputc('\n', f);
	if (c->dpdk_exit.n == 0)
		return;
	fprintf(f, "startup,dpdk,%s,%u,%u,", c->mode->name, c->size_mb,
			c->dpdk_exit.n);
	csv_skip(f, 6);
	csv_stats(f, &c->dpdk_exit);
	csv_skip(f, 10);
	fputc('\n', f);
}

static void
csv_memset(FILE *f, const char *impl, const struct mperf_memset_ref *r)
{
	fprintf(f, "memset,%s,,,%u,", impl, r->reps);
	csv_skip(f, 11);
	fprintf(f, "%zu,", r->len);
	csv_skip(f, 6);
	csv_num(f, r->gib_per_s, false);
	csv_num(f, r->us_per_mib, true);
}

static void
csv_rows(FILE *f, const char *impl, const struct mperf_rows *rows)
{
	unsigned int i;

	for (i = 0; i < rows->n; i++) {
		const struct mperf_row *r = &rows->v[i];

		fprintf(f, "alloc,%s,,,,", impl);
		csv_skip(f, 10);
		/* No API name holds a comma or a quote. */
		fprintf(f, "%s,%zu,%u,", mperf_api_name(r->api), r->size,
				r->runs);
		csv_num(f, r->alloc_us, false);
		csv_num(f, r->free_us, false);
		csv_num(f, r->memset_us, false);
		csv_num(f, r->cleared_alloc, false);
		csv_num(f, r->cleared_free, false);
		csv_skip(f, 1);
		fputc('\n', f);
	}
}

int
mperf_write_csv(const struct mperf_ctx *ctx, const char *path)
{
	FILE *f = fopen(path, "w");
	unsigned int i;

	if (f == NULL) {
		fprintf(stderr, "%s: --csv %s: %s\n", MPERF_PROG, path,
				strerror(errno));
		return -1;
	}
	fputs(CSV_HEADER, f);
	for (i = 0; i < ctx->n_startup; i++)
		csv_startup(f, &ctx->startup[i]);
	if (ctx->have_table)
		csv_memset(f, "rtemem", &ctx->memset);
	csv_rows(f, "rtemem", &ctx->rows);
	if (ctx->dpdk.have_table)
		csv_memset(f, "dpdk", &ctx->dpdk.memset);
	csv_rows(f, "dpdk", &ctx->dpdk.rows);
	if (fclose(f) != 0) {
		fprintf(stderr, "%s: --csv %s: %s\n", MPERF_PROG, path,
				strerror(errno));
		return -1;
	}
	return 0;
}
