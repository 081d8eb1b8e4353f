/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _EAL_SUBSYS_H_
#define _EAL_SUBSYS_H_

/*
 * Subsystems built on the memory layer (lib/malloc) register here from a
 * constructor, so that rte_eal_init() sets them up without lib/eal knowing
 * them: eal never includes their headers.
 */

#include <stddef.h>

#include "eal_memcfg.h"

struct eal_subsys {
	const char *name; /* for messages */
	/*
	 * Called by rte_eal_init() once the memory layer and the lcores are
	 * up; the eal_memalloc_*() calls work. @return 0, or a negative
	 * errno with one line in @p err.
	 */
	int (*init)(struct rte_mem_config *mcfg, char *err, size_t err_len);
	/* Called by rte_eal_cleanup() (and on a later failed init step). */
	void (*cleanup)(struct rte_mem_config *mcfg);
};

/* Register @p s (static storage). At most EAL_MAX_SUBSYS of them. */
void eal_subsys_register(const struct eal_subsys *s);

/* Run every init in order; on failure undo the ones done. */
int eal_subsys_init_all(struct rte_mem_config *mcfg, char *err, size_t err_len);

/* Run every cleanup in reverse order. */
void eal_subsys_cleanup_all(struct rte_mem_config *mcfg);

#endif /* _EAL_SUBSYS_H_ */
