/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * The program whose memory the hugetext tests move (hugetext_test.py).
 *
 * Usage: hugetext-target ACTION [MODE]
 *   api MODE [LIBS]  call rte_hugetext_remap() in MODE, moving LIBS too
 *             (built with HT_API only); with HT_TEST_FAIL_MREMAP set,
 *             some moves fail (fail_mremap_install())
 *   eal ARGS  call rte_eal_init() with ARGS, such as --huge-text=enforce
 *             (built with HT_EAL only)
 *   check     move nothing itself (a preload library may have)
 *   wait      as check, then print "waiting" and wait in
 *             target_wait_here(), called through big_call(), until
 *             killed (for gdb)
 *   crash     as check, then abort() in target_crash_here(), called
 *             through big_call() (core dump)
 *   bench REPS READS  no checks: time REPS chains of calls and READS
 *             random reads of big_bss, and the limits a move meets
 *             (memcpy, filling new hugetlb pages); for
 *             devtools/hugetext-bench.py
 *
 * Before and after the remap it takes a snapshot of every 4 KB page of
 * its PT_LOAD segments and those of libbigprog-shared if loaded
 * (protection from /proc/self/maps, a checksum) and
 * compares them; it checks its tables, its code (a chain of calls), the
 * heap blocks it allocated before, that brk still grows and shrinks, and
 * that a child forked afterwards can write to .data, .bss and the heap
 * without touching the parent's copy. It prints "key=value" lines for
 * the driver (what lies on huge pages, from /proc/self/smaps) and exits
 * 0 only if every check passed; a failed check prints "FAIL: ...".
 */

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Built without HT_API, the program only reads the report's layout. */
#include <rte_hugetext.h>
#ifdef HT_EAL
#include <rte_eal.h>
#include <rte_errno.h>

static int (*volatile eal_init_fn)(int, char **) = rte_eal_init;
#endif

#include "bigprog.h"
#include "test_seccomp.h"

#define MAX_PAGES (1 << 20)
/* Pages of big_bss written before the move; the others stay untouched,
 * and must read as zero after it. */
#define BSS_TOUCHED(page) ((page) % 3 != 0)
#define HEAP_BLOCKS 64

struct page_snap {
	uintptr_t addr;
	int prot;
	uint64_t sum;
};

struct snap {
	unsigned int n;
	struct page_snap pg[MAX_PAGES];
};

static unsigned int failures;

#define CHECK(cond, ...) \
	do { \
		if (!(cond)) { \
			printf("FAIL: " __VA_ARGS__); \
			printf("\n"); \
			failures++; \
		} \
	} while (0)

static void *
map_scratch(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	return p;
}

/* /proc/self/maps into @p buf (NUL-terminated). */
static void
read_file(const char *path, char *buf, size_t cap)
{
	size_t off = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0) {
		perror(path);
		exit(2);
	}
	while ((n = read(fd, buf + off, cap - 1 - off)) > 0)
		off += (size_t)n;
	close(fd);
	buf[off] = '\0';
}

/* The protection of @p addr per maps text @p maps; -1 if unmapped. */
static int
prot_of(const char *maps, uintptr_t addr)
{
	const char *line;

	for (line = maps; *line != '\0'; line = strchr(line, '\n') + 1) {
		unsigned long s, e;
		char perms[5];

		if (sscanf(line, "%lx-%lx %4s", &s, &e, perms) == 3 &&
				addr >= s && addr < e)
			return (perms[0] == 'r' ? PROT_READ : 0) |
					(perms[1] == 'w' ? PROT_WRITE : 0) |
					(perms[2] == 'x' ? PROT_EXEC : 0);
		if (strchr(line, '\n') == NULL)
			break;
	}
	return -1;
}

#define MAX_SEGS 64

/* The PT_LOAD segments of the executable, then of libbigprog-shared. */
struct segs {
	unsigned int n;
	unsigned int n_exe; /* the executable's, first */
	uintptr_t start[MAX_SEGS], end[MAX_SEGS];
};

