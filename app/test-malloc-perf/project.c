/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * --project: start-up time beyond the sizes this machine can map. For
 * each mode (and dpdk-test, fitted the same way), the medians of the
 * measured sizes are fitted to fixed + per-GiB cost by least squares;
 * the fit's error is the largest residual of a measured size, relative
 * to its median, and the projection is printed with it. A fit needs two
 * sizes; with two it goes through both points and its error is 0, which
 * says nothing: the line says how many sizes the fit has.
 *
 * A straight line is what the start-up path is: a fixed cost (exec,
 * the runtime directory, the lists' address space) and work per page.
 * What a line cannot show, and a larger machine may add (NUMA nodes,
 * page tables that outgrow a cache, a kernel lock held longer), is
 * outside the projection.
 */

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "mperf.h"

/* The sizes projected to, in GiB. */
static const double project_gib[] = { 64, 256, 1024 };
#define N_PROJECT (sizeof(project_gib) / sizeof(project_gib[0]))

void
mperf_fit_points(const double *x, const double *y, unsigned int n,
		struct mperf_fit *fit)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, d;
	unsigned int i;

	memset(fit, 0, sizeof(*fit));
	fit->n = n;
	for (i = 0; i < n; i++) {
		sx += x[i];
		sy += y[i];
		sxx += x[i] * x[i];
		sxy += x[i] * y[i];
	}
	d = n * sxx - sx * sx;
	if (n < 2 || d <= 0)
		return;
	fit->per_gib = (n * sxy - sx * sy) / d;
	fit->fixed = (sy - fit->per_gib * sx) / n;
	for (i = 0; i < n; i++) {
		double r = fabs(y[i] - (fit->fixed + fit->per_gib * x[i]));

		if (y[i] > 0 && r / y[i] > fit->max_rel_err)
			fit->max_rel_err = r / y[i];
	}
	fit->ok = true;
}

/* What is fitted: rtemem's metric, dpdk-test's exit, or the floor. */
enum fit_what {
	FIT_RTEMEM,
	FIT_DPDK,
	FIT_FLOOR
};

/* Fit one mode's @p metric, or what @p what names instead. */
static void
fit_mode(const struct mperf_ctx *ctx, const struct mperf_mode *mode,
		enum mperf_metric metric, enum fit_what what,
		struct mperf_fit *fit)
{
	double x[MPERF_MAX_SIZES], y[MPERF_MAX_SIZES];
	unsigned int i, n = 0;

	for (i = 0; i < ctx->n_startup && n < MPERF_MAX_SIZES; i++) {
		const struct mperf_startup *c = &ctx->startup[i];
		const struct mperf_samples *s = what == FIT_DPDK ?
				&c->dpdk_exit :
				what == FIT_FLOOR ? &c->floor_exit :
						    &c->rt[metric];
		struct mperf_stats st;

		if (c->mode != mode || s->n == 0)
			continue;
		mperf_stats_get(s, &st);
		x[n] = c->size_mb / 1024.0;
		y[n++] = st.median;
	}
	mperf_fit_points(x, y, n, fit);
}

static const char *const fit_names[] = {
	[FIT_RTEMEM] = "rtemem",
	[FIT_DPDK] = "dpdk",
	[FIT_FLOOR] = "floor",
};

unsigned int
mperf_projection(const struct mperf_ctx *ctx, struct mperf_proj *p,
		unsigned int max)
{
	/* Per mode, in the order printed: what is fitted, and its metric. */
	static const struct {
		enum fit_what what;
		enum mperf_metric metric;
		const char *label;
	} lines[] = {
		{ FIT_RTEMEM, MPERF_T_INIT, "init" },
		{ FIT_RTEMEM, MPERF_T_EXIT, "exit" },
		{ FIT_FLOOR, MPERF_T_EXIT, "floor exit" },
		{ FIT_DPDK, MPERF_T_EXIT, "DPDK exit" },
	};
	unsigned int m, i, n = 0;

	for (m = 0; m < ctx->opts.n_modes; m++)
		for (i = 0; i < RTE_DIM(lines) && n < max; i++) {
			p[n].mode = ctx->opts.modes[m];
			p[n].who = fit_names[lines[i].what];
			p[n].metric = lines[i].metric;
			p[n].label = lines[i].label;
			fit_mode(ctx, p[n].mode, lines[i].metric, lines[i].what,
					&p[n].fit);
			if (p[n].fit.ok)
				n++;
		}
	return n;
}

static void
print_fit(FILE *f, const char *what, const struct mperf_fit *fit)
{
	unsigned int i;

	fprintf(f, "%-30s %8.2f %8.3f", what, fit->fixed, fit->per_gib);
	/* Noise larger than the cost per GiB: nothing to project. */
	for (i = 0; i < N_PROJECT; i++)
		if (fit->per_gib < 0)
			fprintf(f, " %10s", "-");
		else
			fprintf(f, " %10.0f",
					fit->fixed + fit->per_gib * project_gib[i]);
	fprintf(f, "  %4.1f%% (%u sizes)%s\n", 100 * fit->max_rel_err, fit->n,
			fit->per_gib < 0 ? ", cost per GiB below the noise" :
					   "");
}

void
mperf_print_projection(const struct mperf_ctx *ctx, FILE *f)
{
	struct mperf_proj p[MPERF_MAX_PROJ];
	unsigned int n = mperf_projection(ctx, p, RTE_DIM(p)), i;
	char what[64];

	fprintf(f, "\nProjection: fixed + per-GiB fit of the medians, ms from exec; error: largest residual of a measured size\n");
	fprintf(f, "%-30s %8s %8s", "mode: metric", "fixed", "per GiB");
	for (i = 0; i < N_PROJECT; i++)
		fprintf(f, " %7.0f GiB", project_gib[i]);
	fprintf(f, "  error\n");
	for (i = 0; i < n; i++) {
		snprintf(what, sizeof(what), "%s: %s", p[i].mode->name,
				p[i].label);
		print_fit(f, what, &p[i].fit);
	}
}
