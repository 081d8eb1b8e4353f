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

/** Mark a variable or parameter that may be unused: no compiler warning. */
#define __rte_unused __attribute__((__unused__))
/** Keep a function or variable in the object even if nothing uses it. */
#define __rte_used __attribute__((used))
/** Lay out a struct or union without padding between its members. */
#define __rte_packed __attribute__((__packed__))
/** Align a type or variable to @p a bytes (a power of two). */
#define __rte_aligned(a) __attribute__((__aligned__(a)))
/** Align a type or variable to a cache line (RTE_CACHE_LINE_SIZE). */
#define __rte_cache_aligned __rte_aligned(RTE_CACHE_LINE_SIZE)
/** Inline a function always, also in builds without optimization. */
#define __rte_always_inline inline __attribute__((always_inline))
/** Never inline a function. */
#define __rte_noinline __attribute__((noinline))
/** The function does not return (it exits or aborts the process). */
#define __rte_noreturn __attribute__((noreturn))
/** A weak definition: a normal definition elsewhere replaces it. */
#define __rte_weak __attribute__((__weak__))
/**
 * Have the compiler check the arguments of a printf-like function.
 * @p fmt is the position of the format parameter (from 1), @p args that
 * of the first variadic argument (0 when the function takes a va_list).
 */
#define __rte_format_printf(fmt, args) \
	__attribute__((format(printf, fmt, args)))
/** Warn when a caller ignores the function's return value. */
#define __rte_warn_unused_result __attribute__((warn_unused_result))
/** Kept for source compatibility: rtemem has no experimental symbols. */
#define __rte_experimental
/**
 * Kept for source compatibility: expands to nothing (the version script
 * of each library decides what is exported).
 */
#define __rte_internal
/**
 * Leave a function out of AddressSanitizer's checks, for code that must
 * read memory the sanitizer holds poisoned. Empty when the compiler
 * cannot say whether the sanitizer is on.
 */
#if defined(__SANITIZE_ADDRESS__) || defined(__has_feature)
#define __rte_no_asan __attribute__((no_sanitize_address))
#else
#define __rte_no_asan
#endif

/** Mark @p x as used, to silence an unused variable warning. */
#define RTE_SET_USED(x) (void)(x)
/** Helper of RTE_STR(): @p x as a string literal, not macro-expanded. */
#define RTE_STR_(x) #x
/** @p x, after macro expansion, as a string literal. */
#define RTE_STR(x) RTE_STR_(x)
/** Number of elements of array @p a (an array, not a pointer). */
#define RTE_DIM(a) (sizeof(a) / sizeof((a)[0]))
/** A uint32_t with bit @p n (0 to 31) set. */
#define RTE_BIT32(n) (UINT32_C(1) << (n))
/** A uint64_t with bit @p n (0 to 63) set. */
#define RTE_BIT64(n) (UINT64_C(1) << (n))

/** The smaller of @p a and @p b; each is evaluated once. */
#define RTE_MIN(a, b) \
	__extension__({ \
		__typeof__(a) _a = (a); \
		__typeof__(b) _b = (b); \
		_a < _b ? _a : _b; \
	})
/** The larger of @p a and @p b; each is evaluated once. */
#define RTE_MAX(a, b) \
	__extension__({ \
		__typeof__(a) _a = (a); \
		__typeof__(b) _b = (b); \
		_a > _b ? _a : _b; \
	})

/** @p ptr moved forward by @p x bytes, as a void pointer. */
#define RTE_PTR_ADD(ptr, x) ((void *)((uintptr_t)(ptr) + (x)))
/** @p ptr moved back by @p x bytes, as a void pointer. */
#define RTE_PTR_SUB(ptr, x) ((void *)((uintptr_t)(ptr) - (x)))
/** The number of bytes from @p ptr2 up to @p ptr1, as a uintptr_t. */
#define RTE_PTR_DIFF(ptr1, ptr2) ((uintptr_t)(ptr1) - (uintptr_t)(ptr2))

/** Round @p val down to a multiple of @p align (a power of two). */
#define RTE_ALIGN_FLOOR(val, align) \
	(__typeof__(val))((val) & (~((__typeof__(val))((align)-1))))
/** Round @p val up to a multiple of @p align (a power of two). */
#define RTE_ALIGN_CEIL(val, align) \
	RTE_ALIGN_FLOOR(((val) + ((__typeof__(val))(align)-1)), align)
/** Round @p val up to a multiple of @p align: RTE_ALIGN_CEIL(). */
#define RTE_ALIGN(val, align) RTE_ALIGN_CEIL(val, align)
/** Round @p v up to a multiple of @p mul, which need not be a power of 2. */
#define RTE_ALIGN_MUL_CEIL(v, mul) \
	((((v) + (__typeof__(v))(mul)-1) / ((__typeof__(v))(mul))) * (mul))
/**
 * Round pointer @p ptr down to a multiple of @p align (a power of two),
 * keeping the type of @p ptr.
 */
#define RTE_PTR_ALIGN_FLOOR(ptr, align) \
	((__typeof__(ptr))RTE_ALIGN_FLOOR((uintptr_t)(ptr), align))
/**
 * Round pointer @p ptr up to a multiple of @p align (a power of two),
 * keeping the type of @p ptr.
 */
#define RTE_PTR_ALIGN_CEIL(ptr, align) \
	RTE_PTR_ALIGN_FLOOR((__typeof__(ptr))RTE_PTR_ADD(ptr, (align)-1), align)
/** Round pointer @p ptr up to @p align: RTE_PTR_ALIGN_CEIL(). */
#define RTE_PTR_ALIGN(ptr, align) RTE_PTR_ALIGN_CEIL(ptr, align)

