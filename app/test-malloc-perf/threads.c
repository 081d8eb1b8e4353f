/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * --threads: the multi-thread benchmark (app/common/malloc_perf_threads.h)
 * on rtemem, in this process, then on each peer in a child process
 * (rtemem-malloc-perf-peer, next to this program):
 *
 *   rtemem          rte_malloc on lcores 0 .. N-1 (rte_eal_remote_launch)
 *   rtemem-thread   rte_malloc on plain threads, which have no lcore id
 *   dpdk            upstream DPDK's rte_malloc on its lcores
 *                   (--compare-dpdk)
 *   glibc           the C library's malloc
 *   jemalloc, tcmalloc, mimalloc
 *                   the same program with the allocator preloaded
 *                   (LD_PRELOAD of Debian's library); the child names the
 *                   object that provides malloc, and a preload that did not
 *                   take fails the peer
 *
 * Lcore i and thread i run on the i-th CPU the process may use, wrapping
 * around when there are more threads than CPUs.
 */

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_malloc.h>

#include "mperf.h"

#define PEER_NAME "rtemem-malloc-perf-peer"
#define PEER_TIMEOUT_S 1800

/*
 * The peers of the peer program: malloc() with an allocator preloaded,
 * and the list, the floor of each shape (no allocator).
 */
static const struct {
	const char *name;
	const char *alloc; /* the peer program's --alloc */
	const char *preload; /* soname, found by the dynamic linker */
	const char *package; /* Debian package that provides it */
} peer_defs[] = {
	{ "glibc", "libc", NULL, NULL },
	{ "jemalloc", "libc", "libjemalloc.so.2", "libjemalloc-dev" },
	{ "tcmalloc", "libc", "libtcmalloc_minimal.so.4",
			"libgoogle-perftools-dev" },
	{ "mimalloc", "libc", "libmimalloc.so.2", "libmimalloc-dev" },
	{ "list", "list", NULL, NULL },
};

int
mperf_peers_parse(const char *s, bool *peers)
{
	char buf[256], *tok, *save = NULL;
	unsigned int i;

	RTE_BUILD_BUG_ON(RTE_DIM(peer_defs) != MPERF_N_PEERS);
	for (i = 0; i < MPERF_N_PEERS; i++)
		peers[i] = strcmp(s, "all") == 0;
	if (strcmp(s, "all") == 0 || strcmp(s, "none") == 0)
		return 0;
	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
			tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < MPERF_N_PEERS; i++)
			if (strcmp(tok, peer_defs[i].name) == 0)
				break;
		if (i == MPERF_N_PEERS)
			return -1;
		peers[i] = true;
	}
	return 0;
}

static void *
rt_alloc(size_t size)
{
	return rte_malloc(NULL, size, 0);
}

static void *
rt_zalloc(size_t size)
{
	return rte_zmalloc(NULL, size, 0);
}

static void
rt_free(void *p)
{
	rte_free(p);
}

/* The row of @p alloc's case @p c, or NULL. */
static struct mperf_mt_row *
mt_row_find(struct mperf_mt *mt, const char *alloc, const struct mt_case *c)
{
	unsigned int i;

	for (i = 0; i < mt->n; i++)
		if (strcmp(mt->v[i].alloc, alloc) == 0 &&
				mt->v[i].c.shape == c->shape &&
				mt->v[i].c.size == c->size &&
				mt->v[i].c.threads == c->threads)
			return &mt->v[i];
	return NULL;
}

int
mperf_mt_add(struct mperf_mt *mt, const char *alloc, const struct mt_case *c,
		const struct mt_result *r)
{
	struct mperf_mt_row *old = mt_row_find(mt, alloc, c);

	/* Another turn of the case: its best run stays, a failure shows. */
	if (old != NULL) {
		if (r->failed || (!old->r.failed && r->mops > old->r.mops))
			old->r = *r;
		return 0;
	}
	if (mt->n == mt->cap) {
		unsigned int cap = mt->cap == 0 ? 64 : mt->cap * 2;
		struct mperf_mt_row *v = realloc(mt->v, cap * sizeof(*v));

		if (v == NULL)
			return -1;
		mt->v = v;
		mt->cap = cap;
	}
	mt->v[mt->n++] = (struct mperf_mt_row){ alloc, *c, *r };
	return 0;
}

