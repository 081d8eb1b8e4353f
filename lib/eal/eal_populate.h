/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _EAL_POPULATE_H_
#define _EAL_POPULATE_H_

/*
 * New pages mapped by several threads at once (--populate-threads).
 *
 * The kernel clears a hugepage when it first allocates it, about 0.1 s
 * per GB per CPU: a cold start of a terabyte takes minutes on one
 * thread. The work of a run of pages is split by page among the calling
 * thread and workers started for that run, each bound to the CPUs of the
 * node the pages are for and preferring that node for new pages (QEMU's
 * prealloc-threads does the same for a guest's memory). Workers are
 * started only when each gets EAL_POPULATE_MIN_PAGES or more, so that a
 * small growth of the heap costs no thread.
 *
 * The item function reports errors (no fault can raise SIGBUS: pages are
 * allocated with fallocate() and faulted in with MADV_POPULATE_WRITE),
 * and the first failure stops every thread from taking more items: the
 * caller undoes exactly the items that succeeded.
 */

#include <stdbool.h>
#include <stdint.h>

struct eal_options;

/* Fewest pages a worker is started for. */
#define EAL_POPULATE_MIN_PAGES 8

/* Map item @p i (a page of the run); 0 or -errno. Called concurrently. */
typedef int (*eal_populate_fn)(void *arg, unsigned int i);

/*
 * How many threads populate pages of node @p socket: --populate-threads,
 * or with auto the CPUs of that node the process may use.
 */
unsigned int eal_populate_threads(const struct eal_options *opts, int socket);

/*
 * How many threads, the caller's included, eal_populate_run() would use
 * for @p n items with @p threads asked for.
 */
unsigned int eal_populate_run_threads(unsigned int threads, unsigned int n);

/*
 * Call @p fn on items 0 to @p n - 1, each once, on up to @p threads
 * threads (the caller's included) bound to node @p socket, until one
 * fails. @p done[i] is set to true for each item that succeeded (and only
 * for those).
 *
 * @return 0 if every item succeeded, else the error of a failed item.
 */
int eal_populate_run(unsigned int threads, int socket, unsigned int n,
		eal_populate_fn fn, void *arg, bool *done);

#endif /* _EAL_POPULATE_H_ */
