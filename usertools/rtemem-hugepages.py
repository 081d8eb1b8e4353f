#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rtemem authors

"""Show, reserve and mount hugepages; list and remove the hugepage files
that rtemem (or DPDK) processes leave in hugetlbfs.

Everything comes from the kernel's own files: /sys/kernel/mm/hugepages
and /sys/devices/system/node/node*/hugepages for the page pools,
/proc/mounts for the hugetlbfs mounts, /proc/locks, /proc/*/maps and
/proc/*/fd for the processes that hold a file. Python standard library
only.

Exit status: 0 done; 1 a value is invalid or the action could not be
done (fewer pages than asked, a file held by a live process, a mount
refused); 2 the action needs root, or the command line is wrong.
"""

import argparse
import fcntl
import os
import re
import shutil
import signal
import stat
import subprocess
import sys

PROG = "rtemem-hugepages"
SYS_HUGEPAGES = "/sys/kernel/mm/hugepages"
SYS_NODES = "/sys/devices/system/node"
EXIT_FAILED = 1
EXIT_NEED_ROOT = 2
EXIT_USAGE = 2
UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


class ToolError(Exception):
    """A one-line error for the user, with the exit status to use."""

    def __init__(self, message, status=EXIT_FAILED):
        super().__init__(message)
        self.status = status


def need_root(what):
    """The error of an action that needs root: '<what> needs root'."""
    return ToolError(what + " needs root (run with sudo)", EXIT_NEED_ROOT)


# ---- sizes -----------------------------------------------------------------

def parse_size(text, what):
    """Bytes of a size such as 2M, 512MB, 1G, 2048kB or 1GiB."""
    m = re.fullmatch(r"(\d+)\s*([kKmMgGtT]?)(i?[bB])?", text.strip())
    if m is None or (m[3] is not None and m[2] == ""):
        raise ToolError("%s '%s' is not a size: write it as 2M, 512M, 1G, "
                        "2048kB..." % (what, text))
    return int(m[1]) * UNITS[m[2].upper()]


def format_size(nbytes):
    """The shortest exact spelling of a size: 2M, 1G, 4K, 0."""
    for unit in "TGMK":
        if nbytes and nbytes % UNITS[unit] == 0:
            return "%d%s" % (nbytes // UNITS[unit], unit)
    return str(nbytes)


def plural(n, word):
    """'1 file', '2 files'."""
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


# ---- hugepage pools --------------------------------------------------------

def read_int(path):
    with open(path) as f:
        return int(f.read())


def meminfo(key):
    """A /proc/meminfo value in bytes (its kB times 1024)."""
    with open("/proc/meminfo") as f:
        for line in f:
            name, _, value = line.partition(":")
            if name == key:
                return int(value.split()[0]) * 1024
    raise ToolError("/proc/meminfo has no %s line" % key)


def page_sizes():
    """The hugepage sizes of this machine, in bytes, smallest first."""
    sizes = []
    try:
        names = os.listdir(SYS_HUGEPAGES)
    except OSError:
        names = []
    for name in names:
        m = re.fullmatch(r"hugepages-(\d+)kB", name)
        if m:
            sizes.append(int(m[1]) * 1024)
    return sorted(sizes)


def default_page_size():
    """The default hugepage size (Hugepagesize in /proc/meminfo)."""
    return meminfo("Hugepagesize")


def numa_nodes():
    """The NUMA node numbers that have a hugepages directory."""
    nodes = []
    try:
        names = os.listdir(SYS_NODES)
    except OSError:
        return nodes
    for name in names:
        m = re.fullmatch(r"node(\d+)", name)
        if m and os.path.isdir(os.path.join(SYS_NODES, name, "hugepages")):
            nodes.append(int(m[1]))
    return sorted(nodes)


def pool_dir(size, node=None):
    """The sysfs directory of one page size, machine-wide or on a node."""
    leaf = "hugepages-%dkB" % (size // 1024)
    if node is None:
        return os.path.join(SYS_HUGEPAGES, leaf)
    return os.path.join(SYS_NODES, "node%d" % node, "hugepages", leaf)


def pool_counts(size, node=None):
    """(reserved, free, surplus) pages of one pool."""
    d = pool_dir(size, node)
    return tuple(read_int(os.path.join(d, f)) for f in
                 ("nr_hugepages", "free_hugepages", "surplus_hugepages"))


def checked_page_size(text):
    """The page size given with --pagesize (or the default), in bytes,
    checked against the sizes this machine has."""
    sizes = page_sizes()
    if not sizes:
        raise ToolError("this kernel has no hugepages (%s is missing or "
                        "empty)" % SYS_HUGEPAGES)
    if text is None:
        return default_page_size()
    size = parse_size(text, "page size")
    if size not in sizes:
        raise ToolError("this machine has no %s hugepages (page sizes: %s)"
                        % (text, ", ".join(format_size(s) for s in sizes)))
    return size


def checked_node(node):
    """node, if it is a NUMA node with hugepages, else an error."""
    if node is None:
        return None
    nodes = numa_nodes()
    if node not in nodes:
        raise ToolError("there is no NUMA node %d with hugepages (nodes: %s)"
                        % (node, ", ".join(map(str, nodes)) or "none"))
    return node


# ---- mounts ----------------------------------------------------------------

def unescape_mount_field(field):
    """Undo the octal escapes of /proc/mounts (\\040 for a space...)."""
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m[1], 8)), field)


