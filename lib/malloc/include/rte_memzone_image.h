/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _RTE_MEMZONE_IMAGE_H_
#define _RTE_MEMZONE_IMAGE_H_

/**
 * @file
 * Memzone images: the memzones of a process (names, addresses, lengths,
 * flags and contents) saved to a file, to be brought back at the same
 * addresses by a later start, on this host after a reboot or on another.
 *
 * An image holds a header, the memory layout the memzones lived in, a
 * checksum per 2 MB chunk of contents, and an end marker. Chunks whose
 * bytes are all zero are not stored. A save writes a temporary file in
 * the target's directory and renames it when complete, so a save that is
 * cut short never leaves a file that opens as an image.
 */

#include <stdint.h>
#include <stddef.h>

#include <rte_memzone.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Do not fsync() the image before giving it its name (benchmarks). */
#define RTE_MEMZONE_IMAGE_F_NO_SYNC (1U << 0)

/** How rte_memzone_image_save() works. */
struct rte_memzone_image_save_conf {
	/** Threads copying memory to the file; 0: one per online CPU, up
	 * to 8. */
	unsigned int n_threads;
	/** RTE_MEMZONE_IMAGE_F_* flags. */
	unsigned int flags;
};

/** What an image holds (rte_memzone_image_info_get()). */
struct rte_memzone_image_info {
	uint32_t version; /**< of the file format */
	uint32_t n_zones; /**< memzones saved */
	uint32_t n_lists; /**< memseg lists they lie in */
	uint32_t n_skipped; /**< memzones the save left out (external heaps) */
	uint64_t n_chunks; /**< chunks of contents */
	uint64_t n_stored; /**< chunks stored (the others are zero) */
	uint64_t zone_bytes; /**< the memzones' lengths, added */
	uint64_t stored_bytes; /**< bytes of contents stored */
	uint64_t file_len; /**< bytes of the file */
	uint64_t created_ns; /**< save time, nanoseconds since the epoch */
	uint32_t chunk_size; /**< bytes of address space per chunk */
};

/** A memzone as an image holds it (rte_memzone_image_zone_get()). */
struct rte_memzone_image_zone {
	char name[RTE_MEMZONE_NAMESIZE]; /**< its name */
	uint64_t addr; /**< virtual address it had */
	uint64_t len; /**< length in bytes */
	uint64_t hugepage_sz; /**< page size of its memory */
	int32_t socket_id; /**< NUMA node of its memory */
	uint32_t flags; /**< the flags it was reserved with */
	uint64_t stored_bytes; /**< bytes of contents stored */
	uint64_t list_base; /**< start of the memseg list it lay in */
	uint64_t list_len; /**< length of that list's address space */
};

/** What a save did (rte_memzone_image_save()). */
struct rte_memzone_image_save_stats {
	uint32_t n_zones; /**< memzones saved */
	uint32_t n_skipped; /**< memzones left out (external heaps) */
	uint32_t n_threads; /**< threads that copied */
	uint32_t reserved; /**< zero */
	uint64_t zone_bytes; /**< the memzones' lengths, added */
	uint64_t stored_bytes; /**< bytes of contents written */
	uint64_t file_len; /**< bytes of the image */
	uint64_t copy_ns; /**< writing the contents */
	uint64_t total_ns; /**< the whole save, fsync and rename included */
};

/** An image opened with rte_memzone_image_open(). */
struct rte_memzone_image;

/**
 * Save every memzone of this process (primary or secondary) to @p path.
 *
 * The memzones must not be freed, and should not be written, while the
 * save runs: their contents are copied as they are, chunk by chunk, and
 * each chunk's checksum is that of the bytes written. Memzones reserved
 * in external heaps are left out (their memory is the application's) and
 * counted. An existing file at @p path is replaced only once the new
 * image is complete.
 *
 * @param path
 *   The image file. Its directory holds a temporary file meanwhile.
 * @param conf
 *   Threads and flags; NULL for the defaults.
 * @param stats
 *   Filled with what the save did; may be NULL.
 * @param err
 *   Filled with one line saying what went wrong; may be NULL.
 * @param err_len
 *   Size of @p err.
 * @return
 *   0, or a negative errno: -ENODEV before rte_eal_init(), -EINVAL for a
 *   bad argument, -ENOMEM, or the errno of a failed file operation.
 */
int rte_memzone_image_save(const char *path,
		const struct rte_memzone_image_save_conf *conf,
		struct rte_memzone_image_save_stats *stats, char *err,
		size_t err_len);

/**
 * Open the image @p path and check everything but the contents: its
 * header, version, length, end marker, metadata checksum, and that the
 * metadata describes memzones that do not overlap, inside their memseg
 * lists, cut into chunks that cover them and lie inside the file. Needs
 * no rte_eal_init().
 *
 * @param path
 *   The image file.
 * @param err
 *   Filled with one line saying why the file is refused; may be NULL.
 * @param err_len
 *   Size of @p err.
 * @return
 *   The image, or NULL with rte_errno set: ENOENT and the other errors
 *   of open(), EINVAL for a file that is not a complete image of the
 *   version this library reads, ENOMEM.
 */
struct rte_memzone_image *rte_memzone_image_open(
		const char *path, char *err, size_t err_len);

/**
 * Close an image; NULL does nothing.
 *
 * @param img
 *   From rte_memzone_image_open().
 */
void rte_memzone_image_close(struct rte_memzone_image *img);

/**
 * What an open image holds.
 *
 * @param img
 *   From rte_memzone_image_open().
 * @param info
 *   Filled.
 * @return
 *   0, or -EINVAL for a NULL argument.
 */
int rte_memzone_image_info_get(const struct rte_memzone_image *img,
		struct rte_memzone_image_info *info);

/**
 * Memzone @p idx of an open image; they are numbered by address.
 *
 * @param img
 *   From rte_memzone_image_open().
 * @param idx
 *   0 to n_zones - 1 (rte_memzone_image_info_get()).
 * @param zone
 *   Filled.
 * @return
 *   0, -EINVAL for a NULL argument, or -ENOENT past the last memzone.
 */
int rte_memzone_image_zone_get(const struct rte_memzone_image *img,
		unsigned int idx, struct rte_memzone_image_zone *zone);

/**
 * Read every stored chunk of an open image and check its checksum.
 *
 * @param img
 *   From rte_memzone_image_open().
 * @param n_threads
 *   Threads reading; 0: one per online CPU, up to 8.
 * @param err
 *   Filled with one line naming the first bad chunk found (its memzone
 *   and offset) or the failed read; may be NULL.
 * @param err_len
 *   Size of @p err.
 * @return
 *   0 when every chunk matches, -EILSEQ for a chunk that does not, the
 *   negative errno of a failed read, or -EINVAL for a NULL image.
 */
int rte_memzone_image_verify(struct rte_memzone_image *img,
		unsigned int n_threads, char *err, size_t err_len);

#ifdef __cplusplus
}
#endif

#endif /* _RTE_MEMZONE_IMAGE_H_ */
