#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rtemem authors

"""Draw the start-up times of rtemem-malloc-perf against memory size.

Reads the JSON that rtemem-malloc-perf --json writes and draws two panels,
one line per mode with the min-max range as error bars: the time from exec
to rte_eal_init returning, and the whole process (exec to exit), where
dpdk-test's runs are drawn dashed in the colour of the same mode. With
--project, a third panel draws each mode's fitted exit time out to 1 TiB
(solid), beside the floor's (dotted) and dpdk-test's (dashed), with the
measured medians as points.

For a --threads run it draws instead aggregate throughput against the
number of threads: a panel per shape (rows) and block size (columns), a
line per allocator, the list (no allocator, the floor) dashed.

Usage: rtemem-malloc-perf-plot.py RESULTS.json OUT.png|OUT.svg

Exit status: 0 drawn, 1 bad input, 2 usage, 3 matplotlib missing.
"""

import json
import sys

EXIT_INPUT = 1
EXIT_USAGE = 2
EXIT_NO_MATPLOTLIB = 3


def series(cases, metric):
    """(sizes, medians, lows, highs) of one metric over cases, by size."""
    points = sorted((c["size_mb"], c[metric]) for c in cases if c.get(metric))
    sizes = [p[0] for p in points]
    medians = [p[1]["median"] for p in points]
    lows = [p[1]["median"] - p[1]["min"] for p in points]
    highs = [p[1]["max"] - p[1]["median"] for p in points]
    return sizes, medians, lows, highs


def by_mode(results):
    """The start-up cases grouped by mode, modes in the order run."""
    modes = {}
    for case in results.get("startup", []):
        modes.setdefault(case["mode"], []).append(case)
    return modes


def draw(axis, modes, metric, dpdk, title):
    """One panel: a line per mode, and DPDK's dashed if asked."""
    from matplotlib.ticker import NullLocator, ScalarFormatter
    colours = {}
    for i, (mode, cases) in enumerate(modes.items()):
        sizes, med, low, high = series(cases, metric)
        if not sizes:
            continue
        line = axis.errorbar(sizes, med, yerr=[low, high], marker="o",
                             capsize=3, label=mode)
        colours[mode] = line[0].get_color()
        if dpdk:
            sizes, med, low, high = series(cases, "dpdk_exit_ms")
            if sizes:
                axis.errorbar(sizes, med, yerr=[low, high], marker="x",
                              capsize=3, linestyle="--",
                              color=colours[mode], label=mode + " (DPDK)")
    axis.set_title(title)
    axis.set_xlabel("memory (-m), MB")
    axis.set_ylabel("ms from exec")
    axis.set_xscale("log", base=2)
    axis.set_yscale("log")
    sizes = sorted({c["size_mb"] for cases in modes.values() for c in cases})
    axis.set_xticks(sizes)
    axis.set_xticklabels([str(s) for s in sizes])
    axis.xaxis.set_minor_locator(NullLocator())
    axis.yaxis.set_major_formatter(ScalarFormatter())
    axis.grid(True, which="both", alpha=0.3)


# Where the projection panel ends, GiB.
PROJECT_TO_GIB = 1024
PROJECT_STYLES = {"rtemem": "-", "floor": ":", "dpdk": "--"}


def draw_projection(axis, modes, lines):
    """The fitted exit times of each mode, out to PROJECT_TO_GIB."""
    from matplotlib.ticker import NullLocator, ScalarFormatter
    colours = {}
    for mode, cases in modes.items():
        sizes, med, _, _ = series(cases, "exit_ms")
        if sizes:
            points = axis.plot([s / 1024 for s in sizes], med, "o")
            colours[mode] = points[0].get_color()
    for line in lines:
        if line["metric"] != "exit_ms" or line["mode"] not in colours:
            continue
        if line["per_gib_ms"] is None or line["per_gib_ms"] <= 0:
            continue
        cases = modes[line["mode"]]
        start = min(c["size_mb"] for c in cases) / 1024
        # Fixed + linear is a curve on log axes: sample it.
        xs = [start * (PROJECT_TO_GIB / start) ** (i / 40) for i in range(41)]
        ys = [line["fixed_ms"] + line["per_gib_ms"] * x for x in xs]
        err = 100 * (line["max_rel_err"] or 0)
        axis.plot(xs, ys, PROJECT_STYLES.get(line["who"], "-"),
                  color=colours[line["mode"]],
                  label=f"{line['mode']} ({line['who']}): "
                        f"{line['per_gib_ms']:.2f} ms/GiB, "
                        f"err {err:.0f}%")
    axis.set_title(f"exit, fitted to {PROJECT_TO_GIB} GiB "
                   "(solid: rtemem, dotted: floor, dashed: DPDK)",
                   fontsize="small")
    axis.set_xlabel("memory, GiB")
    axis.set_ylabel("ms from exec")
    axis.set_xscale("log", base=2)
    axis.set_yscale("log")
    axis.xaxis.set_minor_locator(NullLocator())
    axis.xaxis.set_major_formatter(ScalarFormatter())
    axis.yaxis.set_major_formatter(ScalarFormatter())
    axis.grid(True, which="both", alpha=0.3)
    axis.legend(fontsize="x-small")


