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
	RTE_PROC_AUTO = -1,
	RTE_PROC_PRIMARY = 0,
	RTE_PROC_SECONDARY,
	RTE_PROC_INVALID
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
 * Options end at "--" or at the first argument that is not an option.
 * On failure one line says what is wrong (the usage text is printed only
 * for an unknown option); --help prints the usage and exits the process.
 *
 * @return
 *   The number of arguments parsed (argv[ret] is then argv[0]: the program
 *   name), or -1 with rte_errno: EINVAL (bad option), ENOMEM (not enough
 *   memory), EALREADY (already initialized), EBUSY (file prefix in use),
 *   ENOENT (no hugepages), EACCES, ENOTSUP.
 */
int rte_eal_init(int argc, char **argv);

/**
 * Stop the worker lcores and release every page: in the default
 * --huge-unlink mode the hugepage files are removed, with "never" they stay
 * for the next start. Memory is not cleared on the way out.
 *
 * @return 0, or -1 with rte_errno (EALREADY if not initialized).
 */
int rte_eal_cleanup(void);

/** @return RTE_PROC_PRIMARY (rtemem has no secondary processes yet). */
enum rte_proc_type_t rte_eal_process_type(void);

/** @return the IOVA mode chosen at init. */
enum rte_iova_mode rte_eal_iova_mode(void);

/** @return 1 if memory is backed by hugepages (not --no-huge). */
int rte_eal_has_hugepages(void);

/**
 * @return the runtime directory of this file prefix, or NULL before init
 *   and with --no-shconf or --in-memory (no runtime files).
 */
const char *rte_eal_get_runtime_dir(void);

/**
 * Log a critical message and exit the process with @p exit_code.
 */
__rte_noreturn void rte_exit(int exit_code, const char *format, ...)
		__rte_format_printf(2, 3);

/** @return the rtemem version string. */
const char *rte_version(void);

#ifdef __cplusplus
}
#endif

#endif /* _RTE_EAL_H_ */
