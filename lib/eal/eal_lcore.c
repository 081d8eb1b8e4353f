/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Lcores: the main thread and one pinned worker thread per other CPU.
 *
 * The table (struct eal_lcores) belongs to the EAL context; the public
 * rte_lcore_* and launch functions reach it through the one pointer that
 * eal_lcores_set() publishes. NULL means "no lcores" (before init, after
 * cleanup).
 *
 * An lcore's id is its CPU number, as with DPDK's -l; its index is its
 * position in the -l list, and the first listed CPU is the main lcore.
 *
 * Launch handshake, per worker, under its mutex: the launcher moves state
 * WAIT -> RUNNING with f set; the worker runs f without the lock, then
 * stores ret, clears f and moves to FINISHED; a wait moves FINISHED ->
 * WAIT and returns ret. Both sides wait on the one condition variable, so
 * every change is broadcast. The main lcore has no thread: with CALL_MAIN
 * it runs f itself and ends FINISHED, as in DPDK.
 */

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_per_lcore.h>

#include "eal_lcore.h"
#include "eal_options.h"

#define SYSFS_CPU_DIR "/sys/devices/system/cpu"
#define SYSFS_NODE_DIR "/sys/devices/system/node"

RTE_DEFINE_PER_LCORE(unsigned int, _lcore_id) = LCORE_ID_ANY;
RTE_DEFINE_PER_LCORE(unsigned int, eal_lcore_own) = RTE_MAX_LCORE;
RTE_DEFINE_PER_LCORE(struct eal_lcore_memo, eal_lcore_memo);
RTE_DEFINE_PER_LCORE(uint64_t, eal_lcore_gen);
uint64_t eal_lcore_generation;

/* The published table: the one pointer rte_* entry points start from. */
static struct eal_lcores *lcores_published;

void
eal_lcores_set(struct eal_lcores *lc)
{
	__atomic_store_n(&lcores_published, lc, __ATOMIC_RELEASE);
}

uint64_t eal_lcore_shared[RTE_MAX_LCORE / 64];

void
eal_lcore_id_set(unsigned int id)
{
	bool own = id < RTE_MAX_LCORE &&
			((eal_lcore_shared[id / 64] >> (id % 64)) & 1) == 0;

	RTE_PER_LCORE(_lcore_id) = id;
	RTE_PER_LCORE(eal_lcore_own) = own ? id : RTE_MAX_LCORE;
	RTE_PER_LCORE(eal_lcore_gen) = __atomic_load_n(
			&eal_lcore_generation, __ATOMIC_ACQUIRE);
	memset(&RTE_PER_LCORE(eal_lcore_memo), 0,
			sizeof(RTE_PER_LCORE(eal_lcore_memo)));
}

struct eal_lcores *
eal_lcores_get(void)
{
	return __atomic_load_n(&lcores_published, __ATOMIC_ACQUIRE);
}

void
eal_lcores_spare_cpus(const struct eal_lcores *lc, cpu_set_t *set)
{
	unsigned int i;

	*set = lc->main_affinity;
	for (i = 0; i < RTE_MAX_LCORE; i++)
		if (lc->lcore[i].enabled && lc->lcore[i].cpu >= 0)
			CPU_CLR(lc->lcore[i].cpu, set);
	if (CPU_COUNT(set) > 0)
		return;
	*set = lc->main_affinity;
	if (lc->lcore[lc->main_lcore].cpu >= 0)
		CPU_CLR(lc->lcore[lc->main_lcore].cpu, set);
	if (CPU_COUNT(set) == 0)
		*set = lc->main_affinity;
}

/* @return the enabled lcore @p id, or NULL. */
static struct eal_lcore *
lcore_get(unsigned int id)
{
	struct eal_lcores *lc = eal_lcores_get();

	if (lc == NULL || id >= RTE_MAX_LCORE || !lc->lcore[id].enabled)
		return NULL;
	return &lc->lcore[id];
}

/* @return the enabled worker lcore @p id (not the main one), or NULL. */
static struct eal_lcore *
worker_get(unsigned int id)
{
	struct eal_lcore *lcore = lcore_get(id);

	if (lcore == NULL || id == eal_lcores_get()->main_lcore)
		return NULL;
	return lcore;
}

/* ---- topology from sysfs ---- */

