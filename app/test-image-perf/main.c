/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * rtemem-image-perf: an image of random bytes brought back into memory
 * every way, side by side in one run, next to what the machine allows:
 *
 *   1. the limits (limits.c): memcpy, the kernel's clearing of new
 *      hugepages, the disk's read rate;
 *   2. the seed's six cases (seed.c): mmap, mmap populated, userfaultfd
 *      copy and remap on 4 KB and 2 MB pages;
 *   3. rtemem's strategies (strategies.c): --memzone-image in a child;
 *   4. with --cold, 2 and 3 again with the page cache dropped first.
 *
 * Each row gives the time until the first byte can be used, until every
 * byte is in memory, and the rate; a row whose contents did not check out
 * says so. The table is printed; --json and --csv write it too. Exit
 * status: 0, 1 for a failure to set up or write, 2 for bad usage, 3 when
 * a row could not be measured or came back wrong.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "iperf.h"

#define DEFAULT_MB 512
#define EXIT_USAGE 2

double
iperf_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

struct iperf_row *
iperf_row_add(struct iperf_ctx *c, const char *group, const char *name,
		bool cold)
{
	struct iperf_row *r;

	if (c->n_rows == IPERF_MAX_ROWS)
		return NULL;
	r = &c->rows[c->n_rows++];
	memset(r, 0, sizeof(*r));
	snprintf(r->group, sizeof(r->group), "%s", group);
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->bytes = c->bytes;
	r->cold = cold;
	return r;
}

int
iperf_sysctl_write(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	size_t len = strlen(value);
	int ret;

	if (fd < 0)
		return -1;
	ret = write(fd, value, len) == (ssize_t)len ? 0 : -1;
	close(fd);
	return ret;
}

int
iperf_drop_caches(void)
{
	sync();
	return iperf_sysctl_write("/proc/sys/vm/drop_caches", "3");
}

uint64_t
iperf_page_sum(const void *p, uint64_t len)
{
	const char *b = p;
	uint64_t sum = 0, off, w;

	for (off = 0; off < len; off += 4096) {
		memcpy(&w, b + off, sizeof(w));
		sum = (sum ^ w) * 0x100000001b3ULL;
	}
	return sum;
}

