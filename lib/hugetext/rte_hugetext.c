/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * The public door of the remap, and the preload entry: a constructor
 * that applies RTEMEM_HUGETEXT when the library is loaded.
 *
 * rte_hugetext_remap() runs the steps of hugetext_priv.h. In enforce
 * mode every range's hugetlb pages are reserved before the first move,
 * so that a short pool changes nothing; in auto mode a range that gets
 * no hugetlb pages is copied to transparent huge pages instead.
 *
 * The report of the last remap is the one piece of process state: it
 * describes a change made to the whole process, once, and is written
 * only after every move is done.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "hugetext_priv.h"

static struct {
	struct rte_hugetext_report report;
	struct rte_hugetext_range *range; /* mapped, report.ranges of them */
	unsigned int cap; /* room in range */
} ht_last;

static const struct ht_policy ht_policies[] = {
	[RTE_HUGETEXT_OFF] = { .hugetlb = false },
	[RTE_HUGETEXT_AUTO] = { .hugetlb = true,
			.thp = true,
			.best_effort = true },
	[RTE_HUGETEXT_ENFORCE] = { .hugetlb = true, .all_or_nothing = true },
	[RTE_HUGETEXT_THP] = { .thp = true },
};

static const char *const mode_names[] = {
	[RTE_HUGETEXT_OFF] = "off",
	[RTE_HUGETEXT_AUTO] = "auto",
	[RTE_HUGETEXT_ENFORCE] = "enforce",
	[RTE_HUGETEXT_THP] = "thp",
};

int
rte_hugetext_mode_parse(const char *name, enum rte_hugetext_mode *mode)
{
	unsigned int i;

	if (name == NULL || mode == NULL)
		return -EINVAL;
	for (i = 0; i < sizeof(mode_names) / sizeof(mode_names[0]); i++)
		if (strcmp(name, mode_names[i]) == 0) {
			*mode = (enum rte_hugetext_mode)i;
			return 0;
		}
	return -EINVAL;
}

const char *
rte_hugetext_mode_name(enum rte_hugetext_mode mode)
{
	if ((unsigned int)mode >= sizeof(mode_names) / sizeof(mode_names[0]))
		return "?";
	return mode_names[mode];
}

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static unsigned long
free_hugepages(size_t size)
{
	char path[96];

	snprintf(path, sizeof(path),
			"/sys/kernel/mm/hugepages/hugepages-%zukB/free_hugepages",
			size >> 10);
	return (unsigned long)ht_file_number(path);
}

static void
reserve_release_all(struct ht_plan *plan)
{
	unsigned int i;

	for (i = 0; i < plan->n; i++)
		ht_range_release(&plan->r[i]);
}

/*
 * Hugetlb pages for @p r: of its page size, else of the next smaller
 * size, which also divides it (a kernel that offers 1 GB pages often has
 * none reserved).
 */
static int
reserve_hugetlb(const struct ht_sizes *sizes, struct ht_range *r)
{
	unsigned int i = sizes->n_hugetlb;
	int err = -ENOMEM;

	while (i-- > 0) {
		if (sizes->hugetlb[i] > r->page_size)
			continue;
		r->page_size = sizes->hugetlb[i];
		err = ht_range_reserve(r, true);
		if (err == 0)
			break;
	}
	return err;
}

/* Reserve memory for every range: hugetlb, else THP, else nothing. */
static int
plan_reserve(struct ht_ctx *c, const struct ht_policy *pol,
		unsigned int *fallbacks)
{
	struct ht_plan *plan = &c->plan;
	unsigned int i;

	for (i = 0; i < plan->n; i++) {
		struct ht_range *r = &plan->r[i];
		int err = -ENOMEM;

		if (pol->hugetlb && c->sizes.n_hugetlb > 0)
			err = reserve_hugetlb(&c->sizes, r);
		if (err == 0)
			continue;
		if (pol->all_or_nothing) {
			unsigned long free = free_hugepages(r->page_size);

			ht_log(&c->log, HT_ERR,
					"enforce: %zu MB of %zu kB "
					"hugetlb pages for %s at %#lx cannot be "
					"reserved (%s; %lu free in the pool%s): nothing "
					"moved\n",
					r->len >> 20, r->page_size >> 10,
					c->obj[r->obj].name,
					(unsigned long)r->start, strerror(-err),
					free,
					free >= r->len / r->page_size ?
							", so a hugetlb cgroup limit "
							"or other reservations apply" :
							"");
			reserve_release_all(plan);
			return err;
		}
		if (pol->hugetlb && c->sizes.n_hugetlb > 0)
			(*fallbacks)++;
		if (!pol->thp || c->sizes.thp == 0 ||
				ht_range_reserve(r, false) != 0)
			r->copy = NULL;
	}
	return 0;
}