/* @return N if @p name is "nodeN" with N a NUMA node id we handle, or -1. */
static int
node_name_to_id(const char *name)
{
	unsigned long id;
	char *end;

	if (strncmp(name, "node", 4) != 0 || name[4] < '0' || name[4] > '9')
		return -1;
	id = strtoul(name + 4, &end, 10);
	if (*end != '\0' || id >= RTE_MAX_NUMA_NODES)
		return -1;
	return (int)id;
}

/* @return the NUMA node of @p cpu: its sysfs directory has "nodeN". */
static unsigned int
cpu_socket_id(int cpu)
{
	char path[64];
	struct dirent *e;
	int node = -1;
	DIR *d;

	snprintf(path, sizeof(path), SYSFS_CPU_DIR "/cpu%d", cpu);
	d = opendir(path);
	if (d == NULL)
		return 0;
	while (node < 0 && (e = readdir(d)) != NULL)
		node = node_name_to_id(e->d_name);
	closedir(d);
	return node < 0 ? 0 : (unsigned int)node;
}

/* Fill the NUMA node list from sysfs; node 0 if there is none. */
static void
sockets_detect(struct eal_lcores *lc)
{
	bool present[RTE_MAX_NUMA_NODES] = { false };
	struct dirent *e;
	unsigned int i;
	DIR *d;

	d = opendir(SYSFS_NODE_DIR);
	while (d != NULL && (e = readdir(d)) != NULL) {
		int node = node_name_to_id(e->d_name);

		if (node >= 0)
			present[node] = true;
	}
	if (d != NULL)
		closedir(d);
	present[0] = present[0] || d == NULL;
	lc->n_sockets = 0;
	for (i = 0; i < RTE_MAX_NUMA_NODES; i++)
		if (present[i])
			lc->socket_ids[lc->n_sockets++] = (int)i;
	if (lc->n_sockets == 0)
		lc->socket_ids[lc->n_sockets++] = 0;
}

unsigned int
eal_cpus_allowed(bool allowed[RTE_MAX_LCORE])
{
	cpu_set_t set;
	unsigned int cpu, n = 0;
	int conf = get_nprocs_conf();

	memset(allowed, 0, RTE_MAX_LCORE * sizeof(allowed[0]));
	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return 0;
	for (cpu = 0; cpu < RTE_MAX_LCORE; cpu++) {
		allowed[cpu] = CPU_ISSET(cpu, &set);
		if (allowed[cpu])
			n = cpu + 1;
	}
	/* CPUs that exist count too, allowed or not. */
	if (conf > 0 && (unsigned int)conf > n)
		n = RTE_MIN((unsigned int)conf, (unsigned int)RTE_MAX_LCORE);
	return n;
}

/* ---- start and stop ---- */

static void *
lcore_worker_loop(void *arg)
{
	struct eal_lcore *lcore = arg;
	lcore_function_t *f;
	void *f_arg;
	int ret;

	eal_lcore_id_set(lcore->id);
	pthread_mutex_lock(&lcore->mutex);
	for (;;) {
		while (lcore->f == NULL && !lcore->stop)
			pthread_cond_wait(&lcore->cond, &lcore->mutex);
		if (lcore->stop)
			break;
		f = lcore->f;
		f_arg = lcore->arg;
		pthread_mutex_unlock(&lcore->mutex);
		ret = f(f_arg);
		pthread_mutex_lock(&lcore->mutex);
		lcore->ret = ret;
		lcore->f = NULL;
		lcore->state = FINISHED;
		pthread_cond_broadcast(&lcore->cond);
	}
	pthread_mutex_unlock(&lcore->mutex);
	return NULL;
}

/* Ask worker @p lcore to exit once idle and join it. */
static void
lcore_worker_stop(struct eal_lcore *lcore)
{
	pthread_mutex_lock(&lcore->mutex);
	lcore->stop = true;
	pthread_cond_broadcast(&lcore->cond);
	pthread_mutex_unlock(&lcore->mutex);
	pthread_join(lcore->thread, NULL);
}

