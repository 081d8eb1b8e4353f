/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _BIGPROG_H_
#define _BIGPROG_H_

/* What gen_bigprog.py defines; see there. */

#include <stdint.h>

/* The byte at the start of each 4 KB page of big_ro and big_data. */
#define BIG_RO_BYTE(p) ((uint8_t)((p)*37 + 11) | 1)
#define BIG_DATA_BYTE(p) ((uint8_t)((p)*59 + 3) | 1)

extern uint32_t (*const big_fns[])(uint32_t);
extern const uint32_t big_order[];
extern const unsigned int big_nfn;
extern const uint32_t big_expect;
extern const uint8_t big_ro[];
extern uint8_t big_data[];
extern uint8_t big_bss[];
extern const unsigned long big_ro_len;
extern const unsigned long big_data_len;
extern const unsigned long big_bss_len;
/* Calls its argument from amid the functions: see gen_bigprog.py. */
extern void (*const big_call_fn)(void (*fn)(void));

static inline uint32_t
big_chain(void)
{
	uint32_t x = 1;
	unsigned int i;

	for (i = 0; i < big_nfn; i++)
		x = big_fns[big_order[i]](x);
	return x;
}

#endif /* _BIGPROG_H_ */
