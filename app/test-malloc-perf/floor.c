/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * The floor of a warm restart: what the kernel alone takes to give a new
 * process the hugepages a warm mode reuses. A child execs, opens every
 * hugepage file of the prefix, maps each whole (shared, faulted in, as
 * rtemem maps them), and exits, which unmaps them. Its time from exec
 * to exit is the floor rtemem's warm start-up is held against: the rest
 * is rtemem's own work (memseg lists, heaps, checks).
 */

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mperf.h"

int
mperf_floor_child(int argc, char **argv)
{
	const char *dir = argc > 2 ? argv[1] : NULL;
	const char *prefix = argc > 2 ? argv[2] : NULL;
	size_t plen = prefix != NULL ? strlen(prefix) : 0;
	unsigned int files = 0;
	struct dirent *d;
	DIR *dp;

	if (dir == NULL || (dp = opendir(dir)) == NULL)
		return 1;
	while ((d = readdir(dp)) != NULL) {
		struct stat st;
		void *va;
		int fd;

		if (strncmp(d->d_name, prefix, plen) != 0)
			continue;
		fd = openat(dirfd(dp), d->d_name, O_RDWR | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st) < 0 || st.st_size == 0) {
			if (fd >= 0)
				close(fd);
			continue;
		}
		va = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE,
				MAP_SHARED | MAP_POPULATE, fd, 0);
		close(fd);
		if (va == MAP_FAILED) {
			closedir(dp);
			return 2;
		}
		files++;
	}
	closedir(dp);
	return files > 0 ? 0 : 3;
}

int
mperf_floor_run(const struct mperf_ctx *ctx, struct mperf_samples *s)
{
	struct mperf_proc p;
	int ret;

	memset(&p, 0, sizeof(p));
	p.path = "/proc/self/exe";
	p.timeout_s = 300;
	p.argv[0] = (char *)(uintptr_t)MPERF_PROG;
	p.argv[1] = (char *)(uintptr_t)MPERF_FLOOR_ARG;
	p.argv[2] = (char *)(uintptr_t)ctx->rt_dir;
	p.argv[3] = (char *)(uintptr_t)ctx->prefix;
	p.argv[4] = NULL;
	ret = mperf_proc_run(&p);
	if (ret < 0 && !mperf_interrupted())
		mperf_proc_report(&p, "floor");
	else if (ret == 0 && s->n < MPERF_MAX_REPS)
		s->ms[s->n++] = p.exit_ms;
	mperf_proc_release(&p);
	return ret;
}
