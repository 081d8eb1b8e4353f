#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rtemem authors

"""Run one hugetext test case: real processes on real hugepages.

Usage: hugetext_test.py CASE [ARG...]

Each case runs hugetext-target (hugetext_target.c), which checks its own
memory before and after the move and prints key=value lines, and then
checks what it printed, its exit status, and where relevant what gdb,
a core dump or perf's map file show. Cases that need a short hugetlb
pool run the target in a hugetlb cgroup of their own with a reservation
limit, so that nothing else on the machine loses pages. Exit status: 0
passed, 1 failed (with the reasons on stderr).
"""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

PAGE_2M = 2 << 20
failures = []


def check(cond, what):
    """Record a failed check; return cond."""
    if not cond:
        failures.append(what)
        print('FAIL: ' + what, file=sys.stderr)
    return cond


def values(out):
    """The key=value lines of the target's output, as ints."""
    vals = {}
    for line in out.splitlines():
        m = re.fullmatch(r'([a-z_0-9]+)=(-?\d+)', line)
        if m:
            vals[m.group(1)] = int(m.group(2))
    return vals


def base_env(extra=None):
    env = dict(os.environ)
    for k in list(env):
        if k.startswith('RTEMEM_HUGETEXT'):
            del env[k]
    # An ASan build's preload library comes before the runtime.
    env['ASAN_OPTIONS'] = (env.get('ASAN_OPTIONS', '') +
                           ':verify_asan_link_order=0').lstrip(':')
    env.update(extra or {})
    return env


class HugetlbLimit:
    """A hugetlb cgroup that lets its processes reserve N 2 MB pages."""

    def __init__(self, pages):
        self.mounted = None
        root = self._find_root()
        self.group = os.path.join(root, 'rtemem-hugetext-%d' % os.getpid())
        os.mkdir(self.group)
        limit = str(pages * PAGE_2M)
        for name in self.files:
            with open(os.path.join(self.group, name), 'w') as f:
                f.write(limit)

    def _find_root(self):
        with open('/proc/self/mounts') as f:
            mounts = [line.split() for line in f]
        for dev, path, fstype, opts, *_ in mounts:
            if fstype == 'cgroup2' and os.path.exists(
                    os.path.join(path, 'cgroup.controllers')):
                with open(os.path.join(path, 'cgroup.controllers')) as c:
                    if 'hugetlb' in c.read().split():
                        self._enable_v2(path)
                        self.files = ['hugetlb.2MB.rsvd.max',
                                      'hugetlb.2MB.max']
                        return path
            if fstype == 'cgroup' and 'hugetlb' in opts.split(','):
                self.files = ['hugetlb.2MB.rsvd.limit_in_bytes',
                              'hugetlb.2MB.limit_in_bytes']
                return path
        self.mounted = tempfile.mkdtemp(prefix='rtemem-hugetlb-cg.')
        subprocess.run(['mount', '-t', 'cgroup', '-o', 'hugetlb', 'none',
                        self.mounted], check=True)
        self.files = ['hugetlb.2MB.rsvd.limit_in_bytes',
                      'hugetlb.2MB.limit_in_bytes']
        return self.mounted

    @staticmethod
    def _enable_v2(root):
        with open(os.path.join(root, 'cgroup.subtree_control'), 'w') as f:
            f.write('+hugetlb')

    def enter(self):
        """preexec_fn: move the child into the group."""
        with open(os.path.join(self.group, 'cgroup.procs'), 'w') as f:
            f.write(str(os.getpid()))

    def close(self):
        os.rmdir(self.group)
        if self.mounted:
            subprocess.run(['umount', self.mounted], check=True)
            os.rmdir(self.mounted)


def run(argv, env=None, limit=None, cwd=None, timeout=60):
    """Run argv; return (status, stdout, stderr)."""
    p = subprocess.run(argv, env=base_env(env), cwd=cwd,
                       capture_output=True, text=True, timeout=timeout,
                       preexec_fn=limit.enter if limit else None)
    return p.returncode, p.stdout, p.stderr


def run_limited(pages, argv, env=None):
    limit = HugetlbLimit(pages)
    try:
        return run(argv, env, limit)
    finally:
        limit.close()


