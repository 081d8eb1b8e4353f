/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _RTE_VERSION_H_
#define _RTE_VERSION_H_

/**
 * @file
 * The version of the rtemem library.
 */

#ifdef __cplusplus
extern "C" {
#endif

/** The first word of rte_version(): the library's name. */
#define RTE_VER_PREFIX "rtemem"

/** One number from the parts of a version, comparable with <, >. */
#define RTE_VERSION_NUM(a, b, c, d) ((a) << 24 | (b) << 16 | (c) << 8 | (d))

/**
 * The version of the library in use (the shared object's, not the
 * headers').
 *
 * @return a static string "rtemem X.Y.Z".
 */
const char *rte_version(void);

#ifdef __cplusplus
}
#endif

#endif /* _RTE_VERSION_H_ */
