/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Memzone images (rte_memzone_image.h, rtemem-image).
 *
 *  save     a child keeps memzones of several shapes (random data, all
 *           zero, zero but for a few bytes, small and over several
 *           pages) and saves them with rte_memzone_image_save(); after it
 *           exits, rtemem-image saves the same memzones from the kept
 *           hugepage files. Both images must hold exactly the memzones
 *           (names, addresses, lengths, flags), store exactly the chunks
 *           that are not zero, and give back each memzone's bytes; the
 *           kept memzones must come back untouched by the tool;
 *  refused  images cut short, with bytes after the end, damaged in the
 *           header, the metadata or the data, of another version, with
 *           overlapping memzones, without end marker, empty, or not an
 *           image at all: each refused with its own message;
 *  killed   a child saving over an existing image is killed at instants
 *           spread over the save: the path holds a complete image, the
 *           old one or the new one, and a temporary file left behind is
 *           refused, unless the kill came between its last write and its
 *           rename (then it is whole and passes verify);
 *  restore  every strategy brings the memzones back from an image whose
 *           files are gone, byte for byte, on one file per page and one
 *           file per list; another layout, a memory limit, a short pool
 *           and a damaged chunk are refused with nothing left;
 *  lazy     uffd-copy and uffd-minor with threads touching random pages
 *           first, with and without prefetching; an image cut short
 *           under a running lazy restore ends the process with one line,
 *           not a hang.
 *
 * Each case has its own prefix, hugetlbfs directory and image directory,
 * and removes them.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_memory.h>
#include <rte_memzone.h>
#include <rte_memzone_image.h>
#include <rte_string_fns.h>

#include "malloc_check.h"
#include "malloc_image.h"
#include "test.h"

extern char **environ;

#define MI_ZONES_MAX 16
#define MI_KILLS 6
#define MI_KILL_MB 48

/*
 * Whether rte_memzone_free() leaves the freed bytes alone: debug builds
 * poison them, which fills every page of a lazy restore first.
 */
#ifdef RTE_MALLOC_DEBUG
#define MI_FREE_UNTOUCHED false
#else
#define MI_FREE_UNTOUCHED true
#endif

/* ---- contents ---- */

static uint64_t
mi_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void
mi_fill(void *p, size_t len, uint64_t seed)
{
	unsigned char *b = p;
	uint64_t s = seed | 1, w;
	size_t i;

	for (i = 0; i + 8 <= len; i += 8) {
		w = mi_rand(&s);
		memcpy(b + i, &w, 8);
	}
	for (; i < len; i++)
		b[i] = (unsigned char)mi_rand(&s);
}

/* FNV-1a: independent of the image's own checksum. */
static uint64_t
mi_fnv(const void *p, size_t len)
{
	const unsigned char *b = p;
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ b[i]) * 0x100000001b3ULL;
	return h;
}

/* Bytes of the 2 MB windows of [p, p + len) that hold a non-zero byte. */
static uint64_t
mi_nonzero_bytes(const void *p, size_t len)
{
	uint64_t addr = (uint64_t)(uintptr_t)p, n = 0, i, a;
	uint32_t clen, j;

	for (i = 0; i < malloc_image_zone_chunks(addr, len); i++) {
		clen = malloc_image_chunk_at(addr, len, i, &a);
		for (j = 0; j < clen; j++)
			if (((const unsigned char *)(uintptr_t)a)[j] != 0)
				break;
		if (j < clen)
			n += clen;
	}
	return n;
}

/* ---- child side ---- */

/*
 * "Z name addr len flags fnv" per memzone, "E stored" in all, and "H ok"
 * when every heap element around them is whole (a lazy restore lays
 * init's headers over the pages it fills).
 */
static void
mi_print_one(const struct rte_memzone *mz, void *arg)
{
	uint64_t *stored = arg;

	if (strncmp(mz->name, "mi", 2) != 0)
		return;
	printf("Z %s %#" PRIx64 " %zu %#x %#" PRIx64 "\n", mz->name,
			mz->addr_64, mz->len, mz->flags,
			mi_fnv(mz->addr, mz->len));
	*stored += mi_nonzero_bytes(mz->addr, mz->len);
}

static void
mi_print_all(void)
{
	uint64_t stored = 0;

	char err[256];

	rte_memzone_walk(mi_print_one, &stored);
	printf("E %" PRIu64 "\n", stored);
	if (malloc_heap_check_all(false, err, sizeof(err)) == 0)
		printf("H ok\n");
	else
		printf("H %s\n", err);
}

static int
mi_child_make(int argc, char **argv)
{
	static const struct {
		size_t len;
		unsigned int align, flags;
		int content; /* 0 random, 1 zero, 2 sparse */
	} shapes[] = {
		{ 64, 64, 0, 0 },
		{ 1000, 4096, 0, 0 },
		{ 5u << 20, 2u << 20, 0, 0 },
		{ (3u << 20) + 100, 64,
				RTE_MEMZONE_2MB | RTE_MEMZONE_SIZE_HINT_ONLY,
				0 },
		{ 4u << 20, 64, 0, 1 },
		{ 6u << 20, 2u << 20, 0, 2 },
	};
	struct rte_memzone_image_save_conf conf = { .n_threads = 2 };
	struct rte_memzone_image_save_stats st;
	char err[512], name[16];
	unsigned int i;

	if (argc != 2)
		return 2;
	for (i = 0; i < RTE_DIM(shapes); i++) {
		const struct rte_memzone *mz;

		snprintf(name, sizeof(name), "mi%u", i);
		mz = rte_memzone_reserve_aligned(name, shapes[i].len,
				SOCKET_ID_ANY, shapes[i].flags,
				shapes[i].align);
		if (mz == NULL) {
			printf("reserve %s: %s\n", name,
					rte_strerror(rte_errno));
			return 1;
		}
		memset(mz->addr, 0, mz->len);
		if (shapes[i].content == 0)
			mi_fill(mz->addr, mz->len, 0x1000 + i);
		else if (shapes[i].content == 2) {
			mi_fill(mz->addr, 4096, 0x2000 + i);
			((char *)mz->addr)[(4u << 20) + 17] = 1;
		}
	}
	mi_print_all();
	if (rte_memzone_image_save(argv[1], &conf, &st, err, sizeof(err)) < 0) {
		printf("save: %s\n", err);
		return 1;
	}
	printf("S %u %" PRIu64 " %" PRIu64 " %u\n", st.n_zones, st.zone_bytes,
			st.stored_bytes, st.n_threads);
	return 0;
}
REGISTER_CHILD_ACTION(mi_make, mi_child_make)

static int
mi_child_show(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	mi_print_all();
	return 0;
}
REGISTER_CHILD_ACTION(mi_show, mi_child_show)

/*
 * Save an image of no memzone to argv[1] (with argument "save"), or
 * reserve memzone mi_k, fill it, and print every memzone (with "reserve").
 */
static int
mi_child_empty(int argc, char **argv)
{
	struct rte_memzone_image_save_conf conf = { .n_threads = 1 };
	const struct rte_memzone *mz;
	char err[512];

	if (argc == 3 && strcmp(argv[1], "save") == 0) {
		if (rte_memzone_image_save(argv[2], &conf, NULL, err,
				    sizeof(err)) < 0) {
			printf("save: %s\n", err);
			return 1;
		}
		return 0;
	}
	if (argc != 2 || strcmp(argv[1], "reserve") != 0)
		return 2;
	mz = rte_memzone_reserve("mi_k", 4096, SOCKET_ID_ANY, 0);
	if (mz == NULL) {
		printf("reserve: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	mi_fill(mz->addr, mz->len, 0x4b);
	mi_print_all();
	return 0;
}
REGISTER_CHILD_ACTION(mi_empty, mi_child_empty)

#define MI_TOUCHERS 4
#define MI_TOUCHES 3000

/* Read a byte of random 4 KB blocks of the "mi" memzones. */
static void *
mi_toucher(void *arg)
{
	uint64_t s = (uint64_t)(uintptr_t)arg * 0x9e3779b97f4a7c15ULL + 1;
	const struct rte_memzone *mz;
	volatile unsigned char sink = 0;
	char name[16];
	unsigned int k;

	for (k = 0; k < MI_TOUCHES; k++) {
		snprintf(name, sizeof(name), "mi%u",
				(unsigned int)(mi_rand(&s) % 6));
		mz = rte_memzone_lookup(name);
		if (mz != NULL)
			sink += ((const unsigned char *)mz->addr)[mi_rand(&s) %
					mz->len];
	}
	RTE_SET_USED(sink);
	return NULL;
}

/*
 * Threads touch random pages at once (a lazy restore fills them as they
 * come), then every memzone is read as mi_show does. With argument
 * "hold", wait for the parent's signal first.
 */
static int
mi_child_touch(int argc, char **argv)
{
	pthread_t t[MI_TOUCHERS];
	unsigned int i, n = 0;

	if (argc == 2 && strcmp(argv[1], "hold") == 0)
		test_child_ready_hold();
	for (i = 0; i < MI_TOUCHERS; i++)
		if (pthread_create(&t[n], NULL, mi_toucher,
				    (void *)(uintptr_t)(i + 1)) == 0)
			n++;
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	if (n != MI_TOUCHERS) {
		printf("started %u of %u threads\n", n, MI_TOUCHERS);
		return 1;
	}
	mi_print_all();
	return 0;
}
REGISTER_CHILD_ACTION(mi_touch, mi_child_touch)

/*
 * Free memzone mi5 before a lazy restore filled it (on touch only, and
 * --malloc-retain=0: its pages go back at once), take its place with a
 * new memzone of a known pattern, then read everything.
 */
static int
mi_child_free_touch(int argc, char **argv)
{
	const struct rte_memzone *mz = rte_memzone_lookup("mi5");
	unsigned char *p;
	size_t i, len;

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	if (mz == NULL || rte_memzone_free(mz) != 0)
		return 1;
	mz = rte_memzone_reserve("mx", 6u << 20, SOCKET_ID_ANY, 0);
	if (mz == NULL)
		return 2;
	p = mz->addr;
	len = mz->len;
	memset(p, 0xa5, len);
	mi_print_all();
	for (i = 0; i < len; i++)
		if (p[i] != 0xa5) {
			printf("mx changed at %zu\n", i);
			return 3;
		}
	return 0;
}
REGISTER_CHILD_ACTION(mi_free_touch, mi_child_free_touch)

/*
 * Count the page files in directory argv[1] before and after reading a
 * byte of the middle page of memzone mi5, which init leaves alone
 * ("F before after"), then read every memzone and every element header
 * (a heap dump walks them), and count again ("G n").
 */
static int
mi_child_files(int argc, char **argv)
{
	const struct rte_memzone *mz = rte_memzone_lookup("mi5");
	volatile char byte;
	int before;

	const struct rte_memseg *ms;
	int fd_before, errno_before;
	FILE *null;

	if (argc != 2 || mz == NULL)
		return 2;
	before = test_dir_count(argv[1], "map");
	ms = rte_mem_virt2memseg(RTE_PTR_ADD(mz->addr, mz->len / 2), NULL);
	if (ms == NULL)
		return 2;
	fd_before = rte_memseg_get_fd(ms);
	errno_before = rte_errno;
	byte = ((const char *)mz->addr)[mz->len / 2];
	RTE_SET_USED(byte);
	printf("F %d %d\n", before, test_dir_count(argv[1], "map"));
	/* No file to share before the fill; the page's own after it. */
	printf("D %s %s\n",
			fd_before < 0 && errno_before == EAGAIN ? "eagain" :
								  "other",
			rte_memseg_get_fd(ms) >= 0 ? "fd" : "none");
	mi_print_all();
	null = fopen("/dev/null", "w");
	if (null == NULL)
		return 2;
	rte_malloc_dump_heaps(null);
	fclose(null);
	printf("G %d\n", test_dir_count(argv[1], "map"));
	return 0;
}
REGISTER_CHILD_ACTION(mi_files, mi_child_files)

/* Page files 0 .. MI_FIFOS - 1 of the first list: the image's pages. */
#define MI_FIFOS 16

/*
 * Under the page file names argv[1]<n> that no file has yet (pages a
 * lazy restore has not filled), make FIFOs, or with "held:" before the
 * names, files of ours held by locks of their own (a second open file
 * of this process conflicts with the EAL's as another process's would);
 * read every memzone, and remove what was made.
 */
static int
mi_child_fifo(int argc, char **argv)
{
	const char *names = argc == 2 ? argv[1] : "";
	bool held = strncmp(names, "held:", 5) == 0;
	bool made[MI_FIFOS];
	int fds[MI_FIFOS];
	char path[PATH_MAX];
	unsigned int i, n = 0;

	if (argc != 2)
		return 2;
	names += held ? 5 : 0;
	for (i = 0; i < MI_FIFOS; i++) {
		snprintf(path, sizeof(path), "%s%u", names, i);
		fds[i] = held ? open(path, O_CREAT | O_EXCL | O_RDWR, 0600) :
				-1;
		made[i] = held ? fds[i] >= 0 && flock(fds[i], LOCK_SH) == 0 :
				 mkfifo(path, 0600) == 0;
		n += made[i];
	}
	printf("%u entries made\n", n);
	fflush(stdout);
	if (n > 0)
		mi_print_all();
	for (i = 0; i < MI_FIFOS; i++) {
		snprintf(path, sizeof(path), "%s%u", names, i);
		if (made[i] || fds[i] >= 0)
			unlink(path);
		if (fds[i] >= 0)
			close(fds[i]);
	}
	return n > 0 ? 0 : 3;
}
REGISTER_CHILD_ACTION(mi_fifo, mi_child_fifo)

/* Append "name fnv" of an "mi" memzone to the string buffer @p arg. */
static void
mi_fnv_line(const struct rte_memzone *mz, void *arg)
{
	char *buf = arg;
	size_t used = strlen(buf);

	if (strncmp(mz->name, "mi", 2) == 0)
		snprintf(buf + used, 4096 - used, "%s %#" PRIx64 "\n", mz->name,
				mi_fnv(mz->addr, mz->len));
}

/* The process's address space in bytes, per /proc/self/statm. */
static rlim_t
mi_vm_size(void)
{
	unsigned long pages = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f != NULL) {
		if (fscanf(f, "%lu", &pages) != 1)
			pages = 0;
		fclose(f);
	}
	return (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE);
}

/*
 * Fork before touching anything: the child sums every memzone and sends
 * the sums up a pipe, then this process sums them too, says whether
 * both saw the same bytes, and reads everything as mi_show does. With
 * @p tight, fork() finds no address space for a page buffer (RLIMIT_AS
 * at what is mapped, plus 1 MB).
 */
static int
mi_fork_run(bool tight)
{
	char mine[4096] = "", child[4096] = "";
	struct rlimit old, lim;
	int fds[2], status;
	ssize_t n, got = 0;
	pid_t pid;

	fflush(stdout);
	if (pipe(fds) != 0 || getrlimit(RLIMIT_AS, &old) != 0)
		return 1;
	lim = old;
	lim.rlim_cur = mi_vm_size() + (1u << 20);
	if (tight && setrlimit(RLIMIT_AS, &lim) != 0)
		return 1;
	pid = fork();
	if (tight && pid != 0 && setrlimit(RLIMIT_AS, &old) != 0)
		return 1;
	if (pid == 0) {
		rte_memzone_walk(mi_fnv_line, child);
		n = write(fds[1], child, strlen(child));
		_exit(n == (ssize_t)strlen(child) ? 0 : 1);
	}
	close(fds[1]);
	while (pid > 0 &&
			(n = read(fds[0], child + got,
					 sizeof(child) - 1 - got)) > 0)
		got += n;
	close(fds[0]);
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
			WEXITSTATUS(status) != 0)
		return 1;
	rte_memzone_walk(mi_fnv_line, mine);
	if (strcmp(mine, child) != 0)
		printf("forked child saw\n%sthe parent\n%s", child, mine);
	else
		printf("forked child saw the same bytes\n");
	mi_print_all();
	return 0;
}

