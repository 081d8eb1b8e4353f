/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Child processes, the run's environment (program name, --file-prefix,
 * --huge-dir), hugetlbfs scratch directories and the hugepage skip helper.
 *
 * A child is this program again (/proc/self/exe) with RTEMEM_TEST_CHILD set
 * to an action name; its stdout and stderr share one pipe that the parent
 * drains into a buffer keeping the last bytes. A child started with
 * test_child_start() also gets the write end of a "ready" pipe, whose
 * number it finds in RTEMEM_TEST_READY_FD: one byte written there means
 * ready, end of file without a byte means it exited first.
 *
 * Everything the child side does between fork() and execve() is
 * async-signal-safe (the parent may have lcore threads): argv and envp are
 * built before fork().
 *
 * Process-wide state (the only mutable globals of this file): the run's
 * arguments, set once by main() before any test runs, and the list of
 * children started and not yet finished. Not thread-safe: tests start and
 * finish children from the main lcore.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <linux/magic.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test.h"

extern char **environ;

#define ENV_CHILD "RTEMEM_TEST_CHILD"
#define ENV_READY_FD "RTEMEM_TEST_READY_FD"
#define ENV_TESTS "RTEMEM_TEST"
#define ENV_TIMEOUT "RTEMEM_TEST_CHILD_TIMEOUT"
#define ENV_HUGE_ROOT "RTEMEM_TEST_HUGE_ROOT"
#define ENV_NO_SKIP "RTEMEM_TEST_NO_SKIP"

/* Reads of one child's output per wait round: bounds a chatty child. */
#define DRAIN_MAX_READS 64

/* What main() gave rte_eal_init(); strings point into its argv. */
static struct {
	const char *argv0; /* program name, argv[0] of children */
	const char *file_prefix; /* --file-prefix value, or NULL */
	const char *huge_dir; /* --huge-dir value, or NULL */
	int ready_fd; /* in a child: write end of the ready pipe, or -1 */
} test_env = { .ready_fd = -1 };

/* A running child and what it said so far. */
struct test_child {
	TAILQ_ENTRY(test_child) next; /* in started_children */
	pid_t pid;
	int out_fd; /* read end of its stdout+stderr, -1 after EOF */
	int ready_fd; /* read end of its ready pipe, -1 if none or closed */
	bool reaped; /* waitpid() collected it; res.exit_code/signal valid */
	size_t len; /* bytes in res.output */
	struct timespec deadline; /* CLOCK_MONOTONIC time to kill it at */
	struct test_child_result res;
};

/* Children between test_child_start() and test_child_finish(). */
static TAILQ_HEAD(, test_child) started_children = TAILQ_HEAD_INITIALIZER(
		started_children);

/* ---- the run's arguments ---- */

const char *
test_args_find(int argc, char *const argv[], const char *opt)
{
	size_t len = strlen(opt);
	const char *val = NULL;
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strncmp(argv[i], opt, len) != 0)
			continue;
		if (argv[i][len] == '=')
			val = argv[i] + len + 1;
		else if (argv[i][len] == '\0')
			val = i + 1 < argc ? argv[++i] : NULL;
	}
	return val;
}

bool
test_args_has(int argc, char *const argv[], const char *opt)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], opt) == 0)
			return true;
	return false;
}

void
test_env_set_args(int argc, char *const argv[])
{
	test_env.argv0 = argv[0];
	test_env.file_prefix = test_args_find(argc, argv, "--file-prefix");
	test_env.huge_dir = test_args_find(argc, argv, "--huge-dir");
}

void
test_env_take_ready_fd(void)
{
	const char *s = getenv(ENV_READY_FD);
	char *end;
	long fd;

	if (s == NULL)
		return;
	fd = strtol(s, &end, 10);
	/* Keep it from this child's own children. */
	if (*s != '\0' && *end == '\0' && fd > 2 && fd < INT_MAX &&
			fcntl((int)fd, F_SETFD, FD_CLOEXEC) == 0)
		test_env.ready_fd = (int)fd;
	unsetenv(ENV_READY_FD);
}

const char *
test_file_prefix(void)
{
	return test_env.file_prefix;
}

const char *
test_huge_dir(void)
{
	return test_env.huge_dir;
}

/* ---- child side ---- */

void
test_child_ready(void)
{
	const char token = 'R';

	if (test_env.ready_fd < 0) {
		printf("test_child_ready: not started by test_child_start()\n");
		return;
	}
	fflush(NULL);
	if (write(test_env.ready_fd, &token, 1) != 1)
		printf("test_child_ready: %s\n", strerror(errno));
	close(test_env.ready_fd);
	test_env.ready_fd = -1;
}

