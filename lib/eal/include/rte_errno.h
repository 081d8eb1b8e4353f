/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _RTE_ERRNO_H_
#define _RTE_ERRNO_H_

/**
 * @file
 * The per-thread error number that rte_* functions set on failure.
 */

#include <rte_per_lcore.h>

#ifdef __cplusplus
extern "C" {
#endif

RTE_DECLARE_PER_LCORE(int, _rte_errno);

/** Error number of the last failed rte_* call in this thread. */
#define rte_errno RTE_PER_LCORE(_rte_errno)

/** First error number that rtemem defines beyond the system's. */
#define RTE_MIN_ERRNO 1000

enum {
	RTE_MIN_ERRNO_ = RTE_MIN_ERRNO,
	/** The operation is not allowed in a secondary process. */
	E_RTE_SECONDARY,
	/** The memory configuration is missing. */
	E_RTE_NO_CONFIG,
	RTE_MAX_ERRNO
};

/**
 * Describe an error number, the system's or rtemem's.
 *
 * @param errnum
 *   An errno or E_RTE_* value.
 * @return
 *   A string that stays valid until the next call in the same thread.
 */
const char *rte_strerror(int errnum);

#ifdef __cplusplus
}
#endif

#endif /* _RTE_ERRNO_H_ */
