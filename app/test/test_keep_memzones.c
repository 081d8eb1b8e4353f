/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * --keep-memzones across real processes.
 *
 *  clean exit  a child reserves memzones of many shapes (sizes, alignments,
 *              bounds, IOVA-contiguous, over several pages), fills them and
 *              exits; the next start must find each by name with the same
 *              address, length, IOVA, socket, page size and flags and its
 *              contents intact, in every file layout (file per page,
 *              --single-file-segments, --legacy-mem);
 *  kill loop   a child reserves, rewrites and frees memzones at random and
 *              logs each operation to a pipe before and after it; it is
 *              killed with SIGKILL at a random instant; the next start must
 *              hold exactly what the log says (the operation under way may
 *              have happened or not, never half), and rte_zmalloc() must
 *              still give zeros. RTEMEM_KEEP_ITERATIONS (default 12) and
 *              RTEMEM_KEEP_SEED choose the run;
 *  mismatches  a different file layout, a damaged record, a missing page
 *              file, a run without --keep-memzones in between: one clear
 *              error, or with =discard-mismatch a warning and no memzone;
 *              the files are never harmed by the refused start;
 *  other user  another user with the same prefix and directory is
 *              refused keeping memzones there, and a run of it without
 *              the option neither finds nor harms root's.
 *
 * Each case has its own prefix and hugetlbfs directory, and removes its
 * files and runtime directory at the end.
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_malloc.h>
#include <rte_memory.h>
#include <rte_memzone.h>
#include <rte_random.h>
#include <stdarg.h>

#include "eal_keep.h"
#include "malloc_keep.h"
#include "test.h"

#define KZ_NAMES 24 /* memzone names the kill loop uses */
#define KZ_ITERATIONS 12
#define KZ_SEED 0x6b65
#define KZ_LOG_MAX (1 << 20)
#define KZ_MIXED UINT32_MAX /* content of no single generation */

/* ---- the content of a memzone: word j of generation g of name n ---- */

static inline uint64_t
kz_word(unsigned int n, uint32_t gen, size_t j)
{
	return ((uint64_t)gen << 32) | ((uint64_t)(n & 0xff) << 24) |
			(j & 0xffffff);
}

static void
kz_fill(void *p, size_t len, unsigned int n, uint32_t gen)
{
	uint64_t *w = p;
	size_t j;

	for (j = 0; j < len / 8; j++)
		w[j] = kz_word(n, gen, j);
}

/* The generation the whole content has, or KZ_MIXED. */
static uint32_t
kz_gen_of(const void *p, size_t len, unsigned int n)
{
	const uint64_t *w = p;
	uint32_t gen = (uint32_t)(w[0] >> 32);
	size_t j;

	for (j = 0; j < len / 8; j++)
		if (w[j] != kz_word(n, gen, j))
			return KZ_MIXED;
	return gen;
}

/* ---- child side ---- */

/* Print every memzone: name, address, length, IOVA, socket, page, flags. */
static void
kz_print_one(const struct rte_memzone *mz, void *arg)
{
	unsigned int n = 0;

	RTE_SET_USED(arg);
	sscanf(mz->name, "kz%u", &n);
	printf("Z %s %p %zu %#" PRIx64 " %d %" PRIu64 " %#x %" PRIu32 "\n",
			mz->name, mz->addr, mz->len, mz->iova, mz->socket_id,
			mz->hugepage_sz, mz->flags,
			kz_gen_of(mz->addr, mz->len, n));
}

/* rte_zmalloc() over memory the kept run dirtied must give zeros. */
static int
kz_zero_check(void)
{
	size_t len = 16 << 20, i;
	uint8_t *p = rte_zmalloc(NULL, len, 0);

	if (p == NULL) {
		printf("zmalloc failed\n");
		return 1;
	}
	for (i = 0; i < len && p[i] == 0; i++)
		;
	rte_free(p);
	printf("zero %s\n", i == len ? "ok" : "bad");
	return i == len ? 0 : 1;
}

/* Print what this start found. */
static int
kz_child_show(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	rte_memzone_walk(kz_print_one, NULL);
	return kz_zero_check();
}
REGISTER_CHILD_ACTION(kz_show, kz_child_show)