/** The bits of an address that give its offset in a cache line. */
#define RTE_CACHE_LINE_MASK (RTE_CACHE_LINE_SIZE - 1)
/** Round @p size up to a whole number of cache lines. */
#define RTE_CACHE_LINE_ROUNDUP(size) RTE_ALIGN_CEIL(size, RTE_CACHE_LINE_SIZE)
/** The smallest cache line size of the CPUs DPDK supports, in bytes. */
#define RTE_CACHE_LINE_MIN_SIZE 64

/**
 * Stop the compilation if @p condition, a constant expression, is true.
 * It is a static assertion, so it may also stand outside a function.
 */
#define RTE_BUILD_BUG_ON(condition) _Static_assert(!(condition), #condition)

/** Tell the compiler that @p x is usually true, to lay out the branch. */
#define likely(x) __builtin_expect(!!(x), 1)
/** Tell the compiler that @p x is usually false, to lay out the branch. */
#define unlikely(x) __builtin_expect(!!(x), 0)

/**
 * Define a function @p func(void) that runs before main(), ordered by
 * @p prio: a constant from 101 (first) to 65535, see RTE_PRIORITY_LOG.
 * The function body follows the macro.
 */
#define RTE_INIT_PRIO(func, prio) \
	static void __attribute__((constructor(prio), used)) func(void)
/**
 * Define a function @p func(void) that runs before main(), in no
 * particular order between compilation units.
 */
#define RTE_INIT(func) static void __attribute__((constructor, used)) func(void)
/** Define a function @p func(void) that runs when the process exits. */
#define RTE_FINI(func) static void __attribute__((destructor, used)) func(void)

/** RTE_INIT_PRIO() priority of log type registration, as in DPDK. */
#define RTE_PRIORITY_LOG 101
/** RTE_INIT_PRIO() priority of bus registration, as in DPDK. */
#define RTE_PRIORITY_BUS 110
/** RTE_INIT_PRIO() priority of device class registration, as in DPDK. */
#define RTE_PRIORITY_CLASS 120
/** RTE_INIT_PRIO() priority that runs after all the others. */
#define RTE_PRIORITY_LAST 65535

/**
 * Check whether a number is a power of two.
 *
 * @param n
 *   The number.
 * @return
 *   1 if @p n is a power of two, 0 otherwise (also for 0).
 */
static inline int
rte_is_power_of_2(uint64_t n)
{
	return n && !(n & (n - 1));
}

/**
 * Check the alignment of a pointer.
 *
 * @param ptr
 *   The pointer.
 * @param align
 *   The alignment in bytes, a power of two.
 * @return
 *   1 if @p ptr is a multiple of @p align, 0 otherwise.
 */
static inline int
rte_is_aligned(const void *ptr, unsigned int align)
{
	return ((uintptr_t)ptr & (align - 1)) == 0;
}

/**
 * Round a 64-bit number up to a power of two.
 *
 * @param v
 *   The number, at most 2^63.
 * @return
 *   The smallest power of two >= @p v, or 0 if @p v is 0.
 */
static inline uint64_t
rte_align64pow2(uint64_t v)
{
	if (v <= 1)
		return v;
	return UINT64_C(1) << (64 - __builtin_clzll(v - 1));
}

/**
 * Round a 32-bit number up to a power of two.
 *
 * @param v
 *   The number, at most 2^31.
 * @return
 *   The smallest power of two >= @p v, or 0 if @p v is 0.
 */
static inline uint32_t
rte_align32pow2(uint32_t v)
{
	if (v <= 1)
		return v;
	return UINT32_C(1) << (32 - __builtin_clz(v - 1));
}

/**
 * Base 2 logarithm, rounded up: the exponent of rte_align64pow2(@p v).
 *
 * @param v
 *   The number.
 * @return
 *   The smallest n with 2^n >= @p v; 0 if @p v is 0 or 1.
 */
static inline uint32_t
rte_log2_u64(uint64_t v)
{
	if (v <= 1)
		return 0;
	return 64 - __builtin_clzll(v - 1);
}

/**
 * Count the trailing zero bits of a 64-bit number.
 *
 * @param v
 *   The number; must not be 0 (the result is then undefined).
 * @return
 *   The index of the least significant set bit of @p v.
 */
static inline uint32_t
rte_ctz64(uint64_t v)
{
	return (uint32_t)__builtin_ctzll(v);
}

/**
 * Convert a size string, such as an option value, to bytes, as DPDK does.
 *
 * Leading white space is skipped. The number is read as by strtoull() with
 * base 0: hexadecimal after "0x", octal after a leading "0" ("0200" is
 * 128), decimal otherwise. One space may separate it from a suffix K, M,
 * G, T, P or E (either case) that multiplies it by 2^10 ... 2^60; what
 * follows the suffix, or a number without one, is ignored ("3MB" is 3
 * MiB).
 *
 * @param str
 *   The string.
 * @return
 *   The size in bytes, or 0 if @p str is NULL, is negative, has no
 *   number, or gives a size that does not fit in 64 bits (DPDK returns
 *   the value truncated to 64 bits then).
 */
uint64_t rte_str_to_size(const char *str);

/** Bytes in a kibibyte. */
#define RTE_KB 1024ULL
/** Bytes in a mebibyte. */
#define RTE_MB (1024ULL * 1024)
/** Bytes in a gibibyte. */
#define RTE_GB (1024ULL * 1024 * 1024)

#ifdef __cplusplus
}
#endif

#endif /* _RTE_COMMON_H_ */
