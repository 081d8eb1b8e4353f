/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Unit tests of the EAL option parser and resolver (lib/eal/eal_options.c).
 * Pure functions: no init, no hugepages. Each error case compares the
 * whole message, which is documented and must stay stable.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eal_options.h"
#include "test.h"

/* Most arguments a table case passes, plus the terminating NULL. */
#define MAX_ARGS 8

static struct eal_options opts;
static char err[512];
static bool unknown;

/* Fill opts with the defaults and parse "test" + @p args (NULL-ended). */
static int
parse(const char *const *args)
{
	const char *argv[64] = { "test" };
	int argc;

	for (argc = 1; args[argc - 1] != NULL; argc++)
		argv[argc] = args[argc - 1];
	eal_options_defaults(&opts);
	err[0] = '\0';
	unknown = false;
	return eal_options_parse(argc, (char *const *)argv, &opts, err,
			sizeof(err), &unknown);
}

#define PARSE(...) parse((const char *const[]){ __VA_ARGS__, NULL })

/* Parse and resolve, with CPUs 0..n_cpus-1 all allowed. */
static int
parse_resolve(const char *const *args, unsigned int n_cpus)
{
	int ret = parse(args);

	if (ret < 0)
		return ret;
	return eal_options_resolve(&opts, NULL, n_cpus, err, sizeof(err));
}

/* An argument list and the exact error it must give. */
struct bad_case {
	const char *args[MAX_ARGS];
	const char *msg;
};

static int
check_bad_parse(const struct bad_case *cases, size_t n, bool is_unknown)
{
	size_t i;

	for (i = 0; i < n; i++) {
		int ret = parse(cases[i].args);

		TEST_ASSERT_EQUAL(ret, -EINVAL, "case %zu (%s %s): returned %d",
				i, cases[i].args[0],
				cases[i].args[1] ? cases[i].args[1] : "", ret);
		TEST_ASSERT(strcmp(err, cases[i].msg) == 0,
				"case %zu: got \"%s\", expected \"%s\"", i, err,
				cases[i].msg);
		TEST_ASSERT_EQUAL(unknown, is_unknown, "case %zu: unknown=%d",
				i, unknown);
	}
	return TEST_SUCCESS;
}

/* Each case parses, and resolving it fails with the exact message. */
static int
check_bad_resolve(const struct bad_case *cases, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		int ret = parse(cases[i].args);

		TEST_ASSERT(ret > 0, "case %zu: parse failed: %s", i, err);
		ret = eal_options_resolve(&opts, NULL, 2, err, sizeof(err));
		TEST_ASSERT_EQUAL(ret, -EINVAL, "case %zu (%s %s): resolved", i,
				cases[i].args[0],
				cases[i].args[1] ? cases[i].args[1] : "");
		TEST_ASSERT(strcmp(err, cases[i].msg) == 0,
				"case %zu: got \"%s\", expected \"%s\"", i, err,
				cases[i].msg);
	}
	return TEST_SUCCESS;
}

#define CHECK_BAD(cases) check_bad_parse(cases, RTE_DIM(cases), false)

static int
test_defaults(void)
{
	struct eal_options zero;

	memset(&opts, 0xa5, sizeof(opts));
	eal_options_defaults(&opts);
	TEST_ASSERT_EQUAL(opts.memory, 0, "memory");
	TEST_ASSERT(!opts.memory_given, "memory_given");
	TEST_ASSERT_EQUAL(opts.n_socket_mem, 0, "n_socket_mem");
	TEST_ASSERT_EQUAL(opts.n_socket_limit, 0, "n_socket_limit");
	TEST_ASSERT(strcmp(opts.huge_dir, "") == 0, "huge_dir");
	TEST_ASSERT(strcmp(opts.file_prefix, "rte") == 0, "file_prefix");
	TEST_ASSERT_EQUAL(opts.huge_unlink, EAL_HUGE_UNLINK_EXISTING, "mode");
	TEST_ASSERT_EQUAL(opts.huge_unlink_given, 0, "huge_unlink_given");
	TEST_ASSERT(!opts.in_memory && !opts.no_huge, "in-memory, no-huge");
	TEST_ASSERT(!opts.single_file_segments && !opts.legacy_mem, "modes");
	TEST_ASSERT(!opts.match_allocations && !opts.no_shconf, "switches");
	TEST_ASSERT(!opts.help, "help");
	TEST_ASSERT_EQUAL(opts.iova_mode, RTE_IOVA_DC, "iova_mode");
	TEST_ASSERT_EQUAL(opts.base_virtaddr, 0, "base_virtaddr");
	TEST_ASSERT_EQUAL(opts.n_log_rules, 0, "n_log_rules");
	TEST_ASSERT_EQUAL(opts.n_lcores, 0, "n_lcores");
	TEST_ASSERT_EQUAL(opts.malloc_retain, EAL_MALLOC_RETAIN_DEFAULT,
			"malloc_retain");
	TEST_ASSERT_EQUAL(opts.malloc_decay_ms, EAL_MALLOC_DECAY_DEFAULT_MS,
			"malloc_decay_ms");
	TEST_ASSERT_EQUAL(opts.populate_threads, 1, "populate_threads");
	/* Everything else is zero: no stale byte from before. */
	memset(&zero, 0, sizeof(zero));
	strcpy(zero.file_prefix, "rte");
	zero.malloc_retain = EAL_MALLOC_RETAIN_DEFAULT;
	zero.malloc_decay_ms = EAL_MALLOC_DECAY_DEFAULT_MS;
	zero.populate_threads = 1;
	TEST_ASSERT(memcmp(&zero, &opts, sizeof(zero)) == 0, "not all zero");
	/* Resolving nothing changes nothing. */
	TEST_ASSERT_SUCCESS(
			eal_options_resolve(&opts, NULL, 1, err, sizeof(err)),
			"resolve: %s", err);
	TEST_ASSERT(memcmp(&zero, &opts, sizeof(zero)) == 0, "resolved");
	return TEST_SUCCESS;
}

static int
test_return_counts(void)
{
	const char *prg_only[] = { "test", NULL };
	char *const *argv = (char *const *)prg_only;

	TEST_ASSERT_EQUAL(eal_options_parse(1, argv, &opts, err, sizeof(err),
					  NULL),
			0, "no arguments");
	TEST_ASSERT_EQUAL(eal_options_parse(0, argv, &opts, err, sizeof(err),
					  NULL),
			0, "argc 0");
	TEST_ASSERT_EQUAL(PARSE("-m", "512"), 2, "-m 512");
	TEST_ASSERT_EQUAL(PARSE("-m", "512", "--", "app"), 3, "with --");
	TEST_ASSERT_EQUAL(PARSE("--"), 1, "-- alone");
	TEST_ASSERT_EQUAL(PARSE("--", "-m", "5"), 1, "options after --");
	TEST_ASSERT(!opts.memory_given, "-m after -- was parsed");
	TEST_ASSERT_EQUAL(PARSE("-m512", "app", "-m", "5"), 1, "app args");
	TEST_ASSERT_EQUAL(opts.memory, 512 * RTE_MB, "-m512 then app");
	TEST_ASSERT_EQUAL(PARSE("app", "--in-memory"), 0, "app first");
	TEST_ASSERT(!opts.in_memory, "option after app arg was parsed");
	TEST_ASSERT_EQUAL(PARSE("-", "--in-memory"), 0, "\"-\" is an arg");
	TEST_ASSERT_EQUAL(PARSE("--in-memory", "--", "--", "x"), 2, "two --");
	TEST_ASSERT_EQUAL(PARSE("--huge-dir", "/mnt", "--no-huge", "--", "x"),
			4, "mixed");
	/*
	 * An optional value never comes from the next argument, and a next
	 * argument that is one of its values is a typo (test_huge_unlink_bad).
	 */
	TEST_ASSERT_EQUAL(PARSE("--huge-unlink", "app"), 1, "optional");
	TEST_ASSERT_EQUAL(opts.huge_unlink_given, 1U << EAL_HUGE_UNLINK_ALWAYS,
			"bare --huge-unlink");
	TEST_ASSERT_EQUAL(PARSE("--huge-unlink", "--", "never"), 2,
			"a value after --");
	/* A required value may look like an option. */
	TEST_ASSERT_EQUAL(PARSE("--huge-dir", "--in-memory"), 2, "required");
	TEST_ASSERT(strcmp(opts.huge_dir, "--in-memory") == 0 &&
					!opts.in_memory,
			"value taken as an option");
	return TEST_SUCCESS;
}

static int
test_argv_unchanged(void)
{
	char a[][32] = { "test", "-m", "512", "--huge-unlink=never", "-l0-1",
		"--log-level=eal:8", "--", "app" };
	char copy[RTE_DIM(a)][32];
	char *argv[RTE_DIM(a) + 1];
	char *saved[RTE_DIM(a) + 1];
	size_t i;

	for (i = 0; i < RTE_DIM(a); i++)
		argv[i] = a[i];
	argv[RTE_DIM(a)] = NULL;
	memcpy(saved, argv, sizeof(argv));
	memcpy(copy, a, sizeof(a));
	eal_options_defaults(&opts);
	TEST_ASSERT_EQUAL(eal_options_parse(RTE_DIM(a), argv, &opts, err,
					  sizeof(err), NULL),
			6, "count: %s", err);
	TEST_ASSERT(memcmp(saved, argv, sizeof(argv)) == 0, "argv permuted");
	TEST_ASSERT(memcmp(copy, a, sizeof(a)) == 0, "strings changed");
	return TEST_SUCCESS;
}

