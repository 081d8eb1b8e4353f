/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _MPERF_H_
#define _MPERF_H_

/*
 * rtemem-malloc-perf: what its files share. One context (struct mperf_ctx)
 * is built by main.c and passed to every step; the only process-wide state
 * is the interrupt flag set by the signal handlers (proc.c).
 *
 *   main.c     options, the order of the steps
 *   machine.c  hugepage facts, the working directories, file cleanup
 *   proc.c     spawning a timed child process, signals
 *   startup.c  the start-up modes, the child side, start-up cases
 *   table.c    the allocator table, in this process
 *   dpdk.c     running upstream DPDK's dpdk-test for comparison
 *   output.c   text table, JSON and CSV
 *   plot.c     running the plot script
 *   floor.c    the floor of a warm restart: the kernel maps the files
 *   project.c  --project: fixed + per-GiB fits, projected to 1 TiB
 *   threads.c  --threads: rtemem's rows, then each peer's child process
 *   threads_out.c  --threads: text, JSON and CSV
 *   peer.c     the peer program (rtemem-malloc-perf-peer), linked apart
 */

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "malloc_perf_table.h"
#include "malloc_perf_threads.h"

#define MPERF_PROG "rtemem-malloc-perf"
#define MPERF_PLOT_SCRIPT "rtemem-malloc-perf-plot.py"

#define MPERF_MAX_REPS 100 /* repetitions of a start-up case */
#define MPERF_MAX_TURNS 20 /* runs of every allocator with --threads */
#define MPERF_MAX_SIZES 16 /* entries of --sizes */
#define MPERF_MAX_MODES 16 /* entries of --modes */
#define MPERF_MAX_EAL_ARGS 32 /* EAL arguments after "--" */
#define MPERF_MAX_ARGV 64 /* arguments of a child process */

/* The first argument that makes this program a start-up child. */
#define MPERF_CHILD_ARG "--startup-child"
/* The descriptor a start-up child writes its time stamps to. */
#define MPERF_CHILD_FD 3
/* First argument of the floor child (floor.c): DIR PREFIX follow. */
#define MPERF_FLOOR_ARG "--floor-child"
/* First argument of the primary an attach mode's secondaries attach to. */
#define MPERF_HOLD_ARG "--hold-child"

/* Exit status of a child whose rte_eal_init() failed. */
#define MPERF_CHILD_INIT_FAILED 2
/* Exit status of a child whose first rte_malloc() failed. */
#define MPERF_CHILD_ALLOC_FAILED 3

/* A start-up mode: how rtemem (and DPDK) are started, and from what. */
struct mperf_mode {
	const char *name; /* as given to --modes */
	const char *desc; /* one line for --help */
	const char *eal_args[3]; /* EAL arguments of the mode, NULL-ended */
	bool warm; /* files of an untimed first run are kept and reused */
	/*
	 * dpdk-test maps every free hugepage at start in this mode (and
	 * gives back what -m does not need): beyond --max-mem, so it runs
	 * only with --dpdk-legacy.
	 */
	bool dpdk_maps_all;
	/*
	 * --keep-memzones: the untimed first run reserves MPERF_KEEP_ZONES
	 * memzones over most of -m, and each timed run brings them back.
	 * DPDK has no such mode.
	 */
	bool keep;
	/*
	 * --proc-type=secondary: a primary holding -m (--huge-unlink=never)
	 * runs for the whole case, and each timed run attaches to it. Not
	 * compared with dpdk-test, which would need a DPDK primary.
	 */
	bool attach;
};

/* Memzones of a keep mode, and their names. */
#define MPERF_KEEP_ZONES 1000
#define MPERF_KEEP_NAME "mperf_keep_%u"

extern const struct mperf_mode mperf_modes[];
extern const unsigned int mperf_n_modes;

/* What a start-up case measures, each from the exec of the process. */
enum mperf_metric {
	MPERF_T_INIT, /* rte_eal_init() returned */
	MPERF_T_ALLOC, /* the first rte_malloc() returned */
	MPERF_T_EXIT, /* the process exited (whole process) */
	MPERF_N_METRICS
};

