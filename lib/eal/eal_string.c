/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/* Bounded string copies, splitting, and size strings. */

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_string_fns.h>

size_t
rte_strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (size != 0) {
		size_t n = len < size ? len : size - 1;

		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}

size_t
rte_strlcat(char *dst, const char *src, size_t size)
{
	size_t dlen = strnlen(dst, size);

	/* No NUL within size: nothing can be appended (as BSD does). */
	if (dlen == size)
		return size + strlen(src);
	return dlen + rte_strlcpy(dst + dlen, src, size - dlen);
}

ssize_t
rte_strscpy(char *dst, const char *src, size_t dsize)
{
	size_t len;

	if (dsize == 0)
		return -E2BIG;
	len = rte_strlcpy(dst, src, dsize);
	if (len >= dsize)
		return -E2BIG;
	return (ssize_t)len;
}

int
rte_strsplit(char *string, int stringlen, char **tokens, int maxtokens,
		char delim)
{
	bool start = true;
	int n = 0;
	int i;

	if (string == NULL || tokens == NULL || stringlen < 0 ||
			maxtokens < 0) {
		errno = EINVAL;
		return -1;
	}
	for (i = 0; i < stringlen && string[i] != '\0' && n < maxtokens; i++) {
		if (start) {
			tokens[n++] = &string[i];
			start = false;
			/* The last slot takes the rest, delimiters and all. */
			if (n == maxtokens)
				break;
		}
		if (string[i] == delim) {
			string[i] = '\0';
			start = true;
		}
	}
	return n;
}

/* @return the shift of a size suffix letter, or 0 for anything else. */
static int
size_suffix_shift(char c)
{
	static const char suffixes[] = "kmgtpe";
	const char *p;

	if (c == '\0')
		return 0;
	p = strchr(suffixes, tolower((unsigned char)c));
	return p == NULL ? 0 : 10 * (int)(p - suffixes + 1);
}

uint64_t
rte_str_to_size(const char *str)
{
	unsigned long long v;
	char *end;
	int shift;

	if (str == NULL)
		return 0;
	while (isspace((unsigned char)*str))
		str++;
	/* strtoull() would negate it: "-1" is not a huge size. */
	if (*str == '-')
		return 0;
	errno = 0;
	v = strtoull(str, &end, 0);
	if (errno != 0 || end == str)
		return 0;
	if (*end == ' ')
		end++;
	shift = size_suffix_shift(*end);
	if (v > (UINT64_MAX >> shift))
		return 0;
	return (uint64_t)v << shift;
}
