/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * The objects to move: the executable, always first, and the shared
 * libraries the caller names, with their PT_LOAD segments as loaded. Each
 * is named by the canonical path of its file, which is how
 * /proc/self/maps names its mappings.
 */

#include <dirent.h>
#include <errno.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hugetext_priv.h"

struct find_arg {
	struct ht_object *obj;
	unsigned int n;
	const char *libs;
	const struct ht_log *log;
	int err;
};

/*
 * The next name of the comma-separated list at *list: its start in
 * *name and length in *len. False at the end of the list.
 */
static bool
list_next(const char **list, const char **name, size_t *len)
{
	const char *comma;

	if (*list == NULL || **list == '\0')
		return false;
	comma = strchr(*list, ',');
	*name = *list;
	*len = comma != NULL ? (size_t)(comma - *list) : strlen(*list);
	*list = comma != NULL ? comma + 1 : NULL;
	return true;
}

/* Is base name @p base the library @p name (of @p len bytes) names? */
static bool
name_matches(const char *base, const char *name, size_t len)
{
	return len > 0 && strncmp(base, name, len) == 0 &&
			(base[len] == '\0' || base[len] == '.' ||
					base[len] == '-');
}

/* Does base name @p base match one of the comma-separated @p libs? */
static bool
lib_wanted(const char *libs, const char *base)
{
	const char *name;
	size_t len;

	while (list_next(&libs, &name, &len))
		if (name_matches(base, name, len))
			return true;
	return false;
}

static void
object_add_segments(struct ht_object *o, const struct dl_phdr_info *info)
{
	int i;

	o->bias = info->dlpi_addr;
	o->lo = UINTPTR_MAX;
	o->hi = 0;
	o->n_seg = 0;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t start = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type != PT_LOAD || ph->p_memsz == 0)
			continue;
		o->seg[o->n_seg].start = start;
		o->seg[o->n_seg].end = start + ph->p_memsz;
		o->n_seg++;
		if (start < o->lo)
			o->lo = start;
		if (start + ph->p_memsz > o->hi)
			o->hi = start + ph->p_memsz;
	}
}

static int
find_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	struct find_arg *a = data;
	struct ht_object *o = &a->obj[a->n];
	const char *name = info->dlpi_name, *base;
	bool is_exe = a->n == 0;

	(void)size;
	if (!is_exe) {
		if (name == NULL || name[0] == '\0')
			return 0; /* the vDSO */
		base = strrchr(name, '/');
		base = base != NULL ? base + 1 : name;
		if (!lib_wanted(a->libs, base))
			return 0;
		if (a->n == HT_MAX_OBJECTS) {
			ht_log(a->log, HT_WARNING,
					"more than %d objects named, %s not moved\n",
					HT_MAX_OBJECTS, name);
			return 0;
		}
		if (realpath(name, o->path) == NULL) {
			a->err = -errno;
			ht_log(a->log, HT_ERR, "cannot resolve %s\n", name);
			return 1;
		}
	} else {
		ssize_t n = readlink(
				"/proc/self/exe", o->path, sizeof(o->path) - 1);

		if (n < 0) {
			a->err = -errno;
			ht_log(a->log, HT_ERR, "cannot read /proc/self/exe\n");
			return 1;
		}
		o->path[n] = '\0';
	}
	o->is_exe = is_exe;
	base = strrchr(o->path, '/');
	o->name = base != NULL ? base + 1 : o->path;
	object_add_segments(o, info);
	a->n++;
	return 0;
}

/* Is every name in @p libs among the objects found? */
static int
libs_check(const char *libs, const struct ht_object *obj, unsigned int n,
		const struct ht_log *log)
{
	const char *list = libs, *name;
	unsigned int i;
	size_t len;

	while (list_next(&list, &name, &len)) {
		bool found = false;

		if (len == 0) {
			ht_log(log, HT_ERR, "bad library list '%s'\n", libs);
			return -EINVAL;
		}
		for (i = 1; i < n && !found; i++)
			found = name_matches(obj[i].name, name, len);
		if (!found) {
			ht_log(log, HT_ERR, "library '%.*s' is not loaded\n",
					(int)len, name);
			return -ENOENT;
		}
	}
	return 0;
}

int
ht_objects_find(struct ht_object *obj, unsigned int *n, const char *libs,
		const struct ht_log *log)
{
	struct find_arg a = {
		.obj = obj,
		.n = 0,
		.libs = libs,
		.log = log,
		.err = 0,
	};

	dl_iterate_phdr(find_cb, &a);
	*n = a.n;
	if (a.err < 0)
		return a.err;
	if (a.n == 0)
		return -ENOENT;
	return libs_check(libs, obj, a.n, log);
}
