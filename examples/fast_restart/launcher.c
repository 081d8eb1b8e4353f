/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * The launcher: the process the user starts. It reads the EAL options
 * only as far as it must (the file prefix, the hugetlbfs directory, the
 * --huge-unlink mode and the memory asked for), never initializes the
 * EAL, and runs this program again for each start: fork(), then exec of
 * /proc/self/exe with FR_ENV_ROLE set.
 *
 * Times: the launcher takes CLOCK_MONOTONIC just before fork(); the
 * start takes it when rte_eal_init() returns, when its pools are
 * allocated, when they are written, and before exit; the launcher again
 * once it has reaped the start. CLOCK_MONOTONIC is system-wide, so all
 * stamps are on one line: "init" includes fork, exec and loading the
 * libraries, as a user restarting an application sees it.
 *
 * Files: the first start must be cold, so the launcher first runs itself
 * in the default --huge-unlink mode with no memory, which makes the EAL
 * remove the files this prefix left (the EAL knows which ones a live
 * process holds, and refuses to run on a prefix in use). At the end it
 * does the same to give the hugepages back, unless --keep-files.
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rte_eal.h>

#include "fast_restart.h"

/* What the launcher needs to know of the EAL options. */
struct eal_view {
	const char *file_prefix; /* --file-prefix, NULL if not given */
	const char *huge_dir; /* --huge-dir, NULL if not given */
	const char *huge_unlink; /* --huge-unlink mode, NULL if not given */
	const char *mem_opt; /* "-m" or "--socket-mem" if given, else NULL */
	uint64_t mem_mb; /* what it asks for, in MB, over all nodes */
	const char *refused; /* --in-memory or --no-huge if given */
	const char *app_opt; /* an application option found before "--" */
	bool help; /* -h or --help */
	int keep[32]; /* indexes of arguments the clean-up run gets too */
	unsigned int n_keep;
};

/* An argument vector under construction, NULL-terminated. */
struct arg_vec {
	char **v; /* the arguments */
	int n; /* number of arguments */
};

/* The result of one start. */
struct start_row {
	struct fr_report r; /* what the start reported */
	bool reported; /* r is valid */
	uint64_t t_fork; /* launcher's stamp before fork() */
	uint64_t t_reaped; /* launcher's stamp once the start was reaped */
	int status; /* wait status */
};

struct launcher {
	char exe[PATH_MAX]; /* this program, run again for each child */
	struct fr_options o; /* application options */
	struct eal_view ev; /* EAL options, as far as read */
	const char *prefix; /* file prefix of every start */
	struct fr_huge_dirs dirs; /* where the hugepage files are */
	struct arg_vec start_args; /* arguments of each start */
	struct arg_vec clean_args; /* arguments of the clean-up runs */
	char mem_arg[32]; /* -m value added, if any */
	struct start_row *rows; /* one per start */
	unsigned int n_rows; /* starts run */
};

/* Long name of each EAL option that takes a value. */
static const char *const eal_value_opts[] = { "memory", "socket-mem",
	"socket-limit", "huge-dir", "file-prefix", "iova-mode", "base-virtaddr",
	"log-level", "lcores" };

static bool
eal_opt_takes_value(const char *name)
{
	unsigned int k;

	for (k = 0; k < sizeof(eal_value_opts) / sizeof(eal_value_opts[0]); k++)
		if (strcmp(name, eal_value_opts[k]) == 0)
			return true;
	return false;
}

/* The long name of EAL option -@p c, or "" for a letter rtemem lacks. */
static const char *
short_opt_name(char c)
{
	switch (c) {
	case 'm':
		return "memory";
	case 'l':
		return "lcores";
	case 'h':
		return "help";
	default:
		return "";
	}
}

/*
 * Read the EAL argument at argv[*i] into its long option name (or "" if
 * it is not an option rtemem knows by letter) and value, moving *i past
 * both.
 */
