/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _RTE_LOG_H_
#define _RTE_LOG_H_

/**
 * @file
 * Leveled logging. Messages go to stderr, or to the stream given to
 * rte_openlog_stream(); RTE_LOG() writes them as "TYPE: message".
 *
 * A message is written if its level is at most both the global level and
 * the level of its log type (a lower level is more severe). Both start
 * at RTE_LOG_INFO; `--log-level` changes them at rte_eal_init(). Logging
 * works before rte_eal_init() and after rte_eal_cleanup().
 */

#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>

#include <rte_common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Levels, as in DPDK and syslog(3) plus one. */
#define RTE_LOG_EMERG 1U /**< the system is unusable */
#define RTE_LOG_ALERT 2U /**< action must be taken at once */
#define RTE_LOG_CRIT 3U /**< critical: rte_panic(), rte_exit() */
#define RTE_LOG_ERR 4U /**< an operation failed */
#define RTE_LOG_WARNING 5U /**< something may be wrong */
#define RTE_LOG_NOTICE 6U /**< normal but worth noticing */
#define RTE_LOG_INFO 7U /**< informational; the default level */
#define RTE_LOG_DEBUG 8U /**< for debugging */
#define RTE_LOG_MAX RTE_LOG_DEBUG /**< the highest (least severe) level */

/* Static log types, with DPDK's numbers for the ones rtemem uses. */
#define RTE_LOGTYPE_EAL 0 /**< rtemem's EAL, named "lib.eal" */
#define RTE_LOGTYPE_MALLOC 1 /**< heaps and memzones, named "lib.malloc" */
#define RTE_LOGTYPE_USER1 24 /**< for the application, named "user1" */
#define RTE_LOGTYPE_USER2 25 /**< for the application, named "user2" */
#define RTE_LOGTYPE_USER3 26 /**< for the application, named "user3" */
#define RTE_LOGTYPE_USER4 27 /**< for the application, named "user4" */
#define RTE_LOGTYPE_USER5 28 /**< for the application, named "user5" */
#define RTE_LOGTYPE_USER6 29 /**< for the application, named "user6" */
#define RTE_LOGTYPE_USER7 30 /**< for the application, named "user7" */
#define RTE_LOGTYPE_USER8 31 /**< for the application, named "user8" */
/** The first id that rte_log_register() gives to a dynamic type. */
#define RTE_LOGTYPE_FIRST_EXT_ID 32

/**
 * Write a message if @p level is enabled for @p logtype.
 *
 * The message is written as given, with one write to the stream, so that
 * lines of different threads do not mix; it usually ends with a newline.
 *
 * @param level
 *   The message's level, RTE_LOG_EMERG to RTE_LOG_DEBUG.
 * @param logtype
 *   A static RTE_LOGTYPE_* or an id from rte_log_register().
 * @param format
 *   The message, a format string, as for printf.
 * @param ...
 *   The values of the format's conversions.
 * @return
 *   0 if the message was written or its level filtered it out, -1 for an
 *   unknown @p logtype or a failed write.
 */
int rte_log(uint32_t level, uint32_t logtype, const char *format, ...)
		__rte_format_printf(3, 4);

/**
 * Write a message if @p level is enabled for @p logtype: rte_log() with
 * the arguments in a va_list.
 *
 * @param level
 *   The message's level, RTE_LOG_EMERG to RTE_LOG_DEBUG.
 * @param logtype
 *   A static RTE_LOGTYPE_* or an id from rte_log_register().
 * @param format
 *   The message, a format string, as for printf.
 * @param ap
 *   The values of the format's conversions.
 * @return
 *   As rte_log().
 */
int rte_vlog(uint32_t level, uint32_t logtype, const char *format, va_list ap)
		__rte_format_printf(3, 0);

/**
 * Log with a static type name: RTE_LOG(ERR, EAL, "...\n").
 *
 * @param l
 *   The level without its prefix: ERR for RTE_LOG_ERR.
 * @param t
 *   The static type without its prefix: EAL for RTE_LOGTYPE_EAL; the
 *   message is prefixed with "EAL: ".
 * @param ...
 *   The format, a string literal, and its values.
 * @return
 *   As rte_log().
 */
