/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Hugetlb cgroups (v1) for tests that need a hugepage pool shorter than
 * the machine's, for one child only: the test mounts the hierarchy at a
 * directory of its own, makes a cgroup with a limit, runs the child
 * inside it and takes everything down again. Other tests, which may use
 * the pool meanwhile, are not limited.
 */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"

static int
cg_write(const char *path, const char *val)
{
	FILE *f = fopen(path, "w");
	int ret;

	if (f == NULL)
		return -1;
	ret = fputs(val, f) < 0 ? -1 : 0;
	if (fclose(f) != 0)
		ret = -1;
	return ret;
}

/* Move this process into cgroup directory @p dir. */
static void
cg_move_self(const char *dir)
{
	char path[256], pid[32];

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	snprintf(pid, sizeof(pid), "%d", getpid());
	cg_write(path, pid);
}

/* Set limit file @p name for pages of @p page_sz to @p bytes. */
static int
cg_limit(const struct test_hugetlb_cg *cg, uint64_t page_sz, const char *name,
		uint64_t bytes)
{
	char path[256], val[32];

	snprintf(path, sizeof(path), "%s/hugetlb.%s.%s", cg->dir,
			page_sz == (1ULL << 30) ? "1GB" : "2MB", name);
	snprintf(val, sizeof(val), "%" PRIu64, bytes);
	return cg_write(path, val);
}

int
test_hugetlb_cg_create(struct test_hugetlb_cg *cg, uint64_t page_sz,
		uint64_t bytes, bool reservations)
{
	snprintf(cg->mnt, sizeof(cg->mnt), "/tmp/rtemem-cg-XXXXXX");
	if (mkdtemp(cg->mnt) == NULL)
		return -1;
	if (mount("none", cg->mnt, "cgroup", 0, "hugetlb") != 0) {
		rmdir(cg->mnt);
		return -1;
	}
	snprintf(cg->dir, sizeof(cg->dir), "%s/rtemem-%d", cg->mnt, getpid());
	if (mkdir(cg->dir, 0755) != 0 ||
			cg_limit(cg, page_sz, "limit_in_bytes", bytes) != 0 ||
			(reservations &&
					cg_limit(cg, page_sz,
							"rsvd.limit_in_bytes",
							bytes) != 0)) {
		rmdir(cg->dir);
		umount(cg->mnt);
		rmdir(cg->mnt);
		return -1;
	}
	return 0;
}

uint64_t
test_hugetlb_cg_read(const struct test_hugetlb_cg *cg, uint64_t page_sz,
		const char *name)
{
	char path[256];
	uint64_t v;
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "%s/hugetlb.%s.%s", cg->dir,
			page_sz == (1ULL << 30) ? "1GB" : "2MB", name);
	f = fopen(path, "r");
	if (f == NULL)
		return UINT64_MAX;
	n = fscanf(f, "%" SCNu64, &v);
	fclose(f);
	return n == 1 ? v : UINT64_MAX;
}

void
test_hugetlb_cg_enter(const struct test_hugetlb_cg *cg)
{
	cg_move_self(cg->dir);
}

void
test_hugetlb_cg_destroy(struct test_hugetlb_cg *cg)
{
	cg_move_self(cg->mnt);
	rmdir(cg->dir);
	umount(cg->mnt);
	rmdir(cg->mnt);
}
