/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Log types, levels and the output stream.
 *
 * Owns the table of log types: the static ones (index = RTE_LOGTYPE_*)
 * and the dynamic ones that rte_log_register() appends from
 * RTE_LOGTYPE_FIRST_EXT_ID on. A type exists when its slot has a name.
 *
 * Invariants: a slot's name never changes once set; n_types only grows.
 * Levels, the global level and the stream are read without the lock (each
 * is one atomic word); registration and the saved patterns are changed
 * under the mutex.
 *
 * Level patterns (rte_log_set_level_pattern) are remembered so that a type
 * registered later gets the level the command line asked for: a library
 * may register its type after rte_eal_init() applied --log-level.
 */

#include <fnmatch.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_log.h>

#include "eal_log.h"
#include "eal_options.h"

#define LOG_MAX_TYPES 256 /* static and dynamic types together */
#define LOG_NAME_MAX 64 /* longest type name, with the NUL */
#define LOG_MAX_PATTERNS 32 /* patterns remembered for later types */
#define LOG_LINE_MAX 512 /* messages longer than this are heap-formatted */

struct log_type {
	char name[LOG_NAME_MAX]; /* "" for an unused slot */
	uint32_t level; /* RTE_LOG_*; read and written atomically */
};

struct log_pattern {
	char pattern[LOG_NAME_MAX]; /* fnmatch(3) glob over type names */
	uint32_t level; /* RTE_LOG_* */
};

/*
 * The log state is the one process-wide mutable static of the library:
 * messages can be logged before rte_eal_init() and from constructors, and
 * after rte_eal_cleanup(), so it cannot live in the EAL context. It is
 * initialized statically so that it works before any constructor runs.
 */
static struct {
	pthread_mutex_t lock; /* guards registration and the patterns */
	uint32_t global_level; /* RTE_LOG_*; atomic */
	FILE *stream; /* NULL: stderr; atomic */
	unsigned int n_types; /* slots in use or reserved; atomic */
	struct log_type types[LOG_MAX_TYPES];
	unsigned int n_patterns; /* entries of patterns[] */
	struct log_pattern patterns[LOG_MAX_PATTERNS];
} log_state = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.global_level = RTE_LOG_INFO,
	.stream = NULL,
	.n_types = RTE_LOGTYPE_FIRST_EXT_ID,
	.types = {
		[RTE_LOGTYPE_EAL] = { "lib.eal", RTE_LOG_INFO },
		[RTE_LOGTYPE_MALLOC] = { "lib.malloc", RTE_LOG_INFO },
		[RTE_LOGTYPE_USER1] = { "user1", RTE_LOG_INFO },
		[RTE_LOGTYPE_USER2] = { "user2", RTE_LOG_INFO },
		[RTE_LOGTYPE_USER3] = { "user3", RTE_LOG_INFO },
		[RTE_LOGTYPE_USER4] = { "user4", RTE_LOG_INFO },
		[RTE_LOGTYPE_USER5] = { "user5", RTE_LOG_INFO },
		[RTE_LOGTYPE_USER6] = { "user6", RTE_LOG_INFO },
		[RTE_LOGTYPE_USER7] = { "user7", RTE_LOG_INFO },
		[RTE_LOGTYPE_USER8] = { "user8", RTE_LOG_INFO },
	},
};

static const char *const log_level_names[] = {
	[RTE_LOG_EMERG] = "emergency",
	[RTE_LOG_ALERT] = "alert",
	[RTE_LOG_CRIT] = "critical",
	[RTE_LOG_ERR] = "error",
	[RTE_LOG_WARNING] = "warning",
	[RTE_LOG_NOTICE] = "notice",
	[RTE_LOG_INFO] = "info",
	[RTE_LOG_DEBUG] = "debug",
};

/* The slot of @p logtype if that type exists, else NULL. */
static struct log_type *
log_type_get(uint32_t logtype)
{
	unsigned int n = __atomic_load_n(&log_state.n_types, __ATOMIC_ACQUIRE);

	if (logtype >= n || log_state.types[logtype].name[0] == '\0')
		return NULL;
	return &log_state.types[logtype];
}

