#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rtemem authors
#
# Export a range of commits as a numbered patch series with a filled-in
# cover letter, ready for git send-email, after checking the commit
# messages (devtools/check-git-log.sh) and the files the range changes
# (devtools/checkpatches.sh), as they are at the tip of the range.
#
# Works on the repository this script sits in, whatever the current
# directory, and changes nothing in it: no commit, no configuration, no
# file in the work tree. Prints the output directory and the files
# written. Exit status: 0 written, 1 a check failed (nothing written),
# 2 usage or range error.

set -euo pipefail

usage()
{
	cat <<-EOF
	usage: $(basename "$0") [-o DIR] [--cover-subject TEXT] [--no-check] [-h] [RANGE]

	Write the commits of RANGE as DIR/0000-cover-letter.patch,
	DIR/0001-*.patch, ... (git format-patch --cover-letter --numbered).

	RANGE is A..B, a single commit A (meaning A..HEAD, as for git
	format-patch), or -N for the last N commits of HEAD. By default it
	is origin/main..HEAD; without an origin/main, give a RANGE. The
	range must not hold a merge commit.

	  -o DIR                write there (created if needed; it must hold
	                        no .patch file yet). Default: a new directory
	                        /tmp/rtemem-series.XXXXXX
	  --cover-subject TEXT  the cover letter's subject after
	                        "[PATCH 0/N] ". Default: the component common
	                        to the commits' subjects and the count, such
	                        as "eal/linux: series of 3 patches"
	  --no-check            do not run check-git-log.sh and
	                        checkpatches.sh first

	The cover letter's blurb lists the patches by number with their
	commit and subject; git adds the shortlog and the diffstat below it.
	Without --no-check, problems found by either check are printed and
	nothing is written.
	EOF
}

die()
{
	echo "$(basename "$0"): $1" >&2
	exit "${2:-2}"
}

outdir=
subject=
check=true
while [ $# -gt 0 ]; do
	case "$1" in
	-o) [ $# -ge 2 ] || die "-o needs a directory"
		outdir=$2; shift 2 ;;
	--cover-subject)
		[ $# -ge 2 ] || die "--cover-subject needs a text"
		subject=$2; shift 2 ;;
	--no-check) check=false; shift ;;
	-h|--help) usage; exit 0 ;;
	--) shift; break ;;
	-[0-9]*) break ;;
	-*) usage >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -le 1 ] || { usage >&2; exit 2; }
[[ "$subject" != *$'\n'* ]] || die "--cover-subject must be one line"

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
# Relative to where the user is, not to the top of the tree.
[ -z "$outdir" ] || outdir=$(realpath -m "$outdir")
cd "$top"
git rev-parse --is-inside-work-tree > /dev/null 2>&1 ||
	die "$top is not a git work tree"

