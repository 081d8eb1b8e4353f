#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rtemem authors
#
# Sourced by the scripts that need DPDK 22.11's source: get it from
# Debian with apt-get source, through a private sources list that enables
# deb-src and a private package list directory, so that the machine's own
# apt state is not touched, and unpack it with dpkg-source. The source is
# only ever fetched into a work directory, never kept in this repository.
#
#   dpdk_source_fetch WORK DEST: download into WORK/download (once) and
#       unpack into DEST, which must not exist; prints nothing on success
#       and a reason on stderr on failure (status 1)

DPDK_SOURCE_VERSION=22.11

# dpdk_source_apt WORK APT_ARGS...: apt-get with WORK/apt as its state.
dpdk_source_apt()
{
	local a=$1/apt

	shift
	mkdir -p "$a/lists/partial"
	# deb-src only, for these scripts: the machine's lists stay as they are.
	cat > "$a/sources.list" <<-EOS
	deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm main
	deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm-updates main
	deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian-security bookworm-security main
	EOS
	apt-get -q -o Dir::Etc::SourceList="$a/sources.list" \
		-o Dir::Etc::SourceParts=/dev/null \
		-o Dir::State::Lists="$a/lists" "$@"
}

# dpdk_source_download WORK: the .dsc of DPDK in WORK/download, fetched
# unless a previous call left it there; prints its path.
dpdk_source_download()
{
	local work=$1 dl=$1/download dsc version

	dsc=$(ls "$dl"/dpdk_*.dsc 2> /dev/null | head -n 1)
	if [ -z "$dsc" ]; then
		command -v dpkg-source > /dev/null || {
			echo "dpkg-source is missing (apt-get install dpkg-dev)" >&2
			return 1
		}
		rm -rf "$dl"
		mkdir -p "$dl"
		dpdk_source_apt "$work" update > "$work/apt-update.log" 2>&1 || {
			cat "$work/apt-update.log" >&2
			echo "apt-get update of the deb-src lists failed" >&2
			return 1
		}
		(cd "$dl" && dpdk_source_apt "$work" source --download-only dpdk) \
			> "$work/apt-source.log" 2>&1 || {
			cat "$work/apt-source.log" >&2
			echo "apt-get source dpdk failed" >&2
			return 1
		}
		dsc=$(ls "$dl"/dpdk_*.dsc)
	fi
	version=$(sed -n 's/^Version: //p' "$dsc")
	case "$version" in
	"$DPDK_SOURCE_VERSION".*) ;;
	*)
		echo "Debian's DPDK is $version, not $DPDK_SOURCE_VERSION" >&2
		return 1
		;;
	esac
	echo "$dsc"
}

dpdk_source_fetch()
{
	local work=$1 dest=$2 dsc

	mkdir -p "$work"
	dsc=$(dpdk_source_download "$work") || return 1
	dpkg-source -q -x --no-check "$dsc" "$dest" > /dev/null || {
		echo "dpkg-source -x $dsc failed" >&2
		return 1
	}
	# quilt's state is not part of DPDK's source.
	rm -rf "$dest/.pc"
}
