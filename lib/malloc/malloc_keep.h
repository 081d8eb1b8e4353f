/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _MALLOC_KEEP_H_
#define _MALLOC_KEEP_H_

/*
 * Memzones that survive a restart (--keep-memzones): a record per memzone
 * table entry, in the area lib/eal keeps in a file (eal_keep.h).
 *
 * Invariant: a record is live exactly when its state word is
 * MALLOC_KEEP_LIVE and its checksum matches; a live record describes a
 * reserved memzone whose memory is mapped from kept hugepage files. The
 * state word is the only commit point, one aligned store:
 *  - reserve: the memory is allocated (its pages mapped, their files made)
 *    and every field written before the state becomes live;
 *  - free: the state stops being live before the memory goes back.
 * A process killed at any instant thus leaves each memzone either whole
 * in the table or absent, and never a record over memory it does not own.
 */

#include <stddef.h>
#include <stdint.h>

#include <rte_memzone.h>

#include "eal_memcfg.h"

#define MALLOC_KEEP_MAGIC 0x4d5a4b52U /* "RKZM" */
#define MALLOC_KEEP_VERSION 1
#define MALLOC_KEEP_LIVE 0x4556494cU /* "LIVE" */

/* A memzone as kept; entry i of the table has record i. */
struct malloc_keep_rec {
	uint32_t state; /* MALLOC_KEEP_LIVE, or 0 */
	uint32_t msl_idx; /* memseg list of its memory */
	uint64_t sum; /* checksum of msl_idx and the fields from name on */
	/* Outside the checksum: a restore that finds the page moved
	 * updates it alone, with one aligned store. */
	uint64_t iova;
	char name[RTE_MEMZONE_NAMESIZE];
	uint64_t addr;
	uint64_t len;
	int32_t socket_id;
	uint32_t flags;
};

/* The area's layout, checked before a record is read. */
struct malloc_keep_area {
	uint32_t magic; /* MALLOC_KEEP_MAGIC */
	uint32_t version; /* MALLOC_KEEP_VERSION */
	uint32_t header_len; /* MALLOC_ELEM_HEADER_LEN of the writer */
	uint32_t trailer_len; /* MALLOC_ELEM_TRAILER_LEN of the writer */
	uint32_t n_recs; /* RTE_MAX_MEMZONE of the writer */
	uint32_t reserved;
	struct malloc_keep_rec recs[];
};

/* The records to bring back, between the two steps of init. */
struct malloc_keep_plan;

/*
 * At init, before the heaps take the mapped memory: check the last run's
 * records and map the pages their memzones need from the kept files.
 *
 * @return 0 with the records to restore in @p plan (NULL: none), or a
 *   negative errno with one line in @p err.
 */
int malloc_keep_map(struct rte_mem_config *mcfg, struct malloc_keep_plan **plan,
		char *err, size_t err_len);

/*
 * At init, once the heaps hold the mapped memory: make each memzone of
 * @p plan (freed here) a busy element and a table entry again.
 *
 * @return 0, or a negative errno with one line in @p err.
 */
int malloc_keep_restore(struct rte_mem_config *mcfg,
		struct malloc_keep_plan *plan, char *err, size_t err_len);

/*
 * At init, once the heaps hold the mapped memory: make memzone @p want
 * (name, addr, len, socket_id, flags), in memseg list @p msl_idx, a busy
 * element and table entry @p idx again (in @p out); its IOVA and page
 * size are this run's. @p what names the caller in messages.
 *
 * @return 0, or with one line in @p err -EFAULT when its memory is not
 *   free heap memory, -EEXIST when its name is taken.
 */
int malloc_keep_restore_zone(struct rte_mem_config *mcfg, unsigned int msl_idx,
		uint16_t idx, const struct rte_memzone *want, const char *what,
		const struct rte_memzone **out, char *err, size_t err_len);

/* Record memzone entry @p idx, just reserved (nothing if not kept). */
void malloc_keep_record(const struct rte_mem_config *mcfg, uint16_t idx,
		const struct rte_memzone *mz);

/* Erase the record of entry @p idx, before its memory is freed. */
void malloc_keep_erase(uint16_t idx);

#endif /* _MALLOC_KEEP_H_ */