/* Every case on one allocator in this process. @return 0, or -1. */
static int
cases_run(struct mperf_ctx *ctx, const char *alloc, mt_run_fn *run,
		void *run_ctx)
{
	static const struct mt_alloc_ops rt_ops[2] = { { rt_alloc, rt_free },
		{ rt_zalloc, rt_free } };
	const struct mperf_opts *o = &ctx->opts;
	const struct mt_alloc_ops *ops = &rt_ops[o->zero];
	unsigned int sh, s, i;
	uint64_t start;

	for (sh = 0; sh < MT_N_SHAPES; sh++) {
		for (s = 0; s < mt_n_sizes; s++) {
			if (o->max_size != 0 && mt_sizes[s] > o->max_size)
				continue;
			/* The thread counts in turn: mperf_mt_add keeps the best. */
			start = mt_now_ns();
			for (i = 0; mt_case_turn(i, o->n_threads, start); i++) {
				struct mt_case c = { (enum mt_shape)sh,
					mt_sizes[s],
					o->threads[i % o->n_threads] };
				struct mt_result r;

				if (mperf_interrupted())
					return -1;
				mperf_progress(ctx,
						"threads: %s %s %zu B x %u\n",
						alloc, mt_shape_name(c.shape),
						c.size, c.threads);
				if (mt_case_run(&c, ops, run, run_ctx, &r) <
						0) {
					fprintf(stderr, "%s: threads: %s %s %zu B on %u threads failed%s\n",
							MPERF_PROG, alloc,
							mt_shape_name(c.shape),
							c.size, c.threads,
							r.failed ? ": out of memory" :
								   "");
					return -1;
				}
				if (mperf_mt_add(&ctx->mt, alloc, &c, &r) < 0)
					return -1;
			}
		}
	}
	return 0;
}

/* "0@c0,1@c1,...": lcore i on the i-th usable CPU. */
static int
lcores_arg(unsigned int n, char *buf, size_t len)
{
	size_t off = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		int cpu = mt_nth_cpu(i);
		int w = snprintf(buf + off, len - off, "%s%u@%d", i ? "," : "",
				i, cpu);

		if (cpu < 0 || w < 0 || (size_t)w >= len - off)
			return -1;
		off += (size_t)w;
	}
	return 0;
}

/* rtemem's rows: on lcores, then on plain threads. */
static int
rtemem_run(struct mperf_ctx *ctx)
{
	struct mt_lcore_launcher launcher = { rte_eal_remote_launch,
		rte_eal_wait_lcore, rte_lcore_count };
	const struct mperf_opts *o = &ctx->opts;
	char *argv[MPERF_MAX_ARGV], lcores[1024], limit[256];
	unsigned int n = 0, i;
	int ret;

	if (lcores_arg(o->threads[o->n_threads - 1], lcores, sizeof(lcores)) <
			0) {
		fprintf(stderr, "%s: threads: cannot read this process's CPUs\n",
				MPERF_PROG);
		return -1;
	}
	argv[n++] = (char *)(uintptr_t)MPERF_PROG;
	argv[n++] = (char *)(uintptr_t) "--huge-dir";
	argv[n++] = ctx->rt_dir;
	argv[n++] = (char *)(uintptr_t) "--file-prefix";
	argv[n++] = ctx->prefix;
	argv[n++] = (char *)(uintptr_t) "--lcores";
	argv[n++] = lcores;
	argv[n++] = (char *)(uintptr_t)mperf_table_limit(
			ctx, limit, sizeof(limit));
	argv[n++] = limit;
	for (i = 0; i < o->n_eal_args; i++)
		argv[n++] = o->eal_args[i];
	argv[n] = NULL;
	mperf_progress(ctx, "threads: rte_eal_init");
	for (i = 1; i < n; i++)
		mperf_progress(ctx, " %s", argv[i]);
	mperf_progress(ctx, "\n");
	if (rte_eal_init((int)n, argv) < 0) {
		fprintf(stderr, "%s: threads: rte_eal_init failed: %s\n",
				MPERF_PROG, rte_strerror(rte_errno));
		mperf_dir_clear(ctx->rt_dir);
		return -1;
	}
	ret = cases_run(ctx, "rtemem", mt_run_lcores, &launcher);
	if (ret == 0)
		ret = cases_run(ctx, "rtemem-thread", mt_run_pthreads, NULL);
	if (rte_eal_cleanup() < 0)
		ret = -1;
	if (mperf_dir_clear(ctx->rt_dir) != 0)
		ret = -1;
	return ret;
}