def mounts():
    """(directory, fstype, options) of each line of /proc/mounts."""
    out = []
    with open("/proc/mounts") as f:
        for line in f:
            fields = line.split()
            if len(fields) >= 4:
                out.append((unescape_mount_field(fields[1]), fields[2],
                            fields[3].split(",")))
    return out


def mount_page_size(options):
    """The page size of a hugetlbfs mount from its options."""
    for opt in options:
        if opt.startswith("pagesize="):
            return parse_size(opt[len("pagesize="):], "mount page size")
    return default_page_size()


def hugetlbfs_mounts():
    """(directory, page size) of each hugetlbfs mount, in mount order."""
    return [(d, mount_page_size(opts)) for d, fstype, opts in mounts()
            if fstype == "hugetlbfs"]


def mounted_at(directory):
    """(fstype, options) of the mount on top of directory, or None."""
    found = None
    for d, fstype, opts in mounts():
        if d == directory:
            found = (fstype, opts)
    return found


def hugetlbfs_of(directory):
    """(mount point, page size) of the hugetlbfs that directory is on."""
    best = None
    for d, fstype, opts in mounts():
        inside = directory == d or directory.startswith(d.rstrip("/") + "/")
        if inside and (best is None or len(d) >= len(best[0])):
            best = (d, fstype, opts)
    if best is None or best[1] != "hugetlbfs":
        raise ToolError("%s is not on a hugetlbfs (see --show for the "
                        "mounts)" % directory)
    return best[0], mount_page_size(best[2])


# ---- --show ----------------------------------------------------------------

def show():
    sizes = page_sizes()
    if not sizes:
        print("This kernel has no hugepages (%s is missing or empty)."
              % SYS_HUGEPAGES)
    default = default_page_size() if sizes else None
    nodes = numa_nodes()
    row = "  %-6s %10s %10s %10s %10s"
    for size in sizes:
        print("%s pages (hugepages-%dkB%s)" % (
            format_size(size), size // 1024,
            ", the default size" if size == default else ""))
        print(row % ("node", "reserved", "free", "surplus", "in use"))
        for node in [None] + nodes:
            nr, free, surplus = pool_counts(size, node)
            print(row % ("all" if node is None else node, nr, free, surplus,
                         nr - free))
    print()
    print("hugetlbfs mounts")
    found = hugetlbfs_mounts()
    if not found:
        print("  none (mount one with --mount DIR)")
    for directory, size in found:
        print("  %-6s %s" % (format_size(size), directory))


# ---- --reserve and --clear -------------------------------------------------

