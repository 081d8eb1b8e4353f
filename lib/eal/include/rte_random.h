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
 * depends only on the seed and the thread's lcore id (for a thread that is
 * not an lcore, on the order in which such threads first drew a number),
 * so a seeded test repeats exactly.
 */

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Seed the generators of every thread: each thread starts again from a
 * sequence derived from @p seedval on its next rte_rand().
 *
 * @param seedval
 *   The seed; the same seed gives the same sequences again.
 */
void rte_srand(uint64_t seedval);

/**
 * A pseudo-random number from the calling thread's generator.
 *
 * @return
 *   64 pseudo-random bits.
 */
uint64_t rte_rand(void);

/**
 * A pseudo-random number below a bound, without the bias of a modulo.
 *
 * @param upper_bound
 *   The bound.
 * @return
 *   A pseudo-random number in [0, @p upper_bound), every value equally
 *   likely; 0 if @p upper_bound is 0.
 */
uint64_t rte_rand_max(uint64_t upper_bound);

/**
 * A pseudo-random floating-point number.
 *
 * @return
 *   A double in [0, 1), a multiple of 2^-53, every one equally likely.
 */
double rte_drand(void);

#ifdef __cplusplus
}
#endif

#endif /* _RTE_RANDOM_H_ */
