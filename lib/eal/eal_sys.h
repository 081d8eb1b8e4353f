/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _EAL_SYS_H_
#define _EAL_SYS_H_

/*
 * The operating system services that the layers above the memory layer
 * (lib/malloc, the shared locks, the process table) rely on, in one
 * header: the seam between common code and linux/. Each is implemented
 * by an OS directory; nothing here names Linux.
 *
 *   process identities   a live owner, a dead one and a new process that
 *                        reused the PID told apart (shared locks); a
 *                        thread's scheduling priority
 *   thread fence         a memory barrier on every thread of the process
 *                        at once (lib/malloc's lcore caches)
 *   futex                sleeping on a word of shared memory, across
 *                        processes
 *   page fill            pages filled by this process on first touch
 *                        (lib/malloc's lazy memory image restore)
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- process identities ---- */

/*
 * The identity of the calling process: its PID and the low 32 bits of
 * its start time, so that it survives PID reuse; never 0.
 *
 * @return it, or 0 if the process's start time is unreadable.
 */
uint64_t eal_proc_self_id(void);

/*
 * Whether process @p id still runs. A zombie (killed, not yet reaped) and
 * a process that reused the PID are not it.
 */
bool eal_proc_alive(uint64_t id);

/* The PID of identity @p id. */
static inline int
eal_proc_pid(uint64_t id)
{
	return (int)(id & 0xffffffffU);
}

/*
 * Let the calling thread alone run only when no other thread wants its
 * CPU (SCHED_IDLE): a background thread that must give way to the
 * process's other threads, which take the CPU from it as soon as they
 * wake. Falls back to nice 19 where the policy is refused.
 *
 * @return 0, or -errno.
 */
int eal_thread_idle(void);

/* ---- thread fence ---- */

/*
 * For structures where one thread works without atomic instructions and
 * others, rarely, need it to stand still: the busy side orders its
 * accesses for the compiler only; the rare side pays for the fence with a
 * system call.
 *
 * Tell the OS this process will use eal_thread_fence(). Called once,
 * before any thread relies on it.
 *
 * @return 0, or -errno (-ENOSYS, -EINVAL: the kernel lacks the call;
 *   -EPERM: a seccomp filter forbids it).
 */
int eal_thread_fence_register(void);

/*
 * Make every running thread of the process execute a full memory
 * barrier before returning: a store that a thread made before the call
 * is then visible here, and a load it makes after sees what this thread
 * stored before the call. eal_thread_fence_register() succeeded before.
 *
 * @return 0, or -errno.
 */
int eal_thread_fence(void);

/* ---- futex ---- */

/*
 * Sleep while the 32-bit word at @p addr, in memory that processes share
 * (or this process's own), holds @p val, at most @p timeout_ms (-1: no
 * limit).
 *
 * @return 0 when woken or the word differs, -ETIMEDOUT, -EINTR.
 */
int eal_os_futex_wait(uint32_t *addr, uint32_t val, int timeout_ms);

/* Wake every process and thread sleeping on @p addr. */
void eal_os_futex_wake(uint32_t *addr);

/* ---- page fill ---- */

/*
 * A thread touching a page of a watched range that is not there yet
 * waits while another thread of the process fills it. How the page is
 * filled:
 */
enum eal_fill_mode {
	/*
	 * A missing page of a hugetlbfs mapping gets bytes copied in by
	 * eal_fill_copy(): the page is allocated and filled in one pass,
	 * never cleared first.
	 */
	EAL_FILL_COPY,
	/*
	 * Pages are written through another mapping of their hugetlbfs
	 * file first, then eal_fill_map() maps what the file holds, without
	 * a copy. A page the file does not hold yet waits too.
	 */
	EAL_FILL_FROM_FILE,
};

/*
 * A descriptor for filling pages in @p mode: poll() reports it readable
 * while touches wait (eal_fill_next()). Close it with close(): what it
 * watches stops being watched.
 *
 * @return it, or a negative errno with one line in @p err (-EPERM: the
 *   process may not; -ENOTSUP: the kernel cannot fill hugetlbfs pages in
 *   @p mode).
 */
