/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _RTE_RANDOM_H_
#define _RTE_RANDOM_H_

#endif /* _RTE_RANDOM_H_ */
