#!/usr/bin/env python3
"""stones_wrong.py: the roboflow-stones points read wrong, as a picture to look at.

    VIS_VERBOSE=1 build/bench/bench_vision stones DATA_DIR --fold-models DIR --photo > V.txt
    python3 bench/stones_wrong.py V.txt DATA_DIR OUT.png [--most N] [--skip SOURCE ...]

One tile per wrong point (the bench's "wrong" lines: a photo under a grid that agrees
with its labels, a point read otherwise than labelled): the photo around the point, the
point marked red, "label>read" in yellow (e empty, b black, w white, c the point was
covered), the photo's id and the reader's confidence. Photos are taken fewest wrong
points first (a photo one point off is the nearest to exact), at most --most photos
(default all); --skip leaves photos out (a whole-board failure drowns the rest). Black
beyond the photo's edge is the picture's padding. Needs Python's OpenCV (Debian's
python3-opencv); not part of `make test`. The picture is made from ../shared/data and
never committed.
"""
import argparse
import collections
import glob
import os
import re

import cv2
import numpy as np

TILE = 160
LINE = re.compile(r"\s+wrong (\S+)\s+(\d+)\s+(\d+) px\s+(\S+)\s+(\S+) radius\s+(\S+) "
                  r"label (\w+) read (\w+)( \(covered\))? conf (\S+)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("verbose")
    ap.add_argument("data")
    ap.add_argument("out")
    ap.add_argument("--most", type=int, default=0)
    ap.add_argument("--skip", nargs="*", default=[])
    a = ap.parse_args()
    images = {}
    for p in glob.glob(os.path.join(a.data, "photos", "roboflow-stones", "*", "images", "*.jpg")):
        images[os.path.basename(p).split("_jpg")[0]] = p
    per = collections.OrderedDict()
    for line in open(a.verbose):
        m = LINE.match(line)
        if m and m.group(1) not in a.skip:
            per.setdefault(m.group(1), []).append(m.groups())
    order = sorted(per, key=lambda s: len(per[s]))
    if a.most:
        order = order[:a.most]
    tiles = []
    for src in order:
        im = cv2.imread(images.get(src, ""))
        if im is None:
            print("stones_wrong: %s: no image under %s" % (src, a.data))
            continue
        for (_, _x, _y, px, py, r, lab, got, cov, conf) in per[src]:
            px, py, r = float(px), float(py), float(r)
            half = max(8, int(r * 3))
            pad = cv2.copyMakeBorder(im, half, half, half, half, cv2.BORDER_CONSTANT)
            x0, y0 = int(round(px)), int(round(py))
            t = pad[y0:y0 + 2 * half, x0:x0 + 2 * half]
            if t.size == 0:
                continue   # the point lies beyond the padded photo (far outside it)
            t = cv2.resize(t, (TILE, TILE))
            cv2.circle(t, (TILE // 2, TILE // 2), 4, (0, 0, 255), -1)
            cv2.putText(t, "%s>%s%s" % (lab[0], got[0], "c" if cov else ""), (3, 15),
                        cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 255, 255), 1)
            cv2.putText(t, "%s %s" % (src[:8], conf), (3, TILE - 6),
                        cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 255, 255), 1)
            tiles.append(t)
    if not tiles:
        print("stones_wrong: no wrong point in %s (run the bench with VIS_VERBOSE=1)" % a.verbose)
        return 1
    cols = 8
    blank = np.zeros_like(tiles[0])
    rows = [np.hstack(tiles[i:i + cols] + [blank] * (cols - len(tiles[i:i + cols])))
            for i in range(0, len(tiles), cols)]
    cv2.imwrite(a.out, np.vstack(rows))
    print("stones_wrong: %d points of %d photos in %s" % (len(tiles), len(order), a.out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
