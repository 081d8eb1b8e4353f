/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Logging: the exact text written, the two levels a message must pass,
 * type registration, level patterns (also for types registered later),
 * the --log-level rules, stream redirection, whole lines from concurrent
 * threads, and rte_panic()/RTE_VERIFY() in a child process.
 *
 * Every case writes into an open_memstream() buffer and puts back the
 * levels it changed. The defaults checked in test_log_defaults() assume
 * the test runs without --log-level.
 */

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <rte_common.h>
#include <rte_debug.h>
#include <rte_log.h>

#include "eal_log.h"
#include "eal_options.h"
#include "test.h"

/* Static types whose levels the cases change and restore. */
static const uint32_t saved_types[] = {
	RTE_LOGTYPE_EAL,
	RTE_LOGTYPE_MALLOC,
	RTE_LOGTYPE_USER1,
	RTE_LOGTYPE_USER2,
	RTE_LOGTYPE_USER3,
	RTE_LOGTYPE_USER4,
	RTE_LOGTYPE_USER5,
	RTE_LOGTYPE_USER6,
	RTE_LOGTYPE_USER7,
	RTE_LOGTYPE_USER8,
};

static struct {
	uint32_t global; /* global level before the case */
	int levels[RTE_DIM(saved_types)]; /* type levels before the case */
	FILE *stream; /* stream before the case */
	FILE *f; /* the capture stream, NULL when closed */
	char *buf; /* its buffer (open_memstream) */
	size_t len; /* its length */
} cap;

static int
log_setup(void)
{
	unsigned int i;

	cap.global = rte_log_get_global_level();
	for (i = 0; i < RTE_DIM(saved_types); i++)
		cap.levels[i] = rte_log_get_level(saved_types[i]);
	cap.stream = rte_log_get_stream();
	cap.f = NULL;
	cap.buf = NULL;
	/* Known levels: everything up to debug passes the global level. */
	rte_log_set_global_level(RTE_LOG_DEBUG);
	rte_log_set_level(RTE_LOGTYPE_USER1, RTE_LOG_INFO);
	return TEST_SUCCESS;
}

static void
log_teardown(void)
{
	unsigned int i;

	if (cap.f != NULL)
		fclose(cap.f);
	cap.f = NULL;
	free(cap.buf);
	cap.buf = NULL;
	rte_openlog_stream(cap.stream == stderr ? NULL : cap.stream);
	rte_log_set_global_level(cap.global);
	for (i = 0; i < RTE_DIM(saved_types); i++)
		rte_log_set_level(saved_types[i], (uint32_t)cap.levels[i]);
}

/* Send the log to a fresh memory buffer. */
static int
capture_begin(void)
{
	free(cap.buf);
	cap.buf = NULL;
	cap.f = open_memstream(&cap.buf, &cap.len);
	if (cap.f == NULL)
		return -1;
	return rte_openlog_stream(cap.f);
}

/* Stop capturing. @return what was written (valid until the next begin). */
static const char *
capture_end(void)
{
	rte_openlog_stream(NULL);
	fclose(cap.f);
	cap.f = NULL;
	return cap.buf;
}

static int
test_log_output(void)
{
	char big[2001];
	const char *out;

	TEST_ASSERT_SUCCESS(capture_begin(), "open_memstream");
	TEST_ASSERT_EQUAL(RTE_LOG(INFO, USER1, "hello %d\n", 42), 0,
			"RTE_LOG failed");
	TEST_ASSERT_EQUAL(rte_log(RTE_LOG_ERR, RTE_LOGTYPE_USER1, "raw %s|\n",
					  "x"),
			0, "rte_log failed");
	out = capture_end();
	TEST_ASSERT(strcmp(out, "USER1: hello 42\nraw x|\n") == 0,
			"wrong output \"%s\"", out);

	/* Longer than the stack buffer of rte_vlog(). */
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	TEST_ASSERT_SUCCESS(capture_begin(), "open_memstream");
	TEST_ASSERT_EQUAL(RTE_LOG(INFO, USER1, "%s\n", big), 0, "long line");
	out = capture_end();
	TEST_ASSERT_EQUAL(cap.len, strlen("USER1: ") + 2000 + 1,
			"long line written with %zu bytes", cap.len);
	TEST_ASSERT(strncmp(out, "USER1: ", 7) == 0 &&
					strncmp(out + 7, big, 2000) == 0 &&
					out[2007] == '\n',
			"long line garbled");
	return TEST_SUCCESS;
}