static int
mi_child_fork(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	return mi_fork_run(false);
}
REGISTER_CHILD_ACTION(mi_fork, mi_child_fork)

static int
mi_child_fork_tight(int argc, char **argv)
{
	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	return mi_fork_run(true);
}
REGISTER_CHILD_ACTION(mi_fork_tight, mi_child_fork_tight)

/* One big memzone of random data, then saves to argv[1] when told. */
static int
mi_child_save(int argc, char **argv)
{
	struct rte_memzone_image_save_conf conf = { .n_threads = 1 };
	struct rte_memzone_image_save_stats st;
	const struct rte_memzone *mz;
	char err[512];

	if (argc != 2)
		return 2;
	mz = rte_memzone_reserve(
			"mi_big", (size_t)MI_KILL_MB << 20, SOCKET_ID_ANY, 0);
	if (mz == NULL) {
		printf("reserve: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	mi_fill(mz->addr, mz->len, (uint64_t)getpid());
	test_child_ready();
	if (rte_memzone_image_save(argv[1], &conf, &st, err, sizeof(err)) < 0) {
		printf("save: %s\n", err);
		return 1;
	}
	printf("T %" PRIu64 "\n", st.total_ns);
	return 0;
}
REGISTER_CHILD_ACTION(mi_save, mi_child_save)

/* ---- parent side ---- */

struct mi_case {
	char dir[PATH_MAX]; /* hugetlbfs */
	char img_dir[64]; /* images */
	char prefix[32];
	char dir_arg[PATH_MAX + 16];
	char prefix_arg[64];
};

static int
mi_case_open(struct mi_case *c, const char *name)
{
	if (geteuid() != 0)
		return test_skip_hugepages(
				"not root: the runtime directory is /var/run");
	if (test_scratch_dir(name, c->dir, sizeof(c->dir)) < 0)
		return test_skip_hugepages("no hugetlbfs scratch directory");
	strlcpy(c->img_dir, "/tmp/rtemem-image-test.XXXXXX",
			sizeof(c->img_dir));
	if (mkdtemp(c->img_dir) == NULL) {
		test_scratch_dir_remove(c->dir);
		printf("mkdtemp: %s\n", strerror(errno));
		return TEST_FAILED;
	}
	snprintf(c->prefix, sizeof(c->prefix), "mi%s", name);
	snprintf(c->dir_arg, sizeof(c->dir_arg), "--huge-dir=%s", c->dir);
	snprintf(c->prefix_arg, sizeof(c->prefix_arg), "--file-prefix=%s",
			c->prefix);
	return TEST_SUCCESS;
}

/* Run @p action with the case's memory, kept, and app argument @p app. */
static int
mi_run(const struct mi_case *c, const char *action, const char *app,
		struct test_child_result *res)
{
	const char *args[] = { c->dir_arg, c->prefix_arg, "--huge-unlink=never",
		"--keep-memzones", "-m", "0", "--", app, NULL };

	if (app == NULL)
		args[6] = NULL;
	return test_child_run(action, args, res);
}

/*
 * A last start without --keep-memzones removes the files and the table;
 * then nothing of the case may be left.
 */
static int
mi_case_close(struct mi_case *c)
{
	const char *args[] = { c->dir_arg, c->prefix_arg, "-m", "0", NULL };
	struct test_child_result res;
	char rt_dir[PATH_MAX];
	struct stat st;
	int ret = TEST_SUCCESS;

	if (test_child_run(NULL, args, &res) != 0 || res.exit_code != 0) {
		printf("cleanup run: exit %d\n%s", res.exit_code, res.output);
		ret = TEST_FAILED;
	}
	snprintf(rt_dir, sizeof(rt_dir), "/var/run/rtemem/%s", c->prefix);
	if (lstat(rt_dir, &st) == 0) {
		printf("%s left behind\n", rt_dir);
		ret = TEST_FAILED;
	}
	if (test_dir_count(c->dir, NULL) != 0) {
		printf("files left in %s\n", c->dir);
		ret = TEST_FAILED;
	}
	test_dir_clear(c->dir);
	if (test_scratch_dir_remove(c->dir) < 0)
		ret = TEST_FAILED;
	test_dir_clear(c->img_dir);
	rmdir(c->img_dir);
	return ret;
}

/* Run @p body in a case of its own named @p name, then take it down. */
static int
mi_with_case(const char *name, int (*body)(struct mi_case *c))
{
	struct mi_case c;
	int ret = mi_case_open(&c, name);

	if (ret != TEST_SUCCESS)
		return ret;
	ret = body(&c);
	if (mi_case_close(&c) != TEST_SUCCESS)
		ret = TEST_FAILED;
	return ret;
}

/* The lines of @p out starting with @p tag, in @p buf. */
static void
mi_lines(const char *out, char tag, char *buf, size_t len)
{
	const char *p = out, *e;
	size_t off = 0;

	buf[0] = '\0';
	for (; *p != '\0'; p = e + 1) {
		e = strchr(p, '\n');
		if (e == NULL)
			break;
		if (p[0] == tag && p[1] == ' ' && off < len)
			off += snprintf(buf + off, len - off, "%.*s\n",
					(int)(e - p + 1) - 1, p);
	}
}

static int
mi_str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sort the lines of @p buf, in place: a child lists memzones by table
 * entry, an image by address. */
static void
mi_sort_lines(char *buf, size_t len)
{
	char *lines[MI_ZONES_MAX + 2], *copy = strdup(buf), *p, *save;
	unsigned int n = 0, i;
	size_t off = 0;

	if (copy == NULL)
		return;
	for (p = strtok_r(copy, "\n", &save); p != NULL && n < RTE_DIM(lines);
			p = strtok_r(NULL, "\n", &save))
		lines[n++] = p;
	qsort(lines, n, sizeof(lines[0]), mi_str_cmp);
	buf[0] = '\0';
	for (i = 0; i < n; i++)
		off += snprintf(buf + off, len - off, "%s\n", lines[i]);
	free(copy);
}

/* The "Z" and "E" lines of @p out, sorted (see mi_sort_lines()). */
static void
mi_found(const char *out, char *buf, size_t len)
{
	char e[256];

	mi_lines(out, 'Z', buf, len);
	mi_lines(out, 'E', e, sizeof(e));
	strlcat(buf, e, len);
	mi_lines(out, 'H', e, sizeof(e));
	strlcat(buf, e, len);
	mi_sort_lines(buf, len);
}

/*
 * Whether @p out shows the memzones @p made shows (mi_found()); @p what
 * names the run in the message.
 */
static int
mi_expect_made(const char *out, const char *made, const char *what)
{
	char found[4096];

	mi_found(out, found, sizeof(found));
	TEST_ASSERT(strcmp(made, found) == 0, "%s: made\n%sfound\n%s", what,
			made, found);
	return TEST_SUCCESS;
}

/* The bytes of zone @p i of @p img, summed with mi_fnv(). */
static int
mi_image_zone_fnv(
		const struct rte_memzone_image *img, uint32_t i, uint64_t *fnv)
{
	const struct malloc_image_zone *z = &img->zones[i];
	const struct malloc_image_chunk *ch;
	unsigned char *buf = calloc(1, z->len);
	uint64_t j;
	int ret = 0;

	if (buf == NULL)
		return -ENOMEM;
	for (j = 0; j < z->n_chunks && ret == 0; j++) {
		ch = &img->chunks[z->first_chunk + j];
		if (ch->off != 0)
			ret = malloc_image_pread(img->fd,
					buf + (ch->addr - z->addr), ch->len,
					ch->off);
	}
	*fnv = mi_fnv(buf, z->len);
	free(buf);
	return ret;
}

/*
 * The image at @p path as "Z" lines, "E stored" and "H ok", as a child
 * prints.
 */
static int
mi_image_lines(const char *path, char *buf, size_t len)
{
	struct rte_memzone_image *img;
	uint64_t fnv;
	size_t off = 0;
	char err[512];
	uint32_t i;
	int ret;

	img = rte_memzone_image_open(path, err, sizeof(err));
	TEST_ASSERT_NOT_NULL(img, "open %s: %s", path, err);
	ret = rte_memzone_image_verify(img, 2, err, sizeof(err));
	if (ret < 0) {
		rte_memzone_image_close(img);
		TEST_ASSERT_SUCCESS(ret, "verify %s: %s", path, err);
	}
	for (i = 0; i < img->hdr.n_zones; i++) {
		const struct malloc_image_zone *z = &img->zones[i];

		ret = mi_image_zone_fnv(img, i, &fnv);
		if (ret < 0) {
			printf("cannot read %s: %s\n", path, strerror(-ret));
			rte_memzone_image_close(img);
			return TEST_FAILED;
		}
		off += snprintf(buf + off, len - off,
				"Z %s %#" PRIx64 " %" PRIu64 " %#x %#" PRIx64
				"\n",
				z->name, z->addr, z->len, z->flags, fnv);
	}
	snprintf(buf + off, len - off, "E %" PRIu64 "\nH ok\n",
			img->hdr.stored_bytes);
	rte_memzone_image_close(img);
	mi_sort_lines(buf, len);
	return TEST_SUCCESS;
}

/* Run rtemem-image with @p argv (argv[0] ignored); output in @p out. */
static int
mi_tool(char *const argv[], char *out, size_t len, int *status)
{
	const char *tool = getenv("RTEMEM_IMAGE");
	char path[] = "/tmp/rtemem-image-out.XXXXXX";
	posix_spawn_file_actions_t fa;
	char *args[32];
	ssize_t n;
	pid_t pid;
	int fd, i, ret;

	if (tool == NULL) {
		printf("RTEMEM_IMAGE does not name rtemem-image\n");
		return -1;
	}
	args[0] = (char *)(uintptr_t)tool;
	for (i = 1; argv[i] != NULL && i < 31; i++)
		args[i] = argv[i];
	args[i] = NULL;
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	unlink(path);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fd, 1);
	posix_spawn_file_actions_adddup2(&fa, fd, 2);
	ret = posix_spawn(&pid, tool, &fa, NULL, args, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (ret == 0 && waitpid(pid, status, 0) != pid)
		ret = -1;
	n = pread(fd, out, len - 1, 0);
	out[n > 0 ? n : 0] = '\0';
	close(fd);
	return ret == 0 ? 0 : -1;
}

static int
mi_save_body(struct mi_case *c)
{
	char in_proc[PATH_MAX], by_tool[PATH_MAX], out[8192];
	char made[4096], found[4096];
	char *tool_save[] = { NULL, (char *)(uintptr_t) "save",
		(char *)(uintptr_t) "--huge-dir", c->dir,
		(char *)(uintptr_t) "--file-prefix", c->prefix,
		(char *)(uintptr_t) "-o", by_tool,
		(char *)(uintptr_t) "--threads", (char *)(uintptr_t) "2",
		NULL };
	char *tool_info[] = { NULL, (char *)(uintptr_t) "info", by_tool, NULL };
	char *tool_verify[] = { NULL, (char *)(uintptr_t) "verify", by_tool,
		NULL };
	struct test_child_result res;
	unsigned int n, i;
	int status;

	snprintf(in_proc, sizeof(in_proc), "%s/in-process.img", c->img_dir);
	snprintf(by_tool, sizeof(by_tool), "%s/by-tool.img", c->img_dir);
	TEST_ASSERT_SUCCESS(mi_run(c, "mi_make", in_proc, &res), "make");
	TEST_ASSERT_EQUAL(res.exit_code, 0, "make: %s", res.output);
	mi_found(res.output, made, sizeof(made));
	TEST_ASSERT_STR_CONTAINS(res.output, "S 6 ", "six saved");

	/* The image written by the running process. */
	TEST_ASSERT_EQUAL(mi_image_lines(in_proc, found, sizeof(found)),
			TEST_SUCCESS, "in-process image");
	TEST_ASSERT(strcmp(made, found) == 0, "made\n%simage\n%s", made, found);

	/* The same memzones saved from the kept files by the tool. */
	TEST_ASSERT_SUCCESS(mi_tool(tool_save, out, sizeof(out), &status),
			"spawn rtemem-image");
	TEST_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0,
			"rtemem-image save: %s", out);
	TEST_ASSERT_STR_CONTAINS(out, "saved 6 memzones", "tool output");
	TEST_ASSERT_EQUAL(mi_image_lines(by_tool, found, sizeof(found)),
			TEST_SUCCESS, "tool image");
	TEST_ASSERT(strcmp(made, found) == 0, "made\n%stool\n%s", made, found);

	/* info lists every memzone; verify passes. */
	TEST_ASSERT_SUCCESS(mi_tool(tool_info, out, sizeof(out), &status),
			"spawn info");
	TEST_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0, "info: %s",
			out);
	for (n = 0, i = 0; i < 6; i++) {
		char name[16];

		snprintf(name, sizeof(name), "\nmi%u ", i);
		n += strstr(out, name) != NULL;
	}
	TEST_ASSERT_EQUAL(n, 6u, "info lists %u of 6 memzones:\n%s", n, out);
	TEST_ASSERT_SUCCESS(mi_tool(tool_verify, out, sizeof(out), &status),
			"spawn verify");
	TEST_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0, "verify: %s",
			out);
	TEST_ASSERT_STR_CONTAINS(out, "every checksum matches", "verify");

	/* The tool left the kept memzones as they were. */
	TEST_ASSERT_SUCCESS(mi_run(c, "mi_show", NULL, &res), "show");
	TEST_ASSERT_EQUAL(res.exit_code, 0, "show: %s", res.output);
	mi_found(res.output, found, sizeof(found));
	TEST_ASSERT(strcmp(made, found) == 0, "made\n%safter\n%s", made, found);
	return TEST_SUCCESS;
}