static void
eal_arg_split(int argc, char **argv, int *i, char *name, size_t len,
		const char **value)
{
	const char *arg = argv[(*i)++];
	size_t n;

	*value = NULL;
	name[0] = '\0';
	if (arg[0] == '-' && arg[1] == '-') {
		n = strcspn(arg + 2, "=");
		snprintf(name, len, "%.*s", (int)n, arg + 2);
		if (arg[2 + n] == '=')
			*value = arg + 3 + n;
	} else if (arg[0] == '-' && arg[1] != '\0') {
		snprintf(name, len, "%s", short_opt_name(arg[1]));
		if (arg[2] != '\0')
			*value = arg + 2;
	}
	if (*value == NULL && eal_opt_takes_value(name) && *i < argc)
		*value = argv[(*i)++];
}

/* Add a memory amount ("512", "2G", "1,1024") to *mb, in MB. */
static void
mem_add(const char *s, uint64_t *mb)
{
	unsigned long long x;
	char *end;

	while (s != NULL && *s != '\0') {
		x = strtoull(s, &end, 10);
		if (*end == 'G' || *end == 'g')
			x <<= 10;
		else if (*end == 'K' || *end == 'k')
			x = (x + 1023) >> 10;
		*mb += x;
		s = strchr(end, ',');
		if (s != NULL)
			s++;
	}
}

/* Note EAL option @p name with @p value, found at argv[first]. */
static void
eal_view_note(struct eal_view *v, const char *name, const char *value,
		int first, int next)
{
	if (strcmp(name, "file-prefix") == 0) {
		v->file_prefix = value;
	} else if (strcmp(name, "huge-dir") == 0) {
		v->huge_dir = value;
	} else if (strcmp(name, "huge-unlink") == 0) {
		v->huge_unlink = value != NULL ? value : "always";
	} else if (strcmp(name, "memory") == 0 ||
			strcmp(name, "socket-mem") == 0) {
		v->mem_opt = name[0] == 'm' ? "-m" : "--socket-mem";
		v->mem_mb = 0;
		mem_add(value, &v->mem_mb);
	} else if (strcmp(name, "in-memory") == 0 ||
			strcmp(name, "no-huge") == 0) {
		v->refused = name[0] == 'i' ? "--in-memory" : "--no-huge";
	} else if (strcmp(name, "help") == 0) {
		v->help = true;
	} else if (strcmp(name, "log-level") == 0 ||
			strcmp(name, "lcores") == 0) {
		for (; first < next && v->n_keep < 32; first++)
			v->keep[v->n_keep++] = first;
	}
}

/* Read the EAL arguments argv[1..argc). */
static void
eal_view_read(int argc, char **argv, struct eal_view *v)
{
	const char *value;
	char name[64];
	int i = 1, first;

	memset(v, 0, sizeof(*v));
	while (i < argc) {
		first = i;
		if (fr_is_app_option(argv[i]) && v->app_opt == NULL)
			v->app_opt = argv[i];
		eal_arg_split(argc, argv, &i, name, sizeof(name), &value);
		eal_view_note(v, name, value, first, i);
	}
}

/* Refuse what would not show warm restarts. @return 0 or -1 */
static int
eal_view_check(const struct eal_view *v)
{
	if (v->app_opt != NULL) {
		fprintf(stderr, "fast_restart: %s is an application option: give it after \"--\" (fast_restart [EAL options] -- %s ...)\n",
				v->app_opt, v->app_opt);
		return -1;
	}
	if (v->huge_unlink != NULL && strcmp(v->huge_unlink, "never") != 0) {
		fprintf(stderr, "fast_restart: --huge-unlink=%s removes the hugepage files, so no restart could reuse them: leave the option out (fast_restart adds --huge-unlink=never)\n",
				v->huge_unlink);
		return -1;
	}
	if (v->refused != NULL) {
		fprintf(stderr, "fast_restart: %s leaves no hugepage file to reuse, so every start would be cold: leave it out\n",
				v->refused);
		return -1;
	}
	return 0;
}

static void
vec_push(struct arg_vec *a, const char *s)
{
	a->v[a->n++] = (char *)(uintptr_t)s;
	a->v[a->n] = NULL;
}

/*
 * The arguments of a start: the user's EAL options, what is missing,
 * "--", the application options. @p dd is the index of "--" (or argc).
 */
