/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _EAL_MEMCFG_H_
#define _EAL_MEMCFG_H_

/*
 * The memory configuration: one region holding every piece of bookkeeping
 * another process could need (memseg lists, their slot arrays and occupancy
 * bitmaps, and an area that higher layers carve their shared state from).
 *
 * It holds no pointer into itself: slot arrays and areas are found by
 * offsets from the region's start, so the region reads the same wherever a
 * process maps it. Pointers to hugepage memory (base_va, addr) are fine:
 * every process maps the pages at the same addresses.
 */

#include <limits.h>
#include <stdint.h>

#include <rte_config.h>
#include <rte_memory.h>
#include <rte_rwlock.h>
#include <rte_spinlock.h>

#define EAL_MCFG_MAGIC 0x524d454dU /* "MEMR" */
#define EAL_MCFG_VERSION 15
#define EAL_MCFG_MAX_DIRS 4 /* hugetlbfs directories: one per page size */
#define EAL_MP_MAX_PROCS 32 /* processes of a prefix at once */

/* A hugetlbfs directory the lists' files live in. */
struct eal_mcfg_dir {
	uint64_t page_sz; /* 0: unused entry */
	char path[PATH_MAX];
};

/*
 * A process attached to the config (eal_mp.h). A process that changes
 * the lists posts a round number in req; the process takes the round on
 * by writing it to claim, brings its mappings in line and acknowledges
 * it in ack. A round the poster gave up on is marked in claim with
 * EAL_MP_CANCEL, so that a late taker knows it is on its own.
 */
struct eal_mp_proc {
	uint64_t id; /* eal_proc_self_id() of the process; 0: free */
	uint32_t req; /* last round posted to it */
	uint32_t ack; /* last round it finished, | EAL_MP_CANCEL if it
		       * could not map every page */
	uint32_t claim; /* last round it took on, or round | EAL_MP_CANCEL */
	uint64_t active_id; /* id once it maps the lists and answers:
			     * rounds are posted to it (a dead owner's
			     * value never matches a new owner's id) */
	uint8_t secondary; /* 1: a secondary process */
};

#define EAL_MP_CANCEL 0x80000000U

/*
 * A reader-writer lock of the config that a process killed while holding
 * it cannot keep (eal_mp.h): the writer is known by its identity, and the
 * read holds are counted per process table slot too, so that those of a
 * dead process can be taken back.
 */
struct eal_mprwlock {
	uint64_t writer; /* eal_proc identity of the writer, or 0 */
	uint32_t readers; /* read holds of all processes */
	uint32_t by_slot[EAL_MP_MAX_PROCS]; /* read holds per procs[] slot */
};

struct rte_mem_config {
	uint32_t magic; /* EAL_MCFG_MAGIC once built */
	uint32_t version; /* EAL_MCFG_VERSION */
	uint64_t size; /* bytes of the whole region */
	uint64_t area_off; /* start of the subsystem area, from region start */
	uint64_t area_len; /* bytes of the subsystem area */
	uint64_t area_used; /* bytes of it handed out (bump allocation) */
	int32_t primary_pid; /* the process that built it */
	uint8_t ready; /* 1 once rte_eal_init() of the primary returned */

	struct eal_mprwlock memory_hotplug_lock; /* memseg lists: walks vs
						  * (un)map */
	struct eal_mprwlock mlock; /* memzones */
	rte_rwlock_t qlock; /* tail queues */
	rte_rwlock_t mplock; /* mempools */
	rte_spinlock_t tlock; /* timers */

	uint8_t legacy_mem; /* 1: no growth, no shrink */
	uint8_t single_file_segments; /* 1: one file per list */
	uint8_t no_huge; /* 1: anonymous 4 KB pages */
	uint8_t iova_mode; /* enum rte_iova_mode in force */
	uint8_t match_allocations; /* 1: give pages back only as allocated */
	uint32_t malloc_decay_ms; /* --malloc-decay */
	uint64_t malloc_retain; /* --malloc-retain, bytes per heap */

	uint64_t malloc_off; /* lib/malloc's shared state, from region
			      * start; 0 until lib/malloc set it up */

