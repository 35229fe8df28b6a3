#!/usr/bin/env python3
"""finder_vs_reader.py DUMP...: who was right where the stone finder changed the point
reader's call, from bench_vision's VIS_FINDER_DUMP lines (source fold point reader_colour
reader_covered reader_conf final_colour final_conf label size), per fold group (0-2: where
the finder's settings were chosen; 3-4: held out), by the change (reader's call -> the
finder's: . empty, X black, O white, c covered) and by the reader's confidence.

    VIS_FINDER_DUMP=/tmp/f.txt build/bench/bench_vision stones ../shared/data \\
        --fold-models build/train-data/models --folds train/folds.tsv --photo
    python3 bench/finder_vs_reader.py /tmp/f.txt
"""
import collections
import sys

NAMES = ".XO"


def tally(rows, want):
    by_change = collections.Counter()
    by_conf = collections.defaultdict(lambda: [0, 0, 0])
    for src, fold, k, rcol, rocc, rconf, fcol, fconf, lab, size in rows:
        if int(fold) not in want:
            continue
        rcol, rocc, fcol, lab = int(rcol), int(rocc), int(fcol), int(lab)
        who = 0 if (not rocc and rcol == lab) else 1 if fcol == lab else 2
        by_change[("c" if rocc else NAMES[rcol]) + "->" + NAMES[fcol], who] += 1
        band = "covered" if rocc else "%.1f" % (min(int(float(rconf) * 10), 9) / 10)
        by_conf[band][who] += 1
    return by_change, by_conf


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in sys.argv[1:]:
        rows = [line.split() for line in open(path) if line.strip()]
        print("%s: %d points the finder changed" % (path, len(rows)))
        for name, want in (("folds 0-2", {0, 1, 2}), ("folds 3-4", {3, 4})):
            by_change, by_conf = tally(rows, want)
            print("  %s: right  reader / finder / neither" % name)
            for change in sorted({c for c, _ in by_change}):
                print("    %-5s %4d / %4d / %4d" % (change, *(by_change[change, w] for w in range(3))))
            for band in sorted(by_conf):
                print("    reader %-7s %4d / %4d / %4d" % (band, *by_conf[band]))


if __name__ == "__main__":
    main()
