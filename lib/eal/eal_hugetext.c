/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * --huge-text: rte_eal_init() moves the program's segments onto huge
 * pages right after parsing its options, before it starts any thread,
 * so that no write to .data can fall between a copy and its move. The
 * hugetext library logs through the EAL's log.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_hugetext.h>
#include <rte_log.h>

#include "eal_hugetext.h"

static void
eal_hugetext_log(unsigned int level, const char *line, void *arg)
{
	(void)arg;
	rte_log(level, RTE_LOGTYPE_EAL, "EAL: huge text: %s", line);
}

int
eal_hugetext_apply(const struct eal_options *opts, char *err, size_t err_len)
{
	struct rte_hugetext_conf conf = {
		.mode = opts->huge_text,
		.libs = opts->huge_text_libs,
		.perf_map = opts->huge_text_perf_map,
		.log = eal_hugetext_log,
	};
	int ret;

	if (opts->huge_text == RTE_HUGETEXT_OFF)
		return 0;
	ret = rte_hugetext_remap(&conf);
	if (ret < 0)
		snprintf(err, err_len,
				"--huge-text=%s: %s (see the lines above)",
				rte_hugetext_mode_name(opts->huge_text),
				strerror(-ret));
	return ret;
}
