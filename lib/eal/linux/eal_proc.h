/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _EAL_PROC_H_
#define _EAL_PROC_H_

/*
 * Process identities that survive PID reuse: the PID and the low 32 bits
 * of the process's start time (clock ticks since boot, from
 * /proc/PID/stat). Shared locks record their owner this way, so that a
 * process can tell a live owner from a dead one, and from a new process
 * that got the same PID.
 */

#include <stdbool.h>
#include <stdint.h>

/*
 * The identity of the calling process; never 0.
 *
 * @return it, or 0 if /proc/self/stat is unreadable.
 */
uint64_t eal_proc_self_id(void);

/*
 * Whether process @p id still runs. A zombie (killed, not yet reaped) and
 * a process that reused the PID are not it.
 */
bool eal_proc_alive(uint64_t id);

/* The PID of identity @p id. */
static inline int
eal_proc_pid(uint64_t id)
{
	return (int)(id & 0xffffffffU);
}

#endif /* _EAL_PROC_H_ */
