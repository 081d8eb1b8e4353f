/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _MALLOC_MEMZONE_H_
#define _MALLOC_MEMZONE_H_

/*
 * The memzone table, in the shared config: RTE_MAX_MEMZONE descriptors,
 * a hash of their names chained through the entries (lookup in constant
 * time), and a stack of free entries (reserve in constant time). Guarded
 * by the config's mlock.
 */

#include <stdint.h>

#include <rte_config.h>
#include <rte_memzone.h>

#define MALLOC_MZ_BUCKETS 4096 /* power of two, > RTE_MAX_MEMZONE */
#define MALLOC_MZ_NONE UINT16_MAX

#define MALLOC_MZ_WORDS ((RTE_MAX_MEMZONE + 63) / 64)

struct malloc_mz_table {
	struct rte_memzone zones[RTE_MAX_MEMZONE]; /* name[0] == 0: free */
	uint16_t bucket[MALLOC_MZ_BUCKETS]; /* first entry per name hash */
	uint16_t chain[RTE_MAX_MEMZONE]; /* next entry with the same hash */
	/* Bit i set: entry i is free. The lowest free entry is taken, as in
	 * DPDK, whose tests compare descriptor addresses. */
	uint64_t free_mask[MALLOC_MZ_WORDS];
	uint32_t n_free; /* bits set in free_mask */
	uint32_t n_used; /* reserved memzones */
};

/* Make the table empty. */
void malloc_mz_table_init(struct malloc_mz_table *t);

/*
 * Take entry @p idx, free, for memzone @p mz brought back from the last
 * run (--keep-memzones), and index its name.
 *
 * @return the entry, or NULL if the entry is taken or the name is in use.
 */
struct rte_memzone *malloc_mz_table_restore(struct malloc_mz_table *t,
		uint16_t idx, const struct rte_memzone *mz);

#endif /* _MALLOC_MEMZONE_H_ */
