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

/* One start: the child's "R init first all sum" line, parsed. */
static int
strategy_start(const struct iperf_ctx *c, const char *strategy,
		const char *threads, double *init_ms, double *all_ms,
		uint64_t *sum, char *picked)
{
	const char *args[] = { "restore", c->huge_dir, c->img_path,
		strategy != NULL ? strategy : "none", threads, NULL };
	const char *line, *pick;
	char out[4096];
	double first;

	if (run_child(c, args, out, sizeof(out)) != 0)
		return -1;
	line = strncmp(out, "R ", 2) == 0 ? out : strstr(out, "\nR ");
	if (line == NULL ||
			sscanf(line + (line != out), "R %lf %lf %lf %" SCNu64,
					init_ms, &first, all_ms, sum) != 4)
		return -1;
	pick = strstr(out, "strategy=auto: ");
	if (picked != NULL && pick != NULL)
		sscanf(pick, "strategy=auto: %15[a-z-]", picked);
	return 0;
}

void
iperf_strategies(struct iperf_ctx *c, bool cold)
{
	static const char *const names[][2] = {
		{ "pread", "1" },
		{ "pread", NULL },
		{ "mmap", NULL },
		{ "direct", NULL },
		{ "auto", NULL },
	};
	double base_ms, init_ms, all_ms;
	char threads[16], name[48], picked[16];
	struct iperf_row *r;
	uint64_t sum;
	unsigned int i;

	snprintf(threads, sizeof(threads), "%u", c->threads);
	if (strategy_start(c, NULL, threads, &base_ms, &all_ms, &sum, NULL) <
			0) {
		fprintf(stderr, "a start without the image failed\n");
		return;
	}
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *t = names[i][1] != NULL ? names[i][1] : threads;

		snprintf(name, sizeof(name), "%s, %s thread%s", names[i][0], t,
				strcmp(t, "1") == 0 ? "" : "s");
		r = iperf_row_add(c, "rtemem", name, cold);
		if (r == NULL)
			return;
		if (cold)
			iperf_drop_caches();
		picked[0] = '\0';
		if (strategy_start(c, names[i][0], t, &init_ms, &all_ms, &sum,
				    picked) < 0) {
			snprintf(r->note, sizeof(r->note), "the start failed");
			continue;
		}
		/* Eager: usable, and all there, when init returns. */
		r->first_ms = (init_ms > base_ms ? init_ms - base_ms : 0.0);
		r->all_ms = r->first_ms;
		r->ok = sum == c->raw_sum;
		snprintf(r->note, sizeof(r->note),
				"start %.1f ms, %.1f of it without image%s%s",
				init_ms, base_ms, picked[0] ? "; picked " : "",
				picked);
	}
}

/* ---- the children ---- */

static int
child_eal(const char *huge_dir, const char *prefix, const char *image,
		const char *strategy, const char *threads)
{
	char dir_arg[600], img_arg[700], st_arg[64], th_arg[64];
	char *argv[12];
	int n = 0;

	snprintf(dir_arg, sizeof(dir_arg), "--huge-dir=%s", huge_dir);
	argv[n++] = (char *)(uintptr_t) "rtemem-image-perf";
	argv[n++] = dir_arg;
	argv[n++] = (char *)(uintptr_t)prefix;
	argv[n++] = (char *)(uintptr_t) "-m";
	argv[n++] = (char *)(uintptr_t) "0";
	argv[n++] = (char *)(uintptr_t) "--log-level=notice";
	if (image != NULL && strategy != NULL && strcmp(strategy, "none")) {
		snprintf(img_arg, sizeof(img_arg), "--memzone-image=%s", image);
		snprintf(st_arg, sizeof(st_arg), "--memzone-image-strategy=%s",
				strategy);
		snprintf(th_arg, sizeof(th_arg), "--memzone-image-threads=%s",
				threads);
		argv[n++] = img_arg;
		argv[n++] = st_arg;
		argv[n++] = th_arg;
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

	if (child_eal(argv[0], "--file-prefix=iperf-make", NULL, NULL, NULL) <
			0)
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
	uint64_t sum;

	if (child_eal(argv[0], "--file-prefix=iperf-restore", argv[1], argv[2],
			    argv[3]) < 0)
		return 1;
	init = iperf_now_ms() - t0;
	mz = rte_memzone_lookup(ZONE_NAME);
	if (strcmp(argv[2], "none") != 0 && mz == NULL)
		return 2;
	t0 = iperf_now_ms();
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
	if (argc == 5 && strcmp(argv[0], "restore") == 0)
		return child_restore(argv + 1);
	return 100;
}
