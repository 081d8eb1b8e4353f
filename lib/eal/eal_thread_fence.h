/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _EAL_THREAD_FENCE_H_
#define _EAL_THREAD_FENCE_H_

/*
 * A memory barrier run on every thread of the process at once, for
 * structures where one thread works without atomic instructions and
 * others, rarely, need it to stand still (lib/malloc's lcore caches).
 * The busy side orders its accesses for the compiler only; the rare side
 * pays for the fence with a system call.
 */

/*
 * Tell the kernel this process will use eal_thread_fence(). Called once,
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

#endif /* _EAL_THREAD_FENCE_H_ */