static int
segs_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct segs *s = arg;
	bool exe = s->n_exe == 0 && s->n == 0;
	int i;

	(void)size;
	if (!exe &&
			(info->dlpi_name == NULL ||
					strstr(info->dlpi_name, "libbigprog") ==
							NULL))
		return 0;
	for (i = 0; i < info->dlpi_phnum && s->n < MAX_SEGS; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type != PT_LOAD)
			continue;
		s->start[s->n] = (info->dlpi_addr + ph->p_vaddr) & ~4095UL;
		s->end[s->n] = (info->dlpi_addr + ph->p_vaddr + ph->p_memsz +
					       4095) &
				~4095UL;
		s->n++;
	}
	if (exe)
		s->n_exe = s->n;
	return 0;
}

/* Whole pages, red zones between globals included. */
__attribute__((no_sanitize_address)) static uint64_t
page_sum(const uint64_t *p)
{
	uint64_t h = 1469598103934665603ULL;
	unsigned int i;

	for (i = 0; i < 4096 / 8; i++)
		h = (h ^ p[i]) * 1099511628211ULL;
	return h;
}

/* Reading a page would fault it in: untouched ones are checked after. */
static bool
bss_untouched(uintptr_t a)
{
	uintptr_t b = (uintptr_t)big_bss;

	return a >= b && a < b + big_bss_len && !BSS_TOUCHED((a - b) >> 12);
}

static void
snap_take(struct snap *s, char *maps, size_t maps_cap)
{
	struct segs segs = { .n = 0 };
	unsigned int i;
	uintptr_t a;

	dl_iterate_phdr(segs_cb, &segs);
	read_file("/proc/self/maps", maps, maps_cap);
	s->n = 0;
	for (i = 0; i < segs.n; i++)
		for (a = segs.start[i]; a < segs.end[i] && s->n < MAX_PAGES;
				a += 4096) {
			struct page_snap *p = &s->pg[s->n++];

			p->addr = a;
			p->prot = prot_of(maps, a);
			p->sum = (p->prot & PROT_READ) && p->prot > 0 &&
							!bss_untouched(a) ?
					page_sum((const uint64_t *)a) :
					0;
		}
}

static void
snap_compare(const struct snap *a, const struct snap *b)
{
	unsigned int i, bad = 0;

	CHECK(a->n == b->n, "snapshots of %u and %u pages", a->n, b->n);
	for (i = 0; i < a->n && i < b->n && bad < 5; i++) {
		if (a->pg[i].prot != b->pg[i].prot) {
			CHECK(0, "page %#lx: protection %d became %d",
					(unsigned long)a->pg[i].addr,
					a->pg[i].prot, b->pg[i].prot);
			bad++;
		} else if (a->pg[i].sum != b->pg[i].sum) {
			CHECK(0, "page %#lx: contents changed",
					(unsigned long)a->pg[i].addr);
			bad++;
		}
	}
	printf("pages_checked=%u\n", a->n);
}

/* Contents every variant must have, moved or not. */
static void
check_tables(const char *when)
{
	unsigned long p;

	for (p = 0; p < big_ro_len / 4096; p++)
		CHECK(big_ro[p * 4096] == BIG_RO_BYTE(p) &&
						big_ro[p * 4096 + 1] == 0,
				"%s: big_ro page %lu", when, p);
	for (p = 0; p < big_data_len / 4096; p++)
		CHECK(big_data[p * 4096] == BIG_DATA_BYTE(p),
				"%s: big_data page %lu", when, p);
	for (p = 0; p < big_bss_len; p += 4096)
		CHECK(big_bss[p] == (BSS_TOUCHED(p >> 12) ? (uint8_t)(p >> 12) : 0),
				"%s: big_bss page %lu", when, p >> 12);
	CHECK(big_chain() == big_expect, "%s: the call chain", when);
}

static char *heap_blocks[HEAP_BLOCKS];

static void
heap_fill(void)
{
	unsigned int i;

	for (i = 0; i < HEAP_BLOCKS; i++) {
		heap_blocks[i] = malloc(512);
		memset(heap_blocks[i], (int)(i + 1), 512);
	}
}

static void
heap_check(const char *when)
{
	unsigned int i, j;

	for (i = 0; i < HEAP_BLOCKS; i++)
		for (j = 0; j < 512; j++)
			if (heap_blocks[i][j] != (char)(i + 1)) {
				CHECK(0, "%s: heap block %u byte %u", when, i,
						j);
				return;
			}
}