static int
test_usage(void)
{
	char *text = NULL, *line, *save = NULL;
	const char *first =
			"Usage: prog [EAL options] -- [application options]\n";
	size_t size = 0;
	unsigned int lines = 0;
	FILE *f = open_memstream(&text, &size);

	TEST_ASSERT_NOT_NULL(f, "open_memstream");
	eal_options_usage("prog", f);
	fclose(f);
	TEST_ASSERT(strncmp(text, first, strlen(first)) == 0, "first line: %s",
			text);
	TEST_ASSERT_STR_CONTAINS(text, "  -m, --memory=MB  ", "memory line");
	TEST_ASSERT_STR_CONTAINS(text,
			"      --huge-unlink[=existing|always|never]  When to unlink",
			"huge-unlink line");
	TEST_ASSERT_STR_CONTAINS(text, "  -l, --lcores=LIST ", "lcores line");
	TEST_ASSERT_STR_CONTAINS(text, "  -h, --help ", "help line");
	TEST_ASSERT_STR_CONTAINS(text, "      --in-memory ", "switch line");
	TEST_ASSERT_STR_CONTAINS(text,
			"Use anonymous 4 KB pages instead of hugepages\n",
			"help text");
	for (line = strtok_r(text, "\n", &save); line != NULL;
			line = strtok_r(NULL, "\n", &save))
		lines++;
	free(text);
	TEST_ASSERT_EQUAL(lines, EAL_OPT_COUNT + 1, "%u lines", lines);
	return TEST_SUCCESS;
}

static int
test_huge_unlink_name(void)
{
	TEST_ASSERT(strcmp(eal_huge_unlink_name(EAL_HUGE_UNLINK_EXISTING),
				    "existing") == 0,
			"existing");
	TEST_ASSERT(strcmp(eal_huge_unlink_name(EAL_HUGE_UNLINK_ALWAYS),
				    "always") == 0,
			"always");
	TEST_ASSERT(strcmp(eal_huge_unlink_name(EAL_HUGE_UNLINK_NEVER),
				    "never") == 0,
			"never");
	TEST_ASSERT(strcmp(eal_huge_unlink_name(3), "invalid") == 0, "3");
	return TEST_SUCCESS;
}

static int
test_memory_forms(void)
{
	static const struct {
		const char *args[3];
		uint64_t bytes;
	} cases[] = {
		{ { "-m", "512" }, 512 * RTE_MB },
		{ { "-m512" }, 512 * RTE_MB },
		{ { "--memory=512" }, 512 * RTE_MB },
		{ { "--memory", "0512" }, 512 * RTE_MB },
		{ { "-m", "0" }, 0 },
		{ { "-m", "2G" }, 2 * RTE_GB },
		{ { "-m", "2g" }, 2 * RTE_GB },
		{ { "-m", "3M" }, 3 * RTE_MB },
		{ { "-m", "3m" }, 3 * RTE_MB },
		{ { "-m", "512K" }, 512 * RTE_KB },
		{ { "-m", "1k" }, RTE_KB },
		{ { "-m", "17592186044415" }, UINT64_MAX & ~(RTE_MB - 1) },
		{ { "-m", "17179869183G" }, 17179869183ULL * RTE_GB },
	};
	size_t i;

	for (i = 0; i < RTE_DIM(cases); i++) {
		int n = cases[i].args[1] == NULL ? 1 : 2;

		TEST_ASSERT_EQUAL(parse(cases[i].args), n, "case %zu: %s", i,
				err);
		TEST_ASSERT(opts.memory_given, "case %zu: not given", i);
		TEST_ASSERT_EQUAL(opts.memory, cases[i].bytes, "case %zu", i);
	}
	TEST_ASSERT_EQUAL(PARSE("-m", "1", "-m", "2"), 4, "repeat");
	TEST_ASSERT_EQUAL(opts.memory, 2 * RTE_MB, "last -m does not win");
	return TEST_SUCCESS;
}

static int
test_malloc_retain_forms(void)
{
	TEST_ASSERT_EQUAL(PARSE("--malloc-retain=64"), 1, "%s", err);
	TEST_ASSERT_EQUAL(opts.malloc_retain, 64 * RTE_MB, "64");
	TEST_ASSERT(opts.malloc_retain_given, "given");
	TEST_ASSERT_EQUAL(PARSE("--malloc-retain", "1G"), 2, "%s", err);
	TEST_ASSERT_EQUAL(opts.malloc_retain, RTE_GB, "1G");
	TEST_ASSERT_EQUAL(PARSE("--malloc-retain=0"), 1, "%s", err);
	TEST_ASSERT_EQUAL(opts.malloc_retain, 0, "0");
	TEST_ASSERT_EQUAL(PARSE("--malloc-decay=0"), 1, "%s", err);
	TEST_ASSERT_EQUAL(opts.malloc_decay_ms, 0, "decay 0");
	TEST_ASSERT(opts.malloc_decay_given, "decay given");
	TEST_ASSERT_EQUAL(PARSE("--malloc-decay", "3600000"), 2, "%s", err);
	TEST_ASSERT_EQUAL(opts.malloc_decay_ms, 3600000, "decay max");
	/* Dynamic memory with files per page: both apply. */
	TEST_ASSERT_EQUAL(PARSE("--malloc-retain=8", "--malloc-decay=5",
					  "--single-file-segments"),
			3, "%s", err);
	return TEST_SUCCESS;
}

static int
test_populate_threads_forms(void)
{
	TEST_ASSERT_EQUAL(PARSE("--populate-threads=4"), 1, "%s", err);
	TEST_ASSERT_EQUAL(opts.populate_threads, 4, "4");
	TEST_ASSERT_EQUAL(PARSE("--populate-threads", "256"), 2, "%s", err);
	TEST_ASSERT_EQUAL(opts.populate_threads, 256, "256");
	TEST_ASSERT_EQUAL(PARSE("--populate-threads=auto"), 1, "%s", err);
	TEST_ASSERT_EQUAL(opts.populate_threads, EAL_POPULATE_THREADS_AUTO,
			"auto");
	/* One thread is what every mode does. */
	TEST_ASSERT_EQUAL(
			PARSE("--populate-threads=1", "--single-file-segments"),
			2, "%s", err);
	TEST_ASSERT_EQUAL(PARSE("--populate-threads=2", "--legacy-mem",
					  "--huge-unlink=never"),
			3, "%s", err);
	return TEST_SUCCESS;
}

#define MEM_EXPECT "expected a size in MB, e.g. 512 or 2G"

static int
test_memory_bad(void)
{
	static const struct bad_case cases[] = {
		{ { "-m", "abc" },
				"invalid value 'abc' for -m/--memory: " MEM_EXPECT },
		{ { "-m", "-5" },
				"invalid value '-5' for -m/--memory: " MEM_EXPECT },
		{ { "-m", "1.5" },
				"invalid value '1.5' for -m/--memory: " MEM_EXPECT },
		{ { "-m", "512x" },
				"invalid value '512x' for -m/--memory: " MEM_EXPECT },
		{ { "-m", "2GB" },
				"invalid value '2GB' for -m/--memory: " MEM_EXPECT },
		{ { "-m", "G" },
				"invalid value 'G' for -m/--memory: " MEM_EXPECT },
		{ { "-m", " 512" },
				"invalid value ' 512' for -m/--memory: " MEM_EXPECT },
		{ { "-m", "+512" },
				"invalid value '+512' for -m/--memory: " MEM_EXPECT },
		{ { "-m", "0x10" },
				"invalid value '0x10' for -m/--memory: " MEM_EXPECT },
		{ { "-m=512" }, "invalid value '=512' for -m/--memory: " MEM_EXPECT },
		{ { "--memory=" }, "empty value for -m/--memory: " MEM_EXPECT },
		{ { "-m", "" }, "empty value for -m/--memory: " MEM_EXPECT },
		{ { "-m" }, "option -m/--memory requires an argument" },
		{ { "--memory" }, "option -m/--memory requires an argument" },
		{ { "-m", "17592186044416" },
				"invalid value '17592186044416' for -m/--memory: too "
				"large, expected at most 17592186044415 MB" },
		{ { "-m", "18446744073709551616" },
				"invalid value '18446744073709551616' for -m/--memory: "
				"too large, expected at most 17592186044415 MB" },
		{ { "-m", "17179869184G" },
				"invalid value '17179869184G' for -m/--memory: too "
				"large, expected at most 17592186044415 MB" },
	};

	return CHECK_BAD(cases);
}

