#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rtemem authors
#
# Build an outside program against an installed rtemem, with nothing but
# its public headers and `pkg-config rtemem`, and run it in each memory
# mode: a restart with --huge-unlink=never must see DIRTY on exactly the
# pages that came from reused files, and rte_zmalloc() must return zeroes
# after a run that filled its memory and died.
#
# Usage: devtools/test-external.sh BUILD_DIR HUGETLBFS_DIR
# Prints one line per check and exits 1 if any failed.

set -euo pipefail

build=$(realpath "$1")
huge=$2
top=$(realpath "$(dirname "$0")/..")
stage=$(mktemp -d)
dir=$huge/external
failed=0

cleanup()
{
	rm -rf "$stage"
	rm -rf "${dir:?}"
}
trap cleanup EXIT

meson install -C "$build" --destdir "$stage" --quiet
pc=$(dirname "$(find "$stage" -name rtemem.pc | head -n 1)")
export PKG_CONFIG_PATH=$pc PKG_CONFIG_SYSROOT_DIR=$stage
export LD_LIBRARY_PATH=${pc%/pkgconfig}
cc -Wall -Wextra -Werror -o "$stage/memseg_walk" \
	"$top/examples/memseg_walk/main.c" \
	$(pkg-config --cflags --libs rtemem)
cc -Wall -Wextra -Werror -o "$stage/heap_restart" \
	"$top/examples/heap_restart/main.c" \
	$(pkg-config --cflags --libs rtemem)
cc -Wall -Wextra -Werror -o "$stage/zmalloc_check" \
	"$top/examples/zmalloc_check/main.c" \
	$(pkg-config --cflags --libs rtemem)
cc -Wall -Wextra -Werror -o "$stage/warm_cache" \
	"$top/examples/warm_cache/main.c" \
	$(pkg-config --cflags --libs rtemem)
echo "built examples/memseg_walk, heap_restart, zmalloc_check and warm_cache with pkg-config rtemem from $stage"

# expect NAME WANT EAL_ARGS... -- APP_ARGS: run and compare the line.
expect()
{
	expect_prog memseg_walk '^pages' "$@"
}

# expect_heap NAME WANT EAL_ARGS... -- fill|check MB
expect_heap()
{
	expect_prog heap_restart '^zero\|^filled' "$@"
}

# expect_prog PROG PATTERN NAME WANT ARGS...: run PROG, match its line
# against WANT, a whole-line extended regular expression (a plain line
# of words and numbers matches itself).
expect_prog()
{
	local prog=$1 pattern=$2 name=$3 want=$4 got

	shift 4
	got=$("$stage/$prog" --huge-dir "$dir" --file-prefix ext \
		"$@" 2>"$stage/err" | grep "$pattern" || true)
	if printf '%s\n' "$got" | grep -Eqx -- "$want"; then
		echo "ok: $name: $got"
	else
		echo "FAILED: $name: got '$got', expected '$want'"
		sed 's/^/    /' "$stage/err"
		failed=1
	fi
}

mkdir -p "$dir"
expect "file per page" "pages 4 dirty 0 bytes 8388608" -m 8
expect "single file" "pages 4 dirty 0 bytes 8388608" -m 8 \
	--single-file-segments
expect "in-memory" "pages 4 dirty 0 bytes 8388608" -m 8 --in-memory
expect "legacy" "pages 4 dirty 0 bytes 8388608" -m 8 --legacy-mem
expect "no-huge" "pages 2048 dirty 0 bytes 8388608" -m 8 --no-huge
expect "never, first run" "pages 4 dirty 0 bytes 8388608" -m 8 \
	--huge-unlink=never -- fill
expect "never, restart" "pages 4 dirty 4 bytes 8388608" -m 8 \
	--huge-unlink=never
rm -f "$dir/extmap_2"
expect "never, one file gone" "pages 4 dirty 3 bytes 8388608" -m 8 \
	--huge-unlink=never
expect "never, grown" "pages 8 dirty 4 bytes 16777216" -m 16 \
	--huge-unlink=never
rm -f "$dir"/extmap_*
expect "never + single file, first run" "pages 4 dirty 0 bytes 8388608" \
	-m 8 --single-file-segments --huge-unlink=never -- fill
expect "never + single file, restart" "pages 4 dirty 4 bytes 8388608" \
	-m 8 --single-file-segments --huge-unlink=never
rm -f "$dir"/extmap_*
expect "never + legacy, first run" "pages 4 dirty 0 bytes 8388608" \
	-m 8 --legacy-mem --huge-unlink=never -- fill
expect "never + legacy, restart" "pages 4 dirty 4 bytes 8388608" \
	-m 8 --legacy-mem --huge-unlink=never
rm -f "$dir"/extmap_*

# The heap: zeroes from rte_zmalloc() after a run filled memory and died.
for mode in "file per page:" "single file:--single-file-segments" \
	"legacy:--legacy-mem -m 32"; do
	name=${mode%%:*}
	# shellcheck disable=SC2086 # the options are words
	set -- ${mode#*:}
	expect_heap "heap, $name, fresh" "zero 8 clean" "$@" \
		--huge-unlink=never -- check 8
	rm -f "$dir"/extmap_*
	expect_heap "heap, $name, fill and die" "filled 8" "$@" \
		--huge-unlink=never -- fill 8
	expect_heap "heap, $name, restart" "zero 8 dirty" "$@" \
		--huge-unlink=never -- check 8
	rm -f "$dir"/extmap_*
done
expect_heap "heap, in-memory" "zero 8 clean" --in-memory -- check 8
expect_heap "heap, no-huge" "zero 8 clean" --no-huge -m 64 -- check 8

# zmalloc_check, which DPDK's series builds too: every free element and a
# block that grows the heap, filled by a run that dies, are zero after a
# restart, and the restart's pages are dirty.
for mode in "file per page:" "single file:--single-file-segments" \
	"legacy:--legacy-mem"; do
	name=${mode%%:*}
	# shellcheck disable=SC2086 # the options are words
	set -- ${mode#*:} -m 8 --huge-unlink=never
	expect_prog zmalloc_check '^pages' "zmalloc_check, $name, fill" \
		'pages [0-9]+ dirty 0 blocks [1-9][0-9]* .* nonzero 0' \
		"$@" -- fill
	expect_prog zmalloc_check '^pages' "zmalloc_check, $name, restart" \
		'pages ([1-9][0-9]*) dirty \1 blocks [1-9][0-9]* .* nonzero 0' \
		"$@" -- check
	rm -f "$dir"/extmap_*
done
# warm_cache: memzones reserved and filled by a process that is then
# killed with SIGKILL come back whole after the restart (its exit status
# says whether each start found what it should); the item the killed
# writer was writing, if any, is found torn and built again.
for mode in "file per page:" "single file:--single-file-segments"; do
	name=${mode%%:*}
	# shellcheck disable=SC2086 # the options are words
	set -- ${mode#*:} -- --items 20000 --value-size 256
	expect_prog warm_cache '^warm after SIGKILL' \
		"warm_cache, $name, kept after SIGKILL" \
		'warm after SIGKILL( +[0-9.]+){3} +(20000 +0 +0|19999 +1 +1)' \
		"$@"
done
left=$(find "$dir" -mindepth 1 | head -n 5)
if [ -n "$left" ]; then
	echo "FAILED: warm_cache left files: $left"
	failed=1
fi
exit $failed
