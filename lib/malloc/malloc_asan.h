/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _MALLOC_ASAN_H_
#define _MALLOC_ASAN_H_

/*
 * The sanitizer hooks, in one place. In an ASan build the heap poisons
 * what the application must not touch (free memory, headers' slack,
 * bytes past the requested size) so that use-after-free and overflows in
 * heap memory are reported. Element headers stay addressable: the heap
 * reads them. Elsewhere the hooks compile to nothing.
 *
 * Shadow memory is per process, so once a secondary process shares the
 * heaps nobody poisons any more: a block one process freed and another
 * allocated would otherwise stay poisoned in the first. The memory layer
 * lifts each process's poison then (eal_mp.c).
 */

#include <stdbool.h>
#include <stddef.h>

#if defined(__SANITIZE_ADDRESS__)
#define MALLOC_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MALLOC_ASAN 1
#endif
#endif

#ifdef MALLOC_ASAN
#include "eal_memcfg.h"

void __asan_poison_memory_region(void const volatile *addr, size_t size);
void __asan_unpoison_memory_region(void const volatile *addr, size_t size);

static inline void
malloc_asan_poison(const void *addr, size_t len)
{
	const struct rte_mem_config *mcfg = eal_mcfg_get();

	if (mcfg == NULL ||
			!__atomic_load_n(&mcfg->mp_shared, __ATOMIC_ACQUIRE))
		__asan_poison_memory_region(addr, len);
}

static inline void
malloc_asan_unpoison(const void *addr, size_t len)
{
	__asan_unpoison_memory_region(addr, len);
}

static inline bool
malloc_asan_enabled(void)
{
	return true;
}
#else
static inline void
malloc_asan_poison(const void *addr, size_t len)
{
	(void)addr;
	(void)len;
}

static inline void
malloc_asan_unpoison(const void *addr, size_t len)
{
	(void)addr;
	(void)len;
}

static inline bool
malloc_asan_enabled(void)
{
	return false;
}
#endif

#endif /* _MALLOC_ASAN_H_ */
