/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _HUGETEXT_COPY_H_
#define _HUGETEXT_COPY_H_

#include <stdint.h>
#include <string.h>

/*
 * Under AddressSanitizer, memcpy() checks its source against the red
 * zones the compiler puts between globals; those are part of .data all
 * the same, and must be copied. The copy then reads words itself,
 * through volatile so that the compiler does not turn the loop back into
 * memcpy(). Only the sanitizer builds pay for it.
 */
#if defined(__SANITIZE_ADDRESS__)
#define HT_COPY_UNCHECKED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HT_COPY_UNCHECKED 1
#endif
#endif

#ifdef HT_COPY_UNCHECKED
__attribute__((no_sanitize_address)) static inline void
ht_copy(void *dst, const void *src, size_t len)
{
	const volatile uint64_t *s = src;
	uint64_t *d = dst;
	size_t i;

	/* Page aligned and sized: whole words. */
	for (i = 0; i < len / sizeof(*d); i++)
		d[i] = s[i];
}
#else
static inline void
ht_copy(void *dst, const void *src, size_t len)
{
	memcpy(dst, src, len);
}
#endif

#endif /* _HUGETEXT_COPY_H_ */