	uint32_t n_lists; /* memsegs[] entries in use */
	struct rte_memseg_list memsegs[RTE_MAX_MEMSEG_LISTS];

	/* What a secondary process checks and adopts. */
	uint8_t in_memory; /* 1: memfd pages, which others cannot open */
	uint8_t huge_unlink; /* enum eal_huge_unlink of the primary */
	uint8_t keep_memzones; /* 1: the primary keeps memzones */
	uint8_t mp_shared; /* 1 once a secondary attached: fences and
			    * heap poisoning must span processes */
	uint8_t image_filling; /* enum eal_image_filling: a lazy memory
				* image still fills the primary's pages */
	struct eal_mcfg_dir dirs[EAL_MCFG_MAX_DIRS];
	uint32_t file_list[RTE_MAX_MEMSEG_LISTS]; /* each list's number in
						   * file names */

	/* Processes attached, and who uses which lcore (eal_mp.h). */
	uint32_t mp_round; /* last round number handed out */
	struct eal_mp_proc procs[EAL_MP_MAX_PROCS];
	uint64_t lcore_owner[RTE_MAX_LCORE]; /* process id, or 0 */
};

/*
 * Whether a lazy --memzone-image strategy still fills pages, which a
 * secondary must not map before they are filled: its fault would give
 * the file an empty page in their place.
 */
enum eal_image_filling {
	EAL_IMAGE_FILLED, /* nothing to fill (or no image) */
	EAL_IMAGE_FILLING, /* being filled by prefetch threads: wait */
	EAL_IMAGE_FILLING_ON_TOUCH, /* filled only as touched: may never end */
};

/* The address of @p off bytes into the region. */
static inline void *
eal_mcfg_at(const struct rte_mem_config *mcfg, uint64_t off)
{
	return (char *)(uintptr_t)mcfg + off;
}

/*
 * Bytes a list of @p n_segs slots needs in the region: its memseg array
 * (eal_mcfg_segs_bytes()) followed by its occupancy bitmap.
 */
uint64_t eal_mcfg_segs_bytes(uint32_t n_segs);
uint64_t eal_mcfg_list_bytes(uint32_t n_segs);

/*
 * Map a new, zeroed region with room for @p lists_bytes of slot arrays
 * plus the state of higher layers. Both are carved with
 * eal_mcfg_area_alloc(). With @p fd (the runtime directory's config
 * file) the region is that file, sized to it, so that other processes of
 * the prefix can map it; with -1 it is anonymous shared memory.
 */
int eal_mcfg_create(uint64_t lists_bytes, int fd, struct rte_mem_config **mcfg);

/*
 * Map the region a primary built in its config file @p fd.
 *
 * @return 0, -EAGAIN while the primary has not built it yet, -EPROTO if
 *   it was built by another version of rtemem, or another -errno.
 */
int eal_mcfg_attach(int fd, struct rte_mem_config **mcfg);

/*
 * Unmap the region, leaving its addresses reserved without memory: no
 * config this process maps later lands where it was, so a thread may
 * key what it found through a config on the config's address
 * (eal_lcore_memo) without a count of configs to compare on every call.
 */
void eal_mcfg_destroy(struct rte_mem_config *mcfg);

/*
 * Carve @p size bytes (cache-line aligned, zeroed) out of the area, for a
 * list's slots or a subsystem's shared state. Callers are inside init or
 * hold the hotplug lock for writing.
 *
 * @return 0 with the offset in @p off, or -ENOSPC.
 */
int eal_mcfg_area_alloc(
		struct rte_mem_config *mcfg, uint64_t size, uint64_t *off);

/*
 * The memory configuration of the initialized EAL, or NULL. Read through
 * eal_mcfg_get(), which is inline because every rte_malloc() and
 * rte_free() asks: a call into lib/eal cost about as much as the lcore
 * cache's whole work.
 */
extern struct rte_mem_config *eal_mcfg_live;

/* The memory configuration of the initialized EAL, or NULL. */
static inline struct rte_mem_config *
eal_mcfg_get(void)
{
	return eal_mcfg_live;
}

#endif /* _EAL_MEMCFG_H_ */
