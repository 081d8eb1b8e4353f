/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rtemem authors
 */

#ifndef _EAL_RUNTIME_H_
#define _EAL_RUNTIME_H_

/*
 * The runtime directory of a file prefix: where a primary process says it
 * is alive (its "config" file, locked for as long as it runs) and what
 * other processes of the prefix need to attach to it: the config file
 * holds the memory config (eal_memcfg.h).
 *
 * root: /var/run/rtemem/<prefix>; other users: $XDG_RUNTIME_DIR/rtemem/
 * <prefix>, or /tmp/rtemem-<uid>/<prefix> without it. Every directory of
 * the path that rtemem creates is the user's, mode 0700, and one that
 * exists already must be too (not a link, owned by the user, no group or
 * other access): the runtime files are the user's alone.
 */

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

struct eal_runtime {
	char dir[PATH_MAX]; /* the prefix's directory; "" when none */
	int config_fd; /* "config", locked by the primary; -1 when none */
	bool secondary; /* config_fd is a live primary's, not ours */
};

/*
 * Write the path of @p prefix's runtime directory to @p buf.
 *
 * @return 0, or -ENAMETOOLONG.
 */
int eal_runtime_dir_path(const char *prefix, char *buf, size_t len);

/*
 * Become the primary of @p prefix: make the runtime directory (checking
 * each part) and take the lock of its config file.
 *
 * @return 0, or a negative errno with one line in @p err: -EBUSY when a
 *   live primary holds the lock, -EACCES for a directory that is not the
 *   user's alone (naming it), another -errno otherwise.
 */
int eal_runtime_open(struct eal_runtime *rt, const char *prefix, char *err,
		size_t err_len);

/*
 * Open the config file of @p prefix's live primary, to attach to it as a
 * secondary process.
 *
 * @return 0, or a negative errno with one line in @p err.
 */
int eal_runtime_attach(struct eal_runtime *rt, const char *prefix, char *err,
		size_t err_len);

/*
 * Release the lock and remove the config file and the directory; a
 * secondary only closes its descriptor.
 */
void eal_runtime_close(struct eal_runtime *rt);

/*
 * @return 1 if a live process holds the lock of the config file at
 *   @p path, 0 otherwise (no such file, or not locked).
 */
int eal_runtime_alive(const char *path);

#endif /* _EAL_RUNTIME_H_ */