def wanted_pages(text, size):
    """Pages asked for by --reserve: a count, or a size with a unit."""
    if re.fullmatch(r"\d+", text.strip()):
        return int(text)
    nbytes = parse_size(text, "--reserve value")
    if nbytes % size:
        raise ToolError("%s is not a whole number of %s pages"
                        % (text, format_size(size)))
    return nbytes // size


def where(size, node):
    what = "%s pages" % format_size(size)
    return what if node is None else what + " on node %d" % node


def write_pool(size, node, count, action):
    """Write nr_hugepages of one pool; return the count read back."""
    path = os.path.join(pool_dir(size, node), "nr_hugepages")
    try:
        with open(path, "w") as f:
            f.write("%d\n" % count)
    except PermissionError:
        raise need_root(action) from None
    except OSError as e:
        raise ToolError("cannot write %d to %s: %s"
                        % (count, path, e.strerror)) from None
    return read_int(os.path.join(pool_dir(size, node), "nr_hugepages"))


def report_pool(size, node, before, after):
    """Print a pool's count after a write; after counts surplus pages."""
    surplus = pool_counts(size, node)[2]
    print("%s: %d reserved (was %d)" % (where(size, node), after - surplus,
                                        before))
    if surplus:
        print("  and %d surplus: pages in use above that count, which the "
              "kernel frees when they are released" % surplus)


