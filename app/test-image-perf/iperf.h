/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _IPERF_H_
#define _IPERF_H_

/*
 * rtemem-image-perf: how fast memory comes back from an image on disk,
 * measured every way side by side (see main.c).
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define IPERF_MAX_ROWS 64
#define IPERF_MAX_STARTS 21 /* --starts */

/* One measured way of bringing an image back. */
struct iperf_row {
	char group[16]; /* "limit", "seed" or "rtemem" */
	char name[48];
	uint64_t bytes; /* image size */
	bool cold; /* page cache dropped first */
	double first_ms; /* until the first byte can be used */
	double all_ms; /* until every byte is in memory */
	bool ok; /* measured, and the contents checked */
	char note[96];
};

struct iperf_ctx {
	uint64_t bytes; /* of the image */
	unsigned int threads; /* for the N-thread cases */
	unsigned int starts; /* of each strategy row: its median is shown */
	bool cold; /* also measure with the page cache dropped */
	char image_dir[512]; /* where the images go */
	char huge_dir[512]; /* hugetlbfs for rtemem's restores */
	char raw_path[600]; /* the seed's image: random bytes */
	char img_path[600]; /* the same bytes as a memzone image */
	uint64_t raw_sum; /* FNV-1a of the raw image, sampled */
	const char *self; /* this program, for the children */
	struct iperf_row rows[IPERF_MAX_ROWS];
	unsigned int n_rows;
};

/* Monotonic time in ms. */
double iperf_now_ms(void);

/* Add a row (NULL when the table is full). */
struct iperf_row *iperf_row_add(struct iperf_ctx *c, const char *group,
		const char *name, bool cold);

/* Write @p value to the kernel setting @p path (root only). @return 0 or -1. */
int iperf_sysctl_write(const char *path, const char *value);

/* Drop the page cache (root only). @return 0 or -1. */
int iperf_drop_caches(void);

/* The sum the cases check contents with: every 4 KB page's first word. */
uint64_t iperf_page_sum(const void *p, uint64_t len);

/* The physical limits: memcpy, the kernel's clearing, a disk read. */
void iperf_limits(struct iperf_ctx *c);

/* The seed's six cases, on the raw image. */
void iperf_seed(struct iperf_ctx *c, bool cold);

/* rtemem's strategies, each in a child process. */
void iperf_strategies(struct iperf_ctx *c, bool cold);

/* Make the memzone image (a child process). @return 0 or -1. */
int iperf_make_image(struct iperf_ctx *c);

/* The child side of the two above; @return its exit status. */
int iperf_child(int argc, char **argv);

#endif /* _IPERF_H_ */
