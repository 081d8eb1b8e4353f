/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _RTE_LAUNCH_H_
#define _RTE_LAUNCH_H_

/**
 * @file
 * Running functions on worker lcores.
 */

#ifdef __cplusplus
extern "C" {
#endif

/** State of a worker lcore. */
enum rte_lcore_state_t {
	WAIT, /**< waiting for a function */
	RUNNING, /**< running a function */
	FINISHED, /**< done; its return value is not collected yet */
};

/** Function run on an lcore. */
typedef int(lcore_function_t)(void *arg);

/** Whether rte_eal_mp_remote_launch() also runs the function here. */
enum rte_rmt_call_main_t {
	SKIP_MAIN = 0, /**< only on the workers */
	CALL_MAIN, /**< on the workers and on the main lcore */
};

/**
 * Run @p f(@p arg) on worker @p worker_id.
 *
 * @return 0, or -EBUSY if the worker is not in the WAIT state, -EINVAL if
 *   @p worker_id is not an enabled worker.
 */
int rte_eal_remote_launch(
		lcore_function_t *f, void *arg, unsigned int worker_id);

/**
 * Run @p f(@p arg) on every worker, and on the main lcore if asked.
 *
 * @return 0, or -EBUSY if a worker is busy (then nothing was launched).
 */
int rte_eal_mp_remote_launch(lcore_function_t *f, void *arg,
		enum rte_rmt_call_main_t call_main);

/** @return the state of @p worker_id. */
enum rte_lcore_state_t rte_eal_get_lcore_state(unsigned int worker_id);

/**
 * Wait for @p worker_id to finish and collect its result.
 *
 * @return 0 if it was waiting, else the function's return value.
 */
int rte_eal_wait_lcore(unsigned int worker_id);

/** Wait for every worker to finish. */
void rte_eal_mp_wait_lcore(void);

#ifdef __cplusplus
}
#endif

#endif /* _RTE_LAUNCH_H_ */
