/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * EAL command line: syntax (eal_options_parse) and rules between options
 * (eal_options_resolve).
 *
 * Design note
 * - The option table, the option ids and the --help text all come from
 *   EAL_OPTION_LIST, so an option exists in one place only.
 * - No getopt: getopt keeps global state (optind, optarg) and permutes
 *   argv. This parser only reads argv, keeps its position in a local, and
 *   stops at "--" (consumed) or at the first non-option (not consumed).
 *   Long option names must match exactly (no abbreviations).
 * - Everything here is pure: no logging, no global state, no allocation.
 *   Each failure writes exactly one line, without a newline, to the
 *   caller's buffer and returns -EINVAL. Messages are stable: tests and
 *   the documentation quote them.
 * - Parsing checks each option alone; eal_options_resolve() then applies
 *   the conflicts in a fixed order, so the first conflict reported does
 *   not depend on the order of the command line, and resolving twice
 *   gives the same result.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <rte_common.h>
#include <rte_log.h>

#include "eal_log.h"
#include "eal_options.h"

/* Memory mapped with --no-huge when -m is not given. */
#define EAL_NO_HUGE_DEFAULT_MEMORY (64 * RTE_MB)

/* Longest part of a bad value quoted back in a message. */
#define EAL_ERR_VALUE_MAX 80

/* One entry of the option table. */
struct eal_opt_def {
	const char *name; /* long name, without "--" */
	char letter; /* short option letter, 0 if none */
	enum eal_opt_arg arg; /* what the option takes */
	const char *meta; /* metavar in --help, NULL for switches */
	const char *help; /* one-line description in --help */
};

