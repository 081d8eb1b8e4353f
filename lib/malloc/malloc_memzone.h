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

struct malloc_mz_table {
	struct rte_memzone zones[RTE_MAX_MEMZONE]; /* name[0] == 0: free */
	uint16_t bucket[MALLOC_MZ_BUCKETS]; /* first entry per name hash */
	uint16_t chain[RTE_MAX_MEMZONE]; /* next entry with the same hash */
	uint16_t free_stack[RTE_MAX_MEMZONE]; /* free entries, top last */
	uint32_t n_free; /* entries on free_stack */
	uint32_t n_used; /* reserved memzones */
};

/* Make the table empty. */
void malloc_mz_table_init(struct malloc_mz_table *t);

#endif /* _MALLOC_MEMZONE_H_ */
