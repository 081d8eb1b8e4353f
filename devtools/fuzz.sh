#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rtemem authors
#
# Fuzz the EAL option parser with libFuzzer under ASan and UBSan: build
# app/test-fuzz with clang in its own build directory, seed the corpus
# with every documented option (app/test-fuzz/seeds.txt) and the
# regression inputs, and fuzz for a while. A crash, leak, hang or broken
# contract fails the run; its input is copied to
# app/test-fuzz/regressions/eal_options/, to be committed, so that it is
# run on every build from then on (meson test --suite fuzz).
#
# Usage: devtools/fuzz.sh [-t SECONDS] [-b BUILD_DIR]
#   -t  how long to fuzz (default 60; a nightly run gives hours)
#   -b  build directory (default build-fuzz/ at the top of this tree)
# Needs clang (Debian: apt-get install clang). Prints "ok: ..." or
# "FAILED: ..." lines and exits 1 on failure.

set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
seconds=60
build=$top/build-fuzz
regressions=$top/app/test-fuzz/regressions/eal_options

while getopts "t:b:" opt; do
	case $opt in
	t) seconds=$OPTARG ;;
	b) build=$(realpath -m "$OPTARG") ;;
	*) sed -n '14,17p' "$0" >&2; exit 2 ;;
	esac
done

command -v clang > /dev/null ||
	{ echo "FAILED: fuzz: clang is missing (apt-get install clang libclang-rt-14-dev)"; exit 1; }

if [ ! -f "$build/build.ninja" ]; then
	CC=clang meson setup "$build" -Dfuzz=true -Ddocs=false \
		-Db_sanitize=address,undefined -Db_lundef=false \
		-Dbuildtype=debugoptimized > "$build.setup.log" 2>&1 ||
		{ cat "$build.setup.log"; echo "FAILED: fuzz: meson setup"; exit 1; }
	rm -f "$build.setup.log"
fi
ninja -C "$build" app/test-fuzz/fuzz_eal_options > /dev/null ||
	{ echo "FAILED: fuzz: build"; exit 1; }

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

corpus=$build/fuzz-corpus/eal_options
crashes=$build/fuzz-crashes
# The seeds and the regressions first, each once: they must all pass.
# The seeds stay in the corpus to fuzz from.
if "$top/app/test-fuzz/run_corpus.sh" "$build/app/test-fuzz/fuzz_eal_options" \
		"$top/app/test-fuzz/seeds.txt" "$regressions" "$corpus" \
		> "$build/fuzz-corpus.log" 2>&1; then
	echo "ok: fuzz: the seed corpus and every regression input"
else
	tail -n 30 "$build/fuzz-corpus.log"
	echo "FAILED: fuzz: the seed corpus or a regression input"
	exit 1
fi

mkdir -p "$crashes"
rm -f "$crashes"/*
# -timeout: an input that takes more than 5 s is a hang.
if "$build/app/test-fuzz/fuzz_eal_options" -max_total_time="$seconds" \
		-timeout=5 -rss_limit_mb=1024 -max_len=512 -print_final_stats=1 \
		-artifact_prefix="$crashes/" "$corpus" > "$build/fuzz.log" 2>&1; then
	echo "ok: fuzz: fuzz_eal_options ran $seconds s:" \
		"$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$build/fuzz.log" |
			grep -o '[0-9]*$') inputs, no crash, leak or hang"
	exit 0
fi
tail -n 40 "$build/fuzz.log"
mkdir -p "$regressions"
for f in "$crashes"/*; do
	[ -f "$f" ] || continue
	cp "$f" "$regressions/"
	echo "input saved as $regressions/$(basename "$f"): commit it"
done
echo "FAILED: fuzz: fuzz_eal_options found a crash, leak or hang"
exit 1