/* Samples of one metric, in ms. */
struct mperf_samples {
	unsigned int n; /* samples taken */
	double ms[MPERF_MAX_REPS]; /* in the order taken */
};

/* Median, minimum and maximum of a set of samples. */
struct mperf_stats {
	double median; /* ms; the mean of the middle two for even counts */
	double min; /* ms */
	double max; /* ms */
};

/* One start-up case: a mode and a memory size. */
struct mperf_startup {
	const struct mperf_mode *mode;
	unsigned int size_mb; /* -m, in MB */
	struct mperf_samples rt[MPERF_N_METRICS]; /* rtemem */
	struct mperf_samples dpdk_exit; /* dpdk-test, exec to exit */
	struct mperf_samples floor_exit; /* warm modes: the floor (floor.c) */
	bool failed; /* an rtemem run failed: samples are incomplete */
	bool dpdk_failed; /* a dpdk-test run failed */
	bool dpdk_skipped; /* dpdk-test not run (dpdk_maps_all) */
};

/* The rows of an allocator table (rtemem's or DPDK's), growing. */
struct mperf_rows {
	struct mperf_row *v; /* rows, in table order */
	unsigned int n; /* rows used */
	unsigned int cap; /* rows allocated */
};

/*
 * Peers --threads compares with (threads.c): the four general-purpose
 * allocators and the list (no allocator).
 */
#define MPERF_N_PEERS 5

/* One row of --threads: an allocator and a case. */
struct mperf_mt_row {
	const char *alloc; /* "rtemem", "glibc", ... (static strings) */
	struct mt_case c;
	struct mt_result r;
};

/* The rows of --threads, growing, in the order measured. */
struct mperf_mt {
	struct mperf_mt_row *v;
	unsigned int n;
	unsigned int cap;
};

/* Upstream DPDK, when compared with. */
struct mperf_dpdk {
	char path[PATH_MAX]; /* dpdk-test; "" when not found */
	char version[64]; /* as dpdk-test -v prints it, or "" */
	char note[PATH_MAX + 256]; /* why there is no comparison, or "" */
	char runtime_base[PATH_MAX]; /* where it puts <prefix>/ */
	bool runtime_base_existed; /* runtime_base existed before us */
	double nohuge_ms; /* dpdk-test -v --no-huge -m 64, exec to exit, ms */
	bool have_table; /* its malloc_perf_autotest ran and was parsed */
	struct mperf_memset_ref memset; /* its memset reference */
	struct mperf_rows rows; /* its allocator table */
};

/* Facts about the machine, read at start. */
struct mperf_machine {
	char kernel[160]; /* uname -sr */
	char rtemem_version[64]; /* rte_version() */
	uint64_t page_sz; /* page size of --huge-dir, bytes */
	long total_pages; /* nr_hugepages of that size */
	long free_pages; /* free_hugepages of that size, at start */
	long free_pages_end; /* the same at the end, or -1 */
	unsigned int n_nodes; /* NUMA nodes, at least 1 */
	int cpu; /* CPU the measured processes run on (-l) */
};

