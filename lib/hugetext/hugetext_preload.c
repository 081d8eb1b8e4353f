/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * The preload entry: LD_PRELOAD=librtemem_hugetext.so runs this
 * constructor after the dynamic linker has relocated every object and
 * applied RELRO, before the program's own constructors and before any
 * thread exists, which is when moving writable data is safe.
 *
 * RTEMEM_HUGETEXT=off|auto|enforce|thp picks the mode; unset or empty
 * does nothing. RTEMEM_HUGETEXT_LIBS names libraries to move too,
 * RTEMEM_HUGETEXT_PAGE_SIZES=2M,1G the hugetlb sizes allowed,
 * RTEMEM_HUGETEXT_PERF_MAP=1 writes perf's map, and
 * RTEMEM_HUGETEXT_VERBOSE=1 says what moved. A value that is not a
 * mode, or a failure in enforce mode, ends the program with status 1 and
 * a message: a user who asked for huge pages and did not get them should
 * not find out from a slow run.
 *
 * The environment passes to every program the target starts: a shell
 * for system(), /bin/true, the shell gdb runs a program through. In
 * enforce mode one with no whole huge page in any segment runs as it is,
 * saying so only with RTEMEM_HUGETEXT_VERBOSE=1: no pool could have
 * given it huge pages, so it loses nothing enforce guards against.
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hugetext_priv.h"

static void
preload_fail(const char *fmt, const char *arg)
{
	char line[512];
	int n = snprintf(line, sizeof(line), fmt, arg);
	size_t len = n < 0 ? 0 : (size_t)n;

	if (len >= sizeof(line))
		len = sizeof(line) - 1;
	if (write(STDERR_FILENO, line, len) < 0)
		_exit(1);
	_exit(1);
}

static unsigned int
unit_shift(char c)
{
	switch (c) {
	case 'K':
		return 10;
	case 'M':
		return 20;
	case 'G':
		return 30;
	default:
		return 0;
	}
}

/* "2M,1G" as a mask of sizes; 0 if malformed. */
static uint64_t
page_sizes_parse(const char *s)
{
	uint64_t mask = 0;

	while (*s != '\0') {
		char *end;
		unsigned long long n = strtoull(s, &end, 10);
		unsigned int shift = unit_shift(*end);

		if (end == s || shift == 0 || n == 0 || (n & (n - 1)) != 0 ||
				n > (1ULL << (63 - shift)))
			return 0;
		mask |= (uint64_t)n << shift;
		s = end + 1;
		if (*s == ',' && s[1] != '\0')
			s++;
		else if (*s != '\0')
			return 0;
	}
	return mask;
}

__attribute__((constructor)) static void
hugetext_preload(void)
{
	struct rte_hugetext_conf conf = { .mode = RTE_HUGETEXT_OFF };
	const char *mode = getenv("RTEMEM_HUGETEXT");
	const char *perf = getenv("RTEMEM_HUGETEXT_PERF_MAP");
	const char *sizes = getenv("RTEMEM_HUGETEXT_PAGE_SIZES");
	int ret;

	if (mode == NULL || mode[0] == '\0')
		return;
	if (rte_hugetext_mode_parse(mode, &conf.mode) != 0)
		preload_fail("HUGETEXT: RTEMEM_HUGETEXT='%s' is not one of "
			     "off, auto, enforce, thp\n",
				mode);
	conf.libs = getenv("RTEMEM_HUGETEXT_LIBS");
	if (sizes != NULL) {
		conf.page_sizes = page_sizes_parse(sizes);
		if (conf.page_sizes == 0)
			preload_fail("HUGETEXT: RTEMEM_HUGETEXT_PAGE_SIZES='%s' "
				     "is not a list of sizes such as 2M,1G\n",
					sizes);
	}
	conf.perf_map = perf != NULL && strcmp(perf, "1") == 0;
	ret = ht_remap(&conf, HT_INFO);
	if (ret < 0 && ret != -ENOEXEC && conf.mode == RTE_HUGETEXT_ENFORCE)
		preload_fail("HUGETEXT: RTEMEM_HUGETEXT=%s failed: exiting\n",
				mode);
}
