/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * rte_memzone_image_open(): every check that needs no contents, in the
 * order that names the most likely cause first: not an image, another
 * version, cut short (a save that did not finish), damaged, then
 * metadata that cannot describe real memzones. Each refusal is one line
 * that names the file and what is wrong with it.
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_memzone_image.h>
#include <rte_string_fns.h>

#include "malloc_image.h"
#include "malloc_image_threads.h"

static int
open_hdr_check(struct rte_memzone_image *img, char *err, size_t len)
{
	const struct malloc_image_hdr *h = &img->hdr;
	struct malloc_image_hdr copy = *h;
	const char *p = img->path;

	if (h->magic != MALLOC_IMAGE_MAGIC)
		return malloc_image_err_out(err, len, -EINVAL,
				"%s is not a memzone image (no image magic at "
				"its start)",
				p);
	if (h->version < MALLOC_IMAGE_VERSION_MIN ||
			h->version > MALLOC_IMAGE_VERSION)
		return malloc_image_err_out(err, len, -EINVAL,
				"%s is a version %" PRIu32 " memzone image; "
				"this rtemem reads versions %u to %u",
				p, h->version, MALLOC_IMAGE_VERSION_MIN,
				MALLOC_IMAGE_VERSION);
	copy.sum = 0;
	if (h->hdr_len != sizeof(*h) ||
			malloc_image_sum(&copy, sizeof(copy), NULL) != h->sum)
		return malloc_image_err_out(err, len, -EINVAL,
				"%s: the header is damaged (checksum)", p);
	if (img->size < h->file_len)
		return malloc_image_err_out(err, len, -EINVAL,
				"%s is truncated: %" PRIu64 " of its %" PRIu64
				" bytes are there",
				p, img->size, h->file_len);
	if (img->size > h->file_len)
		return malloc_image_err_out(err, len, -EINVAL,
				"%s has %" PRIu64 " bytes after its end marker",
				p, img->size - h->file_len);
	return 0;
}

static int
open_end_check(struct rte_memzone_image *img, char *err, size_t len)
{
	struct malloc_image_end end, copy;
	int ret;

	ret = malloc_image_pread(
			img->fd, &end, sizeof(end), img->size - sizeof(end));
	if (ret < 0)
		return malloc_image_err_out(err, len, ret, "cannot read %s: %s",
				img->path, strerror(-ret));
	copy = end;
	copy.sum = 0;
	if (end.magic != MALLOC_IMAGE_END_MAGIC ||
			end.sum != malloc_image_sum(&copy, sizeof(copy), NULL) ||
			end.file_len != img->hdr.file_len ||
			end.hdr_sum != img->hdr.sum)
		return malloc_image_err_out(err, len, -EINVAL,
				"%s has no valid end marker: the save that "
				"wrote it did not finish, or the file is "
				"damaged",
				img->path);
	return 0;
}

/* Where the header says the parts are: inside the file, in order. */
static int
open_bounds_check(struct rte_memzone_image *img, char *err, size_t len)
{
	const struct malloc_image_hdr *h = &img->hdr;
	uint64_t want;
	bool bad;

	/*
	 * Each count below the file's length over its record's size, and
	 * each offset below the file's length: no product or sum below can
	 * wrap, whatever a crafted (sparse) file says.
	 */
	bad = h->n_lists > RTE_MAX_MEMSEG_LISTS ||
			h->n_zones > h->file_len / sizeof(struct malloc_image_zone) ||
			h->n_chunks > h->file_len / sizeof(struct malloc_image_chunk) ||
			h->meta_off > h->file_len ||
			h->data_off > h->file_len || h->data_len > h->file_len;
	want = (uint64_t)h->n_lists * sizeof(struct malloc_image_list) +
			(uint64_t)h->n_zones *
					sizeof(struct malloc_image_zone) +
			h->n_chunks * sizeof(struct malloc_image_chunk);
	if (bad || h->chunk_size != MALLOC_IMAGE_CHUNK ||
			h->meta_off < sizeof(*h) || h->meta_len != want ||
			h->meta_off + h->meta_len > h->data_off ||
			h->data_off % MALLOC_IMAGE_ALIGN != 0 ||
			h->data_off + h->data_len + sizeof(struct malloc_image_end) !=
					h->file_len)
		return malloc_image_err_out(err, len, -EINVAL,
				"%s: the header's layout is inconsistent",
				img->path);
	return 0;
}

