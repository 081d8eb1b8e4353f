/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _RTE_PER_LCORE_H_
#define _RTE_PER_LCORE_H_

/**
 * @file
 * Per-thread variables, with DPDK's macro names.
 */

/** Define a per-thread variable. */
#define RTE_DEFINE_PER_LCORE(type, name) \
	__thread __typeof__(type) per_lcore_##name
/**
 * Declare a per-thread variable defined elsewhere. The initial-exec
 * model reads it at a fixed offset from the thread pointer: rte_malloc()
 * and rte_free() read the lcore id on every call, and the default model
 * of a shared library calls into the dynamic linker for it. rtemem's
 * libraries are loaded with the program, and their few bytes of such
 * variables fit the spare room glibc keeps for a later dlopen().
 */
#define RTE_DECLARE_PER_LCORE(type, name) \
	extern __thread __typeof__(type) per_lcore_##name \
			__attribute__((tls_model("initial-exec")))
/** Read or write a per-thread variable. */
#define RTE_PER_LCORE(name) (per_lcore_##name)

#endif /* _RTE_PER_LCORE_H_ */
