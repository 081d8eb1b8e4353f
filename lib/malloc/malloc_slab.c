/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

/*
 * Slabs of small objects (malloc_slab.h). The owner's paths run inside
 * its cache (malloc_cache_enter()), so that a drain that claims the cache
 * may sweep its slabs; they never take the heap lock there, as a drainer
 * holding it waits for the cache.
 */

#include <errno.h>
#include <string.h>

#include <rte_common.h>
#include <rte_lcore.h>
#include <rte_log.h>

#include "eal_memseg_list.h"
#include "malloc_asan.h"
#include "malloc_cache.h"
#include "malloc_elem.h"
#include "malloc_heap.h"
#include "malloc_lcore.h"
#include "malloc_slab.h"
#include "malloc_slab_fast.h"
#include "malloc_state.h"
#include "malloc_trim.h"

int
malloc_lcore_track_list(struct rte_mem_config *mcfg, unsigned int l)
{
	struct malloc_state *st = malloc_state_of(mcfg);
	const struct rte_memseg_list *msl = &mcfg->memsegs[l];
	/* The spans from the one holding its start to its end's, included. */
	uint64_t spans = malloc_slab_span((uintptr_t)msl->base_va,
					 RTE_PTR_ADD(msl->base_va, msl->len)) +
			1;
	uint32_t words = (uint32_t)((spans + MALLOC_SLAB_SPANS_PER_WORD - 1) /
			MALLOC_SLAB_SPANS_PER_WORD);
	uint64_t off;

	if (st->slab_map_words[l] >= words)
		return 0;
	if (eal_mcfg_area_alloc(mcfg, words * sizeof(uint64_t), &off) < 0)
		return -ENOSPC;
	st->slab_map_off[l] = off;
	st->slab_map_words[l] = words;
	return 0;
}

/* The marks of list @p l. */
static uint64_t *
slab_map(const struct rte_mem_config *mcfg, unsigned int l)
{
	return eal_mcfg_at(mcfg, malloc_state_of(mcfg)->slab_map_off[l]);
}

/* The slab marked at @p ptr, not checked further, or NULL. */
static inline struct malloc_slab *
slab_at(const struct rte_mem_config *mcfg, const void *ptr)
{
	const struct malloc_state *st = malloc_state_of(mcfg);
	unsigned int l;

	for (l = 0; l < mcfg->n_lists; l++) {
		const struct rte_memseg_list *msl = &mcfg->memsegs[l];
		uintptr_t off = (uintptr_t)ptr - (uintptr_t)msl->base_va;
		unsigned int kind;

		if (msl->base_va == NULL || off >= msl->len)
			continue;
		if (st->slab_map_off[l] == 0)
			return NULL;
		kind = malloc_slab_kind(slab_map(mcfg, l),
				malloc_slab_span((uintptr_t)msl->base_va, ptr));
		return kind == MALLOC_SLAB_KIND_NONE ?
				NULL :
				malloc_slab_floor(ptr, kind);
	}
	return NULL;
}

struct malloc_slab *
malloc_slab_of(const struct rte_mem_config *mcfg, const void *ptr, bool *live)
{
	struct malloc_slab *s = slab_at(mcfg, ptr);

	if (s != NULL)
		*live = malloc_slab_obj_idx(s, ptr) != 0;
	return s;
}

/* The slab busy element @p e is, or NULL. */
static inline const struct malloc_slab *
slab_of_elem(const struct rte_mem_config *mcfg, const struct malloc_elem *e)
{
	const void *data = RTE_PTR_ADD(e, MALLOC_ELEM_HEADER_LEN);

	return slab_at(mcfg, data) == data ? data : NULL;
}

bool
malloc_lcore_idle_slab(
		const struct rte_mem_config *mcfg, const struct malloc_elem *e)
{
	const struct malloc_slab *s = slab_of_elem(mcfg, e);

	return s != NULL && __atomic_load_n(&s->live, __ATOMIC_RELAXED) == 0;
}

void
malloc_lcore_dump_elem(const struct rte_mem_config *mcfg,
		const struct malloc_elem *e, FILE *f)
{
	const struct malloc_slab *s = slab_of_elem(mcfg, e);

	if (s == NULL)
		return;
	fprintf(f, "      slab of lcore %u: %u objects of %zu bytes, %u live\n",
			s->owner, s->n_objs - s->first, malloc_slab_obj_size(s),
			__atomic_load_n(&s->live, __ATOMIC_RELAXED));
}

/* Put slab @p s at the head of @p list. */
static void
slab_push(struct malloc_slab **list, struct malloc_slab *s)
{
	s->prev = NULL;
	s->next = *list;
	if (*list != NULL)
		(*list)->prev = s;
	*list = s;
}