#define RTE_LOG(l, t, ...) \
	rte_log(RTE_LOG_##l, RTE_LOGTYPE_##t, #t ": " __VA_ARGS__)

/**
 * Set the global level: no message of a higher (less severe) level is
 * written, whatever its type's level.
 *
 * @param level
 *   The level, RTE_LOG_EMERG to RTE_LOG_DEBUG; it is not checked.
 */
void rte_log_set_global_level(uint32_t level);

/**
 * The global log level (see rte_log_set_global_level()).
 *
 * @return
 *   The level; RTE_LOG_INFO unless changed.
 */
uint32_t rte_log_get_global_level(void);

/**
 * Set the level of one log type: its messages of a higher (less severe)
 * level are not written.
 *
 * @param logtype
 *   A static RTE_LOGTYPE_* or an id from rte_log_register().
 * @param level
 *   The level, 0 (nothing) to RTE_LOG_MAX.
 * @return
 *   0, or -1 if @p logtype does not exist or @p level is above
 *   RTE_LOG_MAX.
 */
int rte_log_set_level(uint32_t logtype, uint32_t level);

/**
 * The level of one log type.
 *
 * @param logtype
 *   A static RTE_LOGTYPE_* or an id from rte_log_register().
 * @return
 *   The level, or -1 if @p logtype does not exist.
 */
int rte_log_get_level(uint32_t logtype);

/**
 * Whether a message would be written, to skip preparing one that would
 * not.
 *
 * @param logtype
 *   A static RTE_LOGTYPE_* or an id from rte_log_register().
 * @param level
 *   The message's level.
 * @return
 *   1 if a message of @p level and @p logtype would be written, 0 if not
 *   or if @p logtype does not exist.
 */
int rte_log_can_log(uint32_t logtype, uint32_t level);

/**
 * Set the level of every type whose name matches the glob @p pattern.
 *
 * The pattern is also remembered (up to 32 of them): a type registered
 * later whose name matches takes the level of the last matching pattern
 * given, instead of its default.
 *
 * @param pattern
 *   An fnmatch(3) glob over type names, such as "lib.*"; shorter than 64
 *   bytes.
 * @param level
 *   The level, 0 (nothing) to RTE_LOG_MAX.
 * @return
 *   0, or -1 if @p pattern is NULL or too long or @p level is above
 *   RTE_LOG_MAX.
 */
int rte_log_set_level_pattern(const char *pattern, uint32_t level);

/**
 * Register a dynamic log type, or find an existing one by name; a new type
 * gets the level RTE_LOG_INFO, or that of a matching level pattern.
 *
 * @param name
 *   The type's name, such as "app.net", 1 to 63 characters.
 * @return
 *   The type id (RTE_LOGTYPE_FIRST_EXT_ID or more for a new type), or -1
 *   if @p name is NULL, empty or too long, or the table of 256 types is
 *   full.
 */
int rte_log_register(const char *name);

/**
 * Register a dynamic log type with a default level, or find an existing
 * one by name (its level is then left as it is).
 *
 * @param name
 *   The type's name, 1 to 63 characters.
 * @param level_def
 *   The level of a new type, unless a level pattern given earlier (see
 *   rte_log_set_level_pattern()) matches its name.
 * @return
 *   The type id, or -1 if @p name is NULL, empty or too long,
 *   @p level_def is above RTE_LOG_MAX, or the table is full.
 */
int rte_log_register_type_and_pick_level(const char *name, uint32_t level_def);

/**
 * Send messages to another stream than stderr.
 *
 * @param f
 *   The stream, which must stay open while it is in use; NULL restores
 *   stderr.
 * @return
 *   0.
 */
int rte_openlog_stream(FILE *f);

/**
 * The stream messages go to.
 *
 * @return
 *   The stream given to rte_openlog_stream(), or stderr.
 */
FILE *rte_log_get_stream(void);

/**
 * Print the global level, then each log type's id, name and level.
 *
 * @param f
 *   The stream to print to.
 */
void rte_log_dump(FILE *f);

#ifdef __cplusplus
}
#endif

#endif /* _RTE_LOG_H_ */