static int
test_log_levels(void)
{
	const char *out;

	TEST_ASSERT_SUCCESS(
			rte_log_set_level(RTE_LOGTYPE_USER1, RTE_LOG_WARNING),
			"set level");
	TEST_ASSERT_EQUAL(rte_log_get_level(RTE_LOGTYPE_USER1),
			(int)RTE_LOG_WARNING, "level not stored");
	TEST_ASSERT(!rte_log_can_log(RTE_LOGTYPE_USER1, RTE_LOG_INFO),
			"info passes a warning type level");
	TEST_ASSERT(rte_log_can_log(RTE_LOGTYPE_USER1, RTE_LOG_WARNING),
			"warning does not pass a warning type level");
	TEST_ASSERT_SUCCESS(capture_begin(), "open_memstream");
	TEST_ASSERT_EQUAL(RTE_LOG(INFO, USER1, "info\n"), 0,
			"a filtered message is not an error");
	RTE_LOG(WARNING, USER1, "warning\n");
	RTE_LOG(ERR, USER1, "err\n");
	out = capture_end();
	TEST_ASSERT(strcmp(out, "USER1: warning\nUSER1: err\n") == 0,
			"type level: output \"%s\"", out);

	/* The global level filters too. */
	rte_log_set_level(RTE_LOGTYPE_USER1, RTE_LOG_DEBUG);
	rte_log_set_global_level(RTE_LOG_ERR);
	TEST_ASSERT_EQUAL(rte_log_get_global_level(), RTE_LOG_ERR,
			"global level not stored");
	TEST_ASSERT_SUCCESS(capture_begin(), "open_memstream");
	RTE_LOG(WARNING, USER1, "warning\n");
	RTE_LOG(ERR, USER1, "err\n");
	out = capture_end();
	TEST_ASSERT(strcmp(out, "USER1: err\n") == 0,
			"global level: output \"%s\"", out);

	/* Out of range values change nothing. */
	TEST_ASSERT_EQUAL(rte_log_set_level(RTE_LOGTYPE_USER1, RTE_LOG_MAX + 1),
			-1, "level above RTE_LOG_MAX accepted");
	TEST_ASSERT_EQUAL(rte_log_get_level(RTE_LOGTYPE_USER1),
			(int)RTE_LOG_DEBUG, "bad level changed the type");
	TEST_ASSERT_EQUAL(rte_log_set_level(5, RTE_LOG_INFO), -1,
			"level set on unused static slot 5");
	TEST_ASSERT_EQUAL(rte_log_set_level(100000, RTE_LOG_INFO), -1,
			"level set on type 100000");
	TEST_ASSERT_EQUAL(rte_log_get_level(5), -1, "level of unused slot");
	TEST_ASSERT(!rte_log_can_log(5, RTE_LOG_EMERG), "unknown type logs");
	TEST_ASSERT_SUCCESS(capture_begin(), "open_memstream");
	TEST_ASSERT_EQUAL(rte_log(RTE_LOG_ERR, 5, "nothing\n"), -1,
			"message to an unknown type accepted");
	out = capture_end();
	TEST_ASSERT(strcmp(out, "") == 0, "unknown type wrote \"%s\"", out);
	return TEST_SUCCESS;
}

static int
test_log_defaults(void)
{
	int t = rte_log_register("test.log.defaults");

	TEST_ASSERT(t >= 0, "register failed");
	TEST_ASSERT_EQUAL(rte_log_get_level(t), (int)RTE_LOG_INFO,
			"a new type starts at level %d", rte_log_get_level(t));
	TEST_ASSERT_EQUAL(rte_log_get_level(RTE_LOGTYPE_USER8),
			(int)RTE_LOG_INFO, "user8 starts at level %d",
			rte_log_get_level(RTE_LOGTYPE_USER8));
	TEST_ASSERT_EQUAL(cap.global, RTE_LOG_INFO,
			"the global level starts at %u", cap.global);
	rte_log_set_global_level(cap.global);
	TEST_ASSERT(!rte_log_can_log(t, RTE_LOG_DEBUG), "debug on by default");
	TEST_ASSERT(rte_log_can_log(t, RTE_LOG_INFO), "info off by default");
	return TEST_SUCCESS;
}

