#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rtemem authors
#
# Run a libFuzzer target once over its seed corpus and its regression
# inputs, without fuzzing:
#   run_corpus.sh FUZZER SEEDS.txt REGRESSION_DIR [CORPUS_DIR]
# SEEDS.txt has one command line per line, arguments separated by
# spaces, "#" comments; each line becomes an input with NUL separators,
# in CORPUS_DIR when given (to fuzz from), else in a temporary directory.
set -eu

fuzzer=$1
seeds=$2
regressions=$3
if [ $# -ge 4 ]; then
	corpus=$4
	mkdir -p "$corpus"
else
	corpus=$(mktemp -d)
	trap 'rm -rf "$corpus"' EXIT
fi

n=0
grep -v '^#' "$seeds" | while IFS= read -r line; do
	[ -n "$line" ] || continue
	n=$((n + 1))
	printf '%s' "$line" | tr ' ' '\0' > "$corpus/seed-$n"
done
set -- "$corpus"
[ -d "$regressions" ] && set -- "$@" "$regressions"
# -runs=0: execute every input once, then stop.
"$fuzzer" -runs=0 "$@"
