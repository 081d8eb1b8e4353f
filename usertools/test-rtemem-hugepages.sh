#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rtemem authors
#
# Exercise usertools/rtemem-hugepages.py for real, as root: --show; raising
# the 2 MB pool a few pages above its current count and back, by count, by
# size and on node 0; reservations that cannot be done; value errors;
# mounting and unmounting a hugetlbfs of its own; listing and removing the
# files of a file prefix while a live process holds one of them, holds the
# prefix lock, or is a real rtemem process (with BUILD_DIR); and the same
# actions as user nobody, which must fail with one line and exit status 2.
#
# Usage: usertools/test-rtemem-hugepages.sh [BUILD_DIR]
#
# BUILD_DIR is a build with -Dtests=true: its app/test/rtemem-test runs as
# the real rtemem process. Without it those checks are skipped, with a line
# saying so; RTEMEM_TEST_NO_SKIP=1 counts a skip as a failure.
#
# Budget: at most 8 pages above nr_hugepages of 2 MB pages as it was at the
# start, always raised from the current count and lowered back to exactly
# it; 1 GB pages are only read. Other processes may use the pool meanwhile.
# Everything is undone on exit, also after a failure: the holder processes
# are killed, the hugetlbfs (with any file left in it) is unmounted, the
# directories are removed and nr_hugepages is restored.
#
# Prints one line per check and "N passed, N failed"; exits 1 if a check
# failed.

set -euo pipefail

TOP=$(realpath "$(dirname "$0")/..")
TOOL=$TOP/usertools/rtemem-hugepages.py
POOL=/sys/kernel/mm/hugepages/hugepages-2048kB
NODE0=/sys/devices/system/node/node0/hugepages/hugepages-2048kB
MAX_EXTRA=8 # pages above the starting count, at most
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)

BUILD=${1:-}
NR_START= # nr_hugepages of 2 MB pages at the start
WORK= # scratch directory (ready files, a copy of the tool for nobody)
MNT= # the test's hugetlbfs mount point
OTHER= # a tmpfs mount point: a mount of something else
PLAIN= # a plain directory
PIDS=() # holder processes still running
PREFIX=hpt$$ # file prefix of the test's files

passed=0
failed=0
OUT= # standard output of the last tool run
ERR= # standard error of the last tool run
RC=0 # exit status of the last tool run
WHY= # why the last check failed
WHY_UP= # why the first half of a reserve-and-back check failed

# ---- running the tool ----

# tool ARG...: run the tool as root; never fails. Should it leave the pool
# above the test's budget, the pool is put back at once.
tool()
{
	RC=0
	OUT=$("$TOOL" "$@" 2> "$WORK/err") || RC=$?
	ERR=$(cat "$WORK/err")
	if [ "$(nr)" -gt $((NR_START + MAX_EXTRA)) ]; then
		echo "$NR_START" > "$POOL/nr_hugepages"
		failed=$((failed + 1))
		echo "FAIL the tool left nr_hugepages above $NR_START + $MAX_EXTRA: put back"
	fi
}

# tool_nobody ARG...: run a copy of the tool as user nobody (the tree
# may be unreadable to nobody), through its #! line as once installed.
tool_nobody()
{
	RC=0
	OUT=$("${NOBODY[@]}" "$WORK/bin/rtemem-hugepages.py" "$@" \
		2> "$WORK/err") || RC=$?
	ERR=$(cat "$WORK/err")
}

# ---- assertions: each sets WHY and returns 1 on failure ----

want_rc()
{
	[ "$RC" -eq "$1" ] && return 0
	WHY="exit status $RC, expected $1"
	return 1
}

out_has()
{
	grep -qE -- "$1" <<< "$OUT" && return 0
	WHY="no output line matches '$1'"
	return 1
}

out_lacks()
{
	grep -qE -- "$1" <<< "$OUT" || return 0
	WHY="an output line matches '$1'"
	return 1
}

# err_is LINE: standard error is exactly LINE.
err_is()
{
	[ "$ERR" = "$1" ] && return 0
	WHY="standard error is '$ERR', expected '$1'"
	return 1
}

# err_one_line REGEX: standard error is one line, matching REGEX.
err_one_line()
{
	if [ -z "$ERR" ] || [ "$(wc -l <<< "$ERR")" -ne 1 ]; then
		WHY="standard error is not one line: '$ERR'"
		return 1
	fi
	grep -qE -- "$1" <<< "$ERR" && return 0
	WHY="standard error '$ERR' does not match '$1'"
	return 1
}

