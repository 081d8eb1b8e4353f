#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rtemem authors
#
# Configure and build rtemem in several configurations, each in its own
# directory under a build root, and check that each build is what its
# options say (option values, libnuma linked or not, static archives,
# sanitizer runtimes, heap debug checks, debug information). With
# --test, also run the fast-tests suite in each.
#
# Prints a summary line per configuration and exits 1 if any failed.

set -euo pipefail

# The configurations, in the order they run by default.
CONFIGS=(release debug asan no-libnuma static malloc-debug)
declare -A CONFIG_ARGS=(
	[release]="-Dbuildtype=release --werror"
	[debug]="-Dbuildtype=debug --werror"
	[asan]="-Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug --werror"
	[no-libnuma]="-Dnuma=disabled --werror"
	[static]="-Ddefault_library=static --werror"
	[malloc-debug]="-Dmalloc_debug=true"
)
# Every configuration builds the tests and not the guides.
COMMON_ARGS="-Dtests=true -Ddocs=false"
SUITE=fast-tests

usage()
{
	local c

	cat <<-EOF
	usage: $(basename "$0") [-b DIR] [-j N] [--test] [--tests NAME[,NAME...]] [--keep] [-h] [CONFIG...]

	Configure, build and check each CONFIG (default: all) in DIR/CONFIG,
	with its log in DIR/CONFIG.log. Each starts from an empty directory.

	  -b DIR    build root (default: ./build-meson-builds)
	  -j N      ninja jobs (default: $(nproc), the number of CPUs)
	  --test    then run "meson test --suite $SUITE" in each; every
	            test must pass (a skipped test fails, as in .ci/run)
	  --tests NAME[,NAME...]
	            the same, but only these tests of the suite
	  --keep    keep every build directory; by default the directory of
	            a configuration that passed is removed (its log stays)

	Configurations (each also gets $COMMON_ARGS):
	EOF
	for c in "${CONFIGS[@]}"; do
		printf '  %-13s %s\n' "$c" "${CONFIG_ARGS[$c]}"
	done
	cat <<-EOF

	The tests need hugepages, which this script does not set up (that
	takes root): reserve 2 MB pages, mount a hugetlbfs, and export
	RTEMEM_TEST_HUGE_ROOT=<its mount point> and RTEMEM_TEST_NO_SKIP=1, as
	.ci/run does with devtools/hugepage-env.sh. --test refuses to run
	without RTEMEM_TEST_HUGE_ROOT. The asan configuration runs its tests
	with ASAN_OPTIONS and UBSAN_OPTIONS set as in .ci/run, unless set.

	Exit status: 0 all passed, 1 a configuration failed, 2 usage error.
	EOF
}

die()
{
	echo "$(basename "$0"): $1" >&2
	exit 2
}

root=build-meson-builds
jobs=$(nproc)
test=false
tests=()
keep=false
while [ $# -gt 0 ]; do
	case "$1" in
	-b) [ $# -ge 2 ] || die "-b needs a directory"
		root=$2; shift 2 ;;
	-j) [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || die "-j needs a number of jobs"
		jobs=$2; shift 2 ;;
	--test) test=true; shift ;;
	--tests) [ -n "${2:-}" ] || die "--tests needs test names"
		test=true
		IFS=, read -r -a tests <<< "$2"
		shift 2 ;;
	--keep) keep=true; shift ;;
	-h|--help) usage; exit 0 ;;
	--) shift; break ;;
	-*) usage >&2; exit 2 ;;
	*) break ;;
	esac
