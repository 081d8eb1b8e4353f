#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rtemem authors

"""Time a program with a large code footprint on small and huge pages.

Generates a program (app/test-hugetext/gen_bigprog.py) with FUNCTIONS
functions on 4 KB pages of their own, called in a random order, and a
static table of TABLE_MB read at random; builds it position independent
(as Debian builds programs) and, for libhugetlbfs, non-PIE with
-z noseparate-code and 2 MB alignment (the only layout it remaps); then
runs it in rounds, each configuration once per round in a shuffled
order, so that the machine's drift spreads over all of them:

  4K            nothing moved
  THP           librtemem_hugetext.so, RTEMEM_HUGETEXT=thp
  2M            librtemem_hugetext.so, RTEMEM_HUGETEXT=enforce, 2 MB pages
  1G            the same with 1 GB pages allowed (--1g: a 2 GB table)
  non-PIE as loaded, 2M non-PIE, libhugetlbfs (HUGETLB_ELFMAP=RW)
                the non-PIE build, when libhugetlbfs is installed

It prints, per configuration, the median time per call and per table
read with the range over the rounds, the ratio to 4K (each round's time
over the same round's 4K time: median and range), what lay on huge
pages (from /proc/PID/smaps; "file PMD" is code the kernel mapped from
the page cache with 2 MB entries by itself, which an aligned binary can
get without any move), and the move's own cost, in all and per 100 MB
moved, next to its floor measured in the same run: copying the bytes
(memcpy) plus faulting in new hugetlb pages. Then rtemem's move against
a THP copy and against libhugetlbfs on the binary it supports, round by
round. --json and --csv write the same rows.

Exits 1 when a configuration that should move code and data moved
none: its row would measure small pages under another name. Needs root
for the hugetlbfs mount of libhugetlbfs, gcc, and free hugepages: about
(code + table) / 2 MB of them.
"""

import argparse
import csv
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIBHUGETLBFS = '/usr/lib/x86_64-linux-gnu/libhugetlbfs.so.0'
CC = os.environ.get('CC', 'gcc')
BASES = ('4K', 'non-PIE as loaded')  # what nothing moved, per binary