def megabytes(nbytes):
    return "%d MB" % (nbytes // UNITS["M"])


def reserve(text, pagesize, node):
    size = checked_page_size(pagesize)
    node = checked_node(node)
    count = wanted_pages(text, size)
    nr, _, surplus = pool_counts(size, node)
    before = nr - surplus
    more = (count - before) * size
    available = meminfo("MemAvailable")
    if more > available:
        # Asking anyway would make the kernel reclaim the caches of the
        # whole machine before giving up.
        raise ToolError("%d more %s need %s of memory but only %s is "
                        "available: not asking the kernel"
                        % (count - before, where(size, node),
                           megabytes(more), megabytes(available)))
    after = write_pool(size, node, count, "reserving pages")
    report_pool(size, node, before, after)
    got = after - pool_counts(size, node)[2]
    if got < count:
        raise ToolError(
            "the kernel reserved only %d of the %d %s asked for (not enough "
            "free contiguous memory: reserve early after boot, or on the "
            "kernel command line)" % (got, count, where(size, node)))


def clear(pagesize, node):
    sizes = [checked_page_size(pagesize)] if pagesize else page_sizes()
    node = checked_node(node)
    for size in sizes:
        nr, _, surplus = pool_counts(size, node)
        after = write_pool(size, node, 0, "clearing reservations")
        before = nr - surplus
        report_pool(size, node, before, after)


# ---- --mount and --unmount -------------------------------------------------

def require_root(action):
    if os.geteuid() != 0:
        raise need_root(action)


def run_tool(argv):
    """Run mount(8) or umount(8): '' if it worked, else its message."""
    if shutil.which(argv[0]) is None:
        raise ToolError("%s(8) is not installed" % argv[0])
    done = subprocess.run(argv, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, check=False)
    if done.returncode == 0:
        return ""
    return " ".join(done.stdout.split()) or "exit status %d" % done.returncode


def mount(directory, pagesize):
    size = checked_page_size(pagesize)
    path = os.path.realpath(directory)
    if not os.path.exists(path):
        raise ToolError("%s does not exist (create it first)" % directory)
    if not os.path.isdir(path):
        raise ToolError("%s is not a directory" % directory)
    require_root("mounting hugetlbfs")
    on_top = mounted_at(path)
    if on_top is not None:
        fstype, opts = on_top
        if fstype != "hugetlbfs":
            raise ToolError("%s is already a mount point (%s): not mounting "
                            "over it" % (directory, fstype))
        if mount_page_size(opts) != size:
            raise ToolError("%s is already a hugetlbfs of %s pages: unmount "
                            "it first" % (directory,
                                          format_size(mount_page_size(opts))))
        print("%s is already a hugetlbfs of %s pages: nothing to do"
              % (directory, format_size(size)))
        return
    if os.listdir(path):
        raise ToolError("%s is not empty: mounting over it would hide its "
                        "files" % directory)
    err = run_tool(["mount", "-t", "hugetlbfs", "-o",
                    "pagesize=" + format_size(size), "nodev", path])
    if err:
        raise ToolError("cannot mount hugetlbfs on %s: %s" % (directory, err))
    print("mounted a hugetlbfs of %s pages on %s" % (format_size(size), path))


def unmount(directory):
    path = os.path.realpath(directory)
    on_top = mounted_at(path)
    if on_top is None:
        raise ToolError("%s is not a mount point" % directory)
    if on_top[0] != "hugetlbfs":
        raise ToolError("%s is a %s mount, not a hugetlbfs: not unmounting it"
                        % (directory, on_top[0]))
    require_root("unmounting hugetlbfs")
    nfiles, nbytes = 0, 0
    for top, _, names in os.walk(path):
        for name in names:
            st = os.lstat(os.path.join(top, name))
            nfiles += 1
            nbytes += st.st_blocks * 512
    err = run_tool(["umount", path])
    if err:
        raise ToolError("cannot unmount %s: %s (a process may still map a "
                        "file in it: see --list)" % (directory, err))
    print("unmounted %s" % path)
    if nfiles:
        print("  its %s went with it, giving back %s of hugepages"
              % (plural(nfiles, "file"), format_size(nbytes)))


# ---- which process holds a file --------------------------------------------

def parse_dev(text):
    """A 'major:minor' in hex, as /proc/locks and maps write it."""
    major, minor = text.split(":")
    return os.makedev(int(major, 16), int(minor, 16))


class Holders:
    """Which processes lock, map or keep open each file, by (dev, inode).

    Read once from /proc/locks (every flock, POSIX and OFD lock of the
    system, with the locker's PID) and from /proc/PID/maps and
    /proc/PID/fd of every process this user may read (all, as root).
    This process itself is left out.
    """

    def __init__(self):
        self.locks = {}  # (dev, ino) -> set of "kind pid"
        self.users = {}  # (dev, ino) -> {pid: set of "mapped"/"open"}
        self.locks_read = self._read_locks()
        self.unreadable = []  # PIDs whose maps or fd could not be read
        self._scan_processes()

    def _read_locks(self):
        try:
            with open("/proc/locks") as f:
                lines = f.readlines()
        except OSError:
            return False
        for line in lines:
            fields = line.split()
            if len(fields) < 6 or fields[1] == "->":
                continue
            try:
                dev, _, ino = fields[5].rpartition(":")
                key = (parse_dev(dev), int(ino))
            except ValueError:
                continue
            pid = int(fields[4])
            if pid == os.getpid():
                continue
            who = "pid %d" % pid if pid > 0 else "a process"
            self.locks.setdefault(key, set()).add(
                "%s %s lock by %s" % (fields[1].lower(), fields[3].lower(),
                                      who))
        return True

    def _add_user(self, key, pid, how):
        self.users.setdefault(key, {}).setdefault(pid, set()).add(how)

    def _scan_maps(self, pid):
        with open("/proc/%d/maps" % pid) as f:
            for line in f:
                fields = line.split()
                if len(fields) >= 6 and fields[4] != "0":
                    key = (parse_dev(fields[3]), int(fields[4]))
                    self._add_user(key, pid, "mapped")

    def _scan_fds(self, pid):
        fd_dir = "/proc/%d/fd" % pid
        for fd in os.listdir(fd_dir):
            try:
                st = os.stat(os.path.join(fd_dir, fd))
            except OSError:
                continue
            self._add_user((st.st_dev, st.st_ino), pid, "open")

    def _scan_processes(self):
        for name in os.listdir("/proc"):
            if not name.isdigit() or int(name) == os.getpid():
                continue
            pid = int(name)
            try:
                self._scan_maps(pid)
                self._scan_fds(pid)
            except FileNotFoundError:
                pass  # the process exited meanwhile
            except (PermissionError, ProcessLookupError):
                self.unreadable.append(pid)

    def of(self, st):
        """The holders of a file (from its stat), as a list of words;
        empty if no process is seen holding it."""
        key = (st.st_dev, st.st_ino)
        found = sorted(self.locks.get(key, ()))
        for pid, hows in sorted(self.users.get(key, {}).items()):
            found.append("%s by pid %d" % (" and ".join(sorted(hows)), pid))
        return found


def try_lock(path):
    """Open path and take an exclusive flock without waiting, as the
    library does before it removes a file.

    @return (fd, None) with the lock taken, (None, "flock held") if a
      process holds a lock, or (None, reason) if the file cannot be
      opened (the reason names the errno)."""
    try:
        # O_NONBLOCK: a FIFO with a page file's name would block the open.
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK |
                     os.O_CLOEXEC)
    except OSError as e:
        return None, e
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None, "flock held (a lock attempt failed)"
    return fd, None


