/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * rte_memzone_image_save(): the memzones are listed first (under the
 * memzone lock, as rte_memzone_walk() does), so the metadata's size and
 * the data's offset are known before any byte is written; threads then
 * take chunks in turn, checksum each in one pass that also finds zero
 * chunks, and write the others at the next free offset. The metadata,
 * the header and the end marker follow, then fsync and rename.
 */

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_memory.h>
#include <rte_memzone_image.h>
#include <rte_string_fns.h>

#include "eal_memseg_list.h"
#include "malloc_elem.h"
#include "malloc_heap.h"
#include "malloc_image.h"
#include "malloc_image_threads.h"
#include "malloc_state.h"

/* A save under way. */
struct image_save {
	struct malloc_image_hdr hdr;
	struct malloc_image_list *lists;
	struct malloc_image_zone *zones;
	struct malloc_image_chunk *chunks;
	void *meta; /* lists, zones and chunks, in one block */
	int fd;
	uint64_t cursor; /* next free data offset (atomic) */
	uint64_t next_chunk; /* next chunk to take (atomic) */
	uint64_t stored; /* bytes stored (atomic) */
	struct malloc_image_err error; /* the first failure */
	char tmp[PATH_MAX];
};

static uint64_t
save_now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

struct save_walk {
	struct rte_memzone *zones; /* RTE_MAX_MEMZONE of them */
	unsigned int n;
	unsigned int n_skipped;
};

static void
save_walk_one(const struct rte_memzone *mz, void *arg)
{
	struct save_walk *w = arg;
	const struct rte_memseg_list *msl = rte_mem_virt2memseg_list(mz->addr);

	if (msl == NULL || msl->external)
		w->n_skipped++;
	else
		w->zones[w->n++] = *mz;
}

static int
save_zone_cmp(const void *a, const void *b)
{
	const struct rte_memzone *x = a, *y = b;

	return x->addr_64 < y->addr_64 ? -1 : x->addr_64 > y->addr_64;
}

/*
 * Every memseg list of this process but external ones, in order: a
 * restore lays out all of them where they were, as --keep-memzones does,
 * so that none can take the place of another.
 */
static void
save_lists(struct image_save *s, const struct rte_mem_config *mcfg)
{
	struct malloc_image_list *l;
	unsigned int i;

	for (i = 0; i < mcfg->n_lists; i++) {
		const struct rte_memseg_list *msl = &mcfg->memsegs[i];

		if (msl->external)
			continue;
		l = &s->lists[s->hdr.n_lists++];
		l->base_va = msl->addr_64;
		l->page_sz = msl->page_sz;
		l->n_segs = msl->n_segs;
		l->socket_id = msl->socket_id;
		l->msl_idx = i;
	}
}

/* The image's index of memseg list @p msl. */
static uint32_t
save_list_of(const struct image_save *s, const struct rte_mem_config *mcfg,
		const struct rte_memseg_list *msl)
{
	uint32_t idx = (uint32_t)eal_msl_index(mcfg, msl), i;

	for (i = 0; i < s->hdr.n_lists && s->lists[i].msl_idx != idx; i++)
		;
	return i;
}

/* The metadata of memzones @p mz (sorted), chunk offsets still unknown. */
static int
save_plan(struct image_save *s, const struct rte_memzone *mz, unsigned int n)
{
	const struct rte_mem_config *mcfg = malloc_mcfg_get();
	uint64_t n_chunks = 0, c = 0, j;
	unsigned int i;
	size_t len;

	for (i = 0; i < n; i++)
		n_chunks += malloc_image_zone_chunks(mz[i].addr_64, mz[i].len);
	len = mcfg->n_lists * sizeof(s->lists[0]) + n * sizeof(s->zones[0]) +
			n_chunks * sizeof(s->chunks[0]);
	s->meta = calloc(1, RTE_MAX(len, (size_t)1));
	if (s->meta == NULL)
		return -ENOMEM;
	s->lists = s->meta;
	save_lists(s, mcfg);
	s->zones = (void *)(s->lists + s->hdr.n_lists);
	s->chunks = (void *)(s->zones + n);
	for (i = 0; i < n; i++) {
		struct malloc_image_zone *z = &s->zones[i];

		memcpy(z->name, mz[i].name, sizeof(z->name));
		z->addr = mz[i].addr_64;
		z->len = mz[i].len;
		z->iova = mz[i].iova;
		z->hugepage_sz = mz[i].hugepage_sz;
		z->socket_id = mz[i].socket_id;
		z->flags = mz[i].flags;
		z->list = save_list_of(
				s, mcfg, rte_mem_virt2memseg_list(mz[i].addr));
		z->first_chunk = c;
		z->n_chunks = malloc_image_zone_chunks(z->addr, z->len);
		for (j = 0; j < z->n_chunks; j++, c++) {
			s->chunks[c].len = malloc_image_chunk_at(
					z->addr, z->len, j, &s->chunks[c].addr);
			s->chunks[c].zone = i;
		}
		s->hdr.zone_bytes += z->len;
	}
	s->hdr.n_zones = n;
	s->hdr.n_chunks = n_chunks;
	s->hdr.meta_off = MALLOC_IMAGE_ALIGN;
	s->hdr.meta_len = s->hdr.n_lists * sizeof(s->lists[0]) +
			n * sizeof(s->zones[0]) +
			n_chunks * sizeof(s->chunks[0]);
	s->hdr.data_off = RTE_ALIGN_CEIL(s->hdr.meta_off + s->hdr.meta_len,
			(uint64_t)MALLOC_IMAGE_ALIGN);
	s->cursor = s->hdr.data_off;
	return 0;
}

