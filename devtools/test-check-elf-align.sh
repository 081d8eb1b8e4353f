#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rtemem authors
#
# Test devtools/check-elf-align.py on a small C program built twice with
# gcc: with the default linker flags, where no segment can go on 2 MB
# pages, and with 2 MB common and maximum page sizes, where every segment
# can. Also checks its JSON against readelf -lW and its errors (exit 2):
# a file that is not ELF, a directory, pyelftools missing.
#
# Prints one line per check and exits 1 if any failed. Needs gcc, readelf
# (binutils) and python3-pyelftools.

set -euo pipefail

usage()
{
	cat <<-EOF
	usage: $(basename "$0") [-h]

	Build a small program in a temporary directory and check what
	devtools/check-elf-align.py says about it. No argument.
	EOF
}

if [ $# -gt 0 ]; then
	case "$1" in
	-h|--help) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
fi

tool=$(realpath "$(dirname "$0")/check-elf-align.py")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=devtools/test-checks.sh
. "$(dirname "$0")/test-checks.sh"

for prog in gcc readelf python3; do
	if ! command -v "$prog" > /dev/null; then
		echo "FAILED: $prog is needed (Debian: gcc, binutils, python3)"
		exit 1
	fi
done

cat > "$tmp/prog.c" <<-EOF
	#include <stdio.h>

	static int counter = 3;

	int
	main(int argc, char **argv)
	{
		(void)argv;
		counter += argc;
		printf("%d\n", counter);
		return 0;
	}
EOF
gcc -O2 -o "$tmp/default" "$tmp/prog.c"
gcc -O2 -o "$tmp/aligned" "$tmp/prog.c" -Wl,-zmax-page-size=2097152
echo "built $tmp/default and $tmp/aligned"

# run OUT RC_FILE ARGS...: run the tool, stdout and stderr to OUT.
run()
{
	local out=$1 rc=0

	shift
	"$tool" "$@" > "$out" 2>&1 || rc=$?
	echo "$rc"
}