# ---- prefix files ----------------------------------------------------------

class PrefixFile:
    """One file of a prefix: a page file (id set) or the prefix lock."""

    def __init__(self, directory, name, page_id, st, page_size):
        self.directory = directory
        self.name = name
        self.id = page_id  # None for <prefix>.lock
        self.st = st
        self.page_size = page_size

    @property
    def path(self):
        return os.path.join(self.directory, self.name)

    @property
    def nbytes(self):
        """Hugepage memory the file holds (its allocated blocks)."""
        return self.st.st_blocks * 512


def check_prefix(prefix):
    if not prefix or "/" in prefix or prefix in (".", ".."):
        raise ToolError("'%s' is not a file prefix (a file name part, as "
                        "given to --file-prefix)" % prefix)


def search_dirs(huge_dir, action):
    """[(directory, page size)] to search: huge_dir, or every hugetlbfs
    mount (each mount point once)."""
    if huge_dir is not None:
        path = os.path.realpath(huge_dir)
        if not os.path.isdir(path):
            raise ToolError("%s is not a directory" % huge_dir)
        return [(path, hugetlbfs_of(path)[1])]
    out, seen = [], set()
    for directory, size in hugetlbfs_mounts():
        try:
            dev = os.stat(directory).st_dev
        except PermissionError:
            raise need_root(action + " in " + directory) from None
        except OSError:
            continue
        if dev not in seen:
            seen.add(dev)
            out.append((directory, size))
    return out


def prefix_files(prefix, dirs, action):
    """{directory: [PrefixFile]} of the prefix's files under dirs (and
    their sub-directories, where --huge-dir may have pointed)."""
    pattern = re.compile(re.escape(prefix) + r"map_(\d+)")
    found, seen = {}, set()

    def unreadable(err):
        # A directory that vanished meanwhile is skipped.
        if isinstance(err, PermissionError):
            raise need_root(action + " in " + err.filename)

    for root, size in dirs:
        for directory, _, names in os.walk(root, onerror=unreadable):
            for name in sorted(names):
                m = pattern.fullmatch(name)
                if m is None and name != prefix + ".lock":
                    continue
                try:
                    st = os.lstat(os.path.join(directory, name))
                except FileNotFoundError:
                    continue
                if (st.st_dev, st.st_ino) in seen:
                    continue
                seen.add((st.st_dev, st.st_ino))
                page_id = int(m[1]) if m else None
                found.setdefault(directory, []).append(
                    PrefixFile(directory, name, page_id, st, size))
    for files in found.values():
        files.sort(key=lambda f: (f.id is None, f.id or 0))
    return found


def holder_text(words):
    return "held: " + ", ".join(words)


def held_by(f, holders):
    """The holders of f, as words for the user; [] if none is seen."""
    words = holders.of(f.st)
    if not holders.locks_read:
        fd, why = try_lock(f.path)
        if fd is not None:
            os.close(fd)
        elif isinstance(why, str):
            words.insert(0, why)
    return words


def runtime_dir_note(prefix):
    """A note if upstream DPDK keeps a runtime directory for prefix."""
    path = os.path.join("/var/run/dpdk", prefix)
    if os.path.isdir(path):
        print("note: %s is upstream DPDK's runtime directory for this "
              "prefix; %s leaves it alone (rtemem keeps none)" % (path, PROG))


