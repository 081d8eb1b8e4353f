# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rtemem authors
#
# Sourced by .ci/run and devtools/demo.sh (bash, as root, on Debian 12):
# install the packages rtemem needs, make sure enough free 2 MB hugepages
# exist, mount a private hugetlbfs, and undo all of it on exit; the same
# for 1 GB pages, for the steps that run on them.
#
# Each function prints what went wrong and returns non-zero on failure.
# env_cleanup is idempotent: call it from an EXIT trap and again wherever
# the caller wants the machine restored.

# What building and testing rtemem needs on Debian 12: the hugetext
# tests link with lld too and run gdb.
RTEMEM_DEBIAN_PACKAGES="meson ninja-build gcc libc6-dev pkg-config \
libnuma-dev python3-pyelftools clang-format git lld gdb"

HP_SYSFS=/sys/kernel/mm/hugepages/hugepages-2048kB
HP_ORIG_NR= # nr_hugepages before env_reserve_hugepages changed it
HUGE_DIR= # the private hugetlbfs mount point, once mounted
HP1G_SYSFS=/sys/kernel/mm/hugepages/hugepages-1048576kB
HP1G_ORIG_NR= # nr_hugepages of 1 GB pages before env_gigantic_start
HUGE_DIR_1G= # the private 1 GB hugetlbfs, between start and stop
HP_FREE= # free pages of the size hp_reserve last looked at

env_require_root()
{
	if [ "$(id -u)" -ne 0 ]; then
		echo "must run as root: it reserves hugepages and mounts hugetlbfs"
		return 1
	fi
}

# env_install_packages PACKAGE...: apt-get install, quietly unless it
# fails; nothing at all when every package is installed already.
env_install_packages()
{
	local log

	if [ "$(dpkg-query -W -f='${Status}\n' "$@" 2> /dev/null |
			grep -c '^install ok installed$')" -eq $# ]; then
		return 0
	fi
	log=$(mktemp)
	if { apt-get update -qq &&
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			--no-install-recommends "$@"; } > "$log" 2>&1; then
		rm -f "$log"
		return 0
	fi
	cat "$log"
	rm -f "$log"
	echo "apt-get could not install: $*"
	return 1
}

# Free 2 MB hugepages, now.
env_free_hugepages()
{
	cat "$HP_SYSFS/free_hugepages"
}

# hp_reserve SYSFS MIN ORIG_VAR: raise the nr_hugepages of the page size
# of SYSFS by as many pages as are missing for MIN to be free, saving the
# old value in the variable named ORIG_VAR first (once). The free count
# is left in HP_FREE.
hp_reserve()
{
	local sysfs=$1 min=$2 nr

	HP_FREE=$(cat "$sysfs/free_hugepages")
	[ "$HP_FREE" -lt "$min" ] || return 0
	nr=$(cat "$sysfs/nr_hugepages")
	[ -n "${!3}" ] || printf -v "$3" %s "$nr"
	# The kernel may reserve fewer than asked: the count says.
	echo $((nr + min - HP_FREE)) > "$sysfs/nr_hugepages" || true
	HP_FREE=$(cat "$sysfs/free_hugepages")
}

# hp_restore SYSFS ORIG_VAR: put back the nr_hugepages hp_reserve saved.
hp_restore()
{
	local ret=0

	if [ -n "${!2}" ]; then
		echo "${!2}" > "$1/nr_hugepages" || ret=1
		printf -v "$2" %s ""
	fi
	return $ret
}

# hp_mount PAGESIZE DIR_VAR: mount a private hugetlbfs of PAGESIZE (2M,
# 1G) on a new directory, named in the variable DIR_VAR.
hp_mount()
{
	local dir

	dir=$(mktemp -d "/tmp/rtemem-hugepages-$1.XXXXXX") || return 1
	if ! mount -t hugetlbfs -o "pagesize=$1" nodev "$dir"; then
		rmdir "$dir"
		return 1
	fi
	printf -v "$2" %s "$dir"
}

# hp_unmount DIR_VAR: unmount and remove the hugetlbfs named in DIR_VAR
# (which frees the pages of any file left in it).
hp_unmount()
{
	local dir=${!1} ret=0

	[ -n "$dir" ] || return 0
	if ! umount "$dir"; then
		echo "could not unmount $dir: detaching it lazily"
		umount -l "$dir" || true
		ret=1
	fi
	rmdir "$dir" || ret=1
	printf -v "$1" %s ""
	return $ret
}

