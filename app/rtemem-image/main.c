/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * rtemem-image: memzone images from the command line.
 *
 *   save    starts the EAL on a stopped prefix's kept hugepage files
 *           (--keep-memzones --huge-unlink=never: the files stay as they
 *           are and the memzones come back as the application left them)
 *           and saves them with rte_memzone_image_save();
 *   info    what an image holds, memzone by memzone;
 *   verify  every checksum of an image.
 *
 * Exit status: 0, 1 for a failure (one line on stderr), 2 for bad usage.
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_memzone.h>
#include <rte_memzone_image.h>

#define EXIT_USAGE 2
#define EAL_ARGS_MAX 64
#define THREADS_MAX 64

static void
usage(FILE *f)
{
	fprintf(f,
			"usage: rtemem-image save --huge-dir DIR --file-prefix PREFIX -o FILE\n"
			"                         [--threads N] [--no-sync] [-- EAL-OPTION...]\n"
			"       rtemem-image info FILE\n"
			"       rtemem-image verify [--threads N] FILE\n"
			"\n"
			"save    save the memzones a stopped process kept (--keep-memzones) in\n"
			"        its hugepage files to FILE; the files are left as they are.\n"
			"        EAL-OPTION: what else the process ran with that the kept\n"
			"        table checks (e.g. --single-file-segments)\n"
			"info    print what FILE holds\n"
			"verify  read FILE and check every checksum\n"
			"\n"
			"--threads N  threads copying or reading (default: one per CPU, up to 8)\n"
			"--no-sync    do not fsync FILE before naming it\n");
}

static int
parse_threads(const char *s, unsigned int *n)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v == 0 ||
			v > THREADS_MAX) {
		fprintf(stderr, "rtemem-image: --threads wants 1 to %d, not '%s'\n",
				THREADS_MAX, s);
		return -1;
	}
	*n = (unsigned int)v;
	return 0;
}

struct save_args {
	const char *huge_dir;
	const char *prefix;
	const char *out;
	struct rte_memzone_image_save_conf conf;
	int n_eal; /* options after "--" */
	char **eal;
};

enum {
	OPT_HUGE_DIR = 256,
	OPT_PREFIX,
	OPT_THREADS,
	OPT_NO_SYNC
};

static const struct option save_options[] = {
	{ "huge-dir", required_argument, NULL, OPT_HUGE_DIR },
	{ "file-prefix", required_argument, NULL, OPT_PREFIX },
	{ "output", required_argument, NULL, 'o' },
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "no-sync", no_argument, NULL, OPT_NO_SYNC },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int
save_parse(int argc, char **argv, struct save_args *a)
{
	int opt;

	while ((opt = getopt_long(argc, argv, "+o:h", save_options, NULL)) !=
			-1) {
		switch (opt) {
		case OPT_HUGE_DIR:
			a->huge_dir = optarg;
			break;
		case OPT_PREFIX:
			a->prefix = optarg;
			break;
		case 'o':
			a->out = optarg;
			break;
		case OPT_THREADS:
			if (parse_threads(optarg, &a->conf.n_threads) < 0)
				return -1;
			break;
		case OPT_NO_SYNC:
			a->conf.flags |= RTE_MEMZONE_IMAGE_F_NO_SYNC;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			return -1;
		}
	}
	if (a->huge_dir == NULL || a->prefix == NULL || a->out == NULL) {
		fprintf(stderr,
				"rtemem-image save: --huge-dir, --file-prefix "
				"and -o are all needed\n");
		return -1;
	}
	/* getopt stops at "--" and steps over it: the rest is the EAL's. */
	a->n_eal = argc - optind;
	a->eal = argv + optind;
	if (a->n_eal > EAL_ARGS_MAX - 8) {
		fprintf(stderr, "rtemem-image save: too many EAL options\n");
		return -1;
	}
	return 0;
}

static void
count_zone(const struct rte_memzone *mz, void *arg)
{
	RTE_SET_USED(mz);
	(*(unsigned int *)arg)++;
}

