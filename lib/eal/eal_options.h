/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _EAL_OPTIONS_H_
#define _EAL_OPTIONS_H_

/*
 * EAL options: one X-macro list gives the parser table, the --help text and
 * the option ids. Parsing (syntax of each option) and resolving (rules
 * between options, and against the machine) are separate functions with no
 * side effect, so they are unit-tested without an init.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <limits.h>

#include <rte_config.h>
#include <rte_eal.h>
#include <rte_hugetext.h>

/* What an option takes after it. */
enum eal_opt_arg {
	EAL_ARG_NONE, /* a switch */
	EAL_ARG_REQUIRED, /* "--opt V", "--opt=V", "-oV" or "-o V" */
	EAL_ARG_OPTIONAL, /* "--opt" or "--opt=V" only */
};

/*
 * X(id, long name, short letter or 0, argument, metavar, help)
 * The order is the order of --help.
 */
#define EAL_OPTION_LIST(X) \
	X(MEMORY, "memory", 'm', EAL_ARG_REQUIRED, "MB", \
			"Memory to map at start, in MB (or with a K/M/G suffix)") \
	X(SOCKET_MEM, "socket-mem", 0, EAL_ARG_REQUIRED, "MB,MB,...", \
			"Memory to map at start on each NUMA node, in MB") \
	X(SOCKET_LIMIT, "socket-limit", 0, EAL_ARG_REQUIRED, "MB,MB,...", \
			"Most memory each NUMA node may grow to, in MB (0: no limit)") \
	X(HUGE_DIR, "huge-dir", 0, EAL_ARG_REQUIRED, "DIR", \
			"Use this hugetlbfs directory only") \
	X(FILE_PREFIX, "file-prefix", 0, EAL_ARG_REQUIRED, "PREFIX", \
			"Prefix of hugepage file names (default \"rte\")") \
	X(HUGE_UNLINK, "huge-unlink", 0, EAL_ARG_OPTIONAL, \
			"existing|always|never", \
			"When to unlink hugepage files ('existing' by default, no value means 'always')") \
	X(IN_MEMORY, "in-memory", 0, EAL_ARG_NONE, NULL, \
			"Use memfd hugepages: no files, no shared config") \
	X(NO_HUGE, "no-huge", 0, EAL_ARG_NONE, NULL, \
			"Use anonymous 4 KB pages instead of hugepages") \
	X(SINGLE_FILE_SEGMENTS, "single-file-segments", 0, EAL_ARG_NONE, NULL, \
			"One hugepage file per memseg list instead of one per page") \
	X(LEGACY_MEM, "legacy-mem", 0, EAL_ARG_NONE, NULL, \
			"Map all memory at start and never give it back") \
	X(MATCH_ALLOCATIONS, "match-allocations", 0, EAL_ARG_NONE, NULL, \
			"Free memory exactly as it was allocated") \
	X(MALLOC_RETAIN, "malloc-retain", 0, EAL_ARG_REQUIRED, "MB", \
			"Free memory each heap keeps mapped for reuse, in MB or with a K/M/G suffix (default 1G; 0: give pages back at once)") \
	X(MALLOC_DECAY, "malloc-decay", 0, EAL_ARG_REQUIRED, "MS", \
			"How long kept memory may stay unused before it goes back, in ms (default 1000)") \
	X(POPULATE_THREADS, "populate-threads", 0, EAL_ARG_REQUIRED, "N|auto", \
			"Threads per NUMA node that allocate and clear new hugepages, one file per page (default 1; auto: the node's CPUs)") \
	X(KEEP_MEMZONES, "keep-memzones", 0, EAL_ARG_OPTIONAL, \
			"discard-mismatch", \
			"Bring back the last run's memzones (needs --huge-unlink=never)") \
	X(MEMZONE_IMAGE, "memzone-image", 0, EAL_ARG_REQUIRED, "FILE", \
			"Bring memzones back from this image at start (with --keep-memzones: when the kept files do not hold them)") \
	X(MEMZONE_IMAGE_STRATEGY, "memzone-image-strategy", 0, \
			EAL_ARG_REQUIRED, "NAME", \
			"How --memzone-image reads the image: auto (default; logs its pick), pread, mmap, direct, or lazily, on first touch and in the background, uffd-copy or uffd-minor") \
	X(MEMZONE_IMAGE_THREADS, "memzone-image-threads", 0, EAL_ARG_REQUIRED, \
			"N", \
			"Threads reading the image (default: one per CPU, up to 8)") \
	X(MEMZONE_IMAGE_PREFETCH, "memzone-image-prefetch", 0, \
			EAL_ARG_REQUIRED, "on|off", \
			"With a lazy strategy: read the pages nobody touched in the background (default on; off: only on first touch)") \
	X(HUGE_TEXT, "huge-text", 0, EAL_ARG_OPTIONAL, "auto|enforce|thp|off", \
			"Move the program's code and data onto huge pages (bare: auto)") \
	X(HUGE_TEXT_LIBS, "huge-text-libs", 0, EAL_ARG_REQUIRED, "LIB,...", \
			"Shared libraries --huge-text moves too, by file name or prefix") \
	X(HUGE_TEXT_PERF_MAP, "huge-text-perf-map", 0, EAL_ARG_NONE, NULL, \
			"Name the moved functions for perf in /tmp/perf-PID.map") \
	X(NO_SHCONF, "no-shconf", 0, EAL_ARG_NONE, NULL, \
			"No runtime files in the runtime directory") \
	X(PROC_TYPE, "proc-type", 0, EAL_ARG_REQUIRED, \
			"primary|secondary|auto", \
			"Start as the primary process, or attach to one") \
	X(IOVA_MODE, "iova-mode", 0, EAL_ARG_REQUIRED, "pa|va", \
			"Use physical or virtual addresses as IOVA") \
	X(BASE_VIRTADDR, "base-virtaddr", 0, EAL_ARG_REQUIRED, "ADDR", \
			"Reserve memory from this virtual address on") \
	X(LOG_LEVEL, "log-level", 0, EAL_ARG_REQUIRED, "[TYPE:]LEVEL", \
			"Log level, for all types or for types matching TYPE") \
	X(LCORES_LIST, "lcores", 'l', EAL_ARG_REQUIRED, "LIST", \
			"CPUs to run lcores on, as 0-3,5: the first is the main lcore") \
	X(HELP, "help", 'h', EAL_ARG_NONE, NULL, "Print this help and exit")

