/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _RTE_COMMON_H_
#define _RTE_COMMON_H_

/**
 * @file
 * Macros and small inline helpers shared by every rtemem header, with
 * DPDK's names.
 */

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#include <rte_config.h>

#ifdef __cplusplus
extern "C" {
#endif

#define __rte_unused __attribute__((__unused__))
#define __rte_used __attribute__((used))
#define __rte_packed __attribute__((__packed__))
#define __rte_aligned(a) __attribute__((__aligned__(a)))
#define __rte_cache_aligned __rte_aligned(RTE_CACHE_LINE_SIZE)
#define __rte_always_inline inline __attribute__((always_inline))
#define __rte_noinline __attribute__((noinline))
#define __rte_noreturn __attribute__((noreturn))
#define __rte_weak __attribute__((__weak__))
#define __rte_format_printf(fmt, args) \
	__attribute__((format(printf, fmt, args)))
#define __rte_warn_unused_result __attribute__((warn_unused_result))
/** Kept for source compatibility: rtemem has no experimental symbols. */
#define __rte_experimental
#define __rte_internal
#if defined(__SANITIZE_ADDRESS__) || defined(__has_feature)
#define __rte_no_asan __attribute__((no_sanitize_address))
#else
#define __rte_no_asan
#endif

#define RTE_SET_USED(x) (void)(x)
#define RTE_STR_(x) #x
#define RTE_STR(x) RTE_STR_(x)
#define RTE_DIM(a) (sizeof(a) / sizeof((a)[0]))
#define RTE_BIT32(n) (UINT32_C(1) << (n))
#define RTE_BIT64(n) (UINT64_C(1) << (n))

#define RTE_MIN(a, b) \
	__extension__({ \
		__typeof__(a) _a = (a); \
		__typeof__(b) _b = (b); \
		_a < _b ? _a : _b; \
	})
#define RTE_MAX(a, b) \
	__extension__({ \
		__typeof__(a) _a = (a); \
		__typeof__(b) _b = (b); \
		_a > _b ? _a : _b; \
	})

#define RTE_PTR_ADD(ptr, x) ((void *)((uintptr_t)(ptr) + (x)))
#define RTE_PTR_SUB(ptr, x) ((void *)((uintptr_t)(ptr) - (x)))
#define RTE_PTR_DIFF(ptr1, ptr2) ((uintptr_t)(ptr1) - (uintptr_t)(ptr2))

/** Round @p val down to a multiple of @p align (a power of two). */
#define RTE_ALIGN_FLOOR(val, align) \
	(__typeof__(val))((val) & (~((__typeof__(val))((align)-1))))
/** Round @p val up to a multiple of @p align (a power of two). */
#define RTE_ALIGN_CEIL(val, align) \
	RTE_ALIGN_FLOOR(((val) + ((__typeof__(val))(align)-1)), align)
#define RTE_ALIGN(val, align) RTE_ALIGN_CEIL(val, align)
#define RTE_ALIGN_MUL_CEIL(v, mul) \
	((((v) + (__typeof__(v))(mul)-1) / ((__typeof__(v))(mul))) * (mul))
#define RTE_PTR_ALIGN_FLOOR(ptr, align) \
	((__typeof__(ptr))RTE_ALIGN_FLOOR((uintptr_t)(ptr), align))
#define RTE_PTR_ALIGN_CEIL(ptr, align) \
	RTE_PTR_ALIGN_FLOOR((__typeof__(ptr))RTE_PTR_ADD(ptr, (align)-1), align)
#define RTE_PTR_ALIGN(ptr, align) RTE_PTR_ALIGN_CEIL(ptr, align)

#define RTE_CACHE_LINE_MASK (RTE_CACHE_LINE_SIZE - 1)
#define RTE_CACHE_LINE_ROUNDUP(size) RTE_ALIGN_CEIL(size, RTE_CACHE_LINE_SIZE)
#define RTE_CACHE_LINE_MIN_SIZE 64

#define RTE_BUILD_BUG_ON(condition) _Static_assert(!(condition), #condition)

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

/** Run @p func before main(), in no particular order between units. */
#define RTE_INIT_PRIO(func, prio) \
	static void __attribute__((constructor(prio), used)) func(void)
#define RTE_INIT(func) static void __attribute__((constructor, used)) func(void)
#define RTE_FINI(func) static void __attribute__((destructor, used)) func(void)

#define RTE_PRIORITY_LOG 101
#define RTE_PRIORITY_BUS 110
#define RTE_PRIORITY_CLASS 120
#define RTE_PRIORITY_LAST 65535

/** @return true if @p n is a non-zero power of two. */
static inline int
rte_is_power_of_2(uint64_t n)
{
	return n && !(n & (n - 1));
}

/** @return true if @p ptr is aligned to @p align (a power of two). */
static inline int
rte_is_aligned(const void *ptr, unsigned int align)
{
	return ((uintptr_t)ptr & (align - 1)) == 0;
}

/** @return the smallest power of two >= @p v (0 for 0). */
static inline uint64_t
rte_align64pow2(uint64_t v)
{
	if (v <= 1)
		return v;
	return UINT64_C(1) << (64 - __builtin_clzll(v - 1));
}

/** @return the smallest power of two >= @p v (0 for 0). */
static inline uint32_t
rte_align32pow2(uint32_t v)
{
	if (v <= 1)
		return v;
	return UINT32_C(1) << (32 - __builtin_clz(v - 1));
}

/** @return log2 of @p v rounded up. */
static inline uint32_t
rte_log2_u64(uint64_t v)
{
	if (v <= 1)
		return 0;
	return 64 - __builtin_clzll(v - 1);
}

/** @return the index of the least significant set bit of @p v. */
static inline uint32_t
rte_ctz64(uint64_t v)
{
	return (uint32_t)__builtin_ctzll(v);
}

/**
 * Convert a size string with an optional K, M, G or T suffix to bytes.
 *
 * @return
 *   The size, or 0 if @p str is not a number or the size overflows.
 */
uint64_t rte_str_to_size(const char *str);

#define RTE_KB 1024ULL
#define RTE_MB (1024ULL * 1024)
#define RTE_GB (1024ULL * 1024 * 1024)

#ifdef __cplusplus
}
#endif

#endif /* _RTE_COMMON_H_ */
