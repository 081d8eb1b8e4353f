#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rtemem authors

"""List the tests registered in rtemem-test's sources, for meson.

Usage: suites.py FILE...

Prints one line per test, in file order:
    fast NAME NOHUGE ASAN   for REGISTER_FAST_TEST (NOHUGE, ASAN: 1 or 0)
    perf NAME               for REGISTER_PERF_TEST
Comments are ignored. An unknown tag or a name registered twice is an
error (exit 1), so that a typo fails at configure time.
"""

import re
import sys

COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)
IDENT = r'([A-Za-z_][A-Za-z0-9_]*)'
# The macro name must start a line: its own definition in test.h and
# mentions inside strings are not registrations.
FAST = re.compile(r'^REGISTER_FAST_TEST\s*\(\s*' + IDENT + r'\s*,\s*'
                  + IDENT + r'\s*,\s*' + IDENT + r'\s*,', re.M)
PERF = re.compile(r'^REGISTER_PERF_TEST\s*\(\s*' + IDENT + r'\s*,', re.M)
NOHUGE = {'NOHUGE_OK': 1, 'NOHUGE_SKIP': 0}
ASAN = {'ASAN_OK': 1, 'ASAN_SKIP': 0}


def scan(path, seen):
    """Return the output lines for one source file."""
    with open(path, encoding='utf-8') as f:
        text = COMMENT.sub(' ', f.read())
    found = []
    for m in FAST.finditer(text):
        name, nohuge, asan = m.groups()
        if nohuge not in NOHUGE:
            sys.exit('%s: %s: no-huge tag must be NOHUGE_OK or NOHUGE_SKIP,'
                     ' not %s' % (path, name, nohuge))
        if asan not in ASAN:
            sys.exit('%s: %s: ASan tag must be ASAN_OK or ASAN_SKIP, not %s'
                     % (path, name, asan))
        found.append((m.start(), name,
                      'fast %s %d %d' % (name, NOHUGE[nohuge], ASAN[asan])))
    for m in PERF.finditer(text):
        found.append((m.start(), m.group(1), 'perf %s' % m.group(1)))
    lines = []
    for _, name, line in sorted(found):
        if name in seen:
            sys.exit('%s: test %s already registered in %s'
                     % (path, name, seen[name]))
        seen[name] = path
        lines.append(line)
    return lines


def main(paths):
    seen = {}
    for path in paths:
        if path.endswith('.c'):
            for line in scan(path, seen):
                print(line)


if __name__ == '__main__':
    main(sys.argv[1:])
