/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * What the machine allows, measured in the same run: memcpy bandwidth on
 * one thread and on several, the kernel's clearing of new 2 MB hugepages,
 * and the disk's sequential read rate (O_DIRECT, so always cold). An
 * image cannot come back faster than one memcpy of it, plus the clearing
 * of pages that were not there before; from a cold file, than the disk.
 */

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "iperf.h"

#define LIMIT_REPS 3
#define LIMIT_BLOCK (2UL << 20)
#define LIMIT_MAX_THREADS 64

struct copy_part {
	char *dst;
	const char *src;
	uint64_t len;
};

static void *
limit_copy_part(void *arg)
{
	struct copy_part *p = arg;

	memcpy(p->dst, p->src, p->len);
	return NULL;
}

static double
iperf_min(double a, double b)
{
	return a < b ? a : b;
}

/* Best of LIMIT_REPS copies of @p len bytes on @p n threads, in ms. */
static double
limit_copy(char *dst, const char *src, uint64_t len, unsigned int n)
{
	struct copy_part parts[LIMIT_MAX_THREADS];
	pthread_t tid[LIMIT_MAX_THREADS];
	bool started[LIMIT_MAX_THREADS];
	double best = 1e30, t0;
	unsigned int i, rep;
	uint64_t share = len / n;

	for (rep = 0; rep < LIMIT_REPS; rep++) {
		t0 = iperf_now_ms();
		for (i = 0; i < n; i++) {
			parts[i].dst = dst + i * share;
			parts[i].src = src + i * share;
			parts[i].len = i == n - 1 ? len - i * share : share;
			started[i] = i > 0 &&
					pthread_create(&tid[i], NULL,
							limit_copy_part,
							&parts[i]) == 0;
		}
		limit_copy_part(&parts[0]);
		/* A thread that could not start: its part here. */
		for (i = 1; i < n; i++) {
			if (started[i])
				pthread_join(tid[i], NULL);
			else
				limit_copy_part(&parts[i]);
		}
		best = iperf_min(best, iperf_now_ms() - t0);
	}
	return best;
}

static void
limit_memcpy(struct iperf_ctx *c)
{
	int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE;
	char *a = mmap(NULL, c->bytes, PROT_READ | PROT_WRITE, flags, -1, 0);
	char *b = mmap(NULL, c->bytes, PROT_READ | PROT_WRITE, flags, -1, 0);
	unsigned int n[2] = { 1, c->threads }, i;
	struct iperf_row *r;
	char name[48];

	for (i = 0; i < 2 && a != MAP_FAILED && b != MAP_FAILED; i++) {
		if (i == 1 && c->threads == 1)
			break;
		memset(a, (int)i + 1, c->bytes);
		snprintf(name, sizeof(name), "memcpy, %u thread%s", n[i],
				n[i] > 1 ? "s" : "");
		r = iperf_row_add(c, "limit", name, false);
		if (r == NULL)
			break;
		r->all_ms = limit_copy(b, a, c->bytes,
				(n[i] < LIMIT_MAX_THREADS ? n[i] :
							    LIMIT_MAX_THREADS));
		r->first_ms = r->all_ms;
		r->ok = b[c->bytes - 1] == (char)(i + 1);
	}
	if (a != MAP_FAILED)
		munmap(a, c->bytes);
	if (b != MAP_FAILED)
		munmap(b, c->bytes);
}

/* New 2 MB hugepages mapped and faulted in: the kernel clears each. */
static void
limit_clear(struct iperf_ctx *c)
{
	struct iperf_row *r = iperf_row_add(
			c, "limit", "kernel clears new 2M pages", false);
	double t0;
	void *p;

	if (r == NULL)
		return;
	t0 = iperf_now_ms();
	p = mmap(NULL, c->bytes, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB |
					MAP_POPULATE,
			-1, 0);
	if (p == MAP_FAILED) {
		snprintf(r->note, sizeof(r->note),
				"no %llu MB of free 2 MB hugepages",
				(unsigned long long)(c->bytes >> 20));
		return;
	}
	r->all_ms = iperf_now_ms() - t0;
	r->first_ms = r->all_ms;
	r->ok = true;
	munmap(p, c->bytes);
}

/* The image read once with O_DIRECT, in 2 MB blocks. */
static void
limit_disk(struct iperf_ctx *c)
{
	struct iperf_row *r = iperf_row_add(
			c, "limit", "disk read (O_DIRECT)", true);
	uint64_t off;
	double t0;
	void *buf;
	int fd;

	if (r == NULL)
		return;
	fd = open(c->raw_path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0 || posix_memalign(&buf, 4096, LIMIT_BLOCK) != 0) {
		snprintf(r->note, sizeof(r->note),
				"no O_DIRECT on this file system");
		if (fd >= 0)
			close(fd);
		return;
	}
	t0 = iperf_now_ms();
	for (off = 0; off < c->bytes; off += LIMIT_BLOCK)
		if (pread(fd, buf, LIMIT_BLOCK, (off_t)off) <= 0)
			break;
	r->all_ms = iperf_now_ms() - t0;
	r->first_ms = r->all_ms;
	r->ok = off >= c->bytes;
	free(buf);
	close(fd);
}

void
iperf_limits(struct iperf_ctx *c)
{
	limit_memcpy(c);
	limit_clear(c);
	limit_disk(c);
}