/* Move what was reserved; ranges with nothing reserved stay small. */
static int
plan_move(struct ht_ctx *c)
{
	struct ht_plan *plan = &c->plan;
	unsigned int i;
	int ret = 0, err;

	for (i = 0; i < plan->n; i++) {
		struct ht_range *r = &plan->r[i];

		if (r->copy == NULL) {
			plan->small_bytes += r->seg_bytes;
			r->len = 0;
			continue;
		}
		err = ht_range_move(r, &c->maps, &c->log);
		if (err != 0) {
			ht_log(&c->log, HT_WARNING,
					"%s at %#lx not moved: %s\n",
					c->obj[r->obj].name,
					(unsigned long)r->start,
					strerror(-err));
			plan->small_bytes += r->seg_bytes;
			r->len = 0;
			ret = err;
			continue;
		}
		ht_range_measure(r);
	}
	return ret;
}

/*
 * Room for the report of @p n ranges, made before anything moves: the
 * report of a move that happened cannot be lost for want of memory.
 */
static int
report_alloc(unsigned int n)
{
	void *p = mmap(NULL, (size_t)n * sizeof(*ht_last.range),
			PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
			0);

	if (p == MAP_FAILED)
		return -ENOMEM;
	/* A call that moved nothing may come before: its room goes. */
	if (ht_last.range != NULL)
		munmap(ht_last.range, ht_last.cap * sizeof(*ht_last.range));
	ht_last.range = p;
	ht_last.cap = n;
	return 0;
}

static void
report_save(const struct ht_ctx *c, enum rte_hugetext_mode mode, int status,
		unsigned int fallbacks, uint64_t t0)
{
	struct rte_hugetext_report *rep = &ht_last.report;
	const struct ht_plan *plan = &c->plan;
	unsigned int i;

	memset(rep, 0, sizeof(*rep));
	rep->mode = mode;
	rep->status = status;
	rep->objects = c->n_obj;
	rep->segments = plan->segments;
	rep->small_bytes = plan->small_bytes;
	rep->fallbacks = fallbacks;
	for (i = 0; i < plan->n; i++) {
		const struct ht_range *r = &plan->r[i];
		struct rte_hugetext_range *out = &ht_last.range[rep->ranges];

		if (r->len == 0)
			continue;
		out->start = r->start;
		out->len = r->len;
		out->page_size = r->page_size;
		out->prot = r->prot;
		out->backing = r->backing;
		out->huge_bytes = r->huge_bytes;
		out->heap_bytes = r->heap_bytes;
		snprintf(out->object, sizeof(out->object), "%s",
				c->obj[r->obj].name);
		if (r->backing == RTE_HUGETEXT_HUGETLB)
			rep->hugetlb_bytes += r->len;
		else
			rep->thp_bytes += r->len;
		rep->heap_bytes += r->heap_bytes;
		rep->ranges++;
	}
	rep->elapsed_ns = now_ns() - t0;
}

static void
report_log(const struct ht_log *log)
{
	const struct rte_hugetext_report *rep = &ht_last.report;
	unsigned int i;

	for (i = 0; i < rep->ranges; i++) {
		const struct rte_hugetext_range *r = &ht_last.range[i];

		ht_log(log, HT_INFO,
				"%s: %#lx-%#lx %c%c%c %zu kB on %zu kB "
				"%s pages%s\n",
				r->object, (unsigned long)r->start,
				(unsigned long)(r->start + r->len),
				r->prot & PROT_READ ? 'r' : '-',
				r->prot & PROT_WRITE ? 'w' : '-',
				r->prot & PROT_EXEC ? 'x' : '-', r->len >> 10,
				r->page_size >> 10,
				r->backing == RTE_HUGETEXT_HUGETLB ? "hugetlb" :
								     "THP",
				r->heap_bytes > 0 ? " (with brk heap)" : "");
	}
	ht_log(log, rep->ranges > 0 ? HT_INFO : HT_NOTICE,
			"%s: %u ranges, %zu kB on hugetlb pages, %zu kB on THP, "
			"%zu kB left on small pages, %u fallbacks, in %.3f ms\n",
			rte_hugetext_mode_name(rep->mode), rep->ranges,
			rep->hugetlb_bytes >> 10, rep->thp_bytes >> 10,
			rep->small_bytes >> 10, rep->fallbacks,
			(double)rep->elapsed_ns / 1e6);
}