/* Memzones of many shapes, filled; printed as kz_show prints them. */
static int
kz_child_make(int argc, char **argv)
{
	static const struct {
		size_t len;
		unsigned int flags, align, bound;
	} shapes[] = {
		{ 64, 0, 64, 0 },
		{ 1000, 0, 4096, 0 },
		{ 300000, 0, 64, 0 },
		{ 3u << 20, 0, 64, 0 },
		/* Inside one page with the debug build's trailer too. */
		{ (1u << 20) - 4096, RTE_MEMZONE_IOVA_CONTIG, 1u << 20, 0 },
		{ 100000, RTE_MEMZONE_2MB | RTE_MEMZONE_SIZE_HINT_ONLY, 64,
				128 << 10 },
		{ 5u << 20, 0, 2u << 20, 0 },
		{ 4096, 0, 64, 0 },
	};
	unsigned int i;

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	for (i = 0; i < RTE_DIM(shapes); i++) {
		const struct rte_memzone *mz;
		char name[16];

		snprintf(name, sizeof(name), "kz%u", i);
		mz = rte_memzone_reserve_bounded(name, shapes[i].len,
				SOCKET_ID_ANY, shapes[i].flags, shapes[i].align,
				shapes[i].bound);
		if (mz == NULL) {
			printf("reserve %s failed: %s\n", name,
					rte_strerror(rte_errno));
			return 1;
		}
		kz_fill(mz->addr, mz->len, i, 7 + i);
	}
	/* Heap memory around them, which is not kept. */
	if (rte_malloc(NULL, 1 << 20, 0) == NULL)
		return 1;
	rte_memzone_walk(kz_print_one, NULL);
	return 0;
}
REGISTER_CHILD_ACTION(kz_make, kz_child_make)

/* Print the file holding the first page of each memzone: "F name path". */
static void
kz_print_file(const struct rte_memzone *mz, void *arg)
{
	const struct rte_memseg *ms = rte_mem_virt2memseg(mz->addr, NULL);
	char link[64], path[PATH_MAX];
	ssize_t n;
	int fd;

	RTE_SET_USED(arg);
	fd = ms != NULL ? rte_memseg_get_fd_thread_unsafe(ms) : -1;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = fd >= 0 ? readlink(link, path, sizeof(path) - 1) : -1;
	path[n > 0 ? n : 0] = '\0';
	printf("F %s %s\n", mz->name, path);
}

static int
kz_child_files(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	rte_memzone_walk(kz_print_file, NULL);
	return 0;
}
REGISTER_CHILD_ACTION(kz_files, kz_child_files)

/* Write one log line to descriptor @p fd, whole. */
static void kz_log(int fd, const char *fmt, ...) __rte_format_printf(2, 3);

static void
kz_log(int fd, const char *fmt, ...)
{
	char line[160];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (write(fd, line, (size_t)n) != n)
		abort();
}

/* A length for the kill loop: small ones often, some over many pages. */
static size_t
kz_rand_len(void)
{
	uint64_t r = rte_rand();

	if (r % 2 == 0)
		return 64 + (size_t)(r >> 8) % 65536;
	return 64 + (size_t)(r >> 8) % (6u << 20);
}

/* One random operation on name @p n; logged before ("B") and after. */
static int
kz_op(int fd, unsigned int n, uint32_t *gen)
{
	const struct rte_memzone *mz;
	char name[16];

	snprintf(name, sizeof(name), "kz%u", n);
	mz = rte_memzone_lookup(name);
	if (mz == NULL) {
		size_t len = kz_rand_len();

		kz_log(fd, "B R %u\n", n);
		mz = rte_memzone_reserve(name, len, SOCKET_ID_ANY, 0);
		if (mz == NULL) {
			kz_log(fd, "D X %u\n", n);
			return 0; /* out of memory: a failed reserve */
		}
		kz_fill(mz->addr, mz->len, n, ++gen[n]);
		kz_log(fd, "D R %u %p %zu %" PRIu32 "\n", n, mz->addr, mz->len,
				gen[n]);
	} else if (rte_rand() % 2 == 0) {
		kz_log(fd, "B F %u\n", n);
		if (rte_memzone_free(mz) != 0)
			return 1;
		kz_log(fd, "D F %u\n", n);
	} else {
		kz_log(fd, "B W %u\n", n);
		kz_fill(mz->addr, mz->len, n, ++gen[n]);
		kz_log(fd, "D W %u %" PRIu32 "\n", n, gen[n]);
	}
	return 0;
}

/*
 * args: FD SEED. Report what this start found ("P name addr len gen"),
 * free what is not whole, then operate until killed.
 */
static int
kz_child_ops(int argc, char **argv)
{
	uint32_t gen[KZ_NAMES];
	unsigned int n;
	int fd;

	if (argc < 3)
		return 1;
	fd = atoi(argv[1]);
	rte_srand(strtoull(argv[2], NULL, 0));
	for (n = 0; n < KZ_NAMES; n++) {
		const struct rte_memzone *mz;
		char name[16];

		snprintf(name, sizeof(name), "kz%u", n);
		mz = rte_memzone_lookup(name);
		gen[n] = 1000 * (uint32_t)n;
		if (mz == NULL)
			continue;
		gen[n] = kz_gen_of(mz->addr, mz->len, n);
		kz_log(fd, "P %u %p %zu %" PRIu32 "\n", n, mz->addr, mz->len,
				gen[n]);
		if (gen[n] == KZ_MIXED) {
			gen[n] = 1000 * (uint32_t)n + 500;
			kz_log(fd, "B F %u\n", n);
			rte_memzone_free(mz);
			kz_log(fd, "D F %u\n", n);
		}
	}
	kz_log(fd, "S\n");
	for (;;)
		if (kz_op(fd, (unsigned int)(rte_rand() % KZ_NAMES), gen) != 0)
			return 1;
}
REGISTER_CHILD_ACTION(kz_ops, kz_child_ops)

