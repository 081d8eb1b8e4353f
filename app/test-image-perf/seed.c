/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * The seed's six cases (the CRaC question: mmap or userfaultfd?), on an
 * image of random bytes, each read once by touching every 4 KB page:
 *
 *   mmap              the file mapped, pages faulted in as touched;
 *   mmap populated    the same with MAP_POPULATE;
 *   uffd copy 4K/2M   anonymous memory (2 MB: hugetlb) registered for
 *                     missing faults; a handler thread reads the page from
 *                     the file and fills it with UFFDIO_COPY;
 *   uffd remap 4K/2M  the handler reads into new memory of its own and
 *                     moves it into place with mremap(), then wakes the
 *                     faulting thread.
 */

#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "iperf.h"

#define SZ_4K 4096UL
#define SZ_2M (2UL << 20)

struct uffd_case {
	int uffd;
	int fd; /* the image */
	char *base;
	uint64_t len;
	uint64_t pg;
	bool remap;
	volatile bool stop;
	int error; /* errno of the first failure */
};

/*
 * Touch every 4 KB page (iperf_page_sum()); the time to the first byte,
 * read on its own first, in @p first_ms.
 */
static uint64_t
seed_touch(const char *p, uint64_t len, double t0, double *first_ms)
{
	volatile char first = p[0];

	(void)first;
	*first_ms = iperf_now_ms() - t0;
	return iperf_page_sum(p, len);
}

static void
seed_mmap(struct iperf_ctx *c, bool cold, bool populate)
{
	struct iperf_row *r = iperf_row_add(
			c, "seed", populate ? "mmap populated" : "mmap", cold);
	double t0;
	void *p;
	int fd;

	if (r == NULL)
		return;
	fd = open(c->raw_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(r->note, sizeof(r->note), "cannot open the image");
		return;
	}
	t0 = iperf_now_ms();
	p = mmap(NULL, c->bytes, PROT_READ,
			MAP_PRIVATE | (populate ? MAP_POPULATE : 0), fd, 0);
	if (p == MAP_FAILED) {
		snprintf(r->note, sizeof(r->note), "mmap: %s", strerror(errno));
		close(fd);
		return;
	}
	if (populate)
		snprintf(r->note, sizeof(r->note), "mmap itself %.1f ms",
				iperf_now_ms() - t0);
	r->ok = seed_touch(p, c->bytes, t0, &r->first_ms) == c->raw_sum;
	r->all_ms = iperf_now_ms() - t0;
	munmap(p, c->bytes);
	close(fd);
}

/* Fill the page at @p addr, as the case says. @return 0 or an errno. */
static int
seed_fill(struct uffd_case *u, uint64_t addr)
{
	uint64_t off = addr - (uint64_t)(uintptr_t)u->base;
	struct uffdio_copy cp;
	struct uffdio_range wake;
	void *buf;

	buf = mmap(NULL, u->pg, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS |
					(u->pg == SZ_2M ? MAP_HUGETLB : 0),
			-1, 0);
	if (buf == MAP_FAILED)
		return errno;
	if (pread(u->fd, buf, u->pg, (off_t)off) != (ssize_t)u->pg) {
		munmap(buf, u->pg);
		return EIO;
	}
	if (u->remap) {
		if (mremap(buf, u->pg, u->pg, MREMAP_MAYMOVE | MREMAP_FIXED,
				    (void *)(uintptr_t)addr) == MAP_FAILED) {
			munmap(buf, u->pg);
			return errno;
		}
		wake.start = addr;
		wake.len = u->pg;
		return ioctl(u->uffd, UFFDIO_WAKE, &wake) < 0 ? errno : 0;
	}
	cp.dst = addr;
	cp.src = (uint64_t)(uintptr_t)buf;
	cp.len = u->pg;
	cp.mode = 0;
	cp.copy = 0;
	if (ioctl(u->uffd, UFFDIO_COPY, &cp) < 0 && errno != EEXIST) {
		munmap(buf, u->pg);
		return errno;
	}
	munmap(buf, u->pg);
	return 0;
}

/* After a failed fill: the page as zeros, so the reader goes on. */
static void
seed_unblock(struct uffd_case *u, uint64_t addr)
{
	struct uffdio_zeropage z = { .range = { .start = addr, .len = u->pg } };
	struct uffdio_copy cp;
	void *zero;

	if (u->pg == SZ_4K) {
		ioctl(u->uffd, UFFDIO_ZEROPAGE, &z);
		return;
	}
	/* No zero page for hugetlb: copy from zeroed memory. */
	zero = mmap(NULL, u->pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (zero == MAP_FAILED)
		return;
	cp.dst = addr;
	cp.src = (uint64_t)(uintptr_t)zero;
	cp.len = u->pg;
	cp.mode = 0;
	cp.copy = 0;
	ioctl(u->uffd, UFFDIO_COPY, &cp);
	munmap(zero, u->pg);
}

static void *
seed_handler(void *arg)
{
	struct uffd_case *u = arg;
	struct pollfd pfd = { .fd = u->uffd, .events = POLLIN };
	struct uffd_msg msg;
	int ret;

	while (!u->stop) {
		if (poll(&pfd, 1, 50) <= 0)
			continue;
		if (read(u->uffd, &msg, sizeof(msg)) != sizeof(msg))
			continue;
		if (msg.event != UFFD_EVENT_PAGEFAULT)
			continue;
		ret = seed_fill(u, msg.arg.pagefault.address & ~(u->pg - 1));
		if (ret != 0 && u->error == 0)
			u->error = ret;
		/* A fault left unresolved would hang the reader: zeros. */
		if (ret != 0)
			seed_unblock(u,
					msg.arg.pagefault.address &
							~(u->pg - 1));
	}
	return NULL;
}

static int
seed_uffd_open(struct uffd_case *u)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg;

	u->uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (u->uffd < 0)
		return errno;
	if (ioctl(u->uffd, UFFDIO_API, &api) < 0)
		return errno;
	reg.range.start = (uint64_t)(uintptr_t)u->base;
	reg.range.len = u->len;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	return ioctl(u->uffd, UFFDIO_REGISTER, &reg) < 0 ? errno : 0;
}

