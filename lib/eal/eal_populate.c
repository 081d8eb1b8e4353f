/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Population by several threads (eal_populate.h). Items are handed out
 * one at a time from a shared counter, so that a thread slowed by the
 * host does not hold the others up; the threads live as long as one run.
 */

#include <errno.h>
#include <pthread.h>
#include <string.h>

#include <rte_common.h>

#include "eal_log.h"
#include "eal_options.h"
#include "eal_populate.h"
#include "linux/eal_numa.h"

/* One run shared by its threads. */
struct populate_run {
	eal_populate_fn fn;
	void *arg;
	bool *done;
	unsigned int n;
	int socket;
	unsigned int next; /* the next item to take */
	int error; /* the first failure's, or 0 */
};

unsigned int
eal_populate_threads(const struct eal_options *opts, int socket)
{
	if (opts->populate_threads == EAL_POPULATE_THREADS_AUTO)
		return eal_numa_cpu_count(socket);
	return opts->populate_threads;
}

/* Take items until none is left or one failed. */
static void
populate_work(struct populate_run *r)
{
	unsigned int i;
	int ret, expected;

	while (__atomic_load_n(&r->error, __ATOMIC_RELAXED) == 0) {
		i = __atomic_fetch_add(&r->next, 1, __ATOMIC_RELAXED);
		if (i >= r->n)
			break;
		ret = r->fn(r->arg, i);
		if (ret == 0) {
			r->done[i] = true;
			continue;
		}
		/* Keep the first error: the others may be its echo. */
		expected = 0;
		__atomic_compare_exchange_n(&r->error, &expected, ret, false,
				__ATOMIC_RELAXED, __ATOMIC_RELAXED);
	}
}

static void *
populate_worker(void *arg)
{
	struct populate_run *r = arg;
	int ret = eal_numa_bind_thread(r->socket);

	/* Pages from another node are worse than no help: do nothing. */
	if (ret < 0) {
		EAL_LOG(WARNING,
				"a populate thread could not move to node %d: "
				"%s; its share goes to the others",
				r->socket, strerror(-ret));
		return NULL;
	}
	populate_work(r);
	return NULL;
}

unsigned int
eal_populate_run_threads(unsigned int threads, unsigned int n)
{
	unsigned int want = RTE_MIN(threads, n / EAL_POPULATE_MIN_PAGES);

	want = RTE_MIN(want, (unsigned int)EAL_POPULATE_THREADS_MAX);
	return want > 0 ? want : 1;
}

int
eal_populate_run(unsigned int threads, int socket, unsigned int n,
		eal_populate_fn fn, void *arg, bool *done)
{
	struct populate_run r = {
		.fn = fn, .arg = arg, .done = done, .n = n, .socket = socket
	};
	unsigned int want, started = 0, i;
	pthread_t tid[EAL_POPULATE_THREADS_MAX];
	int ret;

	memset(done, 0, n * sizeof(*done));
	want = eal_populate_run_threads(threads, n);
	for (i = 1; i < want; i++) {
		ret = pthread_create(&tid[started], NULL, populate_worker, &r);
		if (ret != 0) {
			EAL_LOG(WARNING,
					"cannot start populate thread %u of %u: "
					"%s; the others go on",
					i + 1, want, strerror(ret));
			break;
		}
		started++;
	}
	populate_work(&r);
	for (i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	if (started > 0)
		EAL_LOG(INFO, "%u pages for node %d on %u threads: %s", n,
				socket, started + 1,
				r.error == 0 ? "done" : strerror(-r.error));
	return r.error;
}