static int
test_socket_mem_forms(void)
{
	char list[4 * RTE_MAX_NUMA_NODES] = "";
	unsigned int i;

	TEST_ASSERT_EQUAL(PARSE("--socket-mem", "1024,0,2G"), 2, "%s", err);
	TEST_ASSERT_EQUAL(opts.n_socket_mem, 3, "n");
	TEST_ASSERT(opts.socket_mem[0] == RTE_GB && opts.socket_mem[1] == 0 &&
					opts.socket_mem[2] == 2 * RTE_GB,
			"values");
	TEST_ASSERT_EQUAL(opts.n_socket_limit, 0, "limit touched");
	TEST_ASSERT_EQUAL(PARSE("--socket-limit=0,512"), 1, "%s", err);
	TEST_ASSERT(opts.n_socket_limit == 2 && opts.socket_limit[0] == 0 &&
					opts.socket_limit[1] == 512 * RTE_MB,
			"limit values");
	TEST_ASSERT_EQUAL(opts.n_socket_mem, 0, "mem touched");
	/* The last one wins, whole: no entry survives from the first. */
	TEST_ASSERT_EQUAL(PARSE("--socket-mem=1,2,3", "--socket-mem=4"), 2,
			"%s", err);
	TEST_ASSERT(opts.n_socket_mem == 1 &&
					opts.socket_mem[0] == 4 * RTE_MB &&
					opts.socket_mem[1] == 0 &&
					opts.socket_mem[2] == 0,
			"repeat");
	/* One entry per NUMA node is the most. */
	for (i = 0; i < RTE_MAX_NUMA_NODES; i++)
		sprintf(list + strlen(list), "%s%u", i ? "," : "", i);
	TEST_ASSERT_EQUAL(PARSE("--socket-mem", list), 2, "%s", err);
	TEST_ASSERT_EQUAL(opts.n_socket_mem, RTE_MAX_NUMA_NODES, "max");
	TEST_ASSERT_EQUAL(opts.socket_mem[RTE_MAX_NUMA_NODES - 1],
			(RTE_MAX_NUMA_NODES - 1) * RTE_MB, "last entry");
	return TEST_SUCCESS;
}

#define SM_EXPECT "expected sizes in MB separated by commas, e.g. 1024,512"

static int
test_socket_mem_bad(void)
{
	static const struct bad_case cases[] = {
		{ { "--socket-mem=512,,0" },
				"invalid value '512,,0' for "
				"--socket-mem: empty entry, " SM_EXPECT },
		{ { "--socket-mem=512," },
				"invalid value '512,' for --socket-mem: empty entry, " SM_EXPECT },
		{ { "--socket-mem=,512" },
				"invalid value ',512' for --socket-mem: empty entry, " SM_EXPECT },
		{ { "--socket-mem=," },
				"invalid value ',' for --socket-mem: empty entry, " SM_EXPECT },
		{ { "--socket-mem=abc" },
				"invalid value 'abc' for --socket-mem: " SM_EXPECT },
		{ { "--socket-mem=-1" },
				"invalid value '-1' for --socket-mem: " SM_EXPECT },
		{ { "--socket-mem=512,abc" },
				"invalid value '512,abc' for "
				"--socket-mem: entry 'abc' is not a size, " SM_EXPECT },
		{ { "--socket-mem=512, 1" },
				"invalid value '512, 1' for "
				"--socket-mem: entry ' 1' is not a size, " SM_EXPECT },
		{ { "--socket-mem=1,99999999999999999999" },
				"invalid value '1,99999999999999999999' for "
				"--socket-mem: entry '99999999999999999999' is too "
				"large, expected at most 17592186044415 MB" },
		{ { "--socket-mem=99999999999999999999" },
				"invalid value '99999999999999999999' for "
				"--socket-mem: too large, expected at most 17592186044415 MB" },
		{ { "--socket-mem=" },
				"empty value for --socket-mem: " SM_EXPECT },
		{ { "--socket-mem" },
				"option --socket-mem requires an argument" },
		{ { "--socket-limit=1,,2" },
				"invalid value '1,,2' for "
				"--socket-limit: empty entry, " SM_EXPECT },
		{ { "--socket-limit=1.5" },
				"invalid value '1.5' for --socket-limit: " SM_EXPECT },
		{ { "--socket-limit" },
				"option --socket-limit requires an argument" },
		{ { "--malloc-retain=1.5" },
				"invalid value '1.5' for --malloc-retain: "
				"expected a size in MB, e.g. 256 or 1G (0: keep nothing)" },
		{ { "--malloc-retain=-1" },
				"invalid value '-1' for --malloc-retain: "
				"expected a size in MB, e.g. 256 or 1G (0: keep nothing)" },
		{ { "--malloc-decay=3600001" },
				"invalid value '3600001' for --malloc-decay: "
				"expected milliseconds from 0 to 3600000" },
		{ { "--malloc-decay=1s" },
				"invalid value '1s' for --malloc-decay: "
				"expected milliseconds from 0 to 3600000" },
		{ { "--malloc-decay" },
				"option --malloc-decay requires an argument" },
		{ { "--populate-threads=0" },
				"invalid value '0' for --populate-threads: "
				"expected a number of threads from 1 to 256, "
				"or auto" },
		{ { "--populate-threads=257" },
				"invalid value '257' for --populate-threads: "
				"expected a number of threads from 1 to 256, "
				"or auto" },
		{ { "--populate-threads=all" },
				"invalid value 'all' for --populate-threads: "
				"expected a number of threads from 1 to 256, "
				"or auto" },
		{ { "--populate-threads" },
				"option --populate-threads requires an argument" },
	};
	char list[4 * (RTE_MAX_NUMA_NODES + 1)] = "";
	char msg[256];
	unsigned int i;
	int ret;

	ret = CHECK_BAD(cases);
	if (ret != TEST_SUCCESS)
		return ret;
	for (i = 0; i <= RTE_MAX_NUMA_NODES; i++)
		strcat(list, i ? ",1" : "1");
	snprintf(msg, sizeof(msg),
			"invalid value '%s' for --socket-limit: "
			"more than 32 entries, expected one per NUMA node",
			list);
	TEST_ASSERT_EQUAL(PARSE("--socket-limit", list), -EINVAL, "33");
	TEST_ASSERT(strcmp(err, msg) == 0, "got \"%s\"", err);
	return TEST_SUCCESS;
}

static int
test_opt_huge_dir(void)
{
	static const struct bad_case cases[] = {
		{ { "--huge-dir=" },
				"empty value for --huge-dir: expected a hugetlbfs directory" },
		{ { "--huge-dir" }, "option --huge-dir requires an argument" },
	};
	char *path = malloc(PATH_MAX + 1);
	char msg[256];
	int ret;

	TEST_ASSERT_EQUAL(PARSE("--huge-dir", "/mnt/rtehp/x"), 2, "%s", err);
	TEST_ASSERT(strcmp(opts.huge_dir, "/mnt/rtehp/x") == 0, "space form");
	TEST_ASSERT_EQUAL(PARSE("--huge-dir=/nonexistent"), 1, "%s", err);
	TEST_ASSERT(strcmp(opts.huge_dir, "/nonexistent") == 0, "= form");
	ret = CHECK_BAD(cases);
	if (ret != TEST_SUCCESS)
		return ret;
	TEST_ASSERT_NOT_NULL(path, "malloc");
	memset(path, 'd', PATH_MAX - 1);
	path[PATH_MAX - 1] = '\0';
	ret = PARSE("--huge-dir", path);
	TEST_ASSERT_EQUAL(ret, 2, "PATH_MAX - 1 bytes: %s", err);
	TEST_ASSERT_EQUAL(strlen(opts.huge_dir), PATH_MAX - 1, "stored");
	strcat(path, "d");
	ret = PARSE("--huge-dir", path);
	snprintf(msg, sizeof(msg),
			"invalid value '%.80s...' for --huge-dir: "
			"expected a path shorter than %d bytes",
			path, PATH_MAX);
	free(path);
	TEST_ASSERT_EQUAL(ret, -EINVAL, "PATH_MAX bytes accepted");
	TEST_ASSERT(strcmp(err, msg) == 0, "got \"%s\"", err);
	return TEST_SUCCESS;
}

#define FP_EXPECT "expected a file name prefix such as rte"

static int
test_opt_file_prefix(void)
{
	static const struct bad_case cases[] = {
		{ { "--file-prefix=a/b" },
				"invalid value 'a/b' for "
				"--file-prefix: the character '/' is not allowed, " FP_EXPECT },
		{ { "--file-prefix", "run%d" },
				"invalid value 'run%d' for "
				"--file-prefix: the character '%' is not allowed, " FP_EXPECT },
		{ { "--file-prefix",
				  "0123456789012345678901234567890123456789"
				  "012345678901234567890123" },
				"invalid value '01234567890123456789012345678901234567"
				"89012345678901234567890123' for --file-prefix: "
				"expected at most 63 characters" },
		{ { "--file-prefix=" },
				"empty value for --file-prefix: " FP_EXPECT },
		{ { "--file-prefix" },
				"option --file-prefix requires an argument" },
	};
	const char *p63 =
			"012345678901234567890123456789012345678901234567890123456789012";

	TEST_ASSERT_EQUAL(PARSE("--file-prefix", "memtest1"), 2, "%s", err);
	TEST_ASSERT(strcmp(opts.file_prefix, "memtest1") == 0, "space form");
	TEST_ASSERT_EQUAL(PARSE("--file-prefix=a", "--file-prefix=b.c"), 2,
			"%s", err);
	TEST_ASSERT(strcmp(opts.file_prefix, "b.c") == 0, "last wins");
	TEST_ASSERT_EQUAL(PARSE("--file-prefix", p63), 2, "63: %s", err);
	TEST_ASSERT(strcmp(opts.file_prefix, p63) == 0, "63 stored");
	return CHECK_BAD(cases);
}

