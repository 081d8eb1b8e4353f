#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rtemem authors
#
# Check source files against the project's rules (doc: style.md, DPDK's
# coding style):
#   format   .c/.h under lib/, app/, examples/ are as clang-format
#            (.clang-format, DPDK style) would write them;
#   output   no printf/vprintf/puts/perror and no printing to stdout or
#            stderr in lib/: lib/ logs with EAL_LOG(); lib/eal/eal_log.c,
#            which implements logging, is exempt, and printing to a stream
#            the caller passes (fprintf(f, ...) in dump functions) is fine;
#   markers  no to-do, fix-me or triple-x markers in any file;
#   spdx     an SPDX-License-Identifier line at the top of every .c, .h,
#            .py, .sh, .rst, meson.build, meson_options.txt and .ci/run;
#   owners   every file is matched by a section of MAINTAINERS;
#   layers   the libraries above lib/eal name no Linux file: what they
#            need of the OS is in lib/eal/eal_sys.h, implemented under
#            lib/eal/linux/; and in lib/malloc, the heap layer (heaps,
#            queue, bins, trim, check, memzones, external and kept
#            memory) reaches the per-lcore layer above it (caches, slabs)
#            only through malloc_lcore.h.
#
# Prints one line per problem and a summary; exits 1 if there is any.

set -euo pipefail

usage()
{
	cat <<-EOF
	usage: $(basename "$0") [--no-format] [-h] [FILE...]

	Check FILEs, or by default every file git knows (tracked, plus new
	files not ignored). Each check looks only at the files it applies to.

	  --no-format  do not fail on clang-format differences; only count
	               the files that differ
	EOF
}

format=true
while [ $# -gt 0 ]; do
	case "$1" in
	--no-format) format=false; shift ;;
	-h|--help) usage; exit 0 ;;
	--) shift; break ;;
	-*) usage >&2; exit 2 ;;
	*) break ;;
	esac
done