enum eal_option_id {
#define EAL_OPT_ENUM(id, name, letter, arg, meta, help) EAL_OPT_##id,
	EAL_OPTION_LIST(EAL_OPT_ENUM)
#undef EAL_OPT_ENUM
	EAL_OPT_COUNT
};

/* The three --huge-unlink modes (see design.md, "Hugepage files"). */
enum eal_huge_unlink {
	EAL_HUGE_UNLINK_EXISTING, /* default: remove stale files, keep own */
	EAL_HUGE_UNLINK_ALWAYS, /* unlink each file right after mapping */
	EAL_HUGE_UNLINK_NEVER, /* keep and reuse files; reused pages dirty */
};

/* What --keep-memzones asks for. */
enum eal_keep_memzones {
	EAL_KEEP_OFF, /* not given: the last run's memzones are discarded */
	EAL_KEEP_STRICT, /* bare: restore them, or fail if they cannot be */
	EAL_KEEP_DISCARD_MISMATCH, /* =discard-mismatch: restore them, or
				    * warn and start without them */
};

/* How --memzone-image reads the image (lib/malloc/image). */
enum eal_image_strategy {
	EAL_IMAGE_AUTO, /* chosen at start from the image and the machine */
	EAL_IMAGE_PREAD, /* pread() into the mapped pages */
	EAL_IMAGE_MMAP, /* the image mapped, and copied */
	EAL_IMAGE_DIRECT, /* O_DIRECT reads, past the page cache */
	EAL_IMAGE_UFFD_COPY, /* lazily: userfaultfd fills each page touched */
	EAL_IMAGE_UFFD_MINOR, /* lazily: filled through the file, then mapped */
	EAL_IMAGE_STRATEGIES
};

#define EAL_IMAGE_THREADS_MAX 64

/* Free memory a heap keeps mapped, by default, and for how long. */
#define EAL_MALLOC_RETAIN_DEFAULT (UINT64_C(1) << 30)
#define EAL_MALLOC_DECAY_DEFAULT_MS 1000
#define EAL_MALLOC_DECAY_MAX_MS 3600000 /* an hour */

/* --populate-threads: at most, and "auto" (the node's CPUs). */
#define EAL_POPULATE_THREADS_MAX 256
#define EAL_POPULATE_THREADS_AUTO 0

#define EAL_FILE_PREFIX_MAX 64
#define EAL_HUGE_TEXT_LIBS_MAX 256
#define EAL_MAX_LOG_RULES 16

/* One --log-level: a level for the types matching a glob (or all). */
struct eal_log_rule {
	char pattern[64]; /* glob over type names; "" for the global level */
	uint32_t level; /* RTE_LOG_* */
};

/*
 * Everything the command line says, after parsing. Read-only once
 * eal_options_resolve() succeeded. Sizes are in bytes.
 */
