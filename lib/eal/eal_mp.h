/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _EAL_MP_H_
#define _EAL_MP_H_

/*
 * The processes of a prefix sharing one memory config: the primary and
 * its secondaries. Each has a slot in the config's process table and a
 * thread that keeps its mappings in line with the lists' occupancy.
 *
 * The rule: a process that maps or unmaps pages holds the hotplug lock
 * for writing and, before the call that changed the lists returns,
 * posts a round to every other process and waits until each has mapped
 * the new pages or unmapped the old ones. So memory one process got is
 * usable by all as soon as it has it, and a slot given back is free for
 * reuse only once no process maps its old page.
 *
 * A process that does not answer within EAL_MP_TIMEOUT_MS (stopped,
 * hung) makes the change fail and be undone, and the round is cancelled
 * for it: when it runs again it finds the cancel and catches up under
 * the hotplug lock, as it would after any missed round. A process that
 * died is dropped from the table.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eal_memcfg.h"

#define EAL_MP_TIMEOUT_MS 5000

struct eal_mem;
struct eal_lcores;

/* What this process holds of the table. */
struct eal_mp {
	int slot; /* its slot in procs[]; -1 when not joined */
	uint64_t self; /* eal_proc_self_id() */
	pthread_t thread; /* answers rounds */
	bool thread_on;
	bool stop; /* the thread must exit */
	bool unpoisoned; /* ASan: heap poison lifted for sharing */
	/*
	 * One sync at a time in this process: the thread may still answer
	 * the round of a writer that died when another thread takes the
	 * writer's lock over and repairs.
	 */
	pthread_mutex_t sync_lock;
};

/*
 * Take a slot in the process table of @p mem's config. The caller holds
 * the hotplug lock (read or write) or is the primary inside init: from
 * the slot on, the caller's mappings must follow every change.
 *
 * @return 0, or a negative errno with one line in @p err (-EUSERS: the
 *   table is full).
 */
int eal_mp_join(struct eal_mem *mem, bool secondary, char *err, size_t err_len);

/*
 * Have rounds posted to this process from now on: a secondary, once its
 * mappings match the lists, before it lets go of the hotplug lock.
 */
void eal_mp_activate(struct eal_mem *mem);

/*
 * Start the thread that answers rounds: a primary as init ends (while a
 * process has one thread, mapping pages costs no TLB shootdown, see
 * eal_lcore.h; no secondary attaches before), a secondary before it is
 * activated. No-op when not joined or already started.
 *
 * @return 0, or a negative errno with one line in @p err.
 */
int eal_mp_start(struct eal_mem *mem, char *err, size_t err_len);

/* Stop the thread and free the slot (safe when not joined). */
void eal_mp_leave(struct eal_mem *mem);

/*
 * Make every other process's mappings match the lists, after this
 * process changed them. The caller holds the hotplug lock for writing.
 *
 * @return 0, or -ETIMEDOUT when a process did not answer, -EIO when one
 *   could not map the pages (logged with its PID): the caller undoes its
 *   change and calls eal_mp_undo().
 */
int eal_mp_publish(struct eal_mem *mem);

/*
 * Publish the undoing of a change eal_mp_publish() failed to make: the
 * processes that did not take it are left out (they catch up when they
 * run), so a stopped process costs one timeout, not two.
 */
void eal_mp_undo(struct eal_mem *mem);

/*
 * Map the used slots this process does not map, unmap those it maps that
 * are no longer used. The lists must not change meanwhile: the caller
 * holds the hotplug lock, or another process holds it for writing and
 * waits for this one.
 *
 * @return 0, or the first mapping error (logged).
 */
int eal_mp_sync(struct eal_mem *mem);

/*
 * Record this process as the user of its enabled lcores in the config:
 * lcore ids index shared per-lcore state (the heap's lcore caches). An id
 * another live process has already is shared, as DPDK allows, but this
 * process keeps off its state (eal_lcore_own, and a warning that
 * names the other process). A dead process's ids are taken over.
 */
void eal_mp_lcores_claim(struct eal_mem *mem, const struct eal_lcores *lc);

/*
 * What a lock's user does after taking the lock over from a process that
 * died holding it: check what the lock protects, repair it if it can,
 * and log what it found. Called with the lock held for writing.
 */
typedef void (*eal_mp_repair_t)(void *arg);

/*
 * Take @p l for writing, as process @p me (its slot may be -1: a process
 * alone). A holder that died is noticed while waiting: its write hold is
 * taken over (then @p repair runs, naming the lock @p what in the log),
 * its read holds are dropped.
 */
void eal_mp_write_lock_as(const struct eal_mp *me, struct eal_mprwlock *l,
		const char *what, eal_mp_repair_t repair, void *arg);

/* Take @p l for reading, as @p me; a dead writer is taken over first. */
void eal_mp_read_lock_as(const struct eal_mp *me, struct eal_mprwlock *l,
		const char *what, eal_mp_repair_t repair, void *arg);

/* @return true if @p l was taken for reading without waiting. */
bool eal_mp_read_trylock_as(const struct eal_mp *me, struct eal_mprwlock *l);

/* Release a read hold of @p me. */
void eal_mp_read_unlock_as(const struct eal_mp *me, struct eal_mprwlock *l);

/* Release the write hold. */
void eal_mp_write_unlock(struct eal_mprwlock *l);

/*
 * The same, as the calling process (the published EAL's identity): for
 * the locks lib/malloc takes.
 */
void eal_mp_write_lock(struct eal_mprwlock *l, const char *what,
		eal_mp_repair_t repair, void *arg);
void eal_mp_read_lock(struct eal_mprwlock *l, const char *what,
		eal_mp_repair_t repair, void *arg);
void eal_mp_read_unlock(struct eal_mprwlock *l);

/*
 * The repair of the hotplug lock: recount each list's used slots from
 * its bitmap, clear the memsegs of free slots, and bring every process's
 * mappings in line with the lists. @p arg is the struct eal_mem.
 */
void eal_mp_repair_lists(void *arg);

/*
 * Record this process as the user of lcore @p id, for a thread that
 * registered it. @return 0, or the identity of the live process that
 * uses it already (then nothing changed).
 */
uint64_t eal_mp_lcore_take(struct eal_mem *mem, unsigned int id);

/* Give lcore @p id back, if this process holds it. */
void eal_mp_lcore_give(struct eal_mem *mem, unsigned int id);

/* Give back the lcores this process claimed. */
void eal_mp_lcores_release(struct eal_mem *mem);

/*
 * Before a new primary rebuilds the config in its runtime directory's
 * config file @p config_fd: a secondary of a primary that died may still
 * run and map the old one, and would find its memory pulled from under
 * it.
 *
 * @return 0, or -EBUSY with one line in @p err naming the process.
 */
int eal_mp_check_orphans(int config_fd, char *err, size_t err_len);

#endif /* _EAL_MP_H_ */
