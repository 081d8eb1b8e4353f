/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * The eager strategies of --memzone-image: every stored chunk copied into
 * memory mapped at its address, by threads that take chunks in turn.
 *
 *   pread   one pread() per chunk, straight into the memory: the kernel
 *           copies from the page cache once (reading the disk first when
 *           the image is cold);
 *   mmap    the image mapped read-only with MAP_POPULATE, and each chunk
 *           copied with memcpy: the seed's "mapped file", plus the copy a
 *           writable private memory needs;
 *   direct  O_DIRECT reads, which move a cold image from the disk into
 *           the memory without the page cache. A chunk that does not
 *           start and end on 4 KB goes through a bounce buffer.
 *
 * auto picks from the image's residency in the page cache (mincore()
 * over a sample of it) and whether the file system takes O_DIRECT.
 *
 * Every strategy reads the descriptor that was checked at open (direct
 * opens it again through /proc/self/fd), and checks each chunk's sum in
 * memory: damaged data fails the start like damaged metadata.
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_common.h>

#include "malloc_image_restore.h"
#include "malloc_image_threads.h"

#define READ_DIRECT_ALIGN 4096U
#define READ_PICK_SAMPLES 256
#define READ_WARM_PERCENT 50

struct read_run {
	struct malloc_image_reader *r;
	uint64_t next_chunk; /* atomic */
	uint64_t bytes; /* atomic */
	struct malloc_image_err error;
};

/* A chunk through an aligned buffer, for O_DIRECT. */
static int
read_direct_bounce(int fd, const struct malloc_image_chunk *c, void *bounce)
{
	uint64_t len = RTE_ALIGN_CEIL(
			(uint64_t)c->len, (uint64_t)READ_DIRECT_ALIGN);
	int ret;

	ret = malloc_image_pread(fd, bounce, len, c->off);
	if (ret == 0)
		memcpy((void *)(uintptr_t)c->addr, bounce, c->len);
	return ret;
}

static int
read_chunk(const struct malloc_image_reader *r,
		const struct malloc_image_chunk *c, void *bounce)
{
	void *dst = (void *)(uintptr_t)c->addr;

	if (r->strategy == EAL_IMAGE_MMAP) {
		memcpy(dst, r->map + c->off, c->len);
		return 0;
	}
	/* O_DIRECT goes straight into the memory when it is aligned. */
	if (r->strategy == EAL_IMAGE_DIRECT &&
			(c->addr % READ_DIRECT_ALIGN != 0 ||
					c->len % READ_DIRECT_ALIGN != 0))
		return read_direct_bounce(r->fd, c, bounce);
	return malloc_image_pread(r->fd, dst, c->len, c->off);
}

static void *
read_worker(void *arg)
{
	struct read_run *run = arg;
	const struct rte_memzone_image *img = run->r->img;
	const struct malloc_image_chunk *c;
	void *bounce = NULL;
	uint64_t i;
	int ret;

	if (run->r->strategy == EAL_IMAGE_DIRECT &&
			posix_memalign(&bounce, READ_DIRECT_ALIGN,
					MALLOC_IMAGE_CHUNK +
							READ_DIRECT_ALIGN) !=
					0) {
		malloc_image_err(&run->error, -ENOMEM, "out of memory");
		return NULL;
	}
	while (!malloc_image_err_set(&run->error)) {
		i = __atomic_fetch_add(&run->next_chunk, 1, __ATOMIC_RELAXED);
		if (i >= img->hdr.n_chunks)
			break;
		c = &img->chunks[i];
		if (c->off == 0)
			continue;
		ret = read_chunk(run->r, c, bounce);
		if (ret == 0 &&
				malloc_image_sum(
						(const void *)(uintptr_t)c->addr,
						c->len, NULL) != c->sum) {
			malloc_image_err(&run->error, -EILSEQ,
					"--memzone-image: %s: memzone %s is "
					"damaged at offset %" PRIu64
					" (checksum)",
					img->path, img->zones[c->zone].name,
					c->addr - img->zones[c->zone].addr);
			break;
		}
		if (ret < 0) {
			malloc_image_err(&run->error, ret,
					"--memzone-image: cannot read %s at "
					"%" PRIu64 ": %s",
					img->path, c->off,
					ret == -ENODATA ? "the file is shorter "
							  "than when opened" :
							  strerror(-ret));
			break;
		}
		__atomic_fetch_add(&run->bytes, c->len, __ATOMIC_RELAXED);
	}
	free(bounce);
	return NULL;
}

/*
 * The file that was opened and checked, with O_DIRECT for direct: opened
 * again through /proc/self/fd, so that a save renaming a new image onto
 * the path meanwhile cannot slip other bytes under the checked metadata.
 */