/* ---- parent side ---- */

struct kz_case {
	char dir[PATH_MAX];
	char prefix[32];
	char dir_arg[PATH_MAX + 16];
	char prefix_arg[64];
	char rt_table[PATH_MAX];
};

static int
kz_case_open(struct kz_case *c, const char *name)
{
	if (test_scratch_dir(name, c->dir, sizeof(c->dir)) < 0)
		return -1;
	snprintf(c->prefix, sizeof(c->prefix), "kz%s", name);
	snprintf(c->dir_arg, sizeof(c->dir_arg), "--huge-dir=%s", c->dir);
	snprintf(c->prefix_arg, sizeof(c->prefix_arg), "--file-prefix=%s",
			c->prefix);
	snprintf(c->rt_table, sizeof(c->rt_table),
			"/var/run/rtemem/%s/memzones", c->prefix);
	/* A table a failed run of this test left would not match. */
	unlink(c->rt_table);
	return 0;
}

/*
 * Run @p action with the case's directory and prefix, "--huge-unlink=
 * never", the extra EAL args @p extra, then "--" and @p app (both
 * NULL-terminated, may be NULL).
 */
static int
kz_run(const struct kz_case *c, const char *action, const char *const *extra,
		const char *const *app, struct test_child_result *res)
{
	const char *args[24] = { c->dir_arg, c->prefix_arg,
		"--huge-unlink=never", "-m", "0" };
	unsigned int n = 5, i;

	for (i = 0; extra != NULL && extra[i] != NULL; i++)
		args[n++] = extra[i];
	if (app != NULL) {
		args[n++] = "--";
		for (i = 0; app[i] != NULL; i++)
			args[n++] = app[i];
	}
	args[n] = NULL;
	return test_child_run(action, args, res);
}

/*
 * The last start, in the default mode, removes the files and the table;
 * then nothing of the case may be left.
 */
static int
kz_case_close(struct kz_case *c)
{
	char rt_dir[PATH_MAX];
	const char *args[] = { c->dir_arg, c->prefix_arg, "-m", "0", NULL };
	struct test_child_result res;
	struct stat st;
	int ret = TEST_SUCCESS;

	snprintf(rt_dir, sizeof(rt_dir), "/var/run/rtemem/%s", c->prefix);
	if (test_child_run(NULL, args, &res) != 0 || res.exit_code != 0) {
		printf("cleanup run: exit %d\n%s", res.exit_code, res.output);
		ret = TEST_FAILED;
	}
	if (test_dir_count(c->dir, NULL) != 0) {
		printf("%d entries left in %s\n", test_dir_count(c->dir, NULL),
				c->dir);
		ret = TEST_FAILED;
	}
	if (lstat(rt_dir, &st) == 0) {
		printf("%s left behind\n", rt_dir);
		ret = TEST_FAILED;
	}
	test_dir_clear(c->dir);
	if (test_scratch_dir_remove(c->dir) < 0)
		ret = TEST_FAILED;
	return ret;
}

/* The "Z ..." lines of @p out, sorted as printed (by table entry). */
static void
kz_zones(const char *out, char *buf, size_t len)
{
	const char *p = out, *e;
	size_t off = 0;

	buf[0] = '\0';
	while ((p = strstr(p, "Z kz")) != NULL) {
		e = strchr(p, '\n');
		if (e == NULL)
			break;
		if (p == out || p[-1] == '\n')
			off += snprintf(buf + off, len - off, "%.*s\n",
					(int)(e - p), p);
		p = e;
	}
}

static int
kz_skip_check(void)
{
	if (geteuid() != 0)
		return test_skip_hugepages(
				"not root: the runtime directory is /var/run");
	return TEST_SUCCESS;
}

/*
 * Run @p body on a new case named @p name, then remove everything of the
 * case whatever the body did: its assertions return early.
 */
static int
kz_with_case(const char *name, int (*body)(struct kz_case *c, const void *arg),
		const void *arg)
{
	struct kz_case c;
	int ret = kz_skip_check();

	if (ret != TEST_SUCCESS)
		return ret;
	if (kz_case_open(&c, name) < 0)
		return test_skip_hugepages("no hugetlbfs scratch directory");
	ret = body(&c, arg);
	if (kz_case_close(&c) != TEST_SUCCESS)
		ret = TEST_FAILED;
	return ret;
}

