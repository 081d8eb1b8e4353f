#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rtemem authors
#
# Check the commit messages of a range against the project's rules, which
# follow DPDK's (doc/guides/contributing/patches.rst there):
#   - subject "component: summary": component in lowercase letters, digits,
#     '/', '-' and '_' (no "lib/" prefix), summary starting with a
#     lowercase letter, no code identifier (no '_' after the colon),
#     none of , ; ! ? & |, no trailing period, at most 60 characters;
#   - a body that says why (lines other than tags such as Signed-off-by:),
#     not starting with "It", lines at most 75 characters except Fixes:
#     tags and lines holding a URL.
# Merge commits are not checked.
#
# Prints one line per problem, "<sha> <subject>: <problem>", and exits 1 if
# there is any.

set -euo pipefail

usage()
{
	cat <<-EOF
	usage: $(basename "$0") [-h] [RANGE...]

	Check the commit messages in RANGE: a git rev-list range such as
	origin/main..HEAD, or -N for the last N commits. By default, check
	the whole history: every commit from the project's root commit (the
	fixed base) to HEAD, the root included.
	EOF
}

if [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then
	usage
	exit 0
fi

cd "$(dirname "$0")/.."

if [ $# -eq 0 ]; then
	# The fixed base is the root commit: the whole history is checked.
	base=$(git rev-list --max-parents=0 HEAD | tail -n 1)
	commits=$( (echo "$base"; git rev-list --no-merges --reverse \
		"$base..HEAD") | awk '!seen[$0]++')
elif [ $# -eq 1 ] && [[ "$1" =~ ^-[0-9]+$ ]]; then
	commits=$(git rev-list --no-merges --reverse --max-count="${1#-}" HEAD)
else
	commits=$(git rev-list --no-merges --reverse "$@")
fi

subject_max=60
body_max=75
# Tag lines: they do not count as a body that says why.
tag_re='^(Signed-off-by|Acked-by|Reviewed-by|Tested-by|Reported-by|Suggested-by|Co-authored-by|Fixes|Cc|Bugzilla ID|Coverity issue|Link):'

nproblems=0

problem()
{
	printf '%s %s: %s\n' "$sha" "$subject" "$1"
	nproblems=$((nproblems + 1))
}

check_subject()
{
	local component summary

	if ! [[ "$subject" =~ ^([^:]*):\ (.*)$ ]]; then
		problem "subject is not \"component: summary\""
		return
	fi
	component=${BASH_REMATCH[1]}
	summary=${BASH_REMATCH[2]}
	if ! [[ "$component" =~ ^[a-z0-9_-]+(/[a-z0-9_-]+)*$ ]]; then
		problem "component \"$component\" is not lowercase words joined by '/'"
	elif [[ "$component" =~ ^lib/ ]]; then
		problem "component \"$component\" must not start with \"lib/\""
	fi
	if ! [[ "$summary" =~ ^[a-z] ]]; then
		problem "summary must start with a lowercase letter"
	fi
	if [[ "$summary" == *_* ]]; then
		problem "'_' after the colon: describe the change, not the code"
	fi
	if [[ "$subject" =~ [,\;\!\?\&\|] ]]; then
		problem "subject contains one of , ; ! ? & |"
	fi
	if [[ "$subject" == *. ]]; then
		problem "subject ends with a period"
	fi
	if [[ "$subject" =~ (^[[:space:]]|[[:space:]]$|[[:space:]][[:space:]]|$'\t') ]]; then
		problem "subject has leading, trailing, double spaces or tabs"
	fi
	if [ ${#subject} -gt $subject_max ]; then
		problem "subject is ${#subject} characters (at most $subject_max)"
	fi
}

check_body()
{
	local body line first n

	body=$(git log -1 --format=%b "$sha")
	first=$(printf '%s\n' "$body" | grep -Ev "$tag_re" |
		grep -m 1 -v '^[[:space:]]*$' || true)
	if [ -z "$first" ]; then
		problem "no body: say why the change is made"
		return
	fi
	if [[ "$first" =~ ^It[[:space:]] ]]; then
		problem "body starts with \"It\": name what you mean"
	fi
	n=0
	while IFS= read -r line; do
		n=$((n + 1))
		[[ "$line" =~ ^Fixes: ]] && continue
		[[ "$line" == *://* ]] && continue
		if [ ${#line} -gt $body_max ]; then
			problem "body line $n is ${#line} characters (at most $body_max)"
		fi
	done <<< "$body"
}

for sha in $commits; do
	subject=$(git log -1 --format=%s "$sha")
	sha=$(git rev-parse --short=12 "$sha")
	check_subject
	check_body
done

[ $nproblems -eq 0 ]
