/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * The huge page sizes a remap may use: the hugetlb sizes the kernel
 * offers (directories of /sys/kernel/mm/hugepages), filtered by the
 * caller's mask, and the PMD size that transparent huge pages use. The
 * plan is made in huge pages of the smallest usable size: its grain.
 */

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "hugetext_priv.h"

static size_t
thp_pmd_size(void)
{
	char buf[64];

	if (ht_file_read("/sys/kernel/mm/transparent_hugepage/enabled", buf,
			    sizeof(buf), NULL) != 0 ||
			strstr(buf, "[never]") != NULL)
		return 0;
	return (size_t)ht_file_number(
			"/sys/kernel/mm/transparent_hugepage/hpage_pmd_size");
}

static void
sizes_sort(struct ht_sizes *s)
{
	unsigned int i, j;

	for (i = 1; i < s->n_hugetlb; i++)
		for (j = i; j > 0 && s->hugetlb[j - 1] > s->hugetlb[j]; j--) {
			size_t t = s->hugetlb[j];

			s->hugetlb[j] = s->hugetlb[j - 1];
			s->hugetlb[j - 1] = t;
		}
}

static void
hugetlb_sizes(struct ht_sizes *s, uint64_t allowed)
{
	struct dirent *de;
	DIR *dir;

	dir = opendir("/sys/kernel/mm/hugepages");
	if (dir == NULL)
		return;
	while ((de = readdir(dir)) != NULL && s->n_hugetlb < HT_MAX_SIZES) {
		unsigned long long kb;
		size_t size;

		if (sscanf(de->d_name, "hugepages-%llukB", &kb) != 1)
			continue;
		size = (size_t)kb << 10;
		if (allowed != 0 && (allowed & size) == 0)
			continue;
		s->hugetlb[s->n_hugetlb++] = size;
	}
	closedir(dir);
	sizes_sort(s);
}

int
ht_sizes_find(struct ht_sizes *s, const struct ht_policy *policy,
		uint64_t allowed, const struct ht_log *log)
{
	memset(s, 0, sizeof(*s));
	s->thp = thp_pmd_size();
	if (policy->hugetlb)
		hugetlb_sizes(s, allowed);
	if (!policy->hugetlb && s->thp == 0) {
		ht_log(log, HT_ERR,
				"transparent huge pages are off "
				"(/sys/kernel/mm/transparent_hugepage/enabled)\n");
		return -ENOTSUP;
	}
	if (policy->all_or_nothing && s->n_hugetlb == 0) {
		ht_log(log, HT_ERR,
				"the kernel offers no hugetlb page size%s\n",
				allowed != 0 ? " of those allowed" : "");
		return -ENOTSUP;
	}
	if (s->n_hugetlb > 0)
		s->grain = s->hugetlb[0];
	else
		s->grain = s->thp;
	/* THP copies fill what hugetlb cannot only at the same grain. */
	if (s->thp != s->grain)
		s->thp = 0;
	if (s->grain == 0) {
		ht_log(log, HT_NOTICE, "no huge page size to use\n");
		return -ENOTSUP;
	}
	return 0;
}
