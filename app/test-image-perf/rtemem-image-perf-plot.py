#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rtemem authors

"""Draw the rows of rtemem-image-perf next to the machine's limits.

Reads the JSON that rtemem-image-perf --json writes and draws one panel
per cache state (warm, and cold when the run had --cold): a pair of bars
per case of the seed and strategy of rtemem, the time until the first
byte can be used and until every byte is in memory, on a log scale. Vertical lines mark the limits measured in the same
run: the faster memcpy of the image, and that plus the kernel's clearing
of new hugepages (the floor for private, writable hugepage memory). A
case that failed or gave wrong bytes is drawn hatched, with its note.

Usage: rtemem-image-perf-plot.py RESULTS.json OUT.png|OUT.svg

Exit status: 0 drawn, 1 bad input, 2 usage, 3 matplotlib missing.
"""

import json
import sys

EXIT_INPUT = 1
EXIT_USAGE = 2
EXIT_NO_MATPLOTLIB = 3


def limits(rows):
    """(copy_ms, floor_ms) from the limit rows, or None where missing."""
    copies = [r["all_ms"] for r in rows
              if r["group"] == "limit" and r["case"].startswith("memcpy")]
    clears = [r["all_ms"] for r in rows
              if r["group"] == "limit" and r["case"].startswith("kernel")]
    copy = min(copies) if copies else None
    floor = copy + clears[0] if copy is not None and clears else None
    return copy, floor


def panel(axis, rows, cold, copy, floor):
    """One cache state: first and all, a pair of bars per case."""
    cases = [r for r in rows if r["cold"] == cold and r["group"] != "limit"
             and not r["case"].startswith("save")]
    names = [f"{r['group']}: {r['case']}" for r in cases]
    ys = range(len(cases))
    for offset, key, label in ((-0.2, "first_ms", "first byte"),
                               (0.2, "all_ms", "every byte")):
        values = [max(r[key], 1e-3) for r in cases]
        bars = axis.barh([y + offset for y in ys], values, height=0.38,
                         label=label)
        for bar, row in zip(bars, cases):
            if not row["ok"]:
                bar.set_hatch("//")
                bar.set_alpha(0.4)
    for x, label, style in ((copy, "memcpy", ":"),
                            (floor, "memcpy + clearing", "--")):
        if x is not None:
            axis.axvline(x, color="black", linestyle=style, linewidth=1,
                         label=f"{label} ({x:.1f} ms)")
    axis.set_yticks(list(ys))
    axis.set_yticklabels(names, fontsize="small")
    axis.invert_yaxis()
    axis.set_xscale("log")
    axis.set_xlabel("ms (log)")
    axis.set_title("cold page cache" if cold else "warm page cache")


def main(argv):
    """Read argv[1], draw into argv[2]."""
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return EXIT_USAGE
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as err:
        print(f"{argv[0]}: matplotlib is missing ({err}); "
              "on Debian: apt-get install python3-matplotlib",
              file=sys.stderr)
        return EXIT_NO_MATPLOTLIB
    try:
        with open(argv[1], encoding="utf-8") as f:
            results = json.load(f)
        rows = results["rows"]
        size_mb = results["bytes"] >> 20
    except (OSError, ValueError, KeyError, TypeError) as err:
        print(f"{argv[0]}: {argv[1]}: {err}", file=sys.stderr)
        return EXIT_INPUT
    states = [False] + ([True] if any(r["cold"] and r["group"] != "limit"
                                      for r in rows) else [])
    copy, floor = limits(rows)
    height = 0.35 * sum(1 for r in rows if not r["cold"]) + 2
    fig, axes = plt.subplots(1, len(states), figsize=(8 * len(states), height),
                             squeeze=False)
    for axis, cold in zip(axes[0], states):
        panel(axis, rows, cold, copy, floor)
    fig.suptitle(f"rtemem-image-perf: a {size_mb} MB image, "
                 f"{results.get('threads', '?')} threads; "
                 "hatched: failed or wrong bytes")
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=4, fontsize="small")
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    try:
        fig.savefig(argv[2])
    except (OSError, ValueError) as err:
        print(f"{argv[0]}: {argv[2]}: {err}", file=sys.stderr)
        return EXIT_INPUT
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