static void
start_args_build(struct launcher *l, int argc, char **argv, int dd)
{
	struct arg_vec *a = &l->start_args;
	int i;

	for (i = 0; i < dd; i++)
		vec_push(a, argv[i]);
	if (l->ev.file_prefix == NULL) {
		vec_push(a, "--file-prefix");
		vec_push(a, l->prefix);
	}
	if (l->ev.huge_unlink == NULL)
		vec_push(a, "--huge-unlink=never");
	if (l->ev.mem_opt == NULL) {
		snprintf(l->mem_arg, sizeof(l->mem_arg), "%" PRIu64,
				l->o.size_mb + FR_HEADROOM_MB);
		vec_push(a, "-m");
		vec_push(a, l->mem_arg);
	}
	vec_push(a, "--");
	for (i = dd + 1; i < argc; i++)
		vec_push(a, argv[i]);
}

/* The arguments of a clean-up run: default mode, no memory. */
static void
clean_args_build(struct launcher *l, char **argv)
{
	struct arg_vec *a = &l->clean_args;
	unsigned int k;

	vec_push(a, argv[0]);
	vec_push(a, "--file-prefix");
	vec_push(a, l->prefix);
	if (l->ev.huge_dir != NULL) {
		vec_push(a, "--huge-dir");
		vec_push(a, l->ev.huge_dir);
	}
	for (k = 0; k < l->ev.n_keep; k++)
		vec_push(a, argv[l->ev.keep[k]]);
	vec_push(a, "-m");
	vec_push(a, "0");
}

/*
 * Run this program again with @p argv in role @p role, keeping @p fd
 * (if not -1) open in it. @return the child's pid, or -1.
 */
static pid_t
spawn(const struct launcher *l, char **argv, const char *role, int fd)
{
	pid_t pid = fork();

	if (pid != 0)
		return pid;
	if (fd >= 0)
		fcntl(fd, F_SETFD, 0);
	setenv(FR_ENV_ROLE, role, 1);
	execv(l->exe, argv);
	fprintf(stderr, "fast_restart: cannot run %s: %s\n", l->exe,
			strerror(errno));
	_exit(127);
}

/*
 * Find this program's file: exec'ing it by name rather than through
 * /proc/self/exe keeps its name in ps and top.
 */
static void
exe_find(struct launcher *l)
{
	ssize_t n = readlink("/proc/self/exe", l->exe, sizeof(l->exe) - 1);

	if (n <= 0 || (size_t)n >= sizeof(l->exe) - 1)
		snprintf(l->exe, sizeof(l->exe), "/proc/self/exe");
	else
		l->exe[n] = '\0';
}

/* Wait for child @p pid. @return its wait status */
static int
reap(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0) {
		if (errno == EINTR)
			continue;
		fprintf(stderr, "fast_restart: waitpid: %s\n", strerror(errno));
		return 127 << 8; /* as if it exited with status 127 */
	}
	return status;
}

static bool
status_ok(int status)
{
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static const char *
status_describe(int status, char *buf, size_t len)
{
	if (WIFSIGNALED(status))
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(status),
				strsignal(WTERMSIG(status)));
	else
		snprintf(buf, len, "exit status %d", WEXITSTATUS(status));
	return buf;
}

static const char *
plural(unsigned int n)
{
	return n == 1 ? "" : "s";
}

/* Remove the prefix's files: a run in the default mode. @return 0 or -1 */
static int
files_remove(struct launcher *l, struct fr_file_tally *before)
{
	struct fr_file_tally after;
	char why[64];
	pid_t pid;
	int status;

	fr_files_tally(&l->dirs, l->prefix, before);
	if (before->files == 0)
		return 0;
	pid = spawn(l, l->clean_args.v, "clean", -1);
	if (pid < 0) {
		fprintf(stderr, "fast_restart: fork: %s\n", strerror(errno));
		return -1;
	}
	status = reap(pid);
	fr_files_tally(&l->dirs, l->prefix, &after);
	if (status_ok(status) && after.files == 0)
		return 0;
	if (!status_ok(status))
		fprintf(stderr, "fast_restart: the run that removes the hugepage files of prefix '%s' failed (%s)\n",
				l->prefix,
				status_describe(status, why, sizeof(why)));
	if (after.files > 0)
		fprintf(stderr,
				"fast_restart: %u hugepage file%s (%" PRIu64
				" MB) of prefix '%s' %s left\n",
				after.files, plural(after.files),
				after.bytes / FR_MB, l->prefix,
				after.files == 1 ? "is" : "are");
	return -1;
}

