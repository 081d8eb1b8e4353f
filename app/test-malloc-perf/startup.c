/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Start-up cases: how long a process takes from exec to rte_eal_init()
 * returning, to its first rte_malloc() returning, and to its exit, for
 * each memory size and mode.
 *
 * A measured process is this program again (/proc/self/exe), started with
 * MPERF_CHILD_ARG and the case's EAL arguments; it writes its two stamps
 * to MPERF_CHILD_FD. With --compare-dpdk, each repetition also runs
 * dpdk-test with the same size and mode, rtemem and DPDK taking turns to
 * go first, so that both see the same state of the machine.
 *
 * State before each run: a cold mode starts from an empty directory (the
 * files of the previous repetition are removed first, which is what makes
 * "never-cold" cold); a warm mode runs once untimed to create its files
 * and keeps them between repetitions. Both directories are emptied after
 * each case.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_malloc.h>
#include <rte_memzone.h>

#include "mperf.h"

#define CHILD_TIMEOUT_S 300

const struct mperf_mode mperf_modes[] = {
	{ "existing", "default mode, new files (cold)", { NULL }, false },
	{ "always", "--huge-unlink=always, new files (cold)",
			{ "--huge-unlink=always", NULL }, false },
	{ "never-cold", "--huge-unlink=never on an empty directory (cold)",
			{ "--huge-unlink=never", NULL }, false },
	{ "never-warm", "--huge-unlink=never on the previous run's files",
			{ "--huge-unlink=never", NULL }, true },
	{ "sfs", "--single-file-segments, new files (cold)",
			{ "--single-file-segments", NULL }, false },
	{ "sfs-never-cold",
			"--single-file-segments --huge-unlink=never, empty directory",
			{ "--single-file-segments", "--huge-unlink=never",
					NULL },
			false },
	{ "sfs-never-warm",
			"--single-file-segments --huge-unlink=never, previous files",
			{ "--single-file-segments", "--huge-unlink=never",
					NULL },
			true },
	{ "legacy", "--legacy-mem: all memory mapped at start (cold)",
			{ "--legacy-mem", NULL }, false, true },
	{ "keep-warm", "--keep-memzones: 1000 memzones over -m brought back",
			{ "--huge-unlink=never", "--keep-memzones", NULL },
			true, false, true },
	{ "attach",
			"--proc-type=secondary: attach to a primary holding -m "
			"(--huge-unlink=never)",
			{ "--proc-type=secondary", NULL }, true, false, false,
			true },
};
const unsigned int mperf_n_modes = RTE_DIM(mperf_modes);

const struct mperf_mode *
mperf_mode_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < mperf_n_modes; i++)
		if (strcmp(mperf_modes[i].name, name) == 0)
			return &mperf_modes[i];
	return NULL;
}

static long long
stamp_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * A keep mode's first run: MPERF_KEEP_ZONES memzones sharing 90% of the
 * free heap, each written once. Later runs find the first and do nothing.
 */
static int
keep_zones_make(void)
{
	struct rte_malloc_socket_stats st;
	char name[RTE_MEMZONE_NAMESIZE];
	size_t len;
	unsigned int i;

	if (rte_memzone_lookup("mperf_keep_0") != NULL)
		return 0;
	if (rte_malloc_get_socket_stats(0, &st) != 0)
		return -1;
	len = RTE_ALIGN_FLOOR(st.heap_freesz_bytes / 10 * 9 / MPERF_KEEP_ZONES,
			RTE_CACHE_LINE_SIZE);
	for (i = 0; i < MPERF_KEEP_ZONES; i++) {
		const struct rte_memzone *mz;

		snprintf(name, sizeof(name), MPERF_KEEP_NAME, i);
		mz = rte_memzone_reserve(name, len, SOCKET_ID_ANY, 0);
		if (mz == NULL)
			return -1;
		memset(mz->addr, (int)i, mz->len);
	}
	return 0;
}

static bool
args_keep(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		if (strncmp(argv[i], "--keep-memzones", 15) == 0)
			return true;
	return false;
}