static void
slab_unlink(struct malloc_slab **list, struct malloc_slab *s)
{
	if (s->prev != NULL)
		s->prev->next = s->next;
	else
		*list = s->next;
	if (s->next != NULL)
		s->next->prev = s->prev;
	s->prev = s->next = NULL;
}

/* The idle list of cache @p c for slabs of kind @p kind. */
static inline struct malloc_slab **
slab_idle_list(struct malloc_cache *c, enum malloc_slab_kind kind)
{
	return &c->idle[kind - MALLOC_SLAB_KIND_SMALL];
}

/* The list of cache @p c that @p s is on. */
static inline struct malloc_slab **
slab_list(struct malloc_cache *c, const struct malloc_slab *s)
{
	if (s->idle)
		return slab_idle_list(c, malloc_slab_kind_of(s->cls));
	return s->full ? &c->full[s->cls] : &c->slabs[s->cls];
}

/* State bytes read eight at a time, through a type that may alias them. */
typedef uint64_t __attribute__((may_alias)) slab_states_word;

#define SLAB_STATES_ONES UINT64_C(0x0101010101010101)
#define SLAB_STATES_HIGH (SLAB_STATES_ONES << 7)

/* Chain object @p i of @p s in front of *@p head. */
static inline void
slab_chain(struct malloc_slab *s, uint32_t i, void **head)
{
	void *obj = malloc_slab_obj(s, i);

	malloc_slab_set_link(obj, *head);
	*head = obj;
}

/*
 * Mark free and chain onto @p s's free chain @p n of the objects other
 * threads marked REMOTE, reading the states eight at a time. The
 * threads that freed them wrote nothing into them: a chain through the
 * objects moved each object's line to the freeing CPU and back, which
 * costs most where the two CPUs share no cache. @return how many.
 */
static uint32_t
slab_take_remote(struct malloc_slab *s, uint32_t n)
{
	const uint64_t remote = SLAB_STATES_ONES * MALLOC_SLAB_OBJ_REMOTE;
	slab_states_word *words = (slab_states_word *)s->state;
	uint32_t i, found = 0;
	void *head = s->local;

	RTE_BUILD_BUG_ON(offsetof(struct malloc_slab, state) % 8 != 0);
	/* States come in words: slab_slots() is a multiple of 8. */
	for (i = s->first & ~7u; i < s->n_objs && found < n; i += 8) {
		uint64_t x = __atomic_load_n(&words[i / 8], __ATOMIC_ACQUIRE) ^
				remote;
		/* The high bit of each byte of x that is zero: REMOTE. */
		uint64_t m = ~(((x & ~SLAB_STATES_HIGH) + ~SLAB_STATES_HIGH) |
					     x) &
				SLAB_STATES_HIGH;
		uint32_t j;

		/*
		 * Eight REMOTE states at once: no other thread can change
		 * one (a free only changes a busy state).
		 */
		if (m == SLAB_STATES_HIGH && n - found >= 8) {
			__atomic_store_n(&words[i / 8],
					SLAB_STATES_ONES * MALLOC_SLAB_OBJ_FREE,
					__ATOMIC_RELAXED);
			for (j = i; j < i + 8; j++)
				slab_chain(s, j, &head);
			found += 8;
			continue;
		}
		for (; m != 0 && found < n; m &= m - 1) {
			j = i + ((uint32_t)__builtin_ctzll(m) >> 3);
			__atomic_store_n(&s->state[j],
					(uint8_t)MALLOC_SLAB_OBJ_FREE,
					__ATOMIC_RELAXED);
			slab_chain(s, j, &head);
			found++;
		}
	}
	s->local = head;
	return found;
}

/*
 * Move the objects other threads freed and counted on slab @p s to its
 * owner's chain. @return how many.
 */
static uint32_t
slab_collect(struct malloc_slab *s)
{
	/* After the owner's flag: see slab_hand_over(). */
	uint32_t n = __atomic_load_n(&s->remote_n, __ATOMIC_SEQ_CST);

	if (n == 0)
		return 0;
	n = slab_take_remote(s, n);
	__atomic_fetch_sub(&s->remote_n, n, __ATOMIC_RELAXED);
	s->live -= n;
	return n;
}

/* Move slab @p s, which has free objects again, off the full list. */
static void
slab_unfull(struct malloc_cache *c, struct malloc_slab *s)
{
	slab_unlink(&c->full[s->cls], s);
	s->full = 0;
	slab_push(&c->slabs[s->cls], s);
}