/* Read exactly @p len bytes unless the writer closes first. */
static size_t
read_full(int fd, void *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		n = read(fd, (char *)buf + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	return got;
}

/* Run start number @p n into @p row. @return 0 if it succeeded */
static int
start_run(struct launcher *l, unsigned int n, struct start_row *row)
{
	char role[64], why[64];
	int fds[2];
	pid_t pid;

	/* The read end stays here; spawn() lets the start keep the other. */
	if (pipe(fds) != 0) {
		fprintf(stderr, "fast_restart: pipe: %s\n", strerror(errno));
		return -1;
	}
	fcntl(fds[0], F_SETFD, FD_CLOEXEC);
	fcntl(fds[1], F_SETFD, FD_CLOEXEC);
	snprintf(role, sizeof(role), "start,%u,%d", n, fds[1]);
	row->t_fork = fr_now_ns();
	pid = spawn(l, l->start_args.v, role, fds[1]);
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		fprintf(stderr, "fast_restart: fork: %s\n", strerror(errno));
		return -1;
	}
	row->reported = read_full(fds[0], &row->r, sizeof(row->r)) ==
					sizeof(row->r) &&
			row->r.magic == FR_REPORT_MAGIC && row->r.start == n;
	close(fds[0]);
	row->status = reap(pid);
	row->t_reaped = fr_now_ns();
	if (WIFEXITED(row->status) &&
			WEXITSTATUS(row->status) == FR_EXIT_NOT_ZERO)
		fprintf(stderr, "fast_restart: start %u failed: rte_zmalloc() memory was not zero\n",
				n);
	else if (!status_ok(row->status) || !row->reported)
		fprintf(stderr, "fast_restart: start %u failed (%s)\n", n,
				status_describe(row->status, why, sizeof(why)));
	return status_ok(row->status) && row->reported ? 0 : -1;
}

static double
ms(uint64_t from, uint64_t to)
{
	return to > from ? (double)(to - from) / 1e6 : 0.0;
}

/* Time from fork() to the pools being ready, in ms. */
static double
ready_ms(const struct start_row *row)
{
	return ms(row->t_fork, row->r.t_pools);
}

static uint64_t
mb_round(uint64_t bytes)
{
	return (bytes + FR_MB / 2) / FR_MB;
}

