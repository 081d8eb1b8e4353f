/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _RTE_RANDOM_H_
#define _RTE_RANDOM_H_

/**
 * @file
 * Fast pseudo-random numbers (not for cryptography).
 *
 * Each thread has its own generator. Without rte_srand() each is seeded
 * from the system's entropy; after rte_srand(seed) every thread's sequence
 * depends only on the seed and the thread's lcore id, so a seeded test
 * repeats exactly.
 */

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Seed the generators of every thread: each thread starts again from a
 * sequence derived from @p seedval on its next rte_rand().
 */
void rte_srand(uint64_t seedval);

/** @return 64 pseudo-random bits. */
uint64_t rte_rand(void);

/**
 * @return a pseudo-random number in [0, @p upper_bound), every value
 *   equally likely; 0 if @p upper_bound is 0.
 */
uint64_t rte_rand_max(uint64_t upper_bound);

/** @return a pseudo-random double in [0, 1). */
double rte_drand(void);

#ifdef __cplusplus
}
#endif

#endif /* _RTE_RANDOM_H_ */