#define MAP_COUNT_PATH "/proc/sys/vm/max_map_count"

static long
seed_map_count(void)
{
	char buf[32] = "";
	ssize_t n;
	int fd;

	fd = open(MAP_COUNT_PATH, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 ? strtol(buf, NULL, 10) : -1;
}

static int
seed_map_count_set(long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%ld", v);
	return iperf_sysctl_write(MAP_COUNT_PATH, buf);
}

/*
 * Each 4 KB page moved into place with mremap() stays a mapping of its
 * own (it cannot merge with its neighbours): past vm.max_map_count's
 * default of 65530 from 256 MB on. Raised for the case where this
 * process may (root), and put back after.
 *
 * @return the value to put back, 0 if unchanged, -1 if it could not be
 *   raised.
 */
static long
seed_map_count_raise(uint64_t maps)
{
	long now = seed_map_count(), want = (long)maps + 65536;

	if (now < 0)
		return -1;
	if (now >= want)
		return 0;
	return seed_map_count_set(want) == 0 ? now : -1;
}

static void
seed_uffd(struct iperf_ctx *c, bool cold, uint64_t pg, bool remap)
{
	char name[48];
	struct iperf_row *r;
	struct uffd_case u = {
		.uffd = -1, .len = c->bytes, .pg = pg, .remap = remap
	};
	long map_count = 0;
	pthread_t tid;
	uint64_t sum;
	double t0;
	int ret;

	snprintf(name, sizeof(name), "uffd %s %s", remap ? "remap" : "copy",
			pg == SZ_2M ? "2M" : "4K");
	r = iperf_row_add(c, "seed", name, cold);
	if (r == NULL)
		return;
	u.fd = open(c->raw_path, O_RDONLY | O_CLOEXEC);
	u.base = mmap(NULL, c->bytes, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
					(pg == SZ_2M ? MAP_HUGETLB : 0),
			-1, 0);
	if (u.fd < 0 || u.base == MAP_FAILED) {
		snprintf(r->note, sizeof(r->note), "%s",
				u.fd < 0 ? "cannot open the image" :
					   "no memory (free 2 MB hugepages?)");
		goto out;
	}
	ret = seed_uffd_open(&u);
	if (ret != 0) {
		snprintf(r->note, sizeof(r->note), "userfaultfd: %s",
				strerror(ret));
		goto out;
	}
	if (remap && pg == SZ_4K)
		map_count = seed_map_count_raise(c->bytes / pg);
	t0 = iperf_now_ms();
	pthread_create(&tid, NULL, seed_handler, &u);
	sum = seed_touch(u.base, c->bytes, t0, &r->first_ms);
	r->all_ms = iperf_now_ms() - t0;
	u.stop = true;
	pthread_join(tid, NULL);
	r->ok = u.error == 0 && sum == c->raw_sum;
	if (u.error == ENOMEM && remap && pg == SZ_4K)
		snprintf(r->note, sizeof(r->note),
				"mremap: ENOMEM, one mapping per 4 KB page "
				"passes vm.max_map_count%s",
				map_count < 0 ? " (not raised: run as root)" :
						"");
	else if (u.error != 0)
		snprintf(r->note, sizeof(r->note), "handler: %s",
				strerror(u.error));
	else if (map_count > 0)
		snprintf(r->note, sizeof(r->note),
				"vm.max_map_count raised from %ld for the case",
				map_count);
out:
	if (map_count > 0 && seed_map_count_set(map_count) < 0)
		fprintf(stderr, "cannot put vm.max_map_count back to %ld\n",
				map_count);
	if (u.uffd >= 0)
		close(u.uffd);
	if (u.base != MAP_FAILED && u.base != NULL)
		munmap(u.base, c->bytes);
	if (u.fd >= 0)
		close(u.fd);
}

void
iperf_seed(struct iperf_ctx *c, bool cold)
{
	int i;

	for (i = 0; i < 6; i++) {
		fprintf(stderr, "seed case %d%s\n", i + 1,
				cold ? ", cold" : "");
		if (cold)
			iperf_drop_caches();
		switch (i) {
		case 0:
			seed_mmap(c, cold, false);
			break;
		case 1:
			seed_mmap(c, cold, true);
			break;
		default:
			seed_uffd(c, cold, i < 4 ? SZ_4K : SZ_2M, i % 2 == 1);
			break;
		}
	}
}
