#!/usr/bin/env python3
"""cut.py: the roboflow-stones photos cut by the picture's edge through a stone.

    python3 bench/cut.py DATA_DIR OUT_DIR [--seed 18] [--raw-truth]
    build/bench/bench_vision stones OUT_DIR --raw-truth --photo \
        --fold-models build/train-data/models --folds train/folds.tsv

A user's photo of a board often cuts it: the phone held too close, a board photographed
half. Most roboflow-stones photos show their board whole; this makes of each a copy whose
edge runs through one of its outer stones, so the set asks what the reader does with a
stone the picture shows only part of. Nothing here is chosen on what it makes: the ranges
below were fixed before any reading.

Each photo, with its own draw of a generator seeded by --seed and the photo's place in the
sorted list:
- a side (left, right, top, bottom), and one of the eight labelled stones lying furthest
  towards it;
- the cut through that stone, showing 25-75% of its width (its box's); the part beyond
  the cut is dropped (the copy is smaller, as a photo cut closer is);
- every other stone the cut crosses must show at least 30% of its width, or none of it;
  else the draw is made again (at most 200 times; a photo with no such cut is left out
  and listed);
- labels clipped to the copy as the set's own are (a box the edge crosses is cut at it;
  its centre the middle of what is left), boxes wholly beyond it dropped; the labels are
  the set's with truth_fixes.h's fixes (as pose.py's; the cut itself is drawn on the set's
  own boxes, so the copies are the same either way), --raw-truth the set's own;
- saved as JPEG quality 95; OUT/cuts.tsv lists each photo's side and cut.

The same file names and folders (photos/roboflow-stones/SPLIT/images, labels), so
bench_vision's folds and fold models apply as they do to the set. Needs Python's OpenCV
(Debian's python3-opencv). The output is made from ../shared/data: keep it out of the
repository.
"""
import argparse
import os
import sys

import cv2
import numpy as np

from pose import fixed_lines, label_path, set_photos  # bench/pose.py: the set's photos, labels

CANDIDATES = 8       # the stones lying furthest towards the side, one of them cut
SHOWN = (0.25, 0.75)  # the share of the chosen stone's width the copy shows
OTHERS_MIN = 0.30    # every other stone the cut crosses shows at least this much, or none
TRIES = 200


def read_boxes(lines, w, h):
    """(class, x0, y0, x1, y1) in pixels, of YOLO label lines."""
    out = []
    for ln in lines:
        f = ln.split()
        if len(f) != 5:
            continue
        c, cx, cy, bw, bh = int(f[0]), *map(float, f[1:])
        out.append((c, (cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w, (cy + bh / 2) * h))
    return out


def turned(b, side, w, h):
    """Box b's extent along the cut's axis as (near, far): far is towards the side."""
    _, x0, y0, x1, y1 = b
    if side == 0:  # left: far is the smaller x
        return w - x1, w - x0
    if side == 1:  # right
        return x0, x1
    if side == 2:  # top
        return h - y1, h - y0
    return y0, y1  # bottom


def find_cut(boxes, w, h, rng):
    """(side, e) with e the cut along the turned axis (pixels from the far side's
    opposite edge: what is kept is [0, e)), or None."""
    for _ in range(TRIES):
        side = int(rng.integers(4))
        ext = sorted((turned(b, side, w, h) for b in boxes if b[0] in (0, 1)), key=lambda t: -t[1])
        if not ext:
            return None
        near, far = ext[int(rng.integers(min(CANDIDATES, len(ext))))]
        e = round(near + rng.uniform(*SHOWN) * (far - near))
        if e < 0.5 * (w if side < 2 else h):
            continue  # a cut keeping under half the photo is not a cut board
        ok = True
        for n, f in ext:
            if n < e < f and (e - n) / (f - n) < OTHERS_MIN:
                ok = False
                break
        if ok:
            return side, int(e)
    return None


def cut_one(img, boxes, side, e):
    """The copy and its labels (YOLO lines)."""
    h, w = img.shape[:2]
    if side == 0:
        out, x0, y0 = img[:, w - e:], w - e, 0
    elif side == 1:
        out, x0, y0 = img[:, :e], 0, 0
    elif side == 2:
        out, x0, y0 = img[h - e:, :], 0, h - e
    else:
        out, x0, y0 = img[:e, :], 0, 0
    oh, ow = out.shape[:2]
    lines = []
    for c, bx0, by0, bx1, by1 in boxes:
        bx0, bx1 = max(bx0 - x0, 0), min(bx1 - x0, ow)
        by0, by1 = max(by0 - y0, 0), min(by1 - y0, oh)
        if bx1 <= bx0 or by1 <= by0:
            continue
        lines.append("%d %.6f %.6f %.6f %.6f" % (c, (bx0 + bx1) / 2 / ow, (by0 + by1) / 2 / oh,
                                                 (bx1 - bx0) / ow, (by1 - by0) / oh))
    return out, lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("data")
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--raw-truth", action="store_true",
                    help="the set's own labels, without truth_fixes.h's fixes")
    a = ap.parse_args()
    srcs = set_photos(a.data)
    if not srcs:
        print("cut.py: no roboflow-stones photos under %s" % a.data, file=sys.stderr)
        return 2
    os.makedirs(a.out, exist_ok=True)
    cuts = open(os.path.join(a.out, "cuts.tsv"), "w")
    cuts.write("# photo\tside (left right top bottom)\tpixels kept across it\n")
    left = []
    for i, path in enumerate(srcs):
        rng = np.random.default_rng([a.seed, i])
        img = cv2.imread(path, cv2.IMREAD_COLOR)
        if img is None:
            print("cut.py: %s: cannot read" % path, file=sys.stderr)
            return 1
        h, w = img.shape[:2]
        with open(label_path(path)) as f:
            own = f.read().splitlines()
        # the cut is chosen on the set's own boxes (the same copies whatever the fixes),
        # the labels written are the fixed ones (pose.py's fixed_lines), clipped
        got = find_cut(read_boxes(own, w, h), w, h, rng)
        if got is None:
            left.append(os.path.basename(path))
            continue
        side, e = got
        out, lines = cut_one(img, read_boxes(fixed_lines(path, own, w, h, a.raw_truth), w, h), side, e)
        cuts.write("%s\t%s\t%d\n" % (os.path.basename(path), ("left", "right", "top", "bottom")[side], e))
        rel = os.path.relpath(path, a.data)
        dst = os.path.join(a.out, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        cv2.imwrite(dst, out, [cv2.IMWRITE_JPEG_QUALITY, 95])
        dlab = label_path(dst)
        os.makedirs(os.path.dirname(dlab), exist_ok=True)
        with open(dlab, "w") as g:
            g.write("\n".join(lines) + "\n")
    cuts.close()
    with open(os.path.join(a.out, "truth"), "w") as t:  # which labels (bench/pose.sh asks)
        t.write("raw\n" if a.raw_truth else "fixed\n")
    print("cut.py: %d of %d photos cut%s" % (len(srcs) - len(left), len(srcs),
                                              "; no cut found for " + " ".join(left) if left else ""),
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