static int
test_memzone_image_save(void)
{
	return mi_with_case("save", mi_save_body);
}
REGISTER_FAST_TEST(memzone_image_save_autotest, NOHUGE_SKIP, ASAN_OK,
		test_memzone_image_save);

/* ---- refused images ---- */

/* Write @p len bytes of @p buf to @p path, replacing it. */
static int
mi_write(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	int ret;

	if (fd < 0)
		return -errno;
	ret = malloc_image_pwrite(fd, buf, len, 0);
	close(fd);
	return ret;
}

/* @p path must be refused at open, with a message holding @p why. */
static int
mi_expect_refused(const char *path, const char *what, const char *why)
{
	struct rte_memzone_image *img;
	char err[512] = "";

	img = rte_memzone_image_open(path, err, sizeof(err));
	if (img != NULL)
		rte_memzone_image_close(img);
	TEST_ASSERT_NULL(img, "%s: opened", what);
	TEST_ASSERT_EQUAL(
			rte_errno, EINVAL, "%s: rte_errno %d", what, rte_errno);
	TEST_ASSERT_STR_CONTAINS(err, why, "%s", what);
	TEST_ASSERT_STR_CONTAINS(err, path, "%s: names the file", what);
	printf("  %-26s %s\n", what, err);
	return TEST_SUCCESS;
}

/* Seal a header changed in place: its sum, and the end marker's. */
static void
mi_reseal(unsigned char *img, size_t len)
{
	struct malloc_image_hdr *h = (void *)img;
	struct malloc_image_end *e = (void *)(img + len - sizeof(*e));

	h->meta_sum = malloc_image_sum(img + h->meta_off, h->meta_len, NULL);
	h->sum = 0;
	h->sum = malloc_image_sum(h, sizeof(*h), NULL);
	e->hdr_sum = h->sum;
	e->sum = 0;
	e->sum = malloc_image_sum(e, sizeof(*e), NULL);
}

/* A good image of two memzones, in @p buf (malloc'd) and at @p path. */
/* The bytes of file @p path, malloc'd. */
static int
mi_read_all(const char *path, unsigned char **buf, size_t *len)
{
	struct stat st;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	TEST_ASSERT(fd >= 0 && fstat(fd, &st) == 0, "open %s", path);
	*len = (size_t)st.st_size;
	*buf = malloc(*len);
	ret = *buf == NULL ? -ENOMEM : malloc_image_pread(fd, *buf, *len, 0);
	close(fd);
	TEST_ASSERT_SUCCESS(ret, "read %s", path);
	return TEST_SUCCESS;
}

static int
mi_good_image(const char *path, unsigned char **buf, size_t *len)
{
	struct rte_memzone_image_save_conf conf = {
		.flags = RTE_MEMZONE_IMAGE_F_NO_SYNC,
	};
	const struct rte_memzone *a, *b;
	char err[512];
	int ret;

	a = rte_memzone_reserve("mi_r0", 3u << 20, SOCKET_ID_ANY, 0);
	b = rte_memzone_reserve("mi_r1", 64, SOCKET_ID_ANY, 0);
	TEST_ASSERT(a != NULL && b != NULL, "reserve: %s",
			rte_strerror(rte_errno));
	mi_fill(a->addr, a->len, 1);
	mi_fill(b->addr, b->len, 2);
	ret = rte_memzone_image_save(path, &conf, NULL, err, sizeof(err));
	rte_memzone_free(a);
	rte_memzone_free(b);
	TEST_ASSERT_SUCCESS(ret, "save: %s", err);
	return mi_read_all(path, buf, len);
}

/* Each way of breaking @p good (@p len bytes), refused at open. */
static int
mi_refuse_variants(const char *bad, unsigned char *good, size_t len)
{
	const struct malloc_image_hdr *gh = (const void *)good;
	unsigned char *v = malloc(len + 4096);
	struct malloc_image_zone *z;
	uint64_t seed = 5, cut;
	int i, ret = TEST_SUCCESS;

	TEST_ASSERT_NOT_NULL(v, "no memory");
#define MI_REFUSED(n, what, why) \
	do { \
		if (ret == TEST_SUCCESS && mi_write(bad, v, n) == 0) \
			ret = mi_expect_refused(bad, what, why); \
		memcpy(v, good, len); \
	} while (0)
	memcpy(v, good, len);
	MI_REFUSED(0, "empty", "too short for a memzone image");
	mi_fill(v, len, 9);
	MI_REFUSED(len, "random bytes", "is not a memzone image");
	for (i = 0; i < 4; i++) {
		cut = sizeof(*gh) + sizeof(struct malloc_image_end) +
				mi_rand(&seed) % (len - sizeof(*gh) - 64);
		MI_REFUSED(cut, "cut short", "is truncated");
	}
	memset(v + len, 0, 4096);
	MI_REFUSED(len + 4096, "bytes after the end", "after its end marker");
	v[offsetof(struct malloc_image_hdr, created_ns)] ^= 1;
	MI_REFUSED(len, "header damaged", "the header is damaged");
	((struct malloc_image_hdr *)(void *)v)->version = 3;
	mi_reseal(v, len);
	MI_REFUSED(len, "version 3",
			"is a version 3 memzone image; this rtemem reads "
			"versions 1 to 2");
	((struct malloc_image_hdr *)(void *)v)->version = 0;
	mi_reseal(v, len);
	MI_REFUSED(len, "version 0",
			"is a version 0 memzone image; this rtemem reads "
			"versions 1 to 2");
	v[len - 1] ^= 0x40;
	MI_REFUSED(len, "end marker damaged", "has no valid end marker");
	v[gh->meta_off + 3] ^= 1;
	MI_REFUSED(len, "metadata damaged", "the metadata is damaged");
	z = (void *)(v + gh->meta_off +
			gh->n_lists * sizeof(struct malloc_image_list));
	z[1].addr = z[0].addr;
	mi_reseal(v, len);
	MI_REFUSED(len, "memzones overlapping",
			"describes memzones that overlap");
	z[0].hugepage_sz /= 2;
	mi_reseal(v, len);
	MI_REFUSED(len, "page size not the list's",
			"whose page size is not its list's");
#undef MI_REFUSED
	free(v);
	return ret;
}

