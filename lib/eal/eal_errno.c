/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Error reporting at the rte_* boundary: the per-thread rte_errno, its
 * strings, rte_panic(), and the version string.
 *
 * rte_strerror() formats into a per-thread buffer, so the string it
 * returns stays valid until the same thread calls it again.
 */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_debug.h>
#include <rte_errno.h>
#include <rte_log.h>
#include <rte_per_lcore.h>
#include <rte_version.h>

#define STRERROR_BUF_LEN 256

RTE_DEFINE_PER_LCORE(int, _rte_errno);

static RTE_DEFINE_PER_LCORE(char[STRERROR_BUF_LEN], strerror_buf);

const char *
rte_strerror(int errnum)
{
	char *buf = RTE_PER_LCORE(strerror_buf);

	switch (errnum) {
	case E_RTE_SECONDARY:
		return "Invalid call in secondary process";
	case E_RTE_NO_CONFIG:
		return "Missing rte_config structure";
	default:
		break;
	}
	/* The GNU strerror_r() may return a static string instead of buf. */
	return strerror_r(errnum, buf, STRERROR_BUF_LEN);
}

void
__rte_panic(const char *funcname, const char *format, ...)
{
	va_list ap;

	rte_log(RTE_LOG_CRIT, RTE_LOGTYPE_EAL, "PANIC in %s():\n", funcname);
	va_start(ap, format);
	rte_vlog(RTE_LOG_CRIT, RTE_LOGTYPE_EAL, format, ap);
	va_end(ap);
	abort();
}

const char *
rte_version(void)
{
	return RTE_VER_PREFIX " " RTEMEM_VERSION;
}
