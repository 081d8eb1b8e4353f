#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rtemem authors
#
# rtemem's patch series against DPDK 22.11 (dpdk/22.11/): get DPDK's
# source from Debian, apply the series with git am, build a small DPDK,
# and show that each patch's regression test fails before the patch and
# passes after it, that DPDK's own memory tests pass before and after,
# and that outside programs and dpdk-testpmd get zeroed rte_zmalloc()
# memory on a warm restart in every memory mode. It also exports the
# series again from the DPDK git tree where a developer keeps it.
#
# The work tree (default build-dpdk/ at the top of this repository) holds
# the Debian source as a git repository (tag debian-base, branch series)
# and the build. It must not sit below a world-writable directory such
# as /tmp, where DPDK refuses to load plugins.

set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=devtools/dpdk-source.sh
. "$top/devtools/dpdk-source.sh"
series=$top/dpdk/22.11
work=${DPDK_SERIES_WORK:-$top/build-dpdk}
huge=
rtemem_build=
base_outside=yes
walk_last= # walk only the last N patches; empty: all of them
quick=no # --quick: unoptimized builds, DPDK as shipped as dpdk-test alone
BASE_TAG=debian-base
BRANCH=series
DPDK_VERSION=22.11
MESON_OPTS=(-Denable_drivers=bus/vdev,net/null,mempool/ring
	-Denable_apps=test,test-pmd '-Ddisable_libs=*')
# DPDK's own tests of the memory subsystem, run before and after.
OWN_TESTS="malloc_autotest memzone_autotest memory_autotest fbarray_autotest
eal_flags_mem_autotest eal_flags_file_prefix_autotest eal_flags_misc_autotest
eal_flags_no_huge_autotest"
# The walk through the patches builds dpdk-test alone; the whole series
# is built in full at the end.
WALK_TARGET=app/test/dpdk-test
TEST_TIMEOUT=300 # seconds for one dpdk-test command
TESTPMD_MB=256 # memory of each dpdk-testpmd run
BENCH_SIZES="1024 2048 4096" # MB, for "bench"
BENCH_REPS=3 # warm restarts of each size

