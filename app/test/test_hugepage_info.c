/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Hugepage discovery against fixture sysfs/procfs trees
 * (app/test/fixtures/hugepage_info/<case>/), and --huge-dir against real
 * directories: statfs(2) cannot be faked, so those cases use /tmp, a
 * directory of our own, and a sub-directory of a real hugetlbfs mount.
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <linux/magic.h>

#include "test.h"
#include "eal_hugepage_info.h"

#ifndef TEST_FIXTURE_DIR
#error "TEST_FIXTURE_DIR must name app/test/fixtures"
#endif

#define FIXTURE(name) TEST_FIXTURE_DIR "/hugepage_info/" name
#define SZ_2M (UINT64_C(2) << 20)
#define SZ_1G (UINT64_C(1) << 30)

#define ASSERT_STR_EQ(a, b) \
	TEST_ASSERT(strcmp((a), (b)) == 0, "\"%s\" != \"%s\"", (a), (b))

/* A private directory for the --huge-dir cases, made by tmp_setup(). */
static char tmp_dir[] = "/tmp/rtemem-hpi-XXXXXX";
static char tmp_path[PATH_MAX]; /* something created in it, or "" */

static int
tmp_setup(void)
{
	strcpy(tmp_dir, "/tmp/rtemem-hpi-XXXXXX");
	tmp_path[0] = '\0';
	TEST_ASSERT_NOT_NULL(mkdtemp(tmp_dir), "mkdtemp: %s", strerror(errno));
	return TEST_SUCCESS;
}

static void
tmp_teardown(void)
{
	if (tmp_path[0] != '\0' && unlink(tmp_path) < 0)
		printf("cannot remove %s: %s\n", tmp_path, strerror(errno));
	if (rmdir(tmp_dir) < 0)
		printf("cannot remove %s: %s\n", tmp_dir, strerror(errno));
}

static int
check_size(const struct eal_hugepage_size *hs, uint64_t page_sz, uint32_t total,
		uint32_t free_pages, const char *dir)
{
	TEST_ASSERT_EQUAL(hs->page_sz, page_sz,
			"page_sz %" PRIu64 " != %" PRIu64, hs->page_sz,
			page_sz);
	TEST_ASSERT_EQUAL(hs->total, total,
			"%" PRIu64 ": total %" PRIu32 " != %" PRIu32, page_sz,
			hs->total, total);
	TEST_ASSERT_EQUAL(hs->free, free_pages,
			"%" PRIu64 ": free %" PRIu32 " != %" PRIu32, page_sz,
			hs->free, free_pages);
	ASSERT_STR_EQ(hs->dir, dir);
	return TEST_SUCCESS;
}

/* Node 0 has @p node0 free pages, node 1 @p node1, all others none. */
static int
check_per_node(const struct eal_hugepage_size *hs, uint32_t node0,
		uint32_t node1)
{
	unsigned int i;

	TEST_ASSERT_EQUAL(hs->free_per_node[0], node0,
			"node 0: %" PRIu32 " != %" PRIu32, hs->free_per_node[0],
			node0);
	TEST_ASSERT_EQUAL(hs->free_per_node[1], node1,
			"node 1: %" PRIu32 " != %" PRIu32, hs->free_per_node[1],
			node1);
	for (i = 2; i < RTE_MAX_NUMA_NODES; i++)
		TEST_ASSERT_EQUAL(hs->free_per_node[i], 0, "node %u: %" PRIu32,
				i, hs->free_per_node[i]);
	return TEST_SUCCESS;
}

static int
check_single_node0(const struct eal_hugepage_info *hpi)
{
	TEST_ASSERT_EQUAL(hpi->n_nodes, 1, "n_nodes %u", hpi->n_nodes);
	TEST_ASSERT_EQUAL(hpi->node_ids[0], 0, "node id %d", hpi->node_ids[0]);
	return TEST_SUCCESS;
}

static int
read_ok(const char *root, const char *huge_dir, struct eal_hugepage_info *hpi)
{
	char err[512] = "";
	int rc;

	rc = eal_hugepage_info_read(root, huge_dir, hpi, err, sizeof(err));
	TEST_ASSERT_SUCCESS(rc, "read %s: %d (%s)", root, rc, err);
	return TEST_SUCCESS;
}