static const struct eal_opt_def opt_defs[EAL_OPT_COUNT] = {
#define EAL_OPT_DEF(id, name, letter, arg, meta, help) \
	[EAL_OPT_##id] = { name, letter, arg, meta, help },
	EAL_OPTION_LIST(EAL_OPT_DEF)
#undef EAL_OPT_DEF
};

/* What a valid value looks like, quoted in error messages. */
static const char *const opt_expect[EAL_OPT_COUNT] = {
	[EAL_OPT_MEMORY] = "a size in MB, e.g. 512 or 2G",
	[EAL_OPT_SOCKET_MEM] = "sizes in MB separated by commas, e.g. 1024,512",
	[EAL_OPT_SOCKET_LIMIT] =
			"sizes in MB separated by commas, e.g. 1024,512",
	[EAL_OPT_HUGE_DIR] = "a hugetlbfs directory",
	[EAL_OPT_FILE_PREFIX] = "a file name prefix such as rte",
	[EAL_OPT_HUGE_UNLINK] = "existing, always or never",
	[EAL_OPT_IOVA_MODE] = "pa or va",
	[EAL_OPT_KEEP_MEMZONES] = "nothing, or =discard-mismatch",
	[EAL_OPT_MEMZONE_IMAGE] = "the path of an image file",
	[EAL_OPT_MEMZONE_IMAGE_STRATEGY] =
			"auto, pread, mmap, direct, uffd-copy or uffd-minor",
	[EAL_OPT_MEMZONE_IMAGE_THREADS] = "a number of threads from 1 to 64",
	[EAL_OPT_MEMZONE_IMAGE_PREFETCH] = "on or off",
	[EAL_OPT_HUGE_TEXT] = "nothing, or =auto, =enforce, =thp or =off",
	[EAL_OPT_HUGE_TEXT_LIBS] = "library names or prefixes separated by "
				   "commas, e.g. libssl.so.3,libcrypto",
	[EAL_OPT_MALLOC_RETAIN] =
			"a size in MB, e.g. 256 or 1G (0: keep nothing)",
	[EAL_OPT_MALLOC_DECAY] = "milliseconds from 0 to 3600000",
	[EAL_OPT_POPULATE_THREADS] =
			"a number of threads from 1 to 256, or auto",
	[EAL_OPT_PROC_TYPE] = "primary, secondary or auto",
	[EAL_OPT_BASE_VIRTADDR] =
			"a non-zero hexadecimal address, e.g. 0x100000000",
	[EAL_OPT_LOG_LEVEL] =
			"a level 1-8 or emergency, alert, critical, "
			"error, warning, notice, info or debug, optionally after TYPE:",
	[EAL_OPT_LCORES_LIST] =
			"CPU numbers and ranges separated by commas, e.g. 0-3,5, "
			"or LCORE@CPU entries",
};

static const char *const huge_unlink_names[] = {
	[EAL_HUGE_UNLINK_EXISTING] = "existing",
	[EAL_HUGE_UNLINK_ALWAYS] = "always",
	[EAL_HUGE_UNLINK_NEVER] = "never",
};

static const char *const image_strategy_names[] = {
	[EAL_IMAGE_AUTO] = "auto",
	[EAL_IMAGE_PREAD] = "pread",
	[EAL_IMAGE_MMAP] = "mmap",
	[EAL_IMAGE_DIRECT] = "direct",
	[EAL_IMAGE_UFFD_COPY] = "uffd-copy",
	[EAL_IMAGE_UFFD_MINOR] = "uffd-minor",
};

/* What an option with an optional value means without one. */
static const char *const opt_bare[EAL_OPT_COUNT] = {
	[EAL_OPT_HUGE_UNLINK] = "always",
	[EAL_OPT_KEEP_MEMZONES] = "strict restoring",
	[EAL_OPT_HUGE_TEXT] = "auto",
};

/* The option being parsed, for handlers and their messages. */
struct opt_ctx {
	enum eal_option_id id; /* which option */
	const char *value; /* its value, NULL if none was given */
	char *err; /* message buffer of the caller */
	size_t err_len; /* size of err in bytes */
};

typedef int (*opt_handler)(struct eal_options *opts, const struct opt_ctx *ctx);

static int set_err(char *err, size_t err_len, const char *fmt, ...)
		__rte_format_printf(3, 4);
static int bad_value(const struct opt_ctx *ctx, const char *fmt, ...)
		__rte_format_printf(2, 3);

/*
 * Messages quote what was typed: a control character in it (a newline,
 * an escape sequence) is shown as '?', so that a message stays one line
 * that cannot rewrite the log or the terminal.
 */
static int
set_err(char *err, size_t err_len, const char *fmt, ...)
{
	va_list ap;
	char *c;

	if (err == NULL || err_len == 0)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(err, err_len, fmt, ap);
	va_end(ap);
	for (c = err; *c != '\0'; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	return -EINVAL;
}

/* "-m/--memory" for options with a letter, "--huge-dir" otherwise. */
static const char *
opt_display(enum eal_option_id id, char *buf, size_t len)
{
	const struct eal_opt_def *def = &opt_defs[id];

	if (def->letter != 0)
		snprintf(buf, len, "-%c/--%s", def->letter, def->name);
	else
		snprintf(buf, len, "--%s", def->name);
	return buf;
}

/*
 * "invalid value 'V' for OPT: " followed by @p fmt. Long values are cut so
 * that the explanation still fits in the caller's buffer.
 */
static int
bad_value(const struct opt_ctx *ctx, const char *fmt, ...)
{
	char name[48];
	char detail[256];
	size_t vlen = strlen(ctx->value);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	return set_err(ctx->err, ctx->err_len,
			"invalid value '%.*s%s' for %s: %s",
			(int)RTE_MIN(vlen, (size_t)EAL_ERR_VALUE_MAX),
			ctx->value, vlen > EAL_ERR_VALUE_MAX ? "..." : "",
			opt_display(ctx->id, name, sizeof(name)), detail);
}

/* The usual message: the value is not of the expected form. */
static int
bad_form(const struct opt_ctx *ctx)
{
	return bad_value(ctx, "expected %s", opt_expect[ctx->id]);
}

/*
 * Parse the decimal number in s[0..len). Only digits: no sign, no
 * blank, no base prefix.
 *
 * @return 0, -EINVAL if not a number, -ERANGE if above UINT64_MAX.
 */
static int
parse_u64(const char *s, size_t len, uint64_t *val)
{
	uint64_t v = 0;
	size_t i;

	if (len == 0)
		return -EINVAL;
	for (i = 0; i < len; i++) {
		unsigned int digit = (unsigned char)s[i] - '0';

		if (digit > 9)
			return -EINVAL;
		if (v > (UINT64_MAX - digit) / 10)
			return -ERANGE;
		v = v * 10 + digit;
	}
	*val = v;
	return 0;
}

/*
 * Parse a size in s[0..len): a number of MB, or a number with a K, M or G
 * suffix (any case), into bytes.
 *
 * @return 0, -EINVAL if malformed, -ERANGE if it overflows 64 bits.
 */
static int
parse_size(const char *s, size_t len, uint64_t *bytes)
{
	static const char units[] = "kmg"; /* 2^10, 2^20, 2^30 */
	const char *unit = len > 1 ? memchr(units, s[len - 1] | 0x20, 3) : NULL;
	unsigned int shift = 20;
	uint64_t v;
	int ret;

	if (unit != NULL) {
		shift = 10 * (unsigned int)(unit - units + 1);
		len--;
	}
	ret = parse_u64(s, len, &v);
	if (ret < 0)
		return ret;
	if (v > (UINT64_MAX >> shift))
		return -ERANGE;
	*bytes = v << shift;
	return 0;
}

/* A bad size: the whole value, or entry s[0..len) of a list. */
static int
bad_size(const struct opt_ctx *ctx, int ret, const char *s, size_t len)
{
	bool whole = s == ctx->value && s[len] == '\0';

	if (len == 0)
		return bad_value(ctx, "empty entry, expected %s",
				opt_expect[ctx->id]);
	if (ret == -ERANGE && whole)
		return bad_value(ctx,
				"too large, expected at most %" PRIu64 " MB",
				UINT64_MAX >> 20);
	if (ret == -ERANGE)
		return bad_value(ctx,
				"entry '%.*s' is too large, expected at most %" PRIu64
				" MB",
				(int)len, s, UINT64_MAX >> 20);
	if (whole)
		return bad_form(ctx);
	return bad_value(ctx, "entry '%.*s' is not a size, expected %s",
			(int)len, s, opt_expect[ctx->id]);
}

static int
opt_memory(struct eal_options *opts, const struct opt_ctx *ctx)
{
	size_t len = strlen(ctx->value);
	int ret;

	ret = parse_size(ctx->value, len, &opts->memory);
	if (ret < 0)
		return bad_size(ctx, ret, ctx->value, len);
	opts->memory_given = true;
	return 0;
}

static int
opt_malloc_retain(struct eal_options *opts, const struct opt_ctx *ctx)
{
	size_t len = strlen(ctx->value);
	int ret;

	ret = parse_size(ctx->value, len, &opts->malloc_retain);
	if (ret < 0)
		return bad_size(ctx, ret, ctx->value, len);
	opts->malloc_retain_given = true;
	return 0;
}

static int
opt_malloc_decay(struct eal_options *opts, const struct opt_ctx *ctx)
{
	uint64_t ms;

	if (parse_u64(ctx->value, strlen(ctx->value), &ms) < 0 ||
			ms > EAL_MALLOC_DECAY_MAX_MS)
		return bad_value(ctx, "expected %s", opt_expect[ctx->id]);
	opts->malloc_decay_ms = (uint32_t)ms;
	opts->malloc_decay_given = true;
	return 0;
}

static int
opt_populate_threads(struct eal_options *opts, const struct opt_ctx *ctx)
{
	uint64_t n;

	if (strcmp(ctx->value, "auto") == 0) {
		opts->populate_threads = EAL_POPULATE_THREADS_AUTO;
		return 0;
	}
	if (parse_u64(ctx->value, strlen(ctx->value), &n) < 0 || n == 0 ||
			n > EAL_POPULATE_THREADS_MAX)
		return bad_value(ctx, "expected %s", opt_expect[ctx->id]);
	opts->populate_threads = (uint32_t)n;
	return 0;
}

/* --socket-mem and --socket-limit: one size per NUMA node. */
static int
opt_socket_list(struct eal_options *opts, const struct opt_ctx *ctx)
{
	bool is_mem = ctx->id == EAL_OPT_SOCKET_MEM;
	uint64_t *sizes = is_mem ? opts->socket_mem : opts->socket_limit;
	uint64_t parsed[RTE_MAX_NUMA_NODES] = { 0 };
	const char *s = ctx->value;
	unsigned int n = 0;
	int ret;

	for (;;) {
		size_t len = strcspn(s, ",");

		if (n == RTE_MAX_NUMA_NODES)
			return bad_value(ctx,
					"more than %u entries, expected one per NUMA node",
					RTE_MAX_NUMA_NODES);
		ret = parse_size(s, len, &parsed[n]);
		if (ret < 0)
			return bad_size(ctx, ret, s, len);
		n++;
		if (s[len] == '\0')
			break;
		s += len + 1;
	}
	/* The entries not given are zeroed: the last option wins whole. */
	memcpy(sizes, parsed, sizeof(parsed));
	*(is_mem ? &opts->n_socket_mem : &opts->n_socket_limit) = n;
	return 0;
}

static int
opt_huge_dir(struct eal_options *opts, const struct opt_ctx *ctx)
{
	size_t len = strlen(ctx->value);

	if (len >= sizeof(opts->huge_dir))
		return bad_value(ctx, "expected a path shorter than %zu bytes",
				sizeof(opts->huge_dir));
	memcpy(opts->huge_dir, ctx->value, len + 1);
	return 0;
}

static int
opt_file_prefix(struct eal_options *opts, const struct opt_ctx *ctx)
{
	size_t len = strlen(ctx->value);
	size_t bad = strcspn(ctx->value, "/%");

	if (bad < len)
		return bad_value(ctx,
				"the character '%c' is not allowed, expected %s",
				ctx->value[bad],
				opt_expect[EAL_OPT_FILE_PREFIX]);
	if (len >= sizeof(opts->file_prefix))
		return bad_value(ctx, "expected at most %zu characters",
				sizeof(opts->file_prefix) - 1);
	memcpy(opts->file_prefix, ctx->value, len + 1);
	return 0;
}

static int
opt_huge_unlink(struct eal_options *opts, const struct opt_ctx *ctx)
{
	unsigned int mode;

	if (ctx->value == NULL) {
		opts->huge_unlink_given |= 1U << EAL_HUGE_UNLINK_ALWAYS;
		return 0;
	}
	for (mode = 0; mode < RTE_DIM(huge_unlink_names); mode++) {
		if (strcmp(ctx->value, huge_unlink_names[mode]) == 0) {
			opts->huge_unlink_given |= 1U << mode;
			return 0;
		}
	}
	return bad_form(ctx);
}

/*
 * Whether @p s is a value of the option @p id, which takes its value
 * only after '=': then "--opt VALUE" is a typo for "--opt=VALUE", which
 * would otherwise run silently in another mode.
 */
static bool
opt_value_known(enum eal_option_id id, const char *s)
{
	unsigned int mode;

	if (id == EAL_OPT_KEEP_MEMZONES)
		return strcmp(s, "discard-mismatch") == 0;
	if (id == EAL_OPT_HUGE_TEXT) {
		enum rte_hugetext_mode m;

		return rte_hugetext_mode_parse(s, &m) == 0;
	}
	if (id != EAL_OPT_HUGE_UNLINK)
		return false;
	for (mode = 0; mode < RTE_DIM(huge_unlink_names); mode++)
		if (strcmp(s, huge_unlink_names[mode]) == 0)
			return true;
	return false;
}

static int
opt_keep_memzones(struct eal_options *opts, const struct opt_ctx *ctx)
{
	if (ctx->value == NULL)
		opts->keep_memzones = EAL_KEEP_STRICT;
	else if (strcmp(ctx->value, "discard-mismatch") == 0)
		opts->keep_memzones = EAL_KEEP_DISCARD_MISMATCH;
	else
		return bad_form(ctx);
	return 0;
}

static int
opt_huge_text(struct eal_options *opts, const struct opt_ctx *ctx)
{
	if (ctx->value == NULL)
		opts->huge_text = RTE_HUGETEXT_AUTO;
	else if (rte_hugetext_mode_parse(ctx->value, &opts->huge_text) != 0)
		return bad_form(ctx);
	return 0;
}

static int
opt_memzone_image(struct eal_options *opts, const struct opt_ctx *ctx)
{
	size_t len = strlen(ctx->value);

	if (len >= sizeof(opts->memzone_image))
		return bad_value(ctx, "expected at most %zu bytes",
				sizeof(opts->memzone_image) - 1);
	memcpy(opts->memzone_image, ctx->value, len + 1);
	return 0;
}

static int
opt_memzone_image_strategy(struct eal_options *opts, const struct opt_ctx *ctx)
{
	unsigned int s;

	for (s = 0; s < RTE_DIM(image_strategy_names); s++)
		if (strcmp(ctx->value, image_strategy_names[s]) == 0)
			break;
	if (s == RTE_DIM(image_strategy_names))
		return bad_value(ctx, "expected %s", opt_expect[ctx->id]);
	opts->image_strategy = (enum eal_image_strategy)s;
	opts->image_strategy_given = true;
	return 0;
}

static int
opt_memzone_image_threads(struct eal_options *opts, const struct opt_ctx *ctx)
{
	uint64_t n;

	if (parse_u64(ctx->value, strlen(ctx->value), &n) < 0 || n == 0 ||
			n > EAL_IMAGE_THREADS_MAX)
		return bad_value(ctx, "expected %s", opt_expect[ctx->id]);
	opts->image_threads = (uint32_t)n;
	return 0;
}

static int
opt_memzone_image_prefetch(struct eal_options *opts, const struct opt_ctx *ctx)
{
	if (strcmp(ctx->value, "on") != 0 && strcmp(ctx->value, "off") != 0)
		return bad_value(ctx, "expected %s", opt_expect[ctx->id]);
	opts->image_no_prefetch = strcmp(ctx->value, "off") == 0;
	opts->image_prefetch_given = true;
	return 0;
}

/* Names separated by commas: no empty name, no '/' (a base name). */
static int
opt_huge_text_libs(struct eal_options *opts, const struct opt_ctx *ctx)
{
	const char *v = ctx->value;
	size_t len = strlen(v);

	if (len >= sizeof(opts->huge_text_libs))
		return bad_value(ctx, "expected at most %zu bytes",
				sizeof(opts->huge_text_libs) - 1);
	if (len == 0 || v[0] == ',' || v[len - 1] == ',' ||
			strstr(v, ",,") != NULL || strchr(v, '/') != NULL)
		return bad_form(ctx);
	memcpy(opts->huge_text_libs, v, len + 1);
	return 0;
}

static int
opt_proc_type(struct eal_options *opts, const struct opt_ctx *ctx)
{
	if (strcmp(ctx->value, "primary") == 0)
		opts->proc_type = RTE_PROC_PRIMARY;
	else if (strcmp(ctx->value, "secondary") == 0)
		opts->proc_type = RTE_PROC_SECONDARY;
	else if (strcmp(ctx->value, "auto") == 0)
		opts->proc_type = RTE_PROC_AUTO;
	else
		return bad_form(ctx);
	return 0;
}

static int
opt_iova_mode(struct eal_options *opts, const struct opt_ctx *ctx)
{
	if (strcmp(ctx->value, "pa") == 0)
		opts->iova_mode = RTE_IOVA_PA;
	else if (strcmp(ctx->value, "va") == 0)
		opts->iova_mode = RTE_IOVA_VA;
	else
		return bad_form(ctx);
	return 0;
}

/* Hexadecimal, "0x" optional, as DPDK parses it. */
static int
opt_base_virtaddr(struct eal_options *opts, const struct opt_ctx *ctx)
{
	const char *s = ctx->value;
	uint64_t addr = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	if (*s == '\0')
		return bad_form(ctx);
	for (; *s != '\0'; s++) {
		int c = (unsigned char)*s;
		unsigned int digit;

		if (c >= '0' && c <= '9')
			digit = c - '0';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			digit = (c | 0x20) - 'a' + 10;
		else
			return bad_form(ctx);
		if (addr >> 60 != 0)
			return bad_value(ctx, "expected an address below 2^64");
		addr = addr << 4 | digit;
	}
	if (addr == 0)
		return bad_form(ctx);
	opts->base_virtaddr = addr;
	return 0;
}

/* @return the RTE_LOG_* level named by s[0..len), or 0 if none. */
static uint32_t
log_level_parse(const char *s, size_t len)
{
	uint64_t num;
	uint32_t level;

	if (parse_u64(s, len, &num) == 0) {
		if (num < RTE_LOG_EMERG || num > RTE_LOG_MAX)
			return 0;
		return (uint32_t)num;
	}
	for (level = RTE_LOG_EMERG; level <= RTE_LOG_MAX; level++) {
		const char *name = eal_log_level_name(level);

		if (strlen(name) == len && strncasecmp(s, name, len) == 0)
			return level;
	}
	return 0;
}

static int
opt_log_level(struct eal_options *opts, const struct opt_ctx *ctx)
{
	struct eal_log_rule *rule = &opts->log_rules[opts->n_log_rules];
	const char *level = ctx->value;
	const char *colon = strrchr(ctx->value, ':');
	size_t pattern_len = 0;

	if (opts->n_log_rules == EAL_MAX_LOG_RULES)
		return bad_value(ctx,
				"too many --log-level options, expected at most %u",
				EAL_MAX_LOG_RULES);
	if (colon != NULL) {
		pattern_len = colon - ctx->value;
		level = colon + 1;
		if (pattern_len == 0)
			return bad_value(ctx,
					"empty TYPE before ':', "
					"expected a log type pattern such as lib.eal");
		if (pattern_len >= sizeof(rule->pattern))
			return bad_value(ctx,
					"TYPE is longer than %zu characters",
					sizeof(rule->pattern) - 1);
	}
	rule->level = log_level_parse(level, strlen(level));
	if (rule->level == 0)
		return bad_form(ctx);
	memcpy(rule->pattern, ctx->value, pattern_len);
	rule->pattern[pattern_len] = '\0';
	opts->n_log_rules++;
	return 0;
}

/* Parse one CPU number of a -l list, token s[0..len). */
static int
lcore_cpu_parse(const struct opt_ctx *ctx, const char *s, size_t len,
		unsigned int *cpu)
{
	uint64_t v = 0;
	int ret = parse_u64(s, len, &v);

	if (ret == -EINVAL)
		return bad_form(ctx);
	if (ret == -ERANGE || v >= RTE_MAX_LCORE)
		return bad_value(ctx,
				"CPU %.*s is out of range, expected CPUs below %u",
				(int)len, s, RTE_MAX_LCORE);
	*cpu = (unsigned int)v;
	return 0;
}

/* Parse one entry of a -l list, s[0..len): "N" or "N-M" with N <= M. */
static int
lcore_range_parse(const struct opt_ctx *ctx, const char *s, size_t len,
		unsigned int *first, unsigned int *last)
{
	const char *dash = memchr(s, '-', len);
	int ret;

	if (dash == NULL) {
		ret = lcore_cpu_parse(ctx, s, len, first);
		*last = *first;
		return ret;
	}
	ret = lcore_cpu_parse(ctx, s, dash - s, first);
	if (ret == 0)
		ret = lcore_cpu_parse(
				ctx, dash + 1, len - (dash - s) - 1, last);
	if (ret == 0 && *first > *last)
		return bad_value(ctx,
				"range %u-%u is descending, expected the lower CPU first",
				*first, *last);
	return ret;
}

/*
 * Parse "L@C" (lcore L runs on CPU C: DPDK's --lcores form, which lets
 * processes of one prefix use distinct lcore ids on the same CPUs).
 */
static int
lcore_at_parse(const struct opt_ctx *ctx, const char *s, size_t len,
		const char *at, unsigned int *id, unsigned int *cpu)
{
	int ret = lcore_cpu_parse(ctx, s, at - s, id);

	if (ret == 0)
		ret = lcore_cpu_parse(ctx, at + 1, len - (at - s) - 1, cpu);
	return ret;
}

static int
opt_lcores(struct eal_options *opts, const struct opt_ctx *ctx)
{
	uint16_t cpus[RTE_MAX_LCORE], ids[RTE_MAX_LCORE];
	bool seen[RTE_MAX_LCORE] = { false };
	const char *s = ctx->value;
	unsigned int n = 0, first, last, cpu, id;
	int ret;

	for (;;) {
		size_t len = strcspn(s, ",");
		const char *at = memchr(s, '@', len);

		if (len == 0)
			return bad_value(ctx, "empty entry, expected %s",
					opt_expect[ctx->id]);
		if (at != NULL)
			ret = lcore_at_parse(ctx, s, len, at, &first, &cpu);
		else
			ret = lcore_range_parse(ctx, s, len, &first, &last);
		if (ret < 0)
			return ret;
		if (at != NULL)
			last = first;
		for (id = first; id <= last; id++) {
			if (seen[id])
				return bad_value(ctx, "%s %u is listed twice",
						at != NULL ? "lcore" : "CPU",
						id);
			seen[id] = true;
			ids[n] = (uint16_t)id;
			cpus[n++] = (uint16_t)(at != NULL ? cpu : id);
		}
		if (s[len] == '\0')
			break;
		s += len + 1;
	}
	memcpy(opts->lcore_cpus, cpus, n * sizeof(cpus[0]));
	memcpy(opts->lcore_ids, ids, n * sizeof(ids[0]));
	opts->n_lcores = n;
	return 0;
}

static int
opt_switch(struct eal_options *opts, const struct opt_ctx *ctx)
{
	switch (ctx->id) {
	case EAL_OPT_IN_MEMORY:
		opts->in_memory = true;
		break;
	case EAL_OPT_NO_HUGE:
		opts->no_huge = true;
		break;
	case EAL_OPT_SINGLE_FILE_SEGMENTS:
		opts->single_file_segments = true;
		break;
	case EAL_OPT_LEGACY_MEM:
		opts->legacy_mem = true;
		break;
	case EAL_OPT_MATCH_ALLOCATIONS:
		opts->match_allocations = true;
		break;
	case EAL_OPT_NO_SHCONF:
		opts->no_shconf = true;
		break;
	case EAL_OPT_HUGE_TEXT_PERF_MAP:
		opts->huge_text_perf_map = true;
		break;
	case EAL_OPT_HELP:
		opts->help = true;
		break;
	default:
		return -EINVAL;
	}
	return 0;
}

static const opt_handler opt_handlers[EAL_OPT_COUNT] = {
	[EAL_OPT_MEMORY] = opt_memory,
	[EAL_OPT_SOCKET_MEM] = opt_socket_list,
	[EAL_OPT_SOCKET_LIMIT] = opt_socket_list,
	[EAL_OPT_HUGE_DIR] = opt_huge_dir,
	[EAL_OPT_FILE_PREFIX] = opt_file_prefix,
	[EAL_OPT_HUGE_UNLINK] = opt_huge_unlink,
	[EAL_OPT_IN_MEMORY] = opt_switch,
	[EAL_OPT_NO_HUGE] = opt_switch,
	[EAL_OPT_SINGLE_FILE_SEGMENTS] = opt_switch,
	[EAL_OPT_LEGACY_MEM] = opt_switch,
	[EAL_OPT_MATCH_ALLOCATIONS] = opt_switch,
	[EAL_OPT_NO_SHCONF] = opt_switch,
	[EAL_OPT_KEEP_MEMZONES] = opt_keep_memzones,
	[EAL_OPT_HUGE_TEXT] = opt_huge_text,
	[EAL_OPT_HUGE_TEXT_LIBS] = opt_huge_text_libs,
	[EAL_OPT_MEMZONE_IMAGE] = opt_memzone_image,
	[EAL_OPT_MEMZONE_IMAGE_STRATEGY] = opt_memzone_image_strategy,
	[EAL_OPT_MEMZONE_IMAGE_THREADS] = opt_memzone_image_threads,
	[EAL_OPT_MEMZONE_IMAGE_PREFETCH] = opt_memzone_image_prefetch,
	[EAL_OPT_HUGE_TEXT_PERF_MAP] = opt_switch,
	[EAL_OPT_MALLOC_RETAIN] = opt_malloc_retain,
	[EAL_OPT_MALLOC_DECAY] = opt_malloc_decay,
	[EAL_OPT_POPULATE_THREADS] = opt_populate_threads,
	[EAL_OPT_IOVA_MODE] = opt_iova_mode,
	[EAL_OPT_PROC_TYPE] = opt_proc_type,
	[EAL_OPT_BASE_VIRTADDR] = opt_base_virtaddr,
	[EAL_OPT_LOG_LEVEL] = opt_log_level,
	[EAL_OPT_LCORES_LIST] = opt_lcores,
	[EAL_OPT_HELP] = opt_switch,
};

/* Check what every option shares (presence of a value), then dispatch. */
static int
opt_apply(struct eal_options *opts, const struct opt_ctx *ctx)
{
	enum eal_opt_arg arg = opt_defs[ctx->id].arg;
	char name[48];

	opt_display(ctx->id, name, sizeof(name));
	if (arg == EAL_ARG_NONE && ctx->value != NULL)
		return set_err(ctx->err, ctx->err_len,
				"option %s takes no argument", name);
	if (arg == EAL_ARG_REQUIRED && ctx->value == NULL)
		return set_err(ctx->err, ctx->err_len,
				"option %s requires an argument", name);
	if (ctx->value != NULL && ctx->value[0] == '\0')
		return set_err(ctx->err, ctx->err_len,
				"empty value for %s: expected %s", name,
				opt_expect[ctx->id]);
	return opt_handlers[ctx->id](opts, ctx);
}

/* @return the id of option --s[0..len) (or -letter), or EAL_OPT_COUNT. */
static enum eal_option_id
opt_find(const char *s, size_t len, char letter)
{
	unsigned int id;

	for (id = 0; id < EAL_OPT_COUNT; id++) {
		const struct eal_opt_def *def = &opt_defs[id];

		if (s == NULL && def->letter != 0 && def->letter == letter)
			break;
		if (s != NULL && strlen(def->name) == len &&
				memcmp(def->name, s, len) == 0)
			break;
	}
	return id;
}

/*
 * Find the option argv[*i] names and its value; advance *i past both.
 * The caller has checked that argv[*i] starts with '-' and is not "-" or
 * "--".
 */
static int
opt_split(int argc, char *const argv[], int *i, struct opt_ctx *ctx,
		bool *unknown)
{
	const char *arg = argv[(*i)++];
	size_t len; /* of "--name" or "-x" in arg */

	if (arg[1] == '-') {
		len = strcspn(arg, "=");
		ctx->id = opt_find(arg + 2, len - 2, 0);
		ctx->value = arg[len] == '=' ? arg + len + 1 : NULL;
	} else {
		len = 2;
		ctx->id = opt_find(NULL, 0, arg[1]);
		ctx->value = arg[2] != '\0' ? arg + 2 : NULL;
	}
	if (ctx->id == EAL_OPT_COUNT) {
		*unknown = true;
		return set_err(ctx->err, ctx->err_len, "unknown option '%.*s'",
				(int)len, arg);
	}
	if (ctx->value == NULL && opt_defs[ctx->id].arg == EAL_ARG_REQUIRED &&
			*i < argc && argv[*i] != NULL)
		ctx->value = argv[(*i)++];
	if (ctx->value == NULL && opt_defs[ctx->id].arg == EAL_ARG_OPTIONAL &&
			*i < argc && argv[*i] != NULL &&
			opt_value_known(ctx->id, argv[*i]))
		return set_err(ctx->err, ctx->err_len,
				"option --%s takes its value after '=': write "
				"--%s=%s (a separate '%s' would be the "
				"application's argument, and --%s alone means %s)",
				opt_defs[ctx->id].name, opt_defs[ctx->id].name,
				argv[*i], argv[*i], opt_defs[ctx->id].name,
				opt_bare[ctx->id]);
	return 0;
}

void
eal_options_defaults(struct eal_options *opts)
{
	memset(opts, 0, sizeof(*opts));
	strcpy(opts->file_prefix, "rte");
	opts->malloc_retain = EAL_MALLOC_RETAIN_DEFAULT;
	opts->malloc_decay_ms = EAL_MALLOC_DECAY_DEFAULT_MS;
	opts->populate_threads = 1;
	opts->huge_unlink = EAL_HUGE_UNLINK_EXISTING;
	opts->iova_mode = RTE_IOVA_DC;
	opts->proc_type = RTE_PROC_PRIMARY;
}

int
eal_options_parse(int argc, char *const argv[], struct eal_options *opts,
		char *err, size_t err_len, bool *unknown)
{
	struct opt_ctx ctx = { .err = err, .err_len = err_len };
	bool is_unknown = false;
	int i = 1;
	int ret;

	if (unknown != NULL)
		*unknown = false;
	while (i < argc && argv[i] != NULL) {
		const char *arg = argv[i];

		if (strcmp(arg, "--") == 0) {
			i++;
			break;
		}
		if (arg[0] != '-' || arg[1] == '\0')
			break;
		ret = opt_split(argc, argv, &i, &ctx, &is_unknown);
		if (ret == 0)
			ret = opt_apply(opts, &ctx);
		if (ret < 0) {
			if (unknown != NULL)
				*unknown = is_unknown;
			return ret;
		}
	}
	return RTE_MAX(i, 1) - 1;
}

/* The single mode of huge_unlink_given, or -EINVAL if there are two. */
static int
resolve_huge_unlink(struct eal_options *opts, char *err, size_t err_len)
{
	unsigned int given = opts->huge_unlink_given;
	unsigned int first = 0, second;

	if (given == 0) {
		opts->huge_unlink = EAL_HUGE_UNLINK_EXISTING;
		return 0;
	}
	while ((given & (1U << first)) == 0)
		first++;
	for (second = first + 1; second < RTE_DIM(huge_unlink_names); second++)
		if (given & (1U << second))
			return set_err(err, err_len,
					"options --huge-unlink=%s and --huge-unlink=%s "
					"cannot be used together: give one mode",
					huge_unlink_names[first],
					huge_unlink_names[second]);
	opts->huge_unlink = first;
	return 0;
}

/* A size from the command line (a multiple of 1 KB) in MB, else in KB. */
static const char *
size_str(uint64_t bytes, char *buf, size_t len)
{
	if (bytes % RTE_MB == 0)
		snprintf(buf, len, "%" PRIu64 " MB",
				(uint64_t)(bytes / RTE_MB));
	else
		snprintf(buf, len, "%" PRIu64 " KB",
				(uint64_t)(bytes / RTE_KB));
	return buf;
}

static int
conflict(char *err, size_t err_len, const char *a, const char *b,
		const char *why)
{
	return set_err(err, err_len,
			"options %s and %s cannot be used together: %s", a, b,
			why);
}

/* Conflicts around hugepage files and the memory mode, in a fixed order. */
static int
resolve_mode_conflicts(const struct eal_options *o, char *err, size_t len)
{
	char unlink[32];

	snprintf(unlink, sizeof(unlink), "--huge-unlink=%s",
			eal_huge_unlink_name(o->huge_unlink));
	if (o->in_memory && o->huge_unlink == EAL_HUGE_UNLINK_NEVER)
		return conflict(err, len, "--in-memory", unlink,
				"in-memory mode has no hugepage files to reuse");
	if (o->no_huge && o->huge_unlink_given != 0)
		return conflict(err, len, "--no-huge", unlink,
				"without hugepages there are no hugepage files");
	if (o->single_file_segments && o->huge_unlink == EAL_HUGE_UNLINK_ALWAYS)
		return conflict(err, len, "--single-file-segments", unlink,
				"the file of a memseg list is opened again to add pages");
	if (o->memory_given && o->n_socket_mem != 0)
		return conflict(err, len, "-m/--memory", "--socket-mem",
				"give either the total or the amount per NUMA node");
	if (!o->no_huge)
		return 0;
	if (o->n_socket_mem != 0)
		return conflict(err, len, "--no-huge", "--socket-mem",
				"memory without hugepages is not placed per NUMA node");
	if (o->match_allocations)
		return conflict(err, len, "--no-huge", "--match-allocations",
				"memory without hugepages is never freed");
	if (o->single_file_segments)
		return conflict(err, len, "--no-huge", "--single-file-segments",
				"without hugepages there are no hugepage files");
	if (o->in_memory)
		return conflict(err, len, "--no-huge", "--in-memory",
				"in-memory mode uses hugepages");
	return 0;
}

/* Conflicts around legacy memory, limits and IOVA, in a fixed order. */
static int
resolve_limit_conflicts(const struct eal_options *o, char *err, size_t len)
{
	unsigned int node;

	if (o->legacy_mem && o->match_allocations)
		return conflict(err, len, "--legacy-mem", "--match-allocations",
				"legacy memory is never freed");
	/* Asking to keep nothing agrees with every mode. */
	if (((o->malloc_retain_given && o->malloc_retain != 0) ||
			    (o->malloc_decay_given &&
					    o->malloc_decay_ms != 0)) &&
			(o->no_huge || o->legacy_mem || o->match_allocations))
		return conflict(err, len,
				o->malloc_retain_given && o->malloc_retain != 0 ?
						"--malloc-retain" :
						"--malloc-decay",
				o->no_huge ? "--no-huge" :
						o->legacy_mem ?
					     "--legacy-mem" :
					     "--match-allocations",
				o->no_huge || o->legacy_mem ?
						"its memory never goes back, so none is kept" :
						"each allocation gives its own pages back as soon as it is freed");
	if (o->populate_threads != 1 &&
			(o->no_huge || o->single_file_segments || o->in_memory))
		return conflict(err, len, "--populate-threads",
				o->no_huge ? "--no-huge" :
						o->in_memory ?
					     "--in-memory" :
					     "--single-file-segments",
				o->no_huge ? "memory without hugepages is "
					     "anonymous memory the kernel maps "
					     "by itself" :
					     "the kernel allocates the pages "
					     "of one file one at a time, so "
					     "threads would only wait for "
					     "each other");
	if (o->n_socket_limit != 0 && o->no_huge)
		return conflict(err, len, "--socket-limit", "--no-huge",
				"memory without hugepages never grows, so the limit "
				"could never apply");
	if (o->n_socket_limit != 0 && o->legacy_mem)
		return conflict(err, len, "--socket-limit", "--legacy-mem",
				"legacy memory never grows, so the limit could never apply");
	if (o->proc_type != RTE_PROC_PRIMARY && (o->no_shconf || o->in_memory))
		return conflict(err, len,
				o->proc_type == RTE_PROC_SECONDARY ?
						"--proc-type=secondary" :
						"--proc-type=auto",
				o->in_memory ? "--in-memory" : "--no-shconf",
				"a secondary process finds its primary through "
				"the runtime directory, which this turns off");
	if (o->proc_type == RTE_PROC_SECONDARY && o->no_huge)
		return conflict(err, len, "--proc-type=secondary", "--no-huge",
				"a secondary process maps its primary's "
				"hugepage files, and memory without hugepages "
				"cannot be shared");
	if (o->no_huge && o->iova_mode == RTE_IOVA_PA)
		return conflict(err, len, "--no-huge", "--iova-mode=pa",
				"4 KB pages have no stable physical address");
	for (node = 0; node < o->n_socket_limit; node++) {
		uint64_t limit = o->socket_limit[node];
		uint64_t mem = node < o->n_socket_mem ? o->socket_mem[node] : 0;
		char limit_s[32], mem_s[32];

		if (limit == 0 || limit >= mem)
			continue;
		return set_err(err, len,
				"options --socket-limit and --socket-mem conflict: "
				"the limit %s on NUMA node %u is below the %s to map at start",
				size_str(limit, limit_s, sizeof(limit_s)), node,
				size_str(mem, mem_s, sizeof(mem_s)));
	}
	return 0;
}

/* The --huge-text options that only refine it need it. */
static int
resolve_huge_text_conflicts(const struct eal_options *o, char *err, size_t len)
{
	if (o->huge_text != RTE_HUGETEXT_OFF)
		return 0;
	if (o->huge_text_libs[0] != '\0')
		return set_err(err, len,
				"option --huge-text-libs needs "
				"--huge-text: it names what else to move");
	if (o->huge_text_perf_map)
		return set_err(err, len,
				"option --huge-text-perf-map needs "
				"--huge-text: without it no code moves");
	return 0;
}

/*
 * --keep-memzones needs files that outlive the process with their data
 * (never), and the runtime directory for its memzone table.
 */
static int
resolve_keep_conflicts(const struct eal_options *o, char *err, size_t len)
{
	char unlink[32];

	if (o->keep_memzones == EAL_KEEP_OFF)
		return 0;
	if (o->in_memory)
		return conflict(err, len, "--keep-memzones", "--in-memory",
				"in-memory mode keeps no hugepage file");
	if (o->no_huge)
		return conflict(err, len, "--keep-memzones", "--no-huge",
				"without hugepages there are no hugepage files "
				"to keep");
	if (o->huge_unlink != EAL_HUGE_UNLINK_NEVER) {
		snprintf(unlink, sizeof(unlink), "--huge-unlink=%s",
				eal_huge_unlink_name(o->huge_unlink));
		if (o->huge_unlink_given == 0)
			return set_err(err, len,
					"option --keep-memzones needs "
					"--huge-unlink=never: the default, "
					"--huge-unlink=existing, removes the "
					"files that hold the memzones");
		return conflict(err, len, "--keep-memzones", unlink,
				"the memzones live in hugepage files, which "
				"only --huge-unlink=never keeps");
	}
	if (o->no_shconf)
		return conflict(err, len, "--keep-memzones", "--no-shconf",
				"the memzone table is kept in the runtime "
				"directory, which --no-shconf turns off");
	if (o->proc_type == RTE_PROC_SECONDARY)
		return conflict(err, len, "--keep-memzones",
				"--proc-type=secondary",
				"memzones are brought back by the primary "
				"process");
	return 0;
}

/*
 * The options that tune --memzone-image need it; a secondary process
 * finds its primary's memzones and brings none back.
 */
static int
resolve_image_conflicts(const struct eal_options *o, char *err, size_t len)
{
	bool lazy = o->image_strategy == EAL_IMAGE_UFFD_COPY ||
			o->image_strategy == EAL_IMAGE_UFFD_MINOR;

	if (o->memzone_image[0] == '\0') {
		if (o->image_strategy_given)
			return set_err(err, len,
					"option --memzone-image-strategy needs "
					"--memzone-image: it says how to read "
					"the image");
		if (o->image_threads != 0)
			return set_err(err, len,
					"option --memzone-image-threads needs "
					"--memzone-image: it says how many "
					"threads read the image");
		if (o->image_prefetch_given)
			return set_err(err, len,
					"option --memzone-image-prefetch needs "
					"--memzone-image: it says how a lazy "
					"strategy reads the image");
		return 0;
	}
	if (o->image_prefetch_given && !lazy)
		return set_err(err, len,
				"option --memzone-image-prefetch needs a lazy "
				"--memzone-image-strategy (uffd-copy or "
				"uffd-minor): the others read the whole image "
				"at start");
	if (lazy && o->iova_mode == RTE_IOVA_PA)
		return conflict(err, len,
				o->image_strategy == EAL_IMAGE_UFFD_COPY ?
						"--memzone-image-strategy=uffd-copy" :
						"--memzone-image-strategy=uffd-minor",
				"--iova-mode=pa",
				"a page filled on first touch has no physical "
				"address at start");
	if (o->proc_type == RTE_PROC_SECONDARY)
		return conflict(err, len, "--memzone-image",
				"--proc-type=secondary",
				"memzones are brought back by the primary "
				"process");
	if (o->legacy_mem || o->no_huge)
		return conflict(err, len, "--memzone-image",
				o->no_huge ? "--no-huge" : "--legacy-mem",
				"that mode maps all its memory at start, and an "
				"image's pages must come at their own "
				"addresses");
	return 0;
}

/* Amounts of memory that no list layout can hold. */
static int
resolve_sizes(const struct eal_options *o, char *err, size_t len)
{
	const uint64_t max = (uint64_t)RTE_MAX_MEM_MB << 20;
	unsigned int node;

	if (o->memory > max)
		return set_err(err, len,
				"option -m/--memory asks for %" PRIu64
				" MB: at most %u MB can be mapped",
				o->memory >> 20, RTE_MAX_MEM_MB);
	for (node = 0; node < o->n_socket_mem; node++)
		if (o->socket_mem[node] > max)
			return set_err(err, len,
					"option --socket-mem asks for %" PRIu64
					" MB on NUMA node %u: at most %u MB can be mapped",
					o->socket_mem[node] >> 20, node,
					RTE_MAX_MEM_MB);
	if (o->no_huge && o->memory_given && o->memory == 0)
		return set_err(err, len,
				"options --no-huge and -m 0 cannot be used together: "
				"without hugepages all memory is mapped at start, so it must not be 0");
	return 0;
}

static int
resolve_lcores(const struct eal_options *o, const bool *cpu_allowed,
		unsigned int n_cpus, char *err, size_t len)
{
	unsigned int i;

	for (i = 0; i < o->n_lcores; i++) {
		unsigned int cpu = o->lcore_cpus[i];

		if (cpu >= n_cpus || (cpu_allowed != NULL && !cpu_allowed[cpu]))
			return set_err(err, len,
					"option -l/--lcores lists CPU %u, "
					"which this process may not run on",
					cpu);
	}
	return 0;
}

int
eal_options_resolve(struct eal_options *opts, const bool *cpu_allowed,
		unsigned int n_cpus, char *err, size_t err_len)
{
	int ret;

	ret = resolve_huge_unlink(opts, err, err_len);
	if (ret == 0)
		ret = resolve_mode_conflicts(opts, err, err_len);
	if (ret == 0)
		ret = resolve_limit_conflicts(opts, err, err_len);
	if (ret == 0)
		ret = resolve_keep_conflicts(opts, err, err_len);
	if (ret == 0)
		ret = resolve_huge_text_conflicts(opts, err, err_len);
	if (ret == 0)
		ret = resolve_image_conflicts(opts, err, err_len);
	if (ret == 0)
		ret = resolve_sizes(opts, err, err_len);
	if (ret == 0)
		ret = resolve_lcores(opts, cpu_allowed, n_cpus, err, err_len);
	if (ret < 0)
		return ret;
	if (opts->in_memory)
		opts->no_shconf = true;
	if (opts->no_huge) {
		opts->legacy_mem = true;
		if (!opts->memory_given)
			opts->memory = EAL_NO_HUGE_DEFAULT_MEMORY;
	}
	return 0;
}

/* Left column of --help for option @p id: "-m, --memory=MB". */
static int
usage_left(enum eal_option_id id, char *buf, size_t len)
{
	const struct eal_opt_def *def = &opt_defs[id];
	char letter[8] = "    ";

	if (def->letter != 0)
		snprintf(letter, sizeof(letter), "-%c, ", def->letter);
	switch (def->arg) {
	case EAL_ARG_REQUIRED:
		return snprintf(buf, len, "  %s--%s=%s", letter, def->name,
				def->meta);
	case EAL_ARG_OPTIONAL:
		return snprintf(buf, len, "  %s--%s[=%s]", letter, def->name,
				def->meta);
	default:
		return snprintf(buf, len, "  %s--%s", letter, def->name);
	}
}

void
eal_options_usage(const char *prgname, FILE *f)
{
	char left[128];
	int width = 0;
	unsigned int id;

	for (id = 0; id < EAL_OPT_COUNT; id++)
		width = RTE_MAX(width, usage_left(id, left, sizeof(left)));
	fprintf(f, "Usage: %s [EAL options] -- [application options]\n",
			prgname != NULL ? prgname : "rtemem");
	for (id = 0; id < EAL_OPT_COUNT; id++) {
		usage_left(id, left, sizeof(left));
		fprintf(f, "%-*s  %s\n", width, left, opt_defs[id].help);
	}
}

const char *
eal_image_strategy_name(enum eal_image_strategy s)
{
	if ((unsigned int)s >= RTE_DIM(image_strategy_names))
		return "invalid";
	return image_strategy_names[s];
}

const char *
eal_huge_unlink_name(enum eal_huge_unlink mode)
{
	if ((unsigned int)mode >= RTE_DIM(huge_unlink_names))
		return "invalid";
	return huge_unlink_names[mode];
}
