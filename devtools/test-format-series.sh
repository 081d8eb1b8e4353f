#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rtemem authors
#
# Test devtools/format-series.sh in a temporary clone of this repository:
# commits made there are exported with a filled-in cover letter; a commit
# message or a file that fails the checks stops it with their output; and
# the clone is the same after each run (work tree, index, refs, config).
# The devtools scripts under test are copied from this work tree into the
# clone and run from there, since they work on the tree they sit in.
#
# Prints one line per check and exits 1 if any failed.

set -euo pipefail

usage()
{
	cat <<-EOF
	usage: $(basename "$0") [-h]

	Clone this repository into a temporary directory and check what
	devtools/format-series.sh does there. No argument.
	EOF
}

if [ $# -gt 0 ]; then
	case "$1" in
	-h|--help) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
fi

here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
repo=$tmp/repo

# Neither the user's nor the system's git configuration applies.
export HOME=$tmp/home GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME="Test Author" GIT_AUTHOR_EMAIL=author@test.invalid
export GIT_COMMITTER_NAME="Test Author" GIT_COMMITTER_EMAIL=author@test.invalid
mkdir -p "$HOME"

# shellcheck source=devtools/test-checks.sh
. "$here/test-checks.sh"

# Everything a run must leave alone in the clone. GIT_OPTIONAL_LOCKS=0:
# git status itself must not refresh the index.
snapshot()
{
	local GIT_OPTIONAL_LOCKS=0

	export GIT_OPTIONAL_LOCKS
	git -C "$repo" status --porcelain --untracked-files=all --ignored
	git -C "$repo" for-each-ref --format='%(refname) %(objectname)'
	git -C "$repo" rev-parse HEAD
	git -C "$repo" stash list
	sha256sum "$repo/.git/config" "$repo/.git/index"
}

# series NAME ARGS...: run format-series.sh in the clone, output in
# $tmp/out and exit status in $rc, and check that it changed nothing.
series()
{
	local name=$1

	shift
	snapshot > "$tmp/before"
	rc=0
	"$repo/devtools/format-series.sh" "$@" > "$tmp/out" 2>&1 || rc=$?
	snapshot > "$tmp/after"
	if cmp -s "$tmp/before" "$tmp/after"; then
		ok "$name: the clone is unchanged"
	else
		bad "$name: the clone changed (before, after):"
		diff "$tmp/before" "$tmp/after" | sed 's/^/    /' || true
	fi
}

# commit SUBJECT BODY FILE CONTENT: write FILE, commit it alone.
commit()
{
	mkdir -p "$(dirname "$repo/$3")"
	printf '%s\n' "$4" > "$repo/$3"
	git -C "$repo" add "$3"
	git -C "$repo" commit -q -m "$1" -m "$2"
	git -C "$repo" rev-parse --short=12 HEAD
}

git clone -q "$here/.." "$repo"
for f in format-series.sh check-git-log.sh checkpatches.sh; do
	cp "$here/$f" "$repo/devtools/$f"
done
# The default range starts at origin/main: make it the clone's start.
git -C "$repo" update-ref refs/remotes/origin/main HEAD

spdx_rst=".. SPDX-License-Identifier: BSD-3-Clause
   Copyright(c) 2026 The rtemem authors"
spdx_sh="#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rtemem authors"