/* The command line, read-only once parsed. */
struct mperf_opts {
	const char *huge_dir; /* --huge-dir */
	unsigned int sizes_mb[MPERF_MAX_SIZES]; /* --sizes, in order */
	unsigned int n_sizes;
	bool sizes_set; /* --sizes was given */
	const struct mperf_mode *modes[MPERF_MAX_MODES]; /* --modes */
	unsigned int n_modes;
	unsigned int reps; /* --reps */
	unsigned int max_mem_mb; /* --max-mem; 0: free memory less a margin */
	bool no_startup; /* --no-startup */
	bool no_alloc_table; /* --no-alloc-table */
	size_t max_size; /* --max-size, bytes; 0: no limit */
	unsigned int max_runs; /* --runs */
	const char *json; /* --json FILE, or NULL */
	const char *csv; /* --csv FILE, or NULL */
	const char *plot; /* --plot FILE, or NULL */
	bool compare_dpdk; /* --compare-dpdk */
	const char *dpdk_test; /* --dpdk-test PATH, or NULL: search PATH */
	bool dpdk_legacy; /* --dpdk-legacy: run dpdk-test's legacy mode */
	bool quiet; /* --quiet: no progress */
	bool project; /* --project: fit and project the start-up times */
	/* --populate-threads: "--populate-threads=V" for the start-up
	 * children of modes with a file per page, or "" */
	char populate_arg[32];
	unsigned int threads[MT_MAX_THREADS]; /* --threads, ascending */
	unsigned int n_threads; /* 0: no --threads */
	bool peers[MPERF_N_PEERS]; /* --peers: which peers */
	bool peers_set; /* --peers was given */
	bool zero; /* --zero: zeroed allocations in --threads */
	unsigned int turns; /* --turns: runs of every allocator, in turns */
	char *const *eal_args; /* after "--": for the allocator table */
	unsigned int n_eal_args;
};

/* Everything one run uses and produces. */
struct mperf_ctx {
	struct mperf_opts opts;
	struct mperf_machine machine;
	char prefix[32]; /* --file-prefix of every measured process */
	char rt_dir[PATH_MAX]; /* rtemem's hugetlbfs sub-directory */
	char dpdk_dir[PATH_MAX]; /* dpdk-test's hugetlbfs sub-directory */
	bool huge_dir_created; /* --huge-dir did not exist: remove it */
	bool rt_dir_created; /* rt_dir did not exist: remove it */
	bool dpdk_dir_created; /* dpdk_dir did not exist: remove it */
	unsigned int cap_mb; /* most memory a case may map at a time */
	unsigned int dropped_mb[MPERF_MAX_SIZES]; /* sizes above the cap */
	unsigned int n_dropped;
	struct mperf_startup *startup; /* cases, in the order run */
	unsigned int n_startup;
	bool have_table; /* the allocator table ran */
	struct mperf_memset_ref memset; /* its memset reference */
	struct mperf_rows rows; /* its rows */
	bool compare; /* dpdk-test found and usable */
	struct mperf_dpdk dpdk;
	struct mperf_mt mt; /* --threads rows */
	FILE *progress; /* stderr, or NULL with --quiet */
};

/* ---- machine.c ---- */

/*
 * Check that @p ctx->opts.huge_dir is on hugetlbfs (creating it if its
 * parent is), read the machine facts and create the two sub-directories,
 * which must be empty. @return 0, or -1 after printing why.
 */
int mperf_machine_setup(struct mperf_ctx *ctx);

/* Free pages of the size of the working directory, or -1. */
long mperf_free_pages(const struct mperf_ctx *ctx);

/* Remove every file in @p dir (not sub-directories). @return files left. */
int mperf_dir_clear(const char *dir);

/*
 * Remove every file the run created and the directories it created, and
 * compare the free hugepages with the start. @return 0, or -1 if a file or
 * directory could not be removed.
 */
int mperf_machine_cleanup(struct mperf_ctx *ctx);

/* Print a progress line on stderr unless --quiet. */
void mperf_progress(const struct mperf_ctx *ctx, const char *fmt, ...)
		__attribute__((format(printf, 2, 3)));

/* ---- proc.c ---- */

/* A child process to run and time. */
struct mperf_proc {
	const char *path; /* program to execute */
	char *argv[MPERF_MAX_ARGV]; /* NULL-ended */
	bool clean_env; /* drop DPDK_TEST and DPDK_TEST_PARAMS */
	const char *env_add; /* one NAME=VALUE to add, or NULL */
	bool stamps; /* give the child a pipe on MPERF_CHILD_FD */
	unsigned int timeout_s; /* kill the child after this */
	/* results */
	int status; /* exit status, or -1 (killed or not started) */
	double exit_ms; /* spawn to exit, ms */
	double stamp_ms[2]; /* spawn to the child's stamps, ms, or -1 */
	char *output; /* the child's stdout and stderr (malloc), or NULL */
};

