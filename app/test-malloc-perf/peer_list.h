/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef PEER_LIST_H
#define PEER_LIST_H

/**
 * @file
 * The "list" peer of rtemem-malloc-perf --threads: no allocator, only a
 * list of free blocks per thread, as a measure of what the machine itself
 * gives a shape. An allocation pops the thread's list (or cuts the next
 * block of the thread's own region when it is empty); a free pushes the
 * block onto the list of the thread that frees it. It has no size
 * classes, headers, bounds or locks: nothing an allocator can do in the
 * same shape costs less, and what two threads gain over one with it is
 * what the CPUs and the memory give.
 */

#include "malloc_perf_threads.h"

/**
 * The list's calls: [0] plain, [1] zeroed (every block cleared with
 * memset(), as the list knows nothing of clean memory).
 */
extern const struct mt_alloc_ops peer_list_ops[2];

#endif /* PEER_LIST_H */
