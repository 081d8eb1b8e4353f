/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * The process table and its rounds (eal_mp.h).
 *
 * A round is one number, posted to each process's req word. The poster
 * remembers each claim word as it was before posting; giving up, it
 * swaps that value for round | EAL_MP_CANCEL, which fails if the process
 * took the round on meanwhile (then its answer is coming, and is waited
 * for). The process swaps the same value for the round to take it on.
 * Exactly one of the two swaps wins, so a process never syncs without
 * the lock after its poster let the lock go.
 */

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_rwlock.h>

#include "eal_bitmap.h"
#include "eal_lcore.h"
#include "eal_log.h"
#include "eal_mem.h"
#include "eal_memseg_list.h"
#include "eal_mp.h"
#include "linux/eal_os.h"
#include "eal_sys.h"

#define MP_POLL_MS 10 /* how often a waiting poster checks the process */

/* ASan's, in a sanitized build; weak, so NULL in others. */
void __asan_unpoison_memory_region(void const volatile *addr, size_t size)
		__attribute__((weak));

static uint64_t
mp_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Map or unmap the run [idx, idx + n) of list @p l to match the lists. */
static int
mp_sync_run(struct eal_mem *mem, unsigned int l, unsigned int idx,
		unsigned int n, bool used)
{
	struct rte_memseg_list *msl = &mem->mcfg->memsegs[l];
	void *addr = eal_msl_slot_addr(msl, idx);
	size_t len = (size_t)n * msl->page_sz;
	int ret;

	if (used) {
		ret = mem->backing->attach(mem, l, idx, n);
		if (ret < 0) {
			EAL_LOG(ERR,
					"cannot map %u pages at %p that another "
					"process mapped: %s",
					n, addr, strerror(-ret));
			return ret;
		}
		eal_bitmap_set_range(mem->local[l].mapped, idx, n, true);
		if (mem->init_done)
			eal_mem_event_notify(&mem->events, RTE_MEM_EVENT_ALLOC,
					addr, len);
		return 0;
	}
	if (mem->init_done)
		eal_mem_event_notify(
				&mem->events, RTE_MEM_EVENT_FREE, addr, len);
	mem->backing->detach(mem, l, idx, n);
	eal_bitmap_set_range(mem->local[l].mapped, idx, n, false);
	return 0;
}

static int
mp_sync_list(struct eal_mem *mem, unsigned int l)
{
	const struct rte_memseg_list *msl = &mem->mcfg->memsegs[l];
	const uint64_t *used = eal_mcfg_at(mem->mcfg, msl->used_off);
	const uint64_t *mapped = mem->local[l].mapped;
	unsigned int idx = 0, end, n = msl->n_segs;
	uint64_t diff;
	int ret = 0;
	bool u;

	while (idx < n) {
		diff = (used[idx / 64] ^ mapped[idx / 64]) >> (idx % 64);
		if (diff == 0) {
			idx = RTE_ALIGN_FLOOR(idx, 64) + 64;
			continue;
		}
		idx += rte_ctz64(diff);
		if (idx >= n)
			break;
		u = eal_bitmap_get(used, idx);
		for (end = idx + 1; end < n && eal_bitmap_get(used, end) == u &&
				eal_bitmap_get(mapped, end) != u;
				end++)
			;
		if (mp_sync_run(mem, l, idx, end - idx, u) < 0)
			ret = -EIO;
		idx = end;
	}
	return ret;
}

int
eal_mp_sync(struct eal_mem *mem)
{
	struct rte_mem_config *mcfg = mem->mcfg;
	unsigned int l;
	int ret = 0;

	pthread_mutex_lock(&mem->mp.sync_lock);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	for (l = 0; l < mcfg->n_lists; l++) {
		if (mcfg->memsegs[l].external || mem->local[l].mapped == NULL)
			continue;
		if (mp_sync_list(mem, l) < 0)
			ret = -EIO;
	}
	__atomic_thread_fence(__ATOMIC_RELEASE);
	pthread_mutex_unlock(&mem->mp.sync_lock);
	return ret;
}