static uint32_t
log_level_load(const uint32_t *level)
{
	return __atomic_load_n(level, __ATOMIC_RELAXED);
}

static void
log_level_store(uint32_t *level, uint32_t value)
{
	__atomic_store_n(level, value, __ATOMIC_RELAXED);
}

void
rte_log_set_global_level(uint32_t level)
{
	log_level_store(&log_state.global_level, level);
}

uint32_t
rte_log_get_global_level(void)
{
	return log_level_load(&log_state.global_level);
}

int
rte_log_set_level(uint32_t logtype, uint32_t level)
{
	struct log_type *t = log_type_get(logtype);

	if (t == NULL || level > RTE_LOG_MAX)
		return -1;
	log_level_store(&t->level, level);
	return 0;
}

int
rte_log_get_level(uint32_t logtype)
{
	struct log_type *t = log_type_get(logtype);

	if (t == NULL)
		return -1;
	return (int)log_level_load(&t->level);
}

int
rte_log_can_log(uint32_t logtype, uint32_t level)
{
	struct log_type *t = log_type_get(logtype);

	if (t == NULL)
		return false;
	return level <= log_level_load(&log_state.global_level) &&
			level <= log_level_load(&t->level);
}

/* Remember @p pattern for types registered later; lock held. */
static void
log_pattern_save(const char *pattern, uint32_t level)
{
	struct log_pattern *p;
	unsigned int i;

	/* A pattern given again moves to the end: it is the latest word. */
	for (i = 0; i < log_state.n_patterns; i++) {
		if (strcmp(log_state.patterns[i].pattern, pattern) != 0)
			continue;
		memmove(&log_state.patterns[i], &log_state.patterns[i + 1],
				(log_state.n_patterns - i - 1) *
						sizeof(log_state.patterns[0]));
		log_state.n_patterns--;
		break;
	}
	if (log_state.n_patterns == LOG_MAX_PATTERNS)
		return;
	p = &log_state.patterns[log_state.n_patterns++];
	strcpy(p->pattern, pattern);
	p->level = level;
}

int
rte_log_set_level_pattern(const char *pattern, uint32_t level)
{
	unsigned int i;

	if (pattern == NULL || level > RTE_LOG_MAX ||
			strlen(pattern) >= LOG_NAME_MAX)
		return -1;
	pthread_mutex_lock(&log_state.lock);
	for (i = 0; i < log_state.n_types; i++) {
		struct log_type *t = &log_state.types[i];

		if (t->name[0] != '\0' && fnmatch(pattern, t->name, 0) == 0)
			log_level_store(&t->level, level);
	}
	log_pattern_save(pattern, level);
	pthread_mutex_unlock(&log_state.lock);
	return 0;
}