#define READ_OK(root, dir, hpi) \
	TEST_ASSERT_SUCCESS(read_ok(root, dir, hpi), "fixture %s", root)
#define CHECK(call) TEST_ASSERT_SUCCESS(call, "%s", #call)

static int
test_one_node(void)
{
	struct eal_hugepage_info hpi;
	char err[512] = "";

	READ_OK(FIXTURE("one_node"), NULL, &hpi);
	TEST_ASSERT_EQUAL(hpi.n_sizes, 1, "n_sizes %u", hpi.n_sizes);
	CHECK(check_size(&hpi.sizes[0], SZ_2M, 1024, 1000, "/dev/hugepages"));
	CHECK(check_per_node(&hpi.sizes[0], 1000, 0));
	CHECK(check_single_node0(&hpi));
	TEST_ASSERT_EQUAL(hpi.default_page_sz, SZ_2M, "default %" PRIu64,
			hpi.default_page_sz);
	TEST_ASSERT_SUCCESS(
			eal_hugepage_info_usable(&hpi, true, err, sizeof(err)),
			"usable: %s", err);

	/* An empty --huge-dir means none, as NULL does. */
	READ_OK(FIXTURE("one_node"), "", &hpi);
	CHECK(check_size(&hpi.sizes[0], SZ_2M, 1024, 1000, "/dev/hugepages"));
	return TEST_SUCCESS;
}

static int
test_two_sizes_two_nodes(void)
{
	struct eal_hugepage_info hpi;

	/* The mounts say pagesize=1024M and pagesize=2048k. */
	READ_OK(FIXTURE("two_nodes"), NULL, &hpi);
	TEST_ASSERT_EQUAL(hpi.n_sizes, 2, "n_sizes %u", hpi.n_sizes);
	CHECK(check_size(&hpi.sizes[0], SZ_1G, 4, 3, "/mnt/huge-1G"));
	CHECK(check_per_node(&hpi.sizes[0], 1, 2));
	CHECK(check_size(&hpi.sizes[1], SZ_2M, 1024, 900, "/dev/hugepages"));
	CHECK(check_per_node(&hpi.sizes[1], 500, 400));
	TEST_ASSERT_EQUAL(hpi.n_nodes, 2, "n_nodes %u", hpi.n_nodes);
	TEST_ASSERT_EQUAL(
			hpi.node_ids[0], 0, "node_ids[0] %d", hpi.node_ids[0]);
	TEST_ASSERT_EQUAL(
			hpi.node_ids[1], 1, "node_ids[1] %d", hpi.node_ids[1]);
	return TEST_SUCCESS;
}

static int
test_no_pagesize_option(void)
{
	struct eal_hugepage_info hpi;

	/* meminfo says 1G: the mount without pagesize= is a 1G mount. */
	READ_OK(FIXTURE("no_pagesize"), NULL, &hpi);
	TEST_ASSERT_EQUAL(hpi.default_page_sz, SZ_1G, "default %" PRIu64,
			hpi.default_page_sz);
	TEST_ASSERT_EQUAL(hpi.n_sizes, 2, "n_sizes %u", hpi.n_sizes);
	CHECK(check_size(&hpi.sizes[0], SZ_1G, 2, 2, "/dev/hugepages"));
	CHECK(check_size(&hpi.sizes[1], SZ_2M, 512, 512, ""));
	/* No node directory at all: one node 0 holding every free page. */
	CHECK(check_single_node0(&hpi));
	CHECK(check_per_node(&hpi.sizes[0], 2, 0));
	CHECK(check_per_node(&hpi.sizes[1], 512, 0));
	return TEST_SUCCESS;
}

static int
test_escaped_mount(void)
{
	struct eal_hugepage_info hpi;

	/* /mnt/huge\040pages\134x in /proc/mounts */
	READ_OK(FIXTURE("escaped_mount"), NULL, &hpi);
	TEST_ASSERT_EQUAL(hpi.n_sizes, 1, "n_sizes %u", hpi.n_sizes);
	CHECK(check_size(&hpi.sizes[0], SZ_2M, 64, 64, "/mnt/huge pages\\x"));
	/* node0 exists but has no hugepages files: all on node 0. */
	CHECK(check_single_node0(&hpi));
	CHECK(check_per_node(&hpi.sizes[0], 64, 0));
	return TEST_SUCCESS;
}

