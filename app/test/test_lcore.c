/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Lcores and launching, on the running EAL: each worker runs what it is
 * given on its own CPU with its own lcore id, results come back through
 * rte_eal_wait_lcore(), a busy worker refuses a launch, and the lcore and
 * NUMA queries agree with each other. Cases that need a worker skip when
 * the EAL runs with one lcore.
 */

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_pause.h>

#include "eal_lcore.h"
#include "eal_sys.h"
#include "test.h"

/* What a function saw on the lcore that ran it. */
struct lcore_probe {
	unsigned int lcore_id; /* rte_lcore_id() there */
	int cpu; /* sched_getcpu() there */
	unsigned int socket_id; /* rte_socket_id() there */
	int runs; /* times the function ran for this slot */
};

static struct lcore_probe probes[RTE_MAX_LCORE];

static int
probe_lcore(void *arg)
{
	struct lcore_probe *p = arg;

	p->lcore_id = rte_lcore_id();
	p->cpu = sched_getcpu();
	p->socket_id = rte_socket_id();
	__atomic_fetch_add(&p->runs, 1, __ATOMIC_RELAXED);
	/* A distinct value per lcore proves wait returns this call's. */
	return 1000 + (int)p->lcore_id;
}

/* Probe into the calling lcore's own slot (for mp launches). */
static int
probe_self(void *arg)
{
	RTE_SET_USED(arg);
	return probe_lcore(&probes[rte_lcore_id()]);
}

static int
need_worker(void)
{
	if (rte_lcore_count() < 2) {
		printf("one lcore only: run with -l listing two CPUs\n");
		return TEST_SKIPPED;
	}
	return TEST_SUCCESS;
}

static int
test_lcore_main(void)
{
	unsigned int main_id = rte_get_main_lcore();

	TEST_ASSERT(rte_lcore_count() >= 1, "no lcore enabled");
	TEST_ASSERT_EQUAL(rte_lcore_id(), main_id,
			"main thread has lcore id %u, main lcore is %u",
			rte_lcore_id(), main_id);
	TEST_ASSERT(rte_lcore_is_enabled(main_id), "main lcore not enabled");
	TEST_ASSERT_EQUAL(rte_lcore_index(-1), 0,
			"main lcore index %d, expected 0 (first of -l)",
			rte_lcore_index(-1));
	TEST_ASSERT_EQUAL(rte_lcore_index(main_id), 0, "index of main lcore");
	TEST_ASSERT_EQUAL(sched_getcpu(), rte_lcore_to_cpu_id(main_id),
			"main thread runs on CPU %d, not its lcore's CPU %d",
			sched_getcpu(), rte_lcore_to_cpu_id(main_id));
	TEST_ASSERT_EQUAL(rte_lcore_index(RTE_MAX_LCORE), -1,
			"index of an lcore id out of range");
	TEST_ASSERT_EQUAL(rte_lcore_to_cpu_id(RTE_MAX_LCORE), -1,
			"CPU of an lcore id out of range");
	TEST_ASSERT_EQUAL(
			rte_eal_remote_launch(probe_lcore, &probes[0], main_id),
			-EINVAL, "launch on the main lcore accepted");
	TEST_ASSERT_EQUAL(rte_eal_remote_launch(probe_lcore, &probes[0],
					  RTE_MAX_LCORE),
			-EINVAL, "launch on lcore RTE_MAX_LCORE");
	return TEST_SUCCESS;
}

