/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * eal_thread_fence() on Linux: membarrier(2), expedited, private to the
 * process. The expedited form interrupts only the CPUs running one of
 * our threads and returns in microseconds; a thread that is not running
 * went through the scheduler, which is a barrier already.
 */

#include <errno.h>
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "eal_thread_fence.h"

static int
fence_call(int cmd)
{
	return syscall(__NR_membarrier, cmd, 0, 0) < 0 ? -errno : 0;
}

int
eal_thread_fence_register(void)
{
	return fence_call(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED);
}

int
eal_thread_fence(void)
{
	return fence_call(MEMBARRIER_CMD_PRIVATE_EXPEDITED);
}