static int
test_huge_unlink_forms(void)
{
	static const struct {
		const char *arg;
		unsigned int given;
	} cases[] = {
		{ "--huge-unlink", 1U << EAL_HUGE_UNLINK_ALWAYS },
		{ "--huge-unlink=always", 1U << EAL_HUGE_UNLINK_ALWAYS },
		{ "--huge-unlink=existing", 1U << EAL_HUGE_UNLINK_EXISTING },
		{ "--huge-unlink=never", 1U << EAL_HUGE_UNLINK_NEVER },
	};
	size_t i;

	for (i = 0; i < RTE_DIM(cases); i++) {
		TEST_ASSERT_EQUAL(PARSE(cases[i].arg), 1, "%s: %s",
				cases[i].arg, err);
		TEST_ASSERT_EQUAL(opts.huge_unlink_given, cases[i].given,
				"%s: given %#x", cases[i].arg,
				opts.huge_unlink_given);
		TEST_ASSERT_SUCCESS(eal_options_resolve(&opts, NULL, 1, err,
						    sizeof(err)),
				"%s: %s", cases[i].arg, err);
		TEST_ASSERT_EQUAL(1U << opts.huge_unlink, cases[i].given,
				"%s: resolved to %d", cases[i].arg,
				opts.huge_unlink);
	}
	/* Every mode seen accumulates; the same mode twice is one mode. */
	TEST_ASSERT_EQUAL(PARSE("--huge-unlink=never", "--huge-unlink",
					  "--huge-unlink=existing"),
			3, "%s", err);
	TEST_ASSERT_EQUAL(opts.huge_unlink_given, 7, "accumulate");
	TEST_ASSERT_EQUAL(parse_resolve((const char *const[]){ "--huge-unlink",
							"--huge-unlink=always",
							NULL },
					  1),
			0, "%s", err);
	TEST_ASSERT_EQUAL(opts.huge_unlink, EAL_HUGE_UNLINK_ALWAYS, "same");
	return TEST_SUCCESS;
}

#define HU_EXPECT "expected existing, always or never"
#define HU_SPACE(v) \
	"option --huge-unlink takes its value after '=': write " \
	"--huge-unlink=" v " (a separate '" v "' would be the " \
	"application's argument, and --huge-unlink alone means always)"

static int
test_huge_unlink_bad(void)
{
	static const struct bad_case cases[] = {
		{ { "--huge-unlink=" },
				"empty value for --huge-unlink: " HU_EXPECT },
		{ { "--huge-unlink=bogus" },
				"invalid value 'bogus' for --huge-unlink: " HU_EXPECT },
		{ { "--huge-unlink=Never" },
				"invalid value 'Never' for --huge-unlink: " HU_EXPECT },
		{ { "--huge-unlink=never " },
				"invalid value 'never ' for --huge-unlink: " HU_EXPECT },
		{ { "--huge-unlink=al" },
				"invalid value 'al' for --huge-unlink: " HU_EXPECT },
		/* Control characters in a quoted value show as '?'. */
		{ { "--huge-unlink=a\nb\033[2J" },
				"invalid value 'a?b?[2J' for --huge-unlink: " HU_EXPECT },
		{ { "--huge-unlink", "never" }, HU_SPACE("never") },
		{ { "--huge-unlink", "always" }, HU_SPACE("always") },
		{ { "--huge-unlink", "existing" }, HU_SPACE("existing") },
		{ { "-m", "64", "--huge-unlink", "never", "app" },
				HU_SPACE("never") },
	};

	return CHECK_BAD(cases);
}

static int
test_switches(void)
{
	static const struct {
		const char *arg;
		size_t offset;
	} cases[] = {
		{ "--in-memory", offsetof(struct eal_options, in_memory) },
		{ "--no-huge", offsetof(struct eal_options, no_huge) },
		{ "--single-file-segments",
				offsetof(struct eal_options,
						single_file_segments) },
		{ "--legacy-mem", offsetof(struct eal_options, legacy_mem) },
		{ "--match-allocations",
				offsetof(struct eal_options,
						match_allocations) },
		{ "--no-shconf", offsetof(struct eal_options, no_shconf) },
		{ "--help", offsetof(struct eal_options, help) },
		{ "-h", offsetof(struct eal_options, help) },
	};
	struct eal_options ref;
	size_t i;

	for (i = 0; i < RTE_DIM(cases); i++) {
		TEST_ASSERT_EQUAL(PARSE(cases[i].arg), 1, "%s: %s",
				cases[i].arg, err);
		/* Exactly its own field changed. */
		eal_options_defaults(&ref);
		*((bool *)((char *)&ref + cases[i].offset)) = true;
		TEST_ASSERT(memcmp(&ref, &opts, sizeof(ref)) == 0,
				"%s set something else", cases[i].arg);
	}
	return TEST_SUCCESS;
}

static int
test_switches_bad(void)
{
	static const struct bad_case cases[] = {
		{ { "--in-memory=1" }, "option --in-memory takes no argument" },
		{ { "--no-huge=" }, "option --no-huge takes no argument" },
		{ { "--legacy-mem=yes" },
				"option --legacy-mem takes no argument" },
		{ { "--help=me" }, "option -h/--help takes no argument" },
		{ { "-hx" }, "option -h/--help takes no argument" },
	};

	return CHECK_BAD(cases);
}

static int
test_iova_mode(void)
{
	static const struct bad_case cases[] = {
		{ { "--iova-mode=PA" },
				"invalid value 'PA' for --iova-mode: expected pa or va" },
		{ { "--iova-mode", "dc" },
				"invalid value 'dc' for --iova-mode: expected pa or va" },
		{ { "--iova-mode=" },
				"empty value for --iova-mode: expected pa or va" },
		{ { "--iova-mode" },
				"option --iova-mode requires an argument" },
	};

	TEST_ASSERT_EQUAL(PARSE("--iova-mode", "pa"), 2, "%s", err);
	TEST_ASSERT_EQUAL(opts.iova_mode, RTE_IOVA_PA, "pa");
	TEST_ASSERT_EQUAL(PARSE("--iova-mode=pa", "--iova-mode=va"), 2, "%s",
			err);
	TEST_ASSERT_EQUAL(opts.iova_mode, RTE_IOVA_VA, "va, last wins");
	return CHECK_BAD(cases);
}

static int
test_proc_type(void)
{
	static const struct bad_case cases[] = {
		{ { "--proc-type=Primary" },
				"invalid value 'Primary' for --proc-type: expected "
				"primary, secondary or auto" },
		{ { "--proc-type" },
				"option --proc-type requires an argument" },
	};

	TEST_ASSERT_EQUAL(PARSE("-m", "8"), 2, "%s", err);
	TEST_ASSERT_EQUAL(opts.proc_type, RTE_PROC_PRIMARY, "default");
	TEST_ASSERT_EQUAL(PARSE("--proc-type", "secondary"), 2, "%s", err);
	TEST_ASSERT_EQUAL(opts.proc_type, RTE_PROC_SECONDARY, "secondary");
	TEST_ASSERT_EQUAL(PARSE("--proc-type=auto"), 1, "%s", err);
	TEST_ASSERT_EQUAL(opts.proc_type, RTE_PROC_AUTO, "auto");
	TEST_ASSERT_EQUAL(PARSE("--proc-type=auto", "--proc-type=primary"), 2,
			"%s", err);
	TEST_ASSERT_EQUAL(opts.proc_type, RTE_PROC_PRIMARY, "last wins");
	return CHECK_BAD(cases);
}

static int
test_keep_memzones_parse(void)
{
	static const struct bad_case cases[] = {
		{ { "--keep-memzones=yes" },
				"invalid value 'yes' for --keep-memzones: expected "
				"nothing, or =discard-mismatch" },
		{ { "--keep-memzones", "discard-mismatch" },
				"option --keep-memzones takes its value after '=': "
				"write --keep-memzones=discard-mismatch (a separate "
				"'discard-mismatch' would be the application's "
				"argument, and --keep-memzones alone means strict "
				"restoring)" },
	};

	TEST_ASSERT_EQUAL(PARSE("-m", "8"), 2, "%s", err);
	TEST_ASSERT_EQUAL(opts.keep_memzones, EAL_KEEP_OFF, "default");
	TEST_ASSERT_EQUAL(PARSE("--keep-memzones"), 1, "%s", err);
	TEST_ASSERT_EQUAL(opts.keep_memzones, EAL_KEEP_STRICT, "bare");
	TEST_ASSERT_EQUAL(PARSE("--keep-memzones=discard-mismatch"), 1, "%s",
			err);
	TEST_ASSERT_EQUAL(opts.keep_memzones, EAL_KEEP_DISCARD_MISMATCH,
			"discard-mismatch");
	return CHECK_BAD(cases);
}