/* Each layout: make, exit, start again, find everything as it was. */
static int
kz_clean_exit_body(struct kz_case *c, const void *arg)
{
	const char *const *layout = arg;
	const char *extra[8] = { "--keep-memzones" };
	char made[4096], found[4096];
	struct test_child_result res;
	unsigned int i;
	int round;

	for (i = 0; layout[i] != NULL; i++)
		extra[i + 1] = layout[i];
	TEST_ASSERT_SUCCESS(kz_run(c, "kz_make", extra, NULL, &res), "make");
	TEST_ASSERT_EQUAL(res.exit_code, 0, "make: %s", res.output);
	kz_zones(res.output, made, sizeof(made));
	TEST_ASSERT(made[0] != '\0', "nothing made: %s", res.output);
	/* Twice: a restored memzone must be kept again at the next exit. */
	for (round = 0; round < 2; round++) {
		TEST_ASSERT_SUCCESS(kz_run(c, "kz_show", extra, NULL, &res),
				"show");
		TEST_ASSERT_EQUAL(res.exit_code, 0, "show: %s", res.output);
		kz_zones(res.output, found, sizeof(found));
		TEST_ASSERT(strcmp(made, found) == 0, "%s: made\n%sfound\n%s",
				c->prefix, made, found);
		TEST_ASSERT_STR_CONTAINS(res.output, "zero ok", "zmalloc");
	}
	return TEST_SUCCESS;
}

static int
test_kz_clean_exit(void)
{
	static const char *const page[] = { NULL };
	static const char *const single[] = { "--single-file-segments", NULL };
	static const char *const legacy[] = { "--legacy-mem", "-m", "64",
		NULL };
	int ret = kz_skip_check();

	if (ret == TEST_SUCCESS)
		ret = kz_with_case("page", kz_clean_exit_body, page);
	if (ret == TEST_SUCCESS)
		ret = kz_with_case("single", kz_clean_exit_body, single);
	if (ret == TEST_SUCCESS)
		ret = kz_with_case("legacy", kz_clean_exit_body, legacy);
	return ret;
}

/* ---- the kill loop ---- */

/* What the log says of a name. */
struct kz_zone {
	bool present;
	uint64_t addr;
	size_t len;
	uint32_t gen;
};

/* The log read so far and what it says. */
struct kz_log {
	char *buf;
	size_t len;
	bool started; /* "S" seen */
	struct kz_zone z[KZ_NAMES];
	char inflight; /* 'R', 'F', 'W' under way, or 0 */
	unsigned int inflight_n;
	unsigned int n_done; /* operations done in this iteration */
	unsigned int n_ops; /* in all iterations */
	unsigned int n_inflight; /* iterations killed inside one */
	unsigned int n_kept; /* memzones found after the kills */
};

/* Apply one log line. @return -1 if it is not one the child writes. */
static int
kz_log_apply(struct kz_log *l, const char *line)
{
	unsigned int n;
	unsigned long long addr;
	size_t len;
	uint32_t gen;
	char op;

	if (strcmp(line, "S") == 0) {
		l->started = true;
		return 0;
	}
	if (sscanf(line, "P %u %llx %zu %" SCNu32, &n, &addr, &len, &gen) ==
					4 &&
			n < KZ_NAMES) {
		l->z[n] = (struct kz_zone){ true, addr, len, gen };
		return 0;
	}
	if (sscanf(line, "B %c %u", &op, &n) == 2 && n < KZ_NAMES) {
		l->inflight = op;
		l->inflight_n = n;
		return 0;
	}
	if (sscanf(line, "D %c %u", &op, &n) != 2 || n >= KZ_NAMES)
		return -1;
	l->inflight = 0;
	l->n_done++;
	if (op == 'R' &&
			sscanf(line, "D R %u %llx %zu %" SCNu32, &n, &addr,
					&len, &gen) == 4)
		l->z[n] = (struct kz_zone){ true, addr, len, gen };
	else if (op == 'F')
		l->z[n].present = false;
	else if (op == 'W' && sscanf(line, "D W %u %" SCNu32, &n, &gen) == 2)
		l->z[n].gen = gen;
	else if (op != 'X')
		return -1;
	return 0;
}

static double
kz_now_ms(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec * 1e3 + now.tv_nsec / 1e6;
}

/* Read from @p fd until @p deadline_ms passes, EOF, or (@p until_start) "S". */
static int
kz_log_read(struct kz_log *l, int fd, double deadline_ms, bool until_start)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	double t;
	ssize_t n;

	for (;;) {
		t = kz_now_ms();
		if (t >= deadline_ms || (until_start && l->started))
			return 0;
		if (poll(&pfd, 1, (int)(deadline_ms - t) + 1) <= 0)
			continue;
		n = read(fd, l->buf + l->len, KZ_LOG_MAX - 1 - l->len);
		if (n <= 0)
			return n == 0 ? 1 : -1; /* 1: end of file */
		l->len += (size_t)n;
		l->buf[l->len] = '\0';
		if (until_start &&
				(strncmp(l->buf, "S\n", 2) == 0 ||
						strstr(l->buf, "\nS\n") !=
								NULL))
			l->started = true;
		if (l->len == KZ_LOG_MAX - 1)
			return 0;
	}
}