/* Put empty slab @p s of cache @p c, off its list, on its kind's idle list. */
static void
slab_idle_push(struct malloc_cache *c, struct malloc_slab *s)
{
	s->idle = 1;
	slab_push(slab_idle_list(c, malloc_slab_kind_of(s->cls)), s);
}

/*
 * Collect what other threads freed onto every slab of cache @p c. Empty
 * slabs, but for each class's current one, go idle, for any class of
 * their kind; none goes back: their heap's lock cannot be taken here, so
 * they wait for a drain.
 */
static void
slab_collect_all(struct malloc_cache *c)
{
	struct malloc_slab *s, *next;
	bool empty = false;
	int cls;

	for (cls = 0; cls < MALLOC_SLAB_CLASSES; cls++) {
		for (s = c->slabs[cls]; s != NULL; s = s->next)
			slab_collect(s);
		for (s = c->full[cls]; s != NULL; s = next) {
			next = s->next;
			if (slab_collect(s) != 0)
				slab_unfull(c, s);
		}
		for (s = c->slabs[cls]; s != NULL; s = next) {
			next = s->next;
			empty |= s->live == 0;
			if (s->live == 0 && s != c->slabs[cls]) {
				slab_unlink(&c->slabs[cls], s);
				slab_idle_push(c, s);
			}
		}
	}
	if (empty)
		__atomic_store_n(&c->slab_idle, 1, __ATOMIC_RELAXED);
}

/*
 * An object of class @p cls from the slabs cache @p c holds: the current
 * slab's, or the next one's; full slabs go off the list on the way. Once
 * they are all full, objects other threads freed are collected, if any:
 * a thread allocating more than it frees never walks its full slabs.
 */
static void *
slab_take_any(struct malloc_cache *c, int cls, bool *dirty)
{
	struct malloc_slab *s;
	bool collected = false;
	void *obj;

	for (;;) {
		while ((s = c->slabs[cls]) != NULL) {
			obj = malloc_slab_take(s, dirty);
			if (obj != NULL)
				return obj;
			slab_unlink(&c->slabs[cls], s);
			s->full = 1;
			slab_push(&c->full[cls], s);
		}
		if (collected ||
				!__atomic_exchange_n(&c->slab_remote, 0,
						__ATOMIC_SEQ_CST))
			return NULL;
		slab_collect_all(c);
		collected = true;
	}
}

/*
 * The object slots of a slab of class @p cls: its length over the object
 * size, each with a state byte, though its element header and metadata
 * take the first ones.
 */
static inline uint32_t
slab_slots(int cls)
{
	return (uint32_t)1 << (malloc_slab_len_shift(cls) - 6 -
			       (unsigned int)cls);
}

/* The first object of a slab of class @p cls: the slot after the metadata. */
static inline uint32_t
slab_first(int cls)
{
	unsigned int shift = 6 + (unsigned int)cls;
	size_t meta = MALLOC_ELEM_HEADER_LEN + sizeof(struct malloc_slab) +
			slab_slots(cls);

	return (uint32_t)((meta + (1u << shift) - 1) >> shift);
}

/* The objects a slab of class @p cls holds. */
static inline uint32_t
slab_objs(int cls)
{
	return slab_slots(cls) - slab_first(cls);
}

/* Slab units (MALLOC_SLAB_LEN) slab @p s counts for in its cache. */
static inline uint32_t
slab_units(const struct malloc_slab *s)
{
	return (uint32_t)(malloc_slab_len(s) >> MALLOC_SLAB_SHIFT);
}

/* Lay out a slab of class @p cls at @p data for @p lcore. */
static struct malloc_slab *
slab_init(void *data, int cls, unsigned int lcore, unsigned int heap_idx,
		bool dirty)
{
	struct malloc_slab *s = data;
	uint8_t shift = (uint8_t)(6 + cls);

	/* An idle slab of another class may have had objects there. */
	malloc_asan_unpoison(s,
			((size_t)slab_first(cls) << shift) -
					MALLOC_ELEM_HEADER_LEN);
	/* Zero states say what is not an object, or never handed out. */
	memset(s, 0, sizeof(*s) + slab_slots(cls));
	s->magic = MALLOC_SLAB_MAGIC ^ (uintptr_t)s;
	s->owner = lcore;
	s->shift = shift;
	s->cls = (uint8_t)cls;
	s->heap_idx = (uint8_t)heap_idx;
	s->clean = !dirty;
	s->len_shift = (uint8_t)malloc_slab_len_shift(cls);
	s->first = slab_first(cls);
	s->n_objs = slab_slots(cls);
	s->bump = s->first;
	malloc_asan_poison(malloc_slab_obj(s, s->first),
			(size_t)(s->n_objs - s->first) << shift);
	return s;
}