usage()
{
	cat <<-EOF
	usage: $(basename "$0") [-w DIR] [--huge-dir DIR] COMMAND...
	       $(basename "$0") [-w DIR] export [DPDK_GIT_DIR [RANGE]]

	Commands, run in this order by "all":
	  fetch     get DPDK $DPDK_VERSION's source from Debian (apt-get source with
	            a private sources list and package lists) into DIR/dpdk,
	            as a git repository with the tag $BASE_TAG
	  apply     apply dpdk/22.11/*.patch with git am on a new branch
	            $BRANCH from $BASE_TAG; fails if any patch does not apply
	            cleanly
	  check     check the series with DPDK's own devtools/check-git-log.sh
	            and devtools/checkpatches.sh (with checkpatch.pl from
	            Debian's linux-source package, or DPDK_CHECKPATCH_PATH)
	  test      build DPDK ($BASE_TAG and each patch in turn) and run the
	            tests: DPDK's memory tests on $BASE_TAG and on the whole
	            series; each patch's regression checks (listed in
	            dpdk/22.11/regressions) before and after it; the outside
	            programs and dpdk-testpmd on $BASE_TAG and on the series
	  all       all of the above (the default)

	  bench     after "test": time dpdk-testpmd's cold start and warm
	            restart of $BENCH_SIZES MB, and run malloc_perf_autotest
	            warm, with DPDK as shipped and with the series; with
	            --rtemem BUILD, time rtemem's start-up next to dpdk-test's
	            with rtemem-malloc-perf. Needs free hugepages for the
	            largest size, and takes several minutes.

	  export    write the commits RANGE (default $BASE_TAG..$BRANCH) of
	            DPDK_GIT_DIR (default DIR/dpdk) as dpdk/22.11/*.patch with
	            the cover letter of dpdk/22.11/cover-letter.txt

	  -w DIR          work tree (default: build-dpdk/ at the top of
	                  this repository)
	  --rtemem BUILD  an rtemem build directory, for "bench"
	  --no-base-outside
	                  "test" skips the outside programs on DPDK as
	                  shipped, which only show its bugs (a minute)
	  --quick         "test" builds without optimization, and DPDK as
	                  shipped as dpdk-test alone (with --no-base-outside):
	                  half the build time, for checks; "bench" needs a
	                  run without it
	  --walk-last N   "test" walks only the last N patches (two builds
	                  of dpdk-test each, about half a minute); the
	                  earlier ones are still built and tested as part of
	                  the whole series
	  --huge-dir DIR  a hugetlbfs mount point (2 MB pages) that nothing
	                  else uses while the tests run: they remove every
	                  file in it, and DPDK's own tests find hugetlbfs
	                  mounts by themselves. Needed by "test".

	Needs root, about 1.5 GB of free 2 MB hugepages, and Debian packages
	(installed with apt-get when missing). Prints one line per check and
	exits 1 if any failed.
	EOF
}

die()
{
	echo "$(basename "$0"): $1" >&2
	exit "${2:-2}"
}

log() { echo "--- $*"; }

passed=0
failed=0
failures=()

ok()
{
	passed=$((passed + 1))
	echo "ok: $*"
}

bad()
{
	failed=$((failed + 1))
	failures+=("$*")
	echo "FAILED: $*"
}

# The source tree, its build directory and the logs.
src() { echo "$work/dpdk"; }
bld() { echo "$work/build"; }
logs() { echo "$work/logs"; }

# git in the DPDK tree, as the series' author when it commits.
dgit()
{
	git -C "$(src)" -c user.name="rtemem developer" \
		-c user.email=dev@rtemem.invalid "$@"
}

cmd_fetch()
{
	local version

	if git -C "$(src)" rev-parse -q --verify "$BASE_TAG" > /dev/null 2>&1; then
		log "DPDK source already in $(src) ($BASE_TAG)"
		return 0
	fi
	rm -rf "$(src)"
	dpdk_source_fetch "$work" "$(src)" || die "cannot get DPDK's source" 1
	version=$(dpkg-parsechangelog -l "$(src)/debian/changelog" -S Version)
	# Hidden files are DPDK's too (.mailmap), although DPDK's
	# .gitignore ignores them.
	git -C "$(src)" init -q -b "$BASE_TAG-branch"
	dgit add -A -f
	dgit commit -q -m "DPDK $version (Debian source package)"
	dgit tag "$BASE_TAG"
	log "DPDK $version from Debian in $(src), tagged $BASE_TAG"
}

patches() { ls "$series"/[0-9][0-9][0-9][0-9]-*.patch | grep -v /0000-; }

# What makes each commit of a series on the base: its tree and message.
series_log()
{
	dgit log --format='%T %B' "$BASE_TAG..$1"
}

cmd_apply()
{
	local p backup=

	dgit rev-parse -q --verify "$BASE_TAG" > /dev/null ||
		die "no DPDK source yet: run '$(basename "$0") fetch'" 1
	dgit am --abort > /dev/null 2>&1 || true
	# A branch a developer worked on is kept aside, not lost.
	if dgit rev-parse -q --verify "refs/heads/$BRANCH" > /dev/null; then
		backup=$BRANCH-$(date +%Y%m%d-%H%M%S)
		dgit branch -q -m "$BRANCH" "$backup"
		log "the previous $BRANCH branch is now $backup"
	fi
	dgit checkout -q -f -b "$BRANCH" "$BASE_TAG"
	dgit clean -q -fd
	for p in $(patches); do
		if ! dgit am -q "$p" > "$work/am.log" 2>&1; then
			cat "$work/am.log"
			dgit am --abort > /dev/null 2>&1 || true
			bad "apply: $(basename "$p") does not apply cleanly"
			return 1
		fi
	done
	# A backup whose commits are the patches' (trees and messages) is
	# not kept.
	if [ -n "$backup" ] && [ "$(series_log "$backup")" = "$(series_log "$BRANCH")" ]; then
		dgit branch -q -D "$backup"
		log "it held the same tree as the patches: removed"
	fi
	ok "apply: $(patches | wc -l) patches applied with git am on $BASE_TAG"
}

cmd_check()
{
	local out

	out=$(cd "$(src)" && devtools/check-git-log.sh -r "$BASE_TAG..$BRANCH" 2>&1) || true
	# The Debian source has no upstream history, so every Fixes: hash is
	# "not in current branch" here: check their form, not their target.
	# Its closing line counts the patches it checked, whatever it found.
	out=$(printf '%s\n' "$out" | awk '
		/^Wrong .Fixes. reference:/ { skip = 1; next }
		skip && /^\t/ && /reference not in current branch|Fixes: / { next }
		/^Invalid patch\(es\) found/ || /^[0-9]+\/[0-9]+ valid patch/ ||
			/^$/ { next }
		{ skip = 0; print }')
	if [ -z "$out" ]; then
		ok "check: commit messages pass DPDK's check-git-log.sh"
	else
		printf '%s\n' "$out"
		bad "check: DPDK's check-git-log.sh"
	fi
	check_patches
}

# The kernel's checkpatch.pl, which DPDK's checkpatches.sh runs, from
# Debian's linux-source package, unless DPDK_CHECKPATCH_PATH names one.
checkpatch_pl()
{
	local tarball dir=$work/checkpatch

	if [ -n "${DPDK_CHECKPATCH_PATH:-}" ]; then
		echo "$DPDK_CHECKPATCH_PATH"
		return
	fi
	if [ ! -f "$dir/scripts/checkpatch.pl" ]; then
		tarball=$(ls /usr/src/linux-source-*.tar.xz 2> /dev/null |
			tail -n 1)
		[ -n "$tarball" ] || return 1
		mkdir -p "$dir"
		tar -xJf "$tarball" -C "$dir" --strip-components=1 \
			--wildcards '*/scripts/checkpatch.pl' \
			'*/scripts/spelling.txt' \
			'*/scripts/const_structs.checkpatch' || return 1
	fi
	echo "$dir/scripts/checkpatch.pl"
}