static int
test_memzone_image_parse(void)
{
	static const struct bad_case cases[] = {
		{ { "--memzone-image=" },
				"empty value for --memzone-image: expected the "
				"path of an image file" },
		{ { "--memzone-image=a.img", "--memzone-image-strategy=uffd" },
				"invalid value 'uffd' for --memzone-image-strategy: "
				"expected auto, pread, mmap, direct, uffd-copy or "
				"uffd-minor" },
		{ { "--memzone-image=a.img", "--memzone-image-prefetch=no" },
				"invalid value 'no' for --memzone-image-prefetch: "
				"expected on or off" },
		{ { "--memzone-image=a.img", "--memzone-image-threads=0" },
				"invalid value '0' for --memzone-image-threads: "
				"expected a number of threads from 1 to 64" },
		{ { "--memzone-image=a.img", "--memzone-image-threads=65" },
				"invalid value '65' for --memzone-image-threads: "
				"expected a number of threads from 1 to 64" },
	};

	TEST_ASSERT_EQUAL(PARSE("-m", "8"), 2, "%s", err);
	TEST_ASSERT(opts.memzone_image[0] == '\0' &&
					opts.image_strategy == EAL_IMAGE_AUTO &&
					opts.image_threads == 0,
			"defaults");
	TEST_ASSERT_EQUAL(PARSE("--memzone-image", "/x/a.img",
					  "--memzone-image-strategy=direct",
					  "--memzone-image-threads=3"),
			4, "%s", err);
	TEST_ASSERT(strcmp(opts.memzone_image, "/x/a.img") == 0 &&
					opts.image_strategy ==
							EAL_IMAGE_DIRECT &&
					opts.image_threads == 3,
			"parsed");
	TEST_ASSERT_EQUAL(PARSE("--memzone-image", "/x/a.img",
					  "--memzone-image-strategy=uffd-copy",
					  "--memzone-image-prefetch=off"),
			4, "%s", err);
	TEST_ASSERT(opts.image_strategy == EAL_IMAGE_UFFD_COPY &&
					opts.image_no_prefetch,
			"lazy parsed");
	return CHECK_BAD(cases);
}

#define HT_EXPECT "expected nothing, or =auto, =enforce, =thp or =off"
#define HTL_EXPECT \
	"expected library names or prefixes separated by commas, e.g. " \
	"libssl.so.3,libcrypto"

static int
test_huge_text_parse(void)
{
	static const struct bad_case cases[] = {
		{ { "--huge-text=fast" },
				"invalid value 'fast' for --huge-text: " HT_EXPECT },
		{ { "--huge-text", "enforce" },
				"option --huge-text takes its value after '=': "
				"write --huge-text=enforce (a separate 'enforce' "
				"would be the application's argument, and "
				"--huge-text alone means auto)" },
		{ { "--huge-text", "--huge-text-libs=libc,,libm" },
				"invalid value 'libc,,libm' for --huge-text-libs: " HTL_EXPECT },
		{ { "--huge-text", "--huge-text-libs=/lib/libc.so.6" },
				"invalid value '/lib/libc.so.6' for "
				"--huge-text-libs: " HTL_EXPECT },
		{ { "--huge-text", "--huge-text-libs=" },
				"empty value for --huge-text-libs: " HTL_EXPECT },
		{ { "--huge-text-perf-map=1" },
				"option --huge-text-perf-map takes no argument" },
	};

	TEST_ASSERT_EQUAL(PARSE("-m", "8"), 2, "%s", err);
	TEST_ASSERT_EQUAL(opts.huge_text, RTE_HUGETEXT_OFF, "default");
	TEST_ASSERT_EQUAL(PARSE("--huge-text"), 1, "%s", err);
	TEST_ASSERT_EQUAL(opts.huge_text, RTE_HUGETEXT_AUTO, "bare");
	TEST_ASSERT_EQUAL(
			PARSE("--huge-text=enforce", "--huge-text-perf-map",
					"--huge-text-libs=libssl.so.3,libcrypto"),
			3, "%s", err);
	TEST_ASSERT_EQUAL(opts.huge_text, RTE_HUGETEXT_ENFORCE, "enforce");
	TEST_ASSERT(opts.huge_text_perf_map, "perf map");
	TEST_ASSERT(strcmp(opts.huge_text_libs, "libssl.so.3,libcrypto") == 0,
			"libs %s", opts.huge_text_libs);
	TEST_ASSERT_EQUAL(PARSE("--huge-text=thp", "--huge-text=off"), 2, "%s",
			err);
	TEST_ASSERT_EQUAL(opts.huge_text, RTE_HUGETEXT_OFF, "last wins");
	return CHECK_BAD(cases);
}

#define BV_EXPECT "expected a non-zero hexadecimal address, e.g. 0x100000000"

static int
test_base_virtaddr(void)
{
	static const struct {
		const char *arg;
		uint64_t addr;
	} good[] = {
		{ "--base-virtaddr=0x100000000", 0x100000000ULL },
		{ "--base-virtaddr=100000000", 0x100000000ULL },
		{ "--base-virtaddr=0XABCdef", 0xabcdefULL },
		{ "--base-virtaddr=0xffffffffffffffff", UINT64_MAX },
		{ "--base-virtaddr=0x00000000000000000001", 1 },
	};
	static const struct bad_case cases[] = {
		{ { "--base-virtaddr=0" },
				"invalid value '0' for --base-virtaddr: " BV_EXPECT },
		{ { "--base-virtaddr=0x0" },
				"invalid value '0x0' for --base-virtaddr: " BV_EXPECT },
		{ { "--base-virtaddr=0x" },
				"invalid value '0x' for --base-virtaddr: " BV_EXPECT },
		{ { "--base-virtaddr=zz" },
				"invalid value 'zz' for --base-virtaddr: " BV_EXPECT },
		{ { "--base-virtaddr=0x1g" },
				"invalid value '0x1g' for --base-virtaddr: " BV_EXPECT },
		{ { "--base-virtaddr=-1" },
				"invalid value '-1' for --base-virtaddr: " BV_EXPECT },
		{ { "--base-virtaddr=0x10000000000000000" },
				"invalid value '0x10000000000000000' for "
				"--base-virtaddr: expected an address below 2^64" },
		{ { "--base-virtaddr=" },
				"empty value for --base-virtaddr: " BV_EXPECT },
		{ { "--base-virtaddr" },
				"option --base-virtaddr requires an argument" },
	};
	size_t i;

	for (i = 0; i < RTE_DIM(good); i++) {
		TEST_ASSERT_EQUAL(PARSE(good[i].arg), 1, "%s: %s", good[i].arg,
				err);
		TEST_ASSERT_EQUAL(opts.base_virtaddr, good[i].addr,
				"%s: %#" PRIx64, good[i].arg,
				opts.base_virtaddr);
	}
	TEST_ASSERT_EQUAL(
			PARSE("--base-virtaddr", "7f0000000000"), 2, "%s", err);
	TEST_ASSERT_EQUAL(opts.base_virtaddr, 0x7f0000000000ULL, "space");
	return CHECK_BAD(cases);
}

static int
test_log_level(void)
{
	static const struct {
		const char *arg;
		const char *pattern;
		uint32_t level;
	} cases[] = {
		{ "--log-level=8", "", RTE_LOG_DEBUG },
		{ "--log-level=1", "", RTE_LOG_EMERG },
		{ "--log-level=debug", "", RTE_LOG_DEBUG },
		{ "--log-level=DEBUG", "", RTE_LOG_DEBUG },
		{ "--log-level=Emergency", "", RTE_LOG_EMERG },
		{ "--log-level=alert", "", RTE_LOG_ALERT },
		{ "--log-level=critical", "", RTE_LOG_CRIT },
		{ "--log-level=error", "", RTE_LOG_ERR },
		{ "--log-level=warning", "", RTE_LOG_WARNING },
		{ "--log-level=notice", "", RTE_LOG_NOTICE },
		{ "--log-level=info", "", RTE_LOG_INFO },
		{ "--log-level=lib.eal:debug", "lib.eal", RTE_LOG_DEBUG },
		{ "--log-level=eal*:3", "eal*", RTE_LOG_CRIT },
		{ "--log-level=a:b:4", "a:b", RTE_LOG_ERR },
	};
	size_t i;

	for (i = 0; i < RTE_DIM(cases); i++) {
		TEST_ASSERT_EQUAL(PARSE(cases[i].arg), 1, "%s: %s",
				cases[i].arg, err);
		TEST_ASSERT_EQUAL(opts.n_log_rules, 1, "%s", cases[i].arg);
		TEST_ASSERT(strcmp(opts.log_rules[0].pattern,
					    cases[i].pattern) == 0,
				"%s: pattern '%s'", cases[i].arg,
				opts.log_rules[0].pattern);
		TEST_ASSERT_EQUAL(opts.log_rules[0].level, cases[i].level,
				"%s: level %u", cases[i].arg,
				opts.log_rules[0].level);
	}
	/* Rules accumulate in command-line order. */
	TEST_ASSERT_EQUAL(PARSE("--log-level", "malloc:info", "--log-level=2",
					  "--log-level=eal:8"),
			4, "%s", err);
	TEST_ASSERT_EQUAL(opts.n_log_rules, 3, "three rules");
	TEST_ASSERT(strcmp(opts.log_rules[0].pattern, "malloc") == 0 &&
					opts.log_rules[0].level ==
							RTE_LOG_INFO &&
					strcmp(opts.log_rules[1].pattern, "") ==
							0 &&
					opts.log_rules[1].level ==
							RTE_LOG_ALERT &&
					strcmp(opts.log_rules[2].pattern,
							"eal") == 0 &&
					opts.log_rules[2].level ==
							RTE_LOG_DEBUG,
			"order");
	return TEST_SUCCESS;
}