int eal_fill_open(enum eal_fill_mode mode, char *err, size_t len);

/*
 * Watch @p size bytes at @p addr (whole pages of one mapping, mapped
 * without populating) through @p fd, opened in @p mode.
 *
 * @return 0, or a negative errno with one line in @p err.
 */
int eal_fill_watch(int fd, enum eal_fill_mode mode, uintptr_t addr, size_t size,
		char *err, size_t len);

/* Stop watching @p size bytes at @p addr (gone already: no harm). */
void eal_fill_unwatch(int fd, uintptr_t addr, size_t size);

/*
 * Up to @p n addresses (at most 16 a call) that threads touched and
 * wait for, without waiting (each may come more than once).
 *
 * @return how many, 0 if none waits, or -errno if @p fd failed.
 */
int eal_fill_next(int fd, uintptr_t *addrs, unsigned int n);

/*
 * Fill the missing page(s) of @p size bytes at @p dst with the bytes at
 * @p src (EAL_FILL_COPY), without waking the threads waiting on them.
 *
 * @return 0, -ENOENT if the range is no longer mapped, -EEXIST if a page
 *   is there already (another process touched it first), another -errno.
 */
int eal_fill_copy(int fd, uintptr_t dst, const void *src, size_t size);

/*
 * Map what the file holds for the @p size bytes at @p addr
 * (EAL_FILL_FROM_FILE), without waking the threads waiting on them.
 *
 * @return 0, or as eal_fill_copy().
 */
int eal_fill_map(int fd, uintptr_t addr, size_t size);

/* Wake the threads waiting on the @p size bytes at @p addr (none: no harm). */
void eal_fill_wake(int fd, uintptr_t addr, size_t size);

/* ---- scratch ---- */

/*
 * Scratch memory over ranges of the address space, for what a thread
 * writes there before the pages can be had: eal_scratch_cover() moves
 * the mappings of a range aside, whole (file, offset, flags), and maps
 * small zeroed pages in their place; eal_scratch_next() finds what was
 * written since, to be read at its address; eal_scratch_close() moves
 * the mappings back over the scratch, which then goes. Moving a range
 * allocates none of its pages. No other thread may touch a covered range
 * while it is moved (at init, before the EAL starts its threads).
 */
struct eal_scratch;

/*
 * Scratch for up to @p size bytes of ranges.
 *
 * @return it, or NULL with errno set.
 */
struct eal_scratch *eal_scratch_open(uint64_t size);

/*
 * Cover @p size bytes at @p addr: whole pages of @p page_sz bytes, mapped,
 * one mapping or several, above every range covered before.
 *
 * @return 0, or a negative errno (the range as it was): -ENOSPC (more
 *   than eal_scratch_open() was told), -EINVAL (below a covered range),
 *   another from the kernel.
 */
int eal_scratch_cover(struct eal_scratch *s, uintptr_t addr, uint64_t size,
		uint64_t page_sz);

/*
 * The first range written at or after @p *addr in the covered ranges, in
 * whole small pages: [@p *addr, @p *addr + @p *len).
 *
 * @return 1, 0 when there is none, or a negative errno.
 */
int eal_scratch_next(
		const struct eal_scratch *s, uintptr_t *addr, uint64_t *len);

/*
 * Copy the @p len bytes at @p addr, in one covered range, into @p buf:
 * from the scratch itself, not through the mapping, so that what the
 * writer marked unreadable there (AddressSanitizer's poison on free heap
 * memory) is read too.
 *
 * @return 0, or a negative errno (-EINVAL: not in one covered range).
 */
int eal_scratch_read(const struct eal_scratch *s, uintptr_t addr, void *buf,
		uint64_t len);

/*
 * Move every covered range's mappings back and free @p s (NULL: nothing).
 *
 * @return 0, or the -errno of the first range that could not be moved
 *   back (it is unmapped then: its pages are no longer there).
 */
int eal_scratch_close(struct eal_scratch *s);

#endif /* _EAL_SYS_H_ */