done
selected=("$@")
[ ${#selected[@]} -gt 0 ] || selected=("${CONFIGS[@]}")
for c in "${selected[@]}"; do
	[ -n "${CONFIG_ARGS[$c]+set}" ] ||
		die "unknown configuration '$c' (known: ${CONFIGS[*]})"
done
if $test && [ -z "${RTEMEM_TEST_HUGE_ROOT:-}" ]; then
	die "--test needs RTEMEM_TEST_HUGE_ROOT set to a hugetlbfs mount (see -h)"
fi
for prog in meson ninja readelf nm python3; do
	command -v "$prog" > /dev/null || die "$prog is needed"
done

top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$root"
root=$(cd "$root" && pwd)

# --- checks: each prints one line per problem and fails if any --------

problems=0

problem()
{
	echo "check: $1"
	problems=$((problems + 1))
}

# Pipes into grep read all of their input (no grep -q): with pipefail, a
# writer killed by SIGPIPE would fail the pipe.

# The DT_NEEDED entries of an ELF file, one per line.
needed()
{
	readelf -dW "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'
}

# The programs and shared libraries of a build.
elf_files()
{
	local dir=$1 f

	for f in "$dir"/app/test/rtemem-test \
			"$dir"/app/test-malloc-perf/rtemem-malloc-perf \
			"$dir"/examples/fast_restart/fast_restart \
			"$dir"/lib/*/librtemem_*.so.*.*.*; do
		[ -f "$f" ] && echo "$f"
	done
}

# check_options DIR ARGS...: each -Dname=value and --werror of the
# setup has the value meson reports for the build.
check_options()
{
	local dir=$1 line

	shift
	while IFS= read -r line; do
		problem "$line"
	done < <(meson introspect --buildoptions "$dir" | python3 -c '
import json
import sys

have = {o["name"]: o["value"] for o in json.load(sys.stdin)}
for arg in sys.argv[1:]:
    if arg == "--werror":
        arg = "-Dwerror=true"
    if not arg.startswith("-D"):
        continue
    name, want = arg[2:].split("=", 1)
    got = have.get(name)
    if isinstance(got, bool):
        got = str(got).lower()
    elif isinstance(got, list):
        got = ",".join(got)
    if str(got) != want:
        print("option %s is %s, not %s" % (name, got, want))
' "$@")
}

# Whether a source file was compiled, and with which flags: the command
# lines of compile_commands.json that mention FILE.
compiled()
{
	python3 -c '
import json
import sys

for c in json.load(open(sys.argv[1] + "/compile_commands.json")):
    if c["file"].endswith(sys.argv[2]):
        print(c["command"])
' "$1" "$2"
}

check_numa()
{
	local dir=$1 want=$2 f files linked=no

	mapfile -t files < <(elf_files "$dir")
	for f in "${files[@]}"; do
		if needed "$f" | grep '^libnuma\.so' > /dev/null; then
			linked=yes
			[ "$want" = no ] && problem "${f#"$dir"/} links libnuma"
		fi
	done
	if [ "$want" = no ]; then
		[ -z "$(compiled "$dir" lib/eal/linux/eal_numa.c)" ] ||
			problem "lib/eal/linux/eal_numa.c is compiled"
		[ -n "$(compiled "$dir" lib/eal/linux/eal_numa_none.c)" ] ||
			problem "lib/eal/linux/eal_numa_none.c is not compiled"
	fi
	facts+=("libnuma $linked")
}

check_static()
{
	local dir=$1 f files lib

	for lib in eal malloc; do
		[ -f "$dir/lib/$lib/librtemem_$lib.a" ] ||
			problem "no lib/$lib/librtemem_$lib.a"
	done
	for f in "$dir"/lib/*/librtemem_*.so "$dir"/lib/*/librtemem_*.so.*[0-9]; do
		[ -e "$f" ] && problem "${f#"$dir"/}: a shared library"
	done
	mapfile -t files < <(elf_files "$dir")
	for f in "${files[@]}"; do
		needed "$f" | grep '^librtemem' > /dev/null &&
			problem "${f#"$dir"/} needs $(needed "$f" | grep '^librtemem' | paste -sd ' ')"
	done
	# The heap registers itself from a constructor that no program
	# references: a program linked with the archive must still have it.
	nm "$dir/lib/malloc/librtemem_malloc.a" 2> /dev/null |
		grep ' malloc_register$' > /dev/null ||
		problem "lib/malloc/librtemem_malloc.a defines no malloc_register: if the heap's constructor was renamed, rename it here"
	for f in app/test-malloc-perf/rtemem-malloc-perf \
			examples/fast_restart/fast_restart; do
		[ -f "$dir/$f" ] || { problem "$f not built"; continue; }
		nm "$dir/$f" | grep ' malloc_register$' > /dev/null ||
			problem "$f lacks the heap's constructor (malloc_register): the archive's malloc_state.o was not linked in"
	done
	facts+=("static archives")
}

check_sanitizers()
{
	local dir=$1 f=app/test/rtemem-test lib

	for lib in libasan libubsan; do
		needed "$dir/$f" | grep "^$lib\\.so" > /dev/null ||
			problem "$f does not link $lib"
	done
	facts+=("ASan+UBSan")
}

check_malloc_debug()
{
	local dir=$1 want=$2 cmd

	cmd=$(compiled "$dir" lib/malloc/malloc_heap.c)
	if [ -z "$cmd" ]; then
		problem "lib/malloc/malloc_heap.c is not compiled"
	elif [ "$want" = yes ] && [[ "$cmd" != *-DRTE_MALLOC_DEBUG* ]]; then
		problem "lib/malloc is compiled without -DRTE_MALLOC_DEBUG"
	elif [ "$want" = no ] && [[ "$cmd" == *-DRTE_MALLOC_DEBUG* ]]; then
		problem "lib/malloc is compiled with -DRTE_MALLOC_DEBUG"
	fi
	[ "$want" = no ] || facts+=("RTE_MALLOC_DEBUG")
}

check_debug_info()
{
	local dir=$1 want=$2 f=app/test/rtemem-test have=no

	readelf -SW "$dir/$f" | grep ' \.debug_info ' > /dev/null && have=yes
	[ "$have" = "$want" ] ||
		problem "$f has debug information: $have, expected $want"
}

# check CONFIG DIR: everything that tells this build from the others.
check()
{
	local config=$1 dir=$2

	problems=0
	# shellcheck disable=SC2086 # the arguments are words
	check_options "$dir" ${CONFIG_ARGS[$config]}
	case "$config" in
	no-libnuma) check_numa "$dir" no ;;
	*) check_numa "$dir" any ;;
	esac
	[ "$config" = static ] && check_static "$dir"
	[ "$config" = asan ] && check_sanitizers "$dir"
	case "$config" in
	malloc-debug) check_malloc_debug "$dir" yes ;;
	*) check_malloc_debug "$dir" no ;;
	esac
	case "$config" in
	release) check_debug_info "$dir" no ;;
	debug|asan) check_debug_info "$dir" yes ;;
	esac
	[ $problems -eq 0 ]
}

# run_tests DIR ENV...: meson test, then the results of its log: every
# test ran OK (a skip fails, as in .ci/run), and each test asked for by
# --tests ran.
run_tests()
{
	local dir=$1

	shift
	rm -f "$dir/meson-logs/testlog.json"
	env "$@" meson test -C "$dir" --suite "$SUITE" --print-errorlogs \
		"${tests[@]}" || return 1
	python3 -c '
import json
import os
import sys

log, wanted = sys.argv[1], sys.argv[2:]
results = {}
if os.path.exists(log):
    for line in open(log):
        if line.strip():
            test = json.loads(line)
            # "rtemem:fast-tests / NAME": the name alone.
            results[test["name"].split(" / ")[-1]] = test["result"]
bad = ["%s: %s" % (n, r) for n, r in results.items()
       if r not in ("OK", "EXPECTEDFAIL")]
bad += ["%s: did not run" % n for n in wanted if n not in results]
if not results:
    bad.append("no test ran")
for line in bad:
    print("test: " + line)
print("%d tests, %d problems" % (len(results), len(bad)))
sys.exit(1 if bad else 0)
' "$dir/meson-logs/testlog.json" "${tests[@]}"
}

# --- one configuration ------------------------------------------------

results=()
nfailed=0

# A meson build directory, or an empty one: safe to remove.
is_build_dir()
{
	[ -f "$1/meson-private/coredata.dat" ] || [ -z "$(ls -A "$1")" ]
}

# step NAME COMMAND...: run COMMAND with its output in the log, time it.
step()
{
	local name=$1 start rc=0

	shift
	echo "=== $config: $name" >> "$log"
	start=$(date +%s)
	"$@" >> "$log" 2>&1 || rc=$?
	times+=("$name $(($(date +%s) - start)) s")
	return $rc
}

# The steps' times, "setup 1 s, build 17 s".
step_times()
{
	local IFS=,

	echo "${times[*]:-no step}" | sed 's/,/, /g'
}

failed()
{
	results+=("$(printf '%-13s FAILED at %s (%s; log: %s)' "$config" "$1" \
		"$(step_times)" "$log")")
	nfailed=$((nfailed + 1))
	echo "$config: FAILED at $1; the end of $log:"
	tail -n 25 "$log" | sed 's/^/    /'
}

run_config()
{
	local dir=$root/$config env=() times=() facts=()

	log=$root/$config.log
	: > "$log"
	echo "$config: meson setup ${CONFIG_ARGS[$config]} (log: $log)"
	if [ -e "$dir" ]; then
		is_build_dir "$dir" || {
			echo "$dir is not a meson build directory: not removed" >> "$log"
			failed "setup"
			return
		}
		rm -rf "$dir"
	fi
	# shellcheck disable=SC2086 # the arguments are words
	step setup meson setup "$dir" "$top" $COMMON_ARGS \
		${CONFIG_ARGS[$config]} || { failed setup; return; }
	step build ninja -C "$dir" -j "$jobs" || { failed build; return; }
	step checks check "$config" "$dir" || { failed checks; return; }
	if $test; then
		[ "$config" != asan ] || env=(
			"ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
			"UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}")
		step test run_tests "$dir" "${env[@]}" || { failed test; return; }
	fi
	results+=("$(printf '%-13s OK (%s; %s)' "$config" "$(step_times)" \
		"$(IFS=,; echo "${facts[*]}" | sed 's/,/, /g')")")
	$keep || rm -rf "$dir"
}

for config in "${selected[@]}"; do
	run_config
done

echo "=== summary (build root $root, ninja -j $jobs)"
printf '%s\n' "${results[@]}"
[ $nfailed -eq 0 ]