err_has()
{
	grep -qE -- "$1" <<< "$ERR" && return 0
	WHY="no standard error line matches '$1'"
	return 1
}

nr()
{
	cat "$POOL/nr_hugepages"
}

nr_is()
{
	local now

	now=$(nr)
	[ "$now" -eq "$1" ] && return 0
	WHY="nr_hugepages is $now, expected $1"
	return 1
}

exists()
{
	local f

	for f in "$@"; do
		[ -e "$f" ] || { WHY="$f is gone"; return 1; }
	done
}

gone()
{
	local f

	for f in "$@"; do
		[ ! -e "$f" ] || { WHY="$f is still there"; return 1; }
	done
}

# is_mount DIR FSTYPE: DIR is a mount point of FSTYPE in /proc/mounts.
is_mount()
{
	awk -v d="$1" -v t="$2" '$2 == d && $3 == t { f = 1 } END { exit !f }' \
		/proc/mounts && return 0
	WHY="$1 is not a $2 mount"
	return 1
}

not_mount()
{
	awk -v d="$1" '$2 == d { f = 1 } END { exit f }' /proc/mounts &&
		return 0
	WHY="$1 is still a mount point"
	return 1
}

# ---- counting ----

# check NAME COMMAND...: run a check, print one line, count it.
check()
{
	local name=$1

	shift
	WHY=
	OUT=
	ERR=
	if "$@"; then
		passed=$((passed + 1))
		echo "ok   $name"
		return 0
	fi
	failed=$((failed + 1))
	echo "FAIL $name: $WHY"
	[ -z "$OUT" ] || sed 's/^/     out| /' <<< "$OUT"
	[ -z "$ERR" ] || sed 's/^/     err| /' <<< "$ERR"
	return 0
}

skip()
{
	echo "skip $1"
	if [ "${RTEMEM_TEST_NO_SKIP:-0}" = 1 ]; then
		failed=$((failed + 1))
		echo "FAIL $1: skipped, and RTEMEM_TEST_NO_SKIP=1"
	fi
}

# ---- live holders ----

# A process that holds a file as rtemem does: an exclusive flock taken
# before mapping; a page file is mapped and its descriptor closed (the
# mapping keeps the lock), an empty file (the prefix lock) stays open.
HOLDER_PY='
import fcntl, mmap, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)
fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
size = os.fstat(fd).st_size
if size:
    mapping = mmap.mmap(fd, size)
    os.close(fd)
    mapping[0] = 1
print("ready", flush=True)
time.sleep(600)
'

# wait_for COMMAND...: poll for up to 10 s until COMMAND succeeds.
wait_for()
{
	local i

	for i in $(seq 100); do
		"$@" && return 0
		sleep 0.1
	done
	return 1
}

ready()
{
	grep -q ready "$1" 2> /dev/null
}

# hold FILE: start a holder of FILE; its PID in HOLDER.
hold()
{
	python3 -c "$HOLDER_PY" "$1" > "$WORK/ready.$$" 2>&1 &
	HOLDER=$!
	PIDS+=("$HOLDER")
	wait_for ready "$WORK/ready.$$"
	rm -f "$WORK/ready.$$"
}

# stop PID: end a process this script started, and reap it.
stop()
{
	local i

	kill "$1" 2> /dev/null || true
	wait "$1" 2> /dev/null || true
	for i in "${!PIDS[@]}"; do
		[ "${PIDS[$i]}" != "$1" ] || unset 'PIDS[i]'
	done
}

# ---- clean-up ----

cleanup()
{
	local pid now d

	for pid in "${PIDS[@]}"; do
		kill "$pid" 2> /dev/null || true
		wait "$pid" 2> /dev/null || true
	done
	exec 9>&- 2> /dev/null || true
	for d in "$MNT" "$OTHER"; do
		[ -n "$d" ] || continue
		if awk -v d="$d" '$2 == d { f = 1 } END { exit !f }' \
				/proc/mounts; then
			umount "$d" || umount -l "$d" || true
		fi
		rmdir "$d" 2> /dev/null || true
	done
	[ -z "$PLAIN" ] || rm -rf "$PLAIN"
	[ -z "$WORK" ] || rm -rf "$WORK"
	[ -n "$NR_START" ] || return 0
	now=$(nr)
	if [ "$now" -gt "$NR_START" ] &&
			[ "$now" -le $((NR_START + MAX_EXTRA)) ]; then
		echo "$NR_START" > "$POOL/nr_hugepages"
		echo "restored nr_hugepages from $now to $NR_START"
	elif [ "$now" -ne "$NR_START" ]; then
		echo "nr_hugepages is $now, not $NR_START as at the start," \
			"and not in the test's range: someone else changed it;" \
			"left as is"
	fi
}