def scan_notes(holders):
    if not holders.locks_read:
        print("note: /proc/locks is unreadable: tried a lock on each file "
              "instead")
    n = len(holders.unreadable)
    if n and os.geteuid() != 0:
        print("note: %d processes of other users were not searched for "
              "mappings and open files (run as root to search them)" % n)
    elif n:
        print("note: processes not searched for mappings and open files "
              "(their /proc entries are unreadable): pid %s"
              % ", ".join(map(str, holders.unreadable[:10])))


def find_files(prefix, huge_dir, action):
    """The files of a prefix by directory, or None after saying so."""
    check_prefix(prefix)
    found = prefix_files(prefix, search_dirs(huge_dir, action), action)
    if not found:
        print("no files of prefix '%s' in %s" % (
            prefix, huge_dir or "any hugetlbfs mount"))
        runtime_dir_note(prefix)
        return None
    return found


def list_files(prefix, huge_dir):
    found = find_files(prefix, huge_dir, "listing files")
    if found is None:
        return
    holders = Holders()
    total, nbytes, nheld = 0, 0, 0
    for directory, files in sorted(found.items()):
        print("%s (%s pages)" % (directory,
                                 format_size(files[0].page_size)))
        for f in files:
            words = held_by(f, holders)
            state = holder_text(words) if words else "not held"
            if f.id is None:
                state = "prefix lock, " + (state if words else
                                           "not held (stale)")
            else:
                total += 1
                nbytes += f.nbytes
                nheld += bool(words)
            print("  %-24s %6s  %s" % (f.name, format_size(f.nbytes), state))
    print("%s, %s of hugepages: %d held by a live process, %d not held"
          % (plural(total, "page file"), format_size(nbytes), nheld,
             total - nheld))
    scan_notes(holders)
    runtime_dir_note(prefix)


def remove_one(f, holders):
    """Remove f unless a process holds it: (removed, reason kept)."""
    if not stat.S_ISREG(f.st.st_mode):
        return False, "not a regular file (mode %o): not a page file, " \
            "left as it is" % f.st.st_mode
    words = holders.of(f.st)
    fd, why = try_lock(f.path)
    if isinstance(why, PermissionError):
        raise need_root("removing files in " + f.directory)
    if isinstance(why, FileNotFoundError):
        return False, None  # gone meanwhile
    if why is not None and not isinstance(why, str):
        return False, "cannot open it: %s" % why.strerror
    if why is not None:
        words.insert(0, why)
    if words:
        if fd is not None:
            os.close(fd)
        return False, holder_text(words)
    try:
        # Unlinked under the lock, as rtemem removes stale files: a
        # process that opened the file just before fails to lock it.
        os.unlink(f.path)
    except PermissionError:
        raise need_root("removing files in " + f.directory) from None
    finally:
        os.close(fd)
    return True, None


def same_file(fd, path):
    """True if path still names the file open as fd."""
    try:
        a, b = os.fstat(fd), os.stat(path)
    except OSError:
        return False
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def take_prefix_lock(directory, prefix):
    """Take <prefix>.lock in directory as an rtemem process does: created
    if missing, locked exclusively without waiting, and checked to still
    be the file of that name (its holder may have removed it meanwhile).

    @return the lock's descriptor, or None if a process holds it."""
    path = os.path.join(directory, prefix + ".lock")
    while True:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW |
                         os.O_NONBLOCK | os.O_CLOEXEC, 0o600)
        except PermissionError:
            raise need_root("removing files in " + directory) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return None
        if same_file(fd, path):
            return fd
        os.close(fd)


def drop_prefix_lock(fd, directory, prefix):
    """Release a lock from take_prefix_lock, removing its file."""
    try:
        os.unlink(os.path.join(directory, prefix + ".lock"))
    finally:
        os.close(fd)


def prefix_in_use(directory, prefix, holders):
    """Say that the prefix lock in directory is held, and by whom."""
    path = os.path.join(directory, prefix + ".lock")
    try:
        words = holders.of(os.lstat(path))
    except OSError:
        words = []
    print("%s: not removing the files of prefix '%s' in %s: it is in use: "
          "%s is held (%s)" % (PROG, prefix, directory, path,
                               ", ".join(words) or "holder not found"),
          file=sys.stderr)


