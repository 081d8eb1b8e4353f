/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * /proc/self/maps, read whole into the context and split into lines. The
 * planner decides from it what each huge page would cover; the mover
 * copies only what it lists as mapped.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "hugetext_priv.h"

/* "start-end perms offset dev inode   path": one line, cut at its end. */
static int
maps_parse_line(char *line, struct ht_map *m)
{
	char *p = line, *end;
	int field;

	m->start = (uintptr_t)strtoull(p, &end, 16);
	if (*end != '-')
		return -EINVAL;
	m->end = (uintptr_t)strtoull(end + 1, &end, 16);
	if (*end != ' ' || strlen(end) < 5)
		return -EINVAL;
	p = end + 1;
	m->prot = (p[0] == 'r' ? PROT_READ : 0) |
			(p[1] == 'w' ? PROT_WRITE : 0) |
			(p[2] == 'x' ? PROT_EXEC : 0);
	m->shared = p[3] == 's';
	/* Skip perms, offset, dev and inode, then the padding. */
	for (field = 0; field < 4; field++) {
		p = strchr(p, ' ');
		if (p == NULL) {
			m->path = "";
			return 0;
		}
		p++;
	}
	while (*p == ' ')
		p++;
	m->path = p;
	return 0;
}

int
ht_maps_read(struct ht_maps *maps)
{
	char *line, *nl;
	size_t len;
	int ret;

	ret = ht_file_read("/proc/self/maps", maps->text, sizeof(maps->text),
			&len);
	if (ret < 0)
		return ret;
	maps->n = 0;
	for (line = maps->text; *line != '\0'; line = nl + 1) {
		nl = strchr(line, '\n');
		if (nl == NULL)
			return -EINVAL;
		*nl = '\0';
		if (maps->n == HT_MAX_MAPS)
			return -E2BIG;
		ret = maps_parse_line(line, &maps->map[maps->n]);
		if (ret < 0)
			return ret;
		maps->n++;
	}
	return 0;
}

/* The first line ending above addr, or NULL. */
static const struct ht_map *
ht_maps_first(const struct ht_maps *maps, uintptr_t addr)
{
	unsigned int lo = 0, hi = maps->n;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (maps->map[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < maps->n ? &maps->map[lo] : NULL;
}

bool
ht_maps_next(const struct ht_maps *maps, const struct ht_map **m,
		uintptr_t start, uintptr_t end, uintptr_t *s, uintptr_t *e)
{
	const struct ht_map *n = *m == NULL ? ht_maps_first(maps, start) :
					      *m + 1;

	if (n == NULL || n >= maps->map + maps->n || n->start >= end)
		return false;
	*m = n;
	*s = n->start > start ? n->start : start;
	*e = n->end < end ? n->end : end;
	return true;
}