static void
table_print(const struct launcher *l)
{
	const struct start_row *row;
	unsigned int i;

	printf("%5s  %-4s  %8s  %8s  %8s  %8s  %9s  %8s  %10s\n", "start",
			"kind", "init ms", "pools ms", "touch ms", "total ms",
			"mapped MB", "dirty MB", "cleared MB");
	for (i = 0; i < l->n_rows; i++) {
		row = &l->rows[i];
		if (!row->reported)
			continue;
		printf("%5u  %-4s  %8.1f  %8.1f  %8.1f  %8.1f  %9" PRIu64
		       "  %8" PRIu64 "  %10" PRIu64 "\n",
				row->r.start, i == 0 ? "cold" : "warm",
				ms(row->t_fork, row->r.t_init),
				ms(row->r.t_init, row->r.t_pools),
				ms(row->r.t_pools, row->r.t_touched),
				ms(row->t_fork, row->t_reaped),
				mb_round(row->r.mapped), mb_round(row->r.dirty),
				mb_round(row->r.cleared));
	}
	printf("init      fork, exec, until rte_eal_init() returned\n"
	       "pools     rte_zmalloc() %" PRIu64 " MB, reserve %" PRIu64
	       " MB of memzones\n"
	       "touch     check the rte_zmalloc() memory is zero, write all\n"
	       "total     fork to exit, serving %u ms included\n"
	       "mapped    hugepage memory mapped once the pools are allocated\n"
	       "dirty     of which mapped from kept files (RTE_MEMSEG_FLAG_DIRTY)\n"
	       "cleared   bytes rte_zmalloc() cleared (heap statistic)\n",
			l->o.size_mb / 2, l->o.size_mb - l->o.size_mb / 2,
			l->o.serve_ms);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median of @p n values (sorted in place). */
static double
median(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One line: cold against the median warm start, and what looks wrong. */
static void
summary_print(const struct launcher *l)
{
	double ready[FR_MAX_RESTARTS], init[FR_MAX_RESTARTS], cold, warm;
	double cold_init, warm_init;
	const struct start_row *row;
	unsigned int i, n = 0;

	for (i = 1; i < l->n_rows; i++) {
		row = &l->rows[i];
		ready[n] = ready_ms(row);
		init[n++] = ms(row->t_fork, row->r.t_init);
		if (row->r.dirty == 0)
			printf("note: start %u found no dirty memory: the files of the start before were not reused\n",
					row->r.start);
	}
	for (i = 0; i < l->n_rows; i++) {
		row = &l->rows[i];
		if (row->r.mapped > row->r.mapped_init)
			printf("note: start %u mapped %" PRIu64
			       " MB more while allocating its pools: the memory mapped at init (-m) was short\n",
					row->r.start,
					mb_round(row->r.mapped -
							row->r.mapped_init));
	}
	row = &l->rows[0];
	if (row->r.dirty != 0)
		printf("note: the cold start found %" PRIu64
		       " MB dirty: the files of an earlier run were reused\n",
				mb_round(row->r.dirty));
	cold = ready_ms(row);
	if (n == 0) {
		printf("ready (fork to pools allocated): %.1f ms cold; no warm restart (--restarts 0)\n",
				cold);
		return;
	}
	warm = median(ready, n);
	warm_init = median(init, n);
	cold_init = ms(row->t_fork, row->r.t_init);
	printf("ready (fork to pools allocated): %.1f ms cold, %.1f ms warm (median of %u), speed-up %.1fx; rte_eal_init() alone: %.1f ms cold, %.1f ms warm, speed-up %.1fx\n",
			cold, warm, n, warm > 0 ? cold / warm : 0.0, cold_init,
			warm_init, warm_init > 0 ? cold_init / warm_init : 0.0);
}

static void
failure_print(const struct start_row *row, unsigned int n)
{
	char why[64];

	if (WIFEXITED(row->status) &&
			WEXITSTATUS(row->status) == FR_EXIT_NOT_ZERO)
		printf("FAILED: start %u: rte_zmalloc() returned memory that was not zero\n",
				n);
	else
		printf("FAILED: start %u: %s\n", n,
				status_describe(row->status, why, sizeof(why)));
}

/* Run the starts one after the other. @return 0 if all succeeded */
static int
starts_run(struct launcher *l)
{
	unsigned int n_starts = l->o.restarts + 1, i;
	int ret = 0;

	for (i = 0; i < n_starts && ret == 0; i++) {
		fprintf(stderr, "fast_restart: start %u of %u (%s)\n", i + 1,
				n_starts, i == 0 ? "cold" : "warm");
		ret = start_run(l, i + 1, &l->rows[i]);
		l->n_rows++;
	}
	if (l->rows[0].reported)
		table_print(l);
	if (ret == 0)
		summary_print(l);
	else
		failure_print(&l->rows[l->n_rows - 1], l->n_rows);
	fflush(stdout);
	return ret;
}

/* Print the start's command line, so it can be run by hand. */
static void
command_print(const struct launcher *l)
{
	int i;

	fprintf(stderr, "fast_restart: each start runs:");
	for (i = 0; i < l->start_args.n; i++)
		fprintf(stderr, " %s", l->start_args.v[i]);
	fprintf(stderr, "\n");
}

/* Everything before the starts. @return 0, or the exit status */
static int
launch_prepare(struct launcher *l, int argc, char **argv)
{
	char why[96];
	int dd;
	uint64_t need;

	for (dd = 1; dd < argc && strcmp(argv[dd], "--") != 0; dd++)
		;
	eal_view_read(dd, argv, &l->ev);
	if (fr_options_parse(dd < argc ? argc - dd - 1 : 0, argv + dd + 1,
			    &l->o) < 0)
		return 2;
	if (l->o.help || l->ev.help) {
		fr_usage(stdout, argv[0]);
		printf("\n");
		fflush(stdout);
		/* rte_eal_init() prints the EAL options and exits. */
		rte_eal_init(2, (char *[]){ argv[0], (char *)"--help", NULL });
		return EXIT_SUCCESS;
	}
	if (eal_view_check(&l->ev) < 0)
		return 2;
	l->prefix = l->ev.file_prefix != NULL ? l->ev.file_prefix :
						FR_DEFAULT_PREFIX;
	if (fr_huge_dirs_find(l->ev.huge_dir, &l->dirs) < 0)
		return EXIT_FAILURE;
	need = l->o.size_mb + FR_HEADROOM_MB;
	snprintf(why, sizeof(why), "--size %" PRIu64 " and %u MB for the heap",
			l->o.size_mb, FR_HEADROOM_MB);
	if (l->ev.mem_opt != NULL && l->ev.mem_mb > need) {
		need = l->ev.mem_mb;
		snprintf(why, sizeof(why), "%s", l->ev.mem_opt);
	}
	if (fr_huge_check_fit(&l->dirs, l->prefix, need, why) < 0)
		return EXIT_FAILURE;
	l->start_args.v = calloc((size_t)argc + 16, sizeof(char *));
	l->clean_args.v = calloc(48, sizeof(char *));
	l->rows = calloc(l->o.restarts + 1, sizeof(*l->rows));
	if (l->start_args.v == NULL || l->clean_args.v == NULL ||
			l->rows == NULL) {
		fprintf(stderr, "fast_restart: out of memory\n");
		return EXIT_FAILURE;
	}
	exe_find(l);
	start_args_build(l, argc, argv, dd);
	clean_args_build(l, argv);
	return 0;
}

/* Before the first start: no file of the prefix may be left. */
static int
make_cold(struct launcher *l)
{
	struct fr_file_tally t;

	if (files_remove(l, &t) < 0)
		return -1;
	if (t.files > 0)
		fprintf(stderr,
				"fast_restart: removed %u hugepage file%s (%" PRIu64
				" MB) of prefix '%s' left by an earlier run, so that the first start is cold\n",
				t.files, plural(t.files), t.bytes / FR_MB,
				l->prefix);
	return 0;
}

/* After the last start: give the hugepages back, or say where they are. */
static int
finish(struct launcher *l)
{
	struct fr_file_tally t;
	unsigned int i;

	if (l->o.keep_files) {
		fr_files_tally(&l->dirs, l->prefix, &t);
		fprintf(stderr,
				"fast_restart: kept %u hugepage file%s (%" PRIu64
				" MB) of prefix '%s' in",
				t.files, plural(t.files), t.bytes / FR_MB,
				l->prefix);
		for (i = 0; i < l->dirs.n; i++)
			fprintf(stderr, " %s", l->dirs.path[i]);
		fprintf(stderr, ": a start with --huge-unlink=never maps them again; one in the default mode removes them\n");
		return 0;
	}
	if (files_remove(l, &t) < 0)
		return -1;
	if (t.files == 0)
		return 0;
	fprintf(stderr,
			"fast_restart: removed %u hugepage file%s (%" PRIu64
			" MB) of prefix '%s': the hugepages are free again\n",
			t.files, plural(t.files), t.bytes / FR_MB, l->prefix);
	return 0;
}

int
fr_launch(int argc, char **argv)
{
	struct launcher l;
	int ret;

	memset(&l, 0, sizeof(l));
	ret = launch_prepare(&l, argc, argv);
	if (ret == 0) {
		command_print(&l);
		ret = make_cold(&l) < 0 ? EXIT_FAILURE : 0;
	}
	if (ret == 0) {
		ret = starts_run(&l) < 0 ? EXIT_FAILURE : 0;
		if (finish(&l) < 0)
			ret = EXIT_FAILURE;
	}
	free(l.start_args.v);
	free(l.clean_args.v);
	free(l.rows);
	return ret;
}
