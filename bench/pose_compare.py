#!/usr/bin/env python3
"""pose_compare.py: bench/pose.sh's summary: roboflow-stones as it is against its posed copies.

    python3 bench/pose_compare.py AS_IS.txt POSED.txt train/folds.tsv [WORD]

Both files are `VIS_VERBOSE=1 bench_vision stones ... --raw-truth` outputs. For folds 0-2
(where board finding is developed) and folds 3-4 (held out), it prints the photos read
with both counts exact as they are and posed, and the pose's cost: of the photos read
exact as they are whose board the photo shows whole (`(board whole)`: a quarter of a
spacing beyond every outer line in the picture), how many read exact posed; then each
photo that changed, with its posed line. A photo whose board the picture cuts gets, laid
on a table, an edge no real board has: its posed figure is given but not counted as cost.
WORD (default "posed") names the copies in what is printed ("cut" for bench/cut.py's).
"""
import re
import sys

LINE = re.compile(r"^\s+(\w{32}) (found  |NOBOARD) size\s+(\d+) black\s+(\d+)/\s*(\d+) "
                  r"white\s+(\d+)/\s*(\d+)")


def load(path):
    """Each photo's (exact, board whole, the line, wrong with nothing asked, grid in doubt)."""
    out = {}
    with open(path) as f:
        for ln in f:
            m = LINE.match(ln)
            if m:
                exact = m.group(2) == "found  " and m.group(4) == m.group(5) and m.group(6) == m.group(7)
                out[m.group(1)] = (exact, "(board whole)" in ln, ln.strip(), "UNFLAGGED" in ln,
                                   "(grid in doubt)" in ln)
    return out


def main():
    if len(sys.argv) not in (4, 5):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    a, b = load(sys.argv[1]), load(sys.argv[2])
    word = sys.argv[4] if len(sys.argv) == 5 else "posed"
    folds = {}
    with open(sys.argv[3]) as f:
        for ln in f:
            p = ln.split()
            if len(p) == 3 and p[0] == "roboflow-stones":
                folds[p[1]] = int(p[2])
    if not a or set(a) != set(b):
        print("pose_compare: the two readings do not cover the same photos (%d, %d)" % (len(a), len(b)),
              file=sys.stderr)
        return 1
    for name, grp in (("folds 0-2 (board finding developed)", (0, 1, 2)), ("folds 3-4 (held out)", (3, 4))):
        ids = [k for k in a if folds.get(k) in grp]
        whole = [k for k in ids if a[k][0] and a[k][1]]
        print("  %-36s %2d photos: exact as they are %2d, %s %2d; of the %2d exact with the board "
              "whole, %s exact %2d" % (name, len(ids), sum(a[k][0] for k in ids), word,
                                          sum(b[k][0] for k in ids), len(whole), word,
                                          sum(b[k][0] for k in whole)))
        print("  %-36s wrong with nothing asked: as they are %d, %s %d; grids in doubt, %s: "
              "%d read exact, %d read wrong" % ("", sum(a[k][3] for k in ids), word, sum(b[k][3] for k in ids), word,
                                                sum(b[k][4] and b[k][0] for k in ids),
                                                sum(b[k][4] and not b[k][0] for k in ids)))
    for k in sorted(a, key=lambda k: (folds.get(k, 9), k)):
        if a[k][0] != b[k][0]:
            print("    fold %d %s %s: %s%s" % (folds.get(k, -1), "lost" if a[k][0] else "gained", word,
                                              b[k][2], "" if a[k][1] else "  [the photo cuts its board]"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