# DPDK's own checkpatches.sh on the patch files. Without upstream
# history, the Fixes: hashes are unknown here, and those named by their
# first 10 digits are not the 12 checkpatch.pl asks for: those two
# warnings are left out; any other one fails.
check_patches()
{
	local cp out

	if ! cp=$(checkpatch_pl); then
		bad "check: no checkpatch.pl (apt-get install linux-source-6.1)"
		return
	fi
	out=$(cd "$(src)" && DPDK_CHECKPATCH_PATH=$cp \
		devtools/checkpatches.sh $(patches) 2>&1) || true
	out=$(printf '%s\n' "$out" | grep -E '^(WARNING|ERROR|CHECK)' |
		grep -Ev '^WARNING:(BAD_FIXES_TAG|UNKNOWN_COMMIT_ID):' || true)
	if [ -z "$out" ]; then
		ok "check: patches pass DPDK's checkpatches.sh"
	else
		printf '%s\n' "$out"
		bad "check: DPDK's checkpatches.sh"
	fi
}

# build WHAT [TARGET...]: bring the build (or its TARGETs) up to date
# with the work tree.
build()
{
	local what=$1

	shift
	if [ ! -f "$(bld)/build.ninja" ]; then
		meson setup "$(bld)" "$(src)" "${MESON_OPTS[@]}" \
			"-Dbuildtype=$([ "$quick" = yes ] && echo plain || echo release)" \
			> "$(logs)/meson-setup.log" 2>&1 || {
			tail -n 30 "$(logs)/meson-setup.log"
			bad "build: meson setup of $what failed"
			return 1
		}
	fi
	if ! ninja -C "$(bld)" "$@" > "$(logs)/build.log" 2>&1; then
		grep -E -A5 'error|FAILED' "$(logs)/build.log" | head -n 40
		bad "build: $what does not build"
		return 1
	fi
	ok "build: $what"
}

# Check out REV, and with PATCH commit its changes under PART on top of
# it (a commit on no branch): going from one state to the next then
# rewrites only the files that differ, and the build redoes only them.
checkout()
{
	local rev=$1 patch=${2:-} part=${3:-}

	dgit checkout -q -f --detach "$rev"
	dgit clean -q -fd
	[ -n "$patch" ] || return 0
	dgit apply --index --include="$part/*" "$patch"
	dgit commit -q -m "test part of $(basename "$patch")"
}

clean_huge()
{
	find "$huge" -mindepth 1 -delete
}

# run_autotest NAME TAG: run one command of dpdk-test; its status.
run_autotest()
{
	local name=$1 tag=$2 rc=0

	timeout --kill-after=10 "$TEST_TIMEOUT" \
		env DPDK_TEST="$name" "$(bld)/app/test/dpdk-test" -l 0-1 \
		--huge-dir "$huge" --file-prefix "ds_$name" < /dev/null \
		> "$(logs)/$tag-$name.log" 2>&1 || rc=$?
	clean_huge
	return $rc
}

