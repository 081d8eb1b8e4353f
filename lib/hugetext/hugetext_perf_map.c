/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * perf names a sample by the file behind its address; moved code is
 * anonymous memory, so perf falls back to /tmp/perf-PID.map, the format
 * JITs write: one "START SIZE NAME" line per function, in hex. The names
 * come from the object's symbol table (.symtab, else .dynsym), read from
 * its file.
 */

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hugetext_priv.h"

struct perf_out {
	int fd;
	char buf[8192];
	size_t len;
	unsigned int lines;
};

static void
out_flush(struct perf_out *out)
{
	if (out->fd >= 0 && out->len > 0 &&
			write(out->fd, out->buf, out->len) < 0) {
		close(out->fd);
		out->fd = -1;
	}
	out->len = 0;
}

static void
out_line(struct perf_out *out, uintptr_t start, size_t size, const char *name)
{
	int n;

	if (out->fd < 0)
		return;
	if (out->len + 300 > sizeof(out->buf))
		out_flush(out);
	n = snprintf(out->buf + out->len, sizeof(out->buf) - out->len,
			"%lx %zx %.256s\n", (unsigned long)start, size, name);
	if (n > 0)
		out->len += (size_t)n;
	out->lines++;
}

static bool
in_moved_code(const struct ht_plan *plan, unsigned int oi, uintptr_t a,
		size_t size)
{
	unsigned int i;

	for (i = 0; i < plan->n; i++) {
		const struct ht_range *r = &plan->r[i];

		if (r->obj == oi && r->copy == NULL && (r->prot & PROT_EXEC) &&
				a < r->start + r->len && a + size > r->start)
			return true;
	}
	return false;
}

/* The section of type @p type, or NULL. */
static const ElfW(Shdr) *
		elf_section(const uint8_t *file, size_t len, uint32_t type)
{
	const ElfW(Ehdr) *eh = (const void *)file;
	const ElfW(Shdr) * sh;
	unsigned int i;

	if (eh->e_shoff == 0 || eh->e_shoff > len ||
			(size_t)eh->e_shnum * sizeof(*sh) > len - eh->e_shoff)
		return NULL;
	sh = (const void *)(file + eh->e_shoff);
	for (i = 0; i < eh->e_shnum; i++)
		if (sh[i].sh_type == type && sh[i].sh_link < eh->e_shnum)
			return &sh[i];
	return NULL;
}

static void
object_symbols(struct perf_out *out, const struct ht_plan *plan,
		unsigned int oi, const struct ht_object *o, const uint8_t *file,
		size_t len)
{
	const ElfW(Ehdr) *eh = (const void *)file;
	const ElfW(Shdr) * sh, *strs;
	const ElfW(Sym) * sym;
	size_t i, n;

	if (len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0)
		return;
	sh = elf_section(file, len, SHT_SYMTAB);
	if (sh == NULL)
		sh = elf_section(file, len, SHT_DYNSYM);
	if (sh == NULL || sh->sh_offset > len ||
			sh->sh_size > len - sh->sh_offset)
		return;
	strs = (const ElfW(Shdr) *)(const void *)(file + eh->e_shoff) +
			sh->sh_link;
	if (strs->sh_offset > len || strs->sh_size > len - strs->sh_offset)
		return;
	sym = (const void *)(file + sh->sh_offset);
	n = sh->sh_size / sizeof(*sym);
	for (i = 0; i < n; i++) {
		uintptr_t a = o->bias + sym[i].st_value;

		if (ELF64_ST_TYPE(sym[i].st_info) != STT_FUNC ||
				sym[i].st_size == 0 ||
				sym[i].st_name >= strs->sh_size ||
				!in_moved_code(plan, oi, a, sym[i].st_size))
			continue;
		out_line(out, a, sym[i].st_size,
				(const char *)file + strs->sh_offset +
						sym[i].st_name);
	}
}

int
ht_perf_map_write(const struct ht_plan *plan, const struct ht_object *obj,
		unsigned int n_obj, const struct ht_log *log)
{
	struct perf_out out = { .len = 0, .lines = 0 };
	char path[64];
	unsigned int oi;

	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	out.fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (out.fd < 0) {
		ht_log(log, HT_WARNING, "cannot write %s: %s\n", path,
				strerror(errno));
		return -errno;
	}
	for (oi = 0; oi < n_obj; oi++) {
		struct stat st;
		void *file;
		int fd = open(obj[oi].path, O_RDONLY | O_CLOEXEC);

		if (fd < 0)
			continue;
		if (fstat(fd, &st) == 0 && st.st_size > 0) {
			file = mmap(NULL, (size_t)st.st_size, PROT_READ,
					MAP_PRIVATE, fd, 0);
			if (file != MAP_FAILED) {
				object_symbols(&out, plan, oi, &obj[oi], file,
						(size_t)st.st_size);
				munmap(file, (size_t)st.st_size);
			}
		}
		close(fd);
	}
	out_flush(&out);
	if (out.fd >= 0)
		close(out.fd);
	ht_log(log, HT_INFO, "%u functions named in %s\n", out.lines, path);
	return 0;
}
