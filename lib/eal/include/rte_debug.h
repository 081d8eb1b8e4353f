/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _RTE_DEBUG_H_
#define _RTE_DEBUG_H_

#endif /* _RTE_DEBUG_H_ */