void
test_child_ready_hold(void)
{
	sigset_t set;
	int sig;

	/* Blocked before the parent hears of it, so it cannot be missed. */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	test_child_ready();
	sigwait(&set, &sig);
}

/* ---- parent side: starting ---- */

/* argv and envp of a child, built before fork(). */
struct spawn_args {
	char **argv;
	char **envp;
	char child_var[256]; /* RTEMEM_TEST_CHILD=<action> */
	char ready_var[64]; /* RTEMEM_TEST_READY_FD=<fd> */
};

/* @return true for the variables the runner sets for each child. */
static bool
env_is_runner_var(const char *var)
{
	static const char *const vars[] = {
		ENV_CHILD "=",
		ENV_READY_FD "=",
		ENV_TESTS "=",
	};
	size_t i;

	for (i = 0; i < RTE_DIM(vars); i++)
		if (strncmp(var, vars[i], strlen(vars[i])) == 0)
			return true;
	return false;
}

static void
spawn_args_free(struct spawn_args *sa)
{
	free(sa->argv);
	free(sa->envp);
}

static int
spawn_args_build(struct spawn_args *sa, const char *action,
		const char *const args[], int ready_fd)
{
	size_t nargs = 0, nenv = 0, i, j = 0;
	int len;

	while (args != NULL && args[nargs] != NULL)
		nargs++;
	while (environ[nenv] != NULL)
		nenv++;
	len = snprintf(sa->child_var, sizeof(sa->child_var), "%s=%s", ENV_CHILD,
			action != NULL ? action : "");
	if (len < 0 || (size_t)len >= sizeof(sa->child_var))
		return -ENAMETOOLONG;
	snprintf(sa->ready_var, sizeof(sa->ready_var), "%s=%d", ENV_READY_FD,
			ready_fd);
	sa->argv = calloc(nargs + 2, sizeof(*sa->argv));
	sa->envp = calloc(nenv + 3, sizeof(*sa->envp));
	if (sa->argv == NULL || sa->envp == NULL) {
		spawn_args_free(sa);
		return -ENOMEM;
	}
	sa->argv[0] = (char *)(test_env.argv0 != NULL ? test_env.argv0 :
							"rtemem-test");
	for (i = 0; i < nargs; i++)
		sa->argv[i + 1] = (char *)args[i];
	for (i = 0; i < nenv; i++)
		if (!env_is_runner_var(environ[i]))
			sa->envp[j++] = environ[i];
	sa->envp[j++] = sa->child_var;
	if (ready_fd >= 0)
		sa->envp[j++] = sa->ready_var;
	return 0;
}

/* In the forked child: only async-signal-safe calls. */
static __rte_noreturn void
child_exec(const struct spawn_args *sa, int in_fd, int out_fd, int ready_fd)
{
	static const char msg[] = "rtemem-test: cannot exec /proc/self/exe\n";

	if (dup2(in_fd, STDIN_FILENO) < 0 || dup2(out_fd, STDOUT_FILENO) < 0 ||
			dup2(out_fd, STDERR_FILENO) < 0 ||
			(ready_fd >= 0 && fcntl(ready_fd, F_SETFD, 0) < 0))
		_exit(127);
	execve("/proc/self/exe", sa->argv, sa->envp);
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(127);
	_exit(127);
}

static unsigned int
child_timeout_s(void)
{
	const char *s = getenv(ENV_TIMEOUT);
	unsigned long v;
	char *end;

	if (s == NULL || *s == '\0')
		return TEST_CHILD_TIMEOUT_S;
	v = strtoul(s, &end, 10);
	if (*end != '\0' || v == 0 || v > 86400)
		return TEST_CHILD_TIMEOUT_S;
	return (unsigned int)v;
}

static void
child_set_deadline(struct test_child *c)
{
	clock_gettime(CLOCK_MONOTONIC, &c->deadline);
	c->deadline.tv_sec += child_timeout_s();
}

/*
 * Open the pipes of a new child: their read ends go to @p c (non-blocking,
 * close-on-exec), their write ends to @p out_w and @p ready_w.
 */
static int
child_pipes_open(
		struct test_child *c, bool want_ready, int *out_w, int *ready_w)
{
	int p[2];

	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	c->out_fd = p[0];
	*out_w = p[1];
	if (want_ready) {
		if (pipe2(p, O_CLOEXEC) < 0)
			return -errno;
		c->ready_fd = p[0];
		*ready_w = p[1];
		fcntl(c->ready_fd, F_SETFL, O_NONBLOCK);
	}
	fcntl(c->out_fd, F_SETFL, O_NONBLOCK);
	return 0;
}