static int
open_meta_read(struct rte_memzone_image *img, char *err, size_t len)
{
	const struct malloc_image_hdr *h = &img->hdr;
	int ret;

	img->meta = malloc(RTE_MAX(h->meta_len, (uint64_t)1));
	if (img->meta == NULL)
		return malloc_image_err_out(err, len, -ENOMEM,
				"%s: no memory for %" PRIu64
				" bytes of metadata",
				img->path, h->meta_len);
	ret = malloc_image_pread(img->fd, img->meta, h->meta_len, h->meta_off);
	if (ret < 0)
		return malloc_image_err_out(err, len, ret, "cannot read %s: %s",
				img->path, strerror(-ret));
	if (malloc_image_sum(img->meta, h->meta_len, NULL) != h->meta_sum)
		return malloc_image_err_out(err, len, -EINVAL,
				"%s: the metadata is damaged (checksum)",
				img->path);
	img->lists = img->meta;
	img->zones = (const void *)(img->lists + h->n_lists);
	img->chunks = (const void *)(img->zones + h->n_zones);
	return 0;
}

/* What is wrong with zone @p i and its chunks, or NULL. */
static const char *
open_zone_fault(const struct rte_memzone_image *img, uint32_t i,
		uint64_t *stored)
{
	const struct malloc_image_hdr *h = &img->hdr;
	const struct malloc_image_zone *z = &img->zones[i];
	const struct malloc_image_list *l;
	const struct malloc_image_chunk *c;
	uint64_t j, addr, data_end = h->data_off + h->data_len;
	uint32_t clen;

	if (memchr(z->name, '\0', sizeof(z->name)) == NULL ||
			z->name[0] == '\0')
		return "a memzone without a valid name";
	if (z->list >= h->n_lists)
		return "a memzone in no memseg list";
	l = &img->lists[z->list];
	if (z->len == 0 || z->addr > UINT64_MAX - 2 * MALLOC_IMAGE_CHUNK ||
			z->len > UINT64_MAX - 2 * MALLOC_IMAGE_CHUNK -
							z->addr ||
			z->addr < l->base_va ||
			z->addr + z->len > l->base_va + l->page_sz * l->n_segs)
		return "a memzone outside its memseg list";
	if (z->hugepage_sz != l->page_sz)
		return "a memzone whose page size is not its list's";
	if (i > 0 && img->zones[i - 1].addr + img->zones[i - 1].len > z->addr)
		return "memzones that overlap or are out of order";
	if (z->n_chunks != malloc_image_zone_chunks(z->addr, z->len) ||
			z->first_chunk > h->n_chunks ||
			z->n_chunks > h->n_chunks - z->first_chunk ||
			(i == 0 ? 0 :
				  img->zones[i - 1].first_chunk + img->zones[i - 1].n_chunks) !=
					z->first_chunk)
		return "chunks that do not follow the memzones";
	for (j = 0; j < z->n_chunks; j++) {
		c = &img->chunks[z->first_chunk + j];
		clen = malloc_image_chunk_at(z->addr, z->len, j, &addr);
		if (c->addr != addr || c->len != clen || c->zone != i)
			return "a chunk that does not cover its memzone";
		if (c->off == 0)
			continue;
		if (c->off % MALLOC_IMAGE_ALIGN != 0 || c->off < h->data_off ||
				c->off > data_end || c->len > data_end - c->off)
			return "a chunk outside the data";
		*stored += c->len;
	}
	return NULL;
}

static int
open_meta_check(struct rte_memzone_image *img, char *err, size_t len)
{
	const struct malloc_image_hdr *h = &img->hdr;
	uint64_t stored = 0, last = 0;
	const char *fault = NULL;
	uint32_t i;

	for (i = 0; i < h->n_lists && fault == NULL; i++) {
		const struct malloc_image_list *l = &img->lists[i];

		if (l->page_sz == 0 || (l->page_sz & (l->page_sz - 1)) != 0 ||
				l->base_va % l->page_sz)
			fault = "a memseg list with a bad page size";
		else if (l->n_segs > (UINT64_MAX - l->base_va) / l->page_sz)
			fault = "a memseg list past the end of the address space";
	}
	for (i = 0; i < h->n_zones && fault == NULL; i++)
		fault = open_zone_fault(img, i, &stored);
	if (fault == NULL && h->n_zones > 0)
		last = img->zones[h->n_zones - 1].first_chunk +
				img->zones[h->n_zones - 1].n_chunks;
	if (fault == NULL && (last != h->n_chunks || stored != h->stored_bytes))
		fault = "chunk counts that do not add up";
	if (fault != NULL)
		return malloc_image_err_out(err, len, -EINVAL,
				"%s: the metadata describes %s", img->path,
				fault);
	return 0;
}

