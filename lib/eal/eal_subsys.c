/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * The subsystem registry. Registration happens in constructors, before
 * main(), so the table is written once before any thread exists and only
 * read afterwards.
 */

#include <stdlib.h>

#include <rte_common.h>
#include <rte_debug.h>

#include "eal_subsys.h"

#define EAL_MAX_SUBSYS 4

static const struct eal_subsys *eal_subsys_table[EAL_MAX_SUBSYS];
static unsigned int eal_subsys_count;

void
eal_subsys_register(const struct eal_subsys *s)
{
	if (eal_subsys_count == EAL_MAX_SUBSYS)
		rte_panic("too many subsystems, cannot register %s\n", s->name);
	eal_subsys_table[eal_subsys_count++] = s;
}

int
eal_subsys_init_all(struct rte_mem_config *mcfg, char *err, size_t err_len)
{
	unsigned int i;
	int ret;

	for (i = 0; i < eal_subsys_count; i++) {
		ret = eal_subsys_table[i]->init(mcfg, err, err_len);
		if (ret < 0) {
			while (i-- > 0)
				eal_subsys_table[i]->cleanup(mcfg);
			return ret;
		}
	}
	return 0;
}

void
eal_subsys_cleanup_all(struct rte_mem_config *mcfg)
{
	unsigned int i = eal_subsys_count;

	while (i-- > 0)
		eal_subsys_table[i]->cleanup(mcfg);
}