static void
slab_set_mark(const struct rte_mem_config *mcfg, const struct malloc_slab *s,
		bool on)
{
	/* A slab is an element: its header names its list. */
	unsigned int l = malloc_elem_from_data(s)->t.msl_idx;
	uintptr_t base = (uintptr_t)mcfg->memsegs[l].base_va;
	uint64_t span = malloc_slab_span(base, s), end = span + slab_units(s);
	uint64_t kind = malloc_slab_kind_of(s->cls), *map = slab_map(mcfg, l);

	/* Every span: a pointer anywhere in the slab finds its start. */
	for (; span < end; span++) {
		uint64_t *w = &map[span / MALLOC_SLAB_SPANS_PER_WORD];
		unsigned int at = 2 * (span % MALLOC_SLAB_SPANS_PER_WORD);

		if (on)
			__atomic_fetch_or(w, kind << at, __ATOMIC_RELEASE);
		else
			__atomic_fetch_and(w, ~(UINT64_C(3) << at),
					__ATOMIC_RELEASE);
	}
}

/*
 * Let the owner's frees look for slabs first on the memseg list of
 * @p s, its newest (malloc_slab_free_owned()).
 */
static void
slab_note_list(const struct rte_mem_config *mcfg, struct malloc_cache *c,
		const struct malloc_slab *s)
{
	unsigned int l = malloc_elem_from_data(s)->t.msl_idx;
	const struct rte_memseg_list *msl = &mcfg->memsegs[l];

	c->slab_msl_base = (uintptr_t)msl->base_va;
	c->slab_msl_len = msl->len;
	c->slab_map_off = malloc_state_of(mcfg)->slab_map_off[l];
}

/* Slabs of a list slab_take_idle() looks through at most. */
#define SLAB_IDLE_LOOK 8

/*
 * An empty slab on the list of another class @p other of cache @p c,
 * not that class's current one, among the first few, taken off the
 * list; or NULL. The owner's inline free leaves such slabs where they
 * empty (malloc_slab_keeps_empty()).
 */
static struct malloc_slab *
slab_take_emptied(struct malloc_cache *c, int other)
{
	struct malloc_slab *s = c->slabs[other];
	unsigned int k;

	for (k = 0; s != NULL && k < SLAB_IDLE_LOOK; k++) {
		s = s->next;
		if (s != NULL && s->live == 0) {
			slab_unlink(&c->slabs[other], s);
			return s;
		}
	}
	return NULL;
}

/*
 * An object of class @p cls from an idle slab of its kind in cache
 * @p c, the caller's, which it has entered, or NULL: a slab of the class
 * among the first few idle ones, else the newest, else an empty one on
 * another class's list, laid out anew, its objects counted dirty.
 */
static void *
slab_take_idle(const struct rte_mem_config *mcfg, struct malloc_cache *c,
		int cls, bool *dirty)
{
	enum malloc_slab_kind kind = malloc_slab_kind_of(cls);
	struct malloc_slab **idle = slab_idle_list(c, kind), *s = *idle;
	int other;
	unsigned int k;
	uint32_t used;

	/* What a layout wrote is counted in 32 bits. */
	RTE_BUILD_BUG_ON(MALLOC_SLAB_LARGE_SHIFT >= 32);
	for (k = 0; s != NULL && s->cls != cls && k < SLAB_IDLE_LOOK; k++)
		s = s->next;
	if (s == NULL || s->cls != cls)
		s = *idle;
	if (s != NULL)
		slab_unlink(idle, s);
	for (other = 0; s == NULL && other < MALLOC_SLAB_CLASSES; other++)
		if (other != cls && malloc_slab_kind_of(other) == kind)
			s = slab_take_emptied(c, other);
	if (s == NULL)
		return NULL;
	if (s->cls != cls) {
		used = RTE_MAX(s->used_before,
				(uint32_t)RTE_PTR_DIFF(
						malloc_slab_obj(s, s->bump),
						s));
		c->slab_n[s->cls]--;
		c->slab_n[cls]++;
		s = slab_init(s, cls, s->owner, s->heap_idx, true);
		s->used_before = used;
	}
	s->idle = 0;
	slab_push(&c->slabs[cls], s);
	slab_note_list(mcfg, c, s);
	return malloc_slab_take(s, dirty);
}