def remove_in(directory, files, prefix, holders):
    """Remove the prefix's unheld files in one directory, holding the
    prefix lock meanwhile, so that no rtemem process starts on the prefix
    while its files go: (files removed, bytes given back, number kept)."""
    pages = [f for f in files if f.id is not None]
    stale_lock = len(pages) < len(files)
    lock = take_prefix_lock(directory, prefix)
    if lock is None:
        prefix_in_use(directory, prefix, holders)
        return 0, 0, len(pages)
    removed, nbytes, kept = 0, 0, 0
    try:
        for f in pages:
            done, why = remove_one(f, holders)
            if done:
                print("removed %s (%s)" % (f.path, format_size(f.nbytes)))
                removed += 1
                nbytes += f.nbytes
            elif why:
                print("%s: not removing %s: %s" % (PROG, f.path, why),
                      file=sys.stderr)
                kept += 1
        if kept == 0:
            # The record of the kept files' layout goes with the last one.
            for layout in ("page", "single"):
                try:
                    os.unlink(os.path.join(directory, "%s.layout-%s"
                                           % (prefix, layout)))
                except FileNotFoundError:
                    pass
    finally:
        drop_prefix_lock(lock, directory, prefix)
    if stale_lock:
        print("removed %s (a prefix lock nobody held)"
              % os.path.join(directory, prefix + ".lock"))
    return removed, nbytes, kept


def remove_files(prefix, huge_dir):
    found = find_files(prefix, huge_dir, "removing files")
    if found is None:
        return
    holders = Holders()
    removed, nbytes, kept = 0, 0, 0
    for directory, files in sorted(found.items()):
        r, b, k = remove_in(directory, files, prefix, holders)
        removed, nbytes, kept = removed + r, nbytes + b, kept + k
    back = ", giving back %s of hugepages" % format_size(nbytes)
    print("removed %s%s; %d kept" % (plural(removed, "file"),
                                     back if nbytes else "", kept))
    scan_notes(holders)
    runtime_dir_note(prefix)
    if kept:
        raise ToolError("%s of prefix '%s' kept: a live process holds %s"
                        % (plural(kept, "file"), prefix,
                           "it" if kept == 1 else "them"))


# ---- command line ----------------------------------------------------------

class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit status 2."""

    def error(self, message):
        raise ToolError(message + " (see --help)", EXIT_USAGE)


DESCRIPTION = """\
Show the hugepage pools and hugetlbfs mounts, reserve hugepages, mount
hugetlbfs, and list or remove the hugepage files of an rtemem (or DPDK)
file prefix. With no option, --show."""

EPILOG = """\
sizes:
  A page size or memory size is a number with a unit: 2M, 512M, 1G,
  2048kB, 1GiB (units K, M, G, T; powers of 1024). A bare number given
  to --reserve is a number of pages.

files:
  Page files are named <prefix>map_<n> (the prefix is --file-prefix,
  'rte' by default); <prefix>.lock next to them is held by the process
  that uses the prefix. --list and --remove search --huge-dir, or every
  hugetlbfs mount, and their sub-directories. A file is held by a live
  process when /proc/locks shows a lock on it or a process maps it or
  keeps it open (/proc/PID/maps, /proc/PID/fd). --remove first takes the
  prefix lock, as an rtemem process does: if a process holds it, the
  prefix is in use and all its files are kept. Then it removes each page
  file that no process holds, under an exclusive flock (a file whose lock
  cannot be taken is kept), and last the lock file. A removed file gives
  its hugepages back to the free pool at once. rtemem keeps no runtime
  directory; upstream DPDK's /var/run/dpdk/<prefix> is never touched.

exit status:
  0 done, 1 invalid value or action not done (fewer pages than asked,
  files kept, mount refused), 2 needs root or wrong command line.