static int
test_lcore_remote_launch(void)
{
	unsigned int id;
	int ret;

	memset(probes, 0, sizeof(probes));
	RTE_LCORE_FOREACH_WORKER (id) {
		TEST_ASSERT_SUCCESS(rte_eal_remote_launch(probe_lcore,
						    &probes[id], id),
				"launch on lcore %u", id);
	}
	RTE_LCORE_FOREACH_WORKER (id) {
		ret = rte_eal_wait_lcore(id);
		TEST_ASSERT_EQUAL(ret, 1000 + (int)id, "lcore %u returned %d",
				id, ret);
		TEST_ASSERT_EQUAL(probes[id].runs, 1, "lcore %u ran %d times",
				id, probes[id].runs);
		TEST_ASSERT_EQUAL(probes[id].lcore_id, id,
				"worker %u saw lcore id %u", id,
				probes[id].lcore_id);
		TEST_ASSERT_EQUAL(probes[id].cpu, rte_lcore_to_cpu_id(id),
				"worker %u ran on CPU %d, expected %d", id,
				probes[id].cpu, rte_lcore_to_cpu_id(id));
		TEST_ASSERT_EQUAL(probes[id].socket_id,
				rte_lcore_to_socket_id(id),
				"worker %u: rte_socket_id() %u, its lcore's node %u",
				id, probes[id].socket_id,
				rte_lcore_to_socket_id(id));
		TEST_ASSERT_EQUAL(rte_eal_get_lcore_state(id), WAIT,
				"lcore %u not back to WAIT after the wait", id);
		TEST_ASSERT_EQUAL(rte_eal_wait_lcore(id), 0,
				"second wait on lcore %u", id);
	}
	return TEST_SUCCESS;
}

static volatile int release_busy;

static int
spin_until_released(void *arg)
{
	RTE_SET_USED(arg);
	while (!__atomic_load_n(&release_busy, __ATOMIC_ACQUIRE))
		rte_pause();
	return 7;
}

static int
test_lcore_busy(void)
{
	unsigned int id = rte_get_next_lcore(-1, 1, 0);
	int ret;

	if (need_worker() != TEST_SUCCESS)
		return TEST_SKIPPED;
	release_busy = 0;
	TEST_ASSERT_SUCCESS(
			rte_eal_remote_launch(spin_until_released, NULL, id),
			"launch on lcore %u", id);
	TEST_ASSERT_EQUAL(rte_eal_get_lcore_state(id), RUNNING,
			"state of a running lcore");
	ret = rte_eal_remote_launch(probe_lcore, &probes[id], id);
	TEST_ASSERT_EQUAL(ret, -EBUSY, "launch on a busy lcore gave %d", ret);
	ret = rte_eal_mp_remote_launch(probe_self, NULL, SKIP_MAIN);
	TEST_ASSERT_EQUAL(ret, -EBUSY, "mp launch with a busy lcore gave %d",
			ret);
	__atomic_store_n(&release_busy, 1, __ATOMIC_RELEASE);
	TEST_ASSERT_EQUAL(rte_eal_wait_lcore(id), 7, "busy lcore's result");
	/* Finished but not collected is still busy. */
	TEST_ASSERT_SUCCESS(rte_eal_remote_launch(probe_lcore, &probes[id], id),
			"launch after the wait");
	while (rte_eal_get_lcore_state(id) == RUNNING)
		rte_pause();
	TEST_ASSERT_EQUAL(rte_eal_get_lcore_state(id), FINISHED,
			"state after the function returned");
	ret = rte_eal_remote_launch(probe_lcore, &probes[id], id);
	TEST_ASSERT_EQUAL(
			ret, -EBUSY, "launch on a FINISHED lcore gave %d", ret);
	TEST_ASSERT_EQUAL(rte_eal_wait_lcore(id), 1000 + (int)id,
			"result of the finished lcore");
	return TEST_SUCCESS;
}

