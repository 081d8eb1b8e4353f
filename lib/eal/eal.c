/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * rte_eal_init() and rte_eal_cleanup().
 *
 * Init does only what serves memory: parse and resolve the options,
 * discover hugepages, build the memory layer, start the lcores. There is
 * no calibration, no plugin loading, no runtime-directory scan. Each step
 * fails with one line saying what is wrong and leaves nothing behind.
 *
 * The context lives in one static instance: the only process-wide state
 * besides logging. It is published (eal_ctx, and its memory config in
 * eal_mcfg_live) once memory and lcores are up, before the registered
 * subsystems (the heap) are set up on it, and withdrawn if one of them
 * fails.
 */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_log.h>

#include "eal_hugetext.h"
#include "eal_log.h"
#include "eal_mplock.h"
#include "eal_private.h"
#include "eal_subsys.h"

#define EAL_ERR_LEN 512

static struct eal_context eal_context_storage;
static struct eal_context *eal_ctx;
struct rte_mem_config *eal_mcfg_live;

struct eal_context *
eal_context_get(void)
{
	return eal_ctx;
}

struct eal_mem *
eal_mem_get(void)
{
	return eal_ctx == NULL ? NULL : &eal_ctx->mem;
}

const struct eal_options *
eal_options_get(void)
{
	return eal_ctx == NULL ? NULL : &eal_ctx->opts;
}

/* Publish @p ctx (NULL: withdraw it). */
static void
eal_publish(struct eal_context *ctx)
{
	eal_ctx = ctx;
	eal_mcfg_live = ctx == NULL ? NULL : ctx->mem.mcfg;
	/* Kept after cleanup: the identity does not change. */
	if (ctx != NULL)
		eal_mplock_self = ctx->mem.mp.self;
}

static int
eal_fail(int err_no, const char *msg)
{
	if (msg != NULL && msg[0] != '\0')
		EAL_LOG(ERR, "%s", msg);
	rte_errno = err_no;
	return -1;
}

static int
eal_parse(struct eal_context *ctx, int argc, char **argv, char *err)
{
	bool allowed[RTE_MAX_LCORE] = { false };
	unsigned int n_cpus;
	bool unknown = false;
	int ret;

	eal_options_defaults(&ctx->opts);
	ret = eal_options_parse(
			argc, argv, &ctx->opts, err, EAL_ERR_LEN, &unknown);
	if (ret < 0) {
		EAL_LOG(ERR, "%s", err);
		if (unknown)
			eal_options_usage(argv[0], stderr);
		err[0] = '\0';
		return ret;
	}
	if (ctx->opts.help) {
		eal_options_usage(argv[0], stdout);
		exit(EXIT_SUCCESS);
	}
	n_cpus = eal_cpus_allowed(allowed);
	if (eal_options_resolve(&ctx->opts, allowed, n_cpus, err, EAL_ERR_LEN) <
			0)
		return -EINVAL;
	eal_log_apply_options(&ctx->opts);
	return ret;
}

static int
eal_discover(struct eal_context *ctx, char *err)
{
	const struct eal_options *opts = &ctx->opts;
	int ret;

	memset(&ctx->hpi, 0, sizeof(ctx->hpi));
	if (opts->no_huge)
		return 0;
	ret = eal_hugepage_info_read(
			"/", opts->huge_dir, &ctx->hpi, err, EAL_ERR_LEN);
	if (ret < 0)
		return ret;
	ret = eal_hugepage_info_usable(
			&ctx->hpi, !opts->in_memory, err, EAL_ERR_LEN);
	if (ret < 0 || opts->in_memory)
		return ret;
	eal_hugepage_info_log_dirs(&ctx->hpi);
	if (opts->huge_unlink == EAL_HUGE_UNLINK_NEVER)
		ret = eal_hugepage_info_check_owner(
				&ctx->hpi, err, EAL_ERR_LEN);
	return ret;
}