/* brk grows and shrinks, and malloc() keeps working. */
static void
brk_check(void)
{
	char *blocks[2000];
	char *b0 = sbrk(0);
	unsigned int i;

	CHECK(sbrk(1 << 20) == b0, "sbrk(+1 MB): %s", strerror(errno));
	if (sbrk(0) == b0 + (1 << 20)) {
		memset(b0, 0x5a, 1 << 20);
		CHECK(sbrk(-(1 << 20)) != (void *)-1, "sbrk(-1 MB): %s",
				strerror(errno));
	}
	for (i = 0; i < 2000; i++) {
		blocks[i] = malloc(1024);
		memset(blocks[i], (int)i, 1024);
	}
	for (i = 0; i < 2000; i++) {
		CHECK(blocks[i][1023] == (char)i, "malloc block %u", i);
		free(blocks[i]);
	}
}

static void
fork_check(void)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		big_data[0] ^= 0xff;
		big_data[big_data_len - 1] = 0x77;
		/* A page at each end: each write takes a free huge page. */
		big_bss[0] = 0xee;
		big_bss[big_bss_len - 1] = 0xee;
		heap_blocks[0][0] = 0x11;
		_exit(big_chain() == big_expect && big_data[0] == (uint8_t)(BIG_DATA_BYTE(0) ^ 0xff) ?
						0 :
						1);
	}
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
					WEXITSTATUS(status) == 0,
			"the forked child failed (status %#x)", status);
	CHECK(big_data[0] == BIG_DATA_BYTE(0) && big_bss[0] == 0 &&
					heap_blocks[0][0] == 1,
			"the child's writes reached the parent");
}

/*
 * What of the executable's extent lies on which pages, per smaps. Shared
 * hugetlb counts too: a page the forked child shared may still count as
 * shared for a moment after the child was reaped.
 */
static void
smaps_report(char *buf, size_t cap)
{
	struct segs segs = { .n = 0 };
	unsigned long s = 0, e = 0, kps = 0, v, hugetlb[3] = { 0 },
		      thp[3] = { 0 };
	unsigned long all_hugetlb = 0, huge1g = 0, file_pmd = 0;
	uintptr_t lo, hi;
	int cls = -1;
	char *line, perms[5];

	dl_iterate_phdr(segs_cb, &segs);
	lo = segs.start[0];
	hi = segs.end[segs.n_exe - 1] + (2UL << 20);
	read_file("/proc/self/smaps", buf, cap);
	for (line = strtok(buf, "\n"); line != NULL;
			line = strtok(NULL, "\n")) {
		if (sscanf(line, "%lx-%lx %4s", &s, &e, perms) == 3) {
			cls = s >= lo && e <= hi ?
					(perms[2] == 'x' ? 0 :
									perms[1] == 'w' ?
							   2 :
							   1) :
					-1;
		} else if (cls >= 0 &&
				sscanf(line, "KernelPageSize: %lu", &v) == 1) {
			kps = v;
		} else if (sscanf(line, "Shared_Hugetlb: %lu", &v) == 1 ||
				sscanf(line, "Private_Hugetlb: %lu", &v) == 1) {
			all_hugetlb += v;
			if (cls >= 0 && kps == 1048576)
				huge1g += v;
			if (cls >= 0 && kps > 4)
				hugetlb[cls] += v;
		} else if (cls >= 0 &&
				sscanf(line, "FilePmdMapped: %lu", &v) == 1) {
			file_pmd += v;
		} else if (cls >= 0 &&
				sscanf(line, "AnonHugePages: %lu", &v) == 1) {
			thp[cls] += v;
		}
	}
	printf("text_hugetlb_kb=%lu\nro_hugetlb_kb=%lu\nrw_hugetlb_kb=%lu\n",
			hugetlb[0], hugetlb[1], hugetlb[2]);
	printf("text_thp_kb=%lu\nro_thp_kb=%lu\nrw_thp_kb=%lu\n", thp[0],
			thp[1], thp[2]);
	printf("all_hugetlb_kb=%lu\nhuge1g_kb=%lu\nfile_pmd_kb=%lu\n",
			all_hugetlb, huge1g, file_pmd);
}