/* Apply every whole line of the log. */
static int
kz_log_parse(struct kz_log *l)
{
	char *line = l->buf, *e;

	while ((e = strchr(line, '\n')) != NULL) {
		*e = '\0';
		if (kz_log_apply(l, line) < 0) {
			printf("bad log line '%s'\n", line);
			return -1;
		}
		line = e + 1;
	}
	return 0;
}

/* Whether name @p n as found (@p f, NULL: absent) fits the log. */
static bool
kz_fits(const struct kz_log *l, unsigned int n, const struct kz_zone *f)
{
	const struct kz_zone *w = &l->z[n];
	bool inflight = l->inflight != 0 && l->inflight_n == n;
	bool same = f != NULL && w->present && f->addr == w->addr &&
			f->len == w->len;

	if (inflight && l->inflight == 'R')
		return f == NULL || f->len > 0;
	if (inflight && l->inflight == 'F')
		return f == NULL || (same && f->gen == w->gen);
	if (inflight && l->inflight == 'W')
		return same &&
				(f->gen == w->gen || f->gen == w->gen + 1 ||
						f->gen == KZ_MIXED);
	if (!w->present)
		return f == NULL;
	return same && f->gen == w->gen;
}

/* Compare what the next start found (kz_show output) with the log. */
static int
kz_compare(const struct kz_log *l, const char *out)
{
	struct kz_zone found[KZ_NAMES];
	bool seen[KZ_NAMES] = { false };
	const char *p = out;
	unsigned int n;
	int ret = TEST_SUCCESS;

	while ((p = strstr(p, "Z kz")) != NULL) {
		unsigned long long addr;
		size_t len;
		uint32_t gen;

		if (sscanf(p, "Z kz%u %llx %zu %*s %*s %*s %*s %" SCNu32, &n,
				    &addr, &len, &gen) != 4 ||
				n >= KZ_NAMES) {
			printf("bad line: %.60s\n", p);
			return TEST_FAILED;
		}
		found[n] = (struct kz_zone){ true, addr, len, gen };
		seen[n] = true;
		p++;
	}
	for (n = 0; n < KZ_NAMES; n++) {
		if (kz_fits(l, n, seen[n] ? &found[n] : NULL))
			continue;
		printf("kz%u: the log says %s %#" PRIx64 " %zu gen %" PRIu32
		       "%s%c; found %s %#" PRIx64 " %zu gen %" PRIu32 "\n",
				n, l->z[n].present ? "present" : "absent",
				l->z[n].addr, l->z[n].len, l->z[n].gen,
				l->inflight_n == n && l->inflight ?
						", under way: " :
						"",
				l->inflight_n == n && l->inflight ?
						l->inflight :
						' ',
				seen[n] ? "present" : "absent",
				seen[n] ? found[n].addr : 0,
				seen[n] ? found[n].len : 0,
				seen[n] ? found[n].gen : 0);
		ret = TEST_FAILED;
	}
	return ret;
}

/* Start the operating child with its log on a pipe; @return its pid. */
static pid_t
kz_spawn_ops(const struct kz_case *c, int *log_fd, uint64_t seed,
		struct test_child_result *res)
{
	char fd_s[16], seed_s[32];
	const char *args[] = { c->dir_arg, c->prefix_arg, "--huge-unlink=never",
		"-m", "0", "--keep-memzones", "--", fd_s, seed_s, NULL };
	int p[2];
	pid_t pid;

	/* The write end is inherited: the child logs into it. */
	if (pipe(p) < 0)
		return -1;
	fcntl(p[0], F_SETFD, FD_CLOEXEC);
	fcntl(p[0], F_SETPIPE_SZ, KZ_LOG_MAX);
	snprintf(fd_s, sizeof(fd_s), "%d", p[1]);
	snprintf(seed_s, sizeof(seed_s), "%#" PRIx64, seed);
	pid = test_child_spawn("kz_ops", args, res);
	close(p[1]);
	if (pid < 0)
		close(p[0]);
	*log_fd = p[0];
	return pid;
}

/* One iteration: operate, kill after @p delay_us, compare. */
static int
kz_kill_once(const struct kz_case *c, struct kz_log *l, uint64_t seed,
		unsigned int delay_us)
{
	const char *const extra[] = { "--keep-memzones", NULL };
	struct test_child_result res;
	const char *p;
	pid_t pid;
	int fd, ret;

	memset(l->z, 0, sizeof(l->z));
	l->len = 0;
	l->buf[0] = '\0';
	l->started = false;
	l->inflight = 0;
	l->n_done = 0;
	pid = kz_spawn_ops(c, &fd, seed, &res);
	TEST_ASSERT(pid > 0, "spawn: %s", res.output);
	ret = kz_log_read(l, fd, kz_now_ms() + 30000, true);
	/*
	 * Sleep rather than read: a reader woken by each line would run
	 * right after the child wrote one, and its kills would land between
	 * operations. The pipe holds what the child writes meanwhile.
	 */
	if (ret == 0 && l->started)
		usleep(delay_us);
	test_child_finish(pid, SIGKILL, &res);
	while (kz_log_read(l, fd, kz_now_ms() + 5000, false) == 0 &&
			l->len < KZ_LOG_MAX - 1)
		;
	close(fd);
	TEST_ASSERT(l->started, "the child did not start: %s", res.output);
	TEST_ASSERT_EQUAL(res.signal, SIGKILL, "exit %d: %s", res.exit_code,
			res.output);
	TEST_ASSERT_SUCCESS(kz_log_parse(l), "log");
	l->n_ops += l->n_done;
	TEST_ASSERT_SUCCESS(kz_run(c, "kz_show", extra, NULL, &res), "show");
	TEST_ASSERT_EQUAL(res.exit_code, 0, "the start after the kill: %s",
			res.output);
	TEST_ASSERT_STR_CONTAINS(res.output, "zero ok", "zmalloc");
	l->n_inflight += l->inflight != 0;
	for (p = res.output; (p = strstr(p, "\nZ kz")) != NULL; p++)
		l->n_kept++;
	return kz_compare(l, res.output);
}