static int
test_lcore_mp_launch(void)
{
	unsigned int id, main_id = rte_get_main_lcore();

	memset(probes, 0, sizeof(probes));
	TEST_ASSERT_SUCCESS(
			rte_eal_mp_remote_launch(probe_self, NULL, CALL_MAIN),
			"mp launch with CALL_MAIN");
	/* CALL_MAIN runs the function here before returning. */
	TEST_ASSERT_EQUAL(probes[main_id].runs, 1, "main lcore ran %d times",
			probes[main_id].runs);
	rte_eal_mp_wait_lcore();
	for (id = 0; id < RTE_MAX_LCORE; id++) {
		int want = rte_lcore_is_enabled(id) ? 1 : 0;

		TEST_ASSERT_EQUAL(probes[id].runs, want,
				"lcore %u ran %d times, expected %d", id,
				probes[id].runs, want);
		if (want)
			TEST_ASSERT_EQUAL(probes[id].lcore_id, id,
					"lcore %u saw id %u", id,
					probes[id].lcore_id);
	}
	RTE_LCORE_FOREACH_WORKER (id)
		TEST_ASSERT_EQUAL(rte_eal_get_lcore_state(id), WAIT,
				"lcore %u not waiting after mp_wait", id);

	memset(probes, 0, sizeof(probes));
	TEST_ASSERT_SUCCESS(
			rte_eal_mp_remote_launch(probe_self, NULL, SKIP_MAIN),
			"mp launch with SKIP_MAIN");
	rte_eal_mp_wait_lcore();
	TEST_ASSERT_EQUAL(probes[main_id].runs, 0, "SKIP_MAIN ran on main");
	RTE_LCORE_FOREACH_WORKER (id)
		TEST_ASSERT_EQUAL(probes[id].runs, 1, "lcore %u ran %d times",
				id, probes[id].runs);
	return TEST_SUCCESS;
}

static int
test_lcore_iterate(void)
{
	unsigned int id, n = 0, n_workers = 0, first = RTE_MAX_LCORE;
	unsigned int last = 0, main_id = rte_get_main_lcore();
	int prev = -1;

	RTE_LCORE_FOREACH (id) {
		TEST_ASSERT((int)id > prev, "lcore %u after %d: not ascending",
				id, prev);
		TEST_ASSERT(rte_lcore_is_enabled(id), "lcore %u not enabled",
				id);
		TEST_ASSERT(rte_lcore_index(id) >= 0 &&
						rte_lcore_index(id) <
								(int)rte_lcore_count(),
				"lcore %u has index %d", id,
				rte_lcore_index(id));
		if (first == RTE_MAX_LCORE)
			first = id;
		prev = (int)id;
		last = id;
		n++;
	}
	TEST_ASSERT_EQUAL(n, rte_lcore_count(), "FOREACH gave %u lcores of %u",
			n, rte_lcore_count());
	RTE_LCORE_FOREACH_WORKER (id) {
		TEST_ASSERT_NOT_EQUAL(id, main_id, "FOREACH_WORKER gave main");
		n_workers++;
	}
	TEST_ASSERT_EQUAL(n_workers, n - 1, "FOREACH_WORKER gave %u lcores",
			n_workers);
	TEST_ASSERT_EQUAL(rte_get_next_lcore(last, 0, 0), RTE_MAX_LCORE,
			"next after the last without wrap");
	TEST_ASSERT_EQUAL(rte_get_next_lcore(last, 0, 1), first,
			"next after the last with wrap");
	/* With one lcore, skipping it and wrapping must still end. */
	if (n == 1)
		TEST_ASSERT_EQUAL(rte_get_next_lcore(main_id, 1, 1),
				RTE_MAX_LCORE,
				"wrap over the main lcore alone");
	return TEST_SUCCESS;
}

/* A thread the EAL did not start. */
static void *
foreign_thread(void *arg)
{
	struct lcore_probe *p = arg;

	p->lcore_id = rte_lcore_id();
	p->socket_id = rte_socket_id();
	p->runs = rte_lcore_index(-1);
	return NULL;
}

static bool
socket_listed(unsigned int socket_id)
{
	unsigned int i;

	for (i = 0; i < rte_socket_count(); i++)
		if (rte_socket_id_by_idx(i) == (int)socket_id)
			return true;
	return false;
}

