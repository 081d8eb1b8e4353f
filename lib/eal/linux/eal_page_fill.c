/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Page fill (eal_sys.h) on Linux: userfaultfd(2). EAL_FILL_COPY is a
 * MISSING registration served by UFFDIO_COPY (hugetlbfs since 4.11),
 * EAL_FILL_FROM_FILE adds a MINOR one served by UFFDIO_CONTINUE (5.13):
 * a page the file does not hold raises a MISSING fault, one it holds a
 * MINOR fault, and both are answered the same way once the file is
 * written. Fills never wake: the caller wakes once its own bookkeeping
 * says the page is in, so no woken thread runs ahead of it.
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/userfaultfd.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <rte_common.h>

#include "eal_sys.h"

struct fill_kind {
	uint64_t features; /* UFFD_FEATURE_* needed */
	uint64_t mode; /* UFFDIO_REGISTER_MODE_* */
	uint64_t ioctls; /* what a registration must offer */
};

static const struct fill_kind fill_kinds[] = {
	[EAL_FILL_COPY] = {
		.features = UFFD_FEATURE_MISSING_HUGETLBFS,
		.mode = UFFDIO_REGISTER_MODE_MISSING,
		.ioctls = (uint64_t)1 << _UFFDIO_COPY,
	},
	[EAL_FILL_FROM_FILE] = {
		.features = UFFD_FEATURE_MISSING_HUGETLBFS |
				UFFD_FEATURE_MINOR_HUGETLBFS,
		.mode = UFFDIO_REGISTER_MODE_MISSING |
				UFFDIO_REGISTER_MODE_MINOR,
		.ioctls = (uint64_t)1 << _UFFDIO_CONTINUE,
	},
};

/* A userfaultfd by the system call, or /dev/userfaultfd if unprivileged. */
static int
fill_uffd(void)
{
	int fd, dev, saved;

	fd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (fd >= 0 || errno != EPERM)
		return fd < 0 ? -errno : fd;
	saved = errno;
	dev = open("/dev/userfaultfd", O_RDWR | O_CLOEXEC);
	fd = dev < 0 ? -1 :
		       ioctl(dev, USERFAULTFD_IOC_NEW, O_CLOEXEC | O_NONBLOCK);
	if (dev >= 0)
		close(dev);
	return fd < 0 ? -saved : fd;
}

int
eal_fill_open(enum eal_fill_mode mode, char *err, size_t len)
{
	struct uffdio_api api = {
		.api = UFFD_API,
		.features = fill_kinds[mode].features,
	};
	int fd = fill_uffd();

	if (fd < 0) {
		snprintf(err, len, "cannot open a userfaultfd: %s%s",
				strerror(-fd),
				fd == -EPERM ? " (it needs CAP_SYS_PTRACE, "
					       "access to /dev/userfaultfd or "
					       "vm.unprivileged_userfaultfd=1)" :
					       "");
		return fd;
	}
	if (ioctl(fd, UFFDIO_API, &api) < 0 ||
			(api.features & fill_kinds[mode].features) !=
					fill_kinds[mode].features) {
		close(fd);
		snprintf(err, len,
				"this kernel's userfaultfd cannot fill hugetlbfs "
				"pages the way it needs");
		return -ENOTSUP;
	}
	return fd;
}

int
eal_fill_watch(int fd, enum eal_fill_mode mode, uintptr_t addr, size_t size,
		char *err, size_t len)
{
	struct uffdio_register reg = {
		.range = { .start = addr, .len = size },
		.mode = fill_kinds[mode].mode,
	};
	int ret;

	if (ioctl(fd, UFFDIO_REGISTER, &reg) < 0) {
		ret = -errno;
		snprintf(err, len,
				"cannot register %zu bytes at %#" PRIxPTR
				" with a userfaultfd: %s",
				size, addr, strerror(errno));
		return ret;
	}
	if ((reg.ioctls & fill_kinds[mode].ioctls) != fill_kinds[mode].ioctls) {
		snprintf(err, len,
				"the userfaultfd cannot fill the pages at "
				"%#" PRIxPTR " the way it needs",
				addr);
		return -ENOTSUP;
	}
	return 0;
}

void
eal_fill_unwatch(int fd, uintptr_t addr, size_t size)
{
	struct uffdio_range r = { .start = addr, .len = size };

	ioctl(fd, UFFDIO_UNREGISTER, &r);
}

int
eal_fill_next(int fd, uintptr_t *addrs, unsigned int n)
{
	struct uffd_msg msg[16];
	unsigned int k, got = 0;
	ssize_t r;

	r = read(fd, msg,
			RTE_MIN(n, (unsigned int)RTE_DIM(msg)) *
					sizeof(msg[0]));
	if (r < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -errno;
	for (k = 0; k < (size_t)r / sizeof(msg[0]); k++)
		if (msg[k].event == UFFD_EVENT_PAGEFAULT)
			addrs[got++] = (uintptr_t)msg[k].arg.pagefault.address;
	return (int)got;
}

int
eal_fill_copy(int fd, uintptr_t dst, const void *src, size_t size)
{
	struct uffdio_copy cp;
	int ret;

	/* EAGAIN with nothing copied: the mappings changed, try again. */
	do {
		memset(&cp, 0, sizeof(cp));
		cp.dst = dst;
		cp.src = (uint64_t)(uintptr_t)src;
		cp.len = size;
		cp.mode = UFFDIO_COPY_MODE_DONTWAKE;
		ret = ioctl(fd, UFFDIO_COPY, &cp);
	} while (ret < 0 && errno == EAGAIN && cp.copy <= 0);
	return ret < 0 ? -errno : 0;
}

int
eal_fill_map(int fd, uintptr_t addr, size_t size)
{
	struct uffdio_continue co;
	int ret;

	do {
		memset(&co, 0, sizeof(co));
		co.range.start = addr;
		co.range.len = size;
		co.mode = UFFDIO_CONTINUE_MODE_DONTWAKE;
		ret = ioctl(fd, UFFDIO_CONTINUE, &co);
	} while (ret < 0 && errno == EAGAIN && co.mapped <= 0);
	return ret < 0 ? -errno : 0;
}

void
eal_fill_wake(int fd, uintptr_t addr, size_t size)
{
	struct uffdio_range r = { .start = addr, .len = size };

	ioctl(fd, UFFDIO_WAKE, &r);
}
