/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _TEST_SECCOMP_H_
#define _TEST_SECCOMP_H_

/*
 * A seccomp filter for tests (rtemem-test's children, the hugetext test
 * programs): mremap(MREMAP_FIXED) refused the way a kernel refuses it,
 * before anything moves, to see what rtemem leaves behind.
 */

#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#if defined(__x86_64__)
#define TEST_SECCOMP_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define TEST_SECCOMP_ARCH AUDIT_ARCH_AARCH64
#endif

#define TEST_SECCOMP_ARG_LO(n) (offsetof(struct seccomp_data, args) + (n)*8)
#define TEST_SECCOMP_ARG_HI(n) (TEST_SECCOMP_ARG_LO(n) + 4)

/*
 * From now on, mremap(MREMAP_FIXED) to @p from or above fails with
 * @p err (0: every destination); other mremap() calls (glibc's
 * realloc()) are left alone.
 *
 * @return 0, or -1 with errno set (ENOTSUP: not on this architecture).
 */
static inline int
test_refuse_mremap_fixed(uint64_t from, int err)
{
#ifdef TEST_SECCOMP_ARCH
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
				offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TEST_SECCOMP_ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
				offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_mremap, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, TEST_SECCOMP_ARG_LO(3)),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, MREMAP_FIXED, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		/* The destination (argument 4) at or above from: fail. */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, TEST_SECCOMP_ARG_HI(4)),
		BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, (uint32_t)(from >> 32), 3,
				0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)(from >> 32), 0,
				3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, TEST_SECCOMP_ARG_LO(4)),
		BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, (uint32_t)from, 0, 1),
		BPF_STMT(BPF_RET | BPF_K,
				SECCOMP_RET_ERRNO | ((uint32_t)err & 0xffff)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]),
		.filter = f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) == 0 ? 0 : -1;
#else
	(void)from;
	(void)err;
	errno = ENOTSUP;
	return -1;
#endif
}

#endif /* _TEST_SECCOMP_H_ */
