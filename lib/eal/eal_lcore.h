/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _EAL_LCORE_H_
#define _EAL_LCORE_H_

/*
 * Lcores: lcore 0 is the thread that called rte_eal_init(), pinned to the
 * first CPU of -l; every other listed CPU gets a worker thread pinned to it
 * that waits for rte_eal_remote_launch().
 */

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_config.h>
#include <rte_launch.h>
#include <rte_lcore.h>

struct eal_options;

/*
 * One lcore. Set up by the main thread before the worker starts; f, arg,
 * ret, state and stop are then changed under mutex only.
 */
struct eal_lcore {
	bool enabled; /* listed in -l (or in the affinity set by default) */
	bool started; /* its worker thread runs (never for the main lcore) */
	unsigned int id; /* its lcore id: index in eal_lcores.lcore[] */
	int index; /* position in the -l list (rte_lcore_index) */
	int cpu; /* CPU it is pinned to */
	unsigned int socket_id; /* NUMA node of that CPU */
	pthread_t thread; /* worker thread (not for the main lcore) */
	lcore_function_t *f; /* function to run next; NULL when idle */
	void *arg; /* its argument */
	int ret; /* return value of the last function run */
	enum rte_lcore_state_t state; /* WAIT, RUNNING or FINISHED */
	pthread_mutex_t mutex; /* guards the launch handshake */
	pthread_cond_t cond; /* signals a launch, a finish or a stop */
	bool stop; /* worker must exit (cleanup) */
	/*
	 * A thread that is no lcore holds this id (rte_thread_register());
	 * never set on an enabled lcore. Changed with atomics only.
	 */
	bool registered;
};

/* Every lcore of the process. */
struct eal_lcores {
	struct eal_lcore lcore[RTE_MAX_LCORE]; /* indexed by lcore id */
	unsigned int count; /* enabled lcores */
	unsigned int main_lcore; /* id of the main lcore */
	unsigned int n_sockets; /* NUMA nodes with CPUs or memory */
	int socket_ids[RTE_MAX_NUMA_NODES]; /* their ids, ascending */
	cpu_set_t main_affinity; /* main thread's CPUs before init */
	bool main_pinned; /* main thread pinned; restore at cleanup */
};

/*
 * Enable the lcores of @p opts (or one per allowed CPU) and pin the
 * calling thread as the main lcore. The workers start later, with
 * eal_lcores_start().
 *
 * @return 0, or a negative errno with a line in @p err.
 */
int eal_lcores_init(struct eal_lcores *lc, const struct eal_options *opts,
		char *err, size_t err_len);

/*
 * Start the worker threads, as the last step of init: while the process
 * has one thread, mapping and unmapping pages needs no TLB flush on other
 * CPUs, which costs ~20 us per call in a virtual machine.
 *
 * @return 0, or a negative errno with a line in @p err (the lcores are
 *   then cleaned up).
 */
int eal_lcores_start(struct eal_lcores *lc, char *err, size_t err_len);

/*
 * Stop and join the workers (a running function is waited for). The
 * calling (main) thread gets back its CPU affinity from before init and
 * its lcore id goes back to LCORE_ID_ANY. If @p lc is the published
 * table, eal_lcores_get() returns NULL from then on.
 */
void eal_lcores_cleanup(struct eal_lcores *lc);

/*
 * Publish the lcore table that the rte_lcore_* and launch functions use
 * (the EAL context owns it); NULL before init and after cleanup, when they
 * answer as if there were no lcores.
 */
void eal_lcores_set(struct eal_lcores *lc);

/* @return the published lcore table, or NULL. */
struct eal_lcores *eal_lcores_get(void);

/*
 * The CPUs for a background thread of the EAL or the heaps, in *@p set:
 * those the main thread could use before init that no lcore is pinned
 * to; else those but the main lcore's, whose thread is the likeliest to
 * wait for the background work; else all of them.
 */
void eal_lcores_spare_cpus(const struct eal_lcores *lc, cpu_set_t *set);

/*
 * Bit per lcore id that another live process of the file prefix uses
 * too (eal_mp.h). Process state, written only inside rte_eal_init() and
 * rte_eal_cleanup(), before the lcores' threads start and after they end.
 */
extern uint64_t eal_lcore_shared[RTE_MAX_LCORE / 64];

/*
 * Per thread: the lcore id whose shared per-lcore state (the heap's lcore
 * caches) the thread may use, or RTE_MAX_LCORE for a thread that is no
 * lcore, and for an lcore id that another process of the prefix uses
 * too (its cache is that process's). Set with the lcore id, so that a
 * heap operation reads one thread-local word instead of the id and then
 * eal_lcore_shared.
 */
RTE_DECLARE_PER_LCORE(unsigned int, eal_lcore_own);

/*
 * What lib/malloc found for the calling thread's lcore in a config (its
 * lcore cache), kept by the thread to skip the lookup on every call, and
 * forgotten whenever the thread's lcore id is set. The key is the
 * config's address, which this process never maps another config at
 * (eal_mcfg_destroy()).
 */
struct eal_lcore_memo {
	const void *key; /* the config it was found in; NULL: none */
	void *ptr; /* what was found */
	unsigned int lcore; /* eal_lcore_own then */
} __rte_aligned(32); /* on one line: across two, 64 B pairs took 1.1 ns more */

RTE_DECLARE_PER_LCORE(struct eal_lcore_memo, eal_lcore_memo);

/*
 * Counts rte_eal_init() calls, bumped before the call sets any lcore id,
 * and per thread the count its id was set under. A thread whose id was
 * set under an earlier count holds the id of an EAL that is gone: a
 * thread registered before rte_eal_cleanup(), whose id the new EAL may
 * give to another thread (and with it the id's lcore cache).
 */
extern uint64_t eal_lcore_generation;
RTE_DECLARE_PER_LCORE(uint64_t, eal_lcore_gen);

/*
 * Drop the calling thread's lcore id if an earlier EAL set it: the
 * thread is then no lcore, as at its start. Inline, without a call: the
 * lcore caches check on their rare miss, inside rte_malloc().
 */
static inline void
eal_lcore_drop_stale(void)
{
	if (likely(RTE_PER_LCORE(_lcore_id) == LCORE_ID_ANY ||
			    RTE_PER_LCORE(eal_lcore_gen) ==
					    __atomic_load_n(&eal_lcore_generation,
							    __ATOMIC_ACQUIRE)))
		return;
	RTE_PER_LCORE(_lcore_id) = LCORE_ID_ANY;
	RTE_PER_LCORE(eal_lcore_own) = RTE_MAX_LCORE;
	RTE_PER_LCORE(eal_lcore_memo) = (struct eal_lcore_memo){ 0 };
}

/* Set the calling thread's lcore id to @p id, and what it owns. */
void eal_lcore_id_set(unsigned int id);

/*
 * The CPUs this process may run on (sched_getaffinity), for the -l checks
 * of eal_options_resolve().
 *
 * @return the number of entries of @p allowed that are meaningful.
 */
unsigned int eal_cpus_allowed(bool allowed[RTE_MAX_LCORE]);

#endif /* _EAL_LCORE_H_ */
