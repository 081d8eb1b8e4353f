/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _EAL_SYS_H_
#define _EAL_SYS_H_

/*
 * The operating system services that the layers above the memory layer
 * (lib/malloc, the shared locks, the process table) rely on, in one
 * header: the seam between common code and linux/. Each is implemented
 * by an OS directory; nothing here names Linux.
 *
 *   process identities   a live owner, a dead one and a new process that
 *                        reused the PID told apart (shared locks)
 *   thread fence         a memory barrier on every thread of the process
 *                        at once (lib/malloc's lcore caches)
 *   futex                sleeping on a word of shared memory, across
 *                        processes
 */

#include <stdbool.h>
#include <stdint.h>

/* ---- process identities ---- */

/*
 * The identity of the calling process: its PID and the low 32 bits of
 * its start time, so that it survives PID reuse; never 0.
 *
 * @return it, or 0 if the process's start time is unreadable.
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

/* ---- thread fence ---- */

/*
 * For structures where one thread works without atomic instructions and
 * others, rarely, need it to stand still: the busy side orders its
 * accesses for the compiler only; the rare side pays for the fence with a
 * system call.
 *
 * Tell the OS this process will use eal_thread_fence(). Called once,
 * before any thread relies on it.
 *
 * @return 0, or -errno (-ENOSYS, -EINVAL: the kernel lacks the call;
 *   -EPERM: a seccomp filter forbids it).
 */
int eal_thread_fence_register(void);

/*
 * Make every running thread of the process execute a full memory
 * barrier before returning: a store that a thread made before the call
 * is then visible here, and a load it makes after sees what this thread
 * stored before the call. eal_thread_fence_register() succeeded before.
 *
 * @return 0, or -errno.
 */
int eal_thread_fence(void);

/* ---- futex ---- */

/*
 * Sleep while the 32-bit word at @p addr, in memory that processes share,
 * holds @p val, at most @p timeout_ms (-1: no limit).
 *
 * @return 0 when woken or the word differs, -ETIMEDOUT, -EINTR.
 */
int eal_os_futex_wait(uint32_t *addr, uint32_t val, int timeout_ms);

/* Wake every process and thread sleeping on @p addr. */
void eal_os_futex_wake(uint32_t *addr);

#endif /* _EAL_SYS_H_ */
