/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _EAL_MEM_EVENT_H_
#define _EAL_MEM_EVENT_H_

/*
 * Memory event callbacks and allocation validators of this process.
 * Registration may come from any thread; notification happens with the
 * hotplug lock held for writing.
 */

#include <pthread.h>

#include <rte_memory.h>

#define EAL_MEM_EVENT_MAX 64
#define EAL_MEM_EVENT_NAMELEN 64

struct eal_mem_callback {
	char name[EAL_MEM_EVENT_NAMELEN]; /* key, with arg */
	rte_mem_event_callback_t fn;
	void *arg;
};

struct eal_mem_validator {
	char name[EAL_MEM_EVENT_NAMELEN]; /* key, with socket_id */
	rte_mem_alloc_validator_t fn;
	int socket_id;
	size_t limit; /* bytes the node may hold before fn is asked */
};

struct eal_mem_events {
	pthread_mutex_t lock; /* guards both tables */
	struct eal_mem_callback cbs[EAL_MEM_EVENT_MAX];
	unsigned int n_cbs;
	struct eal_mem_validator vals[EAL_MEM_EVENT_MAX];
	unsigned int n_vals;
};

void eal_mem_events_init(struct eal_mem_events *ev);

/* Tell every callback about @p len bytes at @p addr. */
void eal_mem_event_notify(struct eal_mem_events *ev, enum rte_mem_event type,
		const void *addr, size_t len);

/*
 * Ask the validators of @p socket_id whether its memory may grow from
 * @p cur to @p new_len bytes.
 *
 * @return 0 if allowed, -EPERM if a validator refused.
 */
int eal_mem_event_validate(struct eal_mem_events *ev, int socket_id, size_t cur,
		size_t new_len);

#endif /* _EAL_MEM_EVENT_H_ */
