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

/**
 * Function run on an lcore.
 *
 * @param arg
 *   The argument given to the launch call.
 * @return
 *   A value that rte_eal_wait_lcore() hands back.
 */
typedef int(lcore_function_t)(void *arg);

/** Whether rte_eal_mp_remote_launch() also runs the function here. */
enum rte_rmt_call_main_t {
	SKIP_MAIN = 0, /**< only on the workers */
	CALL_MAIN, /**< on the workers and on the main lcore */
};

/**
 * Run a function on one worker lcore and return without waiting for it.
 *
 * The worker must be in the WAIT state: after rte_eal_init(), or after
 * rte_eal_wait_lcore() collected its previous result.
 *
 * @param f
 *   The function; the worker calls @p f(@p arg).
 * @param arg
 *   The argument of @p f.
 * @param worker_id
 *   The lcore id of an enabled worker (not the main lcore).
 * @return
 *   0, or -EBUSY if the worker is not in the WAIT state, -EINVAL if
 *   @p worker_id is not an enabled worker or @p f is NULL. rte_errno is
 *   not set.
 */
int rte_eal_remote_launch(
		lcore_function_t *f, void *arg, unsigned int worker_id);

/**
 * Run a function on every worker lcore, and on the main lcore if asked.
 *
 * Call it from the main lcore. With CALL_MAIN the calling thread runs
 * the function itself once the workers are launched, and returns when it
 * is done; the workers may still be running. Collect their results with
 * rte_eal_wait_lcore() or rte_eal_mp_wait_lcore().
 *
 * @param f
 *   The function; each lcore calls @p f(@p arg).
 * @param arg
 *   The argument of @p f.
 * @param call_main
 *   CALL_MAIN to run @p f on the calling thread too, SKIP_MAIN not to.
 * @return
 *   0, or -EBUSY if a worker is not in the WAIT state (then nothing was
 *   launched), -EINVAL before rte_eal_init() or if @p f is NULL.
 */
int rte_eal_mp_remote_launch(lcore_function_t *f, void *arg,
		enum rte_rmt_call_main_t call_main);

/**
 * The state of an lcore, for polling it without blocking.
 *
 * @param worker_id
 *   An lcore id (the main lcore's too).
 * @return
 *   Its state; WAIT for an id that is not an enabled lcore.
 */
enum rte_lcore_state_t rte_eal_get_lcore_state(unsigned int worker_id);

/**
 * Wait for an lcore to finish its function and collect the result; the
 * lcore is then in the WAIT state, ready for the next launch.
 *
 * @param worker_id
 *   An lcore id (the main lcore's too, after a CALL_MAIN launch).
 * @return
 *   The function's return value, or 0 if the lcore was waiting already or
 *   is not an enabled lcore.
 */
int rte_eal_wait_lcore(unsigned int worker_id);

/**
 * Wait for every worker lcore to finish, as rte_eal_wait_lcore() on each;
 * their return values are dropped. The main lcore is not waited for.
 */
void rte_eal_mp_wait_lcore(void);

#ifdef __cplusplus
}
#endif

#endif /* _RTE_LAUNCH_H_ */
