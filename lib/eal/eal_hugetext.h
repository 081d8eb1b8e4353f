/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _EAL_HUGETEXT_H_
#define _EAL_HUGETEXT_H_

#include <stddef.h>

#include "eal_options.h"

/*
 * Apply --huge-text (nothing if it was not given). Call before any thread
 * starts.
 *
 * @return 0, or -errno with one line in @p err: in enforce mode when a
 *   range could not get hugetlb pages, in any mode when
 *   --huge-text-libs names a library that is not loaded.
 */
int eal_hugetext_apply(
		const struct eal_options *opts, char *err, size_t err_len);

#endif /* _EAL_HUGETEXT_H_ */
