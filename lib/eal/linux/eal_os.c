/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Thin wrappers over the system calls of the memory layer (see eal_os.h).
 * Nothing here knows about memseg lists or modes; everything returns
 * -errno so that callers decide what to log.
 */

#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>

#include "eal_os.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
#ifndef MFD_HUGETLB
#define MFD_HUGETLB 0x0004U
#endif
#ifndef MFD_HUGE_SHIFT
#define MFD_HUGE_SHIFT 26
#endif

int
eal_os_va_reserve(void *hint, size_t len, size_t align, bool fixed, void **addr)
{
	int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
	size_t span = fixed ? len : len + align;
	void *p, *aligned;

	if (fixed)
		flags |= MAP_FIXED_NOREPLACE;
	p = mmap(hint, span, PROT_NONE, flags, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	if (fixed) {
		*addr = p;
		return 0;
	}
	/* Over-reserve, then trim both ends to the alignment. */
	aligned = RTE_PTR_ALIGN_CEIL(p, align);
	if (aligned != p)
		munmap(p, RTE_PTR_DIFF(aligned, p));
	if (span - RTE_PTR_DIFF(aligned, p) > len)
		munmap(RTE_PTR_ADD(aligned, len),
				span - RTE_PTR_DIFF(aligned, p) - len);
	*addr = aligned;
	return 0;
}

void
eal_os_va_owner(const void *addr, size_t len, char *buf, size_t buf_len)
{
	unsigned long start, end, a = (unsigned long)(uintptr_t)addr;
	char line[512], path[256];
	FILE *f = fopen("/proc/self/maps", "re");

	buf[0] = '\0';
	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL) {
		path[0] = '\0';
		if (sscanf(line, "%lx-%lx %*s %*s %*s %*s %255s", &start, &end,
				    path) < 2 ||
				end <= a || start >= a + len)
			continue;
		snprintf(buf, buf_len, "%s",
				path[0] != '\0' ? path : "[anonymous]");
		break;
	}
	fclose(f);
}

int
eal_os_va_release(void *addr, size_t len)
{
	return munmap(addr, len) == 0 ? 0 : -errno;
}

int
eal_os_va_unmap_keep(void *addr, size_t len)
{
	void *p = mmap(addr, len, PROT_NONE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED,
			-1, 0);

	return p == MAP_FAILED ? -errno : 0;
}

/* mmap() exactly at @p addr, never over another mapping. */
static int
map_noreplace(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	void *p = mmap(addr, len, prot, flags | MAP_FIXED_NOREPLACE, fd, off);

	if (p == MAP_FAILED)
		return -errno;
	if (p != addr) {
		/* A kernel without MAP_FIXED_NOREPLACE took it as a hint. */
		munmap(p, len);
		return -EEXIST;
	}
	return 0;
}

int
eal_os_va_restore(void *addr, size_t len)
{
	return map_noreplace(addr, len, PROT_NONE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
}

int
eal_os_map_shared(void *addr, size_t len, int fd, off_t off)
{
	void *p = mmap(addr, len, PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_FIXED, fd, off);

	return p == MAP_FAILED ? -errno : 0;
}

int
eal_os_map_shared_noreserve(void *addr, size_t len, int fd, off_t off)
{
	void *p = mmap(addr, len, PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_FIXED | MAP_NORESERVE, fd, off);

	return p == MAP_FAILED ? -errno : 0;
}

int
eal_os_huge_reserve(int fd, uint64_t off, uint64_t len)
{
	/* A shared mapping reserves its range in the file, for good. */
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			(off_t)off);

	if (p == MAP_FAILED)
		return -errno;
	munmap(p, len);
	return 0;
}

bool
eal_os_single_thread(void)
{
	struct stat st;

	/* procfs counts a task directory's links as 2 plus its threads. */
	return stat("/proc/self/task", &st) == 0 && st.st_nlink == 3;
}

int
eal_os_va_hole(void *addr, size_t len)
{
	return munmap(addr, len) < 0 ? -errno : 0;
}

int
eal_os_map_shared_hole(void *addr, size_t len, int fd, off_t off)
{
	return map_noreplace(
			addr, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off);
}

int
eal_os_map_view(int fd, uint64_t off, size_t len, void **view)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			(off_t)off);

	if (p == MAP_FAILED)
		return -errno;
	*view = p;
	return 0;
}

int
eal_os_map_anon(void *addr, size_t len)
{
	void *p = mmap(addr, len, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);

	return p == MAP_FAILED ? -errno : 0;
}

int
eal_os_populate(void *addr, size_t len)
{
	while (madvise(addr, len, MADV_POPULATE_WRITE) != 0) {
		/* EINVAL: a kernel before Linux 5.14, without this advice. */
		if (errno == EINVAL)
			return -ENOSYS;
		if (errno != EINTR)
			return -errno;
	}
	return 0;
}

int
eal_os_open(const char *path, int flags, mode_t mode)
{
	int fd = open(path, flags | O_CLOEXEC, mode);

	return fd < 0 ? -errno : fd;
}

void
eal_os_close(int fd)
{
	if (fd >= 0)
		close(fd);
}

int
eal_os_unlink(const char *path)
{
	return unlink(path) == 0 ? 0 : -errno;
}

int
eal_os_dir_open(const char *path)
{
	return eal_os_open(path, O_PATH | O_DIRECTORY, 0);
}

int
eal_os_unlinkat(int dirfd, const char *path)
{
	return unlinkat(dirfd, path, 0) == 0 ? 0 : -errno;
}

int
eal_os_truncate(int fd, uint64_t size)
{
	return ftruncate(fd, (off_t)size) == 0 ? 0 : -errno;
}

int
eal_os_allocate(int fd, uint64_t off, uint64_t len)
{
	return fallocate(fd, 0, (off_t)off, (off_t)len) == 0 ? 0 : -errno;
}

int
eal_os_punch_hole(int fd, uint64_t off, uint64_t len)
{
	int mode = FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE;

	return fallocate(fd, mode, (off_t)off, (off_t)len) == 0 ? 0 : -errno;
}

int
eal_os_trylock(int fd, bool exclusive)
{
	int op = (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB;

	while (flock(fd, op) != 0) {
		if (errno != EINTR)
			return -errno;
	}
	return 0;
}

int
eal_os_memfd_huge(const char *name, uint64_t page_sz)
{
	unsigned int flags = MFD_CLOEXEC | MFD_HUGETLB;
	int fd;

	flags |= (unsigned int)rte_ctz64(page_sz) << MFD_HUGE_SHIFT;
	fd = memfd_create(name, flags);
	return fd < 0 ? -errno : fd;
}

int
eal_os_futex_wait(uint32_t *addr, uint32_t val, int timeout_ms)
{
	struct timespec ts = {
		.tv_sec = timeout_ms / 1000,
		.tv_nsec = (long)(timeout_ms % 1000) * 1000000L,
	};

	/* Not FUTEX_PRIVATE_FLAG: the word is shared between processes. */
	if (syscall(SYS_futex, addr, FUTEX_WAIT, val,
			    timeout_ms < 0 ? NULL : &ts, NULL, 0) == 0)
		return 0;
	return errno == EAGAIN ? 0 : -errno;
}

void
eal_os_futex_wake(uint32_t *addr)
{
	syscall(SYS_futex, addr, FUTEX_WAKE, INT32_MAX, NULL, NULL, 0);
}

size_t
eal_os_page_size(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}
