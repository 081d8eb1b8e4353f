/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _RTE_LOG_H_
#define _RTE_LOG_H_

/**
 * @file
 * Leveled logging. Messages go to stderr (or the stream given to
 * rte_openlog_stream()) as "TYPE: message".
 */

#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>

#include <rte_common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Levels, as in DPDK and syslog(3) plus one. */
#define RTE_LOG_EMERG 1U
#define RTE_LOG_ALERT 2U
#define RTE_LOG_CRIT 3U
#define RTE_LOG_ERR 4U
#define RTE_LOG_WARNING 5U
#define RTE_LOG_NOTICE 6U
#define RTE_LOG_INFO 7U
#define RTE_LOG_DEBUG 8U
#define RTE_LOG_MAX RTE_LOG_DEBUG

/* Static log types, with DPDK's numbers for the ones rtemem uses. */
#define RTE_LOGTYPE_EAL 0
#define RTE_LOGTYPE_MALLOC 1
#define RTE_LOGTYPE_USER1 24
#define RTE_LOGTYPE_USER2 25
#define RTE_LOGTYPE_USER3 26
#define RTE_LOGTYPE_USER4 27
#define RTE_LOGTYPE_USER5 28
#define RTE_LOGTYPE_USER6 29
#define RTE_LOGTYPE_USER7 30
#define RTE_LOGTYPE_USER8 31
#define RTE_LOGTYPE_FIRST_EXT_ID 32

/**
 * Write a message if @p level is enabled for @p logtype.
 *
 * @return 0 if the message was written or its level filtered it out, -1
 *   for an unknown @p logtype or a failed write.
 */
int rte_log(uint32_t level, uint32_t logtype, const char *format, ...)
		__rte_format_printf(3, 4);

/** The va_list form of rte_log(). */
int rte_vlog(uint32_t level, uint32_t logtype, const char *format, va_list ap)
		__rte_format_printf(3, 0);

/**
 * Log with a static type name: RTE_LOG(ERR, EAL, "...\n").
 */
#define RTE_LOG(l, t, ...) \
	rte_log(RTE_LOG_##l, RTE_LOGTYPE_##t, #t ": " __VA_ARGS__)

/** Set the level above which nothing is logged, for all types. */
void rte_log_set_global_level(uint32_t level);

/** @return the global log level. */
uint32_t rte_log_get_global_level(void);

/**
 * Set the level of one log type.
 *
 * @return 0, or -1 if @p logtype or @p level is out of range.
 */
int rte_log_set_level(uint32_t logtype, uint32_t level);

/** @return the level of @p logtype, or -1 if it does not exist. */
int rte_log_get_level(uint32_t logtype);

/**
 * @return true if a message of @p level and @p logtype would be written.
 */
int rte_log_can_log(uint32_t logtype, uint32_t level);

/**
 * Set the level of every type whose name matches the glob @p pattern.
 *
 * @return 0, or -1 if @p level is out of range.
 */
int rte_log_set_level_pattern(const char *pattern, uint32_t level);

/**
 * Register a dynamic log type, or find an existing one by name.
 *
 * @return the type id, or -1 if the table is full.
 */
int rte_log_register(const char *name);

/**
 * Register a log type and set its level.
 *
 * @return the type id, or -1 if the table is full.
 */
int rte_log_register_type_and_pick_level(const char *name, uint32_t level_def);

/**
 * Send messages to @p f instead of stderr (NULL restores stderr).
 *
 * @return 0.
 */
int rte_openlog_stream(FILE *f);

/** @return the stream messages go to. */
FILE *rte_log_get_stream(void);

/** Print the log types and their levels to @p f. */
void rte_log_dump(FILE *f);

#ifdef __cplusplus
}
#endif

#endif /* _RTE_LOG_H_ */