static unsigned int
kz_env_uint(const char *name, unsigned int dflt)
{
	const char *s = getenv(name);

	return s != NULL ? (unsigned int)strtoul(s, NULL, 0) : dflt;
}

static int
test_kz_kill_loop(void)
{
	unsigned int iters = kz_env_uint(
			"RTEMEM_KEEP_ITERATIONS", KZ_ITERATIONS);
	uint64_t seed = kz_env_uint("RTEMEM_KEEP_SEED", KZ_SEED), r;
	struct kz_log l = { .buf = malloc(KZ_LOG_MAX) };
	unsigned int i, delay_us;
	struct kz_case c;
	int ret = kz_skip_check();

	if (ret != TEST_SUCCESS || l.buf == NULL) {
		free(l.buf);
		return ret;
	}
	if (kz_case_open(&c, "kill") < 0) {
		free(l.buf);
		return test_skip_hugepages("no hugetlbfs scratch directory");
	}
	printf("keep: seed %#" PRIx64 ", %u iterations\n", seed, iters);
	rte_srand(seed);
	for (i = 0; ret == TEST_SUCCESS && i < iters; i++) {
		r = rte_rand();
		delay_us = (unsigned int)(r % 40000);
		ret = kz_kill_once(&c, &l, r, delay_us);
		if (ret != TEST_SUCCESS)
			printf("keep: failed at iteration %u (kill after %u "
			       "us): rerun with RTEMEM_KEEP_SEED=%#" PRIx64
			       "\n",
					i, delay_us, seed);
	}
	printf("keep: %u operations, %u kills inside one, %u memzones "
	       "found after the kills\n",
			l.n_ops, l.n_inflight, l.n_kept);
	free(l.buf);
	if (kz_case_close(&c) != TEST_SUCCESS)
		ret = TEST_FAILED;
	/* Kills that never land inside an operation would prove little. */
	TEST_ASSERT(ret != TEST_SUCCESS || l.n_inflight > iters / 2,
			"only %u of %u kills inside an operation", l.n_inflight,
			iters);
	return ret;
}

/* ---- mismatches ---- */

/* Run kz_show with @p extra; expect the memzones of @p made, or none. */
static int
kz_expect(const struct kz_case *c, const char *const *extra, const char *made,
		const char *log)
{
	struct test_child_result res;
	char found[4096];

	TEST_ASSERT_SUCCESS(kz_run(c, "kz_show", extra, NULL, &res), "show");
	TEST_ASSERT_EQUAL(res.exit_code, 0, "show: %s", res.output);
	TEST_ASSERT_STR_CONTAINS(res.output, "zero ok", "zmalloc");
	kz_zones(res.output, found, sizeof(found));
	TEST_ASSERT(strcmp(found, made) == 0, "made\n%sfound\n%s", made, found);
	if (log != NULL)
		TEST_ASSERT_STR_CONTAINS(res.output, log, "log");
	return TEST_SUCCESS;
}

/*
 * Run kz_show with @p extra; expect a failed init saying @p msg. Its
 * output is left in @p res.
 */
static int
kz_expect_refused_res(const struct kz_case *c, const char *const *extra,
		const char *msg, struct test_child_result *res)
{
	TEST_ASSERT_SUCCESS(kz_run(c, "kz_show", extra, NULL, res), "show");
	TEST_ASSERT_EQUAL(res->exit_code, TEST_CHILD_INIT_FAILED, "started: %s",
			res->output);
	TEST_ASSERT_STR_CONTAINS(res->output, msg, "message");
	TEST_ASSERT_STR_CONTAINS(res->output,
			"give --keep-memzones=discard-mismatch to start without "
			"them",
			"message");
	return TEST_SUCCESS;
}

static int
kz_expect_refused(const struct kz_case *c, const char *const *extra,
		const char *msg)
{
	struct test_child_result res;

	return kz_expect_refused_res(c, extra, msg, &res);
}

