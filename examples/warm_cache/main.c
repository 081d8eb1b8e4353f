/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * warm_cache: a key-value cache whose index and items live in memzones,
 * killed and restarted with --keep-memzones, next to a cold start that
 * rebuilds it.
 *
 *   warm_cache [EAL options] -- [--items N] [--value-size B]
 *
 * One binary in several processes. The launcher (the process the user
 * starts) never initializes the EAL: it runs this program again for
 * each start, with the user's EAL options plus --huge-unlink=never and,
 * for the warm starts, --keep-memzones:
 *
 *   cold             no kept memzones: build every item, then serve;
 *   warm after exit  the previous start exited cleanly;
 *   warm after kill  the previous start was updating items at random
 *                    when it was killed with SIGKILL;
 *   cold again       a start without --keep-memzones, which must build.
 *
 * Each start reports, from the launcher's fork(): rte_eal_init()
 * returned, the first hit (a lookup whose item checks), and all N items
 * verified (each read whole and its checksum compared), and how many
 * items a killed writer left half written (those are built again).
 * An item is updated under a sequence number, odd while it is written,
 * so a kill at any instant leaves it either whole or known to be torn.
 *
 * Only public rtemem headers are used, so the example also builds with
 * `cc main.c $(pkg-config --cflags --libs rtemem)`.
 */

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_memzone.h>

#define WC_MAGIC 0x5743414348450001ULL /* "WCACHE", format 1 */
#define WC_ROLE_ENV "WARM_CACHE_ROLE"
#define WC_FD_ENV "WARM_CACHE_FD"
#define WC_EMPTY UINT32_MAX

/* The cache's header memzone: what the other two hold. */
struct wc_meta {
	uint64_t magic; /* WC_MAGIC once built */
	uint64_t n_items;
	uint64_t value_size;
	uint64_t n_slots; /* index slots, a power of two */
};

/* An item: key, sequence (odd while written), checksum, value. */
struct wc_item {
	uint64_t key;
	uint32_t seq;
	uint32_t sum;
	uint64_t value[];
};

struct wc_cache {
	struct wc_meta *meta;
	uint32_t *index; /* slot -> item number, or WC_EMPTY */
	uint8_t *items;
	size_t item_len;
};

struct wc_report {
	uint64_t t_init; /* rte_eal_init() returned */
	uint64_t t_hit; /* first hit */
	uint64_t t_all; /* every item verified */
	uint64_t n_ok; /* items found whole */
	uint64_t n_torn; /* items a killed writer left half written */
	uint64_t n_built; /* items built by this start */
	int kept; /* 1: the memzones were kept */
};

static uint64_t
wc_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static struct wc_item *
wc_item(const struct wc_cache *c, uint64_t i)
{
	return (struct wc_item *)(void *)(c->items + i * c->item_len);
}

/* The value of key @p key, word by word; @p gen varies it per update. */
static uint64_t
wc_word(uint64_t key, uint32_t gen, size_t j)
{
	return (key * 0x9e3779b97f4a7c15ULL) ^ ((uint64_t)gen << 40) ^ j;
}

/*
 * A checksum at memory speed: four independent lanes of xor-multiply,
 * so that the multiplies overlap.
 */
static uint32_t
wc_sum(const uint64_t *v, size_t words)
{
	uint64_t l[4] = { 0x243f6a8885a308d3ULL, 0x13198a2e03707344ULL,
		0xa4093822299f31d0ULL, 0x082efa98ec4e6c89ULL };
	size_t j;
	unsigned int k;

	for (j = 0; j + 4 <= words; j += 4)
		for (k = 0; k < 4; k++)
			l[k] = (l[k] ^ v[j + k]) * 0x9e3779b97f4a7c15ULL;
	for (; j < words; j++)
		l[0] = (l[0] ^ v[j]) * 0xc2b2ae3d27d4eb4fULL;
	l[0] ^= (l[1] >> 21) ^ (l[2] >> 43) ^ (l[3] << 7);
	return (uint32_t)(l[0] ^ (l[0] >> 32));
}

static uint64_t
wc_slot(const struct wc_cache *c, uint64_t key)
{
	return (key * 0xff51afd7ed558ccdULL >> 17) & (c->meta->n_slots - 1);
}

