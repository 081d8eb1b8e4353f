/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * rtemem's side: a child process saves the raw image's bytes as one
 * memzone of a memory image; then, for each strategy, a child starts the
 * EAL with --memzone-image and times rte_eal_init() and a read of every
 * page of the memzone it finds. A child with the same options but no
 * image gives the start-up cost that is not the image's, which the rows
 * leave out.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_memzone.h>
#include <rte_memzone_image.h>

#include "iperf.h"

#define ZONE_NAME "iperf"
#define CHILD_ARGS_MAX 24
#define BASE_STARTS 3

/* Run this program as a child with @p args; its stdout in @p out. */
static int
run_child(const struct iperf_ctx *c, const char *const *args, char *out,
		size_t len)
{
	const char *argv[CHILD_ARGS_MAX];
	int pfd[2], status, n = 0;
	char sink[4096];
	size_t got = 0;
	ssize_t k;
	pid_t pid;

	argv[n++] = c->self;
	argv[n++] = "--child";
	while (*args != NULL && n < CHILD_ARGS_MAX - 1)
		argv[n++] = *args++;
	argv[n] = NULL;
	if (pipe(pfd) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		close(pfd[0]);
		execv(c->self, (char *const *)(uintptr_t)argv);
		_exit(127);
	}
	close(pfd[1]);
	/* Read to the end, so that the child never blocks on a full pipe. */
	while (pid > 0 &&
			(k = read(pfd[0], got < len - 1 ? out + got : sink,
					 got < len - 1 ? len - 1 - got :
							 sizeof(sink))) > 0)
		got += got < len - 1 ? (size_t)k : 0;
	out[got] = '\0';
	close(pfd[0]);
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int
iperf_make_image(struct iperf_ctx *c)
{
	char bytes[32], out[4096];
	const char *line;
	const char *args[] = { "make", c->huge_dir, c->raw_path, c->img_path,
		bytes, NULL };
	int ret;

	snprintf(bytes, sizeof(bytes), "%" PRIu64, c->bytes);
	struct iperf_row *r;
	unsigned int threads;
	double ms;

	ret = run_child(c, args, out, sizeof(out));
	line = strncmp(out, "S ", 2) == 0 ? out : strstr(out, "\nS ");
	if (ret != 0 || line == NULL ||
			sscanf(line + (line != out), "S %lf %u", &ms,
					&threads) != 2) {
		fprintf(stderr, "making the memzone image failed (%d): %s\n",
				ret, out);
		return -1;
	}
	snprintf(bytes, sizeof(bytes), "save, %u thread%s", threads,
			threads > 1 ? "s" : "");
	r = iperf_row_add(c, "rtemem", bytes, false);
	if (r != NULL) {
		r->first_ms = ms;
		r->all_ms = ms;
		r->ok = true;
		snprintf(r->note, sizeof(r->note),
				"rte_memzone_image_save(), fsync and rename");
	}
	return 0;
}

/* One start of a child with an image (or none), and what it measured. */
struct strategy_run {
	const char *strategy; /* NULL: no image */
	const char *threads;
	const char *prefetch; /* "on" or "off" (lazy strategies) */
	/*
	 * "files" (one per page) or "single" (one per list); "kept" and
	 * "kept-single" the same with --keep-memzones --huge-unlink=never.
	 */
	const char *layout;
	double init_ms; /* rte_eal_init() */
	double first_ms; /* then, a first byte of the memzone read */
	double all_ms; /* then, every page of it read */
	uint64_t sum;
	char picked[16]; /* what auto picked */
};

/* Run @p s's child and parse its "R init first all sum" line. */
static int
strategy_start(const struct iperf_ctx *c, struct strategy_run *s)
{
	const char *args[] = { "restore", c->huge_dir, c->img_path,
		s->strategy != NULL ? s->strategy : "none", s->threads,
		s->prefetch != NULL ? s->prefetch : "on",
		s->layout != NULL ? s->layout : "files", NULL };
	const char *line, *pick;
	char out[4096];

	s->picked[0] = '\0';
	if (run_child(c, args, out, sizeof(out)) != 0)
		return -1;
	line = strncmp(out, "R ", 2) == 0 ? out : strstr(out, "\nR ");
	if (line == NULL ||
			sscanf(line + (line != out), "R %lf %lf %lf %" SCNu64,
					&s->init_ms, &s->first_ms, &s->all_ms,
					&s->sum) != 4)
		return -1;
	pick = strstr(out, "strategy=auto: ");
	if (pick != NULL)
		sscanf(pick, "strategy=auto: %15[a-z-]", s->picked);
	return 0;
}

/*
 * A row from a start: an eager strategy has everything there when init
 * returns; a lazy one returns early and fills pages as they are read.
 */
static void
strategy_row(struct iperf_row *r, const struct strategy_run *s, double base_ms,
		uint64_t want_sum, bool lazy)
{
	double init = s->init_ms > base_ms ? s->init_ms - base_ms : 0.0;

	r->first_ms = lazy ? init + s->first_ms : init;
	r->all_ms = lazy ? init + s->all_ms : init;
	r->ok = s->sum == want_sum;
	snprintf(r->note, sizeof(r->note),
			"start %.1f ms, %.1f of it without image%s%s%s",
			s->init_ms, base_ms, s->picked[0] ? "; picked " : "",
			s->picked,
			lazy ? "; all = every page read after init" : "");
}

static int
cmp_ms(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of @p n values in @p v, which it sorts. */
static double
median_ms(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_ms);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * Row @p r from c->starts starts like @p proto (the page cache dropped
 * before each if @p cold): each column the median of its values, the
 * note from the last start. One start can take twice another's time on
 * this kind of machine; a median over several says what a start costs.
 */
static void
strategy_rows_median(const struct iperf_ctx *c, struct iperf_row *r,
		const struct strategy_run *proto, double base_ms, bool lazy,
		bool cold)
{
	double first[IPERF_MAX_STARTS], all[IPERF_MAX_STARTS];
	struct iperf_row one;
	struct strategy_run s;
	unsigned int i;
	bool ok = true;

	for (i = 0; i < c->starts; i++) {
		if (cold)
			iperf_drop_caches();
		s = *proto;
		if (strategy_start(c, &s) < 0) {
			snprintf(r->note, sizeof(r->note), "the start failed");
			return;
		}
		one = *r;
		strategy_row(&one, &s, base_ms, c->raw_sum, lazy);
		first[i] = one.first_ms;
		all[i] = one.all_ms;
		ok &= one.ok;
	}
	*r = one;
	r->ok = ok;
	if (c->starts == 1)
		return;
	r->first_ms = median_ms(first, c->starts);
	r->all_ms = median_ms(all, c->starts);
	snprintf(r->note + strlen(r->note), sizeof(r->note) - strlen(r->note),
			"; median of %u starts (last start noted)", c->starts);
}

/*
 * The image already in hugetlbfs files: a restart that finds the
 * memzone in the files an earlier run kept (--keep-memzones), which
 * maps them without a copy. An untimed start fills the kept files from
 * the image; the timed one maps them; a last start without
 * --keep-memzones removes them.
 */
static void
strategy_kept(struct iperf_ctx *c, const struct strategy_run *base,
		const char *layout)
{
	bool single = strcmp(layout, "kept-single") == 0;
	struct strategy_run fill = { .strategy = "pread", .layout = layout };
	struct strategy_run timed = { .layout = layout };
	struct strategy_run drop = { .layout = single ? "single" : "files" };
	struct iperf_row *r;

	r = iperf_row_add(c, "rtemem",
			single ? "kept files, 1 file" : "kept files (restart)",
			false);
	if (r == NULL)
		return;
	fill.threads = timed.threads = drop.threads = base->threads;
	if (strategy_start(c, &fill) < 0 || fill.sum != c->raw_sum)
		snprintf(r->note, sizeof(r->note),
				"the start keeping the image failed");
	else if (strategy_start(c, &timed) < 0)
		snprintf(r->note, sizeof(r->note), "the restart failed");
	else
		strategy_row(r, &timed, base->init_ms, c->raw_sum, false);
	if (strategy_start(c, &drop) < 0 && r->note[0] == '\0')
		snprintf(r->note, sizeof(r->note),
				"the kept files could not be removed");
}

void
iperf_strategies(struct iperf_ctx *c, bool cold)
{
	/*
	 * Strategy, threads (NULL: the run's; "default": the EAL's),
	 * prefetch, layout.
	 */
	static const char *const names[][4] = {
		{ "pread", "1", NULL, NULL },
		{ "pread", NULL, NULL, NULL },
		{ "mmap", NULL, NULL, NULL },
		{ "direct", NULL, NULL, NULL },
		{ "auto", NULL, NULL, NULL },
		{ "uffd-copy", "default", "on", NULL },
		{ "uffd-copy", "default", "on", "single" },
		{ "uffd-copy", "default", "off", NULL },
		{ "uffd-minor", "default", "on", NULL },
		{ "uffd-minor", "default", "on", "single" },
	};
	struct strategy_run base = { 0 }, s;
	double base_ms[IPERF_MAX_STARTS];
	char threads[16], name[64];
	unsigned int i, n_base;
	struct iperf_row *r;

	snprintf(threads, sizeof(threads), "%u", c->threads);
	/*
	 * The quickest of a few starts: one start can take 1 or 5 ms here.
	 * With --starts, the median of as many, as the rows are.
	 */
	n_base = c->starts > 1 ? c->starts : BASE_STARTS;
	for (i = 0; i < n_base; i++) {
		s = (struct strategy_run){ .threads = threads };
		if (strategy_start(c, &s) < 0) {
			fprintf(stderr, "a start without the image failed\n");
			return;
		}
		base_ms[i] = s.init_ms;
		if (i == 0 || s.init_ms < base.init_ms)
			base = s;
	}
	if (c->starts > 1)
		base.init_ms = median_ms(base_ms, n_base);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *t = names[i][1] != NULL ? names[i][1] : threads;
		bool off = names[i][2] != NULL &&
				strcmp(names[i][2], "off") == 0;

		if (off)
			snprintf(name, sizeof(name), "%s, on touch only",
					names[i][0]);
		else if (strcmp(t, "default") == 0)
			snprintf(name, sizeof(name), "%s, prefetch%s",
					names[i][0],
					names[i][3] != NULL ? ", 1 file" : "");
		else
			snprintf(name, sizeof(name), "%s, %s thread%s%s",
					names[i][0], t,
					strcmp(t, "1") == 0 ? "" : "s",
					names[i][3] != NULL ? ", 1 file" : "");
		r = iperf_row_add(c, "rtemem", name, cold);
		if (r == NULL)
			return;
		s = (struct strategy_run){ .strategy = names[i][0],
			.threads = t,
			.prefetch = names[i][2],
			.layout = names[i][3] };
		strategy_rows_median(c, r, &s, base.init_ms,
				names[i][2] != NULL, cold);
	}
	if (!cold)
		strategy_kept(c, &base, "kept");
	if (!cold)
		strategy_kept(c, &base, "kept-single");
}

/* ---- the children ---- */

static int
child_eal(const char *huge_dir, const char *prefix, const char *image,
		const char *strategy, const char *threads, const char *prefetch,
		const char *layout)
{
	char dir_arg[600], img_arg[700], st_arg[64], th_arg[64], pf_arg[64];
	char *argv[16];
	int n = 0;

	snprintf(dir_arg, sizeof(dir_arg), "--huge-dir=%s", huge_dir);
	argv[n++] = (char *)(uintptr_t) "rtemem-image-perf";
	argv[n++] = dir_arg;
	argv[n++] = (char *)(uintptr_t)prefix;
	argv[n++] = (char *)(uintptr_t) "-m";
	argv[n++] = (char *)(uintptr_t) "0";
	argv[n++] = (char *)(uintptr_t) "--log-level=notice";
	if (layout != NULL && strstr(layout, "single") != NULL)
		argv[n++] = (char *)(uintptr_t) "--single-file-segments";
	if (layout != NULL && strncmp(layout, "kept", 4) == 0) {
		argv[n++] = (char *)(uintptr_t) "--huge-unlink=never";
		argv[n++] = (char *)(uintptr_t) "--keep-memzones";
	}
	if (image != NULL && strategy != NULL && strcmp(strategy, "none")) {
		snprintf(img_arg, sizeof(img_arg), "--memzone-image=%s", image);
		snprintf(st_arg, sizeof(st_arg), "--memzone-image-strategy=%s",
				strategy);
		snprintf(th_arg, sizeof(th_arg), "--memzone-image-threads=%s",
				threads);
		argv[n++] = img_arg;
		argv[n++] = st_arg;
		if (strcmp(threads, "default") != 0)
			argv[n++] = th_arg;
	}
	/* A lazy strategy: pages filled later have no physical address. */
	if (image != NULL && strategy != NULL &&
			strncmp(strategy, "uffd-", 5) == 0) {
		snprintf(pf_arg, sizeof(pf_arg), "--memzone-image-prefetch=%s",
				prefetch);
		argv[n++] = pf_arg;
		argv[n++] = (char *)(uintptr_t) "--iova-mode=va";
	}
	argv[n] = NULL;
	return rte_eal_init(n, argv);
}

static int
child_make(char **argv)
{
	uint64_t len = strtoull(argv[3], NULL, 10), off;
	struct rte_memzone_image_save_stats st;
	const struct rte_memzone *mz;
	char err[256];
	size_t got;
	double t0;
	FILE *f;

	if (child_eal(argv[0], "--file-prefix=iperf-make", NULL, NULL, NULL,
			    NULL, NULL) < 0)
		return 1;
	mz = rte_memzone_reserve(ZONE_NAME, len, SOCKET_ID_ANY, 0);
	f = fopen(argv[1], "r");
	if (mz == NULL || f == NULL)
		return 2;
	for (off = 0; off < len; off += got) {
		got = fread((char *)mz->addr + off, 1, len - off, f);
		if (got == 0)
			break;
	}
	fclose(f);
	if (off < len)
		return 2;
	t0 = iperf_now_ms();
	if (rte_memzone_image_save(argv[2], NULL, &st, err, sizeof(err)) < 0) {
		printf("%s\n", err);
		return 3;
	}
	printf("S %.3f %u\n", iperf_now_ms() - t0, st.n_threads);
	rte_eal_cleanup();
	return 0;
}

static int
child_restore(char **argv)
{
	const struct rte_memzone *mz;
	double t0 = iperf_now_ms(), init, first = 0;
	volatile char byte;
	uint64_t sum;

	if (child_eal(argv[0], "--file-prefix=iperf-restore", argv[1], argv[2],
			    argv[3], argv[4], argv[5]) < 0)
		return 1;
	init = iperf_now_ms() - t0;
	mz = rte_memzone_lookup(ZONE_NAME);
	if (strcmp(argv[2], "none") != 0 && mz == NULL)
		return 2;
	t0 = iperf_now_ms();
	/*
	 * A byte in the middle: init touched the first and last pages (heap
	 * elements around the memzone), and prefetching is not there yet.
	 */
	if (mz != NULL) {
		byte = ((const char *)mz->addr)[mz->len / 2];
		(void)byte;
		first = iperf_now_ms() - t0;
	}
	sum = mz == NULL ? 0 : iperf_page_sum(mz->addr, mz->len);
	printf("R %.3f %.3f %.3f %" PRIu64 "\n", init, first,
			iperf_now_ms() - t0, sum);
	rte_eal_cleanup();
	return 0;
}

int
iperf_child(int argc, char **argv)
{
	if (argc == 5 && strcmp(argv[0], "make") == 0)
		return child_make(argv + 1);
	if (argc == 7 && strcmp(argv[0], "restore") == 0)
		return child_restore(argv + 1);
	return 100;
}