static void
child_free(struct test_child *c)
{
	if (c->out_fd >= 0)
		close(c->out_fd);
	if (c->ready_fd >= 0)
		close(c->ready_fd);
	free(c);
}

static void
result_set_error(struct test_child_result *res, const char *what, int err)
{
	res->exit_code = -1;
	res->signal = 0;
	snprintf(res->output, sizeof(res->output), "rtemem-test: %s: %s\n",
			what, strerror(err));
	printf("%s", res->output);
}

static void
close_if_open(int fd)
{
	if (fd >= 0)
		close(fd);
}

/* Fork and exec a child. @return it, or NULL with @p res saying why. */
static struct test_child *
child_spawn(const char *action, const char *const args[], bool want_ready,
		struct test_child_result *res)
{
	int out_w = -1, ready_w = -1, in_fd = -1, ret;
	struct spawn_args sa = { 0 };
	struct test_child *c;

	c = calloc(1, sizeof(*c));
	if (c == NULL) {
		result_set_error(res, "cannot start child", ENOMEM);
		return NULL;
	}
	c->out_fd = c->ready_fd = -1;
	c->res.exit_code = -1;
	ret = child_pipes_open(c, want_ready, &out_w, &ready_w);
	if (ret == 0) {
		in_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
		ret = in_fd < 0 ? -errno : 0;
	}
	if (ret == 0)
		ret = spawn_args_build(&sa, action, args, ready_w);
	if (ret == 0) {
		fflush(NULL);
		c->pid = fork();
		if (c->pid == 0)
			child_exec(&sa, in_fd, out_w, ready_w);
		ret = c->pid < 0 ? -errno : 0;
		spawn_args_free(&sa);
	}
	close_if_open(out_w);
	close_if_open(ready_w);
	close_if_open(in_fd);
	if (ret < 0) {
		result_set_error(res, "cannot start child", -ret);
		child_free(c);
		return NULL;
	}
	child_set_deadline(c);
	return c;
}

/* ---- parent side: waiting ---- */

/* Append to the output, keeping the last bytes when it is full. */
static void
child_output_append(struct test_child *c, const char *data, size_t n)
{
	const size_t cap = sizeof(c->res.output) - 1;
	char *out = c->res.output;

	size_t drop;

	if (n > cap) {
		data += n - cap;
		n = cap;
	}
	if (c->len + n > cap) {
		drop = c->len + n - cap;
		memmove(out, out + drop, c->len - drop);
		c->len -= drop;
	}
	memcpy(out + c->len, data, n);
	c->len += n;
	out[c->len] = '\0';
}