/* Write item @p i (key @p key, generation @p gen) under its sequence. */
static void
wc_write(struct wc_cache *c, uint64_t i, uint64_t key, uint32_t gen)
{
	struct wc_item *it = wc_item(c, i);
	size_t words = c->meta->value_size / 8, j;

	__atomic_store_n(&it->seq, it->seq | 1, __ATOMIC_RELEASE);
	it->key = key;
	for (j = 0; j < words; j++)
		it->value[j] = wc_word(key, gen, j);
	it->sum = wc_sum(it->value, words);
	__atomic_store_n(&it->seq, (it->seq | 1) + 1, __ATOMIC_RELEASE);
}

/* Whether item @p i is whole: even sequence, checksum right. */
static int
wc_check(const struct wc_cache *c, uint64_t i)
{
	const struct wc_item *it = wc_item(c, i);

	return (it->seq & 1) == 0 &&
			it->sum == wc_sum(it->value, c->meta->value_size / 8);
}

/* Build item @p i and index it. */
static void
wc_build_one(struct wc_cache *c, uint64_t i)
{
	uint64_t s = wc_slot(c, i);

	wc_write(c, i, i, 0);
	while (c->index[s] != WC_EMPTY && c->index[s] != i)
		s = (s + 1) & (c->meta->n_slots - 1);
	c->index[s] = (uint32_t)i;
}

/* The item of @p key, or NULL. */
static struct wc_item *
wc_lookup(const struct wc_cache *c, uint64_t key)
{
	uint64_t s = wc_slot(c, key);

	for (; c->index[s] != WC_EMPTY; s = (s + 1) & (c->meta->n_slots - 1))
		if (wc_item(c, c->index[s])->key == key)
			return wc_item(c, c->index[s]);
	return NULL;
}

/* Find the memzones, or reserve them; @return 1 if kept, 0 new, -1. */
static int
wc_attach(struct wc_cache *c, uint64_t n, uint64_t vsize)
{
	const struct rte_memzone *m = rte_memzone_lookup("wc_meta");
	const struct rte_memzone *x = rte_memzone_lookup("wc_index");
	const struct rte_memzone *v = rte_memzone_lookup("wc_items");
	uint64_t slots = 1;
	int kept = m != NULL && x != NULL && v != NULL;

	while (slots < 2 * n)
		slots <<= 1;
	c->item_len = sizeof(struct wc_item) + vsize;
	if (!kept) {
		m = m != NULL ? m : rte_memzone_reserve("wc_meta", 64, 0, 0);
		x = x != NULL ? x :
				rte_memzone_reserve(
						"wc_index", slots * 4, 0, 0);
		v = v != NULL ? v :
				rte_memzone_reserve("wc_items", n * c->item_len,
						0, 0);
		if (m == NULL || x == NULL || v == NULL)
			return -1;
		memset(m->addr, 0, m->len);
	}
	c->meta = m->addr;
	c->index = x->addr;
	c->items = v->addr;
	if (kept && c->meta->magic == WC_MAGIC && c->meta->n_items == n &&
			c->meta->value_size == vsize)
		return 1;
	/* Not built, or built for other sizes: build anew. */
	c->meta->magic = 0;
	c->meta->n_items = n;
	c->meta->value_size = vsize;
	c->meta->n_slots = slots;
	return x->len >= slots * 4 && v->len >= n * c->item_len ? 0 : -1;
}

static void
wc_build(struct wc_cache *c, struct wc_report *r)
{
	uint64_t i;

	memset(c->index, 0xff, c->meta->n_slots * 4);
	for (i = 0; i < c->meta->n_items; i++)
		wc_build_one(c, i);
	__atomic_store_n(&c->meta->magic, WC_MAGIC, __ATOMIC_RELEASE);
	r->n_built = c->meta->n_items;
}

/* Serve a kept cache: first hit, then every item, rebuilding torn ones. */
static void
wc_verify(struct wc_cache *c, struct wc_report *r)
{
	uint64_t key = c->meta->n_items / 2, i;
	struct wc_item *it = wc_lookup(c, key);

	if (it != NULL &&
			wc_check(c,
					(uint64_t)((uint8_t *)it - c->items) /
							c->item_len))
		r->t_hit = wc_now_ns();
	for (i = 0; i < c->meta->n_items; i++) {
		if (wc_check(c, i)) {
			r->n_ok++;
		} else {
			r->n_torn++;
			wc_build_one(c, i);
			r->n_built++;
		}
	}
	r->t_all = wc_now_ns();
	if (r->t_hit == 0)
		r->t_hit = r->t_all;
}