def sh(argv, **kw):
    p = subprocess.run(argv, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        sys.exit('hugetext-bench: %s failed:\n%s%s' % (' '.join(argv),
                                                       p.stdout, p.stderr))
    return p.stdout


def build(tmp, functions, table_mb, big_table):
    """The PIE and non-PIE programs, from one object of generated code."""
    src = os.path.join(tmp, 'big.c')
    sh([sys.executable, os.path.join(ROOT, 'app/test-hugetext/gen_bigprog.py'),
        str(functions), '4', '4', str(table_mb * 1024), src])
    cflags = ['-O2', '-g', '-D_GNU_SOURCE', '-fPIE',
              '-I', os.path.join(ROOT, 'app/test-hugetext'),
              '-I', os.path.join(ROOT, 'app/common'),
              '-I', os.path.join(ROOT, 'lib/hugetext/include')]
    if big_table:
        cflags.append('-mcmodel=medium')
    objs = []
    for c in (src, os.path.join(ROOT, 'app/test-hugetext/hugetext_target.c')):
        o = os.path.join(tmp, os.path.basename(c) + '.o')
        sh([CC] + cflags + ['-c', c, '-o', o])
        objs.append(o)
    pie = os.path.join(tmp, 'bench-pie')
    sh([CC, '-pie'] + objs + ['-o', pie])
    nopie = os.path.join(tmp, 'bench-nopie')
    sh([CC, '-no-pie', '-Wl,-z,noseparate-code',
        '-Wl,-z,max-page-size=0x200000', '-Wl,-z,common-page-size=0x200000']
       + objs + ['-o', nopie])
    return pie, nopie


def configs(args, pie, nopie, lib, mount):
    pre = {'LD_PRELOAD': lib}
    out = [('4K', pie, {}),
           ('THP', pie, dict(pre, RTEMEM_HUGETEXT='thp')),
           ('2M', pie, dict(pre, RTEMEM_HUGETEXT='enforce',
                            RTEMEM_HUGETEXT_PAGE_SIZES='2M'))]
    if args.one_g:
        out.append(('1G', pie, dict(pre, RTEMEM_HUGETEXT='enforce',
                                    RTEMEM_HUGETEXT_PAGE_SIZES='2M,1G')))
    if mount:
        out += [('non-PIE as loaded', nopie, {}),
                ('2M non-PIE', nopie, dict(pre, RTEMEM_HUGETEXT='enforce',
                                           RTEMEM_HUGETEXT_PAGE_SIZES='2M')),
                ('libhugetlbfs', nopie, {'LD_PRELOAD': LIBHUGETLBFS,
                                         'HUGETLB_ELFMAP': 'RW',
                                         'HUGETLB_PATH': mount})]
    return out


def run_once(binary, env, reps, reads):
    full = dict(os.environ)
    for k in list(full):
        if k.startswith(('RTEMEM_HUGETEXT', 'HUGETLB_')):
            del full[k]
    full.update(env)
    p = subprocess.run([binary, 'bench', str(reps), str(reads)], env=full,
                       capture_output=True, text=True, timeout=600)
    vals = {}
    for line in p.stdout.splitlines():
        m = re.fullmatch(r'([a-z_0-9]+)=(\d+)', line)
        if m:
            vals[m.group(1)] = int(m.group(2))
    if p.returncode != 0 or 'call_ps' not in vals:
        sys.exit('hugetext-bench: %s with %s failed (%d):\n%s%s' %
                 (binary, env, p.returncode, p.stdout, p.stderr))
    return vals


def ratios(runs, base_runs, key):
    """Median, min and max of the ratio of each round to the same round
    of base_runs: a slow round slows both, and cancels out."""
    rs = [r[key] / b[key] for r, b in zip(runs, base_runs)]
    return statistics.median(rs), min(rs), max(rs)


def summary(name, runs, base, base_runs):
    calls = [r['call_ps'] / 1000 for r in runs]
    reads = [r['read_ps'] / 1000 for r in runs]
    last = runs[-1]
    row = {'config': name,
           'call_ns': statistics.median(calls),
           'call_ns_min': min(calls), 'call_ns_max': max(calls),
           'read_ns': statistics.median(reads),
           'read_ns_min': min(reads), 'read_ns_max': max(reads),
           'code_huge_mb': (last['text_hugetlb_kb'] + last['text_thp_kb']
                            + last['ro_hugetlb_kb'] + last['ro_thp_kb'])
           / 1024,
           'data_huge_mb': (last['rw_hugetlb_kb'] + last['rw_thp_kb']) / 1024,
           'on_1g_mb': last['huge1g_kb'] / 1024,
           'file_pmd_mb': last['file_pmd_kb'] / 1024}
    if 'remap_us' in last:
        ms = statistics.median(r['remap_us'] for r in runs) / 1000
        mb = last['remap_kb'] / 1024
        floor = mb / last['memcpy_mbps'] * 1000
        if 'THP' not in name:
            floor += mb / last['hugetlb_fill_mbps'] * 1000
        row.update(remap_ms=ms, remap_mb=mb, floor_ms=floor,
                   remap_ms_per_100mb=ms * 100 / mb if mb else 0)
    if base:
        for what, key in (('call', 'call_ps'), ('read', 'read_ps')):
            med, lo, hi = ratios(runs, base_runs, key)
            row.update({what + '_vs_4k': med, what + '_vs_4k_min': lo,
                        what + '_vs_4k_max': hi})
    return row


# rtemem's move against the others', on the same binary, round by round.
VERSUS = [('2M', 'THP'), ('1G', 'THP'), ('2M non-PIE', 'libhugetlbfs')]


def print_versus(runs):
    for a, b in VERSUS:
        if a not in runs or b not in runs:
            continue
        c, r = (ratios(runs[a], runs[b], k) for k in ('call_ps', 'read_ps'))
        print('%s / %s, round by round: calls %.3f [%.3f-%.3f], reads '
              '%.3f [%.3f-%.3f]' % ((a, b) + c + r))


def print_rows(rows, limits):
    print('%-17s %22s %22s %19s %19s %8s %8s %8s %9s %9s %9s' %
          ('config', 'ns/call [min-max]', 'ns/read [min-max]',
           'call/4K [min-max]', 'read/4K [min-max]', 'code MB', 'data MB',
           'file PMD', 'move ms', 'ms/100MB', 'floor ms'))
    for r in rows:
        vs = ['%5.3f [%4.2f-%4.2f]' % (r.get(w + '_vs_4k', 1),
                                       r.get(w + '_vs_4k_min', 1),
                                       r.get(w + '_vs_4k_max', 1))
              for w in ('call', 'read')]
        print('%-17s %8.2f [%5.2f-%5.2f] %8.2f [%5.2f-%5.2f] %19s %19s '
              '%8.1f %8.1f %8.1f %9s %9s %9s' %
              (r['config'], r['call_ns'], r['call_ns_min'], r['call_ns_max'],
               r['read_ns'], r['read_ns_min'], r['read_ns_max'], vs[0],
               vs[1], r['code_huge_mb'], r['data_huge_mb'], r['file_pmd_mb'],
               '%.1f' % r['remap_ms'] if 'remap_ms' in r else '-',
               '%.1f' % r['remap_ms_per_100mb'] if 'remap_ms' in r else '-',
               '%.1f' % r['floor_ms'] if 'floor_ms' in r else '-'))
    print('limits: memcpy %d MB/s, new hugetlb pages %d MB/s; floor = '
          'moved MB / memcpy + moved MB / new pages (THP: memcpy only)'
          % limits)


def parse_args():
    ap = argparse.ArgumentParser(
        description=__doc__.split('\n\n')[0],
        epilog=__doc__.split('\n\n', 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--build', default=os.path.join(ROOT, 'build'),
                    help='meson build directory holding '
                    'lib/hugetext/librtemem_hugetext.so (default: build)')
    ap.add_argument('--functions', type=int, default=25000,
                    help='functions, 4 KB each (default 25000: 100 MB)')
    ap.add_argument('--table-mb', type=int, default=512,
                    help='static table read at random (default 512)')
    ap.add_argument('--rounds', type=int, default=7)
    ap.add_argument('--reps', type=int, default=0,
                    help='call chains per run (default: about 20 M calls)')
    ap.add_argument('--reads', type=int, default=20000000)
    ap.add_argument('--1g', dest='one_g', action='store_true',
                    help='a 2 GB table and a 1G configuration')
    ap.add_argument('--no-libhugetlbfs', action='store_true')
    ap.add_argument('--quick', action='store_true',
                    help='2,000 functions, 64 MB, 1 round: a smoke run')
    ap.add_argument('--json')
    ap.add_argument('--csv')
    args = ap.parse_args()
    if args.quick:
        args.functions, args.table_mb, args.rounds = 2000, 64, 1
        args.reads, args.reps = 2000000, 1000
    if args.one_g:
        args.table_mb = max(args.table_mb, 2048)
    if args.reps == 0:
        args.reps = max(1, 20000000 // args.functions)
    return args


def main():
    args = parse_args()
    lib = os.path.join(os.path.abspath(args.build),
                       'lib/hugetext/librtemem_hugetext.so')
    if not os.path.exists(lib):
        sys.exit('hugetext-bench: no %s: build rtemem first (--build)' % lib)
    tmp = tempfile.mkdtemp(prefix='rtemem-hugetext-bench.')
    mount = None
    try:
        pie, nopie = build(tmp, args.functions, args.table_mb, args.one_g)
        if not args.no_libhugetlbfs and os.path.exists(LIBHUGETLBFS):
            mount = os.path.join(tmp, 'huge')
            os.mkdir(mount)
            sh(['mount', '-t', 'hugetlbfs', '-o', 'pagesize=2M', 'nodev',
                mount])
        elif not args.no_libhugetlbfs:
            print('libhugetlbfs not installed (Debian: libhugetlbfs0): '
                  'its rows are left out')
        confs = configs(args, pie, nopie, lib, mount)
        runs = {c[0]: [] for c in confs}
        rng = random.Random(1)
        for _ in range(args.rounds):
            order = list(confs)
            rng.shuffle(order)
            for name, binary, env in order:
                runs[name].append(run_once(binary, env, args.reps,
                                           args.reads))
        print('%d functions (%d MB of code), %d MB table, %d rounds, %d '
              'calls and %d reads per run' %
              (args.functions, args.functions * 4 // 1024, args.table_mb,
               args.rounds, args.reps * args.functions, args.reads))
        rows = []
        for name, binary, _ in confs:
            base = BASES[1] if binary == nopie else BASES[0]
            rows.append(summary(name, runs[name], next(
                (r for r in rows if r['config'] == base), None),
                runs.get(base)))
        last = runs['2M'][-1]
        print_rows(rows, (last['memcpy_mbps'], last['hugetlb_fill_mbps']))
        print_versus(runs)
        missed = [r['config'] for r in rows if r['config'] not in BASES and
                  (r['code_huge_mb'] == 0 or r['data_huge_mb'] == 0)]
        if missed:
            print('hugetext-bench: nothing on huge pages in %s: their rows '
                  'measure small pages' % ', '.join(missed), file=sys.stderr)
            return 1
        if args.json:
            with open(args.json, 'w') as f:
                json.dump({'functions': args.functions,
                           'table_mb': args.table_mb,
                           'rounds': args.rounds, 'rows': rows}, f, indent=1)
        if args.csv:
            with open(args.csv, 'w', newline='') as f:
                w = csv.DictWriter(f, fieldnames=sorted(
                    {k for r in rows for k in r}))
                w.writeheader()
                w.writerows(rows)
        return 0
    finally:
        if mount:
            subprocess.run(['umount', mount])
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