static int
remap_ctx(struct ht_ctx *c, const struct rte_hugetext_conf *conf,
		unsigned int nothing_level, uint64_t t0)
{
	const struct ht_policy *pol = &ht_policies[conf->mode];
	unsigned int fallbacks = 0;
	int ret;

	ret = ht_sizes_find(&c->sizes, pol, conf->page_sizes, &c->log);
	if (ret == 0)
		ret = ht_objects_find(c->obj, &c->n_obj, conf->libs, &c->log);
	if (ret == 0)
		ret = ht_heap_prepare(
				&c->heap, &c->obj[0], c->sizes.grain, &c->log);
	if (ret == 0) {
		ret = ht_maps_read(&c->maps);
		if (ret < 0)
			ht_log(&c->log, HT_ERR,
					"cannot read /proc/self/maps: "
					"%s\n",
					strerror(-ret));
	}
	if (ret == -ENOTSUP && pol->best_effort)
		return 0;
	if (ret < 0)
		return ret;
	ht_plan_build(&c->plan, c->obj, c->n_obj, &c->maps, &c->sizes, &c->heap,
			&c->log);
	if (c->plan.n == 0 && pol->all_or_nothing) {
		ht_log(&c->log, nothing_level,
				"enforce: no segment holds a whole "
				"%zu kB page\n",
				c->sizes.grain >> 10);
		return -ENOEXEC;
	}
	ret = c->plan.n > 0 ? report_alloc(c->plan.n) : 0;
	if (ret == 0)
		ret = plan_reserve(c, pol, &fallbacks);
	if (ret < 0)
		return ret;
	ret = plan_move(c);
	report_save(c, conf->mode, ret, fallbacks, t0);
	report_log(&c->log);
	if (conf->perf_map)
		ht_perf_map_write(&c->plan, c->obj, c->n_obj, &c->log);
	return ret;
}

int
ht_remap(const struct rte_hugetext_conf *conf, unsigned int nothing_level)
{
	const struct rte_hugetext_conf dflt = { .mode = RTE_HUGETEXT_AUTO };
	uint64_t t0 = now_ns();
	struct ht_ctx *c;
	int ret;

	if (conf == NULL)
		conf = &dflt;
	if ((unsigned int)conf->mode > RTE_HUGETEXT_THP)
		return -EINVAL;
	if (!ht_policies[conf->mode].hugetlb && !ht_policies[conf->mode].thp)
		return 0; /* off */
	c = mmap(NULL, sizeof(*c), PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (c == MAP_FAILED)
		return -ENOMEM;
	c->log.fn = conf->log;
	c->log.arg = conf->log_arg;
	c->log.max_level = conf->log != NULL ? HT_DEBUG : HT_WARNING;
	if (getenv("RTEMEM_HUGETEXT_VERBOSE") != NULL)
		c->log.max_level = HT_INFO;
	if (ht_last.report.ranges > 0) {
		ht_log(&c->log, HT_NOTICE, "already moved: %u ranges\n",
				ht_last.report.ranges);
		ret = 0;
	} else {
		ret = remap_ctx(c, conf, nothing_level, t0);
		/* A call that failed before moving anything says so too. */
		if (ret < 0 && ht_last.report.ranges == 0) {
			ht_last.report.mode = conf->mode;
			ht_last.report.status = ret;
		}
	}
	munmap(c, sizeof(*c));
	return ret;
}

int
rte_hugetext_remap(const struct rte_hugetext_conf *conf)
{
	return ht_remap(conf, HT_ERR);
}

int
rte_hugetext_report_get(struct rte_hugetext_report *report)
{
	if (report == NULL)
		return -EINVAL;
	*report = ht_last.report;
	return 0;
}

int
rte_hugetext_range_get(unsigned int idx, struct rte_hugetext_range *range)
{
	if (range == NULL || idx >= ht_last.report.ranges)
		return -EINVAL;
	*range = ht_last.range[idx];
	return 0;
}
