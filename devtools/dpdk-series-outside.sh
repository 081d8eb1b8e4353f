# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rtemem authors
#
# Sourced by devtools/dpdk-series.sh: the checks of a DPDK build by
# programs outside it. examples/zmalloc_check, which needs nothing but
# DPDK's public memory API, is built against the DPDK of the build
# directory; it fills a heap and exits without freeing it, and checks
# after a warm restart with --huge-unlink=never that rte_zmalloc()
# returns only zeros, alone and as a secondary process of dpdk-testpmd,
# in each memory mode. On the series every check must find no byte that
# is not zero; on DPDK as shipped the results are printed, as the
# defects the series fixes.

# The memory modes, as NAME:EAL_OPTIONS. "partial" removes the file of
# the first page between the two runs.
OUTSIDE_MODES="page-per-file: single-file:--single-file-segments
legacy:--legacy-mem partial:"

outside_dir() { echo "$work/outside-$1"; }

# build_outside TAG: build examples/zmalloc_check against the build
# directory, with pkg-config alone.
build_outside()
{
	local tag=$1 out

	out=$(outside_dir "$tag")
	mkdir -p "$out"
	# shellcheck disable=SC2046 # pkg-config prints words
	cc -O2 -Wall -Wextra -Werror -o "$out/zmalloc_check" \
		"$top/examples/zmalloc_check/main.c" \
		$(PKG_CONFIG_PATH="$(bld)/meson-uninstalled" \
			pkg-config --cflags --libs libdpdk-uninstalled) \
		-Wl,-rpath,"$(bld)/lib:$(bld)/drivers"
}

# zmalloc_check TAG ARGS...: run it, print its output line.
zmalloc_check()
{
	local tag=$1 out

	shift
	out=$(outside_dir "$tag")
	"$out/zmalloc_check" "$@" > "$out/stdout" 2> "$out/stderr" \
		< /dev/null || true
	grep '^pages' "$out/stdout" || { sed 's/^/    /' "$out/stderr"; return 1; }
}

# Judge the line of a check: on the series no byte may be non-zero and
# some pages must be dirty; on DPDK as shipped it is only reported.
judge()
{
	local tag=$1 what=$2 line=$3 dirty nonzero

	dirty=$(echo "$line" | awk '{print $4}')
	nonzero=$(echo "$line" | awk '{print $10}')
	if [ "$tag" = base ]; then
		echo "DPDK $DPDK_VERSION as shipped: $what: $line"
	elif [ -n "$nonzero" ] && [ "$nonzero" -eq 0 ] && [ "$dirty" -gt 0 ]; then
		ok "$tag: $what: $line"
	else
		bad "$tag: $what: got '$line', expected dirty pages and nonzero 0"
	fi
}

# The heap of a program of its own, in one mode: fill, restart, check.
outside_alone()
{
	local tag=$1 name=$2 line
	local -a opts common

	read -r -a opts <<< "$3"
	common=(-l 0 --huge-dir "$huge" --file-prefix zc --huge-unlink=never)
	if ! zmalloc_check "$tag" "${common[@]}" -m 8 "${opts[@]}" -- fill \
			> /dev/null; then
		bad "$tag: zmalloc_check $name: the first run failed"
		return
	fi
	[ "$name" != partial ] || rm -f "$huge/zcmap_0"
	# Legacy mode keeps the pages with the lowest physical addresses:
	# without -m it keeps them all, the reused ones too.
	[ "$name" = legacy ] || opts+=(-m 8)
	line=$(zmalloc_check "$tag" "${common[@]}" "${opts[@]}" -- check) || true
	judge "$tag" "zmalloc_check alone, $name" "$line"
	clean_huge
}

# testpmd_start MODE_OPTS...: start dpdk-testpmd, interactive, with its
# input on a FIFO (held open on fd 3), and wait for its prompt. Sets
# testpmd_pid, and testpmd_ms to the milliseconds from start to prompt.
testpmd_start()
{
	local fifo=$work/testpmd.in log=$work/logs/testpmd.log t0 i

	rm -f "$fifo"
	mkfifo "$fifo"
	t0=$(date +%s%N)
	"$(bld)/app/dpdk-testpmd" -l 0-1 --vdev net_null0 \
		--huge-dir "$huge" --file-prefix tp --huge-unlink=never \
		-m "$TESTPMD_MB" "$@" -- -i --total-num-mbufs=2048 \
		< "$fifo" > "$log" 2>&1 &
	testpmd_pid=$!
	exec 3> "$fifo"
	for i in $(seq 3000); do
		grep -q 'testpmd> ' "$log" 2> /dev/null && break
		kill -0 "$testpmd_pid" 2> /dev/null || break
		sleep 0.01
	done
	if ! grep -q 'testpmd> ' "$log"; then
		tail -n 20 "$log" | sed 's/^/    /'
		testpmd_stop
		return 1
	fi
	testpmd_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
}

testpmd_stop()
{
	echo quit >&3 || true
	exec 3>&-
	wait "$testpmd_pid" || true
	rm -f "$work/testpmd.in"
}

# dpdk-testpmd in one mode: a cold start, which a secondary process fills
# with a pattern, and a warm restart, whose heap a secondary process
# checks.
outside_testpmd()
{
	local tag=$1 name=$2 line
	local -a opts secondary

	read -r -a opts <<< "$3"
	secondary=(-l 1 --proc-type=secondary --file-prefix tp)
	if ! testpmd_start "${opts[@]}"; then
		bad "$tag: dpdk-testpmd $name: the cold start failed"
		clean_huge
		return
	fi
	zmalloc_check "$tag" "${secondary[@]}" -- fill > /dev/null ||
		bad "$tag: dpdk-testpmd $name: the secondary fill failed"
	testpmd_stop
	[ "$name" != partial ] || rm -f "$huge/tpmap_0"
	if ! testpmd_start "${opts[@]}"; then
		bad "$tag: dpdk-testpmd $name: the warm restart failed"
		clean_huge
		return
	fi
	line=$(zmalloc_check "$tag" "${secondary[@]}" -- check) || true
	testpmd_stop
	judge "$tag" "dpdk-testpmd $name, warm restart to prompt in $testpmd_ms ms" "$line"
	clean_huge
}

outside_checks()
{
	local tag=$1 mode

	if ! build_outside "$tag"; then
		bad "$tag: examples/zmalloc_check does not build against DPDK"
		return
	fi
	ok "$tag: examples/zmalloc_check built with pkg-config libdpdk"
	for mode in $OUTSIDE_MODES; do
		outside_alone "$tag" "${mode%%:*}" "${mode#*:}"
	done
	for mode in $OUTSIDE_MODES; do
		outside_testpmd "$tag" "${mode%%:*}" "${mode#*:}"
	done
}