/* A new slab of class @p cls for cache @p c, not listed yet, or NULL. */
static struct malloc_slab *
slab_new(struct rte_mem_config *mcfg, struct malloc_cache *c,
		unsigned int lcore, int cls)
{
	struct malloc_state *st = malloc_state_of(mcfg);
	struct malloc_heap *heap = malloc_cache_heap(st, c, lcore);
	/*
	 * The element, header included, is aligned to its length: slabs
	 * then tile the memory, from the start of a page on. With the data
	 * aligned, the header took the end of the length below, and every
	 * two slabs left a gap of almost one between them.
	 */
	size_t len = (size_t)1 << malloc_slab_len_shift(cls);
	struct malloc_req req = {
		.user_size = len - MALLOC_ELEM_HEADER_LEN,
		.size = len - MALLOC_ELEM_HEADER_LEN,
		.align = len,
		.align_off = MALLOC_ELEM_HEADER_LEN,
	};
	bool dirty = false;
	void *data;

	if (heap == NULL)
		return NULL;
	data = malloc_heap_alloc(mcfg, heap, &req, &dirty);
	if (data == NULL)
		return NULL;
	return slab_init(data, cls, lcore, malloc_heap_idx(st, heap), dirty);
}

/*
 * Give empty slab @p s, off every list, back to heap @p heap, whose lock
 * the caller holds. Only what was handed out and the metadata may be
 * non-zero: the heap clears no more than that.
 */
static void
slab_release_locked(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		struct malloc_slab *s)
{
	uintptr_t used = RTE_MAX((uintptr_t)malloc_slab_obj(s, s->bump),
			(uintptr_t)s + s->used_before);

	slab_set_mark(mcfg, s, false);
	malloc_asan_unpoison(s, malloc_slab_len(s) - MALLOC_ELEM_HEADER_LEN);
	malloc_heap_free_used(mcfg, heap, s, used);
}

static void
slab_release(struct rte_mem_config *mcfg, struct malloc_slab *s)
{
	struct malloc_heap *heap = &malloc_state_of(mcfg)->heaps[s->heap_idx];

	malloc_heap_lock(heap);
	slab_release_locked(mcfg, heap, s);
	malloc_heap_unlock(heap);
}

void *
malloc_slab_alloc(struct rte_mem_config *mcfg, size_t size, int cls, bool zero)
{
	struct malloc_state *st = malloc_state_of(mcfg);
	unsigned int lcore = malloc_cache_lcore();
	struct malloc_cache *c;
	struct malloc_slab *s;
	bool dirty = false;
	void *obj;

	if (lcore >= RTE_MAX_LCORE || !st->slabs_on)
		return NULL;
	c = &st->caches[lcore];
	if (!malloc_cache_enter(c))
		return NULL;
	obj = slab_take_any(c, cls, &dirty);
	if (obj == NULL)
		obj = slab_take_idle(mcfg, c, cls, &dirty);
	malloc_cache_leave(c);
	if (obj == NULL) {
		/* The heap's lock is taken out of the cache. */
		s = slab_new(mcfg, c, lcore, cls);
		if (s == NULL)
			return NULL;
		if (!malloc_cache_enter(c)) {
			slab_release(mcfg, s);
			return NULL;
		}
		slab_push(&c->slabs[cls], s);
		c->slab_n[cls]++;
		c->slab_total += slab_units(s);
		slab_set_mark(mcfg, s, true);
		slab_note_list(mcfg, c, s);
		obj = malloc_slab_take(s, &dirty);
		malloc_cache_leave(c);
	}
	return malloc_slab_hand_out(c, obj, size, zero, dirty);
}

/*
 * @return true if busy element @p e may have a free neighbour. Only e's
 * pages are read: a neighbour's header elsewhere may be unmapped at any
 * time, so it counts as free. Not instrumented, like
 * malloc_cache_elem_fits().
 */
static bool __rte_no_asan
slab_near_free(const struct rte_mem_config *mcfg, const struct malloc_elem *e)
{
	uintptr_t page = ~(uintptr_t)(mcfg->memsegs[e->t.msl_idx].page_sz - 1);
	uintptr_t ea = (uintptr_t)e, end = ea + e->size;
	const struct malloc_elem *p = __atomic_load_n(
			&e->prev, __ATOMIC_RELAXED);
	const struct malloc_elem *n = __atomic_load_n(
			&e->next, __ATOMIC_RELAXED);

	if ((p != NULL && (((uintptr_t)p ^ ea) & page) != 0) ||
			(n != NULL && (((uintptr_t)n ^ (end - 1)) & page) != 0))
		return true;
	return (p != NULL &&
			       __atomic_load_n(&p->t.state, __ATOMIC_RELAXED) ==
					       ELEM_FREE) ||
			(n != NULL &&
					__atomic_load_n(&n->t.state,
							__ATOMIC_RELAXED) ==
							ELEM_FREE);
}

