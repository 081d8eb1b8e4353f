/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * The config's reader-writer locks that a dead holder cannot keep
 * (eal_mp.h).
 *
 * The writer word is the writer's identity (eal_sys.h); read holds are
 * counted in total and per process table slot. A reader adds itself,
 * then looks for a writer; a writer takes the word, then waits for the
 * readers to leave: both sides use sequentially consistent operations,
 * so that one of them always sees the other. While waiting, every
 * MP_LOCK_SPINS spins, a waiter looks at the holders: a dead writer's
 * word is taken over (and what the lock protects repaired), a dead
 * process's read holds are taken back.
 */

#include <errno.h>
#include <sched.h>

#include <rte_common.h>
#include <rte_pause.h>

#include "eal_log.h"
#include "eal_mem.h"
#include "eal_mp.h"
#include "eal_sys.h"

#define MP_LOCK_SPINS 4096

/* Take back the read holds of slots whose process is gone. */
static void
lock_reap_readers(const struct eal_mp *me, struct eal_mprwlock *l)
{
	const struct rte_mem_config *mcfg = eal_mcfg_get();
	unsigned int i;
	uint32_t n;

	if (mcfg == NULL)
		return;
	for (i = 0; i < EAL_MP_MAX_PROCS; i++) {
		uint64_t id = __atomic_load_n(
				&mcfg->procs[i].id, __ATOMIC_ACQUIRE);

		if (__atomic_load_n(&l->by_slot[i], __ATOMIC_RELAXED) == 0 ||
				(int)i == me->slot ||
				(id != 0 && eal_proc_alive(id)))
			continue;
		n = __atomic_exchange_n(&l->by_slot[i], 0, __ATOMIC_ACQ_REL);
		if (n == 0)
			continue;
		__atomic_fetch_sub(&l->readers, n, __ATOMIC_SEQ_CST);
		EAL_LOG(WARNING,
				"a process of this file prefix died holding a "
				"lock for reading: its %u read holds are taken "
				"back",
				n);
	}
}

/* Wait until no process reads, taking back the dead ones' holds. */
static void
lock_wait_readers(const struct eal_mp *me, struct eal_mprwlock *l)
{
	unsigned int spins = 0;

	while (__atomic_load_n(&l->readers, __ATOMIC_SEQ_CST) != 0) {
		if (++spins < MP_LOCK_SPINS) {
			rte_pause();
			continue;
		}
		spins = 0;
		lock_reap_readers(me, l);
		sched_yield();
	}
}

/*
 * Take the writer word. @return true if it was taken over from a
 * process that died holding it.
 */
static bool
lock_take_writer(const struct eal_mp *me, struct eal_mprwlock *l)
{
	unsigned int spins = 0;
	uint64_t w;

	for (;;) {
		w = __atomic_load_n(&l->writer, __ATOMIC_RELAXED);
		if (w == 0) {
			if (__atomic_compare_exchange_n(&l->writer, &w,
					    me->self, false, __ATOMIC_SEQ_CST,
					    __ATOMIC_RELAXED))
				return false;
			continue;
		}
		if (++spins < MP_LOCK_SPINS) {
			rte_pause();
			continue;
		}
		spins = 0;
		if (!eal_proc_alive(w) &&
				__atomic_compare_exchange_n(&l->writer, &w,
						me->self, false,
						__ATOMIC_SEQ_CST,
						__ATOMIC_RELAXED)) {
			EAL_LOG(WARNING,
					"process %d died holding a lock of this "
					"file prefix for writing: taken over",
					eal_proc_pid(w));
			return true;
		}
		sched_yield();
	}
}

void
eal_mp_write_lock_as(const struct eal_mp *me, struct eal_mprwlock *l,
		const char *what, eal_mp_repair_t repair, void *arg)
{
	bool dead = lock_take_writer(me, l);

	lock_wait_readers(me, l);
	if (dead) {
		EAL_LOG(WARNING, "checking the %s after its holder died", what);
		repair(arg);
	}
}

void
eal_mp_write_unlock(struct eal_mprwlock *l)
{
	__atomic_store_n(&l->writer, 0, __ATOMIC_SEQ_CST);
}

static void
lock_add_reader(const struct eal_mp *me, struct eal_mprwlock *l, int delta)
{
	__atomic_fetch_add(&l->readers, (uint32_t)delta, __ATOMIC_SEQ_CST);
	if (me->slot >= 0)
		__atomic_fetch_add(&l->by_slot[me->slot], (uint32_t)delta,
				__ATOMIC_SEQ_CST);
}

bool
eal_mp_read_trylock_as(const struct eal_mp *me, struct eal_mprwlock *l)
{
	if (__atomic_load_n(&l->writer, __ATOMIC_SEQ_CST) != 0)
		return false;
	lock_add_reader(me, l, 1);
	if (__atomic_load_n(&l->writer, __ATOMIC_SEQ_CST) == 0)
		return true;
	lock_add_reader(me, l, -1);
	return false;
}

void
eal_mp_read_lock_as(const struct eal_mp *me, struct eal_mprwlock *l,
		const char *what, eal_mp_repair_t repair, void *arg)
{
	unsigned int spins = 0;
	uint64_t w;

	while (!eal_mp_read_trylock_as(me, l)) {
		if (++spins < MP_LOCK_SPINS) {
			rte_pause();
			continue;
		}
		spins = 0;
		w = __atomic_load_n(&l->writer, __ATOMIC_RELAXED);
		/* A dead writer: repair as a writer would, then read. */
		if (w != 0 && !eal_proc_alive(w)) {
			eal_mp_write_lock_as(me, l, what, repair, arg);
			eal_mp_write_unlock(l);
		}
		sched_yield();
	}
}

void
eal_mp_read_unlock_as(const struct eal_mp *me, struct eal_mprwlock *l)
{
	lock_add_reader(me, l, -1);
}

/* This process, for the locks of lib/malloc and the rte_mcfg_* calls. */
static const struct eal_mp *
lock_me(void)
{
	static const struct eal_mp none = { .slot = -1 };
	const struct eal_mem *mem = eal_mem_get();

	return mem != NULL ? &mem->mp : &none;
}

void
eal_mp_write_lock(struct eal_mprwlock *l, const char *what,
		eal_mp_repair_t repair, void *arg)
{
	eal_mp_write_lock_as(lock_me(), l, what, repair, arg);
}

void
eal_mp_read_lock(struct eal_mprwlock *l, const char *what,
		eal_mp_repair_t repair, void *arg)
{
	eal_mp_read_lock_as(lock_me(), l, what, repair, arg);
}

void
eal_mp_read_unlock(struct eal_mprwlock *l)
{
	eal_mp_read_unlock_as(lock_me(), l);
}
