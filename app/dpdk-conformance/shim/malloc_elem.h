/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _CONFORMANCE_MALLOC_ELEM_H_
#define _CONFORMANCE_MALLOC_ELEM_H_

/*
 * DPDK's test_memzone.c includes the internal malloc_elem.h for one
 * value: the bytes a heap element adds around its data, which the
 * largest free block loses when it becomes a memzone. rtemem's element
 * has a 64-byte header, and with its heap debug checks a 128-byte header
 * and a 64-byte trailer (lib/malloc/malloc_elem.h). The conformance
 * script defines CONFORMANCE_MALLOC_DEBUG for a -Dmalloc_debug=true build.
 */
#ifdef CONFORMANCE_MALLOC_DEBUG
#define MALLOC_ELEM_OVERHEAD (128 + 64)
#else
#define MALLOC_ELEM_OVERHEAD 64
#endif

#endif /* _CONFORMANCE_MALLOC_ELEM_H_ */
