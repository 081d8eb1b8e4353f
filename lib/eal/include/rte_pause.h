/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _RTE_PAUSE_H_
#define _RTE_PAUSE_H_

/**
 * @file
 * A hint to the CPU inside spin loops.
 */

#ifdef __cplusplus
extern "C" {
#endif

/** Pause for a short time inside a busy-wait loop. */
static inline void
rte_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ volatile("yield" ::: "memory");
#endif
}

#ifdef __cplusplus
}
#endif

#endif /* _RTE_PAUSE_H_ */