# The PT_LOAD lines of readelf -lW, as "offset vaddr filesz memsz flags
# align" with numbers in decimal and flags as R-X.
readelf_loads()
{
	local type offset vaddr paddr filesz memsz rest flags align

	readelf -lW "$1" | while read -r type offset vaddr paddr filesz memsz rest; do
		[ "$type" = LOAD ] || continue
		align=${rest##* }
		flags=${rest% *}
		printf '%d %d %d %d %s%s%s %d\n' "$offset" "$vaddr" "$filesz" \
			"$memsz" "$([[ $flags == *R* ]] && echo R || echo -)" \
			"$([[ $flags == *W* ]] && echo W || echo -)" \
			"$([[ $flags == *E* ]] && echo X || echo -)" "$align"
	done
}

# The same from the tool's JSON.
json_loads()
{
	python3 -c '
import json
import sys

for f in json.load(open(sys.argv[1]))["files"]:
    for s in f["segments"]:
        print(s["offset"], s["vaddr"], s["filesz"], s["memsz"],
              s["flags"], s["align"])
' "$1"
}

# json_query FILE EXPR: print a Python expression of the parsed JSON "d".
json_query()
{
	python3 -c '
import json
import sys

d = json.load(open(sys.argv[1]))
print(eval(sys.argv[2]))
' "$1" "$2"
}

# JSON: parses, one entry per PT_LOAD segment of readelf, same values.
for bin in default aligned; do
	rc=$(run "$tmp/$bin.json" --json "$tmp/$bin")
	check "$bin: --json exits 0 (got $rc)" [ "$rc" -eq 0 ]
	if ! json_loads "$tmp/$bin.json" > "$tmp/$bin.tool"; then
		bad "$bin: the JSON does not parse"
		continue
	fi
	readelf_loads "$tmp/$bin" > "$tmp/$bin.readelf"
	n=$(wc -l < "$tmp/$bin.readelf")
	check "$bin: JSON has $(wc -l < "$tmp/$bin.tool") PT_LOAD entries, readelf $n" \
		[ "$(wc -l < "$tmp/$bin.tool")" -eq "$n" ]
	check "$bin: at least 2 PT_LOAD segments" [ "$n" -ge 2 ]
	if cmp -s "$tmp/$bin.readelf" "$tmp/$bin.tool"; then
		ok "$bin: offset, vaddr, sizes, flags and p_align as readelf says"
	else
		bad "$bin: segments differ from readelf (readelf, then tool):"
		diff "$tmp/$bin.readelf" "$tmp/$bin.tool" | sed 's/^/    /' || true
	fi
done

# The executable segment of each build, as the JSON describes it.
text='[s for s in d["files"][0]["segments"] if "X" in s["flags"]]'

# Default build: text on 4 KB alignment, not 2 MB-mappable.
if [ "$(uname -m)" = x86_64 ]; then
	want=4096 # ld's default maximum page size on x86-64
	got=$(json_query "$tmp/default.json" "[s['align'] for s in $text]")
	check "default: text p_align is 0x1000 (got $got)" [ "$got" = "[$want]" ]
fi
got=$(json_query "$tmp/default.json" \
	"[s['pages']['2M']['mappable'] for s in $text]")
check "default: text not 2M-mappable (got $got)" [ "$got" = "[False]" ]
got=$(json_query "$tmp/default.json" \
	"[s['pages']['2M']['whole_pages'] for s in $text]")
check "default: no page count when not mappable (got $got)" \
	[ "$got" = "[None]" ]
rc=$(run "$tmp/out" --require 2M "$tmp/default")
check "default: --require 2M exits 1 (got $rc)" [ "$rc" -eq 1 ]
check "default: --require 2M names the text segment" \
	grep -q "^$tmp/default: segment [0-9]* (R-X) is not 2M-mappable: p_align 0x1000 < 0x200000" \
	"$tmp/out"

# Aligned build: every segment at 2 MB, all 2M-mappable, none 1G-mappable.
got=$(json_query "$tmp/aligned.json" \
	"sorted(set(s['align'] for s in d['files'][0]['segments']))")
check "aligned: every p_align is 0x200000 (got $got)" [ "$got" = "[2097152]" ]
got=$(json_query "$tmp/aligned.json" \
	"[s['pages']['2M']['mappable'] for s in $text]")
check "aligned: text 2M-mappable (got $got)" [ "$got" = "[True]" ]
# A tiny text: no whole 2 MB page, spans one page that it has alone.
got=$(json_query "$tmp/aligned.json" \
	"[(s['pages']['2M']['whole_pages'], s['pages']['2M']['span_pages'], s['pages']['2M']['shared']) for s in $text]")
check "aligned: text has 0 whole pages, spans 1, not shared (got $got)" \
	[ "$got" = "[(0, 1, False)]" ]
got=$(json_query "$tmp/aligned.json" \
	"[s['pages']['1G']['mappable'] for s in $text]")
check "aligned: text not 1G-mappable (got $got)" [ "$got" = "[False]" ]
# lib/hugetext moves the page, padding and all: it holds nothing else.
got=$(json_query "$tmp/aligned.json" \
	"[s['pages']['2M']['moved'] for s in $text]")
check "aligned: lib/hugetext moves the text's page (got $got)" \
	[ "$got" = "[[1, 1]]" ]
got=$(json_query "$tmp/default.json" \
	"[s['pages']['2M']['moved'] for s in $text]")
check "default: lib/hugetext moves no text page (got $got)" \
	[ "$got" = "[[0, 0]]" ]
rc=$(run "$tmp/out" --require 2M "$tmp/aligned")
check "aligned: --require 2M exits 0 (got $rc)" [ "$rc" -eq 0 ]
check "aligned: --require 2M says so" \
	grep -qx "every executable segment is 2M-mappable" "$tmp/out"
rc=$(run "$tmp/out" --require 1G "$tmp/aligned")
check "aligned: --require 1G exits 1 (got $rc)" [ "$rc" -eq 1 ]
rc=$(run "$tmp/out" --require 2M "$tmp/aligned" "$tmp/default")
check "both: --require 2M exits 1 (got $rc)" [ "$rc" -eq 1 ]

# The table: a column per page size asked for, and the legend.
rc=$(run "$tmp/out" --page-size 2M "$tmp/aligned")
check "--page-size 2M: exits 0 (got $rc)" [ "$rc" -eq 0 ]
check "--page-size 2M: a 2M column and no 1G column" \
	bash -c 'grep -q "2M whole/span" "$1" && ! grep -q "1G whole" "$1"' \
	_ "$tmp/out"
check "--page-size 2M: text row says yes 0/1, 1 moved" \
	grep -qE '^  [0-9]+ +R-X .* yes 0/1 +1$' "$tmp/out"
check "table: legend states the criterion" \
	grep -q 'p_align >= P  and  p_offset = p_vaddr (mod P)' "$tmp/out"

# Errors: exit 2 with a message naming the file.
echo "not ELF" > "$tmp/text"
rc=$(run "$tmp/out" "$tmp/text")
check "not ELF: exits 2 (got $rc)" [ "$rc" -eq 2 ]
check "not ELF: message" grep -qxF \
	"check-elf-align.py: $tmp/text: not an ELF file (no \\x7fELF magic)" \
	"$tmp/out"
rc=$(run "$tmp/out" "$tmp")
check "directory: exits 2 (got $rc)" [ "$rc" -eq 2 ]
check "directory: message" grep -qx \
	"check-elf-align.py: $tmp: not a regular file" "$tmp/out"
rc=$(run "$tmp/out" --page-size 3M "$tmp/aligned")
check "--page-size 3M: exits 2 (got $rc)" [ "$rc" -eq 2 ]
# pyelftools missing: a package of that name that cannot be imported
# comes first on the path.
mkdir -p "$tmp/nomod/elftools"
echo 'raise ImportError("hidden by the test")' > "$tmp/nomod/elftools/__init__.py"
rc=0
PYTHONPATH=$tmp/nomod "$tool" "$tmp/aligned" > "$tmp/out" 2>&1 || rc=$?
check "pyelftools missing: exits 2 (got $rc)" [ "$rc" -eq 2 ]
check "pyelftools missing: says to install python3-pyelftools" \
	grep -q "install python3-pyelftools" "$tmp/out"

checks_done test-check-elf-align
