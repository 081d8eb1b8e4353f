/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _RTE_DEBUG_H_
#define _RTE_DEBUG_H_

/**
 * @file
 * Fatal errors and run-time checks.
 */

#include <rte_common.h>
#include <rte_log.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Log "PANIC in FUNC():" and the message at RTE_LOG_CRIT, then abort().
 * Use rte_panic(), which fills in @p funcname.
 *
 * @param funcname
 *   The name of the calling function.
 * @param format
 *   The message, a format string, as for printf.
 * @param ...
 *   The values of the format's conversions.
 */
__rte_noreturn void __rte_panic(const char *funcname, const char *format, ...)
		__rte_format_printf(2, 3);

/**
 * Log a message and abort the process: for states that cannot happen.
 * The format usually ends with a newline, as with RTE_LOG().
 */
#define rte_panic(...) __rte_panic(__func__, __VA_ARGS__)

/** Panic if @p exp is false, in every build. */
#define RTE_VERIFY(exp) \
	do { \
		if (unlikely(!(exp))) \
			rte_panic("line %d\tassert \"%s\" failed\n", __LINE__, \
					#exp); \
	} while (0)

/**
 * Panic if @p exp is false, in builds with RTE_ENABLE_ASSERT defined;
 * otherwise @p exp is not evaluated.
 */
#ifdef RTE_ENABLE_ASSERT
#define RTE_ASSERT(exp) RTE_VERIFY(exp)
#else
#define RTE_ASSERT(exp) \
	do { \
		(void)sizeof(!(exp)); \
	} while (0)
#endif

#ifdef __cplusplus
}
#endif

#endif /* _RTE_DEBUG_H_ */