/* Start the worker thread of @p lcore, pinned from its first instruction. */
static int
lcore_worker_start(struct eal_lcore *lcore)
{
	pthread_attr_t attr;
	cpu_set_t set;
	char name[16];
	int ret;

	CPU_ZERO(&set);
	CPU_SET(lcore->cpu, &set);
	ret = pthread_attr_init(&attr);
	if (ret != 0)
		return -ret;
	ret = pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	if (ret == 0)
		ret = pthread_create(&lcore->thread, &attr, lcore_worker_loop,
				lcore);
	pthread_attr_destroy(&attr);
	if (ret != 0)
		return -ret;
	/* The name is for ps and debuggers: a failure does not matter. */
	snprintf(name, sizeof(name), "rte-worker-%u", lcore->id);
	pthread_setname_np(lcore->thread, name);
	return 0;
}

/*
 * The lcores in -l order: their ids into @p ids, the CPUs to run them on
 * into @p cpus.
 * @return how many, or a negative errno with a line in @p err.
 */
static int
lcore_cpu_list(const struct eal_options *opts, int *ids, int *cpus, char *err,
		size_t err_len)
{
	cpu_set_t set;
	unsigned int i, n = 0;
	bool seen[RTE_MAX_LCORE] = { false };

	if (opts != NULL && opts->n_lcores > 0) {
		for (i = 0; i < opts->n_lcores && i < RTE_MAX_LCORE; i++) {
			unsigned int id = opts->lcore_ids[i];

			if (id >= RTE_MAX_LCORE || seen[id] ||
					opts->lcore_cpus[i] >= RTE_MAX_LCORE) {
				snprintf(err, err_len,
						"option -l/--lcores: "
						"lcore %u is listed twice or is "
						"not below %d",
						id, RTE_MAX_LCORE);
				return -EINVAL;
			}
			seen[id] = true;
			ids[n] = (int)id;
			cpus[n++] = (int)opts->lcore_cpus[i];
		}
		return (int)n;
	}
	if (sched_getaffinity(0, sizeof(set), &set) != 0) {
		int ret = -errno;

		snprintf(err, err_len,
				"cannot read the CPU affinity of this "
				"process: %s",
				strerror(-ret));
		return ret;
	}
	for (i = 0; i < RTE_MAX_LCORE; i++)
		if (CPU_ISSET(i, &set)) {
			ids[n] = (int)i;
			cpus[n++] = (int)i;
		}
	if (n == 0) {
		snprintf(err, err_len,
				"no CPU below %d in this process's "
				"affinity: give CPUs with -l",
				RTE_MAX_LCORE);
		return -EINVAL;
	}
	return (int)n;
}

static int
lcore_setup(struct eal_lcores *lc, int id, int cpu, int index)
{
	struct eal_lcore *lcore = &lc->lcore[id];
	int ret;

	lcore->id = (unsigned int)id;
	lcore->index = index;
	lcore->cpu = cpu;
	lcore->socket_id = cpu_socket_id(cpu);
	lcore->state = WAIT;
	ret = pthread_mutex_init(&lcore->mutex, NULL);
	if (ret != 0)
		return -ret;
	ret = pthread_cond_init(&lcore->cond, NULL);
	if (ret != 0) {
		pthread_mutex_destroy(&lcore->mutex);
		return -ret;
	}
	lcore->enabled = true;
	lc->count++;
	return 0;
}

/* Stop the workers that run and forget every lcore. */
static void
lcores_teardown(struct eal_lcores *lc)
{
	unsigned int id;

	for (id = 0; id < RTE_MAX_LCORE; id++) {
		struct eal_lcore *lcore = &lc->lcore[id];

		if (!lcore->enabled)
			continue;
		if (lcore->started)
			lcore_worker_stop(lcore);
		pthread_cond_destroy(&lcore->cond);
		pthread_mutex_destroy(&lcore->mutex);
		lcore->enabled = false;
		lcore->started = false;
	}
	lc->count = 0;
}

/* Pin the calling thread to the main lcore's CPU and make it that lcore. */
static int
lcore_main_pin(struct eal_lcores *lc, char *err, size_t err_len)
{
	struct eal_lcore *lcore = &lc->lcore[lc->main_lcore];
	cpu_set_t set;
	int ret;

	ret = pthread_getaffinity_np(pthread_self(), sizeof(lc->main_affinity),
			&lc->main_affinity);
	if (ret == 0) {
		CPU_ZERO(&set);
		CPU_SET(lcore->cpu, &set);
		ret = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	}
	if (ret != 0) {
		snprintf(err, err_len,
				"cannot pin the main lcore to CPU %d: "
				"%s (see -l/--lcores)",
				lcore->cpu, strerror(ret));
		return -ret;
	}
	lc->main_pinned = true;
	eal_lcore_id_set(lcore->id);
	return 0;
}

