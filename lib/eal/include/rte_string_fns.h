/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _RTE_STRING_FNS_H_
#define _RTE_STRING_FNS_H_

/**
 * @file
 * Bounded string copies and splitting, with DPDK's names.
 */

#include <stddef.h>
#include <string.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Copy @p src into @p dst of @p size bytes, always NUL-terminated when
 * @p size is not 0 (BSD strlcpy).
 *
 * @param dst
 *   The destination buffer.
 * @param src
 *   The string to copy.
 * @param size
 *   Size of @p dst in bytes.
 * @return
 *   strlen(@p src): truncation happened if it is >= @p size.
 */
size_t rte_strlcpy(char *dst, const char *src, size_t size);

/**
 * Append @p src to the string in @p dst of @p size bytes, NUL-terminated
 * (BSD strlcat). If @p dst has no NUL within @p size bytes, nothing is
 * appended.
 *
 * @param dst
 *   The buffer holding the string to append to.
 * @param src
 *   The string to append.
 * @param size
 *   Size of @p dst in bytes.
 * @return
 *   The length the whole string would have: truncation happened if it is
 *   >= @p size.
 */
size_t rte_strlcat(char *dst, const char *src, size_t size);

/*
 * glibc declares strlcpy() and strlcat() from 2.38 on; before that (Debian
 * 12 has 2.36) the names map to ours.
 */
#if defined(__GLIBC__) && !__GLIBC_PREREQ(2, 38)
#define strlcpy(dst, src, size) rte_strlcpy(dst, src, size)
#define strlcat(dst, src, size) rte_strlcat(dst, src, size)
#endif

/**
 * Copy @p src into @p dst of @p dsize bytes, always NUL-terminated when
 * @p dsize is not 0, and say whether it was cut short.
 *
 * @param dst
 *   The destination buffer.
 * @param src
 *   The string to copy.
 * @param dsize
 *   Size of @p dst in bytes.
 * @return
 *   The length of the copy, or -E2BIG if @p src did not fit (then @p dst
 *   holds the truncated string) or @p dsize is 0.
 */
ssize_t rte_strscpy(char *dst, const char *src, size_t dsize);

/**
 * Split @p string in place at each @p delim, storing a pointer to each
 * piece in @p tokens. Pieces may be empty ("a,,b" gives 3); a trailing
 * delimiter does not start a piece.
 *
 * @param string
 *   The string; each delimiter used is overwritten with a NUL.
 * @param stringlen
 *   Look at most this many bytes of @p string.
 * @param tokens
 *   Receives the pieces.
 * @param maxtokens
 *   Size of @p tokens: splitting stops when it is full, and the last
 *   piece then holds the rest of the string.
 * @param delim
 *   The delimiter.
 * @return
 *   The number of pieces, or -1 with errno EINVAL if @p string or
 *   @p tokens is NULL or @p stringlen or @p maxtokens is negative.
 */
int rte_strsplit(char *string, int stringlen, char **tokens, int maxtokens,
		char delim);

#ifdef __cplusplus
}
#endif

#endif /* _RTE_STRING_FNS_H_ */