static int
test_log_register(void)
{
	char long_name[80], want[32];
	const char *out;
	int a, b;

	a = rte_log_register("test.log.a");
	b = rte_log_register("test.log.b");
	TEST_ASSERT(a >= RTE_LOGTYPE_FIRST_EXT_ID, "dynamic type id %d", a);
	TEST_ASSERT(b >= RTE_LOGTYPE_FIRST_EXT_ID && b != a,
			"second type id %d (first %d)", b, a);
	TEST_ASSERT_EQUAL(rte_log_register("test.log.a"), a,
			"same name registered twice got another id");
	TEST_ASSERT_EQUAL(rte_log_register("user1"), RTE_LOGTYPE_USER1,
			"the name of a static type gave %d",
			rte_log_register("user1"));
	TEST_ASSERT_EQUAL(rte_log_register(NULL), -1, "NULL name");
	TEST_ASSERT_EQUAL(rte_log_register(""), -1, "empty name");
	memset(long_name, 'n', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	TEST_ASSERT_EQUAL(rte_log_register(long_name), -1, "79-char name");

	b = rte_log_register_type_and_pick_level(
			"test.log.picked", RTE_LOG_DEBUG);
	TEST_ASSERT(b >= RTE_LOGTYPE_FIRST_EXT_ID, "pick level: id %d", b);
	TEST_ASSERT_EQUAL(rte_log_get_level(b), (int)RTE_LOG_DEBUG,
			"picked level not applied");
	snprintf(want, sizeof(want), "dynamic %d\n", b);
	TEST_ASSERT_SUCCESS(capture_begin(), "open_memstream");
	rte_log(RTE_LOG_DEBUG, b, "dynamic %d\n", b);
	out = capture_end();
	TEST_ASSERT(strcmp(out, want) == 0, "dynamic type output \"%s\"", out);
	return TEST_SUCCESS;
}

static int
test_log_pattern(void)
{
	int one = rte_log_register("test.pat.one");
	int two = rte_log_register("test.pat.two");
	int other = rte_log_register("test.other");
	int three;

	TEST_ASSERT(one >= 0 && two >= 0 && other >= 0, "register failed");
	TEST_ASSERT_SUCCESS(
			rte_log_set_level_pattern("test.pat.*", RTE_LOG_ERR),
			"pattern");
	TEST_ASSERT_EQUAL(rte_log_get_level(one), (int)RTE_LOG_ERR, "one");
	TEST_ASSERT_EQUAL(rte_log_get_level(two), (int)RTE_LOG_ERR, "two");
	TEST_ASSERT_EQUAL(rte_log_get_level(other), (int)RTE_LOG_INFO,
			"a type outside the pattern changed");
	/* A type registered afterwards gets the pattern's level. */
	three = rte_log_register("test.pat.three");
	TEST_ASSERT_EQUAL(rte_log_get_level(three), (int)RTE_LOG_ERR,
			"type registered after the pattern has level %d",
			rte_log_get_level(three));

	TEST_ASSERT_SUCCESS(
			rte_log_set_level_pattern("user[12]", RTE_LOG_DEBUG),
			"bracket pattern");
	TEST_ASSERT_EQUAL(rte_log_get_level(RTE_LOGTYPE_USER1),
			(int)RTE_LOG_DEBUG, "user1 not matched");
	TEST_ASSERT_EQUAL(rte_log_get_level(RTE_LOGTYPE_USER2),
			(int)RTE_LOG_DEBUG, "user2 not matched");
	TEST_ASSERT_NOT_EQUAL(rte_log_get_level(RTE_LOGTYPE_USER3),
			(int)RTE_LOG_DEBUG, "user3 matched user[12]");
	TEST_ASSERT_EQUAL(rte_log_set_level_pattern("test.*", RTE_LOG_MAX + 1),
			-1, "level above RTE_LOG_MAX accepted");
	TEST_ASSERT_EQUAL(rte_log_get_level(other), (int)RTE_LOG_INFO,
			"bad pattern call changed a level");
	TEST_ASSERT_EQUAL(rte_log_set_level_pattern(NULL, RTE_LOG_INFO), -1,
			"NULL pattern accepted");
	return TEST_SUCCESS;
}

static int
test_log_stream(void)
{
	TEST_ASSERT_SUCCESS(capture_begin(), "open_memstream");
	TEST_ASSERT(rte_log_get_stream() == cap.f, "stream not redirected");
	capture_end();
	TEST_ASSERT(rte_log_get_stream() == stderr,
			"NULL does not restore stderr");
	return TEST_SUCCESS;
}

#define LOG_THREADS 4
#define LOG_LINES 500
#define LOG_PAD \
	"................................................................"

static void *
log_lines(void *arg)
{
	int t = (int)(uintptr_t)arg;
	int i;

	for (i = 0; i < LOG_LINES; i++)
		RTE_LOG(INFO, USER1, "thread %d line %d %s\n", t, i, LOG_PAD);
	return NULL;
}

/* Lines from concurrent threads come out whole and in order per thread. */
static int
test_log_threads(void)
{
	pthread_t th[LOG_THREADS];
	int next[LOG_THREADS] = { 0 };
	char want[sizeof(LOG_PAD) + 64];
	const char *line;
	int i, t, n;

	TEST_ASSERT_SUCCESS(capture_begin(), "open_memstream");
	for (i = 0; i < LOG_THREADS; i++)
		TEST_ASSERT_SUCCESS(pthread_create(&th[i], NULL, log_lines,
						    (void *)(uintptr_t)i),
				"pthread_create");
	for (i = 0; i < LOG_THREADS; i++)
		pthread_join(th[i], NULL);
	line = capture_end();
	for (n = 0; *line != '\0'; n++) {
		const char *end = strchr(line, '\n');

		TEST_ASSERT_NOT_NULL(end, "last line not ended");
		TEST_ASSERT(sscanf(line, "USER1: thread %d line %d", &t, &i) ==
								2 &&
						t >= 0 && t < LOG_THREADS,
				"bad line %d: %.80s", n, line);
		snprintf(want, sizeof(want), "USER1: thread %d line %d %s\n", t,
				next[t], LOG_PAD);
		TEST_ASSERT((size_t)(end - line) + 1 == strlen(want) &&
						strncmp(line, want,
								strlen(want)) ==
								0,
				"line %d garbled or out of order: %.80s", n,
				line);
		next[t]++;
		line = end + 1;
	}
	TEST_ASSERT_EQUAL(n, LOG_THREADS * LOG_LINES, "%d lines", n);
	return TEST_SUCCESS;
}

static int
test_log_dump(void)
{
	const char *out;

	rte_log_set_level(RTE_LOGTYPE_USER1, RTE_LOG_WARNING);
	TEST_ASSERT_SUCCESS(capture_begin(), "open_memstream");
	rte_log_dump(cap.f);
	out = capture_end();
	TEST_ASSERT(strncmp(out, "global log level is debug\n", 26) == 0,
			"dump starts with \"%.40s\"", out);
	TEST_ASSERT_STR_CONTAINS(out, "\nid 0: lib.eal, level is ",
			"dump lacks lib.eal");
	TEST_ASSERT_STR_CONTAINS(out, "\nid 24: user1, level is warning\n",
			"dump lacks user1");
	return TEST_SUCCESS;
}

/* The --log-level rules: global ones first, then patterns in order. */
static int
test_log_options(void)
{
	struct eal_options opts;
	int a, b, other;

	memset(&opts, 0, sizeof(opts));
	strcpy(opts.log_rules[0].pattern, "test.opt.*");
	opts.log_rules[0].level = RTE_LOG_ERR;
	opts.log_rules[1].pattern[0] = '\0';
	opts.log_rules[1].level = RTE_LOG_NOTICE;
	opts.n_log_rules = 2;
	a = rte_log_register("test.opt.a");
	rte_log_set_level(RTE_LOGTYPE_USER2, RTE_LOG_DEBUG);

	eal_log_apply_options(&opts);
	TEST_ASSERT_EQUAL(rte_log_get_global_level(), RTE_LOG_NOTICE,
			"global level %u", rte_log_get_global_level());
	TEST_ASSERT_EQUAL(rte_log_get_level(RTE_LOGTYPE_USER2),
			(int)RTE_LOG_NOTICE, "global rule did not reach user2");
	TEST_ASSERT_EQUAL(rte_log_get_level(a), (int)RTE_LOG_ERR,
			"pattern given before the global rule lost: level %d",
			rte_log_get_level(a));
	b = rte_log_register("test.opt.b");
	other = rte_log_register("test.optother");
	TEST_ASSERT_EQUAL(rte_log_get_level(b), (int)RTE_LOG_ERR,
			"later type matching the pattern: level %d",
			rte_log_get_level(b));
	TEST_ASSERT_EQUAL(rte_log_get_level(other), (int)RTE_LOG_NOTICE,
			"later type: level %d", rte_log_get_level(other));

	/* Back to the defaults for types registered after this test. */
	rte_log_set_level_pattern("*", RTE_LOG_INFO);
	return TEST_SUCCESS;
}

/*
 * One macro line holds the check and the line number, so the line that
 * RTE_VERIFY() reports is the one verify_line(false) returns.
 */
#define VERIFY_OR_RETURN_LINE(fail) \
	do { \
		RTE_VERIFY(!(fail)); \
		return __LINE__; \
	} while (0)

static int
verify_line(bool fail)
{
	VERIFY_OR_RETURN_LINE(fail);
}

static void
verify_fails(void)
{
	verify_line(true);
}

static void
panic_now(void)
{
	rte_panic("boom %d\n", 7);
}

/* In a child: run @p fn with stderr on @p fd, without a core dump. */
static void
panic_child(int fd, void (*fn)(void))
{
	struct rlimit no_core = { 0, 0 };

	setrlimit(RLIMIT_CORE, &no_core);
	dup2(fd, STDERR_FILENO);
	rte_openlog_stream(NULL);
	fn();
	_exit(0);
}

/* Run @p fn in a child; @return 0 if it aborted writing exactly @p want. */
static int
panic_run(void (*fn)(void), const char *want)
{
	char out[512];
	size_t len = 0;
	ssize_t n;
	int fds[2], status;
	pid_t pid;

	TEST_ASSERT_SUCCESS(pipe(fds), "pipe");
	fflush(NULL);
	pid = fork();
	TEST_ASSERT(pid >= 0, "fork");
	if (pid == 0) {
		close(fds[0]);
		panic_child(fds[1], fn);
	}
	close(fds[1]);
	while ((n = read(fds[0], out + len, sizeof(out) - 1 - len)) > 0)
		len += (size_t)n;
	out[len] = '\0';
	close(fds[0]);
	TEST_ASSERT_EQUAL(waitpid(pid, &status, 0), pid, "waitpid");
	TEST_ASSERT(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT,
			"child did not abort (status %#x)", status);
	TEST_ASSERT(strcmp(out, want) == 0,
			"child wrote \"%s\", expected "
			"\"%s\"",
			out, want);
	return TEST_SUCCESS;
}

static int
test_log_panic(void)
{
	char want[256];

	TEST_ASSERT_SUCCESS(
			panic_run(panic_now, "PANIC in panic_now():\nboom 7\n"),
			"rte_panic");
	snprintf(want, sizeof(want),
			"PANIC in verify_line():\nline %d\t"
			"assert \"!(fail)\" failed\n",
			verify_line(false));
	TEST_ASSERT_SUCCESS(panic_run(verify_fails, want), "RTE_VERIFY");
	return TEST_SUCCESS;
}

static struct unit_test_suite log_suite = {
	.suite_name = "log",
	.setup = NULL,
	.teardown = NULL,
	.unit_test_cases = {
		TEST_CASE_ST(log_setup, log_teardown, test_log_defaults),
		TEST_CASE_ST(log_setup, log_teardown, test_log_output),
		TEST_CASE_ST(log_setup, log_teardown, test_log_levels),
		TEST_CASE_ST(log_setup, log_teardown, test_log_register),
		TEST_CASE_ST(log_setup, log_teardown, test_log_pattern),
		TEST_CASE_ST(log_setup, log_teardown, test_log_stream),
		TEST_CASE_ST(log_setup, log_teardown, test_log_threads),
		TEST_CASE_ST(log_setup, log_teardown, test_log_dump),
		TEST_CASE_ST(log_setup, log_teardown, test_log_panic),
		TEST_CASE_ST(log_setup, log_teardown, test_log_options),
		TEST_CASES_END(),
	},
};

static int
test_log(void)
{
	return unit_test_suite_runner(&log_suite);
}

REGISTER_FAST_TEST(log_autotest, NOHUGE_OK, ASAN_OK, test_log);