/* Start the child, wait for it, fill the results. @return 0 if it exited
 * with status 0, else -1 (proc->output says what it printed).
 */
int mperf_proc_run(struct mperf_proc *proc);

/* Free the output of a run. */
void mperf_proc_release(struct mperf_proc *proc);

/* Print the last lines of a failed child's output on stderr. */
void mperf_proc_report(const struct mperf_proc *proc, const char *what);

/* Find @p name in $PATH. @return 0 with the path in @p buf, or -1. */
int mperf_path_search(const char *name, char *buf, size_t len);

/* Catch SIGINT and SIGTERM: mperf_interrupted() then returns true. */
void mperf_signals_init(void);
bool mperf_interrupted(void);

/* ---- startup.c ---- */

/* Look a mode up by name. @return it, or NULL. */
const struct mperf_mode *mperf_mode_find(const char *name);

/* The child side: init, allocate, report the stamps, exit. */
int mperf_startup_child(int argc, char **argv);

/*
 * Main of the primary of an attach mode (MPERF_HOLD_ARG): init, write
 * "ready" to MPERF_CHILD_FD, hold the memory until stdin closes.
 */
int mperf_hold_child(int argc, char **argv);

/* ---- attach.c ---- */

/* The primary of an attach mode, while it runs. */
struct mperf_hold {
	pid_t pid; /* -1 when none */
	int in_fd; /* its stdin: closing it ends it */
};

/*
 * Start the primary an attach mode's runs attach to, holding @p size_mb
 * of ctx's directory and prefix, and wait until it is ready.
 *
 * @return 0, or -1 (said on stderr; nothing is left running).
 */
int mperf_hold_start(const struct mperf_ctx *ctx, unsigned int size_mb,
		struct mperf_hold *h);

/* End it and wait for it. @return 0 if it exited cleanly, else -1. */
int mperf_hold_stop(struct mperf_hold *h);

/*
 * Run every (size, mode) case, rtemem and (if ctx->compare) dpdk-test
 * repetitions interleaved. @return 0, or -1 if a case failed or the run
 * was interrupted (the cases done so far are in ctx->startup).
 */
int mperf_startup_run(struct mperf_ctx *ctx);

/* Median, min and max of @p s (all 0 when empty). */
void mperf_stats_get(const struct mperf_samples *s, struct mperf_stats *st);

/* ---- table.c ---- */

/* Append a row. @return 0, or -1 out of memory. */
int mperf_rows_add(struct mperf_rows *rows, const struct mperf_row *row);
void mperf_rows_free(struct mperf_rows *rows);

/*
 * The memory limit of an allocator table run, as an EAL option (returned)
 * and its value (into @p buf): --socket-limit per NUMA node, or -m when
 * the EAL arguments after "--" fix the memory (--legacy-mem, --no-huge).
 */
const char *mperf_table_limit(
		const struct mperf_ctx *ctx, char *buf, size_t len);

/*
 * Initialize rtemem in this process, measure the memset reference and the
 * allocator table, clean up. @return 0, or -1 after printing why.
 */
int mperf_table_run(struct mperf_ctx *ctx);

/* ---- floor.c ---- */

/* The floor child's main: map every file of the prefix, exit. */
int mperf_floor_child(int argc, char **argv);

/*
 * Time one floor child on the files of ctx's directory and prefix, into
 * @p s. @return 0, or -1 (said on stderr).
 */
int mperf_floor_run(const struct mperf_ctx *ctx, struct mperf_samples *s);

/* ---- project.c ---- */

/* A straight-line fit of start-up time against memory size. */
struct mperf_fit {
	bool ok; /* at least two sizes */
	unsigned int n; /* sizes fitted */
	double fixed; /* ms */
	double per_gib; /* ms per GiB */
	double max_rel_err; /* largest residual / median, of a measured size */
};