/*
 * Settle the process type: a primary takes its prefix's runtime
 * directory (unless --no-shconf); a secondary opens the live primary's
 * config there; "auto" is the primary unless one is running.
 */
static int
eal_proc_type_resolve(struct eal_context *ctx, char *err)
{
	const struct eal_options *o = &ctx->opts;
	char path[PATH_MAX + 16];
	bool alive;

	ctx->rt.dir[0] = '\0';
	ctx->rt.config_fd = -1;
	ctx->proc_type = RTE_PROC_PRIMARY;
	if (o->no_shconf)
		return 0;
	if (eal_runtime_dir_path(o->file_prefix, path, PATH_MAX) < 0) {
		snprintf(err, EAL_ERR_LEN,
				"runtime directory of prefix '%s': "
				"path too long",
				o->file_prefix);
		return -ENAMETOOLONG;
	}
	strcat(path, "/config");
	alive = eal_runtime_alive(path) == 1;
	if (o->proc_type == RTE_PROC_SECONDARY && !alive) {
		snprintf(err, EAL_ERR_LEN,
				"--proc-type=secondary: no primary process of file "
				"prefix '%s' is running (none holds %s)",
				o->file_prefix, path);
		return -ENOENT;
	}
	if (o->proc_type != RTE_PROC_PRIMARY && alive) {
		ctx->proc_type = RTE_PROC_SECONDARY;
		return eal_runtime_attach(
				&ctx->rt, o->file_prefix, err, EAL_ERR_LEN);
	}
	return eal_runtime_open(&ctx->rt, o->file_prefix, err, EAL_ERR_LEN);
}

/* Build the memory layer, or attach to the primary's. */
static int
eal_memory_start(struct eal_context *ctx, char *err)
{
	int ret = eal_discover(ctx, err);

	if (ret < 0)
		return ret;
	if (ctx->proc_type == RTE_PROC_SECONDARY)
		return eal_mem_attach(&ctx->mem, &ctx->opts, &ctx->hpi,
				&ctx->rt, err, EAL_ERR_LEN);
	return eal_mem_init(&ctx->mem, &ctx->opts, &ctx->hpi, &ctx->rt, err,
			EAL_ERR_LEN);
}

/* Start the lcores, owning their ids among the prefix's processes. */
static int
eal_lcores_begin(struct eal_context *ctx, char *err)
{
	int ret = eal_lcores_init(&ctx->lcores, &ctx->opts, err, EAL_ERR_LEN);

	if (ret == 0 && ctx->mem.mp.slot >= 0) {
		eal_mp_lcores_claim(&ctx->mem, &ctx->lcores);
		/* The main lcore's id was set before it knew what it owns. */
		eal_lcore_id_set(rte_lcore_id());
	}
	return ret;
}

static void
eal_lcores_end(struct eal_context *ctx)
{
	eal_lcores_cleanup(&ctx->lcores);
	if (ctx->mem.mp.slot >= 0)
		eal_mp_lcores_release(&ctx->mem);
}

