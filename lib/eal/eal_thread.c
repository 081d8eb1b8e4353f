/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Threads that are not lcores taking an lcore id of their own
 * (rte_thread_register(), as in DPDK), so that what is kept per lcore
 * id, such as the heap's lcore caches and slabs, serves them too.
 *
 * An id is free when it is not one of the process's lcores, no thread
 * of the process registered it, and no other live process of the file
 * prefix uses it (the config's lcore owners, eal_mp.h). A thread takes
 * the lowest free id with a compare-and-swap on the id's registered
 * flag, so no lock is held; rte_thread_unregister() gives it back. What
 * the id's cache holds stays there for the next thread of that id, as a
 * mempool cache's objects do in DPDK.
 */

#include <errno.h>

#include <rte_errno.h>
#include <rte_lcore.h>

#include "eal_lcore.h"
#include "eal_mp.h"
#include "eal_private.h"

int
rte_thread_register(void)
{
	struct eal_context *ctx = eal_context_get();
	struct eal_lcores *lc;
	unsigned int id;

	if (ctx == NULL) {
		rte_errno = EINVAL;
		return -1;
	}
	/* An id registered before rte_eal_cleanup() is gone: take a new one. */
	eal_lcore_drop_stale();
	if (rte_lcore_id() != LCORE_ID_ANY)
		return 0;
	lc = &ctx->lcores;
	for (id = 0; id < RTE_MAX_LCORE; id++) {
		bool no = false;

		if (lc->lcore[id].enabled ||
				!__atomic_compare_exchange_n(
						&lc->lcore[id].registered, &no,
						true, false, __ATOMIC_ACQ_REL,
						__ATOMIC_RELAXED))
			continue;
		if (eal_mp_lcore_take(&ctx->mem, id) == 0) {
			eal_lcore_id_set(id);
			return 0;
		}
		/* Another process's: leave the flag as it was. */
		__atomic_store_n(&lc->lcore[id].registered, false,
				__ATOMIC_RELEASE);
	}
	rte_errno = ENOMEM;
	return -1;
}

void
rte_thread_unregister(void)
{
	struct eal_context *ctx = eal_context_get();
	unsigned int id;

	/* An earlier EAL's id: the new one may have given it to another. */
	eal_lcore_drop_stale();
	id = rte_lcore_id();
	if (ctx == NULL || id >= RTE_MAX_LCORE ||
			!__atomic_load_n(&ctx->lcores.lcore[id].registered,
					__ATOMIC_ACQUIRE))
		return;
	eal_lcore_id_set(LCORE_ID_ANY);
	eal_mp_lcore_give(&ctx->mem, id);
	__atomic_store_n(&ctx->lcores.lcore[id].registered, false,
			__ATOMIC_RELEASE);
}
