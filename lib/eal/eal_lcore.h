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
#include <stdbool.h>

#include <rte_config.h>
#include <rte_launch.h>

struct eal_options;

/* One lcore. Fields written by the main thread, read by the worker. */
struct eal_lcore {
	bool enabled;
	int cpu; /* CPU it is pinned to */
	unsigned int socket_id; /* NUMA node of that CPU */
	pthread_t thread; /* worker thread (not for the main lcore) */
	lcore_function_t *volatile f; /* function to run next */
	void *volatile arg; /* its argument */
	volatile int ret; /* its return value */
	volatile enum rte_lcore_state_t state;
	pthread_mutex_t mutex; /* guards the launch handshake */
	pthread_cond_t cond; /* signals a launch or a finish */
	bool stop; /* worker must exit (cleanup) */
};

/* Every lcore of the process. */
struct eal_lcores {
	struct eal_lcore lcore[RTE_MAX_LCORE];
	unsigned int count; /* enabled lcores */
	unsigned int main_lcore; /* id of the main lcore */
	unsigned int n_sockets; /* NUMA nodes with CPUs or memory */
	int socket_ids[RTE_MAX_NUMA_NODES]; /* their ids, ascending */
};

/*
 * Enable the lcores of @p opts (or one per allowed CPU), pin the calling
 * thread as the main lcore and start the workers.
 *
 * @return 0, or a negative errno with a line in @p err.
 */
int eal_lcores_init(struct eal_lcores *lc, const struct eal_options *opts,
	char *err, size_t err_len);

/* Stop and join the workers; unpin nothing. */
void eal_lcores_cleanup(struct eal_lcores *lc);

/*
 * The CPUs this process may run on (sched_getaffinity), for the -l checks
 * of eal_options_resolve().
 *
 * @return the number of entries of @p allowed that are meaningful.
 */
unsigned int eal_cpus_allowed(bool allowed[RTE_MAX_LCORE]);

#endif /* _EAL_LCORE_H_ */