int
rte_eal_init(int argc, char **argv)
{
	struct eal_context *ctx = &eal_context_storage;
	char err[EAL_ERR_LEN] = "";
	int n_args, ret;

	if (eal_ctx != NULL)
		return eal_fail(EALREADY, "rte_eal_init: already initialized");
	if (argc < 1 || argv == NULL)
		return eal_fail(EINVAL, "rte_eal_init: no program name");
	/* Ids threads kept from an earlier EAL are its, not this one's. */
	__atomic_fetch_add(&eal_lcore_generation, 1, __ATOMIC_RELEASE);
	memset(ctx, 0, sizeof(*ctx));
	n_args = eal_parse(ctx, argc, argv, err);
	if (n_args < 0)
		return eal_fail(-n_args, err);
	/* Before any thread exists: see eal_hugetext.c. */
	ret = eal_hugetext_apply(&ctx->opts, err, EAL_ERR_LEN);
	if (ret < 0)
		return eal_fail(-ret, err);
	if (ctx->opts.huge_unlink == EAL_HUGE_UNLINK_NEVER)
		EAL_LOG(WARNING,
				"--huge-unlink=never: hugepage files are kept and mapped again, so reused memory may hold the previous process's data");
	ret = eal_proc_type_resolve(ctx, err);
	if (ret < 0)
		return eal_fail(-ret, err);
	ret = eal_memory_start(ctx, err);
	if (ret < 0) {
		eal_runtime_close(&ctx->rt);
		return eal_fail(-ret, err);
	}
	ret = eal_lcores_begin(ctx, err);
	if (ret < 0) {
		eal_mem_cleanup(&ctx->mem);
		eal_runtime_close(&ctx->rt);
		return eal_fail(-ret, err);
	}
	eal_lcores_set(&ctx->lcores);
	/* Subsystems allocate pages through the published memory layer. */
	eal_publish(ctx);
	ret = eal_subsys_init_all(ctx->mem.mcfg, err, EAL_ERR_LEN);
	if (ret == 0) {
		ret = eal_mp_start(&ctx->mem, err, EAL_ERR_LEN);
		if (ret == 0)
			ret = eal_lcores_start(&ctx->lcores, err, EAL_ERR_LEN);
		if (ret < 0)
			eal_subsys_cleanup_all(ctx->mem.mcfg);
	}
	if (ret < 0) {
		eal_publish(NULL);
		eal_lcores_end(ctx);
		eal_lcores_set(NULL);
		eal_mem_cleanup(&ctx->mem);
		eal_runtime_close(&ctx->rt);
		return eal_fail(-ret, err);
	}
	/* Another process of the prefix may now read the config. */
	if (ctx->proc_type == RTE_PROC_PRIMARY)
		__atomic_store_n(&ctx->mem.mcfg->ready, 1, __ATOMIC_RELEASE);
	argv[n_args] = argv[0];
	return n_args;
}

int
rte_eal_cleanup(void)
{
	struct eal_context *ctx = eal_ctx;

	if (ctx == NULL) {
		rte_errno = EALREADY;
		return -1;
	}
	eal_subsys_cleanup_all(ctx->mem.mcfg);
	eal_lcores_end(ctx);
	eal_lcores_set(NULL);
	eal_publish(NULL);
	eal_mem_cleanup(&ctx->mem);
	eal_runtime_close(&ctx->rt);
	return 0;
}

enum rte_proc_type_t
rte_eal_process_type(void)
{
	return eal_ctx == NULL ? RTE_PROC_PRIMARY : eal_ctx->proc_type;
}

enum rte_iova_mode
rte_eal_iova_mode(void)
{
	return eal_ctx == NULL ?
			RTE_IOVA_DC :
			(enum rte_iova_mode)eal_ctx->mem.mcfg->iova_mode;
}

int
rte_eal_has_hugepages(void)
{
	return eal_ctx != NULL && !eal_ctx->opts.no_huge;
}

const char *
rte_eal_get_runtime_dir(void)
{
	return eal_ctx != NULL ? eal_ctx->rt.dir : "";
}

int
rte_eal_primary_proc_alive(const char *config_file_path)
{
	char path[PATH_MAX + 16];

	if (config_file_path != NULL)
		return eal_runtime_alive(config_file_path);
	if (eal_runtime_dir_path(
			    eal_ctx != NULL ? eal_ctx->opts.file_prefix : "rte",
			    path, PATH_MAX) < 0)
		return 0;
	strcat(path, "/config");
	return eal_runtime_alive(path);
}

void
rte_exit(int exit_code, const char *format, ...)
{
	va_list ap;

	va_start(ap, format);
	rte_vlog(RTE_LOG_CRIT, RTE_LOGTYPE_EAL, format, ap);
	va_end(ap);
	exit(exit_code);
}