/* @return the id of type @p name, or -1; lock held. */
static int
log_type_lookup(const char *name)
{
	unsigned int i;

	for (i = 0; i < log_state.n_types; i++)
		if (strcmp(log_state.types[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* The level a new type @p name gets: the last saved pattern matching. */
static uint32_t
log_pattern_level(const char *name, uint32_t level_def)
{
	uint32_t level = level_def;
	unsigned int i;

	for (i = 0; i < log_state.n_patterns; i++)
		if (fnmatch(log_state.patterns[i].pattern, name, 0) == 0)
			level = log_state.patterns[i].level;
	return level;
}

int
rte_log_register_type_and_pick_level(const char *name, uint32_t level_def)
{
	struct log_type *t;
	int id;

	if (name == NULL || name[0] == '\0' || strlen(name) >= LOG_NAME_MAX ||
			level_def > RTE_LOG_MAX)
		return -1;
	pthread_mutex_lock(&log_state.lock);
	id = log_type_lookup(name);
	if (id >= 0 || log_state.n_types == LOG_MAX_TYPES)
		goto out;
	id = (int)log_state.n_types;
	t = &log_state.types[id];
	strcpy(t->name, name);
	log_level_store(&t->level, log_pattern_level(name, level_def));
	/* Publish the slot only once its name and level are written. */
	__atomic_store_n(&log_state.n_types, id + 1, __ATOMIC_RELEASE);
out:
	pthread_mutex_unlock(&log_state.lock);
	return id;
}

int
rte_log_register(const char *name)
{
	return rte_log_register_type_and_pick_level(name, RTE_LOG_INFO);
}

int
rte_openlog_stream(FILE *f)
{
	__atomic_store_n(&log_state.stream, f, __ATOMIC_RELEASE);
	return 0;
}

FILE *
rte_log_get_stream(void)
{
	FILE *f = __atomic_load_n(&log_state.stream, __ATOMIC_ACQUIRE);

	return f == NULL ? stderr : f;
}

const char *
eal_log_level_name(uint32_t level)
{
	if (level >= RTE_DIM(log_level_names) || log_level_names[level] == NULL)
		return "unknown";
	return log_level_names[level];
}

void
rte_log_dump(FILE *f)
{
	unsigned int i;

	pthread_mutex_lock(&log_state.lock);
	fprintf(f, "global log level is %s\n",
			eal_log_level_name(rte_log_get_global_level()));
	for (i = 0; i < log_state.n_types; i++) {
		const struct log_type *t = &log_state.types[i];

		if (t->name[0] == '\0')
			continue;
		fprintf(f, "id %u: %s, level is %s\n", i, t->name,
				eal_log_level_name(log_level_load(&t->level)));
	}
	pthread_mutex_unlock(&log_state.lock);
}

/*
 * Format the whole message first and hand it to stdio in one fwrite():
 * stdio locks the stream for the call, so lines from different threads do
 * not interleave.
 */
int
rte_vlog(uint32_t level, uint32_t logtype, const char *format, va_list ap)
{
	char line[LOG_LINE_MAX];
	char *buf = line;
	FILE *f = rte_log_get_stream();
	va_list ap2;
	size_t written;
	int len;

	if (log_type_get(logtype) == NULL)
		return -1;
	if (!rte_log_can_log(logtype, level))
		return 0;
	va_copy(ap2, ap);
	len = vsnprintf(line, sizeof(line), format, ap2);
	va_end(ap2);
	if (len < 0)
		return -1;
	if ((size_t)len >= sizeof(line)) {
		buf = malloc((size_t)len + 1);
		if (buf == NULL)
			return -1;
		vsnprintf(buf, (size_t)len + 1, format, ap);
	}
	written = fwrite(buf, 1, (size_t)len, f);
	fflush(f);
	if (buf != line)
		free(buf);
	return written == (size_t)len ? 0 : -1;
}

int
rte_log(uint32_t level, uint32_t logtype, const char *format, ...)
{
	va_list ap;
	int ret;

	va_start(ap, format);
	ret = rte_vlog(level, logtype, format, ap);
	va_end(ap);
	return ret;
}

/*
 * The global rules come first so that "--log-level=lib.eal:debug
 * --log-level=notice" keeps lib.eal at debug whatever the order. A global
 * level is also given to every type (as the pattern "*", so that types
 * registered later get it too): a message must pass both levels, and
 * "--log-level=debug" is meant to show debug messages.
 */
void
eal_log_apply_options(const struct eal_options *opts)
{
	unsigned int i;

	for (i = 0; i < opts->n_log_rules; i++) {
		const struct eal_log_rule *r = &opts->log_rules[i];

		if (r->pattern[0] != '\0')
			continue;
		rte_log_set_global_level(r->level);
		rte_log_set_level_pattern("*", r->level);
	}
	for (i = 0; i < opts->n_log_rules; i++) {
		const struct eal_log_rule *r = &opts->log_rules[i];

		if (r->pattern[0] == '\0')
			continue;
		if (rte_log_set_level_pattern(r->pattern, r->level) < 0)
			EAL_LOG(WARNING, "cannot apply --log-level=%s:%u",
					r->pattern, r->level);
	}
}
