/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * What the saver and the reader of images share: the checksum, how a
 * memzone is cut into chunks, and whole-range file I/O.
 */

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>

#include "malloc_image.h"

#define SUM_P1 0x9e3779b185ebca87ULL
#define SUM_P2 0xc2b2ae3d27d4eb4fULL
#define SUM_P3 0x165667b19e3779f9ULL

static inline uint64_t
sum_rotl(uint64_t v, unsigned int r)
{
	return (v << r) | (v >> (64 - r));
}

static inline uint64_t
sum_lane(uint64_t lane, uint64_t w)
{
	return sum_rotl(lane + w * SUM_P2, 31) * SUM_P1;
}

static inline uint64_t
sum_word(const unsigned char *p)
{
	uint64_t w;

	memcpy(&w, p, sizeof(w));
	return w;
}

/* Mixes every input bit into every output bit. */
static uint64_t
sum_final(uint64_t h)
{
	h ^= h >> 33;
	h *= SUM_P2;
	h ^= h >> 29;
	h *= SUM_P3;
	return h ^ (h >> 32);
}

uint64_t
malloc_image_sum(const void *p, size_t len, bool *nonzero)
{
	const unsigned char *b = p, *end = b + len;
	uint64_t l0 = SUM_P1 + SUM_P2, l1 = SUM_P2, l2 = 0, l3 = -SUM_P1;
	uint64_t any = 0, h, w;

	for (; end - b >= 32; b += 32) {
		uint64_t w0 = sum_word(b), w1 = sum_word(b + 8);
		uint64_t w2 = sum_word(b + 16), w3 = sum_word(b + 24);

		any |= w0 | w1 | w2 | w3;
		l0 = sum_lane(l0, w0);
		l1 = sum_lane(l1, w1);
		l2 = sum_lane(l2, w2);
		l3 = sum_lane(l3, w3);
	}
	h = sum_rotl(l0, 1) + sum_rotl(l1, 7) + sum_rotl(l2, 12) +
			sum_rotl(l3, 18) + len;
	for (; end - b >= 8; b += 8) {
		w = sum_word(b);
		any |= w;
		h = sum_rotl(h ^ sum_lane(0, w), 27) * SUM_P1 + SUM_P3;
	}
	for (; b < end; b++) {
		any |= *b;
		h = sum_rotl(h ^ (*b * SUM_P3), 11) * SUM_P1;
	}
	if (nonzero != NULL)
		*nonzero = any != 0;
	return sum_final(h);
}

/*
 * Version 2's stripe sum. Each of 8 lanes takes a word of every 64-byte
 * stripe and adds to one accumulator the product of the two halves of
 * the word XORed with the lane's key, and to another the word itself
 * (a product cannot tell every change apart: a zero half hides the
 * other). The keys move on at each stripe, so equal stripes at other
 * places sum differently and moved data is caught. Written with vector
 * types so that the compiler issues four lanes per instruction; cloned
 * for AVX2 (the baseline clone computes the same sum, more slowly).
 */
typedef uint64_t sum_vec __attribute__((vector_size(32)));

#ifdef MALLOC_IMAGE_SUM_CLONES /* x86-64 with ifunc (meson.build) */
#define SUM_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define SUM_CLONES
#endif

static SUM_CLONES uint64_t
sum_stripes(const unsigned char *b, size_t n, uint64_t *any_out)
{
	const sum_vec lo = { UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX };
	const sum_vec step = { SUM_P1, SUM_P1, SUM_P1, SUM_P1 };
	sum_vec k0 = { SUM_P1, SUM_P2, SUM_P3, SUM_P1 ^ SUM_P2 };
	sum_vec k1 = { SUM_P2 ^ SUM_P3, SUM_P3 ^ SUM_P1, ~SUM_P1, ~SUM_P2 };
	sum_vec p0 = { 0 }, p1 = { 0 }, w0 = { 0 }, w1 = { 0 }, any = { 0 };
	uint64_t h = 0;
	size_t i;

	for (i = 0; i < n; i++, b += 64) {
		sum_vec d0, d1, x0, x1;

		memcpy(&d0, b, sizeof(d0));
		memcpy(&d1, b + 32, sizeof(d1));
		x0 = d0 ^ k0;
		x1 = d1 ^ k1;
		p0 += (x0 & lo) * (x0 >> 32);
		p1 += (x1 & lo) * (x1 >> 32);
		w0 += d0;
		w1 += d1;
		any |= d0 | d1;
		k0 += step;
		k1 += step;
	}
	for (i = 0; i < 4; i++) {
		h = sum_rotl(h ^ sum_lane(p0[i], w0[i]), 27) * SUM_P1 + SUM_P3;
		h = sum_rotl(h ^ sum_lane(p1[i], w1[i]), 27) * SUM_P1 + SUM_P3;
	}
	*any_out = any[0] | any[1] | any[2] | any[3];
	return h;
}

uint64_t
malloc_image_chunk_sum(
		uint32_t version, const void *p, size_t len, bool *nonzero)
{
	size_t n = len / 64;
	bool tail_nonzero = false;
	uint64_t any, h, t;

	if (version < 2)
		return malloc_image_sum(p, len, nonzero);
	h = sum_stripes(p, n, &any);
	/* The bytes after the last stripe, and the length. */
	t = malloc_image_sum(
			RTE_PTR_ADD(p, n * 64), len - n * 64, &tail_nonzero);
	if (nonzero != NULL)
		*nonzero = any != 0 || tail_nonzero;
	return sum_final(h ^ sum_lane(t, len));
}

uint64_t
malloc_image_zone_chunks(uint64_t addr, uint64_t len)
{
	uint64_t first = RTE_ALIGN_FLOOR(addr, MALLOC_IMAGE_CHUNK);

	if (len == 0)
		return 0;
	return (RTE_ALIGN_CEIL(addr + len, MALLOC_IMAGE_CHUNK) - first) /
			MALLOC_IMAGE_CHUNK;
}

uint32_t
malloc_image_chunk_at(
		uint64_t addr, uint64_t len, uint64_t i, uint64_t *chunk_addr)
{
	uint64_t lo = RTE_ALIGN_FLOOR(addr, MALLOC_IMAGE_CHUNK) +
			i * MALLOC_IMAGE_CHUNK;
	uint64_t hi = lo + MALLOC_IMAGE_CHUNK;

	lo = RTE_MAX(lo, addr);
	hi = RTE_MIN(hi, addr + len);
	*chunk_addr = lo;
	return (uint32_t)(hi - lo);
}

void
malloc_image_zone_pages(const struct rte_memzone_image *img,
		const struct malloc_image_zone *z, uint64_t *first,
		uint64_t *end)
{
	uint64_t ps = img->lists[z->list].page_sz;

	*first = RTE_ALIGN_FLOOR(z->addr - img->hdr.elem_header_len, ps);
	*end = RTE_ALIGN_CEIL(z->addr + z->len + img->hdr.elem_trailer_len, ps);
}

int
malloc_image_pread(int fd, void *buf, size_t len, uint64_t off)
{
	char *p = buf;
	ssize_t n;

	while (len > 0) {
		n = pread(fd, p, len, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -ENODATA;
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

int
malloc_image_pwrite(int fd, const void *buf, size_t len, uint64_t off)
{
	const char *p = buf;
	ssize_t n;

	while (len > 0) {
		n = pwrite(fd, p, len, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}