static int
test_first_mount_wins(void)
{
	struct eal_hugepage_info hpi;

	/* pagesize=2X is ignored, then /mnt/first comes before /mnt/second. */
	READ_OK(FIXTURE("first_mount_wins"), NULL, &hpi);
	TEST_ASSERT_EQUAL(hpi.n_sizes, 1, "n_sizes %u", hpi.n_sizes);
	CHECK(check_size(&hpi.sizes[0], SZ_2M, 128, 128, "/mnt/first"));
	return TEST_SUCCESS;
}

static int
test_resv_subtracted(void)
{
	struct eal_hugepage_info hpi;

	/* 2M: free 300, resv 100. 1G: free 50, resv 80 (never below 0). */
	READ_OK(FIXTURE("resv"), NULL, &hpi);
	TEST_ASSERT_EQUAL(hpi.n_sizes, 2, "n_sizes %u", hpi.n_sizes);
	CHECK(check_size(&hpi.sizes[0], SZ_1G, 8, 0, "/dev/hugepages-1G"));
	CHECK(check_size(&hpi.sizes[1], SZ_2M, 512, 200, "/dev/hugepages"));
	CHECK(check_per_node(&hpi.sizes[0], 0, 0));
	CHECK(check_per_node(&hpi.sizes[1], 200, 0));
	return TEST_SUCCESS;
}

static int
test_no_sizes(void)
{
	static const char msg[] =
			"no hugepages reserved: reserve some with "
			"'echo 512 > /sys/kernel/mm/hugepages/hugepages-2048kB/"
			"nr_hugepages', or run with --no-huge";
	struct eal_hugepage_info hpi;
	char err[512] = "";
	int rc;

	READ_OK(FIXTURE("no_sizes"), NULL, &hpi);
	TEST_ASSERT_EQUAL(hpi.n_sizes, 0, "n_sizes %u", hpi.n_sizes);
	TEST_ASSERT_EQUAL(hpi.default_page_sz, 0, "default %" PRIu64,
			hpi.default_page_sz);
	CHECK(check_single_node0(&hpi));
	rc = eal_hugepage_info_usable(&hpi, true, err, sizeof(err));
	TEST_ASSERT_EQUAL(rc, -ENOENT, "usable: %d", rc);
	ASSERT_STR_EQ(err, msg);
	err[0] = '\0';
	rc = eal_hugepage_info_usable(&hpi, false, err, sizeof(err));
	TEST_ASSERT_EQUAL(rc, -ENOENT, "usable without mount: %d", rc);
	ASSERT_STR_EQ(err, msg);
	return TEST_SUCCESS;
}

static int
test_none_reserved(void)
{
	struct eal_hugepage_info hpi;
	char err[512] = "";
	int rc;

	/* Both sizes mounted, none reserved; the default size is 1G. */
	READ_OK(FIXTURE("none_reserved"), NULL, &hpi);
	CHECK(check_size(&hpi.sizes[0], SZ_1G, 0, 0, "/mnt/huge-1G"));
	CHECK(check_size(&hpi.sizes[1], SZ_2M, 0, 0, "/dev/hugepages"));
	rc = eal_hugepage_info_usable(&hpi, false, err, sizeof(err));
	TEST_ASSERT_EQUAL(rc, -ENOENT, "usable: %d", rc);
	ASSERT_STR_EQ(err,
			"no hugepages reserved: reserve some with "
			"'echo 1 > /sys/kernel/mm/hugepages/hugepages-1048576kB/"
			"nr_hugepages', or run with --no-huge");
	return TEST_SUCCESS;
}

