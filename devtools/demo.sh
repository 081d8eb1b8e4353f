#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rtemem authors
#
# The main job of rtemem, as root on a fresh Debian 12 machine
# ("bash devtools/demo.sh", see README.md): install what the build needs,
# make sure 1024 free 2 MB hugepages exist, mount a private hugetlbfs,
# build into build-demo/, then run the demo (the function demo() below).
# On exit the hugetlbfs is unmounted, which also frees the hugepage files
# the demo kept, and nr_hugepages is restored.
#
# Exit status: the demo's, or 1 if the set-up or the build failed.

set -euo pipefail

cd "$(dirname "$0")/.."
# shellcheck source=devtools/hugepage-env.sh
. devtools/hugepage-env.sh

BUILD=build-demo
MIN_HUGEPAGES=1024 # 2 MB pages: 2 GB

# The demo: what this script shows. Point it at another program here.
# It runs with the private hugetlbfs in $HUGE_DIR and the build in $BUILD.
# examples/fast_restart: an application allocates 1 GB of pools
# (rte_zmalloc and memzones; with the heap's 4 MB, 514 of the 2 MB pages),
# starts cold, then restarts 3 times with --huge-unlink=never, and prints
# each start's time and how much memory came back dirty. It removes its
# hugepage files at the end. The start-up benchmark of every memory mode
# is "rtemem-test -- startup_perf_autotest".
demo()
{
	"$BUILD/examples/fast_restart/fast_restart" --file-prefix rtemem-demo \
		--huge-dir "$HUGE_DIR" -- --size 1024 --restarts 3
}

trap 'env_cleanup > /dev/null 2>&1 || true' EXIT

echo "== set-up"
env_require_root
env_install_packages $RTEMEM_DEBIAN_PACKAGES
env_reserve_hugepages $MIN_HUGEPAGES
env_mount_hugetlbfs

echo "== build"
if [ -d "$BUILD" ]; then
	meson setup --reconfigure "$BUILD"
else
	meson setup "$BUILD"
fi
ninja -C "$BUILD" -j "$(nproc)"

echo "== demo"
rc=0
demo || rc=$?

echo "== clean-up"
env_cleanup
exit $rc
