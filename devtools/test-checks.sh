# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rtemem authors
#
# Check helpers for the tests of the developer tools, to source: one line
# per check, "ok: NAME" or "FAILED: NAME", and $failed set to 1 by any
# failure.

failed=0

ok()
{
	echo "ok: $1"
}

bad()
{
	echo "FAILED: $1"
	failed=1
}

# check NAME COMMAND...: ok if COMMAND succeeds.
check()
{
	local name=$1

	shift
	if "$@"; then ok "$name"; else bad "$name"; fi
}

# checks_done NAME: say so if every check passed, and exit with $failed.
checks_done()
{
	[ "$failed" -eq 0 ] && echo "$1: all checks passed"
	exit "$failed"
}
