/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * --plot: run the plot script (MPERF_PLOT_SCRIPT) on the JSON results.
 *
 * The script sits next to this program, in the build tree and in the
 * install directory alike. It needs matplotlib, which Debian installs for
 * its own python3 (/usr/bin/python3); the first python3 in PATH may be
 * another one (pyenv, a virtualenv), so when the script reports that it
 * cannot import matplotlib (exit status 3), /usr/bin/python3 is tried.
 */

#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mperf.h"

#define PLOT_NO_MATPLOTLIB 3 /* the script's exit status without it */
#define PLOT_TIMEOUT_S 120

/* The script next to this program. @return 0, or -1 after saying so. */
static int
script_find(char *buf, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0) {
		fprintf(stderr, "%s: --plot: cannot read /proc/self/exe\n",
				MPERF_PROG);
		return -1;
	}
	exe[n] = '\0';
	snprintf(buf, len, "%s/%s", dirname(exe), MPERF_PLOT_SCRIPT);
	if (access(buf, R_OK) == 0)
		return 0;
	fprintf(stderr, "%s: --plot: %s is missing (it is installed next to %s)\n",
			MPERF_PROG, buf, MPERF_PROG);
	return -1;
}

/* Run the script with @p python. @return its exit status, or -1. */
static int
script_run(const char *python, const char *script, const char *json,
		const char *out)
{
	struct mperf_proc p;
	int status;

	memset(&p, 0, sizeof(p));
	p.path = python;
	p.timeout_s = PLOT_TIMEOUT_S;
	p.argv[0] = (char *)(uintptr_t)python;
	p.argv[1] = (char *)(uintptr_t)script;
	p.argv[2] = (char *)(uintptr_t)json;
	p.argv[3] = (char *)(uintptr_t)out;
	p.argv[4] = NULL;
	mperf_proc_run(&p);
	status = p.status;
	if (status != 0 && status != PLOT_NO_MATPLOTLIB)
		mperf_proc_report(&p, "the plot script");
	mperf_proc_release(&p);
	return status;
}

int
mperf_plot(const char *json_path, const char *out)
{
	const char *system_python = "/usr/bin/python3";
	char script[PATH_MAX], python[PATH_MAX], tried[2 * PATH_MAX + 8];
	int status = PLOT_NO_MATPLOTLIB;

	if (script_find(script, sizeof(script)) < 0)
		return -1;
	tried[0] = '\0';
	if (mperf_path_search("python3", python, sizeof(python)) == 0) {
		status = script_run(python, script, json_path, out);
		snprintf(tried, sizeof(tried), "%s", python);
	}
	if (status == PLOT_NO_MATPLOTLIB &&
			strcmp(python, system_python) != 0 &&
			access(system_python, X_OK) == 0) {
		status = script_run(system_python, script, json_path, out);
		snprintf(tried + strlen(tried), sizeof(tried) - strlen(tried),
				"%s%s", tried[0] != '\0' ? ", " : "",
				system_python);
	}
	if (status == 0)
		return 0;
	if (status == PLOT_NO_MATPLOTLIB || tried[0] == '\0')
		fprintf(stderr, "%s: --plot needs python3 with matplotlib (Debian: apt-get install python3-matplotlib); tried: %s\n",
				MPERF_PROG,
				tried[0] != '\0' ? tried : "none found");
	return -1;
}
