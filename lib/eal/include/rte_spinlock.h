/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _RTE_SPINLOCK_H_
#define _RTE_SPINLOCK_H_

/**
 * @file
 * A spinlock that works in memory shared between processes (it holds no
 * pointer and no process-local state).
 */

#include <stdint.h>

#include <rte_common.h>
#include <rte_pause.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A spinlock; zero is unlocked. */
typedef struct {
	volatile int locked; /**< 0 unlocked, 1 locked */
} rte_spinlock_t;

/** Static initializer of an unlocked rte_spinlock_t. */
#define RTE_SPINLOCK_INITIALIZER \
	{ \
		0 \
	}

/**
 * Initialize a spinlock, unlocked.
 *
 * @param sl
 *   The spinlock.
 */
static inline void
rte_spinlock_init(rte_spinlock_t *sl)
{
	__atomic_store_n(&sl->locked, 0, __ATOMIC_RELAXED);
}

/**
 * Take a spinlock, spinning until it is free. Not recursive: taking it
 * again in the same thread waits forever.
 *
 * @param sl
 *   The spinlock.
 */
static inline void
rte_spinlock_lock(rte_spinlock_t *sl)
{
	int exp = 0;

	while (!__atomic_compare_exchange_n(&sl->locked, &exp, 1, 0,
			__ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		while (__atomic_load_n(&sl->locked, __ATOMIC_RELAXED))
			rte_pause();
		exp = 0;
	}
}

/**
 * Release a spinlock held by the caller.
 *
 * @param sl
 *   The spinlock.
 */
static inline void
rte_spinlock_unlock(rte_spinlock_t *sl)
{
	__atomic_store_n(&sl->locked, 0, __ATOMIC_RELEASE);
}

/**
 * Take a spinlock if it is free, without waiting.
 *
 * @param sl
 *   The spinlock.
 * @return
 *   1 if @p sl was taken, 0 if it is held by someone else.
 */
static inline int
rte_spinlock_trylock(rte_spinlock_t *sl)
{
	int exp = 0;

	return __atomic_compare_exchange_n(&sl->locked, &exp, 1, 0,
			__ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

/**
 * Whether a spinlock is held, by any thread.
 *
 * @param sl
 *   The spinlock.
 * @return
 *   1 if @p sl is held, 0 otherwise.
 */
static inline int
rte_spinlock_is_locked(rte_spinlock_t *sl)
{
	return __atomic_load_n(&sl->locked, __ATOMIC_ACQUIRE);
}

#ifdef __cplusplus
}
#endif

#endif /* _RTE_SPINLOCK_H_ */