/* Read what the child wrote so far; close the pipe at end of file. */
static void
child_drain(struct test_child *c)
{
	char buf[4096];
	ssize_t n;
	int i;

	for (i = 0; i < DRAIN_MAX_READS && c->out_fd >= 0; i++) {
		n = read(c->out_fd, buf, sizeof(buf));
		if (n > 0) {
			child_output_append(c, buf, (size_t)n);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		close(c->out_fd);
		c->out_fd = -1;
	}
}

/* @return true if the ready byte came. Closes the pipe at end of file. */
static bool
child_read_ready(struct test_child *c)
{
	char token;
	ssize_t n;

	if (c->ready_fd < 0)
		return false;
	n = read(c->ready_fd, &token, 1);
	if (n == 1 || (n < 0 && (errno == EAGAIN || errno == EINTR)))
		return n == 1;
	close(c->ready_fd);
	c->ready_fd = -1;
	return false;
}

static void
child_set_status(struct test_child *c, int status)
{
	c->reaped = true;
	if (WIFEXITED(status)) {
		c->res.exit_code = WEXITSTATUS(status);
		c->res.signal = 0;
	} else {
		c->res.exit_code = -1;
		c->res.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	}
}

/* @return true once the child is reaped. */
static bool
child_try_reap(struct test_child *c, bool block)
{
	pid_t ret;
	int status;

	do {
		ret = waitpid(c->pid, &status, block ? 0 : WNOHANG);
	} while (ret < 0 && errno == EINTR);
	if (ret == c->pid) {
		child_set_status(c, status);
	} else if (ret < 0) {
		/* Reaped behind our back (SIGCHLD ignored?): status lost. */
		c->reaped = true;
		c->res.exit_code = -1;
		c->res.signal = 0;
		printf("rtemem-test: waitpid(%d): %s\n", (int)c->pid,
				strerror(errno));
	}
	return c->reaped;
}

static int
ms_until(const struct timespec *t)
{
	struct timespec now;
	long long ms;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (long long)(t->tv_sec - now.tv_sec) * 1000 +
			(t->tv_nsec - now.tv_nsec) / 1000000;
	return ms > INT_MAX ? INT_MAX : (int)ms;
}

static int
child_kill_late(struct test_child *c)
{
	char msg[128];

	kill(c->pid, SIGKILL);
	child_try_reap(c, true);
	child_drain(c);
	snprintf(msg, sizeof(msg),
			"rtemem-test: child %d ran past the %u s timeout: killed\n",
			(int)c->pid, child_timeout_s());
	child_output_append(c, msg, strlen(msg));
	printf("%s", msg);
	return -1;
}

/*
 * Collect output until the child is reaped or, with @p until_ready, has
 * written its ready byte.
 *
 * @return 1 if ready, 0 if reaped, -1 if killed at the deadline.
 */
static int
child_wait(struct test_child *c, bool until_ready)
{
	struct pollfd p[2];
	nfds_t n;
	int ms;

	for (;;) {
		n = 0;
		if (c->out_fd >= 0)
			p[n++] = (struct pollfd){ .fd = c->out_fd,
				.events = POLLIN };
		if (until_ready && c->ready_fd >= 0)
			p[n++] = (struct pollfd){ .fd = c->ready_fd,
				.events = POLLIN };
		ms = ms_until(&c->deadline);
		if (ms <= 0)
			return child_kill_late(c);
		/* Without pipes left, poll for the exit every 10 ms. */
		poll(p, n, RTE_MIN(ms, n > 0 ? 100 : 10));
		child_drain(c);
		if (until_ready && child_read_ready(c))
			return 1;
		if (child_try_reap(c, false)) {
			child_drain(c);
			return 0;
		}
	}
}

int
test_child_run(const char *action, const char *const args[],
		struct test_child_result *res)
{
	struct test_child *c;
	int ret;

	c = child_spawn(action, args, false, res);
	if (c == NULL)
		return -1;
	ret = child_wait(c, false);
	*res = c->res;
	child_free(c);
	return ret < 0 ? -1 : 0;
}

pid_t
test_child_start(const char *action, const char *const args[],
		struct test_child_result *res)
{
	struct test_child *c;

	c = child_spawn(action, args, true, res);
	if (c == NULL)
		return -1;
	if (child_wait(c, true) != 1) {
		*res = c->res;
		child_free(c);
		return -1;
	}
	close(c->ready_fd);
	c->ready_fd = -1;
	*res = c->res;
	TAILQ_INSERT_TAIL(&started_children, c, next);
	return c->pid;
}

pid_t
test_child_spawn(const char *action, const char *const args[],
		struct test_child_result *res)
{
	struct test_child *c;

	c = child_spawn(action, args, false, res);
	if (c == NULL)
		return -1;
	TAILQ_INSERT_TAIL(&started_children, c, next);
	return c->pid;
}

int
test_child_finish(pid_t pid, int signal, struct test_child_result *res)
{
	struct test_child *c;
	int ret;

	TAILQ_FOREACH (c, &started_children, next)
		if (c->pid == pid)
			break;
	if (c == NULL) {
		printf("test_child_finish: %d is not a started child\n",
				(int)pid);
		return -1;
	}
	TAILQ_REMOVE(&started_children, c, next);
	if (signal != 0)
		kill(pid, signal);
	child_set_deadline(c);
	ret = child_wait(c, false);
	*res = c->res;
	child_free(c);
	return ret < 0 ? -1 : 0;
}

/* ---- hugetlbfs scratch directories ---- */

static bool
is_hugetlbfs(const char *dir)
{
	struct statfs st;

	return statfs(dir, &st) == 0 && st.f_type == HUGETLBFS_MAGIC;
}

/*
 * Where scratch directories go: $RTEMEM_TEST_HUGE_ROOT, else the directory
 * holding the run's --huge-dir, else the --huge-dir itself.
 */
static int
scratch_base(char *base, size_t len)
{
	const char *root = getenv(ENV_HUGE_ROOT);
	const char *huge_dir = test_huge_dir();
	char parent[PATH_MAX];
	const char *pick = NULL;

	if (root != NULL && is_hugetlbfs(root)) {
		pick = root;
	} else if (huge_dir != NULL && strlen(huge_dir) < sizeof(parent)) {
		strcpy(parent, huge_dir);
		if (is_hugetlbfs(dirname(parent)))
			pick = parent;
		else if (is_hugetlbfs(huge_dir))
			pick = huge_dir;
	}
	if (pick == NULL || strlen(pick) >= len)
		return -1;
	strcpy(base, pick);
	return 0;
}

/*
 * Remove every entry of @p dir, listing their names in @p names.
 * @return the number of entries found, or -errno.
 */
static int
dir_empty(const char *dir, char *names, size_t len)
{
	struct dirent *de;
	size_t used = 0;
	int n = 0;
	DIR *d;

	names[0] = '\0';
	d = opendir(dir);
	if (d == NULL)
		return -errno;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
				strcmp(de->d_name, "..") == 0)
			continue;
		if (used < len)
			used += snprintf(names + used, len - used, "%s%s",
					n > 0 ? " " : "", de->d_name);
		unlinkat(dirfd(d), de->d_name,
				de->d_type == DT_DIR ? AT_REMOVEDIR : 0);
		n++;
	}
	closedir(d);
	return n;
}