static int
save_run(const struct save_args *a)
{
	char *argv[EAL_ARGS_MAX], err[512];
	struct rte_memzone_image_save_stats st;
	unsigned int n_zones = 0;
	int argc = 0, i, ret;

	argv[argc++] = (char *)(uintptr_t) "rtemem-image";
	argv[argc++] = (char *)(uintptr_t) "--file-prefix";
	argv[argc++] = (char *)(uintptr_t)a->prefix;
	argv[argc++] = (char *)(uintptr_t) "--huge-dir";
	argv[argc++] = (char *)(uintptr_t)a->huge_dir;
	argv[argc++] = (char *)(uintptr_t) "--keep-memzones";
	argv[argc++] = (char *)(uintptr_t) "--huge-unlink=never";
	for (i = 0; i < a->n_eal; i++)
		argv[argc++] = a->eal[i];
	argv[argc] = NULL;
	if (rte_eal_init(argc, argv) < 0) {
		fprintf(stderr,
				"rtemem-image save: cannot bring back the memzones "
				"of prefix %s in %s: %s\n",
				a->prefix, a->huge_dir,
				rte_strerror(rte_errno));
		return 1;
	}
	rte_memzone_walk(count_zone, &n_zones);
	if (n_zones == 0) {
		fprintf(stderr,
				"rtemem-image save: prefix %s keeps no memzone in %s "
				"(did it run with --keep-memzones?)\n",
				a->prefix, a->huge_dir);
		rte_eal_cleanup();
		return 1;
	}
	ret = rte_memzone_image_save(a->out, &a->conf, &st, err, sizeof(err));
	rte_eal_cleanup();
	if (ret < 0) {
		fprintf(stderr, "rtemem-image save: %s\n", err);
		return 1;
	}
	printf("saved %u memzones of prefix %s to %s: %.1f MB, %.1f MB "
	       "stored, in %.1f ms (%.2f GB/s of memory, %u threads)\n",
			st.n_zones, a->prefix, a->out, st.zone_bytes / 1e6,
			st.stored_bytes / 1e6, st.total_ns / 1e6,
			st.total_ns > 0 ? (double)st.zone_bytes / st.total_ns :
					  0.0,
			st.n_threads);
	if (st.n_skipped > 0)
		printf("left out %u memzones of external heaps\n",
				st.n_skipped);
	return 0;
}

static int
cmd_save(int argc, char **argv)
{
	struct save_args a = { 0 };

	if (save_parse(argc, argv, &a) < 0)
		return EXIT_USAGE;
	return save_run(&a);
}

static struct rte_memzone_image *
open_or_say(const char *cmd, const char *path)
{
	struct rte_memzone_image *img;
	char err[512];

	img = rte_memzone_image_open(path, err, sizeof(err));
	if (img == NULL)
		fprintf(stderr, "rtemem-image %s: %s\n", cmd, err);
	return img;
}

static void
info_print(const struct rte_memzone_image *img, const char *path)
{
	struct rte_memzone_image_info in;
	struct rte_memzone_image_zone z;
	char when[64] = "?";
	struct tm tm;
	time_t t;
	unsigned int i;

	rte_memzone_image_info_get(img, &in);
	t = (time_t)(in.created_ns / 1000000000ULL);
	if (gmtime_r(&t, &tm) != NULL)
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	printf("%s: memzone image version %u, saved %s\n", path, in.version,
			when);
	printf("memzones %u in %u memseg lists, %" PRIu64 " bytes; "
	       "stored %" PRIu64 " bytes in %" PRIu64 " of %" PRIu64
	       " chunks of %u bytes; file %" PRIu64 " bytes\n",
			in.n_zones, in.n_lists, in.zone_bytes, in.stored_bytes,
			in.n_stored, in.n_chunks, in.chunk_size, in.file_len);
	if (in.n_skipped > 0)
		printf("left out at save: %u memzones of external heaps\n",
				in.n_skipped);
	printf("%-32s %-18s %14s %14s %8s %6s %10s\n", "name", "address",
			"length", "stored", "page_kB", "socket", "flags");
	for (i = 0; i < in.n_zones; i++) {
		rte_memzone_image_zone_get(img, i, &z);
		printf("%-32s 0x%016" PRIx64 " %14" PRIu64 " %14" PRIu64
		       " %8" PRIu64 " %6d 0x%08" PRIx32 "\n",
				z.name, z.addr, z.len, z.stored_bytes,
				z.hugepage_sz >> 10, z.socket_id, z.flags);
	}
}

static int
cmd_info(int argc, char **argv)
{
	struct rte_memzone_image *img;

	if (argc != 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	img = open_or_say("info", argv[1]);
	if (img == NULL)
		return 1;
	info_print(img, argv[1]);
	rte_memzone_image_close(img);
	return 0;
}

static int
cmd_verify(int argc, char **argv)
{
	unsigned int n_threads = 0;
	struct rte_memzone_image_info in;
	struct rte_memzone_image *img;
	char err[512];
	int i = 1;

	if (argc == 4 && strcmp(argv[1], "--threads") == 0) {
		if (parse_threads(argv[2], &n_threads) < 0)
			return EXIT_USAGE;
		i = 3;
	}
	if (argc != i + 1 || argv[i][0] == '-') {
		usage(stderr);
		return EXIT_USAGE;
	}
	img = open_or_say("verify", argv[i]);
	if (img == NULL)
		return 1;
	if (rte_memzone_image_verify(img, n_threads, err, sizeof(err)) < 0) {
		fprintf(stderr, "rtemem-image verify: %s\n", err);
		rte_memzone_image_close(img);
		return 1;
	}
	rte_memzone_image_info_get(img, &in);
	printf("%s: %u memzones, %" PRIu64 " chunks stored, every checksum "
	       "matches\n",
			argv[i], in.n_zones, in.n_stored);
	rte_memzone_image_close(img);
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "save") == 0)
		return cmd_save(argc - 1, argv + 1);
	if (strcmp(argv[1], "info") == 0)
		return cmd_info(argc - 1, argv + 1);
	if (strcmp(argv[1], "verify") == 0)
		return cmd_verify(argc - 1, argv + 1);
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		usage(stdout);
		return 0;
	}
	fprintf(stderr, "rtemem-image: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
