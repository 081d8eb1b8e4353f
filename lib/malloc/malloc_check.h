/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _MALLOC_CHECK_H_
#define _MALLOC_CHECK_H_

/*
 * The heap invariant checker, for tests and debug builds. It walks every
 * element of every heap under the heap locks.
 */

#include <stdbool.h>
#include <stddef.h>

/*
 * Check every heap: element links and sizes, no two free neighbours that
 * could be joined, free elements in the right free list, counters that
 * match the elements. With @p check_zero, also that every free element
 * marked clean is zero outside its header.
 *
 * @return 0, or -1 with the first problem in @p err.
 */
int malloc_heap_check_all(bool check_zero, char *err, size_t err_len);

#endif /* _MALLOC_CHECK_H_ */
