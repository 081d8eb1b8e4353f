#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rtemem authors
#
# DPDK 22.11's own memory tests, run against rtemem: get DPDK's source from
# Debian (devtools/dpdk-source.sh), compile its app/test/test_malloc.c,
# test_memzone.c, test_memory.c, test_malloc_perf.c and test_eal_flags.c
# against an installed rtemem with the harness of app/dpdk-conformance/,
# and run each case of app/dpdk-conformance/cases in each memory mode, in
# a process of its own. Prints one line per case and mode:
#   ok: MODE CASE                  passed
#   FAILED: MODE CASE              failed (its output follows)
#   differs: MODE CASE: REASON     failed, as the case list says it does
#   not run: CASE: REASON
# and ends with a count; exits 1 if any case failed.

set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=devtools/dpdk-source.sh
. "$top/devtools/dpdk-source.sh"

harness=$top/app/dpdk-conformance
work=$top/build-conformance
huge=
build=
only_modes=
CASE_TIMEOUT=300 # seconds for one case in one mode
DPDK_TESTS="test_malloc.c test_memzone.c test_memory.c test_malloc_perf.c
test_eal_flags.c"
# The modes: name, then EAL options. "never" runs each case twice on the
# same prefix, cold (new files) and warm (the files the first run kept).
MODES=(
	"dynamic|"
	"legacy|--legacy-mem"
	"single-file|--single-file-segments"
	"in-memory|--in-memory"
	"no-huge|--no-huge"
	"never|--huge-unlink=never"
)

usage()
{
	cat <<-EOF
	usage: $(basename "$0") [-w DIR] [--modes LIST] --huge-dir DIR BUILD

	Install the rtemem build BUILD into DIR/stage, build DPDK's memory
	tests against it and run every case of app/dpdk-conformance/cases
	in each mode (${MODES[*]%%|*}).

	  -w DIR          work directory (default: build-conformance/ at the
	                  top of this repository); DPDK's source is fetched
	                  into it once
	  --huge-dir DIR  a hugetlbfs mount point (2 MB pages) that nothing
	                  else uses while the tests run: DPDK's option tests
	                  look for hugepage files at the top of every mount.
	                  The other cases run in DIR/conformance.
	  --modes LIST    only these modes (comma-separated)

	Needs root and about 1.5 GB of free 2 MB hugepages.
	EOF
}

die()
{
	echo "$(basename "$0"): $1" >&2
	exit 2
}

while [ $# -gt 0 ]; do
	case "$1" in
	-w) work=$(realpath -m "$2"); shift 2 ;;
	--huge-dir) huge=$(realpath "$2"); shift 2 ;;
	--modes) only_modes=$2; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	-*) usage >&2; exit 2 ;;
	*) [ -z "$build" ] || die "one build directory only"; build=$(realpath "$1"); shift ;;
	esac
done
[ -n "$build" ] && [ -d "$build" ] || { usage >&2; exit 2; }
[ -n "$huge" ] || die "--huge-dir is needed"
[ "$(stat -f -c %T "$huge")" = hugetlbfs ] || die "$huge is not a hugetlbfs"
mountpoint -q "$huge" || die "$huge is not a mount point"

passed=0
failed=0
differ=0
notrun=0
failures=()

# Install the build and compile the tests against it.
prepare()
{
	local stage=$work/stage src=$work/src pc f cflags=()

	mkdir -p "$work"
	if [ ! -d "$work/dpdk" ]; then
		dpdk_source_fetch "$work" "$work/dpdk" || die "cannot get DPDK's source"
	fi
	rm -rf "$stage" "$src"
	meson install -C "$build" --destdir "$stage" --quiet > /dev/null
	pc=$(dirname "$(find "$stage" -name rtemem.pc | head -n 1)")
	export PKG_CONFIG_PATH=$pc PKG_CONFIG_SYSROOT_DIR=$stage
	export LD_LIBRARY_PATH=${pc%/pkgconfig}
	mkdir -p "$src"
	for f in $DPDK_TESTS; do
		cp "$work/dpdk/app/test/$f" "$src/"
	done
	cp "$harness"/cases_*.c "$src/"
	if meson introspect "$build" --buildoptions |
		python3 -c 'import json, sys
sys.exit(0 if any(o["name"] == "malloc_debug" and o["value"]
	for o in json.load(sys.stdin)) else 1)'; then
		cflags+=(-DCONFORMANCE_MALLOC_DEBUG)
	fi
	# The harness is ours and held to our warnings; DPDK's files are
	# held only to what would mean that rtemem's headers differ.
	cc -O2 -Wall -Wextra -Werror -c -o "$src/runner.o" \
		$(pkg-config --cflags rtemem) "$harness/runner.c"
	cc -O2 -w -Werror=implicit-function-declaration \
		-Werror=incompatible-pointer-types -Werror=int-conversion \
		"${cflags[@]}" -I "$harness" -I "$harness/shim" \
		-o "$work/dpdk-conformance-test" $(pkg-config --cflags rtemem) \
		"$src/runner.o" "$src/cases_malloc.c" "$src/cases_memzone.c" \
		"$src/test_memory.c" "$src/test_malloc_perf.c" \
		"$src/test_eal_flags.c" $(pkg-config --libs rtemem)
	echo "--- built DPDK $(dpkg-parsechangelog -l "$work/dpdk/debian/changelog" -S Version)'s memory tests against $build"
}