# ---- the checks ----

t_show()
{
	local reserved d size

	tool --show
	want_rc 0 || return 1
	out_has '^2M pages \(hugepages-2048kB' || return 1
	reserved=$(awk '/^2M pages/ { f = 1 } f && $1 == "all" { print $2; exit }' \
		<<< "$OUT")
	if [ "$reserved" != "$(nr)" ]; then
		WHY="2M 'all' row says $reserved reserved, sysfs $(nr)"
		return 1
	fi
	# Every hugetlbfs mount, with its page size (these are all 2M here).
	while read -r d size; do
		out_has "^  $size +$d\$" || return 1
	done < <(awk '$3 == "hugetlbfs" {
			s = "2M"
			if (match($4, /pagesize=[0-9]+[KMG]/))
				s = substr($4, RSTART + 9, RLENGTH - 9)
			if (s == "1024M") s = "1G"
			print $2, s }' /proc/mounts)
}

t_default_is_show()
{
	local show

	tool --show
	show=$(grep -v -E '^  (all|[0-9]+) ' <<< "$OUT")
	tool
	want_rc 0 || return 1
	[ "$(grep -v -E '^  (all|[0-9]+) ' <<< "$OUT")" = "$show" ] && return 0
	WHY="the output with no option differs from --show"
	return 1
}

# t_reserve VALUE EXPECTED_NR ARG...: reserve, check the count, go back
# (also when the check failed, so that the next checks start from there).
t_reserve()
{
	local value=$1 want=$2 ok=true

	shift 2
	tool --reserve "$value" "$@"
	want_rc 0 && nr_is "$want" &&
		out_has "^2M pages: $want reserved \(was $NR_START\)\$" ||
		ok=false
	$ok || WHY_UP=$WHY
	tool --reserve "$NR_START" --pagesize 2M
	$ok || { WHY=$WHY_UP; return 1; }
	want_rc 0 && nr_is "$NR_START"
}

node0_is()
{
	local now

	now=$(cat "$NODE0/nr_hugepages")
	[ "$now" -eq "$1" ] && return 0
	WHY="node 0 has $now pages, expected $1"
	return 1
}

t_reserve_node()
{
	local n0 ok=true

	n0=$(cat "$NODE0/nr_hugepages")
	tool --reserve $((n0 + 1)) --node 0
	want_rc 0 && nr_is $((NR_START + 1)) && node0_is $((n0 + 1)) &&
		out_has "^2M pages on node 0: $((n0 + 1)) reserved \(was $n0\)\$" ||
		ok=false
	$ok || WHY_UP=$WHY
	tool --reserve "$n0" --node 0
	$ok || { WHY=$WHY_UP; return 1; }
	want_rc 0 && nr_is "$NR_START" && node0_is "$n0"
}

t_too_large()
{
	tool --reserve "$1"
	want_rc 1 && err_one_line 'not asking the kernel$' && nr_is "$NR_START"
}

# t_bad RC REGEX ARG...: the tool fails with RC and one line on stderr.
t_bad()
{
	local rc=$1 re=$2

	shift 2
	tool "$@"
	want_rc "$rc" && err_one_line "^rtemem-hugepages: $re" &&
		nr_is "$NR_START"
}

t_mount()
{
	tool --mount "$MNT" --pagesize 2M
	want_rc 0 && is_mount "$MNT" hugetlbfs || return 1
	grep -qE "^nodev $MNT hugetlbfs [^ ]*pagesize=2M" /proc/mounts ||
		{ WHY="$MNT is not mounted with pagesize=2M"; return 1; }
	tool --show
	out_has "^  2M +$MNT\$"
}

t_mount_again()
{
	tool --mount "$MNT" --pagesize 2M
	want_rc 0 && out_has "already a hugetlbfs of 2M pages: nothing to do"
}

t_refused()
{
	local re=$1

	shift
	tool "$@"
	want_rc 1 && err_one_line "^rtemem-hugepages: $re"
}

