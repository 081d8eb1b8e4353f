/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _RTE_EAL_H_
#define _RTE_EAL_H_

/**
 * @file
 * Initialization and teardown of rtemem's environment: options, hugepage
 * memory, lcores.
 */

#include <stdint.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_log.h>
#include <rte_memory.h>
#include <rte_lcore.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Whether this process owns the memory or attached to another's. */
enum rte_proc_type_t {
	RTE_PROC_AUTO = -1, /**< decide at init (DPDK's `--proc-type=auto`) */
	RTE_PROC_PRIMARY = 0, /**< owns the memory configuration */
	RTE_PROC_SECONDARY, /**< attached to a live primary's */
	RTE_PROC_INVALID /**< not a process type */
};

/** How devices address memory. */
enum rte_iova_mode {
	RTE_IOVA_DC = 0, /**< don't care */
	RTE_IOVA_PA = (1 << 0), /**< physical addresses */
	RTE_IOVA_VA = (1 << 1), /**< virtual addresses */
};

/**
 * Parse the EAL options in @p argv, map the memory they ask for and start
 * the worker lcores.
 *
 * Call it once, from the thread that becomes the main lcore (it is pinned
 * to the first CPU of `-l/--lcores`, or of its affinity without `-l`), before
 * any other rte_* call that needs memory. Options end at `--` or at the
 * first argument that is not an option. On failure one line says what is
 * wrong (the usage text is printed only for an unknown option) and
 * nothing is left mapped; `--help` prints the usage and exits the process.
 *
 * @param argc
 *   Number of entries in @p argv, at least 1 (the program name).
 * @param argv
 *   The program name, then the arguments. On success the entry at the
 *   returned index is overwritten with argv[0], so that the application
 *   can parse its own arguments from argv + ret, as from a new argv.
 * @return
 *   The number of arguments parsed (argv[ret] is then argv[0]: the program
 *   name), or -1 with rte_errno: EINVAL (bad option, or no program name),
 *   ENOMEM (not enough memory), EALREADY (already initialized), EBUSY
 *   (file prefix in use), ENOENT (no hugepages), EACCES, ENOTSUP.
 */
int rte_eal_init(int argc, char **argv);

/**
 * Stop the worker lcores and release every page: in the default
 * `--huge-unlink` mode the hugepage files are removed, with "never" they stay
 * for the next start. Memory is not cleared on the way out.
 *
 * Every pointer into rtemem memory is invalid afterwards. rte_eal_init()
 * may be called again.
 *
 * @return
 *   0, or -1 with rte_errno EALREADY if rtemem is not initialized.
 */
int rte_eal_cleanup(void);

/**
 * The role of this process in a multi-process setup.
 *
 * A secondary process (`--proc-type=secondary`, or `auto` while a
 * primary of the file prefix runs) shares the primary's memory config,
 * heaps and memzones, at the same addresses.
 *
 * @return
 *   RTE_PROC_PRIMARY or RTE_PROC_SECONDARY; RTE_PROC_PRIMARY before
 *   rte_eal_init(), as in DPDK.
 */
enum rte_proc_type_t rte_eal_process_type(void);

/**
 * How the addresses given to devices (IOVAs) relate to memory.
 *
 * @return
 *   The mode chosen at init: RTE_IOVA_PA if physical addresses can be
 *   read from /proc/self/pagemap (it needs CAP_SYS_ADMIN), unless
 *   `--iova-mode=va`, or `--no-huge` without `--iova-mode=pa`, was given;
 *   otherwise RTE_IOVA_VA. RTE_IOVA_DC before init.
 */
enum rte_iova_mode rte_eal_iova_mode(void);

/**
 * Whether memory is backed by hugepages.
 *
 * @return
 *   1 after an rte_eal_init() without `--no-huge`, 0 with `--no-huge` or
 *   before init.
 */
int rte_eal_has_hugepages(void);

/**
 * The runtime directory of this process's file prefix: /var/run/rtemem/
 * PREFIX for root, $XDG_RUNTIME_DIR/rtemem/PREFIX (or /tmp/rtemem-UID/
 * PREFIX) for other users, mode 0700. The primary process holds a lock on
 * its "config" file for as long as it runs, and removes both at
 * rte_eal_cleanup().
 *
 * @return
 *   The path; "" before rte_eal_init(), after rte_eal_cleanup(), and with
 *   --no-shconf or --in-memory (no runtime directory).
 */
const char *rte_eal_get_runtime_dir(void);

/**
 * Whether a primary process is running: one holds the lock of the config
 * file at @p config_file_path.
 *
 * @param config_file_path
 *   A runtime directory's "config" file, or NULL for that of this
 *   process's file prefix ("rte" before rte_eal_init()).
 * @return
 *   1 if a primary process holds it, 0 otherwise.
 */
int rte_eal_primary_proc_alive(const char *config_file_path);

/**
 * Log a message at RTE_LOG_CRIT (log type EAL) and end the process with
 * exit(3), for errors the application cannot go on after. It does not
 * call rte_eal_cleanup().
 *
 * @param exit_code
 *   The exit status of the process.
 * @param format
 *   The message, a format string, as for printf; usually ending with a newline.
 * @param ...
 *   The values of the format's conversions.
 */
__rte_noreturn void rte_exit(int exit_code, const char *format, ...)
		__rte_format_printf(2, 3);

/**
 * The version of the library in use (see rte_version.h).
 *
 * @return
 *   A static string "rtemem X.Y.Z".
 */
const char *rte_version(void);

#ifdef __cplusplus
}
#endif

#endif /* _RTE_EAL_H_ */