int
eal_lcores_init(struct eal_lcores *lc, const struct eal_options *opts,
		char *err, size_t err_len)
{
	int ids[RTE_MAX_LCORE], cpus[RTE_MAX_LCORE];
	int i, n, ret;

	memset(lc, 0, sizeof(*lc));
	n = lcore_cpu_list(opts, ids, cpus, err, err_len);
	if (n < 0)
		return n;
	sockets_detect(lc);
	lc->main_lcore = (unsigned int)ids[0];
	for (i = 0; i < n; i++) {
		ret = lcore_setup(lc, ids[i], cpus[i], i);
		if (ret < 0) {
			snprintf(err, err_len, "cannot set up lcore %d: %s",
					ids[i], strerror(-ret));
			goto fail;
		}
	}
	ret = lcore_main_pin(lc, err, err_len);
	if (ret < 0)
		goto fail;
	return 0;
fail:
	eal_lcores_cleanup(lc);
	return ret;
}

int
eal_lcores_start(struct eal_lcores *lc, char *err, size_t err_len)
{
	unsigned int id;
	int ret;

	for (id = 0; id < RTE_MAX_LCORE; id++) {
		struct eal_lcore *lcore = &lc->lcore[id];

		if (!lcore->enabled || id == lc->main_lcore)
			continue;
		ret = lcore_worker_start(lcore);
		if (ret < 0) {
			snprintf(err, err_len,
					"cannot start the thread of "
					"lcore %u on CPU %d: %s (see "
					"-l/--lcores)",
					id, lcore->cpu, strerror(-ret));
			goto fail;
		}
		lcore->started = true;
	}
	return 0;
fail:
	eal_lcores_cleanup(lc);
	return ret;
}

void
eal_lcores_cleanup(struct eal_lcores *lc)
{
	if (eal_lcores_get() == lc)
		eal_lcores_set(NULL);
	lcores_teardown(lc);
	if (lc->main_pinned) {
		pthread_setaffinity_np(pthread_self(),
				sizeof(lc->main_affinity), &lc->main_affinity);
		lc->main_pinned = false;
		eal_lcore_id_set(LCORE_ID_ANY);
	}
}

/* ---- launch ---- */

int
rte_eal_remote_launch(lcore_function_t *f, void *arg, unsigned int worker_id)
{
	struct eal_lcore *lcore = worker_get(worker_id);
	int ret = 0;

	if (lcore == NULL || f == NULL)
		return -EINVAL;
	pthread_mutex_lock(&lcore->mutex);
	if (lcore->state != WAIT) {
		ret = -EBUSY;
	} else {
		lcore->f = f;
		lcore->arg = arg;
		lcore->state = RUNNING;
		pthread_cond_broadcast(&lcore->cond);
	}
	pthread_mutex_unlock(&lcore->mutex);
	return ret;
}

enum rte_lcore_state_t
rte_eal_get_lcore_state(unsigned int worker_id)
{
	struct eal_lcore *lcore = lcore_get(worker_id);
	enum rte_lcore_state_t state;

	if (lcore == NULL)
		return WAIT;
	pthread_mutex_lock(&lcore->mutex);
	state = lcore->state;
	pthread_mutex_unlock(&lcore->mutex);
	return state;
}

int
rte_eal_wait_lcore(unsigned int worker_id)
{
	struct eal_lcore *lcore = lcore_get(worker_id);
	int ret = 0;

	if (lcore == NULL)
		return 0;
	pthread_mutex_lock(&lcore->mutex);
	while (lcore->state == RUNNING)
		pthread_cond_wait(&lcore->cond, &lcore->mutex);
	if (lcore->state == FINISHED) {
		ret = lcore->ret;
		lcore->state = WAIT;
	}
	pthread_mutex_unlock(&lcore->mutex);
	return ret;
}