/* A byte of stored data changed: open passes, verify names the zone. */
static int
mi_refuse_data(const char *bad, unsigned char *good, size_t len)
{
	const struct malloc_image_hdr *gh = (const void *)good;
	struct rte_memzone_image *img;
	char err[512];
	int ret;

	good[gh->data_off + 1000] ^= 0x10;
	ret = mi_write(bad, good, len);
	good[gh->data_off + 1000] ^= 0x10;
	TEST_ASSERT_SUCCESS(ret, "write %s", bad);
	img = rte_memzone_image_open(bad, err, sizeof(err));
	TEST_ASSERT_NOT_NULL(img, "data damage found at open: %s", err);
	ret = rte_memzone_image_verify(img, 2, err, sizeof(err));
	rte_memzone_image_close(img);
	TEST_ASSERT_EQUAL(ret, -EILSEQ, "verify gave %d", ret);
	TEST_ASSERT_STR_CONTAINS(err, "is damaged at offset", "verify");
	TEST_ASSERT(strstr(err, "memzone mi_r0 ") != NULL ||
					strstr(err, "memzone mi_r1 ") != NULL,
			"names the memzone: %s", err);
	printf("  %-26s %s\n", "data damaged", err);
	return TEST_SUCCESS;
}

/* The result of rte_memzone_image_verify() on @p len bytes at @p v. */
static int
mi_verify_bytes(const char *path, const unsigned char *v, size_t len, char *err,
		size_t err_len)
{
	struct rte_memzone_image *img;
	int ret;

	if (mi_write(path, v, len) != 0)
		return -EIO;
	img = rte_memzone_image_open(path, err, err_len);
	if (img == NULL)
		return -rte_errno;
	ret = rte_memzone_image_verify(img, 2, err, err_len);
	rte_memzone_image_close(img);
	return ret;
}

/*
 * Version 1 images (chunk sums of malloc_image_sum()) are still read;
 * the version decides the sum; 64-byte stripes moved within a chunk of
 * a version 2 image are caught (its keys depend on the place).
 */
static int
mi_chunk_sums(const char *bad, const unsigned char *good, size_t len)
{
	const struct malloc_image_hdr *gh = (const void *)good;
	unsigned char *v = malloc(len), stripe[64];
	struct malloc_image_chunk *c;
	char err[512];
	uint64_t i;
	int ret;

	TEST_ASSERT_NOT_NULL(v, "no memory");
	memcpy(v, good, len);
	c = (void *)(v + gh->meta_off +
			gh->n_lists * sizeof(struct malloc_image_list) +
			gh->n_zones * sizeof(struct malloc_image_zone));
	TEST_ASSERT_EQUAL(
			gh->version, 2u, "written as version %u", gh->version);
	for (i = 0; i < gh->n_chunks; i++)
		if (c[i].off != 0)
			c[i].sum = malloc_image_sum(
					v + c[i].off, c[i].len, NULL);
	mi_reseal(v, len);
	ret = mi_verify_bytes(bad, v, len, err, sizeof(err));
	TEST_ASSERT_EQUAL(
			ret, -EILSEQ, "version 2 with version 1 sums: %d", ret);
	((struct malloc_image_hdr *)(void *)v)->version = 1;
	mi_reseal(v, len);
	ret = mi_verify_bytes(bad, v, len, err, sizeof(err));
	TEST_ASSERT_SUCCESS(ret, "version 1 image: %s", err);
	printf("  %-26s verified\n", "version 1 image");
	/* Two stripes of the first stored chunk swapped. */
	memcpy(v, good, len);
	for (i = 0; i < gh->n_chunks && c[i].off == 0; i++)
		;
	TEST_ASSERT(i < gh->n_chunks && c[i].len >= 256, "no chunk to move");
	memcpy(stripe, v + c[i].off, 64);
	memcpy(v + c[i].off, v + c[i].off + 128, 64);
	memcpy(v + c[i].off + 128, stripe, 64);
	ret = mi_verify_bytes(bad, v, len, err, sizeof(err));
	free(v);
	TEST_ASSERT_EQUAL(ret, -EILSEQ, "stripes moved: %d", ret);
	printf("  %-26s %s\n", "stripes moved", err);
	return TEST_SUCCESS;
}

static int
test_memzone_image_refused(void)
{
	char dir[] = "/tmp/rtemem-image-test.XXXXXX";
	char good_path[64], bad_path[64];
	unsigned char *good = NULL;
	size_t len = 0;
	int ret;

	if (mkdtemp(dir) == NULL)
		return TEST_FAILED;
	snprintf(good_path, sizeof(good_path), "%s/good.img", dir);
	snprintf(bad_path, sizeof(bad_path), "%s/bad.img", dir);
	ret = mi_good_image(good_path, &good, &len);
	if (ret == TEST_SUCCESS)
		ret = mi_refuse_variants(bad_path, good, len);
	if (ret == TEST_SUCCESS)
		ret = mi_refuse_data(bad_path, good, len);
	if (ret == TEST_SUCCESS)
		ret = mi_chunk_sums(bad_path, good, len);
	free(good);
	unlink(good_path);
	unlink(bad_path);
	rmdir(dir);
	return ret;
}
REGISTER_FAST_TEST(memzone_image_refused_autotest, NOHUGE_SKIP, ASAN_OK,
		test_memzone_image_refused);

/* ---- saves killed halfway ---- */

static int
mi_kill_args(const struct mi_case *c, const char *path, const char **args)
{
	args[0] = c->dir_arg;
	args[1] = c->prefix_arg;
	args[2] = "-m";
	args[3] = "0";
	args[4] = "--";
	args[5] = path;
	args[6] = NULL;
	return 0;
}

/* The image at @p path is complete: @p created_ns gets its save time. */
static int
mi_expect_whole(const char *path, uint64_t *created_ns)
{
	struct rte_memzone_image_info in;
	struct rte_memzone_image *img;
	char err[512];
	int ret;

	img = rte_memzone_image_open(path, err, sizeof(err));
	TEST_ASSERT_NOT_NULL(img, "%s", err);
	ret = rte_memzone_image_verify(img, 2, err, sizeof(err));
	rte_memzone_image_info_get(img, &in);
	rte_memzone_image_close(img);
	TEST_ASSERT_SUCCESS(ret, "%s", err);
	TEST_ASSERT(in.n_zones == 1 &&
					in.stored_bytes ==
							(uint64_t)MI_KILL_MB
									<< 20,
			"%u memzones, %" PRIu64 " bytes", in.n_zones,
			in.stored_bytes);
	*created_ns = in.created_ns;
	return TEST_SUCCESS;
}

/* Temporary files a killed save left in @p dir: refused, then removed. */
static int
mi_kill_leftovers(const char *dir, unsigned int *n_left)
{
	struct rte_memzone_image *img;
	char path[PATH_MAX], err[512];
	struct dirent *de;
	int ret = TEST_SUCCESS;
	DIR *d = opendir(dir);

	TEST_ASSERT_NOT_NULL(d, "opendir %s", dir);
	while (ret == TEST_SUCCESS && (de = readdir(d)) != NULL) {
		if (strstr(de->d_name, ".tmp-") == NULL)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		img = rte_memzone_image_open(path, err, sizeof(err));
		/* Killed between its last write and the rename: whole. */
		if (img != NULL &&
				rte_memzone_image_verify(
						img, 1, err, sizeof(err)) < 0) {
			printf("a killed save's %s opens: %s\n", path, err);
			ret = TEST_FAILED;
		} else if (img == NULL && strstr(err, "truncated") == NULL &&
				strstr(err, "too short") == NULL &&
				strstr(err, "not a memzone image") == NULL) {
			printf("not refused as cut short: %s\n", err);
			ret = TEST_FAILED;
		}
		rte_memzone_image_close(img);
		unlink(path);
		(*n_left)++;
	}
	closedir(d);
	return ret;
}

static int
mi_kill_body(struct mi_case *c)
{
	const char *args[8];
	char path[PATH_MAX];
	struct test_child_result res;
	uint64_t save_ns = 0, old_ns, now_ns;
	unsigned int k, n_left = 0, n_new = 0;
	struct timespec ts;
	const char *t;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/killed.img", c->img_dir);
	mi_kill_args(c, path, args);
	pid = test_child_start("mi_save", args, &res);
	TEST_ASSERT(pid > 0, "start: %s", res.output);
	TEST_ASSERT_SUCCESS(test_child_finish(pid, 0, &res), "finish");
	t = strstr(res.output, "\nT ");
	TEST_ASSERT(res.exit_code == 0 && t != NULL &&
					sscanf(t, "\nT %" SCNu64, &save_ns) ==
							1,
			"first save: %s", res.output);
	TEST_ASSERT_EQUAL(mi_expect_whole(path, &old_ns), TEST_SUCCESS,
			"first image");
	for (k = 0; k < MI_KILLS; k++) {
		uint64_t wait_ns = save_ns * k / (MI_KILLS - 2);

		pid = test_child_start("mi_save", args, &res);
		TEST_ASSERT(pid > 0, "start: %s", res.output);
		ts.tv_sec = (time_t)(wait_ns / 1000000000ULL);
		ts.tv_nsec = (long)(wait_ns % 1000000000ULL);
		nanosleep(&ts, NULL);
		test_child_finish(pid, SIGKILL, &res);
		TEST_ASSERT_EQUAL(mi_expect_whole(path, &now_ns), TEST_SUCCESS,
				"after a kill at %" PRIu64 " us",
				wait_ns / 1000);
		TEST_ASSERT(now_ns >= old_ns, "an older image came back");
		n_new += now_ns > old_ns;
		old_ns = now_ns;
		TEST_ASSERT_EQUAL(mi_kill_leftovers(c->img_dir, &n_left),
				TEST_SUCCESS, "leftovers");
	}
	printf("save of %d MB: %.1f ms; killed %u times: %u left a "
	       "temporary file (refused), %u had finished\n",
			MI_KILL_MB, save_ns / 1e6, MI_KILLS, n_left, n_new);
	TEST_ASSERT(n_left > 0, "no kill landed inside a save");
	return TEST_SUCCESS;
}

static int
test_memzone_image_killed(void)
{
	return mi_with_case("killed", mi_kill_body);
}
REGISTER_FAST_TEST(memzone_image_killed_autotest, NOHUGE_SKIP, ASAN_OK,
		test_memzone_image_killed);

/* ---- restore ---- */

/*
 * The arguments of a start with --memzone-image=@p img (in @p img_arg)
 * and @p extra (NULL-terminated), the case's memory kept, and app
 * argument @p app (may be NULL), into @p args (16 entries).
 */
