#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rtemem authors
"""Warm restarts of examples/warm_cache and of memcached, side by side.

warm-cache-vs-memcached.py --build DIR --huge-dir DIR [--items N]
    [--value-size B] [--memfile-dir DIR]

Both hold N items of B bytes. warm_cache runs its own table (a cold
build, a warm restart after a clean exit and one after SIGKILL). Then
memcached (Debian's) is filled over TCP, stopped with SIGUSR1 (its warm
restart with -e, a memory file on tmpfs), started again, and timed from
exec to its first hit and to all N items read and compared; then it is
killed with SIGKILL and started again, and what it still holds is counted.
Times are wall-clock; nothing is asserted about them.
"""

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import time

PORT = 21987


def value_of(key, size):
    """The bytes of item key: its number, repeated."""
    unit = b'%015d,' % key
    return (unit * (size // len(unit) + 1))[:size]


def connect(deadline):
    """A connection to the memcached under test, or None at the deadline."""
    while time.monotonic() < deadline:
        try:
            return socket.create_connection(('127.0.0.1', PORT), timeout=5)
        except OSError:
            time.sleep(0.0005)
    return None


def read_until(sock, buf, end):
    """Read until buf ends with end; return the bytes."""
    while not buf.endswith(end):
        chunk = sock.recv(1 << 20)
        if not chunk:
            raise RuntimeError('memcached closed the connection')
        buf += chunk
    return buf


def fill(sock, n, size):
    """Set n items, pipelined, then make sure all were taken."""
    batch = []
    for k in range(n):
        batch.append(b'set k%d 0 0 %d noreply\r\n%s\r\n'
                     % (k, size, value_of(k, size)))
        if len(batch) == 512:
            sock.sendall(b''.join(batch))
            batch = []
    sock.sendall(b''.join(batch) + b'mn\r\n')
    read_until(sock, b'', b'MN\r\n')


def get_many(sock, keys, size):
    """Fetch keys with multi-gets; return how many came back right."""
    ok = 0
    for i in range(0, len(keys), 100):
        part = keys[i:i + 100]
        sock.sendall(b'get ' + b' '.join(b'k%d' % k for k in part) + b'\r\n')
        data = read_until(sock, b'', b'END\r\n')
        pos = 0
        while data.startswith(b'VALUE ', pos):
            eol = data.index(b'\r\n', pos)
            key = int(data[pos + 7:eol].split()[0])
            body = data[eol + 2:eol + 2 + size]
            ok += body == value_of(key, size)
            pos = eol + 2 + size + 2
    return ok


class Memcached:
    """One memcached process on PORT with a memory file."""

    def __init__(self, memfile, mb):
        self.args = ['memcached', '-p', str(PORT), '-U', '0', '-l',
                     '127.0.0.1', '-m', str(mb), '-e', memfile, '-t', '2',
                     '-c', '256']
        if os.geteuid() == 0:
            self.args += ['-u', 'root']
        self.proc = None

    def start(self):
        """Start it; return the monotonic time just before exec."""
        t0 = time.monotonic()
        self.proc = subprocess.Popen(self.args, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE)
        return t0

    def stop(self, sig):
        """Send sig and wait; return the seconds it took to exit."""
        t0 = time.monotonic()
        self.proc.send_signal(sig)
        self.proc.wait(timeout=120)
        return time.monotonic() - t0


def first_hit(key, t0, patience):
    """Ask for key until it is served or patience seconds passed; return
    (ms from t0 or None, the connection)."""
    sock = connect(t0 + 60)
    if sock is None:
        raise RuntimeError('memcached did not start')
    while True:
        sock.sendall(b'get k%d\r\n' % key)
        data = read_until(sock, b'', b'END\r\n')
        if data.startswith(b'VALUE'):
            return (time.monotonic() - t0) * 1e3, sock
        if time.monotonic() - t0 > patience:
            return None, sock
        time.sleep(0.0005)


def memcached_rounds(n, size, memfile):
    """The memcached rows: warm after SIGUSR1, and after SIGKILL."""
    mb = max(64, n * (size + 120) * 13 // 10 >> 20)
    mc = Memcached(memfile, mb)
    rows = []
    mc.start()
    sock = connect(time.monotonic() + 30)
    t = time.monotonic()
    fill(sock, n, size)
    sock.close()
    print('memcached: filled %d items in %.1f s' % (n, time.monotonic() - t))
    stop_s = mc.stop(signal.SIGUSR1)
    # A restart in the same second as the stop is refused.
    time.sleep(1.1)
    t0 = mc.start()
    hit_ms, sock = first_hit(n // 2, t0, 10)
    ok = get_many(sock, list(range(n)), size)
    all_ms = (time.monotonic() - t0) * 1e3
    sock.close()
    rows.append(('memcached after SIGUSR1', hit_ms, all_ms, ok,
                 'stop took %.0f ms' % (stop_s * 1e3)))
    mc.stop(signal.SIGKILL)
    t0 = mc.start()
    hit_ms, sock = first_hit(n // 2, t0, 0)
    ok = get_many(sock, list(range(n)), size) if hit_ms else 0
    all_ms = (time.monotonic() - t0) * 1e3
    sock.close()
    rows.append(('memcached after SIGKILL', hit_ms, all_ms, ok,
                 'starts empty' if ok == 0 else ''))
    mc.stop(signal.SIGKILL)
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--build', required=True)
    ap.add_argument('--huge-dir', required=True)
    ap.add_argument('--items', type=int, default=800000)
    ap.add_argument('--value-size', type=int, default=1024)
    ap.add_argument('--memfile-dir', default='/dev/shm')
    a = ap.parse_args()
    exe = os.path.join(a.build, 'examples', 'warm_cache', 'warm_cache')
    out = subprocess.run([exe, '--huge-dir', a.huge_dir, '--file-prefix',
                          'wcvsmc', '--', '--items', str(a.items),
                          '--value-size', str(a.value_size)],
                         stdout=subprocess.PIPE, text=True, check=False)
    print(out.stdout, end='')
    if out.returncode != 0:
        print('warm_cache failed (exit %d)' % out.returncode)
        return 1
    if shutil.which('memcached') is None:
        print('memcached is not installed: apt-get install memcached')
        return 0
    memfile = os.path.join(a.memfile_dir, 'rtemem-wcvsmc-%d.mem' % os.getpid())
    try:
        rows = memcached_rounds(a.items, a.value_size, memfile)
    finally:
        for f in (memfile, memfile + '.meta'):
            if os.path.exists(f):
                os.unlink(f)
    print('\n%-26s %13s %15s %12s' % ('start (ms from exec)', 'first hit',
                                       'all verified', 'items whole'))
    print('(memcached\'s items are read over TCP by this Python script, '
          'which dominates "all verified")')
    for name, hit, done, ok, note in rows:
        print('%-26s %13s %15.1f %12d  %s'
              % (name, '%.1f' % hit if hit else 'none', done, ok, note))
    return 0


if __name__ == '__main__':
    sys.exit(main())
