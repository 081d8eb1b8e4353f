/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _MALLOC_IMAGE_H_
#define _MALLOC_IMAGE_H_

/*
 * The memzone image file (rte_memzone_image.h), version 1:
 *
 *   header    struct malloc_image_hdr, at offset 0, padded to
 *             MALLOC_IMAGE_ALIGN;
 *   metadata  at meta_off: n_lists struct malloc_image_list, then n_zones
 *             struct malloc_image_zone (by address), then n_chunks
 *             struct malloc_image_chunk (by address);
 *   data      at data_off: the bytes of each stored chunk, each chunk at
 *             a MALLOC_IMAGE_ALIGN offset (O_DIRECT reads need it), in
 *             the order the saving threads finished them;
 *   end       struct malloc_image_end, the last bytes of the file.
 *
 * A chunk is the part of a memzone inside one MALLOC_IMAGE_CHUNK-aligned
 * window of addresses: a memzone is cut at those boundaries, so chunks
 * line up with 2 MB pages and with every larger page size. A chunk whose
 * bytes are all zero is not stored (off 0).
 *
 * The header and the end marker are written last, and the file gets its
 * name only then: a save cut short leaves a temporary file that fails
 * every check below, never a file that passes them. Every field is in the
 * byte order of the machine that saved the image; the magic tells.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_memzone.h>

#define MALLOC_IMAGE_MAGIC 0x31474d494d455452ULL /* "RTEMIMG1" */
#define MALLOC_IMAGE_END_MAGIC 0x31444e454d455452ULL /* "RTEMEND1" */
/*
 * Written; read back to MALLOC_IMAGE_VERSION_MIN. Version 2 changed the
 * chunks' checksum only (malloc_image_chunk_sum()).
 */
#define MALLOC_IMAGE_VERSION 2
#define MALLOC_IMAGE_VERSION_MIN 1
#define MALLOC_IMAGE_ALIGN 4096U
#define MALLOC_IMAGE_CHUNK (2U << 20)

/* The start of the file. */
struct malloc_image_hdr {
	uint64_t magic; /* MALLOC_IMAGE_MAGIC */
	uint32_t version; /* MALLOC_IMAGE_VERSION when written */
	uint32_t hdr_len; /* sizeof(struct malloc_image_hdr) */
	uint64_t sum; /* malloc_image_sum() of the header with sum 0 */
	uint64_t file_len; /* the whole file, end marker included */
	uint64_t created_ns; /* CLOCK_REALTIME when the save started */
	uint64_t meta_off;
	uint64_t meta_len;
	uint64_t meta_sum; /* malloc_image_sum() of the metadata */
	uint64_t data_off;
	uint64_t data_len; /* from data_off to the end marker */
	uint64_t zone_bytes; /* the memzones' lengths, added */
	uint64_t stored_bytes; /* the chunks' bytes stored, added */
	uint64_t n_chunks;
	uint32_t n_lists;
	uint32_t n_zones;
	uint32_t chunk_size; /* MALLOC_IMAGE_CHUNK */
	uint32_t elem_header_len; /* MALLOC_ELEM_HEADER_LEN of the writer */
	uint32_t elem_trailer_len; /* MALLOC_ELEM_TRAILER_LEN of the writer */
	uint32_t n_skipped; /* memzones not saved (external heaps) */
	uint64_t reserved[8]; /* zero */
};

/* A memseg list of the saver (all but external ones are saved). */
struct malloc_image_list {
	uint64_t base_va;
	uint64_t page_sz;
	uint32_t n_segs;
	int32_t socket_id;
	uint32_t msl_idx; /* its index in the saver's memory config */
	uint32_t reserved;
};

/* A saved memzone. */
struct malloc_image_zone {
	char name[RTE_MEMZONE_NAMESIZE];
	uint64_t addr;
	uint64_t len;
	uint64_t iova; /* the saver's; a restore has its own */
	uint64_t hugepage_sz;
	int32_t socket_id;
	uint32_t flags;
	uint32_t list; /* index into the image's lists */
	uint32_t reserved;
	uint64_t first_chunk;
	uint64_t n_chunks;
};

/* A part of a memzone inside one MALLOC_IMAGE_CHUNK window. */
struct malloc_image_chunk {
	uint64_t addr;
	uint32_t len;
	uint32_t zone; /* index into the image's zones */
	uint64_t off; /* of its bytes in the file; 0: all zero */
	uint64_t sum; /* malloc_image_chunk_sum(); 0 if not stored */
};

/* The last bytes of the file. */
struct malloc_image_end {
	uint64_t magic; /* MALLOC_IMAGE_END_MAGIC */
	uint64_t file_len; /* as in the header */
	uint64_t hdr_sum; /* the header's sum */
	uint64_t sum; /* malloc_image_sum() of this with sum 0 */
};

/* An image opened and checked (rte_memzone_image_open()). */
struct rte_memzone_image {
	int fd;
	uint64_t size; /* of the file, when opened */
	struct malloc_image_hdr hdr;
	void *meta; /* the metadata, malloc'd */
	const struct malloc_image_list *lists;
	const struct malloc_image_zone *zones;
	const struct malloc_image_chunk *chunks;
	char path[4096];
};

/*
 * The checksum of the image format: 64 bits over @p len bytes at @p p,
 * read 32 bytes at a time in four independent lanes, so it runs near
 * memory bandwidth. When @p nonzero is not NULL, it is set to whether
 * any byte is non-zero (found in the same pass).
 */
uint64_t malloc_image_sum(const void *p, size_t len, bool *nonzero);

/*
 * The checksum of a chunk's @p len bytes at @p p in an image of format
 * @p version, setting *@p nonzero as malloc_image_sum() does. Version 1
 * used malloc_image_sum(); version 2 a sum of 64-byte stripes with one
 * multiply per 8 bytes and none chained, 2.5 times as fast with AVX2:
 * the sum was the largest cost of a restore from a warm image.
 */
uint64_t malloc_image_chunk_sum(
		uint32_t version, const void *p, size_t len, bool *nonzero);

/* The chunks memzone [@p addr, @p addr + @p len) is cut into. */
uint64_t malloc_image_zone_chunks(uint64_t addr, uint64_t len);

/*
 * The length of chunk @p i (counted from 0) of memzone [@p addr,
 * @p addr + @p len), and its address in @p chunk_addr.
 */
uint32_t malloc_image_chunk_at(
		uint64_t addr, uint64_t len, uint64_t i, uint64_t *chunk_addr);

/*
 * The pages under memzone @p z of @p img, its heap element's header and
 * trailer included (the saver's sizes, which a restore checks are its
 * own): [@p first, @p end), in the page size of its list.
 */
void malloc_image_zone_pages(const struct rte_memzone_image *img,
		const struct malloc_image_zone *z, uint64_t *first,
		uint64_t *end);

/* pread()/pwrite() of the whole range, through short counts and EINTR. */
int malloc_image_pread(int fd, void *buf, size_t len, uint64_t off);
int malloc_image_pwrite(int fd, const void *buf, size_t len, uint64_t off);

#endif /* _MALLOC_IMAGE_H_ */