/* @return true if empty slab @p s of cache @p c should go back now. */
static bool
slab_give_back(struct rte_mem_config *mcfg, const struct malloc_cache *c,
		const struct malloc_slab *s)
{
	const struct malloc_elem *e = malloc_elem_from_data(s);
	const struct malloc_heap *heap =
			&malloc_state_of(mcfg)->heaps[s->heap_idx];

	/*
	 * On a page that stays mapped anyway (-m, legacy memory, pages
	 * kept), empty slabs stay too while the cache owns at most
	 * slab_keep slabs: a thread that frees and allocates many objects
	 * in turn then neither makes slabs nor clears them. A drain still
	 * takes them, for an allocation that finds no room.
	 */
	if (!malloc_heap_page_may_go(mcfg, heap, e))
		return c->slab_total > malloc_state_of(mcfg)->slab_keep;
	/*
	 * Else only the class's current slab stays, so that allocating and
	 * freeing one object in turn does not make and drop a slab each
	 * time; not next to free memory, whose pages it could keep.
	 */
	return c->slabs[s->cls] != s || slab_near_free(mcfg, e);
}

/* Take empty slab @p s off cache @p c's @p list onto chain *@p release. */
static void
slab_drop(struct malloc_cache *c, struct malloc_slab **list,
		struct malloc_slab *s, struct malloc_slab **release)
{
	slab_unlink(list, s);
	c->slab_n[s->cls]--;
	c->slab_total -= slab_units(s);
	s->next = *release;
	*release = s;
}

/*
 * Empty slab @p s of cache @p c goes back to the heap (onto chain
 * *@p release) or stays: its class's current slab where it is, another
 * on the idle list of its kind, for any class of the kind.
 */
static void
slab_emptied(struct rte_mem_config *mcfg, struct malloc_cache *c,
		struct malloc_slab *s, struct malloc_slab **release)
{
	enum malloc_slab_kind kind = malloc_slab_kind_of(s->cls);
	struct malloc_slab **other = slab_idle_list(c,
			kind == MALLOC_SLAB_KIND_SMALL ?
					MALLOC_SLAB_KIND_LARGE :
					MALLOC_SLAB_KIND_SMALL);

	/*
	 * Idle slabs of the other kind are of no use to this one's classes:
	 * over the budget, they go first (a table of 4 KB objects left 667
	 * small ones, and tables of 16 and 64 KB objects after it cleared
	 * and carved their large slabs again every round).
	 */
	while (*other != NULL &&
			c->slab_total > malloc_state_of(mcfg)->slab_keep)
		slab_drop(c, other, *other, release);
	if (slab_give_back(mcfg, c, s)) {
		slab_drop(c, slab_list(c, s), s, release);
		return;
	}
	if (c->slabs[s->cls] != s) {
		slab_unlink(&c->slabs[s->cls], s);
		slab_idle_push(c, s);
	}
	/* A drain gives it back (malloc_slab_sweep()). */
	__atomic_store_n(&c->slab_idle, 1, __ATOMIC_RELAXED);
}

/*
 * Free object @p i of @p s by its owner, inside cache @p c, putting the
 * slabs that go back to the heap on chain *@p release (linked by next).
 */
static void
slab_free_local(struct rte_mem_config *mcfg, struct malloc_cache *c,
		struct malloc_slab *s, uint32_t i, struct malloc_slab **release)
{
	struct malloc_slab *head = c->slabs[s->cls];

	malloc_slab_put(s, i);
	if (s->full) {
		/*
		 * s becomes the class's current slab. The last one, emptied
		 * as current, is only idle now: a table freed in order
		 * leaves every slab but the last idle, for any class.
		 */
		slab_unfull(c, s);
		if (head != NULL && head->live == 0)
			slab_emptied(mcfg, c, head, release);
	}
	if (s->live == 0)
		slab_emptied(mcfg, c, s, release);
}

/*
 * Count @p n objects of @p s, freed and marked REMOTE by threads that do
 * not own it, for its owner to collect, and tell the owner.
 *
 * @return true if that may have been the slab's last live object: a
 *   guess, as the owner counts without a lock. Once counted, s may be
 *   gone: nothing of it is read after.
 */