#define LL_EXPECT \
	"expected a level 1-8 or emergency, alert, critical, " \
	"error, warning, notice, info or debug, optionally after TYPE:"

static int
test_log_level_bad(void)
{
	static const struct bad_case cases[] = {
		{ { "--log-level=0" },
				"invalid value '0' for --log-level: " LL_EXPECT },
		{ { "--log-level=9" },
				"invalid value '9' for --log-level: " LL_EXPECT },
		{ { "--log-level=loud" },
				"invalid value 'loud' for --log-level: " LL_EXPECT },
		{ { "--log-level=err" },
				"invalid value 'err' for --log-level: " LL_EXPECT },
		{ { "--log-level=lib.eal:" },
				"invalid value 'lib.eal:' for --log-level: " LL_EXPECT },
		{ { "--log-level=eal:-1" },
				"invalid value 'eal:-1' for --log-level: " LL_EXPECT },
		{ { "--log-level=:5" },
				"invalid value ':5' for --log-level: "
				"empty TYPE before ':', expected a log type pattern such "
				"as lib.eal" },
		{ { "--log-level=0123456789012345678901234567890123456789012345"
		    "678901234567890123:8" },
				"invalid value '0123456789012"
				"345678901234567890123456789012345678901234567890123:8'"
				" for --log-level: TYPE is longer than 63 characters" },
		{ { "--log-level=" },
				"empty value for --log-level: " LL_EXPECT },
		{ { "--log-level" },
				"option --log-level requires an argument" },
	};
	const char *args[EAL_MAX_LOG_RULES + 2];
	unsigned int i;
	int ret;

	ret = CHECK_BAD(cases);
	if (ret != TEST_SUCCESS)
		return ret;
	for (i = 0; i < EAL_MAX_LOG_RULES; i++)
		args[i] = "--log-level=info";
	args[i] = NULL;
	TEST_ASSERT_EQUAL(parse(args), EAL_MAX_LOG_RULES, "16: %s", err);
	args[i++] = "--log-level=eal:debug";
	args[i] = NULL;
	TEST_ASSERT_EQUAL(parse(args), -EINVAL, "17 rules accepted");
	TEST_ASSERT(strcmp(err,
				    "invalid value 'eal:debug' for --log-level: "
				    "too many --log-level options, expected at most 16") ==
					0,
			"got \"%s\"", err);
	return TEST_SUCCESS;
}

static int
test_lcores(void)
{
	static const struct {
		const char *args[3];
		const char *cpus; /* expected lcore_cpus, as chars '0' + cpu */
	} cases[] = {
		{ { "-l", "0-3,5,7-8" }, "0123578" },
		{ { "-l0-1" }, "01" },
		{ { "--lcores=5,0-1" }, "501" },
		{ { "--lcores", "3-3" }, "3" },
		{ { "-l", "2,0" }, "20" },
	};
	size_t i, j;

	for (i = 0; i < RTE_DIM(cases); i++) {
		int n = cases[i].args[1] == NULL ? 1 : 2;

		TEST_ASSERT_EQUAL(parse(cases[i].args), n, "case %zu: %s", i,
				err);
		TEST_ASSERT_EQUAL(opts.n_lcores, strlen(cases[i].cpus),
				"case %zu: %u lcores", i, opts.n_lcores);
		for (j = 0; j < opts.n_lcores; j++)
			TEST_ASSERT_EQUAL(opts.lcore_cpus[j],
					cases[i].cpus[j] - '0',
					"case %zu: lcore %zu", i, j);
	}
	TEST_ASSERT_EQUAL(PARSE("-l", "0-127"), 2, "all CPUs: %s", err);
	TEST_ASSERT(opts.n_lcores == RTE_MAX_LCORE &&
					opts.lcore_cpus[RTE_MAX_LCORE - 1] ==
							RTE_MAX_LCORE - 1,
			"all");
	TEST_ASSERT_EQUAL(PARSE("-l", "0-3", "-l", "1"), 4, "%s", err);
	TEST_ASSERT(opts.n_lcores == 1 && opts.lcore_cpus[0] == 1, "last");
	/* Lcore ids apart from CPUs, as processes of a prefix need. */
	TEST_ASSERT_EQUAL(PARSE("--lcores", "5@0,1,7@0"), 2, "%s", err);
	TEST_ASSERT(opts.n_lcores == 3 && opts.lcore_ids[0] == 5 &&
					opts.lcore_cpus[0] == 0 &&
					opts.lcore_ids[1] == 1 &&
					opts.lcore_cpus[1] == 1 &&
					opts.lcore_ids[2] == 7 &&
					opts.lcore_cpus[2] == 0,
			"lcore@cpu");
	TEST_ASSERT_EQUAL(PARSE("--lcores", "5@0,5@1"), -EINVAL, "twice");
	TEST_ASSERT_STR_CONTAINS(err, "lcore 5 is listed twice", "%s", err);
	TEST_ASSERT_EQUAL(PARSE("--lcores", "5@"), -EINVAL, "no CPU");
	TEST_ASSERT_EQUAL(PARSE("--lcores", "@1"), -EINVAL, "no lcore");
	TEST_ASSERT_EQUAL(PARSE("--lcores", "1@128"), -EINVAL, "CPU 128");
	return TEST_SUCCESS;
}

#define LC_EXPECT \
	"expected CPU numbers and ranges separated by commas, e.g. 0-3,5, " \
	"or LCORE@CPU entries"

static int
test_lcores_bad(void)
{
	static const struct bad_case cases[] = {
		{ { "-l", "3-1" },
				"invalid value '3-1' for -l/--lcores: "
				"range 3-1 is descending, expected the lower CPU first" },
		{ { "-l", "0,0" },
				"invalid value '0,0' for -l/--lcores: CPU 0 is listed twice" },
		{ { "-l", "0-2,1" },
				"invalid value '0-2,1' for -l/--lcores: CPU 1 is listed twice" },
		{ { "-l", "128" },
				"invalid value '128' for -l/--lcores: "
				"CPU 128 is out of range, expected CPUs below 128" },
		{ { "-l", "0-128" },
				"invalid value '0-128' for -l/--lcores: "
				"CPU 128 is out of range, expected CPUs below 128" },
		{ { "-l", "99999999999999999999" },
				"invalid value '99999999999999999999' for -l/--lcores: CPU "
				"99999999999999999999 is out of range, expected CPUs below 128" },
		{ { "-l", "a" },
				"invalid value 'a' for -l/--lcores: " LC_EXPECT },
		{ { "-l", "1-" },
				"invalid value '1-' for -l/--lcores: " LC_EXPECT },
		{ { "-l", "-1" },
				"invalid value '-1' for -l/--lcores: " LC_EXPECT },
		{ { "-l", "1-2-3" },
				"invalid value '1-2-3' for -l/--lcores: " LC_EXPECT },
		{ { "-l", "1.0" },
				"invalid value '1.0' for -l/--lcores: " LC_EXPECT },
		{ { "-l", "1,,2" },
				"invalid value '1,,2' for -l/--lcores: empty entry, " LC_EXPECT },
		{ { "-l", "1," },
				"invalid value '1,' for -l/--lcores: empty entry, " LC_EXPECT },
		{ { "--lcores=" }, "empty value for -l/--lcores: " LC_EXPECT },
		{ { "-l" }, "option -l/--lcores requires an argument" },
	};

	return CHECK_BAD(cases);
}

static int
test_unknown(void)
{
	static const struct bad_case cases[] = {
		{ { "--foo" }, "unknown option '--foo'" },
		{ { "--foo=bar" }, "unknown option '--foo'" },
		{ { "-x" }, "unknown option '-x'" },
		{ { "-x5" }, "unknown option '-x'" },
		{ { "--mem=5" }, "unknown option '--mem'" },
		{ { "--Memory=5" }, "unknown option '--Memory'" },
		{ { "--in-memory", "--vdev=net_null0" },
				"unknown option '--vdev'" },
	};

	return check_bad_parse(cases, RTE_DIM(cases), true);
}

static int
test_first_error_wins(void)
{
	TEST_ASSERT_EQUAL(PARSE("-m", "x", "--foo"), -EINVAL, "parsed");
	TEST_ASSERT(strcmp(err, "invalid value 'x' for -m/--memory: " MEM_EXPECT) ==
					0,
			"got \"%s\"", err);
	TEST_ASSERT(!unknown, "unknown set for a bad value");
	/* A small buffer gets a truncated, terminated message. */
	eal_options_defaults(&opts);
	memset(err, 'z', sizeof(err));
	TEST_ASSERT_EQUAL(eal_options_parse(2,
					  (char *const[]){ "t", "--foo", NULL },
					  &opts, err, 8, NULL),
			-EINVAL, "small buffer");
	TEST_ASSERT(strcmp(err, "unknown") == 0, "got \"%s\"", err);
	TEST_ASSERT_EQUAL(eal_options_parse(2,
					  (char *const[]){ "t", "--foo", NULL },
					  &opts, NULL, 0, NULL),
			-EINVAL, "no buffer");
	return TEST_SUCCESS;
}