static int
test_reserved_no_mount(void)
{
	struct eal_hugepage_info hpi;
	char err[512] = "";
	int rc;

	/* 2M pages reserved, only the empty 1G size is mounted. */
	READ_OK(FIXTURE("no_mount"), NULL, &hpi);
	CHECK(check_size(&hpi.sizes[0], SZ_1G, 0, 0, "/mnt/huge-1G"));
	CHECK(check_size(&hpi.sizes[1], SZ_2M, 256, 256, ""));
	rc = eal_hugepage_info_usable(&hpi, true, err, sizeof(err));
	TEST_ASSERT_EQUAL(rc, -ENOENT, "usable: %d", rc);
	ASSERT_STR_EQ(err,
			"no hugetlbfs mounted for the reserved 2048 kB "
			"pages: mount one with 'mount -t hugetlbfs -o pagesize=2M "
			"nodev /dev/hugepages' or give --huge-dir, or run with "
			"--in-memory or --no-huge");
	err[0] = '\0';
	rc = eal_hugepage_info_usable(&hpi, false, err, sizeof(err));
	TEST_ASSERT_SUCCESS(rc, "usable without mount: %d (%s)", rc, err);
	return TEST_SUCCESS;
}

static int
test_missing_nr_hugepages(void)
{
	struct eal_hugepage_info hpi;
	char err[512] = "";
	int rc;

	rc = eal_hugepage_info_read(
			FIXTURE("missing_nr"), NULL, &hpi, err, sizeof(err));
	TEST_ASSERT_EQUAL(rc, -EIO, "read: %d (%s)", rc, err);
	ASSERT_STR_EQ(err,
			"cannot read " FIXTURE(
					"missing_nr") "/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages: "
						      "No such file or directory");
	return TEST_SUCCESS;
}

static int
test_huge_dir_missing(void)
{
	struct eal_hugepage_info hpi;
	char dir[PATH_MAX];
	char want[PATH_MAX + 64];
	char err[PATH_MAX + 64] = "";
	int rc;

	snprintf(dir, sizeof(dir), "%s/missing", tmp_dir);
	rc = eal_hugepage_info_read(
			FIXTURE("one_node"), dir, &hpi, err, sizeof(err));
	TEST_ASSERT_EQUAL(rc, -ENOENT, "read: %d (%s)", rc, err);
	snprintf(want, sizeof(want), "--huge-dir %s: no such directory", dir);
	ASSERT_STR_EQ(err, want);
	return TEST_SUCCESS;
}