struct eal_options {
	uint64_t memory; /* -m; 0 when not given */
	bool memory_given; /* -m seen (-m 0 is valid: nothing preallocated) */
	uint64_t socket_mem[RTE_MAX_NUMA_NODES]; /* --socket-mem, per node */
	unsigned int n_socket_mem; /* entries given; 0 when not given */
	uint64_t socket_limit[RTE_MAX_NUMA_NODES]; /* 0: no limit */
	unsigned int n_socket_limit; /* entries given; 0 when not given */
	char huge_dir[PATH_MAX]; /* --huge-dir, "" when not given */
	char file_prefix[EAL_FILE_PREFIX_MAX]; /* default "rte" */
	enum eal_huge_unlink huge_unlink; /* resolved mode */
	unsigned int huge_unlink_given; /* bit per mode seen (1 << mode) */
	bool in_memory;
	bool no_huge;
	bool single_file_segments;
	bool legacy_mem; /* also set by --no-huge */
	bool match_allocations;
	uint64_t malloc_retain; /* --malloc-retain, bytes per heap */
	bool malloc_retain_given; /* --malloc-retain seen */
	uint32_t malloc_decay_ms; /* --malloc-decay */
	bool malloc_decay_given; /* --malloc-decay seen */
	uint32_t populate_threads; /* --populate-threads; 0: auto */
	enum rte_hugetext_mode huge_text; /* --huge-text; OFF if not given */
	char huge_text_libs[EAL_HUGE_TEXT_LIBS_MAX]; /* --huge-text-libs */
	bool huge_text_perf_map; /* --huge-text-perf-map */
	bool no_shconf; /* also set by --in-memory */
	enum eal_keep_memzones keep_memzones;
	char memzone_image[PATH_MAX]; /* --memzone-image, "" if not given */
	enum eal_image_strategy image_strategy; /* --memzone-image-strategy */
	bool image_strategy_given;
	uint32_t image_threads; /* --memzone-image-threads; 0: default */
	bool image_no_prefetch; /* --memzone-image-prefetch=off */
	bool image_prefetch_given;
	enum rte_proc_type_t proc_type; /* RTE_PROC_PRIMARY by default */
	enum rte_iova_mode iova_mode; /* RTE_IOVA_DC when not given */
	uint64_t base_virtaddr; /* 0 when not given */
	struct eal_log_rule log_rules[EAL_MAX_LOG_RULES];
	unsigned int n_log_rules;
	uint16_t lcore_cpus[RTE_MAX_LCORE]; /* CPU of entry i, i < n_lcores */
	uint16_t lcore_ids[RTE_MAX_LCORE]; /* lcore id of entry i: its CPU,
					    * or L of an "L@C" entry */
	unsigned int n_lcores; /* 0: one lcore per CPU in the affinity set */
	bool help;
};

/* Fill @p opts with the defaults. */
void eal_options_defaults(struct eal_options *opts);

/*
 * Parse the options in argv[1..] into @p opts (filled by
 * eal_options_defaults() first), stopping after "--" or at the first
 * non-option argument. argv is only read. Repeating an option overrides
 * it, except --log-level (rules accumulate) and --huge-unlink (modes
 * accumulate in huge_unlink_given). On error @p opts may be partly set.
 *
 * @return the number of arguments consumed, not counting argv[0] (as
 *   DPDK's rte_eal_init(): the application's arguments start at
 *   argv[ret + 1], and argv[ret] is the last one consumed, such as "--"),
 *   or -EINVAL with one line describing the first bad option in @p err.
 *   *unknown (may be NULL) is set when the fault is an unknown option
 *   (then the caller prints the usage text too).
 */
int eal_options_parse(int argc, char *const argv[], struct eal_options *opts,
		char *err, size_t err_len, bool *unknown);

/*
 * Apply the rules between options: conflicts, implied options, defaults that
 * depend on others (--no-huge implies legacy and -m 64). @p n_cpus and
 * @p cpu_allowed describe the CPUs this process may run on (-l checks):
 * CPU c is allowed if c < n_cpus and cpu_allowed[c] (all c < n_cpus when
 * cpu_allowed is NULL). Conflicts are checked in a fixed order, so the
 * message does not depend on the order of the command line; resolving
 * twice gives the same result.
 *
 * @return 0, or -EINVAL with one line in @p err naming the options at fault.
 */
int eal_options_resolve(struct eal_options *opts, const bool *cpu_allowed,
		unsigned int n_cpus, char *err, size_t err_len);

/* Print the usage text for program @p prgname to @p f. */
void eal_options_usage(const char *prgname, FILE *f);

/* @return "existing", "always" or "never". */
const char *eal_huge_unlink_name(enum eal_huge_unlink mode);

/*
 * For lib/malloc: the options of the EAL being initialized or running,
 * or NULL without one.
 */
const struct eal_options *eal_options_get(void);

/* @return the name of --memzone-image-strategy @p s ("auto", "pread"...). */
const char *eal_image_strategy_name(enum eal_image_strategy s);

#endif /* _EAL_OPTIONS_H_ */