static void
mi_restore_args(const struct mi_case *c, const char *img,
		const char *const *extra, const char *app, char *img_arg,
		const char **args)
{
	const char *base[] = { c->dir_arg, c->prefix_arg, "--huge-unlink=never",
		"--keep-memzones", "-m", "0", img_arg };
	unsigned int n, i;

	snprintf(img_arg, PATH_MAX + 32, "--memzone-image=%s", img);
	for (n = 0; n < RTE_DIM(base); n++)
		args[n] = base[n];
	for (i = 0; extra != NULL && extra[i] != NULL && n < 13; i++)
		args[n++] = extra[i];
	if (app != NULL) {
		args[n++] = "--";
		args[n++] = app;
	}
	args[n] = NULL;
}

/*
 * Start with --memzone-image=@p img and @p extra (NULL-terminated), and
 * the case's memory kept; the memzones found, as mi_show prints them.
 */
static int
mi_restore_run(const struct mi_case *c, const char *img,
		const char *const *extra, struct test_child_result *res)
{
	char img_arg[PATH_MAX + 32];
	const char *args[16];

	mi_restore_args(c, img, extra, NULL, img_arg, args);
	return test_child_run("mi_show", args, res);
}

/* Print the line of @p out that holds @p what, indented. */
static void
mi_print_line(const char *out, const char *what)
{
	const char *p = strstr(out, what), *b, *e;

	if (p == NULL)
		return;
	for (b = p; b > out && b[-1] != '\n'; b--)
		;
	e = strchr(p, '\n');
	printf("  %.*s\n", (int)(e != NULL ? e - b : (long)strlen(b)), b);
}

/* Remove the case's files and kept table (a start without the option). */
static int
mi_forget(const struct mi_case *c)
{
	const char *args[] = { c->dir_arg, c->prefix_arg, "-m", "0", NULL };
	struct test_child_result res;

	TEST_ASSERT(test_child_run(NULL, args, &res) == 0 && res.exit_code == 0,
			"forget: %s", res.output);
	TEST_ASSERT_EQUAL(test_dir_count(c->dir, NULL), 0, "files left");
	return TEST_SUCCESS;
}

/*
 * --socket-limit=8 (MB) against 18 MB of memzones: the first memzones'
 * pages are mapped before the limit refuses the rest. The start fails
 * with the limit named, and its pages go with it (default unlink mode).
 */
static int
mi_limited_restore(const struct mi_case *c, const char *img,
		struct test_child_result *res)
{
	char img_arg[PATH_MAX + 32];
	const char *args[] = { c->dir_arg, c->prefix_arg, "-m", "0",
		"--socket-limit=8", img_arg, NULL };

	snprintf(img_arg, sizeof(img_arg), "--memzone-image=%s", img);
	TEST_ASSERT_SUCCESS(test_child_run("mi_show", args, res), "run");
	TEST_ASSERT_EQUAL(res->exit_code, TEST_CHILD_INIT_FAILED, "%s",
			res->output);
	TEST_ASSERT_STR_CONTAINS(res->output,
			"would pass a memory limit of NUMA node 0 (--socket-limit",
			"limit");
	mi_print_line(res->output, "(--socket-limit");
	TEST_ASSERT_EQUAL(test_dir_count(c->dir, "map"), 0,
			"pages left by a restore refused half way");
	return TEST_SUCCESS;
}

/*
 * A hugepage pool shorter than the image (a hugetlb cgroup allowing half
 * of its pages, reservations included: 6 of 12 pages of 2 MB, none of
 * its one page of 1 GB): the start fails while mapping, eager or lazy,
 * and every page it had goes with it.
 */
static int
mi_short_pool(const struct mi_case *c, const char *img)
{
	static const char *const strategies[] = {
		"--memzone-image-strategy=pread",
		"--memzone-image-strategy=uffd-copy",
		"--memzone-image-strategy=uffd-minor",
	};
	uint64_t page_sz = test_huge_page_size();
	uint64_t allowed = page_sz == (2u << 20) ? 6 * page_sz : 0;
	char img_arg[PATH_MAX + 32];
	const char *args[] = { c->dir_arg, c->prefix_arg, "-m", "0",
		"--iova-mode=va", img_arg, NULL, NULL };
	struct test_child_result res;
	struct test_hugetlb_cg cg;
	unsigned int i;
	int ret;

	snprintf(img_arg, sizeof(img_arg), "--memzone-image=%s", img);
	for (i = 0; i < RTE_DIM(strategies); i++) {
		TEST_ASSERT_SUCCESS(test_hugetlb_cg_create(&cg, page_sz,
						    allowed, true),
				"cannot make a hugetlb cgroup");
		args[6] = strategies[i];
		test_hugetlb_cg_enter(&cg);
		ret = test_child_run("mi_show", args, &res);
		test_hugetlb_cg_destroy(&cg);
		TEST_ASSERT_SUCCESS(ret, "run");
		TEST_ASSERT_EQUAL(res.exit_code, TEST_CHILD_INIT_FAILED,
				"%s: %s", strategies[i], res.output);
		TEST_ASSERT_STR_CONTAINS(
				res.output, "cannot map", "%s", strategies[i]);
		TEST_ASSERT_EQUAL(test_dir_count(c->dir, "map"), 0,
				"%s: pages left", strategies[i]);
		mi_print_line(res.output, "cannot map");
	}
	return TEST_SUCCESS;
}

/* One byte of stored data changed: each strategy refuses the start. */
static int
mi_damaged_restore(const struct mi_case *c, const char *img,
		struct test_child_result *res)
{
	static const char *const strategies[] = { "pread", "mmap", "direct" };
	char bad[PATH_MAX + 8], img_arg[PATH_MAX + 48], st_arg[64];
	const char *args[] = { c->dir_arg, c->prefix_arg, "-m", "0", img_arg,
		st_arg, NULL };
	const struct malloc_image_chunk *ch, *big;
	const struct malloc_image_hdr *h;
	unsigned char *buf;
	unsigned int i;
	uint64_t k;
	size_t len;
	int ret;

	snprintf(bad, sizeof(bad), "%s.bad", img);
	TEST_ASSERT_EQUAL(mi_read_all(img, &buf, &len), TEST_SUCCESS, "read");
	/* The middle of the largest stored chunk. */
	h = (const void *)buf;
	ch = (const void *)(buf + h->meta_off +
			h->n_lists * sizeof(struct malloc_image_list) +
			h->n_zones * sizeof(struct malloc_image_zone));
	for (k = 0, big = NULL; k < h->n_chunks; k++)
		if (ch[k].off != 0 && (big == NULL || ch[k].len > big->len))
			big = &ch[k];
	TEST_ASSERT_NOT_NULL(big, "no stored chunk");
	buf[big->off + big->len / 2] ^= 0x20;
	ret = mi_write(bad, buf, len);
	free(buf);
	TEST_ASSERT_SUCCESS(ret, "write %s", bad);
	snprintf(img_arg, sizeof(img_arg), "--memzone-image=%s", bad);
	for (i = 0; i < RTE_DIM(strategies); i++) {
		snprintf(st_arg, sizeof(st_arg), "--memzone-image-strategy=%s",
				strategies[i]);
		TEST_ASSERT_SUCCESS(
				test_child_run("mi_show", args, res), "run");
		TEST_ASSERT_EQUAL(res->exit_code, TEST_CHILD_INIT_FAILED,
				"%s: %s", strategies[i], res->output);
		TEST_ASSERT_STR_CONTAINS(res->output, "is damaged at offset",
				"%s", strategies[i]);
		TEST_ASSERT_EQUAL(test_dir_count(c->dir, "map"), 0,
				"%s: pages left", strategies[i]);
	}
	mi_print_line(res->output, "is damaged at offset");
	unlink(bad);
	return TEST_SUCCESS;
}

static int
mi_restore_body(struct mi_case *c)
{
	static const char *const strategies[][3] = {
		{ "--memzone-image-strategy=pread", "--memzone-image-threads=1",
				NULL },
		{ "--memzone-image-strategy=pread", "--memzone-image-threads=2",
				NULL },
		{ "--memzone-image-strategy=mmap", NULL },
		{ "--memzone-image-strategy=direct", NULL },
		{ "--memzone-image-strategy=pread", "--single-file-segments",
				NULL },
		{ "--memzone-image-strategy=auto", NULL },
	};
	static const char *const elsewhere[] = {
		"--base-virtaddr=0x300000000000", NULL
	};
	char img[PATH_MAX], made[4096], found[4096];
	struct test_child_result res;
	unsigned int s;

	snprintf(img, sizeof(img), "%s/restore.img", c->img_dir);
	TEST_ASSERT_SUCCESS(mi_run(c, "mi_make", img, &res), "make");
	TEST_ASSERT_EQUAL(res.exit_code, 0, "make: %s", res.output);
	mi_found(res.output, made, sizeof(made));
	for (s = 0; s < RTE_DIM(strategies); s++) {
		/* The files are gone, as after a reboot. */
		TEST_ASSERT_EQUAL(mi_forget(c), TEST_SUCCESS, "forget");
		TEST_ASSERT_SUCCESS(mi_restore_run(c, img, strategies[s], &res),
				"restore");
		TEST_ASSERT_EQUAL(res.exit_code, 0, "%s: %s", strategies[s][0],
				res.output);
		mi_found(res.output, found, sizeof(found));
		TEST_ASSERT(strcmp(made, found) == 0,
				"%s %s: made\n%sfound\n%s", strategies[s][0],
				strategies[s][1] ? strategies[s][1] : "", made,
				found);
		TEST_ASSERT_STR_CONTAINS(res.output, "brought back 6 memzones",
				"%s", strategies[s][0]);
		if (strstr(strategies[s][0], "=auto") != NULL)
			TEST_ASSERT_STR_CONTAINS(res.output,
					"--memzone-image-strategy=auto: ",
					"auto says what it picked");
		mi_print_line(res.output, "strategy=auto: ");
		mi_print_line(res.output, "brought back 6 memzones");
	}

	/* Kept by the last start: the files win, the image is not read. */
	TEST_ASSERT_SUCCESS(mi_restore_run(c, img, NULL, &res), "again");
	TEST_ASSERT_EQUAL(res.exit_code, 0, "again: %s", res.output);
	TEST_ASSERT_STR_CONTAINS(res.output, "is not read", "files first");
	mi_found(res.output, found, sizeof(found));
	TEST_ASSERT(strcmp(made, found) == 0, "kept: made\n%sfound\n%s", made,
			found);

	/*
	 * A reboot: the kept table stays in the runtime directory, its files
	 * are gone. Strict --keep-memzones gives way to the image.
	 */
	test_dir_clear(c->dir);
	TEST_ASSERT_SUCCESS(mi_restore_run(c, img, NULL, &res), "reboot");
	TEST_ASSERT_EQUAL(res.exit_code, 0, "reboot: %s", res.output);
	TEST_ASSERT_STR_CONTAINS(res.output,
			"cannot be brought back from its files", "reboot");
	TEST_ASSERT_STR_CONTAINS(
			res.output, "brought back 6 memzones", "reboot");
	mi_found(res.output, found, sizeof(found));
	TEST_ASSERT(strcmp(made, found) == 0, "reboot: made\n%sfound\n%s", made,
			found);

	/* Another layout: refused before a page is mapped. */
	TEST_ASSERT_EQUAL(mi_forget(c), TEST_SUCCESS, "forget");
	TEST_ASSERT_SUCCESS(
			mi_restore_run(c, img, elsewhere, &res), "elsewhere");
	TEST_ASSERT_EQUAL(res.exit_code, TEST_CHILD_INIT_FAILED, "%s",
			res.output);
	TEST_ASSERT_STR_CONTAINS(res.output,
			"lays it out otherwise: start with the memory options",
			"layout");
	TEST_ASSERT_EQUAL(test_dir_count(c->dir, "map"), 0,
			"pages left by a refused restore");

	/* A limit below the image: refused half way, nothing left. */
	TEST_ASSERT_EQUAL(mi_limited_restore(c, img, &res), TEST_SUCCESS,
			"limited");
	/* Fewer hugepages than the image needs: the same. */
	TEST_ASSERT_EQUAL(mi_short_pool(c, img), TEST_SUCCESS, "short pool");
	/* A damaged chunk: found as it lands, the start fails. */
	TEST_ASSERT_EQUAL(mi_damaged_restore(c, img, &res), TEST_SUCCESS,
			"damaged");
	return TEST_SUCCESS;
}