/* Update items at random until killed. */
static void
wc_churn(struct wc_cache *c)
{
	uint64_t x = wc_now_ns() | 1, i;
	uint32_t gen = 1;

	for (;;) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		i = x % c->meta->n_items;
		wc_write(c, i, i, gen++);
	}
}

/* A start: EAL, cache, report to the launcher's pipe, then its end. */
static int
wc_start(int argc, char **argv, uint64_t n, uint64_t vsize)
{
	int churn = strcmp(getenv(WC_ROLE_ENV), "churn") == 0;
	struct wc_report r = { 0 };
	struct wc_cache c;
	int fd = atoi(getenv(WC_FD_ENV));
	int kept;

	if (rte_eal_init(argc, argv) < 0) {
		fprintf(stderr, "warm_cache: rte_eal_init: %s\n",
				rte_strerror(rte_errno));
		return 2;
	}
	r.t_init = wc_now_ns();
	if (strcmp(getenv(WC_ROLE_ENV), "clean") == 0) {
		if (write(fd, &r, sizeof(r)) != (ssize_t)sizeof(r))
			return 4;
		return rte_eal_cleanup() == 0 ? 0 : 5;
	}
	kept = wc_attach(&c, n, vsize);
	if (kept < 0) {
		fprintf(stderr, "warm_cache: cannot reserve the memzones: %s\n",
				rte_strerror(rte_errno));
		return 3;
	}
	r.kept = kept;
	if (kept) {
		wc_verify(&c, &r);
	} else {
		wc_build(&c, &r);
		r.t_hit = wc_now_ns();
		r.n_ok = n;
		r.t_all = r.t_hit;
	}
	if (write(fd, &r, sizeof(r)) != (ssize_t)sizeof(r))
		return 4;
	close(fd);
	if (churn)
		wc_churn(&c);
	return rte_eal_cleanup() == 0 ? 0 : 5;
}

/* ---- launcher ---- */

struct wc_launch {
	char *exe;
	char **eal; /* the user's EAL options */
	int n_eal;
	const char *n_s, *v_s;
};

/* What a start is run with. */
enum wc_mode {
	WC_CLEAN, /* the default mode: removes the files, keeps nothing */
	WC_NEVER, /* --huge-unlink=never: files kept, memzones not */
	WC_KEEP, /* and --keep-memzones */
};

/*
 * Run one start in @p mode; @p role "churn" makes it update items until
 * killed (after @p kill_ms). @return 0 with @p r filled.
 */
static int
wc_run(const struct wc_launch *l, const char *name, enum wc_mode mode,
		const char *role, unsigned int kill_ms, struct wc_report *r,
		uint64_t *t_fork)
{
	char *argv[64], fd_s[16];
	int p[2], n = 0, i, st;
	pid_t pid;

	argv[n++] = l->exe;
	for (i = 0; i < l->n_eal && n < 56; i++)
		argv[n++] = l->eal[i];
	if (mode != WC_CLEAN)
		argv[n++] = (char *)"--huge-unlink=never";
	if (mode == WC_KEEP)
		argv[n++] = (char *)"--keep-memzones";
	argv[n++] = (char *)"--";
	argv[n++] = (char *)"--items";
	argv[n++] = (char *)l->n_s;
	argv[n++] = (char *)"--value-size";
	argv[n++] = (char *)l->v_s;
	argv[n] = NULL;
	if (pipe(p) != 0)
		return -1;
	snprintf(fd_s, sizeof(fd_s), "%d", p[1]);
	setenv(WC_FD_ENV, fd_s, 1);
	setenv(WC_ROLE_ENV, role, 1);
	*t_fork = wc_now_ns();
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	close(p[1]);
	if (pid < 0 || read(p[0], r, sizeof(*r)) != (ssize_t)sizeof(*r)) {
		close(p[0]);
		if (pid > 0)
			waitpid(pid, &st, 0);
		fprintf(stderr, "warm_cache: the %s start failed\n", name);
		return -1;
	}
	close(p[0]);
	if (strcmp(role, "churn") == 0) {
		usleep(kill_ms * 1000);
		kill(pid, SIGKILL);
	}
	waitpid(pid, &st, 0);
	return 0;
}