mode_selected()
{
	[ -z "$only_modes" ] && return 0
	case ",$only_modes," in *",$1,"*) return 0 ;; esac
	return 1
}

# Hugepage files of prefix $1 in $2, which must be none after a run that
# does not keep them.
left_files() { find "$2" -maxdepth 1 -name "$1map_*" | head -n 5 || true; }

# run_case MODE OPTS CASE MB PREFIX: one run; sets $out to its output file.
run_case()
{
	local mode=$1 opts=$2 name=$3 mb=$4 prefix=$5 dir=$huge/conformance
	local mem=(-m "$mb") hd=(--huge-dir "$dir")

	out=$work/logs/$mode-${name//:/-}.log
	mkdir -p "$work/logs" "$dir"
	if [ "$mb" = root ]; then
		mem=(-m 64)
		hd=(--huge-dir "$huge")
	fi
	[ "$mode" != no-huge ] || hd=()
	# shellcheck disable=SC2086 # $opts is a list of options
	timeout --kill-after=10 "$CASE_TIMEOUT" "$work/dpdk-conformance-test" \
		-l 0-1 --file-prefix "$prefix" "${hd[@]}" "${mem[@]}" $opts \
		-- "$name" > "$out" 2>&1 || true
	grep -qx "case $name: ok" "$out"
}

# report MODE CASE EXPECT REASON PASSED
report()
{
	local mode=$1 name=$2 expect=$3 reason=$4 result=$5

	if [ "$expect" = pass ] && [ "$result" = yes ]; then
		passed=$((passed + 1))
		echo "ok: $mode $name"
	elif [ "$expect" = differs ] && [ "$result" = no ]; then
		differ=$((differ + 1))
		echo "differs: $mode $name: $reason"
	else
		failed=$((failed + 1))
		failures+=("$mode $name")
		if [ "$expect" = differs ]; then
			echo "FAILED: $mode $name: passes, but is listed as differing"
		else
			echo "FAILED: $mode $name"
			grep -v '^ ' "$out" | tail -n 15 | sed 's/^/    /'
		fi
	fi
}

# one_case MODE OPTS CASE MB EXPECT REASON N
one_case()
{
	local mode=$1 opts=$2 name=$3 mb=$4 expect=$5 reason=$6 n=$7
	local prefix=conf$n dir=$huge/conformance run result left

	[ "$mb" != root ] || dir=$huge
	for run in $([ "$mode" = never ] && echo cold warm || echo once); do
		result=no
		run_case "$mode" "$opts" "$name" "$mb" "$prefix" && result=yes
		left=$(left_files "$prefix" "$dir")
		if [ "$mode" != never ] && [ -n "$left" ]; then
			echo "    files left by the run: $left"
			result=no
		fi
		report "$mode$([ "$run" = once ] || echo "-$run")" "$name" \
			"$expect" "$reason" "$result"
	done
	# Kept files and the record of their layout (--huge-unlink=never).
	find "$dir" -maxdepth 1 \( -name "${prefix}map_*" -o \
		-name "${prefix}.layout-*" \) -delete
}

run_all()
{
	local m mode opts name mb modes expect reason n=0

	for m in "${MODES[@]}"; do
		mode=${m%%|*}
		opts=${m#*|}
		mode_selected "$mode" || continue
		echo "--- mode $mode${opts:+ ($opts)}"
		while read -r name mb modes expect reason; do
			case "$name" in "#"* | "") continue ;; esac
			[ "$modes" = all ] || case ",$modes," in
				*",$mode,"*) ;;
				*) continue ;;
				esac
			n=$((n + 1))
			if [ "$expect" = not-run ]; then
				notrun=$((notrun + 1))
				echo "not run: $mode $name: $reason"
				continue
			fi
			one_case "$mode" "$opts" "$name" "$mb" "$expect" \
				"$reason" "$n"
		done < "$harness/cases"
	done
}

prepare
# What an earlier run that was stopped may have left.
rm -rf "$huge/conformance"
find "$huge" -maxdepth 1 \( -name 'conf[0-9]*map_*' -o \
	-name 'conf[0-9]*.layout-*' \) -delete
start=$(date +%s)
run_all
rmdir "$huge/conformance" 2> /dev/null || true
echo "dpdk-conformance: $passed passed, $failed failed, $differ differ as listed, $notrun not run ($(($(date +%s) - start)) s)"
for f in "${failures[@]}"; do
	echo "failed: $f"
done
[ "$failed" -eq 0 ]