static int
test_memzone_image_restore(void)
{
	return mi_with_case("restore", mi_restore_body);
}
REGISTER_FAST_TEST(memzone_image_restore_autotest, NOHUGE_SKIP, ASAN_OK,
		test_memzone_image_restore);

/*
 * An image cut short under a lazy restore: the child, held after init
 * (its first pages filled), then touches pages the image no longer has.
 * It must end at once with the reason, not hang and not die of SIGBUS.
 */
static int
mi_lazy_cut(const struct mi_case *c, const char *img, const char *strategy)
{
	const char *const lazy[] = { strategy, "--iova-mode=va",
		"--memzone-image-prefetch=off", NULL };
	char cut[PATH_MAX + 8], img_arg[PATH_MAX + 32];
	struct test_child_result res;
	const char *args[16];
	unsigned char *buf;
	size_t len;
	pid_t pid;

	snprintf(cut, sizeof(cut), "%s.cut", img);
	TEST_ASSERT_EQUAL(mi_read_all(img, &buf, &len), TEST_SUCCESS, "read");
	TEST_ASSERT_SUCCESS(mi_write(cut, buf, len), "write %s", cut);
	free(buf);
	TEST_ASSERT_EQUAL(mi_forget(c), TEST_SUCCESS, "forget");
	mi_restore_args(c, cut, lazy, "hold", img_arg, args);
	pid = test_child_start("mi_touch", args, &res);
	TEST_ASSERT(pid > 0, "start: %s", res.output);
	TEST_ASSERT_SUCCESS(truncate(cut, 4096), "truncate");
	TEST_ASSERT_SUCCESS(test_child_finish(pid, SIGUSR1, &res),
			"the child hung");
	TEST_ASSERT(res.exit_code == EXIT_FAILURE && res.signal == 0,
			"exit %d signal %d: %s", res.exit_code, res.signal,
			res.output);
	TEST_ASSERT_STR_CONTAINS(
			res.output, "cannot bring back the page at", "reason");
	TEST_ASSERT_STR_CONTAINS(
			res.output, "shorter than when opened", "reason");
	mi_print_line(res.output, "cannot bring back the page at");
	unlink(cut);
	return mi_forget(c);
}

/*
 * Pages mapped at start (-m) would never fault: a lazy strategy refuses
 * them rather than leave their memzones' bytes out.
 */
static int
mi_lazy_premapped(const struct mi_case *c, const char *img)
{
	char img_arg[PATH_MAX + 32], mem_arg[32];
	const char *args[] = { c->dir_arg, c->prefix_arg, "-m", mem_arg,
		"--iova-mode=va", "--memzone-image-strategy=uffd-copy", img_arg,
		NULL };
	struct test_child_result res;

	TEST_ASSERT_SUCCESS(
			test_huge_mem_arg(1, mem_arg, sizeof(mem_arg)), "-m");
	snprintf(img_arg, sizeof(img_arg), "--memzone-image=%s", img);
	TEST_ASSERT_EQUAL(mi_forget(c), TEST_SUCCESS, "forget");
	TEST_ASSERT_SUCCESS(test_child_run("mi_show", args, &res), "run");
	TEST_ASSERT_EQUAL(res.exit_code, TEST_CHILD_INIT_FAILED, "%s",
			res.output);
	TEST_ASSERT_STR_CONTAINS(res.output,
			"is mapped already (-m or --socket-mem), and a lazy "
			"strategy needs it empty",
			"reason");
	TEST_ASSERT_EQUAL(test_dir_count(c->dir, "map"), 0, "pages left");
	mi_print_line(res.output, "is mapped already");
	return TEST_SUCCESS;
}

/* Forget the case's files, then run child @p action restoring @p img. */
static int
mi_lazy_run(const struct mi_case *c, const char *img, const char *const *lazy,
		const char *action, struct test_child_result *res)
{
	char img_arg[PATH_MAX + 32];
	const char *args[16];

	TEST_ASSERT_EQUAL(mi_forget(c), TEST_SUCCESS, "forget");
	mi_restore_args(c, img, lazy, NULL, img_arg, args);
	TEST_ASSERT_SUCCESS(test_child_run(action, args, res), "run");
	return TEST_SUCCESS;
}

/*
 * The page file counts mi_files printed in @p out: before and after it
 * read one page, and after it read everything. @return whether found.
 */
static bool
mi_files_counts(const char *out, int *before, int *after, int *all)
{
	const char *f = strstr(out, "F "), *g = strstr(out, "\nG ");

	return f != NULL && g != NULL &&
			sscanf(f, "F %d %d", before, after) == 2 &&
			sscanf(g, "\nG %d", all) == 1;
}

/*
 * Run mi_files on a lazy restore of @p img with @p strategy, on touch
 * only, mremap(MREMAP_FIXED) refused in the child if @p no_move: its
 * output in @p res, its page file counts in @p n (after init, after one
 * page read, after everything).
 */
static int
mi_files_run(const struct mi_case *c, const char *img, const char *strategy,
		bool no_move, struct test_child_result *res, int n[3])
{
	const char *const lazy[] = { strategy, "--iova-mode=va",
		"--memzone-image-prefetch=off", NULL };
	char img_arg[PATH_MAX + 32];
	const char *args[16];
	int ret;

	TEST_ASSERT_EQUAL(mi_forget(c), TEST_SUCCESS, "forget");
	mi_restore_args(c, img, lazy, c->dir, img_arg, args);
	if (no_move)
		TEST_ASSERT_SUCCESS(setenv("RTEMEM_TEST_CHILD_NO_MREMAP_FIXED",
						    "1", 1),
				"setenv");
	ret = test_child_run("mi_files", args, res);
	if (no_move)
		unsetenv("RTEMEM_TEST_CHILD_NO_MREMAP_FIXED");
	TEST_ASSERT_SUCCESS(ret, "run");
	TEST_ASSERT_EQUAL(res->exit_code, 0, "%s: %s", strategy, res->output);
	TEST_ASSERT(mi_files_counts(res->output, &n[0], &n[1], &n[2]), "%s: %s",
			strategy, res->output);
	return TEST_SUCCESS;
}

/*
 * With a file per page, a lazy restore makes each page's file as it fills
 * the page, so that init costs the same whatever the image's size; and
 * init's own writes around the memzones wait in scratch memory, so init
 * fills no page. On touch only: no page file after init, one after
 * reading one page, every one after reading everything.
 */
static int
mi_lazy_files(const struct mi_case *c, const char *img, const char *made,
		const char *strategy)
{
	struct test_child_result res;
	int n[3], pages;
	const char *at;

	TEST_ASSERT_EQUAL(mi_files_run(c, img, strategy, false, &res, n),
			TEST_SUCCESS, "%s: the child", strategy);
	printf("%s: %d page files after init, %d after one page read, %d "
	       "after all\n",
			strategy, n[0], n[1], n[2]);
	TEST_ASSERT_EQUAL(n[0], 0, "%s: init filled a page", strategy);
	TEST_ASSERT_EQUAL(n[1], 1, "%s: one page read", strategy);
	TEST_ASSERT_STR_CONTAINS(res.output, "D eagain fd\n",
			"%s: rte_memseg_get_fd() before and after the fill",
			strategy);
	/* Debug builds' heap may add a page of its own. */
	at = strstr(res.output, ": all ");
	TEST_ASSERT(at != NULL && sscanf(at, ": all %d pages", &pages) == 1 &&
					n[0] < pages && n[2] >= pages,
			"%s: %s", strategy, res.output);
	TEST_ASSERT_EQUAL(mi_expect_made(res.output, made, strategy),
			TEST_SUCCESS, "%s: not the memzones saved", strategy);
	return TEST_SUCCESS;
}

/*
 * Where mremap(MREMAP_FIXED) fails, as for hugetlb mappings before Linux
 * 5.16 (a seccomp filter in the child says so), there is no scratch
 * memory over the pages: init fills the pages it writes into, the log
 * says why, and every memzone and heap element comes back as saved.
 */
static int
mi_lazy_no_move(const struct mi_case *c, const char *img, const char *made,
		const char *strategy)
{
	struct test_child_result res;
	int n[3];

	TEST_ASSERT_EQUAL(mi_files_run(c, img, strategy, true, &res, n),
			TEST_SUCCESS, "%s: the child", strategy);
	TEST_ASSERT_STR_CONTAINS(res.output,
			"no scratch memory over the pages (Invalid argument): "
			"init fills those it writes into",
			"%s: the reason", strategy);
	printf("%s, no mremap: %d page files after init\n", strategy, n[0]);
	TEST_ASSERT(n[0] >= 1 && n[1] <= n[0] + 1,
			"%s: init filled no page: %s", strategy, res.output);
	TEST_ASSERT_EQUAL(mi_expect_made(res.output, made, strategy),
			TEST_SUCCESS, "%s: not the memzones saved", strategy);
	return TEST_SUCCESS;
}

/*
 * A hugetlb cgroup allowing the image's pages and @p spare more,
 * reservations included: a page whose file is made as it is filled
 * reserves its page, then gives up the one init reserved for it, or
 * gives that up first when there is no spare. Every page comes in, and
 * the cgroup's peak of reserved pages says none was reserved twice for
 * long: at most one more per filling thread (the handler and one
 * prefetcher on 2 CPUs).
 */
static int
mi_lazy_pool(const struct mi_case *c, const char *img, const char *made,
		const char *strategy, unsigned int spare)
{
	const char *const lazy[] = { strategy, "--iova-mode=va",
		"--memzone-image-threads=1", NULL };
	uint64_t page_sz = test_huge_page_size(), peak;
	char img_arg[PATH_MAX + 32];
	struct test_child_result res;
	struct test_hugetlb_cg cg;
	const char *args[16], *n;
	int ret, pages;

	/* Debug builds' larger element headers can take a page more. */
	TEST_ASSERT_SUCCESS(mi_lazy_run(c, img, lazy, "mi_show", &res), "run");
	n = strstr(res.output, ": all ");
	TEST_ASSERT(res.exit_code == 0 && n != NULL &&
					sscanf(n, ": all %d pages", &pages) ==
							1,
			"%s: %s", strategy, res.output);
	TEST_ASSERT_EQUAL(mi_forget(c), TEST_SUCCESS, "forget");
	mi_restore_args(c, img, lazy, NULL, img_arg, args);
	TEST_ASSERT_SUCCESS(test_hugetlb_cg_create(&cg, page_sz,
					    (pages + spare) * page_sz, true),
			"cannot make a hugetlb cgroup");
	test_hugetlb_cg_enter(&cg);
	ret = test_child_run("mi_touch", args, &res);
	peak = test_hugetlb_cg_read(&cg, page_sz, "rsvd.max_usage_in_bytes");
	test_hugetlb_cg_destroy(&cg);
	TEST_ASSERT_SUCCESS(ret, "run");
	printf("%s, %d pages and %u spare: at most %" PRIu64
	       " pages reserved\n",
			strategy, pages, spare, peak / page_sz);
	/* Without a spare page, the limit itself keeps the peak down. */
	TEST_ASSERT(spare == 0 || peak <= (uint64_t)(pages + 2) * page_sz,
			"%s: %" PRIu64 " pages reserved at once", strategy,
			peak / page_sz);
	TEST_ASSERT_EQUAL(res.exit_code, 0, "%s: %s", strategy, res.output);
	TEST_ASSERT_EQUAL(mi_expect_made(res.output, made, strategy),
			TEST_SUCCESS, "%s: not the memzones saved", strategy);
	mi_print_line(res.output, "given back unfilled)");
	return TEST_SUCCESS;
}