/* The raw image: random bytes, written and synced. */
static int
make_raw(struct iperf_ctx *c)
{
	uint64_t s = 0x9e3779b97f4a7c15ULL, i, *buf;
	struct iperf_row *r;
	int fd, ret = 0;
	ssize_t n = 0;
	double t0;

	buf = malloc(c->bytes);
	if (buf == NULL)
		return -1;
	for (i = 0; i < c->bytes / 8; i++) {
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		buf[i] = s;
	}
	c->raw_sum = iperf_page_sum(buf, c->bytes);
	r = iperf_row_add(c, "limit", "disk write, fsync", false);
	t0 = iperf_now_ms();
	fd = open(c->raw_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	/* In pieces: one write() stops short of 2 GB. */
	for (i = 0; fd >= 0 && i < c->bytes; i += (uint64_t)n) {
		n = write(fd, (char *)buf + i,
				(size_t)(c->bytes - i < (1ULL << 30) ?
								c->bytes - i :
								(1ULL << 30)));
		if (n <= 0)
			break;
	}
	if (fd < 0 || i < c->bytes || fsync(fd) < 0)
		ret = -1;
	if (fd >= 0)
		close(fd);
	if (r != NULL && ret == 0) {
		r->all_ms = iperf_now_ms() - t0;
		r->first_ms = r->all_ms;
		r->ok = true;
		snprintf(r->note, sizeof(r->note), "the raw image, one write");
	}
	free(buf);
	return ret;
}

static void
print_table(const struct iperf_ctx *c)
{
	unsigned int i;

	printf("\n%-7s %-30s %-5s %12s %12s %9s  %s\n", "group", "case",
			"cache", "first ms", "all ms", "GB/s", "note");
	for (i = 0; i < c->n_rows; i++) {
		const struct iperf_row *r = &c->rows[i];

		printf("%-7s %-30s %-5s %12.3f %12.3f %9.2f  %s%s\n", r->group,
				r->name, r->cold ? "cold" : "warm", r->first_ms,
				r->all_ms,
				r->all_ms > 0 ? r->bytes / r->all_ms / 1e6 :
						0.0,
				r->ok ? "" : "NOT MEASURED OR WRONG: ",
				r->note);
	}
}

static int
write_json(const struct iperf_ctx *c, const char *path)
{
	FILE *f = fopen(path, "w");
	unsigned int i;

	if (f == NULL)
		return -1;
	fprintf(f,
			"{\"bytes\": %" PRIu64
			", \"threads\": %u, \"starts\": %u, \"rows\": [",
			c->bytes, c->threads, c->starts);
	for (i = 0; i < c->n_rows; i++) {
		const struct iperf_row *r = &c->rows[i];

		fprintf(f,
				"%s\n {\"group\": \"%s\", \"case\": \"%s\", "
				"\"cold\": %s, \"first_ms\": %.3f, \"all_ms\": "
				"%.3f, \"ok\": %s, \"note\": \"%s\"}",
				i ? "," : "", r->group, r->name,
				r->cold ? "true" : "false", r->first_ms,
				r->all_ms, r->ok ? "true" : "false", r->note);
	}
	fprintf(f, "\n]}\n");
	return fclose(f);
}

static int
write_csv(const struct iperf_ctx *c, const char *path)
{
	FILE *f = fopen(path, "w");
	unsigned int i;

	if (f == NULL)
		return -1;
	fprintf(f, "group,case,cache,bytes,first_ms,all_ms,ok,note\n");
	for (i = 0; i < c->n_rows; i++) {
		const struct iperf_row *r = &c->rows[i];

		fprintf(f, "%s,%s,%s,%" PRIu64 ",%.3f,%.3f,%d,\"%s\"\n",
				r->group, r->name, r->cold ? "cold" : "warm",
				r->bytes, r->first_ms, r->all_ms, r->ok,
				r->note);
	}
	return fclose(f);
}

/* Rows not measured, or whose contents did not check out. */
static unsigned int
count_bad(const struct iperf_ctx *c)
{
	unsigned int i, n = 0;

	for (i = 0; i < c->n_rows; i++)
		n += !c->rows[i].ok;
	return n;
}

static void
usage(FILE *f)
{
	fprintf(f,
			"usage: rtemem-image-perf --huge-dir DIR [--image-dir DIR] [--size MB]\n"
			"                         [--threads N] [--starts N] [--cold]\n"
			"                         [--json FILE] [--csv FILE]\n"
			"\n"
			"--huge-dir DIR   an empty directory on hugetlbfs (2 MB pages) for\n"
			"                 rtemem's restores; emptied at the end\n"
			"--image-dir DIR  where the images are written (default /var/tmp;\n"
			"                 a disk, for the cold cases); removed at the end\n"
			"--size MB        of the image (default 512)\n"
			"--threads N      of the N-thread cases (default: the CPUs)\n"
			"--starts N       start each of rtemem's strategies N times and\n"
			"                 show the medians (default 1)\n"
			"--cold           also measure with the page cache dropped (root)\n");
}

enum {
	OPT_HUGE = 256,
	OPT_IMAGES,
	OPT_SIZE,
	OPT_THREADS,
	OPT_STARTS,
	OPT_COLD,
	OPT_JSON,
	OPT_CSV
};

static const struct option options[] = {
	{ "huge-dir", required_argument, NULL, OPT_HUGE },
	{ "image-dir", required_argument, NULL, OPT_IMAGES },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "starts", required_argument, NULL, OPT_STARTS },
	{ "cold", no_argument, NULL, OPT_COLD },
	{ "json", required_argument, NULL, OPT_JSON },
	{ "csv", required_argument, NULL, OPT_CSV },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int
parse(int argc, char **argv, struct iperf_ctx *c, const char **json,
		const char **csv)
{
	unsigned long v;
	char *end;
	int opt;

	while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (opt) {
		case OPT_HUGE:
		case OPT_IMAGES:
			snprintf(opt == OPT_HUGE ? c->huge_dir : c->image_dir,
					sizeof(c->huge_dir), "%s", optarg);
			break;
		case OPT_SIZE:
		case OPT_THREADS:
		case OPT_STARTS:
			v = strtoul(optarg, &end, 10);
			if (*end != '\0' || v == 0 ||
					v > (opt == OPT_SIZE ? 1UL << 20 :
									    opt == OPT_STARTS ?
							       IPERF_MAX_STARTS :
							       64)) {
				fprintf(stderr, "bad value '%s'\n", optarg);
				return -1;
			}
			if (opt == OPT_SIZE)
				c->bytes = (uint64_t)v << 20;
			else if (opt == OPT_STARTS)
				c->starts = (unsigned int)v;
			else
				c->threads = (unsigned int)v;
			break;
		case OPT_COLD:
			c->cold = true;
			break;
		case OPT_JSON:
			*json = optarg;
			break;
		case OPT_CSV:
			*csv = optarg;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			return -1;
		}
	}
	if (c->huge_dir[0] == '\0' || optind != argc) {
		usage(stderr);
		return -1;
	}
	return 0;
}

