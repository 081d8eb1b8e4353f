/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * The contended path of the shared lock (eal_mplock.h). Spinning is cheap
 * and the owner is usually busy for microseconds, so the owner is looked
 * at only every EAL_MPLOCK_SPINS spins, with a yield after each look:
 * reading /proc costs about as much as a few thousand spins.
 */

#include <sched.h>

#include <rte_pause.h>

#include "eal_mplock.h"
#include "eal_sys.h"

#define EAL_MPLOCK_SPINS 4096

uint64_t eal_mplock_self;

int
eal_mplock_lock_slow(struct eal_mplock *l, uint64_t self)
{
	unsigned int spins = 0;
	uint64_t owner;

	for (;;) {
		owner = __atomic_load_n(&l->owner, __ATOMIC_RELAXED);
		if (owner == 0) {
			if (eal_mplock_trylock(l, self))
				return 0;
			continue;
		}
		if (++spins < EAL_MPLOCK_SPINS) {
			rte_pause();
			continue;
		}
		spins = 0;
		if (!eal_proc_alive(owner) &&
				__atomic_compare_exchange_n(&l->owner, &owner,
						self, false, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			return -EOWNERDEAD;
		sched_yield();
	}
}
