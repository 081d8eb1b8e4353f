/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _EAL_OS_H_
#define _EAL_OS_H_

/*
 * The system calls the memory layer makes, in one place. Each returns 0 (or
 * a non-negative value) on success and -errno on failure; none logs. The
 * contract of each states what it leaves behind on failure.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The futex calls are declared with the other services of eal_sys.h. */
#include "eal_sys.h"

/*
 * Name what occupies [@p addr, @p addr + @p len) in this process, for a
 * message: the path of the first mapping there, "[anonymous]", or "" if
 * nothing does (or /proc/self/maps is unreadable).
 */
void eal_os_va_owner(const void *addr, size_t len, char *buf, size_t buf_len);

/*
 * Reserve @p len bytes of address space aligned to @p align, inaccessible
 * and not backed, at @p hint if possible (exactly there if @p fixed).
 * On failure nothing is reserved.
 */
int eal_os_va_reserve(
		void *hint, size_t len, size_t align, bool fixed, void **addr);

/* Give back a reserved or mapped range (munmap). */
int eal_os_va_release(void *addr, size_t len);

/*
 * Replace whatever is mapped at [addr, addr+len) by reserved, inaccessible
 * address space: the pages and their file references are dropped, the
 * range stays ours.
 */
int eal_os_va_unmap_keep(void *addr, size_t len);

/*
 * Reserve [addr, addr+len) again after a failed MAP_FIXED mapping there,
 * which on Linux leaves the range unmapped. Never replaces a mapping that
 * another thread placed in the hole meanwhile.
 *
 * @return 0, or -EEXIST if the hole was taken.
 */
int eal_os_va_restore(void *addr, size_t len);

/*
 * Map @p len bytes of @p fd at @p off, shared and writable, exactly at
 * @p addr. On failure the range may be left unmapped: see
 * eal_os_va_restore().
 */
int eal_os_map_shared(void *addr, size_t len, int fd, off_t off);

/*
 * As eal_os_map_shared(), of a hugetlbfs file, without reserving its
 * hugepages: a page is allocated only when touched, and only if one is
 * free then.
 */
int eal_os_map_shared_noreserve(void *addr, size_t len, int fd, off_t off);

/*
 * Reserve the hugepages of @p len bytes of hugetlbfs file @p fd at @p off
 * without mapping or allocating them (the file grows to cover them). The
 * reservation stays with the file until it is truncated below them: no
 * other call gives back part of it (a hole punched where no page is
 * allocated keeps its reservation).
 *
 * @return 0, or -ENOMEM if the pool (or a hugetlb cgroup) has too few.
 */
int eal_os_huge_reserve(int fd, uint64_t off, uint64_t len);

/*
 * Mapping a run of pages one by one over its reserved range makes the
 * kernel split the reservation and unmap a piece of it for each page,
 * which costs a third more than the mapping itself. A thread that is the
 * process's only one can instead open a hole over the run and map each
 * page into it: nobody else can take the hole meanwhile.
 */

/*
 * @return true if the calling thread is the only thread of the process
 *   (one stat of /proc/self/task); false when unsure.
 */
bool eal_os_single_thread(void);

/* Give back [addr, addr+len) of a reservation to map pages into. */
int eal_os_va_hole(void *addr, size_t len);

/*
 * As eal_os_map_shared(), into a hole: never replaces a mapping.
 *
 * @return 0, -EEXIST if something is mapped there, or another -errno;
 *   the range is then still a hole.
 */
int eal_os_map_shared_hole(void *addr, size_t len, int fd, off_t off);

/*
 * Map @p len bytes of @p fd at @p off anywhere, shared and writable, into
 * @p view. @return 0 or a negative errno.
 */
int eal_os_map_view(int fd, uint64_t off, size_t len, void **view);

/* Map anonymous private memory exactly at @p addr (failure as above). */
int eal_os_map_anon(void *addr, size_t len);

/*
 * Fault in every page of the range for writing. Unlike MAP_POPULATE, a
 * shortage (hugetlb pool, cgroup limit) is reported as -ENOMEM or -EFAULT
 * instead of a later SIGBUS. -ENOSYS: the kernel is older than Linux 5.14.
 */
int eal_os_populate(void *addr, size_t len);

/* open(2) with O_CLOEXEC added. @return the fd or -errno. */
int eal_os_open(const char *path, int flags, mode_t mode);

/* close(2), ignoring -1. */
void eal_os_close(int fd);

/* unlink(2). @return 0, -ENOENT or another -errno. */
int eal_os_unlink(const char *path);

/*
 * A descriptor of directory @p path to open and remove files from by
 * name (O_PATH: it reads nothing).
 *
 * @return the descriptor, or -errno.
 */
int eal_os_dir_open(const char *path);

/* unlinkat(2) of a file: @p path relative to directory @p dirfd. */
int eal_os_unlinkat(int dirfd, const char *path);

/* ftruncate(2). */
int eal_os_truncate(int fd, uint64_t size);

/* fallocate(2) of a range (allocating the pages). */
int eal_os_allocate(int fd, uint64_t off, uint64_t len);

/* Free a range of a file, keeping its size. */
int eal_os_punch_hole(int fd, uint64_t off, uint64_t len);

/*
 * flock(2) without blocking. @return 0, -EWOULDBLOCK if another open file
 * holds a conflicting lock, or another -errno.
 */
int eal_os_trylock(int fd, bool exclusive);

/* A hugetlbfs memfd for pages of @p page_sz. @return the fd or -errno. */
int eal_os_memfd_huge(const char *name, uint64_t page_sz);

/* The system's base page size. */
size_t eal_os_page_size(void);

#endif /* _EAL_OS_H_ */