/* Remove the files the restores left in the hugetlbfs directory. */
static void
clear_huge_dir(const char *dir)
{
	char path[1024];
	struct dirent *de;
	DIR *d = opendir(dir);

	while (d != NULL && (de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, "iperf", 5) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		unlink(path);
	}
	if (d != NULL)
		closedir(d);
}

int
main(int argc, char **argv)
{
	static struct iperf_ctx c = { .bytes = (uint64_t)DEFAULT_MB << 20 };
	const char *json = NULL, *csv = NULL;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int ret = 0;

	if (argc > 1 && strcmp(argv[1], "--child") == 0)
		return iperf_child(argc - 2, argv + 2);
	c.self = "/proc/self/exe";
	c.threads = cpus > 0 ? (unsigned int)(cpus < 64 ? cpus : 64) : 1;
	c.starts = 1;
	snprintf(c.image_dir, sizeof(c.image_dir), "/var/tmp");
	if (parse(argc, argv, &c, &json, &csv) < 0)
		return EXIT_USAGE;
	snprintf(c.raw_path, sizeof(c.raw_path), "%s/rtemem-image-perf-%d.raw",
			c.image_dir, (int)getpid());
	snprintf(c.img_path, sizeof(c.img_path), "%s/rtemem-image-perf-%d.img",
			c.image_dir, (int)getpid());
	if (make_raw(&c) < 0 || iperf_make_image(&c) < 0) {
		fprintf(stderr, "cannot write the images in %s\n", c.image_dir);
		ret = 1;
		goto out;
	}
	printf("image: %" PRIu64 " MB of random bytes in %s; %u threads",
			c.bytes >> 20, c.image_dir, c.threads);
	if (c.starts > 1)
		printf("; rtemem's strategies: median of %u starts", c.starts);
	printf("\n");
	iperf_limits(&c);
	iperf_seed(&c, false);
	iperf_strategies(&c, false);
	if (c.cold) {
		iperf_seed(&c, true);
		iperf_strategies(&c, true);
	}
	print_table(&c);
	if ((json != NULL && write_json(&c, json) != 0) ||
			(csv != NULL && write_csv(&c, csv) != 0))
		ret = 1;
	else if (count_bad(&c) > 0)
		ret = 3;
out:
	unlink(c.raw_path);
	unlink(c.img_path);
	clear_huge_dir(c.huge_dir);
	return ret;
}