#define NOT_TOGETHER " cannot be used together: "

/* Every conflict, each alone, with its exact message. */
static const struct bad_case conflict_cases[] = {
	{ { "--huge-unlink=always", "--huge-unlink=never" },
			"options --huge-unlink=always and --huge-unlink=never" NOT_TOGETHER
			"give one mode" },
	{ { "--huge-unlink=never", "--huge-unlink=existing" },
			"options --huge-unlink=existing and "
			"--huge-unlink=never" NOT_TOGETHER "give one mode" },
	{ { "--huge-unlink", "--huge-unlink=existing" },
			"options --huge-unlink=existing and "
			"--huge-unlink=always" NOT_TOGETHER "give one mode" },
	{ { "--in-memory", "--huge-unlink=never" },
			"options --in-memory and --huge-unlink=never" NOT_TOGETHER
			"in-memory mode has no hugepage files to reuse" },
	{ { "--huge-unlink=never", "--in-memory" },
			"options --in-memory and --huge-unlink=never" NOT_TOGETHER
			"in-memory mode has no hugepage files to reuse" },
	{ { "--no-huge", "--huge-unlink" },
			"options --no-huge and --huge-unlink=always" NOT_TOGETHER
			"without hugepages there are no hugepage files" },
	{ { "--no-huge", "--huge-unlink=never" },
			"options --no-huge and --huge-unlink=never" NOT_TOGETHER
			"without hugepages there are no hugepage files" },
	{ { "--no-huge", "--huge-unlink=existing" },
			"options --no-huge and --huge-unlink=existing" NOT_TOGETHER
			"without hugepages there are no hugepage files" },
	{ { "--single-file-segments", "--huge-unlink" },
			"options --single-file-segments and "
			"--huge-unlink=always" NOT_TOGETHER "the file of a "
			"memseg list is opened again to add pages" },
	{ { "--single-file-segments", "--huge-unlink=always" },
			"options --single-file-segments and "
			"--huge-unlink=always" NOT_TOGETHER "the file of a "
			"memseg list is opened again to add pages" },
	{ { "-m", "512", "--socket-mem=512" },
			"options -m/--memory and --socket-mem" NOT_TOGETHER
			"give either the total or the amount per NUMA node" },
	{ { "-m", "0", "--socket-mem=512" },
			"options -m/--memory and --socket-mem" NOT_TOGETHER
			"give either the total or the amount per NUMA node" },
	{ { "--no-huge", "--socket-mem=512" },
			"options --no-huge and --socket-mem" NOT_TOGETHER
			"memory without hugepages is not placed per NUMA node" },
	{ { "--no-huge", "--match-allocations" },
			"options --no-huge and --match-allocations" NOT_TOGETHER
			"memory without hugepages is never freed" },
	{ { "--no-huge", "--single-file-segments" },
			"options --no-huge and --single-file-segments" NOT_TOGETHER
			"without hugepages there are no hugepage files" },
	{ { "--no-huge", "--in-memory" },
			"options --no-huge and --in-memory" NOT_TOGETHER
			"in-memory mode uses hugepages" },
	{ { "--legacy-mem", "--match-allocations" },
			"options --legacy-mem and --match-allocations" NOT_TOGETHER
			"legacy memory is never freed" },
	{ { "--malloc-retain=64", "--legacy-mem" },
			"options --malloc-retain and --legacy-mem" NOT_TOGETHER
			"its memory never goes back, so none is kept" },
	{ { "--malloc-decay=10", "--no-huge" },
			"options --malloc-decay and --no-huge" NOT_TOGETHER
			"its memory never goes back, so none is kept" },
	{ { "--malloc-retain=1", "--match-allocations" },
			"options --malloc-retain and --match-allocations" NOT_TOGETHER
			"each allocation gives its own pages back as soon as it is freed" },
	{ { "--populate-threads=2", "--single-file-segments" },
			"options --populate-threads and --single-file-segments" NOT_TOGETHER
			"the kernel allocates the pages of one file one at a "
			"time, so threads would only wait for each other" },
	{ { "--in-memory", "--populate-threads=auto" },
			"options --populate-threads and --in-memory" NOT_TOGETHER
			"the kernel allocates the pages of one file one at a "
			"time, so threads would only wait for each other" },
	{ { "--populate-threads=4", "--no-huge" },
			"options --populate-threads and --no-huge" NOT_TOGETHER
			"memory without hugepages is anonymous memory the "
			"kernel maps by itself" },
	{ { "--socket-limit=1024", "--no-huge" },
			"options --socket-limit and --no-huge" NOT_TOGETHER
			"memory without hugepages never grows, so the limit could never apply" },
	{ { "--socket-limit=1024", "--legacy-mem" },
			"options --socket-limit and --legacy-mem" NOT_TOGETHER
			"legacy memory never grows, so the limit could never apply" },
	{ { "--proc-type=secondary", "--no-shconf" },
			"options --proc-type=secondary and --no-shconf" NOT_TOGETHER
			"a secondary process finds its primary through the "
			"runtime directory, which this turns off" },
	{ { "--no-huge", "--proc-type=secondary" },
			"options --proc-type=secondary and --no-huge" NOT_TOGETHER
			"a secondary process maps its primary's hugepage files, "
			"and memory without hugepages cannot be shared" },
	{ { "--in-memory", "--proc-type=auto" },
			"options --proc-type=auto and --in-memory" NOT_TOGETHER
			"a secondary process finds its primary through the "
			"runtime directory, which this turns off" },
	{ { "--huge-text-libs=libc" },
			"option --huge-text-libs needs --huge-text: it names "
			"what else to move" },
	{ { "--huge-text=off", "--huge-text-perf-map" },
			"option --huge-text-perf-map needs --huge-text: without "
			"it no code moves" },
	{ { "--keep-memzones", "--in-memory" },
			"options --keep-memzones and --in-memory" NOT_TOGETHER
			"in-memory mode keeps no hugepage file" },
	{ { "--keep-memzones", "--no-huge" },
			"options --keep-memzones and --no-huge" NOT_TOGETHER
			"without hugepages there are no hugepage files to keep" },
	{ { "--keep-memzones" },
			"option --keep-memzones needs --huge-unlink=never: the "
			"default, --huge-unlink=existing, removes the files that "
			"hold the memzones" },
	{ { "--keep-memzones", "--huge-unlink" },
			"options --keep-memzones and --huge-unlink=always" NOT_TOGETHER
			"the memzones live in hugepage files, which only "
			"--huge-unlink=never keeps" },
	{ { "--keep-memzones=discard-mismatch", "--huge-unlink=existing" },
			"options --keep-memzones and --huge-unlink=existing" NOT_TOGETHER
			"the memzones live in hugepage files, which only "
			"--huge-unlink=never keeps" },
	{ { "--keep-memzones", "--huge-unlink=never", "--no-shconf" },
			"options --keep-memzones and --no-shconf" NOT_TOGETHER
			"the memzone table is kept in the runtime directory, "
			"which --no-shconf turns off" },
	{ { "--keep-memzones", "--huge-unlink=never", "--proc-type=secondary" },
			"options --keep-memzones and --proc-type=secondary" NOT_TOGETHER
			"memzones are brought back by the primary process" },
	{ { "--memzone-image-strategy=pread" },
			"option --memzone-image-strategy needs --memzone-image: "
			"it says how to read the image" },
	{ { "--memzone-image-threads=2" },
			"option --memzone-image-threads needs --memzone-image: it "
			"says how many threads read the image" },
	{ { "--memzone-image-prefetch=off" },
			"option --memzone-image-prefetch needs --memzone-image: "
			"it says how a lazy strategy reads the image" },
	{ { "--memzone-image=a.img", "--memzone-image-prefetch=on" },
			"option --memzone-image-prefetch needs a lazy "
			"--memzone-image-strategy (uffd-copy or uffd-minor): the "
			"others read the whole image at start" },
	{ { "--memzone-image=a.img", "--memzone-image-strategy=uffd-copy",
			  "--iova-mode=pa" },
			"options --memzone-image-strategy=uffd-copy and "
			"--iova-mode=pa" NOT_TOGETHER
			"a page filled on first touch has no physical address at "
			"start" },
	{ { "--memzone-image=a.img", "--proc-type=secondary" },
			"options --memzone-image and --proc-type=secondary" NOT_TOGETHER
			"memzones are brought back by the primary process" },
	{ { "--memzone-image=a.img", "--legacy-mem" },
			"options --memzone-image and --legacy-mem" NOT_TOGETHER
			"that mode maps all its memory at start, and an image's "
			"pages must come at their own addresses" },
	{ { "--memzone-image=a.img", "--no-huge" },
			"options --memzone-image and --no-huge" NOT_TOGETHER
			"that mode maps all its memory at start, and an image's "
			"pages must come at their own addresses" },
	{ { "--no-huge", "--iova-mode=pa" },
			"options --no-huge and --iova-mode=pa" NOT_TOGETHER
			"4 KB pages have no stable physical address" },
	{ { "--socket-mem=1024", "--socket-limit=512" },
			"options --socket-limit and --socket-mem conflict: the "
			"limit 512 MB on NUMA node 0 is below the 1024 MB to map at start" },
	{ { "--socket-mem=0,2G", "--socket-limit=0,1536K" },
			"options --socket-limit and --socket-mem conflict: the "
			"limit 1536 KB on NUMA node 1 is below the 2048 MB to map at start" },
	{ { "-m", "524289" },
			"option -m/--memory asks for 524289 MB: at most 524288 MB "
			"can be mapped" },
	{ { "--no-huge", "-m", "16384G" },
			"option -m/--memory asks for 16777216 MB: at most 524288 MB "
			"can be mapped" },
	{ { "--socket-mem=0,600G" },
			"option --socket-mem asks for 614400 MB on NUMA node 1: at "
			"most 524288 MB can be mapped" },
	{ { "--no-huge", "-m", "0" },
			"options --no-huge and -m 0" NOT_TOGETHER
			"without hugepages all memory is mapped at start, so it must not be 0" },
};

