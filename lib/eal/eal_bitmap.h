/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _EAL_BITMAP_H_
#define _EAL_BITMAP_H_

/* Bit arrays in 64-bit words, bit i in word i / 64. */

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>

/* Words needed for @p n bits. */
static inline size_t
eal_bitmap_words(size_t n)
{
	return (n + 63) / 64;
}

/* @return bit @p i of @p bm. */
static inline bool
eal_bitmap_get(const uint64_t *bm, unsigned int i)
{
	return (bm[i / 64] >> (i % 64)) & 1;
}

/* Set bits [idx, idx + n) of @p bm to @p v. */
static inline void
eal_bitmap_set_range(uint64_t *bm, unsigned int idx, unsigned int n, bool v)
{
	unsigned int i;

	for (i = idx; i < idx + n; i++) {
		if (v)
			bm[i / 64] |= RTE_BIT64(i % 64);
		else
			bm[i / 64] &= ~RTE_BIT64(i % 64);
	}
}

/*
 * Bit @p i of @p bm, and setting it to @p v, where other threads may set
 * other bits of the same word at the same time.
 */
static inline bool
eal_bitmap_get_atomic(const uint64_t *bm, unsigned int i)
{
	return (__atomic_load_n(&bm[i / 64], __ATOMIC_ACQUIRE) >> (i % 64)) & 1;
}

static inline void
eal_bitmap_set_atomic(uint64_t *bm, unsigned int i, bool v)
{
	if (v)
		__atomic_fetch_or(&bm[i / 64], RTE_BIT64(i % 64),
				__ATOMIC_RELEASE);
	else
		__atomic_fetch_and(&bm[i / 64], ~RTE_BIT64(i % 64),
				__ATOMIC_RELEASE);
}

#endif /* _EAL_BITMAP_H_ */