/* The peer program: next to this one. @return 0, or -1. */
static int
peer_path(char *buf, size_t len)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (n <= 0)
		return -1;
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (slash == NULL)
		return -1;
	*slash = '\0';
	if ((size_t)snprintf(buf, len, "%s/%s", self, PEER_NAME) >= len)
		return -1;
	return access(buf, X_OK);
}

/* The arguments every peer run gets, into @p p. */
static unsigned int
peer_argv(const struct mperf_ctx *ctx, struct mperf_proc *p, char *threads,
		size_t tlen, char *sizes, size_t slen)
{
	const struct mperf_opts *o = &ctx->opts;
	unsigned int n = 0, i;
	size_t off = 0;

	threads[0] = sizes[0] = '\0';
	for (i = 0; i < o->n_threads; i++)
		off += (size_t)snprintf(threads + off, tlen - off, "%s%u",
				i ? "," : "", o->threads[i]);
	for (i = 0, off = 0; i < mt_n_sizes; i++)
		if (o->max_size == 0 || mt_sizes[i] <= o->max_size)
			off += (size_t)snprintf(sizes + off, slen - off,
					"%s%zu", off ? "," : "", mt_sizes[i]);
	p->argv[n++] = (char *)(uintptr_t)PEER_NAME;
	p->argv[n++] = (char *)(uintptr_t) "--threads";
	p->argv[n++] = threads;
	p->argv[n++] = (char *)(uintptr_t) "--sizes";
	p->argv[n++] = sizes;
	if (o->zero)
		p->argv[n++] = (char *)(uintptr_t) "--zero";
	p->argv[n++] = (char *)(uintptr_t) "--alloc";
	return n;
}

/*
 * Read a peer's rows. A preloaded allocator must be what provides
 * malloc: @p want is a part of its path ("jemalloc"), or NULL.
 */
static int
peer_parse(struct mperf_ctx *ctx, const char *alloc, const char *want,
		const char *out)
{
	bool provider_ok = want == NULL;
	const char *line = out;
	unsigned int rows = 0;

	while (line != NULL && *line != '\0') {
		const char *nl = strchr(line, '\n');
		struct mt_case c;
		struct mt_result r;

		if (strncmp(line, "mt-provider ", 12) == 0 && want != NULL) {
			const char *hit = strstr(line, want);

			provider_ok = hit != NULL && (nl == NULL || hit < nl);
		} else if (mt_result_parse(line, &c, &r) == 0) {
			if (mperf_mt_add(&ctx->mt, alloc, &c, &r) < 0)
				return -1;
			rows++;
		}
		line = nl != NULL ? nl + 1 : NULL;
	}
	if (!provider_ok) {
		fprintf(stderr, "%s: threads: %s: the preload did not replace malloc\n",
				MPERF_PROG, alloc);
		return -1;
	}
	return rows > 0 ? 0 : -1;
}

/*
 * Run peer @p alloc (a name of peer_defs, or "dpdk") as the peer program's
 * --alloc @p how.
 */
