/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _RTE_CYCLES_H_
#define _RTE_CYCLES_H_

/**
 * @file
 * The CPU time-stamp counter, its rate, and busy-wait delays.
 *
 * The timer of rte_get_timer_cycles() is the TSC. Its rate is measured
 * on the first call of rte_get_tsc_hz(), not at rte_eal_init(): start-up
 * does not pay for it.
 */

#include <stdint.h>

#include <rte_common.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MS_PER_S 1000 /**< milliseconds per second */
#define US_PER_S 1000000 /**< microseconds per second */
#define NS_PER_S 1000000000 /**< nanoseconds per second */

#if !defined(__x86_64__) && !defined(__i386__)
#error "rtemem reads the x86 time-stamp counter: port rte_cycles.h"
#endif

/** @return the time-stamp counter (not ordered with other loads). */
static inline uint64_t
rte_rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

/**
 * @return the time-stamp counter, read after every earlier instruction
 *   completed (for timing a piece of code).
 */
static inline uint64_t
rte_rdtsc_precise(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return (uint64_t)hi << 32 | lo;
}

/** @return the time-stamp counter (the same as rte_rdtsc()). */
static inline uint64_t
rte_get_tsc_cycles(void)
{
	return rte_rdtsc();
}

/**
 * The rate of the time-stamp counter.
 *
 * The first call takes up to about 10 ms (it measures the rate unless
 * CPUID tells it); later calls return the cached value. It may be called
 * before rte_eal_init() and from any thread.
 *
 * @return
 *   Ticks per second (0 only if the measurement failed).
 */
uint64_t rte_get_tsc_hz(void);

/** @return the timer's cycles: the time-stamp counter. */
static inline uint64_t
rte_get_timer_cycles(void)
{
	return rte_get_tsc_cycles();
}

/** @return the timer's rate in Hz: the time-stamp counter's. */
static inline uint64_t
rte_get_timer_hz(void)
{
	return rte_get_tsc_hz();
}

/**
 * Wait by spinning on the time-stamp counter: precise, but the CPU does
 * nothing else meanwhile. The first call may also measure the counter's
 * rate (see rte_get_tsc_hz()).
 *
 * @param us
 *   Microseconds to wait.
 */
void rte_delay_us_block(unsigned int us);

/**
 * Wait by sleeping in the kernel, which lets other threads use the CPU.
 * A signal does not cut the wait short.
 *
 * @param us
 *   Microseconds to wait, at least.
 */
void rte_delay_us_sleep(unsigned int us);

/**
 * Wait for a while: rte_delay_us_block(), as DPDK's default.
 *
 * @param us
 *   Microseconds to wait.
 */
void rte_delay_us(unsigned int us);

/**
 * Wait for a while, spinning as rte_delay_us() does.
 *
 * @param ms
 *   Milliseconds to wait; @p ms * 1000 must fit in an unsigned int.
 */
static inline void
rte_delay_ms(unsigned int ms)
{
	rte_delay_us(ms * 1000);
}

#ifdef __cplusplus
}
#endif

#endif /* _RTE_CYCLES_H_ */