static int
test_lcore_sockets(void)
{
	struct lcore_probe p = { 0 };
	unsigned int i, id;
	pthread_t t;
	int prev = -1;

	TEST_ASSERT(rte_socket_count() >= 1, "no NUMA node");
	for (i = 0; i < rte_socket_count(); i++) {
		int s = rte_socket_id_by_idx(i);

		TEST_ASSERT(s > prev && s < RTE_MAX_NUMA_NODES,
				"node %d at index %u", s, i);
		prev = s;
	}
	rte_errno = 0;
	TEST_ASSERT_EQUAL(rte_socket_id_by_idx(rte_socket_count()), -1,
			"node index past the end");
	TEST_ASSERT_EQUAL(rte_errno, EINVAL, "rte_errno %d", rte_errno);
	TEST_ASSERT_EQUAL(rte_socket_id(),
			rte_lcore_to_socket_id(rte_get_main_lcore()),
			"main thread's node");
	RTE_LCORE_FOREACH (id)
		TEST_ASSERT(socket_listed(rte_lcore_to_socket_id(id)),
				"node %u of lcore %u is not in the node list",
				rte_lcore_to_socket_id(id), id);

	TEST_ASSERT_SUCCESS(pthread_create(&t, NULL, foreign_thread, &p),
			"pthread_create");
	pthread_join(t, NULL);
	TEST_ASSERT_EQUAL(p.lcore_id, LCORE_ID_ANY,
			"a foreign thread has lcore id %u", p.lcore_id);
	TEST_ASSERT_EQUAL(p.runs, -1, "a foreign thread has index %d", p.runs);
	TEST_ASSERT(socket_listed(p.socket_id),
			"a foreign thread is on node %u, not in the node list",
			p.socket_id);
	return TEST_SUCCESS;
}

/* A thread that registers, reports its id, waits, and unregisters. */
struct reg_thread {
	pthread_t tid;
	unsigned int before; /* rte_lcore_id() before registering */
	int ret; /* rte_thread_register() */
	unsigned int id; /* rte_lcore_id() after */
	unsigned int again; /* after registering a second time */
	unsigned int after; /* after rte_thread_unregister() */
	volatile int go; /* set by the test: unregister and exit */
	volatile int ready; /* set by the thread: registered */
};

static void *
reg_thread_main(void *arg)
{
	struct reg_thread *t = arg;

	t->before = rte_lcore_id();
	t->ret = rte_thread_register();
	t->id = rte_lcore_id();
	rte_thread_register();
	t->again = rte_lcore_id();
	__atomic_store_n(&t->ready, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&t->go, __ATOMIC_ACQUIRE))
		sched_yield();
	rte_thread_unregister();
	t->after = rte_lcore_id();
	return NULL;
}

static int
reg_start(struct reg_thread *t)
{
	memset(t, 0, sizeof(*t));
	TEST_ASSERT_SUCCESS(pthread_create(&t->tid, NULL, reg_thread_main, t),
			"pthread_create");
	while (!__atomic_load_n(&t->ready, __ATOMIC_ACQUIRE))
		sched_yield();
	TEST_ASSERT_EQUAL(t->before, LCORE_ID_ANY, "a plain thread has an id");
	TEST_ASSERT_SUCCESS(t->ret, "register: %s", rte_strerror(rte_errno));
	TEST_ASSERT(t->id < RTE_MAX_LCORE, "no id after registering");
	TEST_ASSERT(!rte_lcore_is_enabled(t->id), "id %u is an lcore's", t->id);
	TEST_ASSERT_EQUAL(t->again, t->id, "registering twice changed the id");
	return TEST_SUCCESS;
}

static void
reg_finish(struct reg_thread *t)
{
	__atomic_store_n(&t->go, 1, __ATOMIC_RELEASE);
	pthread_join(t->tid, NULL);
}

/*
 * Threads that are no lcores take ids of their own with
 * rte_thread_register(): two at once get two ids, neither an lcore's;
 * unregistering gives the id back, and the next thread takes it again
 * (the lowest free one). The main lcore keeps its id.
 */
static int
test_thread_register(void)
{
	struct reg_thread a, b, c;
	unsigned int main_id = rte_lcore_id();
	int ret;

	TEST_ASSERT_SUCCESS(rte_thread_register(), "an lcore registering");
	TEST_ASSERT_EQUAL(rte_lcore_id(), main_id, "the main lcore's id moved");
	ret = reg_start(&a);
	if (ret != TEST_SUCCESS)
		return ret;
	ret = reg_start(&b);
	if (ret != TEST_SUCCESS) {
		reg_finish(&a);
		return ret;
	}
	TEST_ASSERT(a.id != b.id, "two threads got id %u", a.id);
	reg_finish(&a);
	TEST_ASSERT_EQUAL(a.after, LCORE_ID_ANY, "an id after unregistering");
	ret = reg_start(&c);
	reg_finish(&b);
	if (ret != TEST_SUCCESS)
		return ret;
	reg_finish(&c);
	TEST_ASSERT_EQUAL(c.id, a.id,
			"the freed id %u was not taken again (got %u)", a.id,
			c.id);
	rte_thread_unregister(); /* an lcore's: nothing happens */
	TEST_ASSERT_EQUAL(rte_lcore_id(), main_id, "unregistered an lcore");
	return TEST_SUCCESS;
}