static int
read_open_direct(struct malloc_image_reader *r, char *err, size_t len)
{
	const struct rte_memzone_image *img = r->img;
	struct stat a, b;
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", img->fd);
	r->fd = open(path, O_RDONLY | O_CLOEXEC | O_DIRECT);
	if (r->fd < 0 && errno == EINVAL)
		return malloc_image_err_out(err, len, -EINVAL,
				"--memzone-image-strategy=direct: the file "
				"system of %s does not take O_DIRECT",
				img->path);
	if (r->fd < 0)
		return malloc_image_err_out(err, len, -errno,
				"--memzone-image: cannot open %s again: %s",
				img->path, strerror(errno));
	if (fstat(img->fd, &a) < 0 || fstat(r->fd, &b) < 0 ||
			a.st_dev != b.st_dev || a.st_ino != b.st_ino)
		return malloc_image_err_out(err, len, -ESTALE,
				"--memzone-image: %s changed while it was read",
				img->path);
	return 0;
}

/* Open (and for mmap, map) the image as strategy @p r needs it. */
static int
read_open(struct malloc_image_reader *r, char *err, size_t len)
{
	const struct rte_memzone_image *img = r->img;
	void *map;

	if (r->strategy == EAL_IMAGE_DIRECT)
		return read_open_direct(r, err, len);
	if (r->strategy != EAL_IMAGE_MMAP)
		return 0;
	map = mmap(NULL, img->hdr.file_len, PROT_READ,
			MAP_SHARED | MAP_POPULATE, img->fd, 0);
	if (map == MAP_FAILED)
		return malloc_image_err_out(err, len, -errno,
				"--memzone-image: cannot map %s: %s", img->path,
				strerror(errno));
	r->map = map;
	return 0;
}

int
malloc_image_read_all(struct malloc_image_reader *r, char *err, size_t len)
{
	struct read_run run = { .r = r };
	int ret;

	r->fd = r->img->fd;
	ret = read_open(r, err, len);
	if (ret == 0) {
		r->n_threads = malloc_image_threads_run(r->n_threads,
				r->img->hdr.n_chunks, read_worker, &run);
		r->bytes_read = run.bytes;
		if (malloc_image_err_set(&run.error)) {
			malloc_image_err_copy(&run.error, err, len);
			ret = run.error.code;
		}
	}
	if (r->map != NULL)
		munmap((void *)(uintptr_t)r->map, r->img->hdr.file_len);
	if (r->fd >= 0 && r->fd != r->img->fd)
		close(r->fd);
	r->map = NULL;
	r->fd = -1;
	return ret;
}

/* Percent of a sample of the image's data pages in the page cache. */
static int
read_resident_percent(const struct rte_memzone_image *img)
{
	const struct malloc_image_hdr *h = &img->hdr;
	long pg = sysconf(_SC_PAGESIZE);
	uint64_t npages, step, i;
	unsigned int seen = 0, in = 0;
	unsigned char vec;
	void *map;

	if (h->data_len == 0 || pg <= 0)
		return 100;
	map = mmap(NULL, h->file_len, PROT_READ, MAP_SHARED, img->fd, 0);
	if (map == MAP_FAILED)
		return -1;
	npages = h->data_len / (uint64_t)pg;
	step = RTE_MAX(npages / READ_PICK_SAMPLES, (uint64_t)1);
	for (i = 0; i < npages; i += step) {
		char *at = (char *)map + h->data_off + i * (uint64_t)pg;

		if (mincore(at, (size_t)pg, &vec) == 0) {
			seen++;
			in += vec & 1;
		}
	}
	munmap(map, h->file_len);
	return seen == 0 ? -1 : (int)(in * 100 / seen);
}

/* Whether the file system of the image opened as @p img_fd takes O_DIRECT. */
static bool
read_direct_works(int img_fd)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", img_fd);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_DIRECT);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

enum eal_image_strategy
malloc_image_pick(const struct rte_memzone_image *img, char *why, size_t len)
{
	int resident = read_resident_percent(img);

	if (resident < 0) {
		snprintf(why, len,
				"mincore() cannot tell how much of it is in the "
				"page cache: pread works either way");
		return EAL_IMAGE_PREAD;
	}
	if (resident >= READ_WARM_PERCENT) {
		snprintf(why, len,
				"%d%% of its stored data is in the page cache: one "
				"copy from the cache into the memory, on every "
				"thread",
				resident);
		return EAL_IMAGE_PREAD;
	}
	if (read_direct_works(img->fd)) {
		snprintf(why, len,
				"only %d%% of its stored data is in the page "
				"cache: O_DIRECT moves it from the disk into the "
				"memory without the cache's extra copy",
				resident);
		return EAL_IMAGE_DIRECT;
	}
	snprintf(why, len,
			"only %d%% of its stored data is in the page cache and "
			"its file system does not take O_DIRECT",
			resident);
	return EAL_IMAGE_PREAD;
}
