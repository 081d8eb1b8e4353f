/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Messages of the remap. They are formatted on the stack and written with
 * one write(): stdio's buffers and malloc() may live in the memory being
 * moved.
 */

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "hugetext_priv.h"

void
ht_log(const struct ht_log *log, unsigned int level, const char *fmt, ...)
{
	char line[512];
	size_t off = 0;
	va_list ap;
	int n;

	if (level > log->max_level)
		return;
	if (log->fn == NULL)
		off = (size_t)snprintf(line, sizeof(line), "HUGETEXT: ");
	va_start(ap, fmt);
	n = vsnprintf(line + off, sizeof(line) - off, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	off += (size_t)n;
	if (off >= sizeof(line) - 1) {
		off = sizeof(line) - 2;
		line[off - 1] = '.';
		line[off] = '\n';
		line[++off] = '\0';
	}
	if (log->fn != NULL) {
		log->fn(level, line, log->arg);
		return;
	}
	if (write(STDERR_FILENO, line, off) < 0)
		return;
}