static bool
slab_hand_over(struct malloc_state *st, struct malloc_slab *s, uint32_t n)
{
	uint32_t *told = &st->caches[s->owner].slab_remote;
	uint32_t live = __atomic_load_n(&s->live, __ATOMIC_RELAXED);
	bool last;

	/*
	 * In one order with the owner's exchange of its flag and its read
	 * of the count after it (slab_take_any(), malloc_slab_sweep()): the
	 * owner finds the count, or the flag set again. The owner's line is
	 * written only when the flag is clear.
	 */
	last = __atomic_add_fetch(&s->remote_n, n, __ATOMIC_SEQ_CST) == live;
	/* A drain claims the cache and collects: see malloc_cache_take(). */
	if (__atomic_load_n(told, __ATOMIC_SEQ_CST) == 0)
		__atomic_store_n(told, 1, __ATOMIC_SEQ_CST);
	return last;
}

/*
 * Other threads' frees may have left a slab of @p heap without a live
 * object, and its owner may not come back for it. Heaps that keep pages
 * leave it to the trim thread, as they leave a free page: its owner may
 * take objects from it again before (a drain for each such slab cost a
 * thread fence, and the slab's clearing and carving when made again).
 * Else a drain gives its memory back to the heap now.
 */
static void
slab_left_empty(struct rte_mem_config *mcfg, struct malloc_heap *heap)
{
	if (malloc_page_return(mcfg)->hold_remote_frees) {
		malloc_trim_arm(mcfg, heap);
		return;
	}
	malloc_heap_lock(heap);
	malloc_queue_drain(mcfg, heap);
	malloc_heap_unlock(heap);
}

/*
 * Hand the objects cache @p c holds back over to their slab. The caller
 * is in c, or has claimed it. @return as slab_hand_over().
 */
static bool
slab_held_flush(struct malloc_state *st, struct malloc_cache *c)
{
	struct malloc_slab *s = c->held_slab;
	uint32_t n = __atomic_load_n(&c->held_n, __ATOMIC_ACQUIRE);
	bool last = false;

	/* An owner that died before counting its first left s stale. */
	if (s != NULL && n != 0)
		last = slab_hand_over(st, s, n);
	__atomic_store_n(&c->held_n, 0, __ATOMIC_RELEASE);
	c->held_slab = NULL;
	return last;
}

/*
 * Objects of @p s a freeing lcore holds back at most: MALLOC_SLAB_HELD,
 * or half the slab, so that a slab of large objects (15 of 4 KB) is not
 * held out of its owner's reach whole.
 */
static inline uint32_t
slab_held_max(const struct malloc_slab *s)
{
	uint32_t half = (s->n_objs - s->first) / 2;

	return half == 0 ? 1 : RTE_MIN(half, (uint32_t)MALLOC_SLAB_HELD);
}

/*
 * Count one more object of @p s, marked REMOTE, in cache @p c, the
 * caller's, which it has entered: objects of one slab are counted
 * together, once slab_held_max() wait or the next one is another slab's.
 * @return as slab_hand_over(), for the objects counted; *@p started is
 *   set if this object started a count where there was none.
 */
static bool
slab_hold(struct malloc_state *st, struct malloc_cache *c,
		struct malloc_slab *s, bool *started)
{
	bool last = false;

	*started = c->held_slab == NULL;
	if (c->held_slab != s) {
		last = slab_held_flush(st, c);
		c->held_slab = s;
	}
	__atomic_store_n(&c->held_n, c->held_n + 1, __ATOMIC_RELEASE);
	if (c->held_n >= slab_held_max(s))
		last |= slab_held_flush(st, c);
	return last;
}

bool
malloc_slab_free_other(
		struct rte_mem_config *mcfg, struct malloc_slab *s, uint32_t i)
{
	struct malloc_state *st = malloc_state_of(mcfg);
	unsigned int lcore = malloc_cache_lcore(), heap_idx = s->heap_idx;
	uint8_t busy = MALLOC_SLAB_OBJ_BUSY;
	struct malloc_cache *c = NULL;
	bool last, started = false;

	/*
	 * Before the owner may see the mark: then it may hand the object
	 * out again. The object is live, or already free and poisoned.
	 */
	malloc_asan_poison(malloc_slab_obj(s, i), malloc_slab_obj_size(s));
	/* Two threads freeing one object: only one finds it busy. */
	if (!__atomic_compare_exchange_n(&s->state[i], &busy,
			    (uint8_t)MALLOC_SLAB_OBJ_REMOTE, false,
			    __ATOMIC_RELEASE, __ATOMIC_RELAXED))
		return false;
	if (lcore < RTE_MAX_LCORE &&
			malloc_page_return(mcfg)->hold_remote_frees &&
			malloc_cache_heap_idx(&st->caches[lcore]) ==
					(int32_t)heap_idx)
		c = &st->caches[lcore];
	if (c != NULL && malloc_cache_enter(c)) {
		last = slab_hold(st, c, s, &started);
		malloc_cache_leave(c);
	} else {
		last = slab_hand_over(st, s, 1);
	}
	/*
	 * If this lcore goes idle, the trim thread hands its count over:
	 * told once a count starts where there was none (a trim that
	 * drains the caches marks the heap unkept first).
	 */
	if (last)
		slab_left_empty(mcfg, &st->heaps[heap_idx]);
	else if (started)
		malloc_trim_arm(mcfg, &st->heaps[heap_idx]);
	return true;
}