/*
 * Lift this process's heap poison from every page once memory is shared
 * (malloc_asan.h): a block freed here may be another process's now.
 */
static void
mp_unpoison(struct eal_mem *mem)
{
	const struct rte_mem_config *mcfg = mem->mcfg;
	unsigned int l, idx, end;

	if (__asan_unpoison_memory_region == NULL || mem->mp.unpoisoned ||
			!__atomic_load_n(&mcfg->mp_shared, __ATOMIC_ACQUIRE))
		return;
	mem->mp.unpoisoned = true;
	/* Mapped runs only: the shadow of a whole list would be gigabytes. */
	for (l = 0; l < mcfg->n_lists; l++) {
		const struct rte_memseg_list *msl = &mcfg->memsegs[l];
		const uint64_t *mapped = mem->local[l].mapped;

		for (idx = 0; mapped != NULL && idx < msl->n_segs; idx = end) {
			for (; idx < msl->n_segs &&
					!eal_bitmap_get(mapped, idx);
					idx++)
				;
			for (end = idx; end < msl->n_segs &&
					eal_bitmap_get(mapped, end);
					end++)
				;
			if (end > idx)
				__asan_unpoison_memory_region(
						eal_msl_slot_addr(msl, idx),
						(size_t)(end - idx) *
								msl->page_sz);
		}
	}
}

/* Catch up after a cancelled round, under the lock as any change is. */
static void
mp_sync_locked(struct eal_mem *mem, uint32_t *req, uint32_t seen)
{
	struct eal_mprwlock *lock = &mem->mcfg->memory_hotplug_lock;

	while (!eal_mp_read_trylock_as(&mem->mp, lock)) {
		/* A new round's poster holds the lock and waits for us. */
		if (__atomic_load_n(req, __ATOMIC_ACQUIRE) != seen ||
				__atomic_load_n(&mem->mp.stop,
						__ATOMIC_RELAXED))
			return;
		eal_os_futex_wait(req, seen, 1);
	}
	eal_mp_sync(mem);
	mp_unpoison(mem);
	eal_mp_read_unlock_as(&mem->mp, lock);
}

static void *
mp_thread(void *arg)
{
	struct eal_mem *mem = arg;
	struct eal_mp_proc *me = &mem->mcfg->procs[mem->mp.slot];
	/* From the join on: rounds posted before the thread ran count. */
	uint32_t seen = __atomic_load_n(&me->ack, __ATOMIC_ACQUIRE), r, c;
	int ret;

	while (!__atomic_load_n(&mem->mp.stop, __ATOMIC_ACQUIRE)) {
		r = __atomic_load_n(&me->req, __ATOMIC_ACQUIRE);
		if (r == seen) {
			eal_os_futex_wait(&me->req, seen, -1);
			continue;
		}
		seen = r;
		c = __atomic_load_n(&me->claim, __ATOMIC_ACQUIRE);
		if (c != (r | EAL_MP_CANCEL) &&
				__atomic_compare_exchange_n(&me->claim, &c, r,
						false, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE)) {
			/* The poster holds the lock until we answer. */
			ret = eal_mp_sync(mem);
			mp_unpoison(mem);
			__atomic_store_n(&me->ack,
					ret == 0 ? r : r | EAL_MP_CANCEL,
					__ATOMIC_RELEASE);
			eal_os_futex_wake(&me->ack);
			continue;
		}
		mp_sync_locked(mem, &me->req, seen);
	}
	return NULL;
}

/* Take back the read holds of @p l that slot @p i's last process left. */
static void
mp_slot_reconcile(struct eal_mprwlock *l, unsigned int i)
{
	uint32_t n = __atomic_exchange_n(&l->by_slot[i], 0, __ATOMIC_ACQ_REL);

	if (n != 0)
		__atomic_fetch_sub(&l->readers, n, __ATOMIC_SEQ_CST);
}

