/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Upstream DPDK for comparison: its test runner, dpdk-test (Debian 12:
 * package dpdk-dev).
 *
 * dpdk-test cannot say when its own rte_eal_init() returned, so the
 * start-up comparison is of whole processes: exec to exit, with stdin at
 * end of file (its prompt then exits at once), DPDK_TEST and
 * DPDK_TEST_PARAMS removed from its environment, in its own hugetlbfs
 * directory (its default mode removes every unlocked *map_* file there).
 * With --huge-unlink=never and --legacy-mem it leaves its files; the
 * start-up cases remove them. It also leaves a runtime directory,
 * <runtime base>/<file prefix>, removed at the end.
 *
 * Its allocator table is malloc_perf_autotest (DPDK_TEST set), whose
 * rows are read from its output:
 *   USER1: Performance: rte_malloc
 *   USER1:     Size (B)    Runs  Alloc (us)   Free (us)  Total (us)  memset (us)
 *   USER1:           64   10000        0.65        0.10        0.74         0.02
 * and its memset reference from "USER1: Result: ... <=> 245.29 us/MiB".
 */

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mperf.h"

#define DPDK_TEST_NAME "dpdk-test"
#define DPDK_TIMEOUT_S 300 /* one start-up */
#define DPDK_TABLE_TIMEOUT_S 1800 /* malloc_perf_autotest */
/* Memory malloc_perf_autotest needs: its memset reference takes 1 GiB. */
#define DPDK_TABLE_MIN_MB 1100

/* The first arguments of every dpdk-test run, into @p p. */
static unsigned int
dpdk_argv(const struct mperf_ctx *ctx, struct mperf_proc *p, char *cpu,
		size_t len)
{
	unsigned int n = 0;

	memset(p, 0, sizeof(*p));
	p->path = ctx->dpdk.path;
	p->clean_env = true;
	p->timeout_s = DPDK_TIMEOUT_S;
	snprintf(cpu, len, "%d", ctx->machine.cpu);
	p->argv[n++] = (char *)(uintptr_t)DPDK_TEST_NAME;
	p->argv[n++] = (char *)(uintptr_t) "--no-pci";
	p->argv[n++] = (char *)(uintptr_t) "-l";
	p->argv[n++] = cpu;
	p->argv[n++] = (char *)(uintptr_t) "--file-prefix";
	p->argv[n++] = (char *)(uintptr_t)ctx->prefix;
	return n;
}

static void
runtime_base_find(struct mperf_dpdk *d)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	struct stat st;

	if (getuid() == 0)
		snprintf(d->runtime_base, sizeof(d->runtime_base),
				"/var/run/dpdk");
	else
		snprintf(d->runtime_base, sizeof(d->runtime_base), "%s/dpdk",
				xdg != NULL ? xdg : "/tmp");
	d->runtime_base_existed = stat(d->runtime_base, &st) == 0;
}

/* Read the version out of "EAL: RTE Version: 'DPDK 22.11.11'". */
static void
version_parse(struct mperf_dpdk *d, const char *out)
{
	const char *v = out != NULL ? strstr(out, "RTE Version: '") : NULL;
	size_t len;

	if (v == NULL)
		return;
	v += strlen("RTE Version: '");
	len = strcspn(v, "'\n");
	if (len >= sizeof(d->version))
		len = sizeof(d->version) - 1;
	memcpy(d->version, v, len);
	d->version[len] = '\0';
}

void
mperf_dpdk_probe(struct mperf_ctx *ctx)
{
	struct mperf_dpdk *d = &ctx->dpdk;
	struct mperf_proc p;
	unsigned int n;
	char cpu[16];

	ctx->compare = false;
	if (ctx->opts.dpdk_test != NULL) {
		snprintf(d->path, sizeof(d->path), "%s", ctx->opts.dpdk_test);
		if (access(d->path, X_OK) != 0)
			d->path[0] = '\0';
	} else {
		mperf_path_search(DPDK_TEST_NAME, d->path, sizeof(d->path));
	}
	if (d->path[0] == '\0') {
		snprintf(d->note, sizeof(d->note),
				"%s not found (Debian 12: apt-get install dpdk-dev)",
				ctx->opts.dpdk_test != NULL ?
						ctx->opts.dpdk_test :
						DPDK_TEST_NAME);
		return;
	}
	runtime_base_find(d);
	/* Start it once without hugepages: it works, and its version. */
	n = dpdk_argv(ctx, &p, cpu, sizeof(cpu));
	p.argv[n++] = (char *)(uintptr_t) "-v";
	p.argv[n++] = (char *)(uintptr_t) "--no-huge";
	p.argv[n++] = (char *)(uintptr_t) "-m";
	p.argv[n++] = (char *)(uintptr_t) "64";
	p.argv[n] = NULL;
	if (mperf_proc_run(&p) < 0) {
		mperf_proc_report(&p, "dpdk-test");
		snprintf(d->note, sizeof(d->note),
				"%s does not start (exit status %d)", d->path,
				p.status);
	} else {
		version_parse(d, p.output);
		d->nohuge_ms = p.exit_ms;
		ctx->compare = true;
	}
	mperf_proc_release(&p);
}

void
mperf_dpdk_startup_proc(const struct mperf_ctx *ctx,
		const struct mperf_mode *mode, unsigned int size_mb,
		struct mperf_proc *p, char *buf, size_t len)
{
	unsigned int n, i;
	size_t cpu_len = len / 2;

