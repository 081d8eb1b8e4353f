# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rtemem authors
#
# Sourced by devtools/dpdk-series.sh: "bench", the figures of
# doc/guides/dpdk_series.rst. It runs the programs "test" kept of DPDK as
# shipped (bin/base) and of the series (bin/series), side by side in one
# run, since this kind of machine changes speed from minute to minute.

# testpmd_run_ms TAG MB OPTS...: start dpdk-testpmd, quit at its prompt,
# and print the milliseconds from exec to exit.
testpmd_run_ms()
{
	local tag=$1 mb=$2 t0

	shift 2
	t0=$(date +%s%N)
	echo quit | "$work/bin/$tag/dpdk-testpmd" -l 0-1 --vdev net_null0 \
		--huge-dir "$huge" --file-prefix tpb --huge-unlink=never \
		-m "$mb" "$@" -- -i --total-num-mbufs=2048 \
		> "$(logs)/bench-testpmd-$tag.log" 2>&1 || return 1
	echo $(( ($(date +%s%N) - t0) / 1000000 ))
}

# The median of numbers, one per line.
median()
{
	sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# BENCH_REPS cold starts (no file) and as many warm restarts (the files
# of the run before) of each size, both builds; the medians.
bench_testpmd()
{
	local mb tag mode cold warm i
	local -a opts

	printf '%-8s %-14s %-7s %10s %14s\n' MB mode DPDK cold_ms warm_ms
	for mb in $BENCH_SIZES; do
		for mode in page-per-file: single-file:--single-file-segments; do
			read -r -a opts <<< "${mode#*:}"
			for tag in base series; do
				cold=$(for i in $(seq "$BENCH_REPS"); do
					clean_huge
					testpmd_run_ms "$tag" "$mb" "${opts[@]}"
				done | median)
				warm=$(for i in $(seq "$BENCH_REPS"); do
					testpmd_run_ms "$tag" "$mb" "${opts[@]}"
				done | median)
				[ -n "$cold" ] && [ -n "$warm" ] ||
					bad "bench: dpdk-testpmd $tag $mb MB ${mode%%:*}"
				printf '%-8s %-14s %-7s %10s %14s\n' "$mb" \
					"${mode%%:*}" "$tag" "${cold:-failed}" \
					"${warm:-failed}"
			done
		done
	done
	clean_huge
}

# malloc_perf_autotest with --huge-unlink=never, warm: a first run makes
# the files, the second is shown.
bench_malloc_perf()
{
	local tag run

	for tag in base series; do
		clean_huge
		for run in cold warm; do
			DPDK_TEST=malloc_perf_autotest "$work/bin/$tag/dpdk-test" \
				-l 0 --huge-dir "$huge" --file-prefix mpb \
				--huge-unlink=never < /dev/null \
				> "$(logs)/bench-perf-$tag-$run.log" 2>&1 ||
				bad "bench: malloc_perf_autotest $tag $run"
		done
		echo "--- malloc_perf_autotest, DPDK $tag, warm:"
		sed -n 's/^USER1: //p' "$(logs)/bench-perf-$tag-warm.log"
	done
	clean_huge
}

# rtemem's start-up next to each dpdk-test, with rtemem-malloc-perf.
bench_rtemem()
{
	local perf=$rtemem_build/app/test-malloc-perf/rtemem-malloc-perf tag
	local sizes

	[ -x "$perf" ] || { bad "bench: no $perf"; return; }
	sizes=$(echo "$BENCH_SIZES" | tr ' ' ,)
	for tag in base series; do
		clean_huge
		echo "--- rtemem-malloc-perf against dpdk-test of DPDK $tag:"
		"$perf" --huge-dir "$huge/perf" --sizes "$sizes" \
			--modes never-cold,never-warm,sfs-never-warm \
			--reps "$BENCH_REPS" --no-alloc-table --quiet \
			--compare-dpdk --dpdk-test "$work/bin/$tag/dpdk-test" ||
			bad "bench: rtemem-malloc-perf against $tag"
	done
	clean_huge
}

cmd_bench()
{
	[ -n "$huge" ] || die "bench needs --huge-dir"
	[ -x "$work/bin/base/dpdk-testpmd" ] && [ -x "$work/bin/series/dpdk-testpmd" ] ||
		die "no programs to measure: run '$(basename "$0") test' first (without --quick)" 1
	mkdir -p "$(logs)"
	log "dpdk-testpmd, exec to exit, medians of $BENCH_REPS cold and $BENCH_REPS warm"
	bench_testpmd
	log "malloc_perf_autotest"
	bench_malloc_perf
	[ -z "$rtemem_build" ] || bench_rtemem
}
