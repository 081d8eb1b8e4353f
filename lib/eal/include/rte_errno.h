/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _RTE_ERRNO_H_
#define _RTE_ERRNO_H_

/**
 * @file
 * The per-thread error number that rte_* functions set on failure.
 */

/* The E* values rte_errno is compared with, as with DPDK's headers. */
#include <errno.h>

#include <rte_per_lcore.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The storage behind rte_errno: use rte_errno, not this name. */
RTE_DECLARE_PER_LCORE(int, _rte_errno);

/** Error number of the last failed rte_* call in this thread. */
#define rte_errno RTE_PER_LCORE(_rte_errno)

/** First error number that rtemem defines beyond the system's. */
#define RTE_MIN_ERRNO 1000

/** Error numbers of rtemem, beyond the system's. */
enum {
	/** Placeholder so that the next value is RTE_MIN_ERRNO + 1. */
	RTE_MIN_ERRNO_ = RTE_MIN_ERRNO,
	/** The operation is not allowed in a secondary process. */
	E_RTE_SECONDARY,
	/** The memory configuration is missing. */
	E_RTE_NO_CONFIG,
	/** One past the last error number of rtemem. */
	RTE_MAX_ERRNO
};

/**
 * Describe an error number, the system's or rtemem's, for a message.
 *
 * @param errnum
 *   An errno or E_RTE_* value, such as rte_errno after a failed call.
 * @return
 *   A string that stays valid until the next call in the same thread.
 */
const char *rte_strerror(int errnum);

#ifdef __cplusplus
}
#endif

#endif /* _RTE_ERRNO_H_ */