	n = dpdk_argv(ctx, p, buf, cpu_len);
	snprintf(buf + cpu_len, len - cpu_len, "%u", size_mb);
	p->argv[n++] = (char *)(uintptr_t) "--huge-dir";
	p->argv[n++] = (char *)(uintptr_t)ctx->dpdk_dir;
	p->argv[n++] = (char *)(uintptr_t) "-m";
	p->argv[n++] = buf + cpu_len;
	for (i = 0; mode->eal_args[i] != NULL; i++)
		p->argv[n++] = (char *)(uintptr_t)mode->eal_args[i];
	p->argv[n] = NULL;
}

/* The API of a "Performance: NAME" heading. */
static int
table_api(const char *name, enum mperf_api *api)
{
	if (strstr(name, "zmalloc") != NULL)
		*api = MPERF_ZMALLOC;
	else if (strstr(name, "memzone") != NULL)
		*api = MPERF_MEMZONE;
	else if (strstr(name, "malloc") != NULL)
		*api = MPERF_MALLOC;
	else
		return -1;
	return 0;
}

/* Parse one line of malloc_perf_autotest's output. */
static int
table_line(struct mperf_dpdk *d, const char *line, enum mperf_api *api,
		bool *in_table)
{
	struct mperf_row row;
	double total;
	const char *s;

	if (strncmp(line, "USER1:", 6) == 0)
		line += 6;
	while (*line == ' ')
		line++;
	if (strncmp(line, "Performance:", 12) == 0) {
		*in_table = table_api(line + 12, api) == 0;
		return 0;
	}
	s = strstr(line, "<=>");
	if (strncmp(line, "Result:", 7) == 0 && s != NULL) {
		d->memset.us_per_mib = strtod(s + 3, NULL);
		if (d->memset.us_per_mib > 0)
			d->memset.gib_per_s = 1e6 / d->memset.us_per_mib / 1024;
		return 0;
	}
	memset(&row, 0, sizeof(row));
	if (!*in_table ||
			sscanf(line, "%zu %u %lf %lf %lf %lf", &row.size,
					&row.runs, &row.alloc_us, &row.free_us,
					&total, &row.memset_us) != 6)
		return 0;
	row.api = *api;
	return mperf_rows_add(&d->rows, &row);
}

static int
table_parse(struct mperf_dpdk *d, char *out)
{
	enum mperf_api api = MPERF_MALLOC;
	bool in_table = false;
	char *line, *save;

	for (line = strtok_r(out, "\n", &save); line != NULL;
			line = strtok_r(NULL, "\n", &save))
		if (table_line(d, line, &api, &in_table) < 0)
			return -1;
	return 0;
}

int
mperf_dpdk_table_run(struct mperf_ctx *ctx)
{
	struct mperf_dpdk *d = &ctx->dpdk;
	char cpu[16], limit[256];
	const char *limit_opt;
	struct mperf_proc p;
	unsigned int n, i;
	int ret = -1;

	if (ctx->cap_mb < DPDK_TABLE_MIN_MB) {
		snprintf(d->note, sizeof(d->note),
				"no DPDK allocator table: malloc_perf_autotest needs %u MB, the cap is %u MB",
				DPDK_TABLE_MIN_MB, ctx->cap_mb);
		return -1;
	}
	n = dpdk_argv(ctx, &p, cpu, sizeof(cpu));
	p.timeout_s = DPDK_TABLE_TIMEOUT_S;
	p.env_add = "DPDK_TEST=malloc_perf_autotest";
	limit_opt = mperf_table_limit(ctx, limit, sizeof(limit));
	p.argv[n++] = (char *)(uintptr_t) "--huge-dir";
	p.argv[n++] = ctx->dpdk_dir;
	p.argv[n++] = (char *)(uintptr_t)limit_opt;
	p.argv[n++] = limit;
	for (i = 0; i < ctx->opts.n_eal_args && n < MPERF_MAX_ARGV - 1; i++)
		p.argv[n++] = ctx->opts.eal_args[i];
	p.argv[n] = NULL;
	mperf_progress(ctx,
			"DPDK allocator table: DPDK_TEST=malloc_perf_autotest");
	for (i = 0; p.argv[i] != NULL; i++)
		mperf_progress(ctx, " %s", p.argv[i]);
	mperf_progress(ctx, "\n");
	if (mperf_proc_run(&p) < 0 || p.output == NULL ||
			strstr(p.output, "Test OK") == NULL) {
		mperf_proc_report(&p, "dpdk-test malloc_perf_autotest");
		snprintf(d->note, sizeof(d->note),
				"no DPDK allocator table: malloc_perf_autotest failed (exit status %d)",
				p.status);
	} else if (table_parse(d, p.output) < 0 || d->rows.n == 0) {
		snprintf(d->note, sizeof(d->note),
				"no DPDK allocator table: no row found in the output of malloc_perf_autotest");
	} else {
		d->have_table = true;
		ret = 0;
	}
	mperf_proc_release(&p);
	mperf_dir_clear(ctx->dpdk_dir);
	return ret;
}

void
mperf_dpdk_cleanup(struct mperf_ctx *ctx)
{
	struct mperf_dpdk *d = &ctx->dpdk;
	char dir[PATH_MAX + 64];

	if (d->runtime_base[0] == '\0' || ctx->prefix[0] == '\0')
		return;
	snprintf(dir, sizeof(dir), "%s/%s", d->runtime_base, ctx->prefix);
	if (mperf_dir_clear(dir) == 0 && rmdir(dir) != 0 && errno != ENOENT)
		fprintf(stderr, "%s: cannot remove %s: %s\n", MPERF_PROG, dir,
				strerror(errno));
	/* Only if we made it, and only if nobody else uses it now. */
	if (!d->runtime_base_existed)
		rmdir(d->runtime_base);
}
