#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rtemem authors

"""Say which loadable segments of ELF files could live on huge pages.

For each file, list its PT_LOAD segments and, for each huge page size
(2 MB and 1 GB unless --page-size says otherwise), whether the segment
can be mapped on pages of that size, and how many huge pages of it
lib/hugetext (--huge-text, librtemem_hugetext.so) moves. A file mapping
on huge pages needs the linker to have laid the segment out for it
(-Wl,-z,max-page-size=2097152); lib/hugetext copies, so it moves every
huge page that lies in one segment (with the padding around it) and one
protection, aligned or not, but only an aligned link loses nothing.

The interpreter is /usr/bin/python3 on purpose: Debian's
python3-pyelftools installs the module for that interpreter only.

Exit status: 0 done (and --require met), 1 --require not met, 2 error
(bad usage, a file missing, not ELF or malformed, pyelftools missing).
"""

import argparse
import json
import os
import signal
import sys

EXIT_REQUIRE = 1
EXIT_ERROR = 2

DEFAULT_SIZES = ("2M", "1G")
UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}

CRITERION = """\
A segment is P-mappable, for a page size P, when
  p_align >= P  and  p_offset = p_vaddr (mod P).
p_align >= P makes the loader place the segment at an address that is
p_vaddr modulo P (it aligns the load base to the largest p_align; for a
fixed-address executable the criterion asks the same of the linker).
p_offset = p_vaddr (mod P) makes each P-aligned page of memory come from
a P-aligned range of the file, as a hugetlbfs or THP mapping of the file
needs.
"whole" counts the P-aligned pages lying entirely inside
[p_vaddr, p_vaddr + p_memsz): what maps on huge pages without touching
memory outside the segment. "span" counts the P-aligned pages the
segment touches at all: what remapping the whole segment would take.
"shared" says that one of those pages is also touched by another PT_LOAD
segment, whose flags the huge page would then have to take. The counts
are not known (null in JSON) for a segment that is not P-mappable.

"moved" counts the P-aligned pages of a segment that lib/hugetext moves:
the pages it touches that hold no other segment, keep one protection
once RELRO is applied, start inside the object, and (for code) end inside
it; a range "N-M" when it depends on where the loader puts a position
independent file (p_align below P)."""

LEGEND = """Table cells, per page size P: "yes W/S" is P-mappable, with W whole
pages and a span of S pages, and a "*" after it if shared; "no (why)" is
not P-mappable, naming the condition that fails (align, offset)."""


class ElfError(Exception):
    """A file that cannot be checked: not a file, not ELF, malformed."""


def parse_size(text):
    """A page size: 2M, 1G, 4096, 64K... A power of two of at least 4 KB."""
    text = text.strip().upper()
    if text.endswith("B"):
        text = text[:-1]
    number, unit = text, ""
    if text[-1:] in ("K", "M", "G"):
        number, unit = text[:-1], text[-1]
    if not number.isdigit():
        raise argparse.ArgumentTypeError(
            "'%s' is not a size such as 2M, 1G or 4096" % text)
    size = int(number) * UNITS[unit]
    if size < 4096 or size & (size - 1):
        raise argparse.ArgumentTypeError(
            "page size %d is not a power of two of at least 4096" % size)
    return size