# fake_page FILE: a real hugepage file of one 2 MB page.
fake_page()
{
	fallocate -l 2M "$1" && return 0
	WHY="fallocate -l 2M $1 failed"
	return 1
}

umount_other_fill_plain()
{
	umount "$OTHER" && touch "$PLAIN/file"
}

# 4 page files of the prefix (one in a sub-directory, where --huge-dir may
# point), and names that are not: another prefix, not a page number.
make_files()
{
	mkdir "$MNT/sub" &&
		fake_page "$MNT/${PREFIX}map_0" &&
		fake_page "$MNT/${PREFIX}map_1" &&
		fake_page "$MNT/${PREFIX}map_2" &&
		fake_page "$MNT/sub/${PREFIX}map_7" &&
		touch "$MNT/${PREFIX}map_x" "$MNT/${PREFIX}2map_0" \
			"$MNT/other${PREFIX}map_0"
}

t_list()
{
	local n

	tool --list "$PREFIX" --huge-dir "$MNT"
	want_rc 0 || return 1
	out_has "^$MNT \(2M pages\)\$" &&
		out_has "^$MNT/sub \(2M pages\)\$" || return 1
	for n in 0 1 2 7; do
		out_has "^  ${PREFIX}map_$n +2M  not held\$" || return 1
	done
	out_lacks "${PREFIX}map_x|${PREFIX}2map_0|other${PREFIX}" &&
		out_has "^4 page files, 8M of hugepages: 0 held by a live process, 4 not held\$"
}

t_list_all_mounts()
{
	tool --list "$PREFIX"
	want_rc 0 && out_has "^  ${PREFIX}map_7 +2M  not held\$" &&
		out_has "^4 page files, 8M of hugepages"
}

t_list_held()
{
	local p=$1

	tool --list "$PREFIX" --huge-dir "$MNT"
	want_rc 0 &&
		out_has "^  ${PREFIX}map_1 +2M  held: flock write lock by pid $p, mapped and open by pid $p\$" &&
		out_has "^  ${PREFIX}map_0 +2M  not held\$" &&
		out_has "1 held by a live process, 3 not held\$"
}

t_remove_refuses_held()
{
	local p=$1

	tool --remove "$PREFIX" --huge-dir "$MNT"
	want_rc 1 &&
		err_has "^rtemem-hugepages: not removing $MNT/${PREFIX}map_1: held: flock.* by pid $p" ||
		return 1
	exists "$MNT/${PREFIX}map_1" "$MNT/${PREFIX}map_x" \
		"$MNT/${PREFIX}2map_0" "$MNT/other${PREFIX}map_0" &&
		gone "$MNT/${PREFIX}map_0" "$MNT/${PREFIX}map_2" \
			"$MNT/sub/${PREFIX}map_7" "$MNT/${PREFIX}.lock" \
			"$MNT/sub/${PREFIX}.lock" &&
		out_has "^removed 3 files, giving back 6M of hugepages; 1 kept\$"
}

t_remove_after_exit()
{
	tool --remove "$PREFIX" --huge-dir "$MNT"
	want_rc 0 && gone "$MNT/${PREFIX}map_1" "$MNT/${PREFIX}.lock" &&
		out_has "^removed $MNT/${PREFIX}map_1 \(2M\)\$" &&
		out_lacks "prefix lock" &&
		exists "$MNT/${PREFIX}map_x"
}

t_prefix_in_use()
{
	local p=$1

	tool --list "$PREFIX" --huge-dir "$MNT"
	out_has "^  ${PREFIX}\.lock +0  prefix lock, held: flock write lock by pid $p, open by pid $p\$" ||
		return 1
	tool --remove "$PREFIX" --huge-dir "$MNT"
	want_rc 1 &&
		err_has "^rtemem-hugepages: not removing the files of prefix '$PREFIX' in $MNT: it is in use: $MNT/$PREFIX\.lock is held \(.*pid $p.*\)\$" &&
		exists "$MNT/${PREFIX}map_3" "$MNT/${PREFIX}.lock" &&
		out_has "^removed 0 files; 1 kept\$" &&
		err_has "^rtemem-hugepages: 1 file of prefix '$PREFIX' kept: a live process holds it\$"
}