/* Least squares of @p y (ms) against @p x (GiB), @p n points. */
void mperf_fit_points(const double *x, const double *y, unsigned int n,
		struct mperf_fit *fit);

/* One line of the projection: a mode's metric, fitted. */
struct mperf_proj {
	const struct mperf_mode *mode;
	const char *who; /* "rtemem", "dpdk" (its exit) or "floor" (exit) */
	enum mperf_metric metric; /* MPERF_T_INIT or MPERF_T_EXIT */
	const char *label; /* "init", "exit", "floor exit", "DPDK exit" */
	struct mperf_fit fit;
};

/* Lines of the projection at most: four per mode. */
#define MPERF_MAX_PROJ (4 * MPERF_MAX_MODES)

/*
 * Fit every mode's start and exit, its floor's and dpdk-test's exit, into
 * @p p (up to @p max lines); lines with fewer than two sizes are left
 * out. @return how many.
 */
unsigned int mperf_projection(const struct mperf_ctx *ctx, struct mperf_proj *p,
		unsigned int max);

/* Print the fits and the projections to 64 GiB, 256 GiB and 1 TiB. */
void mperf_print_projection(const struct mperf_ctx *ctx, FILE *f);

/* ---- threads.c ---- */

/*
 * Parse --peers ("glibc,mimalloc", "none" or "all") into @p peers
 * (MPERF_N_PEERS entries). @return 0, or -1 on an unknown name.
 */
int mperf_peers_parse(const char *s, bool *peers);

/* Append a row. @return 0, or -1 out of memory. */
int mperf_mt_add(struct mperf_mt *mt, const char *alloc,
		const struct mt_case *c, const struct mt_result *r);

/*
 * Run the multi-thread benchmark on rtemem, then on each peer.
 * @return 0, or -1 if a part failed (the rows measured are kept).
 */
int mperf_threads_run(struct mperf_ctx *ctx);

/* ---- threads_out.c ---- */

/* The row of an allocator and a case, or NULL. */
const struct mperf_mt_row *mperf_mt_find(const struct mperf_mt *mt,
		const char *alloc, enum mt_shape shape, size_t size,
		unsigned int threads);
void mperf_print_threads(const struct mperf_ctx *ctx, FILE *f);
/* The "threads" member of the JSON object. @return 0, or -1. */
int mperf_write_threads_json(const struct mperf_ctx *ctx, FILE *f);
/* @return 0, or -1 after printing why. */
int mperf_write_threads_csv(const struct mperf_ctx *ctx, const char *path);

/* ---- dpdk.c ---- */

/*
 * Find dpdk-test and check that it starts. Sets ctx->compare, or
 * ctx->dpdk.note with the reason when it cannot compare.
 */
void mperf_dpdk_probe(struct mperf_ctx *ctx);

/* EAL arguments of a dpdk-test start-up run, into @p proc. */
void mperf_dpdk_startup_proc(const struct mperf_ctx *ctx,
		const struct mperf_mode *mode, unsigned int size_mb,
		struct mperf_proc *proc, char *buf, size_t len);

/*
 * Run dpdk-test's malloc_perf_autotest and parse its table into
 * ctx->dpdk. @return 0, or -1 (ctx->dpdk.note says why).
 */
int mperf_dpdk_table_run(struct mperf_ctx *ctx);

/* Remove dpdk-test's runtime directory of our prefix. */
void mperf_dpdk_cleanup(struct mperf_ctx *ctx);

/* ---- output.c ---- */

void mperf_print_startup(const struct mperf_ctx *ctx, FILE *f);
void mperf_print_table(const struct mperf_ctx *ctx, FILE *f);
/* @return 0, or -1 after printing why. */
int mperf_write_json(const struct mperf_ctx *ctx, const char *path);
int mperf_write_csv(const struct mperf_ctx *ctx, const char *path);

/* ---- plot.c ---- */

/* Draw @p json_path into @p out. @return 0, or -1 after printing why. */
int mperf_plot(const char *json_path, const char *out);

#endif /* _MPERF_H_ */
