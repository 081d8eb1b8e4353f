/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/* Threads sharing a piece of image work (malloc_image_threads.h). */

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include <rte_common.h>

#include "malloc_image_threads.h"

#define IMAGE_THREADS_MAX 64U
#define IMAGE_THREADS_DEFAULT 8U

int
malloc_image_err(struct malloc_image_err *e, int code, const char *fmt, ...)
{
	int zero = 0;
	va_list ap;

	if (!__atomic_compare_exchange_n(&e->code, &zero, code, false,
			    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return code;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	__atomic_store_n(&e->done, 1, __ATOMIC_RELEASE);
	return code;
}

bool
malloc_image_err_set(const struct malloc_image_err *e)
{
	return __atomic_load_n(&e->code, __ATOMIC_ACQUIRE) != 0;
}

void
malloc_image_err_copy(const struct malloc_image_err *e, char *err, size_t len)
{
	if (err != NULL && len > 0)
		snprintf(err, len, "%s",
				__atomic_load_n(&e->done, __ATOMIC_ACQUIRE) ?
						e->msg :
						"unknown error");
}

int
malloc_image_err_out(char *err, size_t len, int code, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL || len == 0)
		return code;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return code;
}

unsigned int
malloc_image_threads_run(
		unsigned int n, uint64_t items, void *(*fn)(void *), void *arg)
{
	pthread_t tid[IMAGE_THREADS_MAX];
	unsigned int started = 0, i;
	long cpus;

	if (n == 0) {
		cpus = sysconf(_SC_NPROCESSORS_ONLN);
		n = cpus < 1 ? 1 :
			       RTE_MIN((unsigned int)cpus,
					       IMAGE_THREADS_DEFAULT);
	}
	n = RTE_MIN(n, IMAGE_THREADS_MAX);
	if (items < n)
		n = items == 0 ? 1 : (unsigned int)items;
	for (i = 1; i < n; i++)
		if (pthread_create(&tid[started], NULL, fn, arg) == 0)
			started++;
	fn(arg);
	for (i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	return started + 1;
}