/* XOR byte @p off of the kept table with @p x. */
static int
kz_poke(const struct kz_case *c, off_t off, uint8_t x)
{
	uint8_t b;
	int fd = open(c->rt_table, O_RDWR);
	int ret = -1;

	if (fd >= 0 && pread(fd, &b, 1, off) == 1) {
		b ^= x;
		ret = pwrite(fd, &b, 1, off) == 1 ? 0 : -1;
	}
	if (fd >= 0)
		close(fd);
	return ret;
}

/*
 * Whether the kz_files output @p files says that memzone @p zone has its
 * first page in @p path.
 */
static bool
kz_zone_on(const char *files, const char *zone, const char *path)
{
	char line[RTE_MEMZONE_NAMESIZE + PATH_MAX + 8];

	snprintf(line, sizeof(line), "F %s %s\n", zone, path);
	return strstr(files, line) != NULL;
}

/*
 * A refusal naming a memzone whose first page is in @p path (with large
 * pages, several zones share kz3's page, and any of them is reported).
 */
static int
kz_expect_missing(const struct kz_case *c, const char *const *extra,
		const char *files, const char *path)
{
	char want[PATH_MAX + 16], zone[RTE_MEMZONE_NAMESIZE];
	struct test_child_result res;
	const char *p;

	snprintf(want, sizeof(want), "': %s is missing", path);
	if (kz_expect_refused_res(c, extra, want, &res) != TEST_SUCCESS)
		return TEST_FAILED;
	p = strstr(res.output, "memzone '");
	TEST_ASSERT(p != NULL && sscanf(p, "memzone '%31[^']'", zone) == 1,
			"no memzone named: %s", res.output);
	TEST_ASSERT(kz_zone_on(files, zone, path),
			"memzone '%s' is not on %s: %s", zone, path, files);
	return TEST_SUCCESS;
}

/* A damaged record, then a missing page file: refused, files intact. */
static int
kz_mismatch_damage(const struct kz_case *c, const char *made)
{
	static const char *const keep[] = { "--keep-memzones", NULL };
	static const char *const discard[] = {
		"--keep-memzones=discard-mismatch", NULL
	};
	char remade[4096];
	off_t rec0 = EAL_KEEP_AREA_OFF + sizeof(struct malloc_keep_area) +
			offsetof(struct malloc_keep_rec, len);
	off_t iova0 = EAL_KEEP_AREA_OFF + sizeof(struct malloc_keep_area) +
			offsetof(struct malloc_keep_rec, iova) + 2;
	struct test_child_result res;
	char path[PATH_MAX], moved[PATH_MAX + 8];
	const char *f;

	TEST_ASSERT_SUCCESS(kz_poke(c, rec0, 0x40), "poke %s", c->rt_table);
	if (kz_expect_refused(c, keep, "record 0 is damaged (checksum)") != 0)
		return TEST_FAILED;
	TEST_ASSERT_SUCCESS(kz_poke(c, rec0, 0x40), "unpoke");
	if (kz_expect(c, keep, made, NULL) != TEST_SUCCESS)
		return TEST_FAILED;
	TEST_ASSERT_SUCCESS(kz_run(c, "kz_files", keep, NULL, &res), "files");
	f = strstr(res.output, "F kz3 ");
	TEST_ASSERT(f != NULL && sscanf(f, "F kz3 %4095s", path) == 1,
			"no file: %s", res.output);
	snprintf(moved, sizeof(moved), "%s.moved", path);
	TEST_ASSERT_SUCCESS(rename(path, moved), "rename %s", path);
	if (kz_expect_missing(c, keep, res.output, path) != TEST_SUCCESS)
		return TEST_FAILED;
	TEST_ASSERT_SUCCESS(rename(moved, path), "rename back");
	if (kz_expect(c, keep, made, NULL) != TEST_SUCCESS)
		return TEST_FAILED;
	/* A recorded IOVA that differs is reported once, then corrected. */
	TEST_ASSERT_SUCCESS(kz_poke(c, iova0, 0x10), "poke the IOVA");
	if (kz_expect(c, keep, made, "memzone 'kz0' is back with IOVA") !=
					TEST_SUCCESS ||
			kz_expect(c, keep, made, NULL) != TEST_SUCCESS)
		return TEST_FAILED;
	TEST_ASSERT_SUCCESS(kz_run(c, "kz_show", keep, NULL, &res), "show");
	TEST_ASSERT(strstr(res.output, "is back with IOVA") == NULL,
			"the IOVA was not corrected: %s", res.output);
	/* Discarded records: what this run reserves is kept, though. */
	TEST_ASSERT_SUCCESS(kz_poke(c, rec0, 0x40), "poke again");
	TEST_ASSERT_SUCCESS(kz_run(c, "kz_make", discard, NULL, &res), "make");
	TEST_ASSERT_EQUAL(res.exit_code, 0, "make: %s", res.output);
	TEST_ASSERT_STR_CONTAINS(res.output,
			"discarding the last run's memzones", "discard");
	kz_zones(res.output, remade, sizeof(remade));
	return kz_expect(c, keep, remade, NULL);
}

