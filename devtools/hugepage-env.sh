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

# What building and testing rtemem needs on Debian 12.
RTEMEM_DEBIAN_PACKAGES="meson ninja-build gcc libc6-dev pkg-config \
libnuma-dev python3-pyelftools clang-format git"

HP_SYSFS=/sys/kernel/mm/hugepages/hugepages-2048kB
HP_ORIG_NR= # nr_hugepages before env_reserve_hugepages changed it
HUGE_DIR= # the private hugetlbfs mount point, once mounted
HP1G_SYSFS=/sys/kernel/mm/hugepages/hugepages-1048576kB
HP1G_ORIG_NR= # nr_hugepages of 1 GB pages before env_gigantic_start
HUGE_DIR_1G= # the private 1 GB hugetlbfs, between start and stop

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

# env_reserve_hugepages MIN: raise nr_hugepages by as many 2 MB pages as
# are missing for MIN to be free. env_cleanup restores the old value.
env_reserve_hugepages()
{
	local min=$1 free nr

	if [ ! -d "$HP_SYSFS" ]; then
		echo "this kernel has no 2 MB hugepages ($HP_SYSFS is missing)"
		return 1
	fi
	free=$(env_free_hugepages)
	if [ "$free" -lt "$min" ]; then
		nr=$(cat "$HP_SYSFS/nr_hugepages")
		[ -n "$HP_ORIG_NR" ] || HP_ORIG_NR=$nr
		echo $((nr + min - free)) > "$HP_SYSFS/nr_hugepages" || return 1
		free=$(env_free_hugepages)
	fi
	if [ "$free" -lt "$min" ]; then
		echo "only $free free 2 MB hugepages, $min needed: the kernel" \
			"could not reserve more (memory too fragmented? try" \
			"right after boot)"
		return 1
	fi
	echo "$free free 2 MB hugepages"
}

# Mount a private 2 MB hugetlbfs on a new directory, in HUGE_DIR.
env_mount_hugetlbfs()
{
	local dir

	dir=$(mktemp -d /tmp/rtemem-hugepages.XXXXXX) || return 1
	if ! mount -t hugetlbfs -o pagesize=2M nodev "$dir"; then
		rmdir "$dir"
		return 1
	fi
	HUGE_DIR=$dir
	echo "hugetlbfs mounted on $HUGE_DIR"
}

# env_gigantic_start N: make N 1 GB pages free (raising nr_hugepages of
# that size by what is missing) and mount a private hugetlbfs of them on
# a new directory, in HUGE_DIR_1G. The kernel finds 1 GB of contiguous
# free memory per page by moving pages; when it cannot, only a boot
# parameter (hugepagesz=1G hugepages=N) gives them.
env_gigantic_start()
{
	local min=$1 free nr dir

	if [ ! -d "$HP1G_SYSFS" ]; then
		echo "this kernel or CPU has no 1 GB hugepages ($HP1G_SYSFS is missing)"
		return 1
	fi
	free=$(cat "$HP1G_SYSFS/free_hugepages")
	if [ "$free" -lt "$min" ]; then
		nr=$(cat "$HP1G_SYSFS/nr_hugepages")
		[ -n "$HP1G_ORIG_NR" ] || HP1G_ORIG_NR=$nr
		echo $((nr + min - free)) > "$HP1G_SYSFS/nr_hugepages" || true
		free=$(cat "$HP1G_SYSFS/free_hugepages")
	fi
	if [ "$free" -lt "$min" ]; then
		echo "only $free free 1 GB hugepages, $min needed: the kernel" \
			"found no more 1 GB ranges of free memory (reserve them" \
			"at boot: hugepagesz=1G hugepages=$min)"
		return 1
	fi
	dir=$(mktemp -d /tmp/rtemem-hugepages-1g.XXXXXX) || return 1
	if ! mount -t hugetlbfs -o pagesize=1G nodev "$dir"; then
		rmdir "$dir"
		return 1
	fi
	HUGE_DIR_1G=$dir
	echo "$free free 1 GB hugepages, hugetlbfs mounted on $HUGE_DIR_1G"
}

# Unmount the 1 GB hugetlbfs and restore that size's nr_hugepages.
env_gigantic_stop()
{
	local ret=0

	if [ -n "$HUGE_DIR_1G" ]; then
		if ! umount "$HUGE_DIR_1G"; then
			umount -l "$HUGE_DIR_1G" || true
			ret=1
		fi
		rmdir "$HUGE_DIR_1G" || ret=1
		HUGE_DIR_1G=
	fi
	if [ -n "$HP1G_ORIG_NR" ]; then
		echo "$HP1G_ORIG_NR" > "$HP1G_SYSFS/nr_hugepages" || ret=1
		HP1G_ORIG_NR=
	fi
	return $ret
}

# Unmount the private hugetlbfs mounts (which frees the pages of any file
# left in them) and restore nr_hugepages.
env_cleanup()
{
	local ret=0

	env_gigantic_stop || ret=1

	if [ -n "$HUGE_DIR" ]; then
		if ! umount "$HUGE_DIR"; then
			echo "could not unmount $HUGE_DIR: detaching it lazily"
			umount -l "$HUGE_DIR" || true
			ret=1
		fi
		rmdir "$HUGE_DIR" || ret=1
		HUGE_DIR=
	fi
	if [ -n "$HP_ORIG_NR" ]; then
		echo "$HP_ORIG_NR" > "$HP_SYSFS/nr_hugepages" || ret=1
		HP_ORIG_NR=
	fi
	return $ret
}