top=$(cd "$(dirname "$0")/.." && pwd)
files=()
if [ $# -eq 0 ]; then
	cd "$top"
	while IFS= read -r -d '' f; do
		[ -f "$f" ] && files+=("$f")
	done < <(git ls-files -z --cached --others --exclude-standard |
		sort -zu)
else
	# Paths are checked relative to the top of the tree.
	for f in "$@"; do
		[ -f "$f" ] || { echo "$f: no such file" >&2; exit 2; }
		files+=("$(realpath --relative-to="$top" "$f")")
	done
	cd "$top"
fi

nproblems=0
nunformatted=0
nformat_checked=0

# Print each line of $1 as a problem.
problem()
{
	[ -n "$1" ] || return 0
	printf '%s\n' "$1"
	nproblems=$((nproblems + $(printf '%s\n' "$1" | wc -l)))
}

check_format()
{
	local f=$1 n what

	nformat_checked=$((nformat_checked + 1))
	n=$(clang-format --style=file --dry-run "$f" 2>&1 |
		grep -c 'warning: code should be clang-formatted' || true)
	[ "$n" -eq 0 ] && return 0
	nunformatted=$((nunformatted + 1))
	[ "$n" -eq 1 ] && what="1 change" || what="$n changes"
	if $format; then
		problem "$f: differs from clang-format ($what; clang-format -i $f)"
	fi
}

check_output()
{
	local f=$1 re

	re='(^|[^[:alnum:]_])(printf|vprintf|puts|perror)[[:space:]]*\('
	re+='|(^|[^[:alnum:]_])v?fprintf[[:space:]]*\([[:space:]]*std(err|out)[[:space:]]*,'
	re+='|(^|[^[:alnum:]_])fputs[[:space:]]*\(.*,[[:space:]]*std(err|out)[[:space:]]*\)'
	grep -nE "$re" "$f" | while IFS= read -r hit; do
		printf '%s:%s: prints to the terminal in lib/: use EAL_LOG()\n' \
			"$f" "${hit%%:*}"
	done
}

check_markers()
{
	local f=$1 re

	# Spelled in pieces so that this file does not match itself.
	re='(^|[^[:alnum:]_])(TO''DO|FIX''ME|X''XX)([^[:alnum:]_]|$)'
	grep -InE "$re" "$f" | while IFS= read -r hit; do
		printf '%s:%s: marker left in: open an issue instead\n' \
			"$f" "${hit%%:*}"
	done
}

check_layers()
{
	local f=$1

	grep -nE '^#[[:space:]]*include[[:space:]]*[<"]linux/' "$f" |
		while IFS= read -r hit; do
			printf '%s:%s: names a Linux file: use eal_sys.h\n' \
				"$f" "${hit%%:*}"
		done
}

# A file of lib/malloc's heap layer: no header, function, macro or
# shared-state field of the caches and slabs (comment lines aside).
check_heap_layer()
{
	local f=$1 re

	re='^#[[:space:]]*include[[:space:]]*"malloc_(cache|cache_fast|slab|slab_fast)\.h"'
	re+='|(^|[^[:alnum:]_])(malloc_(cache|slab)_[a-z0-9_]+|MALLOC_(CACHE|SLAB)_[A-Z0-9_]+|CACHE_FOREACH)'
	re+='|(->|\.)caches\['
	grep -nE "$re" "$f" |
		grep -vE '^[0-9]+:[[:space:]]*(/\*|\*|//)' |
		while IFS= read -r hit; do
			printf '%s:%s: the heap reaches lcore caches and slabs only through malloc_lcore.h\n' \
				"$f" "${hit%%:*}"
		done
}

check_spdx()
{
	local f=$1

	head -n 3 "$f" | grep -q 'SPDX-License-Identifier: BSD-3-Clause' ||
		problem "$f: no 'SPDX-License-Identifier: BSD-3-Clause' in the first 3 lines"
}

# Files matched by no F: pattern (or only excluded by X:) of MAINTAINERS.
check_owners()
{
	[ -f MAINTAINERS ] || { problem "MAINTAINERS: missing"; return; }
	printf '%s\0' "${files[@]}" | python3 -c '
import re
import sys

def to_regex(pattern):
    """F:/X: pattern: a trailing / takes the whole subtree, wildcards
    stay within one directory level."""
    out = ""
    for c in pattern:
        if c == "*":
            out += "[^/]*"
        elif c == "?":
            out += "[^/]"
        else:
            out += re.escape(c)
    return re.compile(out + (".*" if pattern.endswith("/") else "") + "$")

# Sections are runs of tag lines; X: excludes within its section only.
sections, current = [], None
with open("MAINTAINERS") as m:
    for line in m:
        tag = re.match(r"([A-Z]):\s*(\S+)", line)
        if tag is None:
            current = None
            continue
        if current is None:
            current = {"F": [], "X": []}
            sections.append(current)
        if tag[1] in current:
            current[tag[1]].append(to_regex(tag[2]))

def owned(path):
    return any(any(r.match(path) for r in s["F"]) and
               not any(r.match(path) for r in s["X"]) for s in sections)

for path in sys.stdin.read().split("\0"):
    if path and not owned(path):
        print(path + ": matched by no section of MAINTAINERS")
'
}

for f in "${files[@]}"; do
	case "$f" in
	lib/*.[ch]|app/*.[ch]|examples/*.[ch])
		check_format "$f" ;;
	esac
	case "$f" in
	lib/eal/eal_log.c) ;;
	lib/*.[ch]) problem "$(check_output "$f")" ;;
	esac
	case "$f" in
	lib/eal/*|lib/*/linux/*) ;;
	lib/*.[ch]) problem "$(check_layers "$f")" ;;
	esac
	case "$f" in
	lib/malloc/malloc_heap*.[ch]|lib/malloc/malloc_queue.[ch]|\
	lib/malloc/malloc_bins.[ch]|lib/malloc/malloc_trim.[ch]|\
	lib/malloc/malloc_check.[ch]|lib/malloc/malloc_memzone.[ch]|\
	lib/malloc/malloc_external.c|lib/malloc/malloc_keep.[ch])
		problem "$(check_heap_layer "$f")" ;;
	esac
	problem "$(check_markers "$f")"
	case "$f" in
	*.[ch]|*.py|*.sh|*.rst|meson.build|*/meson.build|meson_options.txt|.ci/run)
		check_spdx "$f" ;;
	esac
done
problem "$(check_owners)"

summary="${#files[@]} files checked, $nproblems problems"
if [ $nformat_checked -gt 0 ]; then
	summary+=", $nunformatted of $nformat_checked C files differ from clang-format"
	$format || summary+=" (not counted: --no-format)"
fi
echo "checkpatches: $summary"
[ $nproblems -eq 0 ]