/* Whether @p addr lies in code on huge pages, per smaps text @p smaps. */
static bool
code_on_hugetlb(const char *smaps, uintptr_t addr)
{
	unsigned long s = 0, e = 0, kps;
	const char *line;
	bool in = false;
	char perms[5];

	for (line = smaps; line != NULL && *line != '\0';
			line = strchr(line, '\n'),
	    line = line ? line + 1 : NULL) {
		if (sscanf(line, "%lx-%lx %4s", &s, &e, perms) == 3)
			in = addr >= s && addr < e && perms[2] == 'x';
		else if (in && sscanf(line, "KernelPageSize: %lu", &kps) == 1)
			return kps > 4;
	}
	return false;
}

/*
 * A function of big_fns on huge pages, from the middle on, for gdb to
 * name, and whether big_call() is: names checked there prove that gdb
 * reads moved code, not the file's pages before them.
 */
static void
moved_code_report(char *buf, size_t cap)
{
	unsigned int i, fn = big_nfn;

	read_file("/proc/self/smaps", buf, cap);
	for (i = big_nfn / 2; i < big_nfn && fn == big_nfn; i++)
		if (code_on_hugetlb(buf, (uintptr_t)big_fns[i]))
			fn = i;
	printf("moved_fn=%d\ncall_moved=%d\n", fn == big_nfn ? -1 : (int)fn,
			code_on_hugetlb(buf, (uintptr_t)big_call_fn));
}

#ifdef HT_API
/* The first address of the executable's writable segment. */
static int
rw_seg_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	int i;

	(void)size;
	for (i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_LOAD &&
				(info->dlpi_phdr[i].p_flags & PF_W)) {
			*(uintptr_t *)arg = info->dlpi_addr +
					info->dlpi_phdr[i].p_vaddr;
			break;
		}
	return 1;
}

/*
 * HT_TEST_FAIL_MREMAP=all|rw: from now on mremap(MREMAP_FIXED) of
 * anything (all), or of the executable's writable segment and above
 * (rw), fails with ENOMEM, as a kernel out of memory would before it
 * touches the range: the remap must leave such ranges as they were.
 */
static uintptr_t
fail_mremap_install(const char *which)
{
	uint64_t from = 0;

	if (strcmp(which, "rw") == 0)
		dl_iterate_phdr(rw_seg_cb, &from);
	else if (strcmp(which, "all") != 0) {
		printf("FAIL: HT_TEST_FAIL_MREMAP=%s\n", which);
		exit(2);
	}
	if (test_refuse_mremap_fixed(from, ENOMEM) != 0) {
		printf("FAIL: seccomp: %s\n", strerror(errno));
		exit(2);
	}
	printf("fail_mremap_from=%lu\n", (unsigned long)from);
	return from;
}

/*
 * The mappings of /proc/self/maps (read into @p maps of @p maps_cap
 * bytes) over the executable's extent from @p from on, into @p out, the
 * brk heap aside (the remap may have grown it). Ranges start on 2 MB
 * boundaries: one below the first at or above @p from may cover
 * addresses above it, so the window starts there. Lines are clipped to
 * it, so that a mapping split at its start by a move below is the same.
 */
static void
maps_window(char *maps, size_t maps_cap, uintptr_t from, char *out, size_t cap)
{
	struct segs segs = { .n = 0 };
	size_t used = 0;
	char *line, *nl;
	uintptr_t hi;

	dl_iterate_phdr(segs_cb, &segs);
	read_file("/proc/self/maps", maps, maps_cap);
	hi = segs.end[segs.n_exe - 1] + (2UL << 20);
	from = (from + (2UL << 20) - 1) & ~((2UL << 20) - 1);
	if (from < segs.start[0])
		from = segs.start[0];
	out[0] = '\0';
	for (line = maps; (nl = strchr(line, '\n')) != NULL; line = nl + 1) {
		unsigned long s, e, off;
		char perms[5];
		int n, rest = 0;

		*nl = '\0';
		n = sscanf(line, "%lx-%lx %4s %lx %*s %*s%n", &s, &e, perms,
				&off, &rest);
		if (n < 4 || e <= from || s >= hi ||
				strstr(line, "[heap]") != NULL)
			continue;
		if (s < from) {
			off += strchr(line + rest, '/') != NULL ? from - s : 0;
			s = from;
		}
		n = snprintf(out + used, cap - used, "%lx-%lx %s %lx%s\n", s, e,
				perms, off, line + rest);
		if (n < 0 || (size_t)n >= cap - used)
			break;
		used += (size_t)n;
	}
}