/*
 * With a file per page made as it is filled, an entry that is not a
 * hugepage file of ours may take a page's file name after init (at init
 * such entries of our own directory are removed): the page then comes
 * from a memfd when it is filled, as it would at start, with a warning,
 * and every byte comes in. A file of ours another process holds there
 * (@p held) fails init at start; past init, it ends the process with one
 * line naming it: a secondary process or the next start would take that
 * file for the page.
 */
static int
mi_lazy_foreign(const struct mi_case *c, const char *img, const char *made,
		const char *strategy, bool held)
{
	const char *warn = held ? "is in use by another process; the process "
				  "cannot go on without it" :
				  "is a FIFO, not a hugepage file of yours: "
				  "left as it is";
	const char *const lazy[] = { strategy, "--iova-mode=va",
		"--memzone-image-prefetch=off", NULL };
	char names[PATH_MAX + 64], img_arg[PATH_MAX + 32];
	struct test_child_result res;
	const char *args[16];

	snprintf(names, sizeof(names), "%s%s/%smap_", held ? "held:" : "",
			c->dir, c->prefix);
	TEST_ASSERT_EQUAL(mi_forget(c), TEST_SUCCESS, "forget");
	mi_restore_args(c, img, lazy, names, img_arg, args);
	TEST_ASSERT_SUCCESS(test_child_run("mi_fifo", args, &res), "run");
	TEST_ASSERT_STR_CONTAINS(res.output, warn, "%s: no line", strategy);
	mi_print_line(res.output, warn);
	if (held) {
		TEST_ASSERT(res.exit_code != 0 && res.signal == 0,
				"%s: exit %d, signal %d: %s", strategy,
				res.exit_code, res.signal, res.output);
		return mi_forget(c);
	}
	TEST_ASSERT_EQUAL(res.exit_code, 0, "%s: %s", strategy, res.output);
	TEST_ASSERT_EQUAL(mi_expect_made(res.output, made, strategy),
			TEST_SUCCESS, "%s: not the memzones saved", strategy);
	return TEST_SUCCESS;
}

/*
 * A lazy restore with --keep-memzones, on touch only, that exits before
 * touching anything: the kept files must still hold every byte, which
 * the next start takes without reading the image.
 */
static int
mi_lazy_kept(const struct mi_case *c, const char *img, const char *made)
{
	static const char *const lazy[] = {
		"--memzone-image-strategy=uffd-copy", "--iova-mode=va",
		"--memzone-image-prefetch=off", NULL
	};
	char img_arg[PATH_MAX + 32], found[4096];
	struct test_child_result res;
	const char *args[16];

	TEST_ASSERT_EQUAL(mi_forget(c), TEST_SUCCESS, "forget");
	mi_restore_args(c, img, lazy, NULL, img_arg, args);
	TEST_ASSERT_SUCCESS(test_child_run(NULL, args, &res), "run");
	TEST_ASSERT_EQUAL(res.exit_code, 0, "lazy, untouched: %s", res.output);
	TEST_ASSERT_SUCCESS(mi_restore_run(c, img, NULL, &res), "restart");
	TEST_ASSERT_EQUAL(res.exit_code, 0, "restart: %s", res.output);
	TEST_ASSERT_STR_CONTAINS(res.output, "is not read", "files first");
	mi_found(res.output, found, sizeof(found));
	TEST_ASSERT(strcmp(made, found) == 0, "kept: made\n%sfound\n%s", made,
			found);
	return TEST_SUCCESS;
}

/*
 * A lazy restore with --keep-memzones in one file per list, on touch
 * only, killed before its pages are in: the file keeps holes a restart
 * cannot see. The next start with --keep-memzones alone is refused,
 * naming the fill; with the image again, the memzones come from it,
 * every byte.
 */
static int
mi_lazy_killed(const struct mi_case *c, const char *img, const char *made)
{
	static const char *const lazy[] = {
		"--memzone-image-strategy=uffd-copy", "--iova-mode=va",
		"--memzone-image-prefetch=off", "--single-file-segments", NULL
	};
	const char *kept[] = { c->dir_arg, c->prefix_arg, "--huge-unlink=never",
		"--keep-memzones", "-m", "0", "--single-file-segments", NULL };
	char img_arg[PATH_MAX + 32], found[4096];
	struct test_child_result res;
	const char *args[16];
	pid_t pid;

	TEST_ASSERT_EQUAL(mi_forget(c), TEST_SUCCESS, "forget");
	mi_restore_args(c, img, lazy, "hold", img_arg, args);
	pid = test_child_start("mi_touch", args, &res);
	TEST_ASSERT(pid > 0, "start: %s", res.output);
	TEST_ASSERT_SUCCESS(test_child_finish(pid, SIGKILL, &res), "kill");
	TEST_ASSERT_EQUAL(res.signal, SIGKILL, "not killed: %s", res.output);
	TEST_ASSERT_SUCCESS(test_child_run("mi_show", kept, &res), "kept");
	TEST_ASSERT_EQUAL(res.exit_code, TEST_CHILD_INIT_FAILED,
			"kept memzones with holes taken: %s", res.output);
	TEST_ASSERT_STR_CONTAINS(res.output,
			"a lazy --memzone-image restore was still filling them",
			"reason");
	mi_print_line(res.output, "was still filling them");
	TEST_ASSERT_SUCCESS(mi_restore_run(c, img, lazy + 3, &res), "image");
	TEST_ASSERT_EQUAL(res.exit_code, 0, "from the image: %s", res.output);
	TEST_ASSERT_STR_CONTAINS(res.output,
			"--memzone-image brings them back from", "image taken");
	mi_found(res.output, found, sizeof(found));
	TEST_ASSERT(strcmp(made, found) == 0, "made\n%sfound\n%s", made, found);
	return mi_forget(c);
}

/*
 * A lazy restore of an image of no memzone, with --keep-memzones: the
 * lazy engine does not start, and no mark of a fill under way may stay
 * to make the next start refuse the memzone the run reserved.
 */
static int
mi_lazy_empty(const struct mi_case *c)
{
	static const char *const lazy[] = {
		"--memzone-image-strategy=uffd-copy", "--iova-mode=va", NULL
	};
	const char *save[] = { c->dir_arg, c->prefix_arg, "-m", "0", "--",
		"save", NULL, NULL };
	const char *kept[] = { c->dir_arg, c->prefix_arg, "--huge-unlink=never",
		"--keep-memzones", "-m", "0", NULL };
	char img[PATH_MAX], img_arg[PATH_MAX + 32], made[4096], found[4096];
	struct test_child_result res;
	const char *args[16];

	snprintf(img, sizeof(img), "%s/empty.img", c->img_dir);
	save[6] = img;
	TEST_ASSERT_EQUAL(mi_forget(c), TEST_SUCCESS, "forget");
	TEST_ASSERT_SUCCESS(test_child_run("mi_empty", save, &res), "save");
	TEST_ASSERT_EQUAL(res.exit_code, 0, "save: %s", res.output);
	mi_restore_args(c, img, lazy, "reserve", img_arg, args);
	TEST_ASSERT_SUCCESS(test_child_run("mi_empty", args, &res), "run");
	TEST_ASSERT_EQUAL(res.exit_code, 0, "empty image: %s", res.output);
	mi_found(res.output, made, sizeof(made));
	TEST_ASSERT_SUCCESS(test_child_run("mi_show", kept, &res), "restart");
	TEST_ASSERT_EQUAL(res.exit_code, 0, "restart: %s", res.output);
	mi_found(res.output, found, sizeof(found));
	TEST_ASSERT(made[0] != '\0' && strcmp(made, found) == 0,
			"kept: made\n%sfound\n%s", made, found);
	unlink(img);
	return mi_forget(c);
}

/*
 * uffd-minor fills pages through their files. With a file per page each
 * comes with its fill, and --huge-unlink=always removes it once mapped:
 * the memzones come back, and no file stays. (One file per list cannot
 * be started with --huge-unlink=always.)
 */
static int
mi_minor_unlinked(const struct mi_case *c, const char *img, const char *made)
{
	char img_arg[PATH_MAX + 32];
	const char *args[] = { c->dir_arg, c->prefix_arg, "-m", "0",
		"--huge-unlink=always", "--iova-mode=va",
		"--memzone-image-strategy=uffd-minor",
		"--memzone-image-prefetch=off", img_arg, "--", c->dir, NULL };
	struct test_child_result res;
	int before, after, left;

	snprintf(img_arg, sizeof(img_arg), "--memzone-image=%s", img);
	TEST_ASSERT_EQUAL(mi_forget(c), TEST_SUCCESS, "forget");
	TEST_ASSERT_SUCCESS(test_child_run("mi_files", args, &res), "run");
	TEST_ASSERT_EQUAL(res.exit_code, 0, "%s", res.output);
	TEST_ASSERT(mi_files_counts(res.output, &before, &after, &left),
			"no file counts: %s", res.output);
	TEST_ASSERT(before == 0 && after == 0 && left == 0,
			"files under --huge-unlink=always: %d, %d after a fill, "
			"%d after every page",
			before, after, left);
	TEST_ASSERT_EQUAL(mi_expect_made(res.output, made, "unlinked"),
			TEST_SUCCESS, "not the memzones saved");
	TEST_ASSERT_EQUAL(test_dir_count(c->dir, "map"), 0, "pages left");
	return TEST_SUCCESS;
}

/*
 * A secondary process would map a page that a lazy restore has not
 * filled yet as an empty page of the file: with prefetching it waits
 * until every page is in, then finds the memzones' bytes; on touch only,
 * where that may never be, it is refused.
 */
static int
mi_lazy_secondary(const struct mi_case *c, const char *img, const char *made,
		const char *prefetch)
{
	const char *const lazy[] = { "--memzone-image-strategy=uffd-copy",
		"--iova-mode=va", prefetch, "-l", "0", NULL };
	const char *const sec[] = { c->dir_arg, c->prefix_arg,
		"--proc-type=secondary", "--lcores=1@0", NULL };
	bool on_touch = strcmp(prefetch, "--memzone-image-prefetch=off") == 0;
	struct test_child_result pr, sr;
	char img_arg[PATH_MAX + 32], found[4096];
	const char *args[16];
	pid_t pid;

	TEST_ASSERT_EQUAL(mi_forget(c), TEST_SUCCESS, "forget");
	mi_restore_args(c, img, lazy, "hold", img_arg, args);
	pid = test_child_start("mi_touch", args, &pr);
	TEST_ASSERT(pid > 0, "primary: %s", pr.output);
	if (test_child_run("mi_show", sec, &sr) != 0) {
		test_child_finish(pid, SIGKILL, &pr);
		TEST_ASSERT(false, "secondary: %s", sr.output);
	}
	TEST_ASSERT_SUCCESS(test_child_finish(pid, SIGUSR1, &pr), "primary");
	TEST_ASSERT_EQUAL(pr.exit_code, 0, "primary: %s", pr.output);
	if (on_touch) {
		TEST_ASSERT_EQUAL(sr.exit_code, TEST_CHILD_INIT_FAILED, "%s",
				sr.output);
		TEST_ASSERT_STR_CONTAINS(sr.output,
				"from a memory image on first touch only",
				"refused");
		mi_print_line(sr.output, "on first touch only");
	} else {
		TEST_ASSERT_EQUAL(sr.exit_code, 0, "secondary: %s", sr.output);
		mi_found(sr.output, found, sizeof(found));
		TEST_ASSERT(strcmp(made, found) == 0,
				"secondary: made\n%sfound\n%s", made, found);
	}
	mi_found(pr.output, found, sizeof(found));
	TEST_ASSERT(strcmp(made, found) == 0, "primary: made\n%sfound\n%s",
			made, found);
	return TEST_SUCCESS;
}