static int
open_checks(struct rte_memzone_image *img, char *err, size_t len)
{
	struct stat st;
	int ret;

	if (fstat(img->fd, &st) < 0)
		return malloc_image_err_out(err, len, -errno,
				"cannot stat %s: %s", img->path,
				strerror(errno));
	if (!S_ISREG(st.st_mode))
		return malloc_image_err_out(err, len, -EINVAL,
				"%s is not a regular file", img->path);
	img->size = (uint64_t)st.st_size;
	if (img->size < sizeof(img->hdr) + sizeof(struct malloc_image_end))
		return malloc_image_err_out(err, len, -EINVAL,
				"%s is %" PRIu64 " bytes: too short for a "
				"memzone image",
				img->path, img->size);
	ret = malloc_image_pread(img->fd, &img->hdr, sizeof(img->hdr), 0);
	if (ret < 0)
		return malloc_image_err_out(err, len, ret, "cannot read %s: %s",
				img->path, strerror(-ret));
	ret = open_hdr_check(img, err, len);
	if (ret == 0)
		ret = open_end_check(img, err, len);
	if (ret == 0)
		ret = open_bounds_check(img, err, len);
	if (ret == 0)
		ret = open_meta_read(img, err, len);
	if (ret == 0)
		ret = open_meta_check(img, err, len);
	return ret;
}

struct rte_memzone_image *
rte_memzone_image_open(const char *path, char *err, size_t err_len)
{
	struct rte_memzone_image *img;
	int ret;

	if (path == NULL) {
		malloc_image_err_out(err, err_len, -EINVAL, "no image path");
		rte_errno = EINVAL;
		return NULL;
	}
	img = calloc(1, sizeof(*img));
	if (img == NULL) {
		malloc_image_err_out(err, err_len, -ENOMEM, "out of memory");
		rte_errno = ENOMEM;
		return NULL;
	}
	strlcpy(img->path, path, sizeof(img->path));
	img->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (img->fd < 0)
		ret = malloc_image_err_out(err, err_len, -errno,
				"cannot open %s: %s", path, strerror(errno));
	else
		ret = open_checks(img, err, err_len);
	if (ret < 0) {
		rte_memzone_image_close(img);
		rte_errno = -ret;
		return NULL;
	}
	return img;
}

void
rte_memzone_image_close(struct rte_memzone_image *img)
{
	if (img == NULL)
		return;
	if (img->fd >= 0)
		close(img->fd);
	free(img->meta);
	free(img);
}

int
rte_memzone_image_info_get(const struct rte_memzone_image *img,
		struct rte_memzone_image_info *info)
{
	const struct malloc_image_hdr *h;
	uint64_t i;

	if (img == NULL || info == NULL)
		return -EINVAL;
	h = &img->hdr;
	memset(info, 0, sizeof(*info));
	info->version = h->version;
	info->n_zones = h->n_zones;
	info->n_lists = h->n_lists;
	info->n_skipped = h->n_skipped;
	info->n_chunks = h->n_chunks;
	for (i = 0; i < h->n_chunks; i++)
		info->n_stored += img->chunks[i].off != 0;
	info->zone_bytes = h->zone_bytes;
	info->stored_bytes = h->stored_bytes;
	info->file_len = h->file_len;
	info->created_ns = h->created_ns;
	info->chunk_size = h->chunk_size;
	return 0;
}

int
rte_memzone_image_zone_get(const struct rte_memzone_image *img,
		unsigned int idx, struct rte_memzone_image_zone *zone)
{
	const struct malloc_image_zone *z;
	const struct malloc_image_list *l;
	uint64_t i;

	if (img == NULL || zone == NULL)
		return -EINVAL;
	if (idx >= img->hdr.n_zones)
		return -ENOENT;
	z = &img->zones[idx];
	l = &img->lists[z->list];
	memset(zone, 0, sizeof(*zone));
	memcpy(zone->name, z->name, sizeof(zone->name));
	zone->addr = z->addr;
	zone->len = z->len;
	zone->hugepage_sz = z->hugepage_sz;
	zone->socket_id = z->socket_id;
	zone->flags = z->flags;
	for (i = 0; i < z->n_chunks; i++)
		if (img->chunks[z->first_chunk + i].off != 0)
			zone->stored_bytes +=
					img->chunks[z->first_chunk + i].len;
	zone->list_base = l->base_va;
	zone->list_len = l->page_sz * l->n_segs;
	return 0;
}