# The memset bandwidth line of malloc_perf_autotest is well formed.
run_perf_result_line()
{
	local tag=$1 log pid line n=0

	log=$(logs)/$tag-malloc_perf_autotest.log
	env DPDK_TEST=malloc_perf_autotest "$(bld)/app/test/dpdk-test" -l 0-1 \
		--huge-dir "$huge" --file-prefix ds_malloc_perf_autotest \
		< /dev/null > "$log" 2>&1 &
	pid=$!
	# The line comes first; the tables after it take half a minute.
	while kill -0 "$pid" 2> /dev/null &&
			! grep -q 'Result: .* GiB/s' "$log" &&
			[ $n -lt $((TEST_TIMEOUT * 5)) ]; do
		sleep 0.2
		n=$((n + 1))
	done
	kill "$pid" 2> /dev/null || true
	wait "$pid" 2> /dev/null || true
	clean_huge
	line=$(grep -m1 'Result: .* GiB/s' "$log" || true)
	echo "    $line"
	echo "$line" | grep -Eq 'Result: [0-9]+\.[0-9]{3} GiB/s'
}

# expect_check WANT TAG CHECK: run a regression check, which must give
# WANT (pass or fail).
expect_check()
{
	local want=$1 tag=$2 check=$3 rc=0 got

	case "$check" in
	perf-result-line) run_perf_result_line "$tag" || rc=$? ;;
	*_autotest) run_autotest "$check" "$tag" || rc=$? ;;
	*) bad "$tag: unknown check $check"; return ;;
	esac
	if [ $rc -eq 0 ]; then
		got=pass
	elif [ $rc -eq 77 ] || [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		got="skip or timeout ($rc)"
	else
		got=fail
	fi
	if [ "$got" = "$want" ]; then
		ok "$tag: $check: $got, as expected"
	else
		bad "$tag: $check: $got, expected $want (log: $(logs)/$tag-$check.log)"
		tail -n 15 "$(logs)/$tag-$check.log" | sed 's/^/    /'
	fi
}

own_tests()
{
	local tag=$1 t

	for t in $OWN_TESTS; do
		expect_check pass "$tag" "$t"
	done
}

# The regression tests of all the patches, on the whole series; the
# memset line of malloc_perf_autotest, which takes long, is left to the
# walk.
regression_tests()
{
	local tag=$1 c

	for c in $(awk '!/^#/ && NF > 2 { for (i = 3; i <= NF; i++)
			if (!seen[$i]++) print $i }' "$series/regressions"); do
		case " $OWN_TESTS " in *" $c "*) continue ;; esac
		[ "$c" = perf-result-line ] || expect_check pass "$tag" "$c"
	done
}

# Each patch's checks must fail on the previous tree with the patch's
# test part and pass on the patch's own tree, which must build.
walk_series()
{
	local commits n part checks patch prev=$BASE_TAG i=0 c skip

	mapfile -t commits < <(dgit rev-list --reverse "$BASE_TAG..$BRANCH")
	[ "${#commits[@]}" -eq "$(patches | wc -l)" ] ||
		{ bad "walk: $BRANCH does not hold the series"; return 1; }
	skip=0
	[ -z "$walk_last" ] || [ "$walk_last" -ge "${#commits[@]}" ] ||
		skip=$((${#commits[@]} - walk_last))
	[ "$skip" -eq 0 ] ||
		log "walking the last $walk_last patches (--walk-last)"
	while read -r n part checks; do
		case "$n" in ''|'#'*) continue ;; esac
		patch=$(ls "$series/$n"-*.patch)
		if [ "$i" -lt "$skip" ]; then
			prev=${commits[$i]}
			i=$((i + 1))
			continue
		fi
		case "$part" in
		speed) ;; # it fixes no defect: nothing to fail before it
		-) checkout "$prev" ;;
		*) checkout "$prev" "$patch" "$part" ;;
		esac
		if [ "$part" != speed ] &&
				build "before $n (tests only)" "$WALK_TARGET"; then
			for c in $checks; do
				expect_check fail "before-$n" "$c"
			done
		fi
		checkout "${commits[$i]}"
		if build "$(basename "$patch")" "$WALK_TARGET"; then
			for c in $checks; do
				expect_check pass "after-$n" "$c"
			done
		fi
		prev=${commits[$i]}
		i=$((i + 1))
	done < "$series/regressions"
	[ "$i" -eq "${#commits[@]}" ] ||
		bad "walk: dpdk/22.11/regressions lists $i patches, the series has ${#commits[@]}"
}