t_stale_lock_removed()
{
	tool --list "$PREFIX" --huge-dir "$MNT"
	out_has "^  ${PREFIX}\.lock +0  prefix lock, not held \(stale\)\$" ||
		return 1
	tool --remove "$PREFIX" --huge-dir "$MNT"
	want_rc 0 && gone "$MNT/${PREFIX}map_3" "$MNT/${PREFIX}.lock" &&
		out_has "^removed $MNT/${PREFIX}\.lock \(a prefix lock nobody held\)\$"
}

# A FIFO with a page file's name: --remove must not block on it, and
# leaves it (it is no page file).
t_remove_fifo()
{
	mkfifo "$MNT/${PREFIX}map_7" || return 1
	RC=0
	OUT=$(timeout 20 "$TOOL" --remove "$PREFIX" --huge-dir "$MNT" \
		2> "$WORK/err") || RC=$?
	ERR=$(cat "$WORK/err")
	rm -f "$MNT/${PREFIX}map_7"
	[ "$RC" -ne 124 ] || { WHY="--remove blocked on a FIFO"; return 1; }
	err_has "not removing $MNT/${PREFIX}map_7: not a regular file"
}

# The real rtemem process, kept alive by its test prompt reading a FIFO.
RT_PID=
RT_DIR=

rt_ready()
{
	[ -e "$RT_DIR/${PREFIX}r.lock" ] && [ -e "$RT_DIR/${PREFIX}rmap_1" ]
}

rt_start()
{
	RT_DIR=$MNT/rt
	mkdir "$RT_DIR" && mkfifo "$WORK/fifo" || { WHY="setup"; return 1; }
	"$BUILD/app/test/rtemem-test" --file-prefix "${PREFIX}r" \
		--huge-dir "$RT_DIR" --huge-unlink=never -m 4 \
		< "$WORK/fifo" > "$WORK/rt.log" 2>&1 &
	RT_PID=$!
	PIDS+=("$RT_PID")
	exec 9> "$WORK/fifo"
	wait_for rt_ready && return 0
	WHY="rtemem-test made no files: $(cat "$WORK/rt.log")"
	return 1
}

t_real_live()
{
	local p=$RT_PID

	tool --list "${PREFIX}r" --huge-dir "$RT_DIR"
	out_has "^  ${PREFIX}rmap_0 +2M  held: flock write lock by pid $p, mapped by pid $p\$" &&
		out_has "^  ${PREFIX}rmap_1 +2M  held: flock write lock by pid $p, mapped by pid $p\$" &&
		out_has "^  ${PREFIX}r\.lock +0  prefix lock, held: flock write lock by pid $p" ||
		return 1
	tool --remove "${PREFIX}r" --huge-dir "$RT_DIR"
	want_rc 1 && err_has "it is in use: $RT_DIR/${PREFIX}r\.lock is held \(.*pid $p" &&
		exists "$RT_DIR/${PREFIX}rmap_0" "$RT_DIR/${PREFIX}rmap_1"
}

# End of input: the prompt returns and the process exits, keeping its
# page files (--huge-unlink=never) and removing its prefix lock.
rt_stop()
{
	local rc=0

	exec 9>&-
	wait "$RT_PID" || rc=$?
	stop "$RT_PID"
	[ "$rc" -eq 0 ] && return 0
	WHY="rtemem-test exited with $rc: $(cat "$WORK/rt.log")"
	return 1
}

t_real_kept()
{
	tool --list "${PREFIX}r" --huge-dir "$RT_DIR"
	out_has "^  ${PREFIX}rmap_0 +2M  not held\$" &&
		out_has "^  ${PREFIX}rmap_1 +2M  not held\$" &&
		out_lacks "${PREFIX}r\.lock" || return 1
	tool --remove "${PREFIX}r" --huge-dir "$RT_DIR"
	want_rc 0 && gone "$RT_DIR/${PREFIX}rmap_0" "$RT_DIR/${PREFIX}rmap_1" &&
		out_has "^removed 2 files, giving back 4M of hugepages; 0 kept\$" &&
		rmdir "$RT_DIR"
}

t_nobody_is_nobody()
{
	[ "$("${NOBODY[@]}" id -u)" = 65534 ] && return 0
	WHY="setpriv did not switch to uid 65534"
	return 1
}

t_nobody_show()
{
	tool_nobody --show
	want_rc 0 && out_has '^2M pages \(hugepages-2048kB' &&
		out_has "^  2M +$MNT\$"
}

t_nobody_needs_root()
{
	local line=$1

	shift
	tool_nobody "$@"
	want_rc 2 && err_is "rtemem-hugepages: $line needs root (run with sudo)"
}