/*
 * A memzone freed before its pages were filled: they are given back
 * unfilled, never filled later over whatever took their place, and the
 * other memzones still come in whole.
 */
static int
mi_lazy_freed(const struct mi_case *c, const char *img, const char *made,
		const char *strategy)
{
	const char *const lazy[] = { strategy, "--iova-mode=va",
		"--memzone-image-prefetch=off", "--malloc-retain=0", NULL };
	char found[4096], line[128];
	struct test_child_result res;
	const char *l, *e;

	/* mi5 has no page of its own to give back: they share one. */
	if (test_huge_page_size() != (2u << 20)) {
		printf("%s, memzone freed: not run, the memzones share one "
		       "page of %" PRIu64 " MB\n",
				strategy, test_huge_page_size() >> 20);
		return TEST_SUCCESS;
	}
	TEST_ASSERT_SUCCESS(mi_lazy_run(c, img, lazy, "mi_free_touch", &res),
			"run");
	TEST_ASSERT_EQUAL(res.exit_code, 0, "%s: %s", strategy, res.output);
	TEST_ASSERT_STR_CONTAINS(res.output, " given back unfilled)",
			"%s: every page came in", strategy);
	TEST_ASSERT(!MI_FREE_UNTOUCHED ||
					strstr(res.output,
							" 0 given back unfilled)") ==
							NULL,
			"%s: no page given back unfilled: %s", strategy,
			res.output);
	mi_found(res.output, found, sizeof(found));
	for (l = found; *l != '\0'; l = e + 1) {
		e = strchr(l, '\n');
		if (e == NULL)
			break;
		snprintf(line, sizeof(line), "%.*s", (int)(e - l + 1), l);
		if (strncmp(line, "Z mi", 4) == 0)
			TEST_ASSERT(strstr(made, line) != NULL,
					"%s: %s not as saved", strategy, line);
	}
	mi_print_line(res.output, "given back unfilled)");
	return TEST_SUCCESS;
}

/*
 * fork() before any page is in, on touch only: the child sees every
 * memzone's bytes, and so does the parent after it (a page the child
 * touched first came in empty before fork() filled what was left).
 */
static int
mi_lazy_fork(const struct mi_case *c, const char *img, const char *made,
		const char *strategy)
{
	const char *const lazy[] = { strategy, "--iova-mode=va",
		"--memzone-image-prefetch=off", NULL };
	struct test_child_result res;

	TEST_ASSERT_SUCCESS(mi_lazy_run(c, img, lazy, "mi_fork", &res), "run");
	TEST_ASSERT_EQUAL(res.exit_code, 0, "%s: %s", strategy, res.output);
	TEST_ASSERT_STR_CONTAINS(res.output, "forked child saw the same bytes",
			"%s", strategy);
	TEST_ASSERT_EQUAL(mi_expect_made(res.output, made, strategy),
			TEST_SUCCESS, "%s: not the memzones saved", strategy);
	mi_print_line(res.output, "fork(): filled");
	return TEST_SUCCESS;
}

/*
 * fork() with no address space left for a page buffer (uffd-copy on one
 * file per list, whose fills map nothing else): the forking thread
 * fills what is left with the handler's buffer, and the child still sees
 * every byte.
 */
static int
mi_lazy_fork_tight(const struct mi_case *c, const char *img, const char *made)
{
	const char *const lazy[] = { "--memzone-image-strategy=uffd-copy",
		"--iova-mode=va", "--memzone-image-prefetch=off",
		"--single-file-segments", NULL };
	struct test_child_result res;

	TEST_ASSERT_SUCCESS(mi_lazy_run(c, img, lazy, "mi_fork_tight", &res),
			"run");
	TEST_ASSERT_EQUAL(res.exit_code, 0, "%s", res.output);
	TEST_ASSERT_STR_CONTAINS(res.output,
			"the handler's fills the pages left before fork(), "
			"which the child would see empty",
			"no buffer borrowed");
	TEST_ASSERT_STR_CONTAINS(res.output, "forked child saw the same bytes",
			"tight fork");
	TEST_ASSERT_EQUAL(mi_expect_made(res.output, made, "tight fork"),
			TEST_SUCCESS, "not the memzones saved");
	mi_print_line(res.output, "fork(): filled");
	return TEST_SUCCESS;
}

static int
mi_lazy_body(struct mi_case *c)
{
	static const char *const runs[][5] = {
		{ "--memzone-image-strategy=uffd-copy", "--iova-mode=va",
				"--memzone-image-prefetch=off", NULL },
		{ "--memzone-image-strategy=uffd-copy", "--iova-mode=va",
				"--memzone-image-threads=1", NULL },
		{ "--memzone-image-strategy=uffd-copy", "--iova-mode=va",
				"--single-file-segments", NULL },
		{ "--memzone-image-strategy=uffd-minor", "--iova-mode=va",
				"--memzone-image-prefetch=off", NULL },
		{ "--memzone-image-strategy=uffd-minor", "--iova-mode=va",
				"--single-file-segments", NULL },
	};
	static const char *const pa[] = { "--memzone-image-strategy=uffd-copy",
		"--iova-mode=pa", NULL };
	static const char *const lazy_strategies[] = {
		"--memzone-image-strategy=uffd-copy",
		"--memzone-image-strategy=uffd-minor",
	};
	char img[PATH_MAX], made[4096], found[4096], img_arg[PATH_MAX + 32];
	struct test_child_result res;
	const char *args[16];
	unsigned int r;

	snprintf(img, sizeof(img), "%s/lazy.img", c->img_dir);
	TEST_ASSERT_SUCCESS(mi_run(c, "mi_make", img, &res), "make");
	TEST_ASSERT_EQUAL(res.exit_code, 0, "make: %s", res.output);
	mi_found(res.output, made, sizeof(made));
	for (r = 0; r < RTE_DIM(runs); r++) {
		TEST_ASSERT_EQUAL(mi_forget(c), TEST_SUCCESS, "forget");
		mi_restore_args(c, img, runs[r], NULL, img_arg, args);
		TEST_ASSERT_SUCCESS(
				test_child_run("mi_touch", args, &res), "run");
		TEST_ASSERT_EQUAL(res.exit_code, 0, "%s %s: %s", runs[r][0],
				runs[r][2], res.output);
		mi_found(res.output, found, sizeof(found));
		TEST_ASSERT(strcmp(made, found) == 0,
				"%s %s: made\n%sfound\n%s", runs[r][0],
				runs[r][2], made, found);
		TEST_ASSERT_STR_CONTAINS(res.output, "given back unfilled)",
				"%s %s: every page came in", runs[r][0],
				runs[r][2]);
		mi_print_line(res.output, "given back unfilled)");
	}
	TEST_ASSERT_EQUAL(mi_forget(c), TEST_SUCCESS, "forget");
	TEST_ASSERT_SUCCESS(mi_restore_run(c, img, pa, &res), "pa");
	TEST_ASSERT_EQUAL(res.exit_code, TEST_CHILD_INIT_FAILED, "%s",
			res.output);
	TEST_ASSERT_STR_CONTAINS(res.output,
			"a page filled on first touch has no physical address",
			"pa");
	TEST_ASSERT_EQUAL(mi_minor_unlinked(c, img, made), TEST_SUCCESS,
			"uffd-minor, files removed once mapped");
	TEST_ASSERT_EQUAL(mi_lazy_premapped(c, img), TEST_SUCCESS,
			"pages mapped at start");
	TEST_ASSERT_EQUAL(mi_lazy_kept(c, img, made), TEST_SUCCESS,
			"kept files of an untouched lazy restore");
	TEST_ASSERT_EQUAL(mi_lazy_killed(c, img, made), TEST_SUCCESS,
			"lazy restore killed, one file per list");
	TEST_ASSERT_EQUAL(mi_lazy_empty(c), TEST_SUCCESS,
			"lazy restore of an image of no memzone");
	TEST_ASSERT_EQUAL(mi_lazy_fork_tight(c, img, made), TEST_SUCCESS,
			"fork with no memory for a buffer");
	for (r = 0; r < RTE_DIM(lazy_strategies); r++) {
		TEST_ASSERT_EQUAL(
				mi_lazy_freed(c, img, made, lazy_strategies[r]),
				TEST_SUCCESS, "%s, memzone freed",
				lazy_strategies[r]);
		TEST_ASSERT_EQUAL(
				mi_lazy_fork(c, img, made, lazy_strategies[r]),
				TEST_SUCCESS, "%s, fork", lazy_strategies[r]);
		TEST_ASSERT_EQUAL(
				mi_lazy_files(c, img, made, lazy_strategies[r]),
				TEST_SUCCESS, "%s, files", lazy_strategies[r]);
		TEST_ASSERT_EQUAL(mi_lazy_no_move(c, img, made,
						  lazy_strategies[r]),
				TEST_SUCCESS, "%s, no mremap",
				lazy_strategies[r]);
		TEST_ASSERT_EQUAL(mi_lazy_foreign(c, img, made,
						  lazy_strategies[r], false),
				TEST_SUCCESS, "%s, names taken",
				lazy_strategies[r]);
		TEST_ASSERT_EQUAL(mi_lazy_foreign(c, img, made,
						  lazy_strategies[r], true),
				TEST_SUCCESS, "%s, files held",
				lazy_strategies[r]);
		TEST_ASSERT_EQUAL(mi_lazy_pool(c, img, made, lazy_strategies[r],
						  0),
				TEST_SUCCESS, "%s, exact pool",
				lazy_strategies[r]);
		TEST_ASSERT_EQUAL(mi_lazy_pool(c, img, made, lazy_strategies[r],
						  16),
				TEST_SUCCESS, "%s, pool to spare",
				lazy_strategies[r]);
	}
	TEST_ASSERT_EQUAL(mi_lazy_secondary(c, img, made,
					  "--memzone-image-prefetch=on"),
			TEST_SUCCESS, "secondary, prefetching");
	TEST_ASSERT_EQUAL(mi_lazy_secondary(c, img, made,
					  "--memzone-image-prefetch=off"),
			TEST_SUCCESS, "secondary, on touch only");
	TEST_ASSERT_EQUAL(mi_lazy_cut(c, img,
					  "--memzone-image-strategy=uffd-copy"),
			TEST_SUCCESS, "uffd-copy, image cut short");
	return mi_lazy_cut(c, img, "--memzone-image-strategy=uffd-minor");
}

static int
test_memzone_image_lazy(void)
{
	return mi_with_case("lazy", mi_lazy_body);
}
REGISTER_FAST_TEST(memzone_image_lazy_autotest, NOHUGE_SKIP, ASAN_OK,
		test_memzone_image_lazy);