# env_reserve_hugepages MIN: raise nr_hugepages by as many 2 MB pages as
# are missing for MIN to be free. env_cleanup restores the old value.
env_reserve_hugepages()
{
	if [ ! -d "$HP_SYSFS" ]; then
		echo "this kernel has no 2 MB hugepages ($HP_SYSFS is missing)"
		return 1
	fi
	hp_reserve "$HP_SYSFS" "$1" HP_ORIG_NR
	if [ "$HP_FREE" -lt "$1" ]; then
		echo "only $HP_FREE free 2 MB hugepages, $1 needed: the kernel" \
			"could not reserve more (memory too fragmented? try" \
			"right after boot)"
		return 1
	fi
	echo "$HP_FREE free 2 MB hugepages"
}

# Mount a private 2 MB hugetlbfs on a new directory, in HUGE_DIR.
env_mount_hugetlbfs()
{
	hp_mount 2M HUGE_DIR && echo "hugetlbfs mounted on $HUGE_DIR"
}

# hp_lend_2m N: give the free pages of the 2 MB pool back to the kernel,
# which took them early from unbroken memory and may join them into 1 GB
# ranges, reserve the 1 GB pages short of N, then fill the 2 MB pool
# again. Says so if the 2 MB pool does not come back whole.
hp_lend_2m()
{
	local nr free

	nr=$(cat "$HP_SYSFS/nr_hugepages")
	free=$(cat "$HP_SYSFS/free_hugepages")
	echo $((nr - free)) > "$HP_SYSFS/nr_hugepages" || return 0
	hp_reserve "$HP1G_SYSFS" "$1" HP1G_ORIG_NR
	echo "$nr" > "$HP_SYSFS/nr_hugepages" || true
	if [ "$(cat "$HP_SYSFS/nr_hugepages")" -lt "$nr" ]; then
		echo "the 2 MB pool came back with" \
			"$(cat "$HP_SYSFS/nr_hugepages") of its $nr pages"
	fi
}

# env_gigantic_reserve N: make N 1 GB pages free, raising nr_hugepages
# of that size by what is missing. The kernel finds 1 GB of contiguous
# free memory per page by moving pages; when it finds too few, the clean
# page cache is dropped and memory compacted, and it tries again, then
# once more with the 2 MB pool's free pages lent back (hp_lend_2m); when
# it still cannot, only a boot parameter (hugepagesz=1G hugepages=N)
# gives them. Builds and tests break memory into pieces that compaction
# does not always join again, so a caller that needs these pages late
# reserves them first thing and holds them, unmounted, until then.
env_gigantic_reserve()
{
	if [ ! -d "$HP1G_SYSFS" ]; then
		echo "this kernel or CPU has no 1 GB hugepages ($HP1G_SYSFS is missing)"
		return 1
	fi
	hp_reserve "$HP1G_SYSFS" "$1" HP1G_ORIG_NR
	if [ "$HP_FREE" -lt "$1" ]; then
		# Free memory often lies in 1 GB ranges once the clean page
		# cache (which builds fill) is dropped and the kernel has moved
		# pages together.
		sync
		echo 3 > /proc/sys/vm/drop_caches || true
		echo 1 > /proc/sys/vm/compact_memory || true
		hp_reserve "$HP1G_SYSFS" "$1" HP1G_ORIG_NR
	fi
	[ "$HP_FREE" -ge "$1" ] || [ ! -d "$HP_SYSFS" ] || hp_lend_2m "$1"
	if [ "$HP_FREE" -lt "$1" ]; then
		echo "only $HP_FREE free 1 GB hugepages, $1 needed: the kernel" \
			"found no more 1 GB ranges of free memory (reserve them" \
			"at boot: hugepagesz=1G hugepages=$1)"
		return 1
	fi
	echo "$HP_FREE free 1 GB hugepages"
}

# env_gigantic_start N: make N 1 GB pages free (env_gigantic_reserve,
# which finds nothing to do when they were reserved before) and mount a
# private hugetlbfs of them on a new directory, in HUGE_DIR_1G.
env_gigantic_start()
{
	env_gigantic_reserve "$1" &&
		hp_mount 1G HUGE_DIR_1G &&
		echo "hugetlbfs of 1 GB pages mounted on $HUGE_DIR_1G"
}

# Unmount the 1 GB hugetlbfs and restore that size's nr_hugepages.
env_gigantic_stop()
{
	local ret=0

	hp_unmount HUGE_DIR_1G || ret=1
	hp_restore "$HP1G_SYSFS" HP1G_ORIG_NR || ret=1
	return $ret
}

# Unmount the private hugetlbfs mounts and restore nr_hugepages.
env_cleanup()
{
	local ret=0

	env_gigantic_stop || ret=1
	hp_unmount HUGE_DIR || ret=1
	hp_restore "$HP_SYSFS" HP_ORIG_NR || ret=1
	return $ret
}