static int
peer_run(struct mperf_ctx *ctx, const char *path, const char *alloc,
		const char *how, const char *preload, const char *package)
{
	char threads[512], sizes[512], env[128], lcores[1024], limit[256];
	struct mperf_proc p;
	unsigned int n;
	int ret;

	memset(&p, 0, sizeof(p));
	p.path = path;
	p.clean_env = true;
	p.timeout_s = PEER_TIMEOUT_S;
	n = peer_argv(ctx, &p, threads, sizeof(threads), sizes, sizeof(sizes));
	p.argv[n++] = (char *)(uintptr_t)how;
	if (strcmp(how, "dpdk") == 0) {
		if (lcores_arg(ctx->opts.threads[ctx->opts.n_threads - 1],
				    lcores, sizeof(lcores)) < 0)
			return -1;
		p.argv[n++] = (char *)(uintptr_t) "--";
		p.argv[n++] = (char *)(uintptr_t) "--no-pci";
		p.argv[n++] = (char *)(uintptr_t) "--lcores";
		p.argv[n++] = lcores;
		p.argv[n++] = (char *)(uintptr_t) "--file-prefix";
		p.argv[n++] = ctx->prefix;
		p.argv[n++] = (char *)(uintptr_t) "--huge-dir";
		p.argv[n++] = ctx->dpdk_dir;
		p.argv[n++] = (char *)(uintptr_t)mperf_table_limit(
				ctx, limit, sizeof(limit));
		p.argv[n++] = limit;
	} else if (preload != NULL) {
		snprintf(env, sizeof(env), "LD_PRELOAD=%s", preload);
		p.env_add = env;
	}
	p.argv[n] = NULL;
	mperf_progress(ctx, "threads: %s (child process)\n", alloc);
	ret = mperf_proc_run(&p);
	if (ret == 0)
		ret = peer_parse(ctx, alloc, preload != NULL ? alloc : NULL,
				p.output);
	if (ret != 0) {
		mperf_proc_report(&p, alloc);
		if (package != NULL)
			fprintf(stderr, "%s: threads: is %s installed (Debian: %s)?\n",
					MPERF_PROG, preload, package);
	}
	mperf_proc_release(&p);
	if (strcmp(alloc, "dpdk") == 0) {
		mperf_dir_clear(ctx->dpdk_dir);
		mperf_dpdk_cleanup(ctx);
	}
	return ret;
}

int
mperf_threads_run(struct mperf_ctx *ctx)
{
	bool any_peer = ctx->compare;
	char path[PATH_MAX];
	unsigned int turn, i;
	int ret = 0;

	for (i = 0; i < MPERF_N_PEERS; i++)
		any_peer |= ctx->opts.peers[i];
	/*
	 * Every allocator in turn, each turn: a slow minute of a shared
	 * machine then slows one run of each rather than all runs of one.
	 */
	for (turn = 0; turn < ctx->opts.turns && ret == 0; turn++) {
		if (ctx->opts.turns > 1)
			mperf_progress(ctx, "threads: turn %u of %u\n",
					turn + 1, ctx->opts.turns);
		ret = rtemem_run(ctx);
		if (!any_peer)
			continue;
		/* Looked for once rtemem has run: its rows are not lost. */
		if (turn == 0 && peer_path(path, sizeof(path)) < 0) {
			fprintf(stderr, "%s: threads: %s not found next to this program\n",
					MPERF_PROG, PEER_NAME);
			return -1;
		}
		if (ctx->compare && !mperf_interrupted() &&
				peer_run(ctx, path, "dpdk", "dpdk", NULL,
						NULL) < 0)
			ret = -1;
		for (i = 0; i < RTE_DIM(peer_defs) && !mperf_interrupted(); i++)
			if (ctx->opts.peers[i] &&
					peer_run(ctx, path, peer_defs[i].name,
							peer_defs[i].alloc,
							peer_defs[i].preload,
							peer_defs[i].package) <
							0)
				ret = -1;
	}
	return mperf_interrupted() ? -1 : ret;
}