static int
kz_mismatch_body(struct kz_case *c, const void *arg)
{
	static const char *const keep[] = { "--keep-memzones", NULL };
	static const char *const single[] = { "--keep-memzones",
		"--single-file-segments", NULL };
	static const char *const discard[] = {
		"--keep-memzones=discard-mismatch", "--single-file-segments",
		NULL
	};
	static const char *const plain[] = { "--log-level=info", NULL };
	struct test_child_result res;
	char made[4096];

	RTE_SET_USED(arg);
	TEST_ASSERT_SUCCESS(kz_run(c, "kz_make", keep, NULL, &res), "make");
	TEST_ASSERT_EQUAL(res.exit_code, 0, "make: %s", res.output);
	kz_zones(res.output, made, sizeof(made));
	if (kz_expect_refused(c, single,
			    "cannot be brought back: the last run had one file "
			    "per page, this run --single-file-segments") != 0 ||
			kz_expect(c, keep, made, NULL) != TEST_SUCCESS ||
			kz_mismatch_damage(c, made) != TEST_SUCCESS)
		return TEST_FAILED;
	/* Discarded with a warning, then a new table from this run. */
	if (kz_expect(c, discard, "",
			    "--keep-memzones=discard-mismatch: discarding the "
			    "last run's memzones") != TEST_SUCCESS ||
			kz_expect(c, single, "", NULL) != TEST_SUCCESS)
		return TEST_FAILED;
	/* A run without --keep-memzones makes the table void. */
	TEST_ASSERT_SUCCESS(kz_run(c, "kz_make", keep, NULL, &res), "make");
	TEST_ASSERT_EQUAL(res.exit_code, 0, "make: %s", res.output);
	if (kz_expect(c, plain, "", "discarded the memzone table") !=
					TEST_SUCCESS ||
			kz_expect(c, keep, "", NULL) != TEST_SUCCESS)
		return TEST_FAILED;
	return TEST_SUCCESS;
}

static int
test_kz_mismatch(void)
{
	return kz_with_case("mis", kz_mismatch_body, NULL);
}

/* As uid 65534: keeping is refused, a plain run finds no memzone. */
static int
kz_other_user_runs(struct kz_case *c)
{
	static const char *const keep[] = { "--keep-memzones", NULL };
	static const char *const plain[] = { NULL };
	struct test_child_result res;
	char want[PATH_MAX * 2];

	snprintf(want, sizeof(want),
			"%s/%s.keep is uid 0's: another user keeps memzones with "
			"file prefix '%s' there",
			c->dir, c->prefix, c->prefix);
	TEST_ASSERT_SUCCESS(kz_run(c, "kz_show", keep, NULL, &res), "run");
	TEST_ASSERT_EQUAL(res.exit_code, TEST_CHILD_INIT_FAILED,
			"another user kept: %s", res.output);
	TEST_ASSERT_STR_CONTAINS(res.output, want, "message");
	return kz_expect(c, plain, "", NULL);
}

/*
 * Another user with the same prefix and directory gets none of root's
 * memzones and harms none: keeping is refused (the marker is root's), a
 * run without it serves itself from memory of its own.
 */
static int
kz_other_user_body(struct kz_case *c, const void *arg)
{
	static const char *const keep[] = { "--keep-memzones", NULL };
	struct test_child_result res;
	char made[4096];
	int ret;

	RTE_SET_USED(arg);
	TEST_ASSERT_SUCCESS(chmod(c->dir, 01777), "chmod %s", c->dir);
	TEST_ASSERT_SUCCESS(kz_run(c, "kz_make", keep, NULL, &res), "make");
	TEST_ASSERT_EQUAL(res.exit_code, 0, "make: %s", res.output);
	kz_zones(res.output, made, sizeof(made));
	unsetenv("XDG_RUNTIME_DIR");
	setenv("RTEMEM_TEST_CHILD_UID", "65534", 1);
	ret = kz_other_user_runs(c);
	unsetenv("RTEMEM_TEST_CHILD_UID");
	rmdir("/tmp/rtemem-65534");
	if (ret != TEST_SUCCESS)
		return ret;
	return kz_expect(c, keep, made, NULL);
}

static int
test_kz_other_user(void)
{
	return kz_with_case("user", kz_other_user_body, NULL);
}

static struct unit_test_suite kz_suite = {
	.suite_name = "memzones kept across restarts",
	.unit_test_cases = {
		TEST_CASE(test_kz_clean_exit),
		TEST_CASE(test_kz_mismatch),
		TEST_CASE(test_kz_other_user),
		TEST_CASE(test_kz_kill_loop),
		TEST_CASES_END(),
	},
};

static int
test_keep_memzones(void)
{
	return unit_test_suite_runner(&kz_suite);
}

REGISTER_FAST_TEST(keep_memzones_autotest, NOHUGE_SKIP, ASAN_OK,
		test_keep_memzones);