# The range, as BASE..TIP.
if [ $# -eq 0 ]; then
	git rev-parse -q --verify refs/remotes/origin/main > /dev/null ||
		die "no RANGE given and no origin/main to start from: give one, such as -3 or main..HEAD"
	range=origin/main..HEAD
elif [[ "$1" =~ ^-([0-9]+)$ ]]; then
	[ "${BASH_REMATCH[1]}" -gt 0 ] || die "-0: no commit to export"
	git rev-parse -q --verify "HEAD~${BASH_REMATCH[1]}^{commit}" \
		> /dev/null || die "$1: HEAD~${BASH_REMATCH[1]} does not exist (the root commit cannot be exported this way)"
	range="HEAD~${BASH_REMATCH[1]}..HEAD"
elif [[ "$1" == *...* ]]; then
	die "$1: use A..B, not A...B"
elif [[ "$1" == *..* ]]; then
	range=$1
else
	range="$1..HEAD"
fi
base=${range%%..*}
tip=${range#*..}
git rev-parse -q --verify "${base:-HEAD}^{commit}" > /dev/null ||
	die "$range: unknown commit '${base:-HEAD}'"
git rev-parse -q --verify "${tip:-HEAD}^{commit}" > /dev/null ||
	die "$range: unknown commit '${tip:-HEAD}'"
commits=$(git rev-list --reverse "$range")
[ -n "$commits" ] || die "$range: no commit in the range"
merge=$(git rev-list --min-parents=2 -n 1 "$range")
[ -z "$merge" ] || die "$range: holds merge commit $(git rev-parse --short=12 "$merge"): a series is linear"
n=$(printf '%s\n' "$commits" | wc -l)

if [ -n "$outdir" ] && compgen -G "$outdir/*.patch" > /dev/null; then
	die "$outdir already holds .patch files: pick another -o DIR"
fi

# check_files: checkpatches.sh on the files the range adds or changes,
# as the tip of the range has them, in a copy outside the work tree.
check_files()
{
	local tmp rc=0 files=() known=() f

	while IFS= read -r -d '' f; do
		files+=("$f")
	done < <(git diff -z --name-only --no-renames --diff-filter=d \
		"${base:-HEAD}...${tip:-HEAD}")
	[ ${#files[@]} -gt 0 ] || return 0
	# What checkpatches.sh reads besides the files.
	for f in MAINTAINERS .clang-format; do
		git cat-file -e "${tip:-HEAD}:$f" 2> /dev/null && known+=("$f")
	done
	tmp=$(mktemp -d)
	if ! git archive --format=tar "${tip:-HEAD}" -- "${files[@]}" \
			"${known[@]}" | tar -x -C "$tmp"; then
		echo "could not export the files of ${tip:-HEAD} to $tmp"
		rm -rf "$tmp"
		return 1
	fi
	mkdir -p "$tmp/devtools"
	cp "$here/checkpatches.sh" "$tmp/devtools/checkpatches.sh.run"
	(cd "$tmp" && bash devtools/checkpatches.sh.run "${files[@]}") || rc=$?
	rm -rf "$tmp"
	return $rc
}

if $check; then
	if ! out=$("$here/check-git-log.sh" "$range" 2>&1); then
		printf '%s\n' "$out"
		die "commit messages of $range fail devtools/check-git-log.sh (above): fix them, or pass --no-check" 1
	fi
	if ! out=$(check_files 2>&1); then
		printf '%s\n' "$out"
		die "files changed by $range fail devtools/checkpatches.sh (above): fix them, or pass --no-check" 1
	fi
fi

# The default subject: the longest component ("a/b" in "a/b: ...")
# shared by every subject, else up to three distinct components.
default_subject()
{
	git log --reverse --format=%s "$range" | awk -v n="$n" '
	{
		comp = ""
		if (match($0, /^[a-z0-9_-]+(\/[a-z0-9_-]+)*: /))
			comp = substr($0, 1, RLENGTH - 2)
		if (NR == 1)
			common = comp
		while (common != "" && comp != common &&
				index(comp, common "/") != 1) {
			if (index(common, "/") == 0)
				common = ""
			else
				sub(/\/[^\/]*$/, "", common)
		}
		if (comp != "" && !(comp in seen)) {
			seen[comp] = 1
			list = list (ndistinct++ ? ", " : "") comp
		}
		if (comp == "")
			nocomp = 1
	}
	END {
		what = n == 1 ? "one patch" : "series of " n " patches"
		if (common != "")
			print common ": " what
		else if (!nocomp && ndistinct <= 3)
			print list ": " what
		else
			print what
	}'
}

# The blurb: the patches by number, with commit and subject.
blurb()
{
	local i=0 sha

	echo "This series has $n patch$([ "$n" -eq 1 ] || echo es):"
	echo
	for sha in $commits; do
		i=$((i + 1))
		printf '%*d/%d %s %s\n' ${#n} "$i" "$n" \
			"$(git rev-parse --short=12 "$sha")" \
			"$(git log -1 --format=%s "$sha")"
	done
}

[ -n "$subject" ] || subject=$(default_subject)
if [ -z "$outdir" ]; then
	outdir=$(mktemp -d /tmp/rtemem-series.XXXXXX)
else
	mkdir -p "$outdir"
fi
written=$(git format-patch --cover-letter --numbered -o "$outdir" "$range")
cover=$outdir/0000-cover-letter.patch
[ -f "$cover" ] || die "git format-patch wrote no $cover"
SUBJECT=$subject BLURB=$(blurb) awk '
	!subject_done && /^Subject: .*\*\*\* SUBJECT HERE \*\*\*$/ {
		sub(/\*\*\* SUBJECT HERE \*\*\*$/, "")
		print $0 ENVIRON["SUBJECT"]
		subject_done = 1
		next
	}
	!blurb_done && $0 == "*** BLURB HERE ***" {
		print ENVIRON["BLURB"]
		blurb_done = 1
		next
	}
	{ print }
	END { exit !(subject_done && blurb_done) }' "$cover" > "$cover.new" ||
	die "$cover: no *** SUBJECT HERE *** or *** BLURB HERE *** to fill"
mv "$cover.new" "$cover"

echo "format-series: $n patches and a cover letter in $outdir:"
printf '%s\n' "$written"