def target_ok(status, out, err, what):
    """The target ran and every check of its own passed."""
    v = values(out)
    ok = check(status == 0 and v.get('failures') == 0,
               '%s: exit %d, failures=%s\n%s%s' % (what, status,
                                                     v.get('failures'),
                                                     out[-2000:], err[-2000:]))
    return v if ok else None


def all_hugetlb(v):
    return v['text_hugetlb_kb'] + v['ro_hugetlb_kb'] + v['rw_hugetlb_kb']


ELF_ALIGN = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                         '..', '..', 'devtools', 'check-elf-align.py')


def predicted_pages(path):
    """[min, max] 2 MB pages check-elf-align.py says lib/hugetext moves."""
    p = subprocess.run(['/usr/bin/python3', ELF_ALIGN, '--json',
                        '--page-size', '2M', path],
                       capture_output=True, text=True)
    if not check(p.returncode == 0, 'check-elf-align.py: %s' % p.stderr):
        return None
    segs = json.loads(p.stdout)['files'][0]['segments']
    moved = [s['pages']['2M']['moved'] for s in segs]
    return [sum(m[0] for m in moved), sum(m[1] for m in moved)]


def case_variant(name, path, aligned):
    """api auto: code, data and .bss on hugetlb pages, all else intact."""
    if not check(os.path.exists(path), '%s not built (is its linker '
                 'installed? Debian: lld, binutils)' % path):
        return
    v = target_ok(*run([path, 'api', 'auto']), name)
    if v is None:
        return
    check(v['remap'] == 0 and v['ranges'] >= 2, 'remap=%d ranges=%d'
          % (v['remap'], v['ranges']))
    check(v['text_hugetlb_kb'] >= 2048, 'no code on hugetlb pages')
    check(v['rw_hugetlb_kb'] >= 8192, '.data and .bss not on hugetlb pages')
    check(v['hugetlb_kb'] == all_hugetlb(v), 'report says %d kB, smaps %d'
          % (v['hugetlb_kb'], all_hugetlb(v)))
    check(v['thp_kb'] == 0 and v['fallbacks'] == 0, 'THP used')
    check(v['pages_checked'] > 5000, 'only %d pages checked'
          % v['pages_checked'])
    if aligned:
        check(v['small_kb'] == 0, 'aligned binary: %d kB left small'
              % v['small_kb'])
    want = predicted_pages(path)
    if want is not None:
        check(want[0] <= v['hugetlb_kb'] // 2048 <= want[1],
              'check-elf-align.py predicted %d-%d pages, %d moved'
              % (want[0], want[1], v['hugetlb_kb'] // 2048))


def case_heap(path):
    """Without ASLR brk starts right after .bss: its start moves too."""
    v = target_ok(*run(['setarch', '-R', path, 'api', 'auto']), 'heap')
    if v is not None:
        check(v['heap_kb'] > 0, 'no brk heap moved with .bss')
        check(v['rw_hugetlb_kb'] >= 8192, '.bss not on hugetlb pages')


def free_pages(size_kb):
    with open('/sys/kernel/mm/hugepages/hugepages-%dkB/free_hugepages'
              % size_kb) as f:
        return int(f.read())


def case_1g(path):
    """A .bss of 2 GB takes a 1 GB page, the rest 2 MB pages."""
    # Up to 1 GB of 2 MB pages beside the 1 GB one, and 2 MB pages for
    # the copies of the two pages the forked child writes.
    if not check(free_pages(1048576) >= 1 and free_pages(2048) >= 520,
                 'needs a free 1 GB page and 520 free 2 MB pages, has %d '
                 'and %d' % (free_pages(1048576), free_pages(2048))):
        return
    v = target_ok(*run([path, 'api', 'enforce']), '1g')
    if v is not None:
        check(v['huge1g_kb'] == 1 << 20, '%d kB on 1 GB pages'
              % v['huge1g_kb'])
        check(v['rw_hugetlb_kb'] > 1 << 20, '.bss beyond the 1 GB page '
              'not on 2 MB pages')


def case_thp(path):
    v = target_ok(*run([path, 'api', 'thp']), 'thp')
    if v is not None:
        check(v['hugetlb_kb'] == 0 and all_hugetlb(v) == 0, 'hugetlb used')
        check(v['thp_kb'] > 0 and v['ranges'] >= 2, 'nothing copied')
        check(v['text_thp_kb'] >= 2048, 'code not on THP (AnonHugePages)')


def case_enforce_short(path):
    """A short pool, before and during the move: nothing changes."""
    for pages in (0, 3):
        v = target_ok(*run_limited(pages, [path, 'api', 'enforce']),
                      'enforce with %d pages' % pages)
        if v is None:
            continue
        check(v['remap'] == -12, '%d pages: remap=%d, not -ENOMEM'
              % (pages, v['remap']))
        check(v['ranges'] == 0 and all_hugetlb(v) == 0 and
              v['all_hugetlb_kb'] == 0 and v['thp_kb'] == 0,
              '%d pages: something moved or held' % pages)


def case_auto_short(path):
    """Pages run out mid-plan: the rest goes to THP copies."""
    v = target_ok(*run_limited(3, [path, 'api', 'auto']), 'auto short')
    if v is not None:
        check(v['remap'] == 0 and v['fallbacks'] >= 1, 'no fallback')
        check(v['hugetlb_kb'] > 0 and v['hugetlb_kb'] <= 3 * 2048,
              'hugetlb_kb=%d with a 3 page limit' % v['hugetlb_kb'])
        check(v['thp_kb'] > 0, 'nothing on THP')


def case_move_fails(path):
    """mremap() refused (seccomp): what it would have moved stays."""
    for mode in ('auto', 'enforce'):
        # Every move fails: nothing moved, nothing held.
        v = target_ok(*run([path, 'api', mode],
                           {'HT_TEST_FAIL_MREMAP': 'all'}),
                      '%s, every move failing' % mode)
        if v is not None:
            check(v['remap'] == -12 and v['ranges'] == 0 and
                  all_hugetlb(v) == 0 and v['all_hugetlb_kb'] == 0 and
                  v['thp_kb'] == 0,
                  '%s, every move failing: %s' % (mode, v))
        # The writable segment's moves fail: the code's still move, and
        # the target found the data's mappings as they were.
        v = target_ok(*run([path, 'api', mode], {'HT_TEST_FAIL_MREMAP': 'rw'}),
                      '%s, data moves failing' % mode)
        if v is not None:
            check(v['remap'] == -12 and v['ranges'] >= 1 and
                  v['text_hugetlb_kb'] >= 2048 and v['rw_hugetlb_kb'] == 0
                  and v['all_hugetlb_kb'] == v['hugetlb_kb'] and
                  v['thp_kb'] == 0,
                  '%s, data moves failing: %s' % (mode, v))


def case_segments(path):
    """28 PT_LOAD segments: every one examined, each array's page moved."""
    if not check(os.path.exists(path), '%s not built (Debian: binutils)'
                 % path):
        return
    status, out, err = run([path])
    v = values(out)
    check(status == 0 and v.get('remap') == 0 and v.get('segments') == 28
          and v.get('moved') == 24 and v.get('bad') == 0,
          'segments: exit %d\n%s%s' % (status, out, err))


PRELOAD_FAIL = 'RTEMEM_HUGETEXT=enforce failed: exiting'


def case_preload(plain, lib):
    """An unmodified program, LD_PRELOAD and RTEMEM_HUGETEXT=enforce."""
    env = {'LD_PRELOAD': lib, 'RTEMEM_HUGETEXT': 'enforce'}
    v = target_ok(*run([plain, 'check'], env), 'preload')
    if v is not None:
        check(v['text_hugetlb_kb'] >= 2048 and v['ro_hugetlb_kb'] >= 2048
              and v['rw_hugetlb_kb'] >= 8192,
              'preload: not on hugetlb pages: %s' % v)
    status, out, err = run_limited(0, [plain, 'check'], env)
    check(status == 1 and out == '' and PRELOAD_FAIL in err and
          'cannot be reserved' in err,
          'enforce, empty pool: exit %d\n%s%s' % (status, out, err))
    # What the program starts inherits the environment: a shell, a
    # small tool. With no whole huge page they run as they are.
    for argv in (['/bin/true'], ['sh', '-c', 'exit 7']):
        status, out, err = run(argv, env)
        check(status == (7 if argv[0] == 'sh' else 0) and err == '',
              'enforce, %s with nothing to move: exit %d\n%s'
              % (argv[0], status, err))
    status, out, err = run(['/bin/true'],
                           dict(env, RTEMEM_HUGETEXT_VERBOSE='1'))
    check(status == 0 and 'enforce: no segment holds a whole 2048 kB page'
          in err, 'enforce, verbose, nothing to move: exit %d\n%s'
          % (status, err))
    env['RTEMEM_HUGETEXT'] = 'auto'
    v = target_ok(*run_limited(0, [plain, 'check'], env), 'auto, no pool')
    if v is not None:
        check(v['all_hugetlb_kb'] == 0 and v['text_thp_kb'] >= 2048,
              'auto with no pages: code not on THP')
    env['RTEMEM_HUGETEXT'] = 'fast'
    status, out, err = run([plain, 'check'], env)
    check(status == 1 and out == '' and "RTEMEM_HUGETEXT='fast' is not "
          "one of off, auto, enforce, thp" in err, 'bad mode: exit %d %s'
          % (status, err))
    env.update(RTEMEM_HUGETEXT='enforce', RTEMEM_HUGETEXT_PAGE_SIZES='3M')
    status, out, err = run([plain, 'check'], env)
    check(status == 1 and out == '' and "RTEMEM_HUGETEXT_PAGE_SIZES='3M' "
          "is not a list of sizes such as 2M,1G" in err,
          'bad page sizes: exit %d %s' % (status, err))
    del env['RTEMEM_HUGETEXT_PAGE_SIZES']
    env.update(RTEMEM_HUGETEXT='enforce', RTEMEM_HUGETEXT_LIBS='libnothere')
    status, out, err = run([plain, 'check'], env)
    check(status == 1 and "library 'libnothere' is not loaded" in err and
          PRELOAD_FAIL in err, 'missing library: exit %d %s' % (status, err))


def case_lib(dso_target, lib):
    """RTEMEM_HUGETEXT_LIBS moves a shared library's segments too."""
    # Through the API, between the target's snapshots of the library's
    # pages: each one's contents and protection are compared.
    v = target_ok(*run([dso_target, 'api', 'enforce', 'libbigprog-shared']),
                  'library, API')
    if v is not None:
        check(v['remap'] == 0 and v['all_hugetlb_kb'] >= 8192 and
              v['pages_checked'] > 5000,
              'library, API: remap=%d, %d kB on hugetlb pages, %d pages '
              'checked' % (v['remap'], v['all_hugetlb_kb'],
                           v['pages_checked']))
    env = {'LD_PRELOAD': lib, 'RTEMEM_HUGETEXT': 'enforce',
           'RTEMEM_HUGETEXT_LIBS': 'libbigprog-shared',
           'RTEMEM_HUGETEXT_VERBOSE': '1'}
    status, out, err = run([dso_target, 'check'], env)
    v = target_ok(status, out, err, 'library')
    if v is not None:
        check('libbigprog-shared.so: ' in err and ' r-x ' in err,
              'library code not moved:\n' + err)
        check(v['all_hugetlb_kb'] >= 8192, 'library not on hugetlb pages')


EAL_ARGS = ['--no-huge', '-m', '16', '--no-shconf', '-l', '0']


def case_eal(path):
    """rte_eal_init() applies --huge-text, and fails cleanly in enforce."""
    status, out, err = run([path, 'eal', '--huge-text=enforce'] + EAL_ARGS)
    v = target_ok(status, out, err, 'eal')
    if v is not None:
        check(v['eal_init'] >= 0 and v['ranges'] >= 2 and
              v['text_hugetlb_kb'] >= 2048 and v['rw_hugetlb_kb'] >= 8192,
              '--huge-text=enforce moved nothing: %s' % v)
        check('EAL: huge text: enforce: ' in err, 'no EAL log line:\n' + err)
    status, out, err = run_limited(0, [path, 'eal', '--huge-text=enforce']
                                   + EAL_ARGS)
    v = target_ok(status, out, err, 'eal, empty pool')
    if v is not None:
        check(v['eal_init'] == -1 and v['rte_errno'] == 12 and
              v['all_hugetlb_kb'] == 0 and v['ranges'] == 0,
              'enforce, no pages: %s' % v)
        check('--huge-text=enforce: Cannot allocate memory' in err,
              'no error line:\n' + err)
    status, out, err = run([path, 'eal', '--huge-text-libs=libc'] + EAL_ARGS)
    check('option --huge-text-libs needs --huge-text' in err and
          'eal_init=-1' in out, 'libs without --huge-text:\n' + out + err)


def wait_for(proc, word, timeout=30):
    """Read proc's stdout until a line equal to word."""
    end = time.time() + timeout
    lines = []
    while time.time() < end:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        if line.strip() == word:
            return True, ''.join(lines)
    return False, ''.join(lines)


def moved_code(out, what):
    """The moved function the target named, if it and big_call moved."""
    v = values(out)
    if not check(v.get('moved_fn', -1) >= 0 and v.get('call_moved') == 1,
                 '%s: no moved code to name: moved_fn=%s call_moved=%s'
                 % (what, v.get('moved_fn'), v.get('call_moved'))):
        return None
    return v['moved_fn']


def backtrace_ok(text, leaf, what):
    """The frames leaf, big_call (in moved code) and main, in order."""
    frames = re.findall(r'^#\d+\s+(?:0x[0-9a-f]+ in )?(\w+)', text, re.M)
    want = [leaf, 'big_call', 'main']
    found = [f for f in frames if f in want]
    return check(found == want, '%s: backtrace %s, not %s:\n%s'
                 % (what, frames, want, text))


def case_gdb(plain, lib):
    """gdb attaches to a moved program, or runs it, and names moved code."""
    env = base_env({'LD_PRELOAD': lib, 'RTEMEM_HUGETEXT': 'enforce'})
    proc = subprocess.Popen([plain, 'wait'], env=env, text=True,
                            stdout=subprocess.PIPE)
    try:
        ok, out = wait_for(proc, 'waiting')
        if not check(ok and 'failures=0' in out, 'target:\n' + out):
            return
        fn = moved_code(out, 'attach')
        if fn is None:
            return
        g = subprocess.run(['gdb', '-p', str(proc.pid), '-batch', '-nx',
                            '-ex', 'bt', '-ex', 'print big_fns[%d]' % fn],
                           capture_output=True, text=True, timeout=120)
        backtrace_ok(g.stdout, 'target_wait_here', 'attach')
        check('<big_f%d>' % fn in g.stdout, 'gdb cannot name moved code:\n'
              + g.stdout)
    finally:
        proc.kill()
        proc.wait()
    # gdb's run starts the program through a shell, which inherits the
    # preload too: both must start.
    g = subprocess.run(['gdb', '-batch', '-nx',
                        '-ex', 'set environment LD_PRELOAD=' + lib,
                        '-ex', 'set environment RTEMEM_HUGETEXT=enforce',
                        '-ex', 'run', '-ex', 'bt', '--args', plain, 'crash'],
                       capture_output=True, text=True, timeout=120,
                       env=base_env())
    if check('SIGABRT' in g.stdout and 'failures=0' in g.stdout,
             'gdb run: the program did not run to its abort:\n' + g.stdout +
             g.stderr):
        if moved_code(g.stdout, 'run') is not None:
            backtrace_ok(g.stdout, 'target_crash_here', 'run')


def case_core(plain, lib):
    """The kernel dumps the moved memory, and gdb reads the core."""
    with open('/proc/sys/kernel/core_pattern') as f:
        pattern = f.read().strip()
    if not check(not pattern.startswith('|'), 'core_pattern is a pipe '
                 '(%s): cores cannot be checked here' % pattern):
        return
    tmp = tempfile.mkdtemp(prefix='rtemem-hugetext-core.')
    try:
        env = base_env({'LD_PRELOAD': lib, 'RTEMEM_HUGETEXT': 'enforce'})
        import resource
        p = subprocess.run([plain, 'crash'], env=env, cwd=tmp, text=True,
                           capture_output=True, timeout=60,
                           preexec_fn=lambda: resource.setrlimit(
                               resource.RLIMIT_CORE, (-1, -1)))
        cores = [f for f in os.listdir(tmp) if f.startswith('core')]
        if not check(p.returncode == -signal.SIGABRT and len(cores) == 1,
                     'crash: status %d, files %s' % (p.returncode, cores)):
            return
        fn = moved_code(p.stdout, 'core')
        if fn is None:
            return
        g = subprocess.run(['gdb', '-batch', '-nx', plain,
                            os.path.join(tmp, cores[0]),
                            '-ex', 'bt', '-ex', 'print big_data[4096]',
                            '-ex', 'print big_bss[8192]',
                            '-ex', 'print big_fns[%d]' % fn,
                            '-ex', 'x/2i big_fns[%d]' % fn],
                           capture_output=True, text=True, timeout=120)
        backtrace_ok(g.stdout, 'target_crash_here', 'core')
        # BIG_DATA_BYTE(1) and the .bss pattern of page 2: the moved
        # hugetlb memory is in the core; and the moved code, named.
        check(re.search(r'= 63 ', g.stdout) and re.search(r'= 2 ', g.stdout)
              and '<big_f%d>' % fn in g.stdout and
              re.search(r'<big_f%d(\+\d+)?>:\s+\w' % fn, g.stdout),
              'core: moved data or code missing:\n' + g.stdout + g.stderr)
    finally:
        shutil.rmtree(tmp)


def hugetlb_ranges(pid):
    """The ranges of process pid on pages larger than 4 KB."""
    ranges, cur = [], None
    with open('/proc/%d/smaps' % pid) as f:
        for line in f:
            m = re.match(r'([0-9a-f]+)-([0-9a-f]+) ', line)
            if m:
                cur = (int(m.group(1), 16), int(m.group(2), 16))
            elif line.startswith('KernelPageSize:') and \
                    int(line.split()[1]) > 4:
                ranges.append(cur)
    return ranges


def case_perf_map(plain, lib):
    env = base_env({'LD_PRELOAD': lib, 'RTEMEM_HUGETEXT': 'enforce',
                    'RTEMEM_HUGETEXT_PERF_MAP': '1'})
    proc = subprocess.Popen([plain, 'wait'], env=env, text=True,
                            stdout=subprocess.PIPE)
    path = '/tmp/perf-%d.map' % proc.pid
    try:
        ok, out = wait_for(proc, 'waiting')
        check(ok, 'target:\n' + out)
        with open(path) as f:
            lines = f.read().splitlines()
        named = [line.split() for line in lines
                 if re.fullmatch(r'[0-9a-f]+ [0-9a-f]+ big_f\d+', line)]
        # How much code moved depends on where the loader put it: one
        # 2 MB page of it or two. Functions are about 4 KB.
        pages = values(out).get('text_hugetlb_kb', 0) // 2048
        check(pages >= 1 and len(named) >= 256 * pages,
              'perf map names %d functions for %d moved pages of code'
              % (len(named), pages))
        fn = moved_code(out, 'perf map')
        check(fn is None or 'big_f%d' % fn in [n[2] for n in named],
              'perf map: moved function big_f%s not named' % fn)
        huge = hugetlb_ranges(proc.pid)
        stray = [n for n in named
                 if not any(s <= int(n[0], 16) < e for s, e in huge)]
        check(not stray, 'perf map names code that did not move: %s'
              % stray[:3])
    except OSError as e:
        check(False, 'perf map: %s' % e)
    finally:
        proc.kill()
        proc.wait()
        if os.path.exists(path):
            os.unlink(path)


CASES = {
    'variant': lambda a: case_variant(a[0], a[1], a[0].endswith('-2m')),
    'heap': lambda a: case_heap(a[0]),
    'thp': lambda a: case_thp(a[0]),
    '1g': lambda a: case_1g(a[0]),
    'enforce-short': lambda a: case_enforce_short(a[0]),
    'auto-short': lambda a: case_auto_short(a[0]),
    'move-fails': lambda a: case_move_fails(a[0]),
    'segments': lambda a: case_segments(a[0]),
    'preload': lambda a: case_preload(a[0], a[1]),
    'lib': lambda a: case_lib(a[0], a[1]),
    'gdb': lambda a: case_gdb(a[0], a[1]),
    'eal': lambda a: case_eal(a[0]),
    'core': lambda a: case_core(a[0], a[1]),
    'perf-map': lambda a: case_perf_map(a[0], a[1]),
}


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in CASES:
        sys.exit(__doc__)
    with open('/proc/meminfo') as f:
        meminfo = f.read()
    free = int(re.search(r'HugePages_Free:\s+(\d+)', meminfo).group(1))
    if not check(free >= 32, 'needs 32 free 2 MB hugepages, %d free' % free):
        return 1
    CASES[sys.argv[1]](sys.argv[2:])
    print('%s: %s' % (sys.argv[1], 'failed' if failures else 'passed'))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
