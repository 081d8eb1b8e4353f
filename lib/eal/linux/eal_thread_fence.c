/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * eal_thread_fence() on Linux: membarrier(2), expedited. The expedited
 * form interrupts only the CPUs running one of the registered threads
 * and returns in microseconds; a thread that is not running went through
 * the scheduler, which is a barrier already.
 *
 * While the process is alone, the fence is private to it. Once a
 * secondary process shares the memory config, lcores of several
 * processes share the heap's caches, and the fence must reach them all:
 * every process registers for the global form too, which interrupts the
 * CPUs running any registered process.
 */

#include <errno.h>
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "eal_memcfg.h"
#include "eal_sys.h"

static int
fence_call(int cmd)
{
	return syscall(__NR_membarrier, cmd, 0, 0) < 0 ? -errno : 0;
}

int
eal_thread_fence_register(void)
{
	int ret = fence_call(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED);

	if (ret == 0)
		ret = fence_call(MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED);
	return ret;
}

int
eal_thread_fence(void)
{
	const struct rte_mem_config *mcfg = eal_mcfg_get();

	if (mcfg != NULL && __atomic_load_n(&mcfg->mp_shared, __ATOMIC_ACQUIRE))
		return fence_call(MEMBARRIER_CMD_GLOBAL_EXPEDITED);
	return fence_call(MEMBARRIER_CMD_PRIVATE_EXPEDITED);
}
