/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _MALLOC_IMAGE_THREADS_H_
#define _MALLOC_IMAGE_THREADS_H_

/*
 * Work shared by a few threads (save, verify): each takes items from a
 * common counter until none is left, and the first failure, wherever it
 * happens, is the one reported, with its message.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_common.h>

/* The first failure of a group of threads. */
struct malloc_image_err {
	int code; /* 0, or the negative errno of the first failure */
	int done; /* 1 once msg is written */
	char msg[512];
};

/*
 * Record failure @p code (a negative errno) with a message, unless one
 * was recorded first.
 *
 * @return @p code.
 */
int malloc_image_err(struct malloc_image_err *e, int code, const char *fmt, ...)
		__rte_format_printf(3, 4);

/* Whether a failure was recorded. */
bool malloc_image_err_set(const struct malloc_image_err *e);

/* Copy the message of the failure recorded into @p err (may be NULL). */
void malloc_image_err_copy(
		const struct malloc_image_err *e, char *err, size_t len);

/*
 * Format a message into @p err (may be NULL) for failure @p code.
 *
 * @return @p code.
 */
int malloc_image_err_out(char *err, size_t len, int code, const char *fmt, ...)
		__rte_format_printf(4, 5);

/*
 * Run @p fn(@p arg) in @p n threads, the caller being one of them (0: one
 * per online CPU, up to 8), but never more than @p items of them, and
 * wait for all. A thread that cannot be created leaves its share to the
 * others.
 *
 * @return the threads that ran.
 */
unsigned int malloc_image_threads_run(
		unsigned int n, uint64_t items, void *(*fn)(void *), void *arg);

#endif /* _MALLOC_IMAGE_THREADS_H_ */