/* A thread registered across rte_eal_cleanup() and a new rte_eal_init(). */
struct stale_thread {
	pthread_t tid;
	unsigned int id; /* its id, registered in the first EAL */
	unsigned int after_malloc; /* rte_lcore_id() after the heap, then */
	unsigned int again; /* after registering again */
	volatile int step; /* 1: registered; 2: go on; 3: done */
};

static void *
stale_thread_main(void *arg)
{
	struct stale_thread *t = arg;

	t->id = rte_thread_register() == 0 ? rte_lcore_id() : LCORE_ID_ANY;
	rte_free(rte_malloc(NULL, 64, 0));
	__atomic_store_n(&t->step, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&t->step, __ATOMIC_ACQUIRE) != 2)
		sched_yield();
	/* In the new EAL, whose lcore cache of that id is another's. */
	rte_free(rte_malloc(NULL, 64, 0));
	t->after_malloc = rte_lcore_id();
	t->again = rte_thread_register() == 0 ? rte_lcore_id() : LCORE_ID_ANY;
	rte_thread_unregister();
	__atomic_store_n(&t->step, 3, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * Child: a thread registers, the EAL stops and starts again, and another
 * thread registers and takes the lowest free id, the first one's. The
 * first thread's id belonged to the EAL that stopped: its next heap call
 * drops it (else both threads would use one lcore cache), registering
 * gives it another id, and unregistering that leaves the other thread's
 * registration alone.
 */
static int
lcore_child_stale(int argc, char **argv)
{
	const char *const args[] = { "lcore", "--no-huge", "-m", "64",
		"--file-prefix=lcore_stale", NULL };
	struct stale_thread a = { 0 };
	struct reg_thread b, c;
	int ret;

	RTE_SET_USED(argc);
	RTE_SET_USED(argv);
	TEST_ASSERT_SUCCESS(pthread_create(&a.tid, NULL, stale_thread_main, &a),
			"pthread_create");
	while (__atomic_load_n(&a.step, __ATOMIC_ACQUIRE) != 1)
		sched_yield();
	TEST_ASSERT(a.id < RTE_MAX_LCORE, "the thread got no id");
	TEST_ASSERT_SUCCESS(rte_eal_cleanup(), "cleanup");
	TEST_ASSERT(rte_eal_init(5, (char **)(uintptr_t)args) >= 0,
			"init again: %s", rte_strerror(rte_errno));
	ret = reg_start(&b);
	if (ret != TEST_SUCCESS)
		return ret;
	TEST_ASSERT_EQUAL(b.id, a.id, "the new thread took id %u, not %u", b.id,
			a.id);
	__atomic_store_n(&a.step, 2, __ATOMIC_RELEASE);
	pthread_join(a.tid, NULL);
	TEST_ASSERT_EQUAL(a.after_malloc, LCORE_ID_ANY,
			"the old thread kept id %u after the heap",
			a.after_malloc);
	TEST_ASSERT(a.again < RTE_MAX_LCORE && a.again != b.id,
			"registering again gave the old thread id %u", a.again);
	/* b's id is still b's: a third thread does not get it. */
	ret = reg_start(&c);
	if (ret != TEST_SUCCESS)
		return ret;
	TEST_ASSERT(c.id != b.id, "id %u was given twice", b.id);
	reg_finish(&c);
	reg_finish(&b);
	return 0;
}

REGISTER_CHILD_ACTION(lcore_stale, lcore_child_stale)

static int
test_thread_register_stale(void)
{
	static const char *const args[] = { "--no-huge", "-m", "64", NULL };
	struct test_child_result res;

	TEST_ASSERT_SUCCESS(test_child_run("lcore_stale", args, &res), "child");
	TEST_ASSERT_EQUAL(res.exit_code, 0, "exit %d:\n%s", res.exit_code,
			res.output);
	return TEST_SUCCESS;
}

/* A thread that calls eal_thread_idle(): its policy after the call. */
static void *
idle_thread(void *arg)
{
	int *policy = arg;

	*policy = eal_thread_idle() == 0 ? sched_getscheduler(0) : -1;
	return NULL;
}

/*
 * eal_thread_idle() puts the calling thread, and only it, on SCHED_IDLE
 * (the memzone image's prefetchers): the process's other threads keep
 * theirs.
 */
static int
test_thread_idle(void)
{
	int before = sched_getscheduler(0), policy = -2;
	pthread_t t;

	TEST_ASSERT(before >= 0 && before != SCHED_IDLE, "policy %d", before);
	TEST_ASSERT_SUCCESS(pthread_create(&t, NULL, idle_thread, &policy),
			"pthread_create");
	TEST_ASSERT_SUCCESS(pthread_join(t, NULL), "pthread_join");
	TEST_ASSERT_EQUAL(policy, SCHED_IDLE, "the thread's policy");
	TEST_ASSERT_EQUAL(sched_getscheduler(0), before, "the caller's policy");
	return TEST_SUCCESS;
}

/*
 * eal_lcores_spare_cpus(): CPUs the main thread had before init, none an
 * lcore's if any is left, else none the main lcore's if any is left.
 */
static int
test_lcore_spare_cpus(void)
{
	const struct eal_lcores *lc = eal_lcores_get();
	cpu_set_t spare, lcore_cpus, both;
	int main_cpu;
	unsigned int i;

	TEST_ASSERT_NOT_NULL(lc, "no lcore table");
	main_cpu = lc->lcore[lc->main_lcore].cpu;
	CPU_ZERO(&lcore_cpus);
	for (i = 0; i < RTE_MAX_LCORE; i++)
		if (lc->lcore[i].enabled && lc->lcore[i].cpu >= 0)
			CPU_SET(lc->lcore[i].cpu, &lcore_cpus);
	eal_lcores_spare_cpus(lc, &spare);
	TEST_ASSERT(CPU_COUNT(&spare) > 0, "no CPU");
	CPU_AND(&both, &spare, &lc->main_affinity);
	TEST_ASSERT(CPU_EQUAL(&both, &spare), "a CPU the process did not have");
	CPU_AND(&both, &spare, &lcore_cpus);
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &lc->main_affinity) &&
				!CPU_ISSET(i, &lcore_cpus))
			break;
	if (i < CPU_SETSIZE)
		TEST_ASSERT_EQUAL(CPU_COUNT(&both), 0, "an lcore's CPU");
	else if (CPU_COUNT(&lc->main_affinity) > 1)
		TEST_ASSERT(!CPU_ISSET(main_cpu, &spare),
				"the main lcore's CPU");
	else
		TEST_ASSERT(CPU_EQUAL(&spare, &lc->main_affinity), "not all");
	printf("%d spare CPUs, the main lcore on CPU %d\n", CPU_COUNT(&spare),
			main_cpu);
	return TEST_SUCCESS;
}

static struct unit_test_suite lcore_suite = {
	.suite_name = "lcore",
	.setup = NULL,
	.teardown = NULL,
	.unit_test_cases = {
		TEST_CASE(test_lcore_main),
		TEST_CASE(test_lcore_remote_launch),
		TEST_CASE(test_lcore_busy),
		TEST_CASE(test_lcore_mp_launch),
		TEST_CASE(test_lcore_iterate),
		TEST_CASE(test_lcore_sockets),
		TEST_CASE(test_thread_register),
		TEST_CASE(test_thread_register_stale),
		TEST_CASE(test_thread_idle),
		TEST_CASE(test_lcore_spare_cpus),
		TEST_CASES_END(),
	},
};

static int
test_lcore(void)
{
	return unit_test_suite_runner(&lcore_suite);
}

REGISTER_FAST_TEST(lcore_autotest, NOHUGE_OK, ASAN_OK, test_lcore);