def size_name(size):
    """2097152 -> 2M, 1073741824 -> 1G, 12288 -> 12288."""
    for unit in ("G", "M", "K"):
        if size % UNITS[unit] == 0:
            return "%d%s" % (size // UNITS[unit], unit)
    return str(size)


def flags_text(p_flags):
    """PF_R, PF_W, PF_X as "R-X"."""
    return "".join(c if p_flags & bit else "-"
                   for c, bit in (("R", 4), ("W", 2), ("X", 1)))


def touched_pages(seg, page):
    """The first and last P-aligned page numbers a segment touches, or
    None if it is empty."""
    if seg["memsz"] == 0:
        return None
    return (seg["vaddr"] // page,
            (seg["vaddr"] + seg["memsz"] - 1) // page)


def overlap(a, b):
    """Whether two (first, last) page ranges, or None, share a page."""
    return a is not None and b is not None and a[0] <= b[1] and b[0] <= a[1]


def page_fit(seg, others, page):
    """The verdict for one segment and one page size P."""
    reasons = []
    if seg["align"] < page:
        reasons.append("p_align 0x%x < 0x%x" % (seg["align"], page))
    if (seg["offset"] - seg["vaddr"]) % page:
        reasons.append("p_offset 0x%x != p_vaddr 0x%x mod 0x%x" %
                       (seg["offset"], seg["vaddr"], page))
    fit = {"page_size": page, "mappable": not reasons, "reasons": reasons,
           "whole_pages": None, "span_pages": None, "shared": None}
    if reasons:
        return fit
    start = seg["vaddr"]
    end = start + seg["memsz"]
    fit["whole_pages"] = max(0, end // page - -(-start // page))
    mine = touched_pages(seg, page)
    fit["span_pages"] = mine[1] - mine[0] + 1 if mine else 0
    fit["shared"] = any(overlap(mine, touched_pages(other, page))
                        for other in others)
    return fit


def pieces(info, base):
    """(start, end, prot) of what the loader maps at load address base,
    4 KB-rounded, with the RELRO part of a segment read-only."""
    out = []
    relro = info.get("relro")
    for seg in info["segments"]:
        start = (seg["vaddr"] + base) & ~4095
        end = (seg["vaddr"] + base + seg["memsz"] + 4095) & ~4095
        cut = [start, end]
        if relro and "W" in seg["flags"]:
            r0 = (relro[0] + base) & ~4095
            r1 = (relro[0] + relro[1] + base) & ~4095
            if start <= r0 < r1 <= end:
                out.append((start, r0, seg["flags"]))
                out.append((r0, r1, "R--"))
                cut = [r1, end]
        out.append((cut[0], cut[1], seg["flags"]))
    return [p for p in out if p[1] > p[0]]


def moved_pages(info, seg, page, base):
    """Pages of seg that lib/hugetext moves when loaded at base."""
    parts = pieces(info, base)
    lo = min(p[0] for p in parts)
    hi = max(p[1] for p in parts)
    top = -(-hi // (2 << 20)) * (2 << 20)
    s0 = seg["vaddr"] + base
    s1 = s0 + seg["memsz"]
    count = 0
    for h in range(s0 // page * page, s1, page):
        inside = [p for p in parts if p[0] < h + page and p[1] > h]
        others = [o for o in info["segments"] if o is not seg and
                  o["vaddr"] + base < h + page and
                  o["vaddr"] + base + o["memsz"] > h]
        prots = {p[2] for p in inside}
        # Above the object, only what completes its last 2 MB page.
        if (others or len(prots) != 1 or h < lo or h + page > top or
                (h + page > hi and "X" in prots.pop())):
            continue
        count += 1
    return count


def hugetext_range(info, seg, page):
    """[min, max] pages of seg moved, over the load addresses possible.

    The count only changes where a boundary of what is mapped crosses a
    multiple of the page size, so the load offsets just before and at
    each such crossing cover every value."""
    if seg["memsz"] == 0:
        return [0, 0]
    align = max(max(s["align"] for s in info["segments"]), 4096)
    bases = {0}
    if info["type"] == "DYN" and align < page:
        edges = {x for p in pieces(info, 0) for x in p[:2]}
        edges |= {s["vaddr"] + d for s in info["segments"]
                  for d in (0, s["memsz"])}
        for x in edges:
            b = (-x) % page // align * align
            bases |= {b, (b + align) % page, (b - align) % page}
    counts = [moved_pages(info, seg, page, b) for b in bases]
    return [min(counts), max(counts)]


def read_segments(path, elffile_class):
    """The file's description and PT_LOAD segments, or ElfError."""
    if not os.path.exists(path):
        raise ElfError("no such file")
    if not os.path.isfile(path):
        raise ElfError("not a regular file")
    try:
        with open(path, "rb") as f:
            if f.read(4) != b"\x7fELF":
                raise ElfError("not an ELF file (no \\x7fELF magic)")
            f.seek(0)
            elf = elffile_class(f)
            info = {"file": path,
                    "class": "ELF%d" % elf.elfclass,
                    "type": elf["e_type"].replace("ET_", ""),
                    "machine": elf["e_machine"].replace("EM_", ""),
                    "segments": []}
            for index, phdr in enumerate(elf.iter_segments()):
                if phdr["p_type"] == "PT_GNU_RELRO":
                    info["relro"] = (phdr["p_vaddr"], phdr["p_memsz"])
                if phdr["p_type"] != "PT_LOAD":
                    continue
                info["segments"].append({
                    "index": index,
                    "flags": flags_text(phdr["p_flags"]),
                    "offset": phdr["p_offset"],
                    "vaddr": phdr["p_vaddr"],
                    "filesz": phdr["p_filesz"],
                    "memsz": phdr["p_memsz"],
                    "align": phdr["p_align"]})
    except OSError as e:
        raise ElfError(e.strerror or str(e)) from e
    except ElfError:
        raise
    except Exception as e:  # pyelftools raises several kinds on bad input
        raise ElfError("malformed ELF: %s" % e) from e
    return info


def judge(info, sizes):
    """Add each segment's verdict per page size to info, in place."""
    segs = info["segments"]
    for seg in segs:
        others = [o for o in segs if o is not seg]
        seg["pages"] = {size_name(p): page_fit(seg, others, p) for p in sizes}
        for p in sizes:
            seg["pages"][size_name(p)]["moved"] = hugetext_range(info, seg, p)


def require_failures(info, page):
    """One line per executable segment of info that is not page-mappable."""
    lines = []
    name = size_name(page)
    for seg in info["segments"]:
        if "X" not in seg["flags"]:
            continue
        fit = seg["pages"][name]
        if not fit["mappable"]:
            lines.append("%s: segment %d (%s) is not %s-mappable: %s" %
                         (info["file"], seg["index"], seg["flags"], name,
                          "; ".join(fit["reasons"])))
    if not any("X" in s["flags"] for s in info["segments"]):
        lines.append("%s: no executable PT_LOAD segment" % info["file"])
    return lines


def cell(fit):
    """The table cell of one verdict: "yes 0/1*", "no (align, offset)"."""
    if not fit["mappable"]:
        why = [r.split()[0].replace("p_", "") for r in fit["reasons"]]
        return "no (%s)" % ", ".join(why)
    return "yes %d/%d%s" % (fit["whole_pages"], fit["span_pages"],
                            "*" if fit["shared"] else "")


def moved_cell(moved):
    """"3" or "2-3" pages."""
    if moved[0] == moved[1]:
        return str(moved[0])
    return "%d-%d" % tuple(moved)


def print_table(info, sizes):
    """The human-readable listing of one file."""
    names = [size_name(p) for p in sizes]
    print("%s: %s %s %s, %d PT_LOAD segments" %
          (info["file"], info["class"], info["type"], info["machine"],
           len(info["segments"])))
    head = ["idx", "flags", "offset", "vaddr", "filesz", "memsz", "p_align"]
    head += [n + " whole/span" for n in names]
    head += [n + " moved" for n in names]
    rows = [head]
    for seg in info["segments"]:
        row = [str(seg["index"]), seg["flags"]]
        row += ["0x%x" % seg[k]
                for k in ("offset", "vaddr", "filesz", "memsz", "align")]
        row += [cell(seg["pages"][n]) for n in names]
        row += [moved_cell(seg["pages"][n]["moved"]) for n in names]
        rows.append(row)
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    for row in rows:
        print("  " + "  ".join(c.ljust(w) for c, w in zip(row, widths))
              .rstrip())


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="check-elf-align.py",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="List the PT_LOAD segments of ELF files and whether "
        "each can be mapped on huge pages of 2 MB and 1 GB.",
        epilog=CRITERION + "\n\n" + LEGEND + """

--require P: exit 1 unless every executable (X) PT_LOAD segment of every
FILE is P-mappable (a file without one fails too), with one line per
offending segment on stderr.
Exit status: 0 done, 1 --require not met, 2 error.
Needs pyelftools (Debian: apt-get install python3-pyelftools).""")
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="ELF executable, shared library or object")
    parser.add_argument("--page-size", action="append", type=parse_size,
                        metavar="2M|1G|SIZE",
                        help="only this page size (repeatable); SIZE in "
                        "bytes, or with a K, M or G suffix")
    parser.add_argument("--json", action="store_true",
                        help="print JSON instead of a table")
    parser.add_argument("--require", type=parse_size, metavar="2M|1G|SIZE",
                        help="exit 1 unless every executable segment is "
                        "mappable on pages of this size")
    return parser.parse_args(argv)


def load_elftools():
    """The ELFFile class, or exit 2 with what to install."""
    try:
        from elftools.elf.elffile import ELFFile
    except ImportError as e:
        print("check-elf-align.py: cannot import pyelftools (%s) in %s: "
              "install python3-pyelftools (Debian: apt-get install "
              "python3-pyelftools), which serves /usr/bin/python3" %
              (e, sys.executable), file=sys.stderr)
        sys.exit(EXIT_ERROR)
    return ELFFile


def main(argv):
    args = parse_args(argv)
    elffile_class = load_elftools()
    sizes = sorted(set(args.page_size or map(parse_size, DEFAULT_SIZES)))
    judged = sorted(set(sizes) | ({args.require} if args.require else set()))

    infos, errors, failures = [], [], []
    for path in args.files:
        try:
            info = read_segments(path, elffile_class)
        except ElfError as e:
            errors.append("check-elf-align.py: %s: %s" % (path, e))
            continue
        judge(info, judged)
        if args.require:
            failures += require_failures(info, args.require)
        infos.append(info)

    if args.json:
        out = {"criterion": CRITERION,
               "page_sizes": [size_name(p) for p in judged],
               "files": infos}
        if args.require:
            out["require"] = {"page_size": size_name(args.require),
                              "ok": not failures, "failures": failures}
        json.dump(out, sys.stdout, indent=1)
        print()
    else:
        for i, info in enumerate(infos):
            if i:
                print()
            print_table(info, sizes)
        if infos:
            print()
            print(CRITERION)
            print(LEGEND)
        if args.require and not failures:
            print("every executable segment is %s-mappable" %
                  size_name(args.require))

    for line in failures + errors:
        print(line, file=sys.stderr)
    if errors:
        return EXIT_ERROR
    return EXIT_REQUIRE if failures else 0


if __name__ == "__main__":
    # Output piped into head(1) and the like ends quietly, as a C tool's.
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main(sys.argv[1:]))