int
mperf_startup_child(int argc, char **argv)
{
	bool keep = args_keep(argc, argv);
	long long t_init, t_alloc;
	void *p;

	if (rte_eal_init(argc, argv) < 0)
		return MPERF_CHILD_INIT_FAILED;
	t_init = stamp_ns();
	if (keep && keep_zones_make() < 0) {
		rte_eal_cleanup();
		return MPERF_CHILD_ALLOC_FAILED;
	}
	p = rte_malloc(NULL, 64, 0);
	t_alloc = stamp_ns();
	if (p == NULL) {
		rte_eal_cleanup();
		return MPERF_CHILD_ALLOC_FAILED;
	}
	rte_free(p);
	dprintf(MPERF_CHILD_FD, "%lld %lld\n", t_init, t_alloc);
	close(MPERF_CHILD_FD);
	return rte_eal_cleanup() == 0 ? 0 : 1;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void
mperf_stats_get(const struct mperf_samples *s, struct mperf_stats *st)
{
	double v[MPERF_MAX_REPS];
	unsigned int n = s->n;

	memset(st, 0, sizeof(*st));
	if (n == 0)
		return;
	memcpy(v, s->ms, n * sizeof(v[0]));
	qsort(v, n, sizeof(v[0]), cmp_double);
	st->min = v[0];
	st->max = v[n - 1];
	st->median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The rtemem child of a case, into @p p; strings go into @p buf. */
static void
rt_proc(const struct mperf_ctx *ctx, const struct mperf_mode *mode,
		unsigned int size_mb, struct mperf_proc *p, char *buf,
		size_t len)
{
	unsigned int n = 0, i;
	bool single = false;
	int w;

	memset(p, 0, sizeof(*p));
	p->path = "/proc/self/exe";
	p->stamps = true;
	p->timeout_s = CHILD_TIMEOUT_S;
	p->argv[n++] = (char *)(uintptr_t)MPERF_PROG;
	p->argv[n++] = (char *)(uintptr_t)MPERF_CHILD_ARG;
	p->argv[n++] = (char *)(uintptr_t) "--huge-dir";
	p->argv[n++] = (char *)(uintptr_t)ctx->rt_dir;
	p->argv[n++] = (char *)(uintptr_t) "--file-prefix";
	p->argv[n++] = (char *)(uintptr_t)ctx->prefix;
	w = snprintf(buf, len, "%d", ctx->machine.cpu);
	p->argv[n++] = (char *)(uintptr_t) "-l";
	p->argv[n++] = buf;
	buf += w + 1;
	len -= w + 1;
	snprintf(buf, len, "%u", size_mb);
	p->argv[n++] = (char *)(uintptr_t) "-m";
	p->argv[n++] = buf;
	for (i = 0; mode->eal_args[i] != NULL; i++) {
		p->argv[n++] = (char *)(uintptr_t)mode->eal_args[i];
		single |= strcmp(mode->eal_args[i], "--single-file-segments") ==
				0;
	}
	/* One file per list cannot take it (the EAL refuses both). */
	if (ctx->opts.populate_arg[0] != '\0' && !single)
		p->argv[n++] = (char *)(uintptr_t)ctx->opts.populate_arg;
	p->argv[n] = NULL;
}

/* Run one rtemem process; @return 0 with its samples added, or -1. */
static int
rt_run(const struct mperf_ctx *ctx, struct mperf_startup *c, bool timed)
{
	struct mperf_proc p;
	char buf[64];
	int ret;

	rt_proc(ctx, c->mode, c->size_mb, &p, buf, sizeof(buf));
	ret = mperf_proc_run(&p);
	if (ret == 0 && (p.stamp_ms[0] < 0 || p.stamp_ms[1] < 0)) {
		fprintf(stderr, "%s: the child reported no time stamps\n",
				MPERF_PROG);
		ret = -1;
	}
	if (ret < 0 && !mperf_interrupted()) {
		mperf_proc_report(&p, "rtemem start-up");
	} else if (ret == 0 && timed) {
		unsigned int n = c->rt[MPERF_T_EXIT].n;

		c->rt[MPERF_T_INIT].ms[n] = p.stamp_ms[0];
		c->rt[MPERF_T_ALLOC].ms[n] = p.stamp_ms[1];
		c->rt[MPERF_T_EXIT].ms[n] = p.exit_ms;
		c->rt[MPERF_T_INIT].n++;
		c->rt[MPERF_T_ALLOC].n++;
		c->rt[MPERF_T_EXIT].n++;
	}
	mperf_proc_release(&p);
	return ret;
}

/* Run one dpdk-test process; @return 0 with its sample added, or -1. */
static int
dpdk_run(const struct mperf_ctx *ctx, struct mperf_startup *c, bool timed)
{
	struct mperf_proc p;
	char buf[64];
	int ret;

	mperf_dpdk_startup_proc(ctx, c->mode, c->size_mb, &p, buf, sizeof(buf));
	ret = mperf_proc_run(&p);
	if (ret < 0 && !mperf_interrupted())
		mperf_proc_report(&p, "dpdk-test start-up");
	else if (ret == 0 && timed)
		c->dpdk_exit.ms[c->dpdk_exit.n++] = p.exit_ms;
	mperf_proc_release(&p);
	return ret;
}

/* Whether dpdk-test runs in case @p c. */
static bool
case_has_dpdk(const struct mperf_ctx *ctx, const struct mperf_startup *c)
{
	return ctx->compare && !c->dpdk_failed && !c->dpdk_skipped;
}

/*
 * Whether case @p c measures the floor: warm modes that map their files
 * and nothing else (not the kept memzones' table, not a primary's).
 */
static bool
case_has_floor(const struct mperf_ctx *ctx, const struct mperf_startup *c)
{
	return ctx->opts.project && c->mode->warm && !c->mode->keep &&
			!c->mode->attach;
}

/* One repetition of @p c: rtemem and DPDK, in turns. */
static void
case_rep(const struct mperf_ctx *ctx, struct mperf_startup *c, unsigned int rep)
{
	const struct mperf_samples *rt = &c->rt[MPERF_T_EXIT];
	bool dpdk = case_has_dpdk(ctx, c);
	bool dpdk_first = dpdk && rep % 2 == 1;
	unsigned int k;

	for (k = 0; k < 2 && !c->failed; k++) {
		if ((k == 0) == dpdk_first) {
			if (!dpdk)
				continue;
			if (!c->mode->warm)
				mperf_dir_clear(ctx->dpdk_dir);
			if (dpdk_run(ctx, c, true) < 0)
				c->dpdk_failed = !mperf_interrupted();
		} else {
			if (!c->mode->warm)
				mperf_dir_clear(ctx->rt_dir);
			if (rt_run(ctx, c, true) < 0)
				c->failed = !mperf_interrupted();
			/* The files a warm run reused, mapped by the kernel alone. */
			if (!c->failed && case_has_floor(ctx, c) &&
					mperf_floor_run(ctx, &c->floor_exit) <
							0)
				c->failed = !mperf_interrupted();
		}
		if (mperf_interrupted())
			return;
	}
	if (rt->n == rep + 1)
		mperf_progress(ctx, " %.1f", rt->ms[rep]);
	if (dpdk && c->dpdk_exit.n == rep + 1)
		mperf_progress(ctx, "/%.1f", c->dpdk_exit.ms[rep]);
}

/*
 * After a keep mode: one run without --keep-memzones discards the kept
 * memzone table, which would not match the next case's files.
 */
static void
keep_discard(const struct mperf_ctx *ctx, unsigned int size_mb)
{
	static const struct mperf_mode plain = { "never", "",
		{ "--huge-unlink=never", NULL }, true, false, false };
	struct mperf_startup c = { .mode = &plain, .size_mb = size_mb };

	rt_run(ctx, &c, false);
}

static void
dirs_clear(const struct mperf_ctx *ctx)
{
	mperf_dir_clear(ctx->rt_dir);
	if (ctx->opts.compare_dpdk)
		mperf_dir_clear(ctx->dpdk_dir);
}

static void
case_run(const struct mperf_ctx *ctx, struct mperf_startup *c, unsigned int idx,
		unsigned int total)
{
	struct mperf_hold hold;
	unsigned int rep;

	c->dpdk_skipped = ctx->compare &&
			((c->mode->dpdk_maps_all && !ctx->opts.dpdk_legacy) ||
					c->mode->keep || c->mode->attach);
	mperf_progress(ctx, "[%u/%u] %s, %u MB, ms to exit (%s):", idx, total,
			c->mode->name, c->size_mb,
			case_has_dpdk(ctx, c) ? "rtemem/dpdk-test" : "rtemem");
	dirs_clear(ctx);
	if (c->mode->attach && mperf_hold_start(ctx, c->size_mb, &hold) < 0) {
		c->failed = !mperf_interrupted();
		mperf_progress(ctx, " failed\n");
		return;
	}
	if (c->mode->warm) {
		if (rt_run(ctx, c, false) < 0)
			c->failed = !mperf_interrupted();
		if (case_has_dpdk(ctx, c) && dpdk_run(ctx, c, false) < 0)
			c->dpdk_failed = !mperf_interrupted();
	}
	for (rep = 0; rep < ctx->opts.reps && !c->failed; rep++) {
		if (mperf_interrupted())
			break;
		case_rep(ctx, c, rep);
	}
	if (c->mode->keep)
		keep_discard(ctx, c->size_mb);
	if (c->mode->attach && mperf_hold_stop(&hold) < 0 &&
			!mperf_interrupted()) {
		fprintf(stderr, "%s: the primary of the attach mode failed\n",
				MPERF_PROG);
		c->failed = true;
	}
	dirs_clear(ctx);
	mperf_progress(ctx, "%s\n", c->failed ? " failed" : "");
}

int
mperf_startup_run(struct mperf_ctx *ctx)
{
	const struct mperf_opts *o = &ctx->opts;
	unsigned int total = o->n_sizes * o->n_modes, s, m;
	bool failed = false;

	ctx->startup = calloc(total == 0 ? 1 : total, sizeof(*ctx->startup));
	if (ctx->startup == NULL)
		return -1;
	for (s = 0; s < o->n_sizes; s++) {
		for (m = 0; m < o->n_modes; m++) {
			struct mperf_startup *c = &ctx->startup[ctx->n_startup];

			if (mperf_interrupted())
				return -1;
			c->mode = o->modes[m];
			c->size_mb = o->sizes_mb[s];
			ctx->n_startup++;
			case_run(ctx, c, ctx->n_startup, total);
			failed |= c->failed || c->dpdk_failed;
		}
	}
	return failed || mperf_interrupted() ? -1 : 0;
}