t_nobody_list()
{
	tool_nobody --list "$PREFIX" --huge-dir "$MNT"
	want_rc 0 && out_has "^  ${PREFIX}map_5 +0  not held\$"
}

t_unmount_with_file()
{
	tool --unmount "$MNT"
	want_rc 0 && not_mount "$MNT" &&
		out_has "^  its 1 file went with it, giving back 2M of hugepages\$" &&
		rmdir "$MNT"
}

# A page size of this machine other than 2M (as 1G, 16M...), or nothing.
other_page_size()
{
	local d kb

	for d in /sys/kernel/mm/hugepages/hugepages-*kB; do
		kb=${d##*-}
		kb=${kb%kB}
		[ "$kb" != 2048 ] || continue
		if [ $((kb % 1048576)) -eq 0 ]; then
			echo "$((kb / 1048576))G"
		elif [ $((kb % 1024)) -eq 0 ]; then
			echo "$((kb / 1024))M"
		else
			echo "${kb}K"
		fi
		return
	done
}

main()
{
	local held other_size

	if [ "$(id -u)" -ne 0 ]; then
		echo "must run as root: it reserves hugepages and mounts hugetlbfs"
		exit 1
	fi
	if [ ! -d "$POOL" ]; then
		echo "this kernel has no 2 MB hugepages ($POOL is missing)"
		exit 1
	fi
	trap cleanup EXIT
	trap 'exit 130' INT TERM HUP
	NR_START=$(nr)
	WORK=$(mktemp -d)
	mkdir "$WORK/bin"
	cp "$TOOL" "$WORK/bin/"
	chmod 755 "$WORK" "$WORK/bin"
	echo "nr_hugepages of 2 MB pages at the start: $NR_START"

	check "--show lists 2M pages, their count and every hugetlbfs mount" \
		t_show
	check "no option is --show" t_default_is_show
	check "--reserve NR+2 (count) and back" \
		t_reserve $((NR_START + 2)) $((NR_START + 2)) --pagesize 2M
	check "--reserve as a size, (NR+3)*2M, and back" \
		t_reserve "$(((NR_START + 3) * 2))M" $((NR_START + 3))
	if [ -d "$NODE0" ]; then
		check "--reserve on node 0, one more page, and back" \
			t_reserve_node
	else
		check "--node 0 without NUMA nodes fails" \
			t_bad 1 "there is no NUMA node 0" --reserve 1 --node 0
	fi
	check "--reserve 1T fails without asking the kernel" t_too_large 1T
	check "--reserve of more pages than memory fails" \
		t_too_large $((NR_START + $(awk '/MemTotal/ { print $2 }' \
			/proc/meminfo) / 2048))
	check "--reserve 12Q: not a size" \
		t_bad 1 "--reserve value '12Q' is not a size" --reserve 12Q
	check "--reserve 3M: not a whole number of 2M pages" \
		t_bad 1 "3M is not a whole number of 2M pages" --reserve 3M
	check "--pagesize 3M: no such pages" \
		t_bad 1 "this machine has no 3M hugepages \(page sizes: 2M" \
		--reserve 1 --pagesize 3M
	check "--clear --pagesize 3M: no such pages, nothing cleared" \
		t_bad 1 "this machine has no 3M hugepages" --clear --pagesize 3M
	check "--node 99: no such node" \
		t_bad 1 "there is no NUMA node 99" --reserve 1 --node 99
	check "--node x: usage error" \
		t_bad 2 "argument -n/--node: invalid int value" --reserve 1 --node x
	check "--huge-dir without --list or --remove: usage error" \
		t_bad 2 "--huge-dir goes with --list or --remove" --show \
		--huge-dir /tmp

	MNT=$(mktemp -d)
	OTHER=$(mktemp -d)
	PLAIN=$(mktemp -d)
	check "--mount DIR --pagesize 2M" t_mount
	check "--mount again, same page size: nothing to do" t_mount_again
	other_size=$(other_page_size)
	if [ -n "$other_size" ]; then
		check "--mount over a 2M hugetlbfs with $other_size pages is refused" \
			t_refused "$MNT is already a hugetlbfs of 2M pages" \
			--mount "$MNT" --pagesize "$other_size"
	else
		skip "--mount over a 2M hugetlbfs with other pages: none but 2M here"
	fi
	check "setup: a tmpfs mount" mount -t tmpfs -o size=1M none "$OTHER"
	check "--mount over a tmpfs is refused" \
		t_refused "$OTHER is already a mount point \(tmpfs\)" \
		--mount "$OTHER"
	check "--unmount of a tmpfs is refused" \
		t_refused "$OTHER is a tmpfs mount, not a hugetlbfs" \
		--unmount "$OTHER"
	check "the tmpfs is still mounted" is_mount "$OTHER" tmpfs
	check "setup: unmount the tmpfs, fill a plain directory" \
		umount_other_fill_plain
	check "--mount over a non-empty directory is refused" \
		t_refused "$PLAIN is not empty" --mount "$PLAIN"
	check "--unmount of a plain directory is refused" \
		t_refused "$PLAIN is not a mount point" --unmount "$PLAIN"

	# The files below use at most 4 pages: raise the pool by 6 meanwhile
	# rather than take them from other users of the pool.
	check "--reserve NR+6 for the files" \
		t_reserve_keep $((NR_START + 6))
	check "setup: 4 hugepage files (fallocate) and 3 other names" \
		make_files
	check "--list --huge-dir: 4 files, none held, others not listed" t_list
	check "--list with no --huge-dir searches every mount" \
		t_list_all_mounts

	hold "$MNT/${PREFIX}map_1"
	held=$HOLDER
	check "--list names the holder of a locked, mapped file" \
		t_list_held "$held"
	check "--remove keeps the held file (exit 1, pid named), removes 3" \
		t_remove_refuses_held "$held"
	stop "$held"
	check "--remove removes it once its holder exited" t_remove_after_exit

	check "setup: a hugepage file" fake_page "$MNT/${PREFIX}map_3"
	hold "$MNT/${PREFIX}.lock"
	held=$HOLDER
	check "--remove keeps every file of a prefix whose lock is held" \
		t_prefix_in_use "$held"
	stop "$held"
	check "--remove removes the files and the stale prefix lock" \
		t_stale_lock_removed
	check "--remove neither blocks on nor removes a FIFO" t_remove_fifo

	if [ -n "$BUILD" ] && [ -x "$BUILD/app/test/rtemem-test" ]; then
		check "setup: rtemem-test -m 4 --huge-unlink=never, alive" \
			rt_start
		check "a live rtemem process: files and prefix lock held, --remove keeps all" \
			t_real_live
		check "setup: rtemem-test exits cleanly at the end of its input" \
			rt_stop
		check "its kept files: not held, --remove removes them" \
			t_real_kept
	else
		skip "a real rtemem process: no BUILD_DIR with app/test/rtemem-test given"
	fi

	check "setpriv runs commands as nobody" t_nobody_is_nobody
	check "as nobody: --show works" t_nobody_show
	check "as nobody: --reserve fails, one line, exit 2" \
		t_nobody_needs_root "reserving pages" --reserve $((NR_START + 1))
	check "as nobody: nr_hugepages unchanged" nr_is $((NR_START + 6))
	check "as nobody: --mount fails, one line, exit 2" \
		t_nobody_needs_root "mounting hugetlbfs" --mount "$PLAIN"
	check "as nobody: --unmount fails, one line, exit 2" \
		t_nobody_needs_root "unmounting hugetlbfs" --unmount "$MNT"
	# A root-owned file with the library's mode (0600).
	install -m 600 /dev/null "$MNT/${PREFIX}map_5"
	check "as nobody: --list works" t_nobody_list
	check "as nobody: --remove of root's files fails, one line, exit 2" \
		t_nobody_needs_root "removing files in $MNT" --remove "$PREFIX" \
		--huge-dir "$MNT"
	check "as nobody: nothing removed" exists "$MNT/${PREFIX}map_5"
	check "as nobody: still mounted" is_mount "$MNT" hugetlbfs

	check "setup: a hugepage file" fake_page "$MNT/${PREFIX}map_9"
	rm -f "$MNT/${PREFIX}map_x" "$MNT/${PREFIX}2map_0" \
		"$MNT/other${PREFIX}map_0" "$MNT/${PREFIX}map_5"
	rmdir "$MNT/sub"
	check "--unmount drops the file left in it" t_unmount_with_file
	check "--reserve back to the starting count" \
		t_reserve_keep "$NR_START"

	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}

# t_reserve_keep NR: reserve NR 2M pages and leave them so.
t_reserve_keep()
{
	tool --reserve "$1" --pagesize 2M
	want_rc 0 && nr_is "$1"
}

main
