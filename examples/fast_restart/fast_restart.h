/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _FAST_RESTART_H_
#define _FAST_RESTART_H_

/*
 * fast_restart's parts: the options (main.c), the launcher (launcher.c),
 * the hugepage checks of the launcher (hugepages.c), and its children,
 * a start or a clean-up run (start.c). They are one program in several
 * processes; a start sends the report below to the launcher through a
 * pipe.
 */

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define FR_MB (UINT64_C(1) << 20)

#define FR_DEFAULT_SIZE_MB 256
#define FR_MIN_SIZE_MB 2 /* 1 MB of rte_zmalloc pools, 1 MB of memzones */
#define FR_MAX_SIZE_MB (UINT64_C(1) << 22) /* 4 TB */
#define FR_DEFAULT_RESTARTS 3
#define FR_MAX_RESTARTS 1000
#define FR_DEFAULT_SERVE_MS 100
#define FR_MAX_SERVE_MS 3600000
#define FR_DEFAULT_PREFIX "fast_restart"
/* Memory mapped at start beyond the pools: heap headers, EAL needs. */
#define FR_HEADROOM_MB 4

/*
 * The environment variable that makes the program a child of the
 * launcher: "start,N,FD" (start number N from 1, the pipe to report
 * to), or "clean" (remove the prefix's hugepage files and exit).
 */
#define FR_ENV_ROLE "FAST_RESTART_CHILD"

/* Exit status of a start whose rte_zmalloc() memory was not zero. */
#define FR_EXIT_NOT_ZERO 3

/* The application options (after "--"). */
struct fr_options {
	uint64_t size_mb; /* --size: memory of the pools, in MB */
	unsigned int restarts; /* --restarts: warm starts after the cold one */
	unsigned int serve_ms; /* --serve-ms: time serving, in ms */
	bool keep_files; /* --keep-files: leave the hugepage files at the end */
	bool help; /* --help */
};

#define FR_REPORT_MAGIC 0x66727374u

/*
 * What a start tells the launcher. Stamps are CLOCK_MONOTONIC in ns,
 * sizes in bytes.
 */
struct fr_report {
	uint32_t magic; /* FR_REPORT_MAGIC */
	uint32_t start; /* start number, from 1 */
	uint64_t t_init; /* rte_eal_init() returned */
	uint64_t t_pools; /* all pools allocated */
	uint64_t t_touched; /* pools checked and written */
	uint64_t t_exit; /* rte_eal_cleanup() returned, about to exit */
	uint64_t mapped_init; /* pages mapped when rte_eal_init() returned */
	uint64_t dirty_init; /* of which RTE_MEMSEG_FLAG_DIRTY */
	uint64_t mapped; /* pages mapped once the pools were allocated */
	uint64_t dirty; /* of which RTE_MEMSEG_FLAG_DIRTY */
	uint64_t cleared; /* bytes rte_zmalloc() cleared (heap statistic) */
};

/* @return CLOCK_MONOTONIC now, in ns. */
uint64_t fr_now_ns(void);

/* Print the usage of the application options. */
void fr_usage(FILE *f, const char *prgname);

/*
 * Parse the application options argv[0..argc) into @p o, with defaults
 * for those not given.
 *
 * @return 0, or -1 after printing what is wrong.
 */
int fr_options_parse(int argc, char **argv, struct fr_options *o);

/* @return true if @p arg is one of the application options. */
bool fr_is_app_option(const char *arg);

/* The launcher: the whole program as the user sees it. @return exit status */
int fr_launch(int argc, char **argv);

/* A child of the launcher, in role @p role (FR_ENV_ROLE). @return status */
int fr_child(const char *role, int argc, char **argv);

/* The hugetlbfs directories a run uses (hugepages.c). */
#define FR_MAX_DIRS 8

struct fr_huge_dirs {
	unsigned int n; /* directories found */
	char path[FR_MAX_DIRS][PATH_MAX]; /* each directory */
	uint64_t page_sz[FR_MAX_DIRS]; /* its page size, in bytes */
	uint64_t limit_free[FR_MAX_DIRS]; /* free bytes under its size=
					   * limit; UINT64_MAX if none */
};

/* Hugepage files of one prefix in a set of directories. */
struct fr_file_tally {
	unsigned int files; /* number of <prefix>map_<n> files */
	uint64_t bytes; /* hugepage memory they hold */
};

/*
 * Find the directories a run with @p huge_dir (--huge-dir, or NULL for
 * every hugetlbfs mount, the first per page size) uses.
 *
 * @return 0, or -1 after printing what is wrong.
 */
int fr_huge_dirs_find(const char *huge_dir, struct fr_huge_dirs *d);

/* Count the hugepage files of @p prefix in @p d. */
void fr_files_tally(const struct fr_huge_dirs *d, const char *prefix,
		struct fr_file_tally *t);

/*
 * Check that @p need_mb of hugepages can be mapped in @p d: free pages,
 * plus those the files of @p prefix hold (removed before the first start).
 * @p why says where the amount comes from, for the message.
 *
 * @return 0, or -1 after printing what is short and how to fix it.
 */
int fr_huge_check_fit(const struct fr_huge_dirs *d, const char *prefix,
		uint64_t need_mb, const char *why);

#endif /* _FAST_RESTART_H_ */