examples:
  show the pools and mounts:         %(prog)s
  1024 pages of the default size:    %(prog)s --reserve 1024
  four 1 GB pages:                   %(prog)s --reserve 4G --pagesize 1G
  512 default pages on node 1:       %(prog)s --reserve 512 --node 1
  a hugetlbfs of 2 MB pages:         %(prog)s --mount /mnt/huge --pagesize 2M
  the files of prefix 'rte':         %(prog)s --list rte
  remove the files left by 'app':    %(prog)s --remove app -d /mnt/huge/app
"""


def parse_args(argv):
    p = Parser(prog=os.path.basename(sys.argv[0]), description=DESCRIPTION,
               epilog=EPILOG, formatter_class=argparse.RawTextHelpFormatter)
    act = p.add_mutually_exclusive_group()
    act.add_argument("-s", "--show", action="store_true",
                     help="show reserved, free and surplus pages per page\n"
                     "size and NUMA node, and the hugetlbfs mounts")
    act.add_argument("-r", "--reserve", metavar="N|SIZE",
                     help="set the reserved pages of one size to N pages,\n"
                     "or to SIZE of memory (2G, 512M): it fails if the\n"
                     "kernel gives fewer (root)")
    act.add_argument("-c", "--clear", action="store_true",
                     help="set the reserved pages to 0, of every size or\n"
                     "of --pagesize (root)")
    act.add_argument("-m", "--mount", metavar="DIR",
                     help="mount a hugetlbfs of --pagesize pages on the\n"
                     "empty directory DIR (root)")
    act.add_argument("-u", "--unmount", metavar="DIR",
                     help="unmount the hugetlbfs on DIR, dropping the files\n"
                     "in it (root)")
    act.add_argument("-l", "--list", metavar="PREFIX",
                     help="list the hugepage files of a file prefix: name,\n"
                     "size, and the live process holding each")
    act.add_argument("--remove", metavar="PREFIX",
                     help="remove the files of a file prefix that no live\n"
                     "process holds (root for root's files)")
    p.add_argument("-p", "--pagesize", metavar="SIZE",
                   help="page size for --reserve, --clear, --mount\n"
                   "(default: the system's default hugepage size)")
    p.add_argument("-n", "--node", metavar="N", type=int,
                   help="NUMA node for --reserve and --clear (default: the\n"
                   "machine-wide count, spread over nodes by the kernel)")
    p.add_argument("-d", "--huge-dir", metavar="DIR",
                   help="directory for --list and --remove (default: every\n"
                   "hugetlbfs mount)")
    args = p.parse_args(argv)
    given = {k for k in ("reserve", "mount", "list", "remove")
             if getattr(args, k) is not None}
    if args.clear:
        given.add("clear")
    if args.pagesize is not None and not given & {"reserve", "clear",
                                                   "mount"}:
        p.error("--pagesize goes with --reserve, --clear or --mount")
    if args.node is not None and not given & {"reserve", "clear"}:
        p.error("--node goes with --reserve or --clear")
    if args.huge_dir is not None and not given & {"list", "remove"}:
        p.error("--huge-dir goes with --list or --remove")
    return args


def run(args):
    if args.reserve is not None:
        reserve(args.reserve, args.pagesize, args.node)
    elif args.clear:
        clear(args.pagesize, args.node)
    elif args.mount is not None:
        mount(args.mount, args.pagesize)
    elif args.unmount is not None:
        unmount(args.unmount)
    elif args.list is not None:
        list_files(args.list, args.huge_dir)
    elif args.remove is not None:
        remove_files(args.remove, args.huge_dir)
    else:
        show()


def main(argv):
    try:
        try:
            run(parse_args(argv))
        finally:
            sys.stdout.flush()
    except ToolError as e:
        print("%s: %s" % (PROG, e), file=sys.stderr)
        return e.status
    except PermissionError as e:
        print("%s: %s: permission denied (run with sudo)"
              % (PROG, e.filename), file=sys.stderr)
        return EXIT_NEED_ROOT
    except BrokenPipeError:
        # The reader of the output went away (| head): stop quietly,
        # and keep Python from complaining when it flushes at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_FAILED
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    # Output piped into head(1) and the like ends quietly, as a C tool's.
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main(sys.argv[1:]))
