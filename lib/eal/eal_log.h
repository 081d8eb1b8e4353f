/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _EAL_LOG_H_
#define _EAL_LOG_H_

/* Internal logging shorthands: EAL_LOG(ERR, "...") adds "EAL: " and "\n". */

#include <stdint.h>

#include <rte_log.h>

#define EAL_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, RTE_LOGTYPE_EAL, "EAL: " fmt "\n", \
			##__VA_ARGS__)

/*
 * The name of log @p level ("emergency" ... "debug"), as --log-level
 * accepts it and rte_log_dump() prints it; "unknown" out of range.
 */
const char *eal_log_level_name(uint32_t level);

/*
 * Apply the --log-level rules of the options (global level first, then
 * patterns in command-line order).
 */
struct eal_options;
void eal_log_apply_options(const struct eal_options *opts);

#endif /* _EAL_LOG_H_ */
