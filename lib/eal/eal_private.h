/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _EAL_PRIVATE_H_
#define _EAL_PRIVATE_H_

/*
 * The EAL context: everything rte_eal_init() builds for this process.
 * Functions inside the EAL receive the part they need; the process-wide
 * pointer is read only at rte_* entry points.
 */

#include <stdbool.h>

#include <rte_eal.h>

#include "eal_hugepage_info.h"
#include "eal_lcore.h"
#include "eal_mem.h"
#include "eal_options.h"
#include "linux/eal_runtime.h"

struct eal_context {
	struct eal_options opts; /* read-only after init */
	struct eal_runtime rt; /* runtime directory, unless --no-shconf */
	struct eal_hugepage_info hpi; /* read-only after init */
	struct eal_mem mem; /* memory layer */
	struct eal_lcores lcores; /* lcores and their threads */
	enum rte_proc_type_t proc_type; /* PRIMARY or SECONDARY */
};

/* The context of the initialized EAL, or NULL. */
struct eal_context *eal_context_get(void);

#endif /* _EAL_PRIVATE_H_ */