static int (*volatile remap_fn)(
		const struct rte_hugetext_conf *) = rte_hugetext_remap;

static void
remap_report(int ret)
{
	struct rte_hugetext_report rep;

	rte_hugetext_report_get(&rep);
	printf("remap=%d\nranges=%u\nhugetlb_kb=%zu\nthp_kb=%zu\n"
	       "small_kb=%zu\nheap_kb=%zu\nfallbacks=%u\n",
			ret, rep.ranges, rep.hugetlb_bytes >> 10,
			rep.thp_bytes >> 10, rep.small_bytes >> 10,
			rep.heap_bytes >> 10, rep.fallbacks);
}
#endif

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* MB/s of memcpy() between two faulted buffers, and of new hugetlb pages
 * faulted in (the kernel clears them): what a move costs at least. */
static void
bench_limits(void)
{
	size_t len = 256 << 20;
	char *a = map_scratch(len), *b = map_scratch(len);
	uint64_t t0;
	void *h;

	memset(a, 1, len);
	memset(b, 2, len);
	t0 = now_ns();
	memcpy(b, a, len);
	printf("memcpy_mbps=%.0f\n", 256e9 / (double)(now_ns() - t0));
	munmap(a, len);
	munmap(b, len);
	t0 = now_ns();
	h = mmap(NULL, len, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	if (h != MAP_FAILED && madvise(h, len, MADV_POPULATE_WRITE) == 0)
		printf("hugetlb_fill_mbps=%.0f\n",
				256e9 / (double)(now_ns() - t0));
	if (h != MAP_FAILED)
		munmap(h, len);
}

/* What a preloaded librtemem_hugetext.so did, if one is loaded. */
static void
bench_remap_report(void)
{
	struct rte_hugetext_report rep;
	int (*get)(struct rte_hugetext_report *);

	*(void **)&get = dlsym(RTLD_DEFAULT, "rte_hugetext_report_get");
	if (get == NULL || get(&rep) != 0)
		return;
	printf("remap_us=%lu\nremap_kb=%zu\n",
			(unsigned long)(rep.elapsed_ns / 1000),
			(rep.hugetlb_bytes + rep.thp_bytes) >> 10);
}

static void
bench(unsigned long reps, unsigned long reads, char *buf, size_t cap)
{
	uint64_t seed = 88172645463325252ULL, t0, sink = 0;
	unsigned long i;

	memset(big_bss, 1, big_bss_len);
	sink += big_chain();
	t0 = now_ns();
	for (i = 0; i < reps; i++)
		sink += big_chain();
	printf("call_ps=%.0f\n",
			(double)(now_ns() - t0) * 1000 /
					((double)reps * big_nfn));
	t0 = now_ns();
	for (i = 0; i < reads; i++) {
		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		sink += big_bss[seed % big_bss_len];
	}
	printf("read_ps=%.0f\nsink=%lu\n",
			(double)(now_ns() - t0) * 1000 / (double)reads,
			(unsigned long)sink);
	bench_remap_report();
	bench_limits();
	smaps_report(buf, cap);
}

__attribute__((noinline)) void target_wait_here(void);
__attribute__((noinline)) void target_crash_here(void);

__attribute__((noinline)) void
target_wait_here(void)
{
	printf("waiting\n");
	fflush(stdout);
	for (;;)
		pause();
}

__attribute__((noinline)) void
target_crash_here(void)
{
	fflush(stdout);
	abort();
}

int
main(int argc, char **argv)
{
	size_t maps_cap = 16 << 20;
	struct snap *before = map_scratch(sizeof(*before));
	struct snap *after = map_scratch(sizeof(*after));
	char *maps = map_scratch(maps_cap);
	const char *action = argc > 1 ? argv[1] : "check";
#ifdef HT_API
	struct rte_hugetext_conf conf = { .mode = RTE_HUGETEXT_AUTO };
#else
	struct {
		int mode;
	} conf = { 0 };
	int (*remap_fn)(const void *) = NULL;
#endif
	unsigned long p;
	int ret = 0;
#ifdef HT_EAL
	int eal_ret = 0, eal_errno = 0;
#endif
#ifdef HT_API
	/* Not in .bss: the snapshots would see it written. */
	char(*fail_maps)[1 << 16] = map_scratch(2 << 16);
	uintptr_t fail_from = UINTPTR_MAX;
#endif

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (strcmp(action, "bench") == 0 && argc == 4) {
		bench(strtoul(argv[2], NULL, 0), strtoul(argv[3], NULL, 0),
				maps, maps_cap);
		return 0;
	}
	if (strcmp(action, "api") == 0) {
#ifdef HT_API
		conf.libs = argc > 3 ? argv[3] : NULL;
		if (rte_hugetext_mode_parse(argc > 2 ? argv[2] : "auto",
				    &conf.mode) != 0) {
			printf("FAIL: bad mode\n");
			return 2;
		}
#else
		printf("FAIL: built without the API\n");
		return 2;
#endif
	}
	for (p = 0; p < big_bss_len; p += 4096)
		if (BSS_TOUCHED(p >> 12))
			big_bss[p] = (uint8_t)(p >> 12);
	heap_fill();
	/* Without BIND_NOW, a non-PIE calls through its PLT: resolve the
	 * entry now, not between the snapshots. */
	if (strcmp(action, "api") == 0) {
		int mode = conf.mode;

		conf.mode = 0;
		remap_fn(&conf);
		conf.mode = mode;
	}
#ifdef HT_API
	if (strcmp(action, "api") == 0 && getenv("HT_TEST_FAIL_MREMAP") != NULL)
		fail_from = fail_mremap_install(getenv("HT_TEST_FAIL_MREMAP"));
	/* Before the snapshot: lazy binding writes the GOT at a first call. */
	if (fail_from != UINTPTR_MAX)
		maps_window(maps, maps_cap, fail_from, fail_maps[0], 1 << 16);
#endif
	snap_take(before, maps, maps_cap);
	if (strcmp(action, "api") == 0)
		ret = remap_fn(&conf);
#ifdef HT_EAL
	if (strcmp(action, "eal") == 0) {
		eal_ret = eal_init_fn(argc - 1, argv + 1);
		eal_errno = eal_ret < 0 ? rte_errno : 0;
	}
#endif
	snap_take(after, maps, maps_cap);
#ifdef HT_EAL
	if (strcmp(action, "eal") == 0)
		printf("eal_init=%d\nrte_errno=%d\n", eal_ret, eal_errno);
#endif
	snap_compare(before, after);
#ifdef HT_API
	/* Where the moves failed, the very same mappings are there. */
	if (fail_from != UINTPTR_MAX) {
		maps_window(maps, maps_cap, fail_from, fail_maps[1], 1 << 16);
		CHECK(fail_maps[0][0] != '\0' &&
						strcmp(fail_maps[0],
								fail_maps[1]) ==
								0,
				"mappings changed where moves failed:\n%s--\n%s",
				fail_maps[0], fail_maps[1]);
	}
	if (strcmp(action, "api") == 0 || strcmp(action, "eal") == 0)
		remap_report(ret);
#else
	(void)ret;
#endif
	check_tables("after");
	heap_check("after");
	brk_check();
	fork_check();
	heap_check("after fork");
	moved_code_report(maps, maps_cap);
	smaps_report(maps, maps_cap);
	printf("failures=%u\n", failures);
	/* Through moved code: its frame must show in backtraces. */
	if (failures == 0 && strcmp(action, "wait") == 0)
		big_call_fn(target_wait_here);
	if (failures == 0 && strcmp(action, "crash") == 0)
		big_call_fn(target_crash_here);
	return failures == 0 ? 0 : 1;
}