c1=$(commit "doc: add a note on patch series" \
	"Contributors asked where a series is written and how it is checked." \
	doc/guides/contributing/series-note.rst "$spdx_rst

Series are written by devtools/format-series.sh.")
c2=$(commit "devtools: add a greeting script" \
	"The test of format-series needs a second component in its range." \
	devtools/hello.sh "$spdx_sh
echo hello")
c3=$(commit "devtools: greet by name" \
	"A greeting that names nobody reads as a placeholder." \
	devtools/hello.sh "$spdx_sh
echo \"hello \${1:-world}\"")

# The default range: origin/main..HEAD, the three commits.
series "default range" -o "$tmp/s1"
check "default range: exits 0 (got $rc)" [ "$rc" -eq 0 ]
names=$(cd "$tmp/s1" 2> /dev/null && ls || true)
want="0000-cover-letter.patch
0001-doc-add-a-note-on-patch-series.patch
0002-devtools-add-a-greeting-script.patch
0003-devtools-greet-by-name.patch"
check "default range: the cover letter and 3 patches, named as git does" \
	[ "$names" = "$want" ]
check "default range: prints the directory and the 4 files" \
	[ "$(cat "$tmp/out")" = "format-series: 3 patches and a cover letter in $tmp/s1:
$(printf '%s\n' "$want" | sed "s|^|$tmp/s1/|")" ]
cover=$tmp/s1/0000-cover-letter.patch
check "cover: subject from the components and the count" \
	grep -qx "Subject: \[PATCH 0/3\] doc, devtools: series of 3 patches" \
	"$cover"
check "cover: no *** SUBJECT HERE *** left" \
	bash -c '! grep -qF "*** SUBJECT HERE ***" "$1"' _ "$cover"
check "cover: no *** BLURB HERE *** left" \
	bash -c '! grep -qF "*** BLURB HERE ***" "$1"' _ "$cover"
check "cover: blurb lists the 3 patches with commit and subject" \
	[ "$(grep -A 4 '^This series has' "$cover")" = "This series has 3 patches:

1/3 $c1 doc: add a note on patch series
2/3 $c2 devtools: add a greeting script
3/3 $c3 devtools: greet by name" ]
check "cover: diffstat of the 2 files" grep -qE \
	'^ 2 files changed, [0-9]+ insertions\(\+\)$' "$cover"
i=0
for s in "doc: add a note on patch series" "devtools: add a greeting script" \
		"devtools: greet by name"; do
	i=$((i + 1))
	f=$(printf '%s\n' "$want" | sed -n "$((i + 1))p")
	check "patch $i: Subject: [PATCH $i/3] $s" \
		grep -qxF "Subject: [PATCH $i/3] $s" "$tmp/s1/$f"
done

# -N, where the components share "devtools".
series "-2" -o "$tmp/s2" -2
check "-2: exits 0 (got $rc)" [ "$rc" -eq 0 ]
check "-2: the cover letter and 2 patches" \
	[ "$(cd "$tmp/s2" && ls | wc -l)" -eq 3 ]
check "-2: subject from the common component" grep -qx \
	"Subject: \[PATCH 0/2\] devtools: series of 2 patches" \
	"$tmp/s2/0000-cover-letter.patch"

# A range A..B and --cover-subject, with characters sed would mangle.
series "A..B, --cover-subject" -o "$tmp/s3" \
	--cover-subject 'doc/devtools: a & b \1 | c' "$c1..$c2"
check "A..B: exits 0 (got $rc)" [ "$rc" -eq 0 ]
check "A..B: one patch, from c2" bash -c \
	'[ "$(cd "$1" && ls)" = "0000-cover-letter.patch
0001-devtools-add-a-greeting-script.patch" ]' _ "$tmp/s3"
check "--cover-subject: taken as is" grep -qxF \
	'Subject: [PATCH 0/1] doc/devtools: a & b \1 | c' \
	"$tmp/s3/0000-cover-letter.patch"

# Refusals, exit 2: a directory that already holds patches, a range with
# nothing in it.
series "existing patches" -o "$tmp/s1" -1
check "existing patches: exits 2 (got $rc)" [ "$rc" -eq 2 ]
check "existing patches: says so" grep -q "already holds .patch files" \
	"$tmp/out"
series "empty range" -o "$tmp/s4" HEAD..HEAD
check "empty range: exits 2 (got $rc)" [ "$rc" -eq 2 ]
check "empty range: nothing written" [ ! -e "$tmp/s4" ]

# A bad subject: check-git-log.sh's message, exit 1, nothing written.
commit "Devtools: Greet louder." \
	"Some greetings are not heard in a noisy terminal." \
	devtools/hello.sh "$spdx_sh
echo \"HELLO \${1:-world}\"" > /dev/null
series "bad subject" -o "$tmp/s5" -1
check "bad subject: exits 1 (got $rc)" [ "$rc" -eq 1 ]
check "bad subject: check-git-log.sh's message" grep -qF \
	"Devtools: Greet louder.: component \"Devtools\" is not lowercase words joined by '/'" \
	"$tmp/out"
check "bad subject: says which check failed" grep -q \
	"fail devtools/check-git-log.sh" "$tmp/out"
check "bad subject: nothing written" [ ! -e "$tmp/s5" ]
series "bad subject, --no-check" -o "$tmp/s6" --no-check -1
check "bad subject, --no-check: exits 0 (got $rc)" [ "$rc" -eq 0 ]
check "bad subject, --no-check: written" \
	[ -f "$tmp/s6/0001-Devtools-Greet-louder.patch" ]

# A file without SPDX line: checkpatches.sh's message, exit 1. What the
# range commits is checked, not the work tree: fixing the file without
# committing changes nothing.
commit "devtools: add a farewell script" \
	"Scripts that greet should also take their leave." \
	devtools/bye.sh "#!/bin/sh
echo bye" > /dev/null
printf '%s\necho bye\n' "$spdx_sh" > "$repo/devtools/bye.sh"
series "no SPDX" -o "$tmp/s7" -1
check "no SPDX: exits 1 (got $rc)" [ "$rc" -eq 1 ]
check "no SPDX: checkpatches.sh's message on the committed file" grep -qxF \
	"devtools/bye.sh: no 'SPDX-License-Identifier: BSD-3-Clause' in the first 3 lines" \
	"$tmp/out"
check "no SPDX: says which check failed" grep -q \
	"fail devtools/checkpatches.sh" "$tmp/out"
check "no SPDX: nothing written" [ ! -e "$tmp/s7" ]

# No RANGE and no origin/main: asks for a range, exit 2.
git -C "$repo" update-ref -d refs/remotes/origin/main
series "no origin/main" -o "$tmp/s8"
check "no origin/main: exits 2 (got $rc)" [ "$rc" -eq 2 ]
check "no origin/main: asks for a range" grep -q \
	"no RANGE given and no origin/main" "$tmp/out"

checks_done test-format-series
