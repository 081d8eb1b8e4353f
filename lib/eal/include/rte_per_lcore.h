/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _RTE_PER_LCORE_H_
#define _RTE_PER_LCORE_H_

/**
 * @file
 * Per-thread variables, with DPDK's macro names.
 */

/** Define a per-thread variable. */
#define RTE_DEFINE_PER_LCORE(type, name) \
	__thread __typeof__(type) per_lcore_##name
/** Declare a per-thread variable defined elsewhere. */
#define RTE_DECLARE_PER_LCORE(type, name) \
	extern __thread __typeof__(type) per_lcore_##name
/** Read or write a per-thread variable. */
#define RTE_PER_LCORE(name) (per_lcore_##name)

#endif /* _RTE_PER_LCORE_H_ */