/* One thread's work: chunks in turn until none is left or one failed. */
static void *
save_worker(void *arg)
{
	struct image_save *s = arg;
	struct malloc_image_chunk *c;
	uint64_t i, off;
	bool nonzero;
	int ret;

	while (!malloc_image_err_set(&s->error)) {
		i = __atomic_fetch_add(&s->next_chunk, 1, __ATOMIC_RELAXED);
		if (i >= s->hdr.n_chunks)
			break;
		c = &s->chunks[i];
		c->sum = malloc_image_chunk_sum(MALLOC_IMAGE_VERSION,
				(const void *)(uintptr_t)c->addr, c->len,
				&nonzero);
		if (!nonzero) {
			c->sum = 0;
			continue;
		}
		off = __atomic_fetch_add(&s->cursor,
				RTE_ALIGN_CEIL((uint64_t)c->len,
						(uint64_t)MALLOC_IMAGE_ALIGN),
				__ATOMIC_RELAXED);
		ret = malloc_image_pwrite(s->fd,
				(const void *)(uintptr_t)c->addr, c->len, off);
		if (ret < 0) {
			malloc_image_err(&s->error, ret, "cannot write %s: %s",
					s->tmp, strerror(-ret));
			break;
		}
		c->off = off;
		__atomic_fetch_add(&s->stored, c->len, __ATOMIC_RELAXED);
	}
	return NULL;
}

/* The metadata, the header, the end marker; the length goes in first. */
static int
save_finish_file(struct image_save *s, uint64_t created_ns)
{
	struct malloc_image_hdr *h = &s->hdr;
	struct malloc_image_end end = { 0 };
	int ret;

	h->magic = MALLOC_IMAGE_MAGIC;
	h->version = MALLOC_IMAGE_VERSION;
	h->hdr_len = sizeof(*h);
	h->created_ns = created_ns;
	h->chunk_size = MALLOC_IMAGE_CHUNK;
	h->elem_header_len = MALLOC_ELEM_HEADER_LEN;
	h->elem_trailer_len = MALLOC_ELEM_TRAILER_LEN;
	h->stored_bytes = s->stored;
	h->data_len = s->cursor - h->data_off;
	h->file_len = s->cursor + sizeof(end);
	h->meta_sum = malloc_image_sum(s->lists, h->meta_len, NULL);
	h->sum = 0;
	h->sum = malloc_image_sum(h, sizeof(*h), NULL);
	end.magic = MALLOC_IMAGE_END_MAGIC;
	end.file_len = h->file_len;
	end.hdr_sum = h->sum;
	end.sum = malloc_image_sum(&end, sizeof(end), NULL);
	ret = malloc_image_pwrite(s->fd, s->lists, h->meta_len, h->meta_off);
	if (ret == 0)
		ret = malloc_image_pwrite(s->fd, &end, sizeof(end), s->cursor);
	if (ret == 0)
		ret = malloc_image_pwrite(s->fd, h, sizeof(*h), 0);
	/* The file may be one that existed: cut what the last save left. */
	if (ret == 0 && ftruncate(s->fd, (off_t)h->file_len) < 0)
		ret = -errno;
	if (ret < 0)
		malloc_image_err(&s->error, ret, "cannot write %s: %s", s->tmp,
				strerror(-ret));
	return ret;
}