static int
test_resolve_conflicts(void)
{
	return check_bad_resolve(conflict_cases, RTE_DIM(conflict_cases));
}

/* The first conflict in the fixed order, whatever the argument order. */
static int
test_resolve_order(void)
{
	static const struct bad_case cases[] = {
		{ { "--no-huge", "--in-memory", "--huge-unlink=never" },
				"options --in-memory and --huge-unlink=never" NOT_TOGETHER
				"in-memory mode has no hugepage files to reuse" },
		{ { "--huge-unlink=never", "--in-memory", "--no-huge" },
				"options --in-memory and --huge-unlink=never" NOT_TOGETHER
				"in-memory mode has no hugepage files to reuse" },
		{ { "--in-memory", "--huge-unlink=never",
				  "--huge-unlink=always" },
				"options --huge-unlink=always and --huge-unlink=never" NOT_TOGETHER
				"give one mode" },
		{ { "--match-allocations", "--legacy-mem", "--no-huge" },
				"options --no-huge and --match-allocations" NOT_TOGETHER
				"memory without hugepages is never freed" },
		{ { "--socket-limit=1", "--legacy-mem", "--no-huge" },
				"options --socket-limit and --no-huge" NOT_TOGETHER
				"memory without hugepages never grows, so the limit "
				"could never apply" },
	};

	return check_bad_resolve(cases, RTE_DIM(cases));
}

static int
test_resolve_accepted(void)
{
	static const char *const cases[][MAX_ARGS] = {
		{ "--in-memory", "--huge-unlink" },
		{ "--in-memory", "--huge-unlink=existing" },
		{ "--single-file-segments", "--huge-unlink=never" },
		{ "--single-file-segments", "--huge-unlink=existing" },
		{ "--legacy-mem", "--huge-unlink=never" },
		{ "--socket-mem=1024", "--socket-limit=1024" },
		{ "--socket-mem=1024,1024", "--socket-limit=0,2048" },
		{ "--socket-mem=1024", "--socket-limit=2048,512" },
		{ "-m", "512", "--socket-limit=256" },
		{ "--no-huge", "--iova-mode=va", "-m", "16" },
		{ "--legacy-mem", "--socket-mem=512" },
		{ "--in-memory", "--single-file-segments",
				"--match-allocations" },
	};
	size_t i;

	for (i = 0; i < RTE_DIM(cases); i++)
		TEST_ASSERT_SUCCESS(parse_resolve(cases[i], 1),
				"case %zu (%s %s): %s", i, cases[i][0],
				cases[i][1], err);
	return TEST_SUCCESS;
}

static int
test_resolve_implied(void)
{
	struct eal_options once;

	TEST_ASSERT_SUCCESS(parse_resolve((const char *const[]){ "--in-memory",
							  NULL },
					    1),
			"%s", err);
	TEST_ASSERT(opts.no_shconf && !opts.legacy_mem, "in-memory");
	TEST_ASSERT_SUCCESS(parse_resolve((const char *const[]){ "--no-huge",
							  NULL },
					    1),
			"%s", err);
	TEST_ASSERT(opts.legacy_mem && !opts.no_shconf, "no-huge");
	TEST_ASSERT_EQUAL(opts.memory, 64 * RTE_MB, "no-huge default -m");
	TEST_ASSERT(!opts.memory_given, "memory_given set by resolve");
	/* Resolving again gives the same result (no self-conflict). */
	memcpy(&once, &opts, sizeof(once));
	TEST_ASSERT_SUCCESS(
			eal_options_resolve(&opts, NULL, 1, err, sizeof(err)),
			"second resolve: %s", err);
	TEST_ASSERT(memcmp(&once, &opts, sizeof(once)) == 0, "not stable");
	TEST_ASSERT_SUCCESS(parse_resolve((const char *const[]){ "--no-huge",
							  "-m", "128", NULL },
					    1),
			"%s", err);
	TEST_ASSERT_EQUAL(opts.memory, 128 * RTE_MB, "no-huge -m 128");
	TEST_ASSERT_SUCCESS(
			parse_resolve(
					(const char *const[]){
							"--huge-unlink=never",
							NULL },
					1),
			"%s", err);
	TEST_ASSERT_EQUAL(opts.huge_unlink, EAL_HUGE_UNLINK_NEVER, "never");
	TEST_ASSERT(!opts.no_shconf && !opts.legacy_mem, "nothing implied");
	return TEST_SUCCESS;
}

static int
test_resolve_lcores(void)
{
	bool allowed[4] = { true, false, true, true };

	TEST_ASSERT_EQUAL(PARSE("-l", "3,0,2"), 2, "%s", err);
	TEST_ASSERT_SUCCESS(eal_options_resolve(&opts, allowed, 4, err,
					    sizeof(err)),
			"%s", err);
	TEST_ASSERT_EQUAL(PARSE("-l", "0-2"), 2, "%s", err);
	TEST_ASSERT_EQUAL(eal_options_resolve(
					  &opts, allowed, 4, err, sizeof(err)),
			-EINVAL, "CPU 1 not allowed");
	TEST_ASSERT(strcmp(err,
				    "option -l/--lcores lists CPU 1, which this "
				    "process may not run on") == 0,
			"got \"%s\"", err);
	TEST_ASSERT_SUCCESS(
			eal_options_resolve(&opts, NULL, 3, err, sizeof(err)),
			"NULL mask: %s", err);
	TEST_ASSERT_EQUAL(PARSE("-l", "0,4"), 2, "%s", err);
	TEST_ASSERT_EQUAL(eal_options_resolve(&opts, NULL, 4, err, sizeof(err)),
			-EINVAL, "CPU 4 of 4");
	TEST_ASSERT(strcmp(err,
				    "option -l/--lcores lists CPU 4, which this "
				    "process may not run on") == 0,
			"got \"%s\"", err);
	TEST_ASSERT_EQUAL(PARSE("-m", "1"), 2, "%s", err);
	TEST_ASSERT_SUCCESS(eal_options_resolve(&opts, allowed, 0, err,
					    sizeof(err)),
			"no -l checks no CPU: %s", err);
	return TEST_SUCCESS;
}

static struct unit_test_suite eal_options_suite = { .suite_name = "EAL options",
	.unit_test_cases = { TEST_CASE(test_defaults),
			TEST_CASE(test_return_counts),
			TEST_CASE(test_argv_unchanged), TEST_CASE(test_usage),
			TEST_CASE(test_huge_unlink_name),
			TEST_CASE(test_memory_forms),
			TEST_CASE(test_malloc_retain_forms),
			TEST_CASE(test_populate_threads_forms),
			TEST_CASE(test_huge_text_parse),
			TEST_CASE(test_memory_bad),
			TEST_CASE(test_socket_mem_forms),
			TEST_CASE(test_socket_mem_bad),
			TEST_CASE(test_opt_huge_dir),
			TEST_CASE(test_opt_file_prefix),
			TEST_CASE(test_huge_unlink_forms),
			TEST_CASE(test_huge_unlink_bad),
			TEST_CASE(test_switches), TEST_CASE(test_switches_bad),
			TEST_CASE(test_iova_mode), TEST_CASE(test_proc_type),
			TEST_CASE(test_keep_memzones_parse),
			TEST_CASE(test_memzone_image_parse),
			TEST_CASE(test_base_virtaddr),
			TEST_CASE(test_log_level),
			TEST_CASE(test_log_level_bad), TEST_CASE(test_lcores),
			TEST_CASE(test_lcores_bad), TEST_CASE(test_unknown),
			TEST_CASE(test_first_error_wins),
			TEST_CASE(test_resolve_conflicts),
			TEST_CASE(test_resolve_order),
			TEST_CASE(test_resolve_accepted),
			TEST_CASE(test_resolve_implied),
			TEST_CASE(test_resolve_lcores), TEST_CASES_END() } };

static int
test_eal_options(void)
{
	return unit_test_suite_runner(&eal_options_suite);
}

REGISTER_FAST_TEST(eal_options_autotest, NOHUGE_OK, ASAN_OK, test_eal_options);