int
test_scratch_dir(const char *name, char *path, size_t len)
{
	const char *prefix = test_file_prefix();
	char base[PATH_MAX];
	char names[512];
	int ret;

	if (scratch_base(base, sizeof(base)) < 0)
		return -1;
	ret = snprintf(path, len, "%s/%s-%s", base,
			prefix != NULL ? prefix : "rte", name);
	if (ret < 0 || (size_t)ret >= len) {
		printf("scratch dir name too long for %s\n", name);
		return -1;
	}
	if (mkdir(path, 0700) == 0)
		return 0;
	if (errno != EEXIST) {
		printf("cannot create %s: %s\n", path, strerror(errno));
		return -1;
	}
	/* A crashed earlier run left it: its files hold hugepages. */
	if (dir_empty(path, names, sizeof(names)) > 0)
		printf("removed stale files in %s: %s\n", path, names);
	return 0;
}

int
test_scratch_dir_remove(const char *path)
{
	char names[1024];

	if (rmdir(path) == 0)
		return 0;
	if (errno != ENOTEMPTY && errno != EEXIST) {
		printf("cannot remove %s: %s\n", path, strerror(errno));
		return -1;
	}
	/* Report them, then free the hugepages they hold for later tests. */
	dir_empty(path, names, sizeof(names));
	printf("files left in %s: %s\n", path, names);
	rmdir(path);
	return -1;
}

uint64_t
test_huge_page_size(void)
{
	char base[PATH_MAX];
	struct statfs st;

	if (scratch_base(base, sizeof(base)) < 0 || statfs(base, &st) != 0)
		return 0;
	return (uint64_t)st.f_bsize;
}

int
test_huge_mem_arg(unsigned int pages, char *buf, size_t len)
{
	uint64_t sz = test_huge_page_size();
	int ret;

	if (sz == 0)
		return -1;
	ret = snprintf(buf, len, "%" PRIu64, (sz >> 20) * pages);
	return ret > 0 && (size_t)ret < len ? 0 : -1;
}

int
test_skip_hugepages(const char *why)
{
	if (getenv(ENV_NO_SKIP) != NULL) {
		printf("hugepage test skipped but %s is set: %s\n", ENV_NO_SKIP,
				why);
		return TEST_FAILED;
	}
	printf("Test skipped: %s\n", why);
	return TEST_SKIPPED;
}

long
test_own_hugetlb_kb(void)
{
	char line[128];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "HugetlbPages: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

long
test_free_hugepages_2m(void)
{
	FILE *f = fopen("/sys/kernel/mm/hugepages/hugepages-2048kB/"
			"free_hugepages",
			"r");
	long n = -1;

	if (f != NULL) {
		if (fscanf(f, "%ld", &n) != 1)
			n = -1;
		fclose(f);
	}
	return n;
}

int
test_dir_count(const char *dir, const char *sub)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	if (d == NULL)
		return -1;
	while ((de = readdir(d)) != NULL)
		n += strcmp(de->d_name, ".") != 0 &&
				strcmp(de->d_name, "..") != 0 &&
				(sub == NULL || strstr(de->d_name, sub) != NULL);
	closedir(d);
	return n;
}

void
test_dir_clear(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d != NULL && (de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 &&
				strcmp(de->d_name, "..") != 0)
			unlinkat(dirfd(d), de->d_name, 0);
	if (d != NULL)
		closedir(d);
}