static int
test_huge_dir_not_dir(void)
{
	struct eal_hugepage_info hpi;
	char want[PATH_MAX + 64];
	char err[PATH_MAX + 64] = "";
	int fd, rc;

	snprintf(tmp_path, sizeof(tmp_path), "%s/file", tmp_dir);
	fd = open(tmp_path, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	TEST_ASSERT(fd >= 0, "create %s: %s", tmp_path, strerror(errno));
	close(fd);
	rc = eal_hugepage_info_read(
			FIXTURE("one_node"), tmp_path, &hpi, err, sizeof(err));
	TEST_ASSERT_EQUAL(rc, -ENOTDIR, "read: %d (%s)", rc, err);
	snprintf(want, sizeof(want), "--huge-dir %s is not a directory",
			tmp_path);
	ASSERT_STR_EQ(err, want);
	return TEST_SUCCESS;
}

static int
test_huge_dir_not_hugetlbfs(void)
{
	struct eal_hugepage_info hpi;
	struct statfs sfs;
	char want[256];
	char err[256] = "";
	int rc;

	TEST_ASSERT_SUCCESS(statfs("/tmp", &sfs), "statfs /tmp: %s",
			strerror(errno));
	TEST_ASSERT((uint32_t)sfs.f_type != HUGETLBFS_MAGIC,
			"/tmp is hugetlbfs: this case cannot run");
	rc = eal_hugepage_info_read(
			FIXTURE("one_node"), "/tmp", &hpi, err, sizeof(err));
	TEST_ASSERT_EQUAL(rc, -EINVAL, "read: %d (%s)", rc, err);
	snprintf(want, sizeof(want),
			"--huge-dir /tmp is not a hugetlbfs "
			"mount (filesystem type 0x%" PRIx32 ")",
			(uint32_t)sfs.f_type);
	ASSERT_STR_EQ(err, want);
	return TEST_SUCCESS;
}

/* The first hugetlbfs mount of the machine, in @p dir; -1 if none. */
static int
find_hugetlbfs(char *dir, size_t len)
{
	struct mntent *m;
	FILE *f;
	int rc = -1;

	f = setmntent("/proc/mounts", "re");
	if (f == NULL)
		return -1;
	while (rc < 0 && (m = getmntent(f)) != NULL) {
		if (strcmp(m->mnt_type, "hugetlbfs") == 0 &&
				strlen(m->mnt_dir) < len) {
			strcpy(dir, m->mnt_dir);
			rc = 0;
		}
	}
	endmntent(f);
	return rc;
}

static int
check_huge_dir_sizes(const char *sub)
{
	struct eal_hugepage_info hpi;
	struct statfs sfs;
	char err[PATH_MAX + 64] = "";

	TEST_ASSERT_SUCCESS(statfs(sub, &sfs), "statfs %s: %s", sub,
			strerror(errno));
	/* Fixture sizes 1G and 2M, mounted in its /proc/mounts: unused. */
	READ_OK(FIXTURE("two_nodes"), sub, &hpi);
	if ((uint64_t)sfs.f_bsize == SZ_2M) {
		CHECK(check_size(&hpi.sizes[0], SZ_1G, 4, 3, ""));
		CHECK(check_size(&hpi.sizes[1], SZ_2M, 1024, 900, sub));
	} else {
		CHECK(check_size(&hpi.sizes[0], SZ_1G, 4, 3, sub));
		CHECK(check_size(&hpi.sizes[1], SZ_2M, 1024, 900, ""));
	}
	TEST_ASSERT_SUCCESS(
			eal_hugepage_info_usable(&hpi, true, err, sizeof(err)),
			"usable: %s", err);
	return TEST_SUCCESS;
}

static int
test_huge_dir_hugetlbfs_subdir(void)
{
	char mnt[PATH_MAX];
	char sub[PATH_MAX + 32];
	struct statfs sfs;
	int rc;

	if (find_hugetlbfs(mnt, sizeof(mnt) - 32) < 0)
		return test_skip_hugepages("no hugetlbfs in /proc/mounts");
	if (statfs(mnt, &sfs) < 0 ||
			((uint64_t)sfs.f_bsize != SZ_2M &&
					(uint64_t)sfs.f_bsize != SZ_1G))
		return test_skip_hugepages("hugetlbfs mount is not 2M or 1G");
	snprintf(sub, sizeof(sub), "%s/rtemem-hpi-%d", mnt, (int)getpid());
	if (mkdir(sub, 0700) < 0) {
		printf("mkdir %s: %s\n", sub, strerror(errno));
		return test_skip_hugepages("cannot create a directory there");
	}
	rc = check_huge_dir_sizes(sub);
	TEST_ASSERT_SUCCESS(rmdir(sub), "rmdir %s: %s", sub, strerror(errno));
	return rc;
}

/*
 * The mount chosen for a size is the first the user owns, else the first
 * one; with --huge-unlink=never another user's mount is refused. The
 * mounts are listed in a copy of the first_mount_wins fixture; "another
 * user's" directory is / for a user other than root, and a directory
 * given to uid 65534 for root.
 */
static char owner_root[PATH_MAX];
static char owner_mine[PATH_MAX];
static char owner_other[PATH_MAX];

static int
owner_setup(void)
{
	char cmd[PATH_MAX * 2 + 32];

	TEST_ASSERT_SUCCESS(tmp_setup(), "tmp");
	snprintf(owner_root, sizeof(owner_root), "%s/root", tmp_dir);
	snprintf(owner_mine, sizeof(owner_mine), "%s/mine", tmp_dir);
	snprintf(owner_other, sizeof(owner_other), "%s/other", tmp_dir);
	snprintf(cmd, sizeof(cmd), "cp -r %s %s", FIXTURE("first_mount_wins"),
			owner_root);
	TEST_ASSERT_SUCCESS(system(cmd), "%s", cmd);
	TEST_ASSERT_SUCCESS(mkdir(owner_mine, 0700), "mkdir");
	if (geteuid() != 0) {
		strcpy(owner_other, "/");
		return TEST_SUCCESS;
	}
	TEST_ASSERT_SUCCESS(mkdir(owner_other, 0755), "mkdir");
	TEST_ASSERT_SUCCESS(chown(owner_other, 65534, 65534), "chown");
	return TEST_SUCCESS;
}

static void
owner_teardown(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", owner_root);
	if (system(cmd) != 0)
		printf("cannot remove %s\n", owner_root);
	rmdir(owner_mine);
	if (strcmp(owner_other, "/") != 0)
		rmdir(owner_other);
	tmp_teardown();
}

/* Write the fixture's proc/mounts: one 2 MB hugetlbfs per directory. */
static int
owner_mounts(const char *first, const char *second)
{
	char path[PATH_MAX + 16];
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/mounts", owner_root);
	f = fopen(path, "w");
	TEST_ASSERT_NOT_NULL(f, "%s: %s", path, strerror(errno));
	fprintf(f, "nodev %s hugetlbfs rw,pagesize=2M 0 0\n", first);
	if (second != NULL)
		fprintf(f, "nodev %s hugetlbfs rw,pagesize=2M 0 0\n", second);
	TEST_ASSERT_SUCCESS(fclose(f), "fclose");
	return TEST_SUCCESS;
}

static int
test_mount_owner(void)
{
	struct eal_hugepage_info hpi;
	char err[512] = "";

	CHECK(owner_mounts(owner_other, owner_mine));
	READ_OK(owner_root, NULL, &hpi);
	ASSERT_STR_EQ(hpi.sizes[0].dir, owner_mine);
	TEST_ASSERT(hpi.sizes[0].dir_uid == (int64_t)geteuid() &&
					hpi.sizes[0].dir_mode == 0700 &&
					!hpi.sizes[0].dir_given,
			"owner %" PRId64 " mode %o", hpi.sizes[0].dir_uid,
			hpi.sizes[0].dir_mode);
	TEST_ASSERT_SUCCESS(
			eal_hugepage_info_check_owner(&hpi, err, sizeof(err)),
			"own mount refused: %s", err);

	CHECK(owner_mounts(owner_mine, owner_other));
	READ_OK(owner_root, NULL, &hpi);
	ASSERT_STR_EQ(hpi.sizes[0].dir, owner_mine);

	CHECK(owner_mounts(owner_other, NULL));
	READ_OK(owner_root, NULL, &hpi);
	ASSERT_STR_EQ(hpi.sizes[0].dir, owner_other);
	TEST_ASSERT_EQUAL(eal_hugepage_info_check_owner(&hpi, err, sizeof(err)),
			-EACCES, "another user's mount accepted");
	TEST_ASSERT(strstr(err, "belongs to uid") != NULL &&
					strstr(err, owner_other) != NULL &&
					strstr(err, "--huge-dir") != NULL,
			"message: %s", err);
	/* Named with --huge-dir, it is the user's choice. */
	hpi.sizes[0].dir_given = true;
	TEST_ASSERT_SUCCESS(
			eal_hugepage_info_check_owner(&hpi, err, sizeof(err)),
			"--huge-dir refused");
	return TEST_SUCCESS;
}

static struct unit_test_suite hugepage_info_suite = {
	.suite_name = "hugepage info",
	.setup = NULL,
	.teardown = NULL,
	.unit_test_cases = { TEST_CASE(test_one_node),
			TEST_CASE(test_two_sizes_two_nodes),
			TEST_CASE(test_no_pagesize_option),
			TEST_CASE(test_escaped_mount),
			TEST_CASE(test_first_mount_wins),
			TEST_CASE(test_resv_subtracted),
			TEST_CASE(test_no_sizes), TEST_CASE(test_none_reserved),
			TEST_CASE(test_reserved_no_mount),
			TEST_CASE(test_missing_nr_hugepages),
			TEST_CASE_ST(tmp_setup, tmp_teardown,
					test_huge_dir_missing),
			TEST_CASE_ST(tmp_setup, tmp_teardown,
					test_huge_dir_not_dir),
			TEST_CASE(test_huge_dir_not_hugetlbfs),
			TEST_CASE(test_huge_dir_hugetlbfs_subdir),
			TEST_CASE_ST(owner_setup, owner_teardown,
					test_mount_owner),
			TEST_CASES_END() }
};

static int
test_hugepage_info(void)
{
	return unit_test_suite_runner(&hugepage_info_suite);
}

REGISTER_FAST_TEST(
		hugepage_info_autotest, NOHUGE_OK, ASAN_OK, test_hugepage_info);
