/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _RTE_RWLOCK_H_
#define _RTE_RWLOCK_H_

/**
 * @file
 * A reader-writer spinlock that works in memory shared between processes.
 * A waiting writer blocks new readers, so writers are not starved.
 */

#include <errno.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_pause.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RTE_RWLOCK_WAIT 0x1 /**< bit of cnt: a writer is waiting */
#define RTE_RWLOCK_WRITE 0x2 /**< bit of cnt: a writer holds the lock */
/** The bits of cnt that keep new readers out. */
#define RTE_RWLOCK_MASK (RTE_RWLOCK_WAIT | RTE_RWLOCK_WRITE)
#define RTE_RWLOCK_READ 0x4 /**< one reader, counted in the upper bits */

/** A reader-writer lock; zero is unlocked. */
typedef struct {
	volatile int32_t cnt; /**< readers * RTE_RWLOCK_READ | WAIT | WRITE */
} rte_rwlock_t;

/** Static initializer of an unlocked rte_rwlock_t. */
#define RTE_RWLOCK_INITIALIZER \
	{ \
		0 \
	}

/**
 * Initialize a lock, unlocked.
 *
 * @param rwl
 *   The lock.
 */
static inline void
rte_rwlock_init(rte_rwlock_t *rwl)
{
	rwl->cnt = 0;
}

/**
 * Take a lock for reading, spinning while a writer holds it or waits for
 * it. Several readers may hold it at once. Not recursive: a reader that
 * takes it again can wait forever behind a waiting writer.
 *
 * @param rwl
 *   The lock.
 */
static inline void
rte_rwlock_read_lock(rte_rwlock_t *rwl)
{
	int32_t x;

	for (;;) {
		while (__atomic_load_n(&rwl->cnt, __ATOMIC_RELAXED) &
				RTE_RWLOCK_MASK)
			rte_pause();
		x = __atomic_add_fetch(
				&rwl->cnt, RTE_RWLOCK_READ, __ATOMIC_ACQUIRE);
		if (!(x & RTE_RWLOCK_MASK))
			return;
		__atomic_fetch_sub(
				&rwl->cnt, RTE_RWLOCK_READ, __ATOMIC_RELAXED);
	}
}

/**
 * Try to take a lock for reading, without waiting.
 *
 * @param rwl
 *   The lock.
 * @return
 *   0 if taken, -EBUSY if a writer holds it or waits for it.
 */
static inline int
rte_rwlock_read_trylock(rte_rwlock_t *rwl)
{
	int32_t x;

	if (__atomic_load_n(&rwl->cnt, __ATOMIC_RELAXED) & RTE_RWLOCK_MASK)
		return -EBUSY;
	x = __atomic_add_fetch(&rwl->cnt, RTE_RWLOCK_READ, __ATOMIC_ACQUIRE);
	if (!(x & RTE_RWLOCK_MASK))
		return 0;
	__atomic_fetch_sub(&rwl->cnt, RTE_RWLOCK_READ, __ATOMIC_RELAXED);
	return -EBUSY;
}

/**
 * Release a lock taken with rte_rwlock_read_lock().
 *
 * @param rwl
 *   The lock.
 */
static inline void
rte_rwlock_read_unlock(rte_rwlock_t *rwl)
{
	__atomic_fetch_sub(&rwl->cnt, RTE_RWLOCK_READ, __ATOMIC_RELEASE);
}

/**
 * Take a lock for writing, spinning until no reader or writer holds it.
 * While it waits, new readers are kept out.
 *
 * @param rwl
 *   The lock.
 */
static inline void
rte_rwlock_write_lock(rte_rwlock_t *rwl)
{
	int32_t x;

	for (;;) {
		x = __atomic_load_n(&rwl->cnt, __ATOMIC_RELAXED);
		if (x < RTE_RWLOCK_WRITE) {
			/* No reader and no writer: claim it. */
			if (__atomic_compare_exchange_n(&rwl->cnt, &x,
					    RTE_RWLOCK_WRITE, 1,
					    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
				return;
		}
		if (!(x & RTE_RWLOCK_WAIT))
			__atomic_fetch_or(&rwl->cnt, RTE_RWLOCK_WAIT,
					__ATOMIC_RELAXED);
		while (__atomic_load_n(&rwl->cnt, __ATOMIC_RELAXED) >
				RTE_RWLOCK_WAIT)
			rte_pause();
	}
}

/**
 * Release a lock taken with rte_rwlock_write_lock().
 *
 * @param rwl
 *   The lock.
 */
static inline void
rte_rwlock_write_unlock(rte_rwlock_t *rwl)
{
	__atomic_fetch_sub(&rwl->cnt, RTE_RWLOCK_WRITE, __ATOMIC_RELEASE);
}

/**
 * Whether a lock is held for writing, for assertions.
 *
 * @param rwl
 *   The lock.
 * @return
 *   1 if @p rwl is held for writing, 0 otherwise.
 */
static inline int
rte_rwlock_write_is_locked(rte_rwlock_t *rwl)
{
	return (__atomic_load_n(&rwl->cnt, __ATOMIC_RELAXED) &
			       RTE_RWLOCK_WRITE) != 0;
}

#ifdef __cplusplus
}
#endif

#endif /* _RTE_RWLOCK_H_ */
