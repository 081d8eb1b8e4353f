/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Hugepage discovery on Linux.
 *
 * eal_hugepage_info_read() fills a caller's struct from files under a root
 * path, so that tests can point it at a fixture tree; it keeps no state.
 * Only --huge-dir is looked at for real, because statfs(2) cannot be faked.
 * Files read, in this order:
 *   sys/kernel/mm/hugepages/hugepages-<kB>kB/{nr,free,resv}_hugepages
 *   sys/devices/system/node/node<N>/hugepages/hugepages-<kB>kB/free_hugepages
 *   proc/meminfo (Hugepagesize: the size of a mount without pagesize=)
 *   proc/mounts (hugetlbfs lines), unless --huge-dir is given
 *
 * Invariants of a filled struct: sizes[] are distinct and sorted largest
 * first; node_ids[] ascend, n_nodes >= 1; each dir is a mount point of its
 * page size (the first in /proc/mounts order) or the --huge-dir, or "".
 * The kernel counters are read one file at a time and may move meanwhile:
 * they are a snapshot for sizing and messages, not a promise.
 */

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <linux/magic.h>

#include <rte_common.h>

#include "eal_hugepage_info.h"
#include "eal_log.h"

#define SYSFS_HUGEPAGES "sys/kernel/mm/hugepages"
#define SYSFS_NODES "sys/devices/system/node"
#define LIST_MAX 64 /* numbered directory entries kept by list_dir_uints() */