enum malloc_slab_verdict
malloc_slab_free(struct rte_mem_config *mcfg, void *ptr)
{
	struct malloc_state *st = malloc_state_of(mcfg);
	struct malloc_slab *s = slab_at(mcfg, ptr);
	unsigned int lcore;
	struct malloc_slab *release = NULL;
	struct malloc_cache *c;
	struct malloc_heap *heap;
	uint32_t i;

	if (s == NULL)
		return MALLOC_SLAB_NONE;
	i = malloc_slab_obj_idx(s, ptr);
	if (i == 0)
		return MALLOC_SLAB_INVALID;
	lcore = malloc_cache_lcore();
	c = &st->caches[s->owner];
	if (lcore != s->owner || !malloc_cache_enter(c))
		return malloc_slab_free_other(mcfg, s, i) ? MALLOC_SLAB_FREED :
							    MALLOC_SLAB_INVALID;
	slab_free_local(mcfg, c, s, i, &release);
	malloc_cache_leave(c);
	if (release != NULL) {
		heap = &st->heaps[s->heap_idx];
		malloc_heap_lock(heap);
		malloc_slab_release(mcfg, heap, release);
		malloc_heap_unlock(heap);
	}
	return MALLOC_SLAB_FREED;
}

/*
 * Sweep @p list of cache @p c: collect, move empty slabs to *@p empty and
 * full ones that have free objects again to the other list.
 */
static void
slab_sweep_list(struct malloc_cache *c, struct malloc_slab **list,
		struct malloc_slab **empty)
{
	struct malloc_slab *s, *next;

	for (s = *list; s != NULL; s = next) {
		next = s->next;
		slab_collect(s);
		if (s->live == 0)
			slab_drop(c, list, s, empty);
		else if (s->full && s->local != NULL)
			slab_unfull(c, s);
	}
}

void
malloc_slab_flush_held(struct rte_mem_config *mcfg, struct malloc_cache *c)
{
	slab_held_flush(malloc_state_of(mcfg), c);
}

void
malloc_slab_sweep(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		struct malloc_cache *c, struct malloc_slab **empty)
{
	int cls, k;

	if (malloc_cache_heap_idx(c) !=
			(int32_t)malloc_heap_idx(malloc_state_of(mcfg), heap))
		return;
	/*
	 * A remote free sets the flag after it counted its objects:
	 * reading the flag shows the count; a later free sets it again.
	 */
	__atomic_exchange_n(&c->slab_remote, 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(&c->slab_idle, 0, __ATOMIC_RELAXED);
	for (cls = 0; cls < MALLOC_SLAB_CLASSES; cls++) {
		slab_sweep_list(c, &c->full[cls], empty);
		slab_sweep_list(c, &c->slabs[cls], empty);
	}
	for (k = 0; k < MALLOC_SLAB_KINDS; k++)
		slab_sweep_list(c, &c->idle[k], empty);
}

void
malloc_slab_release(struct rte_mem_config *mcfg, struct malloc_heap *heap,
		struct malloc_slab *empty)
{
	struct malloc_slab *s;

	while (empty != NULL) {
		s = empty;
		empty = s->next;
		slab_release_locked(mcfg, heap, s);
	}
}

void
malloc_slab_count(const struct malloc_cache *c, unsigned int *slabs,
		unsigned int *live, size_t *free_bytes)
{
	int cls;

	*slabs = *live = 0;
	*free_bytes = 0;
	for (cls = 0; cls < MALLOC_SLAB_CLASSES; cls++) {
		uint32_t n = c->slab_n[cls], l = 0;
		uint32_t slots = n * slab_objs(cls);
		const struct malloc_slab *s;

		for (s = c->slabs[cls]; s != NULL; s = s->next)
			l += s->live;
		for (s = c->full[cls]; s != NULL; s = s->next)
			l += s->live;

		*slabs += n;
		*live += l;
		if (slots > l)
			*free_bytes += (size_t)(slots - l) << (6 + cls);
	}
}