static double
ms(uint64_t from, uint64_t to)
{
	return (double)(to - from) / 1e6;
}

static void
wc_row(const char *name, const struct wc_report *r, uint64_t t0)
{
	printf("%-20s %9.1f %13.1f %15.1f %12" PRIu64 " %7" PRIu64 " %7" PRIu64
	       "\n",
			name, ms(t0, r->t_init), ms(t0, r->t_hit),
			ms(t0, r->t_all), r->n_ok, r->n_torn, r->n_built);
}

static int
wc_launcher(struct wc_launch *l, uint64_t n, uint64_t vsize)
{
	static const struct {
		const char *name;
		enum wc_mode mode;
		const char *role;
		int want_kept;
	} starts[] = {
		/* Built and kept, for the next start. */
		{ "cold (build)", WC_KEEP, "serve", 0 },
		/* Then updates items until it is killed. */
		{ "warm after exit", WC_KEEP, "churn", 1 },
		{ "warm after SIGKILL", WC_KEEP, "serve", 1 },
		/* Without --keep-memzones: the table is discarded. */
		{ "cold again (build)", WC_NEVER, "serve", 0 },
	};
	struct wc_report r;
	uint64_t t0;
	unsigned int i;
	int bad = 0;

	printf("warm_cache: %" PRIu64 " items of %" PRIu64
	       " bytes (%.0f MB), ms from fork()\n\n",
			n, vsize, (double)n * (vsize + 16) / (1 << 20));
	printf("%-20s %9s %13s %15s %12s %7s %7s\n", "start", "init",
			"first hit", "all verified", "items whole", "torn",
			"built");
	/* A first start cold whatever an earlier run left. */
	if (wc_run(l, "clean-up", WC_CLEAN, "clean", 0, &r, &t0) != 0)
		return 1;
	for (i = 0; i < sizeof(starts) / sizeof(starts[0]); i++) {
		if (wc_run(l, starts[i].name, starts[i].mode, starts[i].role,
				    200, &r, &t0) != 0)
			return 1;
		wc_row(starts[i].name, &r, t0);
		if (r.kept != starts[i].want_kept || r.n_ok + r.n_torn != n) {
			printf("  unexpected: %s\n",
					r.kept ? "kept memzones found" :
						 "no kept memzone");
			bad = 1;
		}
	}
	/* Give the hugepages back. */
	if (wc_run(l, "clean-up", WC_CLEAN, "clean", 0, &r, &t0) != 0)
		return 1;
	printf("\ninit: rte_eal_init() returned; first hit: a lookup whose "
	       "item checks;\nall verified: every item read and checked "
	       "(a cold start builds them instead);\ntorn: items the killed "
	       "start was writing, built again.\n");
	return bad;
}

static int
wc_parse(int argc, char **argv, uint64_t *n, uint64_t *vsize)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (i + 1 < argc && strcmp(argv[i], "--items") == 0)
			*n = strtoull(argv[++i], NULL, 0);
		else if (i + 1 < argc && strcmp(argv[i], "--value-size") == 0)
			*vsize = strtoull(argv[++i], NULL, 0);
		else
			return -1;
	}
	if (*n == 0 || *n >= WC_EMPTY / 2 || *vsize == 0 || *vsize % 8 != 0)
		return -1;
	return 0;
}

int
main(int argc, char **argv)
{
	const char *role = getenv(WC_ROLE_ENV);
	uint64_t n = 100000, vsize = 1024;
	struct wc_launch l = { .exe = argv[0] };
	int i, dd = argc;
	char n_s[32], v_s[32];

	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0) {
			dd = i;
			break;
		}
	if (wc_parse(argc - dd, argv + dd, &n, &vsize) < 0) {
		fprintf(stderr,
				"Usage: %s [EAL options] -- [--items N] "
				"[--value-size B]\n"
				"N > 0 items (default 100000) of B bytes, a "
				"multiple of 8 (default 1024)\n",
				argv[0]);
		return 1;
	}
	if (role != NULL)
		return wc_start(dd, argv, n, vsize);
	l.eal = argv + 1;
	l.n_eal = dd - 1;
	snprintf(n_s, sizeof(n_s), "%" PRIu64, n);
	snprintf(v_s, sizeof(v_s), "%" PRIu64, vsize);
	l.n_s = n_s;
	l.v_s = v_s;
	return wc_launcher(&l, n, vsize);
}