static void __rte_format_printf(3, 4)
		set_err(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL || len == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

/* The -EIO of every unreadable or malformed kernel file, naming it. */
static int
read_failed(char *err, size_t len, const char *path, int rc)
{
	set_err(err, len, "cannot read %s: %s", path,
			rc == -EINVAL ? "unexpected content" : strerror(-rc));
	return -EIO;
}

/* Build "<root>/<fmt...>" in @p buf; -ENAMETOOLONG if it does not fit. */
static int __rte_format_printf(4, 5) root_path(
		char *buf, size_t len, const char *root, const char *fmt, ...)
{
	size_t n = strlen(root);
	va_list ap;
	int r, s;

	while (n > 0 && root[n - 1] == '/')
		n--;
	r = snprintf(buf, len, "%.*s/", (int)n, root);
	if (r < 0 || (size_t)r >= len)
		return -ENAMETOOLONG;
	va_start(ap, fmt);
	s = vsnprintf(buf + r, len - r, fmt, ap);
	va_end(ap);
	if (s < 0 || (size_t)s >= len - r)
		return -ENAMETOOLONG;
	return 0;
}

/* Parse a whole sysfs value: decimal digits, then only white space. */
static int
parse_uint32(const char *s, uint32_t *val)
{
	unsigned long long v;
	char *end;

	if (!isdigit((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || v > UINT32_MAX)
		return -EINVAL;
	while (isspace((unsigned char)*end))
		end++;
	if (*end != '\0')
		return -EINVAL;
	*val = (uint32_t)v;
	return 0;
}

/* Read a file holding one unsigned number; 0 or -errno (-EINVAL: content). */
static int
read_uint(const char *path, uint32_t *val)
{
	char buf[32];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0)
		n = -errno;
	close(fd);
	if (n < 0)
		return (int)n;
	buf[n] = '\0';
	return parse_uint32(buf, val);
}

/*
 * Match "<prefix><number><suffix>" exactly. Leading zeros are refused, so
 * that two names cannot give the same number.
 */
static bool
name_uint(const char *name, const char *prefix, const char *suffix,
		uint64_t *val)
{
	size_t pl = strlen(prefix);
	const char *num = name + pl;
	char *end;

	if (strncmp(name, prefix, pl) != 0 || !isdigit((unsigned char)num[0]))
		return false;
	if (num[0] == '0' && isdigit((unsigned char)num[1]))
		return false;
	errno = 0;
	*val = strtoull(num, &end, 10);
	return errno == 0 && strcmp(end, suffix) == 0;
}

/* Insert @p v in ascending @p vals (n entries, at most max: drop largest). */
static unsigned int
insert_sorted(uint64_t *vals, unsigned int n, unsigned int max, uint64_t v)
{
	unsigned int i;

	if (n == max) {
		if (v >= vals[max - 1])
			return n;
		n--;
	}
	for (i = n; i > 0 && vals[i - 1] > v; i--)
		vals[i] = vals[i - 1];
	vals[i] = v;
	return n + 1;
}

/*
 * List the entries of directory @p path named <prefix><number><suffix>:
 * their numbers go to @p vals in ascending order (the LIST_MAX smallest).
 * Returns how many, or -errno of opendir(3).
 */
static int
list_dir_uints(const char *path, const char *prefix, const char *suffix,
		uint64_t vals[LIST_MAX])
{
	unsigned int n = 0;
	struct dirent *de;
	uint64_t v;
	DIR *d;

	d = opendir(path);
	if (d == NULL)
		return -errno;
	while ((de = readdir(d)) != NULL)
		if (name_uint(de->d_name, prefix, suffix, &v))
			n = insert_sorted(vals, n, LIST_MAX, v);
	closedir(d);
	return (int)n;
}

/* Parse a size like 2097152, 2048k, 2M or 1G (binary units) into bytes. */
static int
parse_size(const char *s, uint64_t *bytes)
{
	unsigned int shift = 0;
	unsigned long long v;
	char *end;

	if (!isdigit((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0)
		return -EINVAL;
	switch (*end) {
	case 'k':
	case 'K':
		shift = 10;
		break;
	case 'm':
	case 'M':
		shift = 20;
		break;
	case 'g':
	case 'G':
		shift = 30;
		break;
	}
	if (shift != 0)
		end++;
	if (*end != '\0' || v == 0 || v > (UINT64_MAX >> shift))
		return -EINVAL;
	*bytes = (uint64_t)v << shift;
	return 0;
}

static bool
is_odigit(char c)
{
	return c >= '0' && c <= '7';
}

/* Undo, in place, the \ooo escapes of /proc/mounts (space is \040). */
static void
unescape_octal(char *s)
{
	char *out = s;

	while (*s != '\0') {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
				is_odigit(s[2]) && is_odigit(s[3])) {
			*out++ = (char)(((s[1] - '0') << 6) |
					((s[2] - '0') << 3) | (s[3] - '0'));
			s += 4;
		} else {
			*out++ = *s++;
		}
	}
	*out = '\0';
}

/*
 * Split one /proc/mounts line in place ("dev dir type options 0 0").
 * True for hugetlbfs, with the unescaped mount point and the options.
 */
static bool
mount_line_parse(char *line, char **dir, char **opts)
{
	char *save = NULL;
	char *field[4];
	unsigned int i;

	for (i = 0; i < RTE_DIM(field); i++) {
		field[i] = strtok_r(i == 0 ? line : NULL, " \t\n", &save);
		if (field[i] == NULL)
			return false;
	}
	if (strcmp(field[2], "hugetlbfs") != 0)
		return false;
	unescape_octal(field[1]);
	*dir = field[1];
	*opts = field[3];
	return true;
}

/* The page size of a mount: its pagesize= option, else @p dflt if known. */
static int
mount_page_size(char *opts, uint64_t dflt, uint64_t *sz)
{
	static const char key[] = "pagesize=";
	char *save = NULL;
	char *o;

	for (o = strtok_r(opts, ",", &save); o != NULL;
			o = strtok_r(NULL, ",", &save))
		if (strncmp(o, key, sizeof(key) - 1) == 0)
			return parse_size(o + sizeof(key) - 1, sz);
	*sz = dflt;
	return dflt != 0 ? 0 : -ENOENT;
}

static struct eal_hugepage_size *
size_find(struct eal_hugepage_info *hpi, uint64_t page_sz)
{
	unsigned int i;

	for (i = 0; i < hpi->n_sizes; i++)
		if (hpi->sizes[i].page_sz == page_sz)
			return &hpi->sizes[i];
	return NULL;
}

/* Read hugepages-<kb>kB/<name> of the global counters, -EIO naming it. */
static int
read_size_file(const char *root, uint64_t kb, const char *name, uint32_t *val,
		char *err, size_t len)
{
	char path[PATH_MAX];
	int rc;

	rc = root_path(path, sizeof(path), root,
			SYSFS_HUGEPAGES "/hugepages-%" PRIu64 "kB/%s", kb,
			name);
	if (rc == 0)
		rc = read_uint(path, val);
	return rc < 0 ? read_failed(err, len, path, rc) : 0;
}

static int
read_size_counts(const char *root, uint64_t kb, struct eal_hugepage_size *hs,
		char *err, size_t len)
{
	uint32_t nr, nfree, nresv;
	int rc;

	rc = read_size_file(root, kb, "nr_hugepages", &nr, err, len);
	if (rc == 0)
		rc = read_size_file(
				root, kb, "free_hugepages", &nfree, err, len);
	if (rc == 0)
		rc = read_size_file(
				root, kb, "resv_hugepages", &nresv, err, len);
	if (rc < 0)
		return rc;
	hs->page_sz = kb * 1024;
	hs->total = nr;
	/* Reserved pages are promised to existing mappings: not ours. */
	hs->free = nfree > nresv ? nfree - nresv : 0;
	return 0;
}

/* The page sizes, largest first. No hugepages directory: no sizes. */
static int
read_sizes(const char *root, struct eal_hugepage_info *hpi, char *err,
		size_t len)
{
	char path[PATH_MAX];
	uint64_t kb[LIST_MAX];
	int n, i, rc;

	rc = root_path(path, sizeof(path), root, SYSFS_HUGEPAGES);
	n = rc < 0 ? rc : list_dir_uints(path, "hugepages-", "kB", kb);
	if (n == -ENOENT)
		return 0;
	if (n < 0)
		return read_failed(err, len, path, n);
	if (n > EAL_MAX_PAGE_SIZES)
		EAL_LOG(WARNING, "%d hugepage sizes, only the %d largest used",
				n, EAL_MAX_PAGE_SIZES);
	for (i = n - 1; i >= 0 && hpi->n_sizes < EAL_MAX_PAGE_SIZES; i--) {
		rc = read_size_counts(root, kb[i], &hpi->sizes[hpi->n_sizes],
				err, len);
		if (rc < 0)
			return rc;
		hpi->n_sizes++;
	}
	return 0;
}

/* The NUMA node ids, ascending; node 0 alone if sysfs shows none. */
static int
read_nodes(const char *root, struct eal_hugepage_info *hpi, char *err,
		size_t len)
{
	char path[PATH_MAX];
	uint64_t ids[LIST_MAX];
	int n, i, rc;

	rc = root_path(path, sizeof(path), root, SYSFS_NODES);
	n = rc < 0 ? rc : list_dir_uints(path, "node", "", ids);
	if (n < 0 && n != -ENOENT)
		return read_failed(err, len, path, n);
	hpi->n_nodes = 0;
	for (i = 0; i < n; i++) {
		if (ids[i] >= RTE_MAX_NUMA_NODES) {
			EAL_LOG(WARNING,
					"NUMA nodes %" PRIu64 " and up "
					"ignored: RTE_MAX_NUMA_NODES is %d",
					ids[i], RTE_MAX_NUMA_NODES);
			break;
		}
		hpi->node_ids[hpi->n_nodes++] = (int)ids[i];
	}
	if (hpi->n_nodes == 0) {
		hpi->node_ids[0] = 0;
		hpi->n_nodes = 1;
	}
	return 0;
}

/*
 * Per-node free counts of one size. A kernel without per-node files (no
 * NUMA) gets all of the size's free pages on the first node.
 */
static int
read_node_free(const char *root, struct eal_hugepage_info *hpi,
		struct eal_hugepage_size *hs, char *err, size_t len)
{
	char path[PATH_MAX];
	bool found = false;
	unsigned int i;
	uint32_t v;
	int id, rc;

	for (i = 0; i < hpi->n_nodes; i++) {
		id = hpi->node_ids[i];
		rc = root_path(path, sizeof(path), root,
				SYSFS_NODES
				"/node%d/hugepages/hugepages-%" PRIu64
				"kB/free_hugepages",
				id, hs->page_sz / 1024);
		if (rc == 0)
			rc = read_uint(path, &v);
		if (rc == -ENOENT)
			continue;
		if (rc < 0)
			return read_failed(err, len, path, rc);
		hs->free_per_node[id] = v;
		found = true;
	}
	if (!found)
		hs->free_per_node[hpi->node_ids[0]] = hs->free;
	return 0;
}

/* Parse the value of a meminfo line: "   2048 kB". */
static int
parse_meminfo_kb(const char *s, uint64_t *bytes)
{
	unsigned long long kb;
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	kb = strtoull(s, &end, 10);
	if (errno != 0 || kb > UINT64_MAX / 1024 || strncmp(end, " kB", 3) != 0)
		return -EINVAL;
	*bytes = (uint64_t)kb * 1024;
	return 0;
}

/* Hugepagesize of proc/meminfo in bytes; 0 if the line is absent. */
static int
read_default_size(const char *root, uint64_t *sz, char *err, size_t len)
{
	static const char key[] = "Hugepagesize:";
	char path[PATH_MAX];
	char *line = NULL;
	size_t cap = 0;
	FILE *f = NULL;
	int rc;

	*sz = 0;
	rc = root_path(path, sizeof(path), root, "proc/meminfo");
	if (rc == 0)
		f = fopen(path, "re");
	if (f == NULL)
		return read_failed(err, len, path, rc < 0 ? rc : -errno);
	while (getline(&line, &cap, f) > 0) {
		if (strncmp(line, key, sizeof(key) - 1) == 0) {
			rc = parse_meminfo_kb(line + sizeof(key) - 1, sz);
			break;
		}
	}
	free(line);
	fclose(f);
	return rc < 0 ? read_failed(err, len, path, rc) : 0;
}

/* Note the owner and mode of @p hs->dir; -1 if it cannot be read. */
static void
dir_owner_read(struct eal_hugepage_size *hs)
{
	struct stat st;

	hs->dir_uid = -1;
	hs->dir_mode = 0;
	if (stat(hs->dir, &st) == 0) {
		hs->dir_uid = st.st_uid;
		hs->dir_mode = st.st_mode & 07777;
	}
}

/*
 * Give a /proc/mounts line's mount to its page size: the first mount the
 * effective user owns, else the first one. Another user's mount comes
 * last because what rtemem leaves there (kept files) would be at that
 * user's mercy.
 */
static void
mount_add(struct eal_hugepage_info *hpi, char *line)
{
	struct eal_hugepage_size *hs;
	char *dir, *opts;
	struct stat st;
	uint64_t sz;

	if (!mount_line_parse(line, &dir, &opts))
		return;
	if (mount_page_size(opts, hpi->default_page_sz, &sz) < 0) {
		EAL_LOG(WARNING, "hugetlbfs at %s ignored: unknown page size",
				dir);
		return;
	}
	hs = size_find(hpi, sz);
	if (hs == NULL)
		return;
	if (hs->dir[0] != '\0' && hs->dir_uid == (int64_t)geteuid())
		return;
	if (strlen(dir) >= sizeof(hs->dir)) {
		EAL_LOG(WARNING, "hugetlbfs at %.64s... ignored: path too long",
				dir);
		return;
	}
	if (hs->dir[0] != '\0' &&
			(stat(dir, &st) != 0 || st.st_uid != geteuid()))
		return;
	strcpy(hs->dir, dir);
	dir_owner_read(hs);
}

static int
read_mounts(const char *root, struct eal_hugepage_info *hpi, char *err,
		size_t len)
{
	char path[PATH_MAX];
	char *line = NULL;
	size_t cap = 0;
	FILE *f = NULL;
	int rc;

	rc = root_path(path, sizeof(path), root, "proc/mounts");
	if (rc == 0)
		f = fopen(path, "re");
	if (f == NULL)
		return read_failed(err, len, path, rc < 0 ? rc : -errno);
	while (getline(&line, &cap, f) > 0)
		mount_add(hpi, line);
	free(line);
	fclose(f);
	return 0;
}

/* --huge-dir must be a directory on hugetlbfs; its block size is the page. */
static int
huge_dir_check(const char *dir, uint64_t *page_sz, char *err, size_t len)
{
	struct statfs sfs;
	struct stat st;
	int rc;

	if (strlen(dir) >= PATH_MAX) {
		set_err(err, len, "--huge-dir %.64s...: path too long", dir);
		return -ENAMETOOLONG;
	}
	if (stat(dir, &st) < 0 || statfs(dir, &sfs) < 0) {
		rc = -errno;
		if (rc == -ENOENT)
			set_err(err, len, "--huge-dir %s: no such directory",
					dir);
		else
			set_err(err, len, "--huge-dir %s: %s", dir,
					strerror(-rc));
		return rc;
	}
	if (!S_ISDIR(st.st_mode)) {
		set_err(err, len, "--huge-dir %s is not a directory", dir);
		return -ENOTDIR;
	}
	if ((uint32_t)sfs.f_type != HUGETLBFS_MAGIC) {
		set_err(err, len,
				"--huge-dir %s is not a hugetlbfs mount "
				"(filesystem type 0x%" PRIx32 ")",
				dir, (uint32_t)sfs.f_type);
		return -EINVAL;
	}
	*page_sz = (uint64_t)sfs.f_bsize;
	return 0;
}

static void
huge_dir_assign(struct eal_hugepage_info *hpi, const char *dir,
		uint64_t page_sz)
{
	struct eal_hugepage_size *hs = size_find(hpi, page_sz);

	if (hs == NULL) {
		EAL_LOG(WARNING,
				"--huge-dir %s has %" PRIu64 " kB pages, "
				"a size the kernel does not list",
				dir, page_sz / 1024);
		return;
	}
	strcpy(hs->dir, dir);
	dir_owner_read(hs);
	hs->dir_given = true;
}

static void
log_sizes(const struct eal_hugepage_info *hpi)
{
	const struct eal_hugepage_size *hs;
	unsigned int i;

	for (i = 0; i < hpi->n_sizes; i++) {
		hs = &hpi->sizes[i];
		EAL_LOG(DEBUG,
				"hugepages of %" PRIu64 " kB: %" PRIu32
				" reserved, %" PRIu32 " free, dir '%s'",
				hs->page_sz / 1024, hs->total, hs->free,
				hs->dir);
	}
}

int
eal_hugepage_info_read(const char *root, const char *huge_dir,
		struct eal_hugepage_info *hpi, char *err, size_t err_len)
{
	bool use_dir = huge_dir != NULL && huge_dir[0] != '\0';
	uint64_t dir_page_sz = 0;
	unsigned int i;
	int rc;

	memset(hpi, 0, sizeof(*hpi));
	if (root == NULL)
		root = "/";
	if (use_dir) {
		rc = huge_dir_check(huge_dir, &dir_page_sz, err, err_len);
		if (rc < 0)
			return rc;
	}
	rc = read_sizes(root, hpi, err, err_len);
	if (rc == 0)
		rc = read_nodes(root, hpi, err, err_len);
	for (i = 0; rc == 0 && i < hpi->n_sizes; i++)
		rc = read_node_free(root, hpi, &hpi->sizes[i], err, err_len);
	if (rc == 0)
		rc = read_default_size(
				root, &hpi->default_page_sz, err, err_len);
	if (rc == 0 && use_dir)
		huge_dir_assign(hpi, huge_dir, dir_page_sz);
	else if (rc == 0)
		rc = read_mounts(root, hpi, err, err_len);
	if (rc == 0)
		log_sizes(hpi);
	return rc;
}

/* The pagesize= spelling of a size: 1G, 2M or 64K. */
static void
size_option(uint64_t sz, char *buf, size_t len)
{
	if (sz % (UINT64_C(1) << 30) == 0)
		snprintf(buf, len, "%" PRIu64 "G", sz >> 30);
	else if (sz % (UINT64_C(1) << 20) == 0)
		snprintf(buf, len, "%" PRIu64 "M", sz >> 20);
	else
		snprintf(buf, len, "%" PRIu64 "K", sz >> 10);
}

/* Tell how to reserve pages: 1 GiB worth of the default (or smallest) size. */
static void
err_reserve(const struct eal_hugepage_info *hpi, char *err, size_t len)
{
	uint64_t sz = hpi->default_page_sz;
	uint64_t count;

	if (sz == 0)
		sz = hpi->n_sizes > 0 ? hpi->sizes[hpi->n_sizes - 1].page_sz :
					UINT64_C(2) << 20;
	count = RTE_MAX((UINT64_C(1) << 30) / sz, UINT64_C(1));
	set_err(err, len,
			"no hugepages reserved: reserve some with 'echo %" PRIu64
			" > /sys/kernel/mm/hugepages/hugepages-%" PRIu64
			"kB/nr_hugepages', or run with --no-huge",
			count, sz / 1024);
}

static void
err_mount(const struct eal_hugepage_size *hs, char *err, size_t len)
{
	char opt[32];

	size_option(hs->page_sz, opt, sizeof(opt));
	set_err(err, len,
			"no hugetlbfs mounted for the reserved %" PRIu64
			" kB pages: mount one with 'mount -t hugetlbfs -o pagesize=%s "
			"nodev /dev/hugepages' or give --huge-dir, "
			"or run with --in-memory or --no-huge",
			hs->page_sz / 1024, opt);
}

int
eal_hugepage_info_usable(const struct eal_hugepage_info *hpi, bool need_mount,
		char *err, size_t err_len)
{
	const struct eal_hugepage_size *reserved = NULL;
	const struct eal_hugepage_size *hs;
	unsigned int i;

	for (i = 0; i < hpi->n_sizes; i++) {
		hs = &hpi->sizes[i];
		if (hs->total == 0)
			continue;
		if (!need_mount || hs->dir[0] != '\0')
			return 0;
		if (reserved == NULL)
			reserved = hs;
	}
	if (reserved == NULL)
		err_reserve(hpi, err, err_len);
	else
		err_mount(reserved, err, err_len);
	return -ENOENT;
}

void
eal_hugepage_info_log_dirs(const struct eal_hugepage_info *hpi)
{
	const struct eal_hugepage_size *hs;
	unsigned int i;

	for (i = 0; i < hpi->n_sizes; i++) {
		hs = &hpi->sizes[i];
		if (hs->total == 0 || hs->dir[0] == '\0')
			continue;
		EAL_LOG(INFO,
				"%" PRIu64
				" kB hugepage files in %s (%s, owner "
				"uid %" PRId64 ", mode %04" PRIo32 ")",
				hs->page_sz / 1024, hs->dir,
				hs->dir_given ? "--huge-dir" : "mount found",
				hs->dir_uid, hs->dir_mode);
	}
}

int
eal_hugepage_info_check_owner(
		const struct eal_hugepage_info *hpi, char *err, size_t err_len)
{
	const struct eal_hugepage_size *hs;
	unsigned int i;

	for (i = 0; i < hpi->n_sizes; i++) {
		hs = &hpi->sizes[i];
		if (hs->total == 0 || hs->dir[0] == '\0' || hs->dir_given ||
				hs->dir_uid == (int64_t)geteuid())
			continue;
		set_err(err, err_len,
				"--huge-unlink=never: the hugetlbfs at %s belongs to "
				"uid %" PRId64
				", not to you (uid %u), and the files "
				"kept there would be at its owner's mercy: mount "
				"one of your own, or name this one with --huge-dir",
				hs->dir, hs->dir_uid, (unsigned int)geteuid());
		return -EACCES;
	}
	return 0;
}

void
eal_hugepage_shortage_describe(const struct eal_hugepage_size *hs, bool files,
		uint32_t needed, char *buf, size_t len)
{
	uint64_t kb = hs->page_sz / 1024;
	uint32_t total = 0, free_pages = 0, resv = 0;
	struct statfs sfs;

	if (files && statfs(hs->dir, &sfs) == 0 && sfs.f_blocks > 0 &&
			sfs.f_bavail < needed) {
		set_err(buf, len,
				"the hugetlbfs at %s is mounted with size= for "
				"%" PRIu64 " pages and has %" PRIu64
				" free, %" PRIu32
				" more needed: remount it with a larger size=",
				hs->dir, (uint64_t)sfs.f_blocks,
				(uint64_t)sfs.f_bavail, needed);
		return;
	}
	if (read_size_file("/", kb, "nr_hugepages", &total, NULL, 0) < 0 ||
			read_size_file("/", kb, "free_hugepages", &free_pages,
					NULL, 0) < 0 ||
			read_size_file("/", kb, "resv_hugepages", &resv, NULL,
					0) < 0) {
		set_err(buf, len,
				"the %" PRIu64 " kB hugepage counts are "
				"unreadable",
				kb);
		return;
	}
	free_pages -= RTE_MIN(resv, free_pages);
	if (free_pages < needed) {
		set_err(buf, len,
				"the %" PRIu64 " kB hugepage pool has %" PRIu32
				" free of %" PRIu32 ", %" PRIu32 " more needed "
				"(other processes may hold the rest): raise it "
				"with 'echo %" PRIu32
				" > /sys/kernel/mm/hugepages/"
				"hugepages-%" PRIu64 "kB/nr_hugepages'",
				kb, free_pages, total, needed,
				total + (needed - free_pages), kb);
		return;
	}
	set_err(buf, len,
			"the %" PRIu64 " kB hugepage pool has %" PRIu32
			" free and %" PRIu32 " more are needed, so a limit of "
			"this process's hugetlb cgroup is the likely cause "
			"(hugetlb.%" PRIu64 "%s.max)",
			kb, free_pages, needed,
			kb >= 1024 * 1024 ? kb >> 20 : kb >> 10,
			kb >= 1024 * 1024 ? "GB" : "MB");
}
