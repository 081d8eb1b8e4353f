/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Pseudo-random numbers: xoshiro256** (Blackman and Vigna), one state per
 * thread, its four words filled by splitmix64 from a 64-bit seed.
 *
 * rte_srand() is process-wide in DPDK: seeding in the main thread makes
 * the workers' sequences repeatable. So the seed is kept with a
 * generation number; a thread whose state is of an older generation
 * reseeds itself on its next rte_rand() from (seed, lcore id). Threads
 * that are not lcores take ids after RTE_MAX_LCORE in the order they first
 * draw. Before any rte_srand() a thread seeds from getrandom(2).
 */

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <sys/random.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_per_lcore.h>
#include <rte_random.h>

struct rand_state {
	uint64_t s[4]; /* xoshiro256** state, never all zero */
	uint64_t generation; /* seed generation it was derived from */
	bool seeded; /* s[] is valid */
	unsigned int key; /* non-lcore thread's id, once given; 0: none */
};

/* The last rte_srand(), process-wide on purpose (see above). */
static struct {
	uint64_t seed; /* last value given to rte_srand() */
	uint64_t generation; /* rte_srand() calls so far; 0: never seeded */
	unsigned int next_thread_key; /* ids given to non-lcore threads */
} rand_seed;

static RTE_DEFINE_PER_LCORE(struct rand_state, rand_state);

static uint64_t
splitmix64_next(uint64_t *x)
{
	uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static void
rand_state_fill(struct rand_state *st, uint64_t seed)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(st->s); i++)
		st->s[i] = splitmix64_next(&seed);
	/* splitmix64 is a bijection of its counter: four zeros cannot
	 * follow each other, but keep the invariant explicit. */
	if ((st->s[0] | st->s[1] | st->s[2] | st->s[3]) == 0)
		st->s[0] = 1;
	st->seeded = true;
}

/* A seed for a thread that nobody seeded: the kernel's, else the clock. */
static uint64_t
rand_entropy(void)
{
	struct timespec ts;
	uint64_t v;

	if (getrandom(&v, sizeof(v), GRND_NONBLOCK) == sizeof(v))
		return v;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	v = (uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec;
	return v ^ (uintptr_t)&ts;
}

/*
 * The key that makes this thread's sequence differ from the others': its
 * lcore id, or for other threads an id after RTE_MAX_LCORE kept for the
 * thread's life (so that the same seed gives it the same sequence again).
 */
static uint64_t
rand_thread_key(struct rand_state *st)
{
	unsigned int id = rte_lcore_id();

	if (id < RTE_MAX_LCORE)
		return id;
	if (st->key == 0)
		st->key = RTE_MAX_LCORE +
				__atomic_fetch_add(&rand_seed.next_thread_key,
						1, __ATOMIC_RELAXED);
	return st->key;
}

static void
rand_state_update(struct rand_state *st)
{
	uint64_t gen = __atomic_load_n(&rand_seed.generation, __ATOMIC_ACQUIRE);
	uint64_t seed;

	if (st->seeded && st->generation == gen)
		return;
	st->generation = gen;
	if (gen == 0) {
		rand_state_fill(st, rand_entropy());
		return;
	}
	seed = __atomic_load_n(&rand_seed.seed, __ATOMIC_RELAXED);
	/* Spread the keys so that nearby seeds give unrelated threads. */
	rand_state_fill(st,
			seed ^ rand_thread_key(st) * UINT64_C(0xd1342543de82ef95));
}

void
rte_srand(uint64_t seedval)
{
	__atomic_store_n(&rand_seed.seed, seedval, __ATOMIC_RELAXED);
	__atomic_fetch_add(&rand_seed.generation, 1, __ATOMIC_RELEASE);
}

static inline uint64_t
rotl64(uint64_t x, unsigned int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t
rte_rand(void)
{
	struct rand_state *st = &RTE_PER_LCORE(rand_state);
	uint64_t *s = st->s;
	uint64_t result, t;

	rand_state_update(st);
	result = rotl64(s[1] * 5, 7) * 9;
	t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl64(s[3], 45);
	return result;
}

/*
 * Lemire's multiply-and-reject: the high half of x * bound is uniform
 * once the low half is outside the [0, 2^64 mod bound) sliver.
 */
uint64_t
rte_rand_max(uint64_t upper_bound)
{
	unsigned __int128 m;
	uint64_t threshold;

	if (upper_bound <= 1)
		return 0;
	m = (unsigned __int128)rte_rand() * upper_bound;
	if ((uint64_t)m < upper_bound) {
		threshold = -upper_bound % upper_bound;
		while ((uint64_t)m < threshold)
			m = (unsigned __int128)rte_rand() * upper_bound;
	}
	return (uint64_t)(m >> 64);
}

double
rte_drand(void)
{
	/* The top 53 bits fill a double's mantissa exactly. */
	return (double)(rte_rand() >> 11) * 0x1.0p-53;
}
