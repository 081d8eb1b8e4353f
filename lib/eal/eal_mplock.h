/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _EAL_MPLOCK_H_
#define _EAL_MPLOCK_H_

/*
 * A lock that processes sharing memory can take, and that a process
 * killed while holding it cannot keep forever: the lock word is the
 * owner's identity (eal_sys.h), not a flag. A waiter that has spun a
 * while checks whether the owner still runs; if not, it takes the lock
 * over and is told so (-EOWNERDEAD), so that it checks and repairs what
 * the lock protects, or reports what happened. A process that reuses a
 * dead owner's PID is told apart by its start time.
 *
 * Uncontended, taking and releasing it costs one compare-and-swap and one
 * store, as a spinlock does. It is not recursive.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

struct eal_mplock {
	uint64_t owner; /* 0: free; else the owner's identity */
};

#define EAL_MPLOCK_INITIALIZER \
	{ \
		0 \
	}

/*
 * The identity this process takes locks with: eal_proc_self_id(), set by
 * rte_eal_init() before any shared lock is taken.
 */
extern uint64_t eal_mplock_self;

/* Make @p l free. */
static inline void
eal_mplock_init(struct eal_mplock *l)
{
	__atomic_store_n(&l->owner, 0, __ATOMIC_RELEASE);
}

/* Take @p l the slow way: spin, and watch the owner (eal_mplock.c). */
int eal_mplock_lock_slow(struct eal_mplock *l, uint64_t self);

/*
 * Take @p l for process @p self (eal_proc_self_id()).
 *
 * @return 0, or -EOWNERDEAD: the lock was taken over from a process that
 *   died holding it, so what it protects may be half changed.
 */
static inline int
eal_mplock_lock(struct eal_mplock *l, uint64_t self)
{
	uint64_t free_word = 0;

	if (__atomic_compare_exchange_n(&l->owner, &free_word, self, false,
			    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return 0;
	return eal_mplock_lock_slow(l, self);
}

/* @return true if @p l was free and is now held by @p self. */
static inline bool
eal_mplock_trylock(struct eal_mplock *l, uint64_t self)
{
	uint64_t free_word = 0;

	return __atomic_compare_exchange_n(&l->owner, &free_word, self, false,
			__ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

/* Release @p l, held by the caller. */
static inline void
eal_mplock_unlock(struct eal_mplock *l)
{
	__atomic_store_n(&l->owner, 0, __ATOMIC_RELEASE);
}

/* The identity of @p l's owner, or 0 when free. */
static inline uint64_t
eal_mplock_owner(const struct eal_mplock *l)
{
	return __atomic_load_n(&l->owner, __ATOMIC_RELAXED);
}

#endif /* _EAL_MPLOCK_H_ */