/* fsync the file, name it @p path, fsync its directory. */
static int
save_commit(struct image_save *s, const char *path, unsigned int flags)
{
	char dir[PATH_MAX];
	int dfd, ret = 0;

	if (!(flags & RTE_MEMZONE_IMAGE_F_NO_SYNC) && fsync(s->fd) < 0)
		return malloc_image_err(&s->error, -errno, "cannot sync %s: %s",
				s->tmp, strerror(errno));
	if (rename(s->tmp, path) < 0)
		return malloc_image_err(&s->error, -errno,
				"cannot rename %s to %s: %s", s->tmp, path,
				strerror(errno));
	s->tmp[0] = '\0';
	if (flags & RTE_MEMZONE_IMAGE_F_NO_SYNC)
		return 0;
	strlcpy(dir, path, sizeof(dir));
	dfd = open(dirname(dir), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0 || fsync(dfd) < 0)
		ret = malloc_image_err(&s->error, -errno,
				"%s is complete, but its directory could not be "
				"synced (a crash may lose the new name): %s",
				path, strerror(errno));
	if (dfd >= 0)
		close(dfd);
	return ret;
}

/* Open a new temporary file next to @p path. */
static int
save_open_tmp(struct image_save *s, const char *path)
{
	char dir[PATH_MAX], base[PATH_MAX];
	int n;

	strlcpy(dir, path, sizeof(dir));
	strlcpy(base, path, sizeof(base));
	n = snprintf(s->tmp, sizeof(s->tmp), "%s/.%s.tmp-XXXXXX", dirname(dir),
			basename(base));
	if (n < 0 || (size_t)n >= sizeof(s->tmp))
		return malloc_image_err(&s->error, -ENAMETOOLONG,
				"image path too long: %s", path);
	/* A new name (O_EXCL): never another save's file, nor a link. */
	s->fd = mkostemp(s->tmp, O_CLOEXEC);
	if (s->fd < 0) {
		n = -errno;
		malloc_image_err(&s->error, n, "cannot create %s: %s", s->tmp,
				strerror(-n));
		s->tmp[0] = '\0'; /* nothing of ours to remove */
		return n;
	}
	return 0;
}

static int
save_run(struct image_save *s, const char *path,
		const struct rte_memzone_image_save_conf *conf,
		struct rte_memzone_image_save_stats *st)
{
	uint64_t t0 = save_now_ns(CLOCK_MONOTONIC), created;
	struct save_walk w = { 0 };
	int ret;

	created = save_now_ns(CLOCK_REALTIME);
	w.zones = malloc(RTE_MAX_MEMZONE * sizeof(w.zones[0]));
	if (w.zones == NULL)
		return malloc_image_err(&s->error, -ENOMEM, "out of memory");
	rte_memzone_walk(save_walk_one, &w);
	qsort(w.zones, w.n, sizeof(w.zones[0]), save_zone_cmp);
	ret = save_plan(s, w.zones, w.n);
	free(w.zones);
	if (ret < 0)
		return malloc_image_err(&s->error, ret, "out of memory");
	s->hdr.n_skipped = w.n_skipped;
	ret = save_open_tmp(s, path);
	if (ret < 0)
		return ret;
	st->n_threads = malloc_image_threads_run(
			conf->n_threads, s->hdr.n_chunks, save_worker, s);
	st->copy_ns = save_now_ns(CLOCK_MONOTONIC) - t0;
	if (malloc_image_err_set(&s->error))
		return s->error.code;
	ret = save_finish_file(s, created);
	if (ret == 0)
		ret = save_commit(s, path, conf->flags);
	st->n_zones = s->hdr.n_zones;
	st->n_skipped = s->hdr.n_skipped;
	st->zone_bytes = s->hdr.zone_bytes;
	st->stored_bytes = s->hdr.stored_bytes;
	st->file_len = s->hdr.file_len;
	st->total_ns = save_now_ns(CLOCK_MONOTONIC) - t0;
	return ret;
}

int
rte_memzone_image_save(const char *path,
		const struct rte_memzone_image_save_conf *conf,
		struct rte_memzone_image_save_stats *stats, char *err,
		size_t err_len)
{
	const struct rte_memzone_image_save_conf dflt = { 0 };
	struct rte_memzone_image_save_stats st = { 0 };
	struct image_save *s;
	int ret;

	if (path == NULL || path[0] == '\0')
		return malloc_image_err_out(
				err, err_len, -EINVAL, "no image path given");
	if (malloc_mcfg_get() == NULL)
		return malloc_image_err_out(err, err_len, -ENODEV,
				"rte_eal_init() has not run");
	s = calloc(1, sizeof(*s));
	if (s == NULL)
		return malloc_image_err_out(
				err, err_len, -ENOMEM, "out of memory");
	s->fd = -1;
	ret = save_run(s, path, conf != NULL ? conf : &dflt, &st);
	if (s->fd >= 0)
		close(s->fd);
	if (s->tmp[0] != '\0')
		unlink(s->tmp);
	if (ret < 0)
		malloc_image_err_copy(&s->error, err, err_len);
	else if (stats != NULL)
		*stats = st;
	free(s->meta);
	free(s);
	return ret;
}