def draw_threads(plt, results, out):
    """The --threads figure. Returns an exit status."""
    rows = results["threads"]
    shapes = list(dict.fromkeys(r["shape"] for r in rows))
    sizes = sorted({r["size"] for r in rows})
    allocs = list(dict.fromkeys(r["alloc"] for r in rows))
    fig, axes = plt.subplots(len(shapes), len(sizes), squeeze=False,
                             figsize=(2.6 * len(sizes), 2.6 * len(shapes)))
    for i, shape in enumerate(shapes):
        for j, size in enumerate(sizes):
            axis = axes[i][j]
            for alloc in allocs:
                points = sorted((r["threads"], r["mops"]) for r in rows
                                if r["alloc"] == alloc and
                                r["shape"] == shape and r["size"] == size)
                if points:
                    # The list is no allocator but the floor: dashed.
                    axis.plot([p[0] for p in points],
                              [max(p[1], 1e-3) for p in points],
                              marker="o", label=alloc,
                              linestyle="--" if alloc == "list" else "-")
            axis.set_yscale("log")
            axis.set_title(f"{shape}, {size} B", fontsize="small")
            axis.set_xticks(sorted({r["threads"] for r in rows}))
            axis.grid(True, which="both", alpha=0.3)
            if j == 0:
                axis.set_ylabel("Mops/s, all threads")
            if i == len(shapes) - 1:
                axis.set_xlabel("threads")
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(allocs),
               fontsize="small")
    machine = results.get("machine", {})
    fig.suptitle(f"{results.get('tool', 'rtemem-malloc-perf')} --threads "
                 f"({results.get('version', '')}), "
                 f"{machine.get('kernel', '')}: alloc+free per second")
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    try:
        fig.savefig(out)
    except (OSError, ValueError) as err:
        print(f"{sys.argv[0]}: {out}: {err}", file=sys.stderr)
        return EXIT_INPUT
    return 0


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
    except (OSError, ValueError) as err:
        print(f"{argv[0]}: {argv[1]}: {err}", file=sys.stderr)
        return EXIT_INPUT
    if results.get("threads"):
        return draw_threads(plt, results, argv[2])
    modes = by_mode(results)
    if not modes:
        print(f"{argv[0]}: {argv[1]}: no start-up case to draw",
              file=sys.stderr)
        return EXIT_INPUT

    lines = results.get("projection") or []
    if lines:
        fig, (left, right, proj) = plt.subplots(1, 3, figsize=(21, 7))
        draw_projection(proj, modes, lines)
    else:
        fig, (left, right) = plt.subplots(1, 2, figsize=(14, 7))
    draw(left, modes, "init_ms", False, "rtemem: exec to rte_eal_init returned")
    compared = any(c.get("dpdk_exit_ms") for cs in modes.values() for c in cs)
    draw(right, modes, "exit_ms", compared,
         "whole process: exec to exit" + (" (dashed: DPDK)" if compared else ""))
    machine = results.get("machine", {})
    fig.suptitle(f"{results.get('tool', 'rtemem-malloc-perf')} "
                 f"({results.get('version', '')}), {machine.get('kernel', '')}, "
                 f"{machine.get('hugepage_kb', '?')} kB pages, "
                 f"median of {results.get('config', {}).get('reps', '?')} runs, "
                 "bars: min to max")
    # One legend for both panels, below them: the right one has every line.
    handles, labels = right.get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=4, fontsize="small")
    rows = (len(labels) + 3) // 4
    fig.tight_layout(rect=(0, 0.04 * rows + 0.02, 1, 1))
    try:
        fig.savefig(argv[2])
    except (OSError, ValueError) as err:
        print(f"{argv[0]}: {argv[2]}: {err}", file=sys.stderr)
        return EXIT_INPUT
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
