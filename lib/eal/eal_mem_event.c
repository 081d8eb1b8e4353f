/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Memory event callbacks and allocation validators (rte_memory.h).
 *
 * Both tables are process-local: a callback is a function pointer of this
 * process. --socket-limit is implemented as a validator.
 */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_string_fns.h>

#include "eal_mem.h"
#include "eal_mem_event.h"

void
eal_mem_events_init(struct eal_mem_events *ev)
{
	memset(ev, 0, sizeof(*ev));
	pthread_mutex_init(&ev->lock, NULL);
}

void
eal_mem_event_notify(struct eal_mem_events *ev, enum rte_mem_event type,
		const void *addr, size_t len)
{
	unsigned int i;

	pthread_mutex_lock(&ev->lock);
	for (i = 0; i < ev->n_cbs; i++)
		ev->cbs[i].fn(type, addr, len, ev->cbs[i].arg);
	pthread_mutex_unlock(&ev->lock);
}

int
eal_mem_event_validate(struct eal_mem_events *ev, int socket_id, size_t cur,
		size_t new_len)
{
	unsigned int i;
	int ret = 0;

	pthread_mutex_lock(&ev->lock);
	for (i = 0; i < ev->n_vals && ret == 0; i++) {
		const struct eal_mem_validator *v = &ev->vals[i];

		if (v->socket_id != socket_id || new_len <= v->limit)
			continue;
		if (v->fn(socket_id, v->limit, new_len) < 0)
			ret = -EPERM;
	}
	RTE_SET_USED(cur);
	pthread_mutex_unlock(&ev->lock);
	return ret;
}

/* The events of the running EAL, or NULL with rte_errno set. */
static struct eal_mem_events *
mem_events(const char *name)
{
	struct eal_mem *mem = eal_mem_get();

	if (name == NULL || strlen(name) >= EAL_MEM_EVENT_NAMELEN) {
		rte_errno = name == NULL ? EINVAL : ENAMETOOLONG;
		return NULL;
	}
	if (mem == NULL) {
		rte_errno = E_RTE_NO_CONFIG;
		return NULL;
	}
	if (!mem->mode->can_grow) {
		/* Legacy memory never changes: nothing would ever be told. */
		rte_errno = ENOTSUP;
		return NULL;
	}
	return &mem->events;
}

static int
cb_find(const struct eal_mem_events *ev, const char *name, void *arg)
{
	unsigned int i;

	for (i = 0; i < ev->n_cbs; i++)
		if (strcmp(ev->cbs[i].name, name) == 0 && ev->cbs[i].arg == arg)
			return (int)i;
	return -1;
}

static void
cb_set(struct eal_mem_callback *c, const char *name,
		rte_mem_event_callback_t fn, void *arg)
{
	rte_strlcpy(c->name, name, sizeof(c->name));
	c->fn = fn;
	c->arg = arg;
}

int
rte_mem_event_callback_register(
		const char *name, rte_mem_event_callback_t clb, void *arg)
{
	struct eal_mem_events *ev = mem_events(name);
	int ret = 0;

	if (ev == NULL)
		return -1;
	if (clb == NULL) {
		rte_errno = EINVAL;
		return -1;
	}
	pthread_mutex_lock(&ev->lock);
	if (cb_find(ev, name, arg) >= 0)
		ret = EEXIST;
	else if (ev->n_cbs == EAL_MEM_EVENT_MAX)
		ret = ENOSPC;
	else
		cb_set(&ev->cbs[ev->n_cbs++], name, clb, arg);
	pthread_mutex_unlock(&ev->lock);
	if (ret != 0)
		rte_errno = ret;
	return ret == 0 ? 0 : -1;
}

int
rte_mem_event_callback_unregister(const char *name, void *arg)
{
	struct eal_mem_events *ev = mem_events(name);
	int i;

	if (ev == NULL)
		return -1;
	pthread_mutex_lock(&ev->lock);
	i = cb_find(ev, name, arg);
	if (i >= 0)
		memmove(&ev->cbs[i], &ev->cbs[i + 1],
				(ev->n_cbs - i - 1) * sizeof(ev->cbs[0]));
	if (i >= 0)
		ev->n_cbs--;
	pthread_mutex_unlock(&ev->lock);
	if (i < 0) {
		rte_errno = ENOENT;
		return -1;
	}
	return 0;
}

static int
val_find(const struct eal_mem_events *ev, const char *name, int socket_id)
{
	unsigned int i;

	for (i = 0; i < ev->n_vals; i++)
		if (strcmp(ev->vals[i].name, name) == 0 &&
				ev->vals[i].socket_id == socket_id)
			return (int)i;
	return -1;
}

static void
val_set(struct eal_mem_validator *v, const char *name,
		rte_mem_alloc_validator_t fn, int socket_id, size_t limit)
{
	rte_strlcpy(v->name, name, sizeof(v->name));
	v->fn = fn;
	v->socket_id = socket_id;
	v->limit = limit;
}

int
rte_mem_alloc_validator_register(const char *name,
		rte_mem_alloc_validator_t clb, int socket_id, size_t limit)
{
	struct eal_mem_events *ev = mem_events(name);
	int ret = 0;

	if (ev == NULL)
		return -1;
	if (clb == NULL || socket_id < 0 || socket_id >= RTE_MAX_NUMA_NODES) {
		rte_errno = EINVAL;
		return -1;
	}
	pthread_mutex_lock(&ev->lock);
	if (val_find(ev, name, socket_id) >= 0)
		ret = EEXIST;
	else if (ev->n_vals == EAL_MEM_EVENT_MAX)
		ret = ENOSPC;
	else
		val_set(&ev->vals[ev->n_vals++], name, clb, socket_id, limit);
	pthread_mutex_unlock(&ev->lock);
	if (ret != 0)
		rte_errno = ret;
	return ret == 0 ? 0 : -1;
}

int
rte_mem_alloc_validator_unregister(const char *name, int socket_id)
{
	struct eal_mem_events *ev = mem_events(name);
	int i;

	if (ev == NULL)
		return -1;
	pthread_mutex_lock(&ev->lock);
	i = val_find(ev, name, socket_id);
	if (i >= 0)
		memmove(&ev->vals[i], &ev->vals[i + 1],
				(ev->n_vals - i - 1) * sizeof(ev->vals[0]));
	if (i >= 0)
		ev->n_vals--;
	pthread_mutex_unlock(&ev->lock);
	if (i < 0) {
		rte_errno = ENOENT;
		return -1;
	}
	return 0;
}