cmd_test()
{
	[ -n "$huge" ] || die "test needs --huge-dir"
	[ "$(stat -f -c %T "$huge")" = hugetlbfs ] ||
		die "$huge is not a hugetlbfs mount"
	mkdir -p "$(logs)"
	clean_huge

	checkout "$BASE_TAG"
	log "DPDK $DPDK_VERSION as Debian ships it"
	# Nothing but dpdk-test runs on it when the outside programs do not:
	# the rest (dpdk-testpmd, shared libraries, drivers) is built for the
	# series only.
	if build "$BASE_TAG" $([ "$quick" = yes ] && [ "$base_outside" = no ] &&
			echo "$WALK_TARGET"); then
		save_bins base
		own_tests base
		[ "$base_outside" = no ] || outside_checks base
	fi
	log "each patch: its checks fail before it and pass after it"
	walk_series
	log "the whole series"
	checkout "$BRANCH"
	if build "$BRANCH"; then
		save_bins series
		own_tests series
		regression_tests series
		outside_checks series
	fi
}

# Keep the programs of a build for "bench": they are linked statically.
# An unoptimized build keeps none: its times would mislead.
save_bins()
{
	rm -rf "$work/bin/$1"
	[ "$quick" = no ] || return 0
	mkdir -p "$work/bin/$1"
	cp "$(bld)/app/test/dpdk-test" "$(bld)/app/dpdk-testpmd" "$work/bin/$1/"
}

# shellcheck source=devtools/dpdk-series-bench.sh
. "$top/devtools/dpdk-series-bench.sh"
# shellcheck source=devtools/dpdk-series-outside.sh
. "$top/devtools/dpdk-series-outside.sh"

cmd_export()
{
	local from=${1:-$(src)} range=${2:-$BASE_TAG..$BRANCH} out cover

	cover=$series/cover-letter.txt
	[ -f "$cover" ] || die "no $cover"
	out=$(mktemp -d)
	# The cover letter is from the series' author, not whoever exports.
	git -C "$from" \
		-c user.name="$(git -C "$from" log -1 --format=%an "$range")" \
		-c user.email="$(git -C "$from" log -1 --format=%ae "$range")" \
		format-patch -q --cover-letter --zero-commit --no-signature \
		-o "$out" "$range"
	python3 - "$out/0000-cover-letter.patch" "$cover" <<-'EOF'
	import sys
	patch, cover = sys.argv[1], sys.argv[2]
	lines = open(cover).read().splitlines()
	subject, blurb = lines[0], "\n".join(lines[1:]).strip("\n")
	text = open(patch).read()
	text = text.replace("*** SUBJECT HERE ***", subject, 1)
	text = text.replace("*** BLURB HERE ***", blurb, 1)
	open(patch, "w").write(text)
	EOF
	rm -f "$series"/[0-9][0-9][0-9][0-9]-*.patch
	mv "$out"/*.patch "$series/"
	rmdir "$out"
	log "exported $range of $from to $series:"
	ls "$series"/*.patch
}

cmds=()
while [ $# -gt 0 ]; do
	case "$1" in
	-w) [ $# -ge 2 ] || die "-w needs a directory"
		work=$(realpath -m "$2"); shift 2 ;;
	--huge-dir) [ $# -ge 2 ] || die "--huge-dir needs a directory"
		huge=$(realpath "$2"); shift 2 ;;
	-h|--help) usage; exit 0 ;;
	export) shift; mkdir -p "$work"; cmd_export "$@"; exit 0 ;;
	--no-base-outside) base_outside=no; shift ;;
	--quick) quick=yes; shift ;;
	--walk-last) [ $# -ge 2 ] && [ "$2" -ge 1 ] 2> /dev/null ||
			die "--walk-last needs a number of patches"
		walk_last=$2; shift 2 ;;
	--rtemem) [ $# -ge 2 ] || die "--rtemem needs a build directory"
		rtemem_build=$(realpath "$2"); shift 2 ;;
	fetch|apply|check|test|bench|all) cmds+=("$1"); shift ;;
	*) usage >&2; exit 2 ;;
	esac
done
[ ${#cmds[@]} -gt 0 ] || cmds=(all)
mkdir -p "$work"
for c in "${cmds[@]}"; do
	case "$c" in
	all) cmd_fetch && cmd_apply && cmd_check && cmd_test ;;
	*) "cmd_$c" ;;
	esac
done
echo "dpdk-series: $passed checks passed, $failed failed"
for f in "${failures[@]}"; do
	echo "failed: $f"
done
[ "$failed" -eq 0 ]
