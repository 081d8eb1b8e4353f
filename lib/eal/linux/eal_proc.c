/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Process identities (eal_sys.h), from /proc/PID/stat: field 3 is the
 * state (Z for a zombie) and field 22 the start time. The command name
 * (field 2) may hold spaces and parentheses, so fields are counted from
 * its last ')'. And a thread's nice value: Linux gives each thread its
 * own, set through its thread id.
 */

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "eal_os.h"
#include "eal_sys.h"

/* State and start time of @p pid; @return 0, or -1 if it is gone. */
static int
proc_stat(int pid, char *state, uint64_t *start)
{
	char path[32], buf[1024], *p;
	unsigned int field;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = eal_os_open(path, O_RDONLY, 0);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	eal_os_close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	if (p == NULL || p[1] != ' ')
		return -1;
	p += 2;
	*state = *p;
	/* p is at field 3; the start time is field 22. */
	for (field = 3; field < 22 && p != NULL; field++) {
		p = strchr(p, ' ');
		if (p != NULL)
			p++;
	}
	if (p == NULL)
		return -1;
	*start = strtoull(p, NULL, 10);
	return 0;
}

uint64_t
eal_proc_self_id(void)
{
	int pid = getpid();
	uint64_t start;
	char state;

	if (proc_stat(pid, &state, &start) < 0)
		return 0;
	return (start & 0xffffffffU) << 32 | (uint32_t)pid;
}

bool
eal_proc_alive(uint64_t id)
{
	uint64_t start;
	char state;

	if (proc_stat(eal_proc_pid(id), &state, &start) < 0)
		return false;
	return state != 'Z' && state != 'X' &&
			(start & 0xffffffffU) == id >> 32;
}

int
eal_thread_idle(void)
{
	struct sched_param sp = { .sched_priority = 0 };

	/* On Linux, 0 names the calling thread, not the whole process. */
	if (sched_setscheduler(0, SCHED_IDLE, &sp) == 0)
		return 0;
	return setpriority(PRIO_PROCESS, (id_t)gettid(), 19) < 0 ? -errno : 0;
}