int
eal_mp_join(struct eal_mem *mem, bool secondary, char *err, size_t err_len)
{
	struct rte_mem_config *mcfg = mem->mcfg;
	unsigned int i, l;
	uint64_t free_id;
	size_t words;

	if (mem->mp.self == 0) {
		snprintf(err, err_len, "cannot read /proc/self/stat");
		return -EIO;
	}
	for (l = 0; l < mcfg->n_lists; l++) {
		if (mcfg->memsegs[l].external)
			continue;
		words = eal_bitmap_words(mcfg->memsegs[l].n_segs);
		mem->local[l].mapped = calloc(words, sizeof(uint64_t));
		if (mem->local[l].mapped == NULL)
			return -ENOMEM;
		/* The primary maps every used page itself. */
		if (!secondary)
			memcpy(mem->local[l].mapped,
					eal_mcfg_at(mcfg,
							mcfg->memsegs[l].used_off),
					words * sizeof(uint64_t));
	}
	for (i = 0; i < EAL_MP_MAX_PROCS; i++) {
		struct eal_mp_proc *p = &mcfg->procs[i];

		free_id = __atomic_load_n(&p->id, __ATOMIC_ACQUIRE);
		if (free_id != 0 && eal_proc_alive(free_id))
			continue;
		if (__atomic_compare_exchange_n(&p->id, &free_id, mem->mp.self,
				    false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
			break;
	}
	if (i == EAL_MP_MAX_PROCS) {
		snprintf(err, err_len,
				"%d processes of this file prefix run already: "
				"no more can attach",
				EAL_MP_MAX_PROCS);
		return -EUSERS;
	}
	/* Read holds a dead owner of the slot left. */
	mp_slot_reconcile(&mcfg->memory_hotplug_lock, i);
	mp_slot_reconcile(&mcfg->mlock, i);
	mcfg->procs[i].secondary = secondary;
	mcfg->procs[i].claim = 0;
	mcfg->procs[i].ack = mcfg->procs[i].req;
	mem->mp.slot = (int)i;
	/* A primary maps the lists already; a secondary once it synced. */
	if (!secondary)
		eal_mp_activate(mem);
	return 0;
}

void
eal_mp_activate(struct eal_mem *mem)
{
	if (mem->mp.slot >= 0)
		__atomic_store_n(&mem->mcfg->procs[mem->mp.slot].active_id,
				mem->mp.self, __ATOMIC_RELEASE);
}

int
eal_mp_start(struct eal_mem *mem, char *err, size_t err_len)
{
	sigset_t all, old;
	int ret;

	if (mem->mp.slot < 0 || mem->mp.thread_on)
		return 0;
	mem->mp.stop = false;
	/* The application's signals are not for this thread. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = pthread_create(&mem->mp.thread, NULL, mp_thread, mem);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret != 0) {
		snprintf(err, err_len,
				"cannot start the memory sync thread: %s",
				strerror(ret));
		return -ret;
	}
	pthread_setname_np(mem->mp.thread, "rte_mp_sync");
	mem->mp.thread_on = true;
	return 0;
}

void
eal_mp_leave(struct eal_mem *mem)
{
	unsigned int l;

	if (mem->mp.thread_on) {
		__atomic_store_n(&mem->mp.stop, true, __ATOMIC_RELEASE);
		eal_os_futex_wake(&mem->mcfg->procs[mem->mp.slot].req);
		pthread_join(mem->mp.thread, NULL);
		mem->mp.thread_on = false;
	}
	/* From here on posters skip this process: its pages go with it. */
	if (mem->mp.slot >= 0) {
		__atomic_store_n(&mem->mcfg->procs[mem->mp.slot].active_id, 0,
				__ATOMIC_RELEASE);
		__atomic_store_n(&mem->mcfg->procs[mem->mp.slot].id, 0,
				__ATOMIC_RELEASE);
	}
	mem->mp.slot = -1;
	for (l = 0; l < RTE_MAX_MEMSEG_LISTS; l++) {
		free(mem->local[l].mapped);
		mem->local[l].mapped = NULL;
	}
}

/* Post @p round to slot @p i. @return the claim word it had before. */
static uint32_t
mp_post(struct eal_mp_proc *p, uint32_t round)
{
	uint32_t c = __atomic_load_n(&p->claim, __ATOMIC_ACQUIRE);

	__atomic_store_n(&p->req, round, __ATOMIC_RELEASE);
	eal_os_futex_wake(&p->req);
	return c;
}

/*
 * Wait for process @p p (identity @p id) to answer @p round.
 * @return 0 if it did or is gone, -ETIMEDOUT if it was cancelled, -EIO
 *   if it could not map the pages (it logged why).
 */
static int
mp_wait(struct eal_mp_proc *p, uint64_t id, uint32_t round, uint32_t claim)
{
	uint64_t deadline = mp_now_ms() + EAL_MP_TIMEOUT_MS;
	uint32_t ack;

	for (;;) {
		ack = __atomic_load_n(&p->ack, __ATOMIC_ACQUIRE);
		if (ack == round)
			return 0;
		if (ack == (round | EAL_MP_CANCEL))
			return -EIO;
		if (__atomic_load_n(&p->id, __ATOMIC_ACQUIRE) != id)
			return 0;
		if (!eal_proc_alive(id)) {
			/* Its mappings died with it. */
			__atomic_compare_exchange_n(&p->id, &id, 0, false,
					__ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
			return 0;
		}
		if (mp_now_ms() >= deadline &&
				__atomic_compare_exchange_n(&p->claim, &claim,
						round | EAL_MP_CANCEL, false,
						__ATOMIC_ACQ_REL,
						__ATOMIC_RELAXED))
			return -ETIMEDOUT;
		eal_os_futex_wait(&p->ack, ack, MP_POLL_MS);
	}
}

/*
 * Post a round to every other process and wait for the answers. With
 * @p undo, a process whose last round was cancelled is left out: it
 * never took the change being undone, and catches up under the lock.
 */
static int
mp_round(struct eal_mem *mem, bool undo)
{
	struct rte_mem_config *mcfg = mem->mcfg;
	uint32_t claims[EAL_MP_MAX_PROCS], round;
	uint64_t ids[EAL_MP_MAX_PROCS];
	unsigned int i, n = 0;
	int ret = 0, err;

	if (mem->mp.slot < 0)
		return 0;
	/* Rounds are 31-bit and never 0, which a fresh slot holds. */
	round = __atomic_add_fetch(&mcfg->mp_round, 1, __ATOMIC_RELAXED) &
			~EAL_MP_CANCEL;
	if (round == 0)
		round = __atomic_add_fetch(
					&mcfg->mp_round, 1, __ATOMIC_RELAXED) &
				~EAL_MP_CANCEL;
	__atomic_thread_fence(__ATOMIC_RELEASE);
	for (i = 0; i < EAL_MP_MAX_PROCS; i++) {
		ids[i] = __atomic_load_n(&mcfg->procs[i].id, __ATOMIC_ACQUIRE);
		if (__atomic_load_n(&mcfg->procs[i].active_id,
				    __ATOMIC_ACQUIRE) != ids[i])
			ids[i] = 0;
		if (undo &&
				(__atomic_load_n(&mcfg->procs[i].claim,
						 __ATOMIC_ACQUIRE) &
						EAL_MP_CANCEL))
			ids[i] = 0;
		if (ids[i] == 0 || (int)i == mem->mp.slot)
			continue;
		claims[i] = mp_post(&mcfg->procs[i], round);
		n++;
	}
	for (i = 0; n > 0 && i < EAL_MP_MAX_PROCS; i++) {
		if (ids[i] == 0 || (int)i == mem->mp.slot)
			continue;
		err = mp_wait(&mcfg->procs[i], ids[i], round, claims[i]);
		if (err == -ETIMEDOUT)
			EAL_LOG(ERR,
					"process %d of this file prefix did not "
					"update its memory map within %d ms "
					"(stopped or hung?): the change is undone",
					eal_proc_pid(ids[i]),
					EAL_MP_TIMEOUT_MS);
		else if (err < 0)
			EAL_LOG(ERR,
					"process %d of this file prefix could not "
					"map the new pages: the change is undone",
					eal_proc_pid(ids[i]));
		if (err < 0 && ret == 0)
			ret = err;
	}
	return ret;
}

int
eal_mp_publish(struct eal_mem *mem)
{
	return mp_round(mem, false);
}

void
eal_mp_undo(struct eal_mem *mem)
{
	mp_round(mem, true);
}

static const char *
mp_role(const struct rte_mem_config *mcfg, uint64_t id)
{
	unsigned int i;

	for (i = 0; i < EAL_MP_MAX_PROCS; i++)
		if (mcfg->procs[i].id == id)
			return mcfg->procs[i].secondary ? "a secondary" :
							  "the primary";
	return "another process";
}

/* A lcore id that no process uses, for a message; -1 if none. */
static int
mp_free_lcore(const struct rte_mem_config *mcfg, const struct eal_lcores *lc)
{
	unsigned int id;

	for (id = RTE_MAX_LCORE; id-- > 0;)
		if (!lc->lcore[id].enabled && mcfg->lcore_owner[id] == 0)
			return (int)id;
	return -1;
}

/* Take lcore @p id for @p self. @return 0, or the live owner. */
static uint64_t
mp_lcore_take(struct rte_mem_config *mcfg, unsigned int id, uint64_t self)
{
	uint64_t owner = __atomic_load_n(
			&mcfg->lcore_owner[id], __ATOMIC_ACQUIRE);

	for (;;) {
		if (owner != 0 && owner != self && eal_proc_alive(owner))
			return owner;
		/* On failure owner is reloaded: look at the new one. */
		if (__atomic_compare_exchange_n(&mcfg->lcore_owner[id], &owner,
				    self, false, __ATOMIC_ACQ_REL,
				    __ATOMIC_ACQUIRE))
			return 0;
	}
}

void
eal_mp_lcores_claim(struct eal_mem *mem, const struct eal_lcores *lc)
{
	struct rte_mem_config *mcfg = mem->mcfg;
	unsigned int id;
	uint64_t owner;

	for (id = 0; id < RTE_MAX_LCORE; id++) {
		if (!lc->lcore[id].enabled)
			continue;
		owner = mp_lcore_take(mcfg, id, mem->mp.self);
		if (owner == 0)
			continue;
		/* DPDK lets processes share ids: keep off its shared state. */
		eal_lcore_shared[id / 64] |= UINT64_C(1) << (id % 64);
		EAL_LOG(WARNING,
				"lcore %u is also used by %s process (PID %d) of "
				"this file prefix: this process's lcore %u does "
				"not use the heap's lcore cache; give each "
				"process its own lcore ids, e.g. --lcores=%d@%d",
				id, mp_role(mcfg, owner), eal_proc_pid(owner),
				id, mp_free_lcore(mcfg, lc), lc->lcore[id].cpu);
	}
}

uint64_t
eal_mp_lcore_take(struct eal_mem *mem, unsigned int id)
{
	return mp_lcore_take(mem->mcfg, id, mem->mp.self);
}

void
eal_mp_lcore_give(struct eal_mem *mem, unsigned int id)
{
	uint64_t self = mem->mp.self;

	__atomic_compare_exchange_n(&mem->mcfg->lcore_owner[id], &self, 0,
			false, __ATOMIC_RELEASE, __ATOMIC_RELAXED);
}

void
eal_mp_lcores_release(struct eal_mem *mem)
{
	struct rte_mem_config *mcfg = mem->mcfg;
	unsigned int id;
	uint64_t self;

	for (id = 0; mem->mp.self != 0 && id < RTE_MAX_LCORE; id++) {
		self = mem->mp.self;
		__atomic_compare_exchange_n(&mcfg->lcore_owner[id], &self, 0,
				false, __ATOMIC_RELEASE, __ATOMIC_RELAXED);
	}
	memset(eal_lcore_shared, 0, sizeof(eal_lcore_shared));
}

int
eal_mp_check_orphans(int config_fd, char *err, size_t err_len)
{
	struct rte_mem_config *old;
	unsigned int i;
	int ret = 0;

	if (config_fd < 0 || eal_mcfg_attach(config_fd, &old) < 0)
		return 0; /* no config, or none of this version */
	for (i = 0; i < EAL_MP_MAX_PROCS && ret == 0; i++) {
		uint64_t id = __atomic_load_n(
				&old->procs[i].id, __ATOMIC_ACQUIRE);

		if (id == 0 || !old->procs[i].secondary || !eal_proc_alive(id))
			continue;
		snprintf(err, err_len,
				"secondary process %d of an earlier primary of "
				"this file prefix still runs and maps its memory: "
				"stop it before starting a new primary",
				eal_proc_pid(id));
		ret = -EBUSY;
	}
	eal_mcfg_destroy(old);
	return ret;
}

/*
 * The dead writer may have posted a round to this process: cancel it if
 * the sync thread has not taken it on, else wait for its answer. Either
 * way the thread syncs no more for the dead writer while this process,
 * now the writer, changes the lists.
 */
static void
mp_settle_own_round(struct eal_mem *mem)
{
	struct eal_mp_proc *me;
	uint32_t r, c;

	if (mem->mp.slot < 0)
		return;
	me = &mem->mcfg->procs[mem->mp.slot];
	r = __atomic_load_n(&me->req, __ATOMIC_ACQUIRE);
	c = __atomic_load_n(&me->claim, __ATOMIC_ACQUIRE);
	if (c != r && c != (r | EAL_MP_CANCEL) &&
			__atomic_compare_exchange_n(&me->claim, &c,
					r | EAL_MP_CANCEL, false,
					__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return;
	while (__atomic_load_n(&me->claim, __ATOMIC_ACQUIRE) == r &&
			(__atomic_load_n(&me->ack, __ATOMIC_ACQUIRE) &
					~EAL_MP_CANCEL) != r)
		eal_os_futex_wait(&me->ack,
				__atomic_load_n(&me->ack, __ATOMIC_ACQUIRE),
				MP_POLL_MS);
}

void
eal_mp_repair_lists(void *arg)
{
	struct eal_mem *mem = arg;
	struct rte_mem_config *mcfg = mem->mcfg;
	unsigned int l, idx, used_pages = 0;

	mp_settle_own_round(mem);

	for (l = 0; l < mcfg->n_lists; l++) {
		struct rte_memseg_list *msl = &mcfg->memsegs[l];
		const uint64_t *used = eal_mcfg_at(mcfg, msl->used_off);
		unsigned int n = 0;

		if (msl->external)
			continue;
		/* A slot's memseg describes a page exactly when it is used. */
		for (idx = 0; idx < msl->n_segs; idx++) {
			if (eal_bitmap_get(used, idx))
				n++;
			else if (eal_msl_seg(mcfg, msl, idx)->addr != NULL)
				memset(eal_msl_seg(mcfg, msl, idx), 0,
						sizeof(struct rte_memseg));
		}
		msl->n_used = n;
		msl->version++;
		used_pages += n;
	}
	EAL_LOG(WARNING,
			"memseg lists checked: %u pages in use; bringing every "
			"process's mappings in line",
			used_pages);
	eal_mp_sync(mem);
	eal_mp_publish(mem);
}