int
rte_eal_mp_remote_launch(lcore_function_t *f, void *arg,
		enum rte_rmt_call_main_t call_main)
{
	struct eal_lcores *lc = eal_lcores_get();
	struct eal_lcore *main_lcore;
	unsigned int id;
	int ret;

	if (lc == NULL || f == NULL)
		return -EINVAL;
	RTE_LCORE_FOREACH_WORKER (id)
		if (rte_eal_get_lcore_state(id) != WAIT)
			return -EBUSY;
	RTE_LCORE_FOREACH_WORKER (id)
		rte_eal_remote_launch(f, arg, id);
	if (call_main != CALL_MAIN)
		return 0;
	main_lcore = &lc->lcore[lc->main_lcore];
	pthread_mutex_lock(&main_lcore->mutex);
	main_lcore->state = RUNNING;
	pthread_mutex_unlock(&main_lcore->mutex);
	ret = f(arg);
	pthread_mutex_lock(&main_lcore->mutex);
	main_lcore->ret = ret;
	main_lcore->state = FINISHED;
	pthread_cond_broadcast(&main_lcore->cond);
	pthread_mutex_unlock(&main_lcore->mutex);
	return 0;
}

void
rte_eal_mp_wait_lcore(void)
{
	unsigned int id;

	RTE_LCORE_FOREACH_WORKER (id)
		rte_eal_wait_lcore(id);
}

/* ---- queries ---- */

unsigned int
rte_get_main_lcore(void)
{
	struct eal_lcores *lc = eal_lcores_get();

	return lc == NULL ? 0 : lc->main_lcore;
}

unsigned int
rte_lcore_count(void)
{
	struct eal_lcores *lc = eal_lcores_get();

	return lc == NULL ? 0 : lc->count;
}

int
rte_lcore_is_enabled(unsigned int lcore_id)
{
	return lcore_get(lcore_id) != NULL;
}

int
rte_lcore_index(int lcore_id)
{
	struct eal_lcore *lcore;

	if (lcore_id < 0) {
		lcore_id = (int)rte_lcore_id();
		if (lcore_id < 0)
			return -1;
	}
	lcore = lcore_get((unsigned int)lcore_id);
	return lcore == NULL ? -1 : lcore->index;
}

int
rte_lcore_to_cpu_id(int lcore_id)
{
	struct eal_lcore *lcore;

	if (lcore_id < 0)
		return -1;
	lcore = lcore_get((unsigned int)lcore_id);
	return lcore == NULL ? -1 : lcore->cpu;
}

unsigned int
rte_lcore_to_socket_id(unsigned int lcore_id)
{
	struct eal_lcore *lcore = lcore_get(lcore_id);

	return lcore == NULL ? 0 : lcore->socket_id;
}

/*
 * Lcores know their node from init; another thread may run anywhere, so
 * ask the kernel where it runs now (getcpu is a vDSO call on x86).
 */
unsigned int
rte_socket_id(void)
{
	struct eal_lcore *lcore = lcore_get(rte_lcore_id());
	unsigned int cpu, node;

	if (lcore != NULL)
		return lcore->socket_id;
	if (getcpu(&cpu, &node) != 0 || node >= RTE_MAX_NUMA_NODES)
		return 0;
	return node;
}

unsigned int
rte_socket_count(void)
{
	struct eal_lcores *lc = eal_lcores_get();

	return lc == NULL ? 0 : lc->n_sockets;
}

int
rte_socket_id_by_idx(unsigned int idx)
{
	struct eal_lcores *lc = eal_lcores_get();

	if (lc == NULL || idx >= lc->n_sockets) {
		rte_errno = EINVAL;
		return -1;
	}
	return lc->socket_ids[idx];
}

unsigned int
rte_get_next_lcore(unsigned int i, int skip_main, int wrap)
{
	unsigned int main_id = rte_get_main_lcore();
	unsigned int tries;

	/* Bounded, unlike DPDK's loop: wrap with no candidate must end. */
	for (tries = 0; tries < RTE_MAX_LCORE; tries++) {
		i++;
		if (wrap)
			i %= RTE_MAX_LCORE;
		if (i >= RTE_MAX_LCORE)
			return RTE_MAX_LCORE;
		if (rte_lcore_is_enabled(i) && !(skip_main && i == main_id))
			return i;
	}
	return RTE_MAX_LCORE;
}
