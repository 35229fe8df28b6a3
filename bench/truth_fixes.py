#!/usr/bin/env python3
"""truth_fixes.py: draw the evidence for tests/vision/truth_fixes.h, one picture.

    python3 bench/truth_fixes.py KIFUCAM DATA_DIR OUT.jpg

One tile per fix: the photo around the point, the point ringed in yellow; for
roboflow-stones the set's own boxes drawn (red black, blue white), so that the stone with
no box, or the stone with two, shows. The fixes are read from the header itself (one list, in C), the grid of an
imago or gomrade photo from `KIFUCAM detect --format json` (its corners). Needs Python's
OpenCV (Debian's python3-opencv); not part of `make test`. The picture is made from
../shared/data and never committed (it would copy the sets into the repo).
"""
import glob
import json
import os
import re
import subprocess
import sys

import cv2
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
HEADER = os.path.join(HERE, "..", "tests", "vision", "truth_fixes.h")
TILE = 300


def fixes():
    text = open(HEADER).read()
    vg = re.findall(r'\{\s*"([^"]+)",\s*(\d+),\s*(\d+),\s*GO_(\w+),\s*GO_(\w+),\s*"([^"]*)"', text)
    rf = re.findall(r'\{\s*"([0-9a-f]{32})",\s*([\d.]+),\s*([\d.]+),\s*(\d|RF_FIX_DUPLICATE),'
                    r'\s*"([^"]*)"', text)
    return vg, rf


def crop(img, x, y, half):
    pad = int(half) + 2
    big = cv2.copyMakeBorder(img, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=(60, 60, 60))
    cx, cy = int(round(x)) + pad, int(round(y)) + pad
    t = big[cy - int(half):cy + int(half), cx - int(half):cx + int(half)]
    t = cv2.resize(t, (TILE, TILE), interpolation=cv2.INTER_AREA)
    cv2.circle(t, (TILE // 2, TILE // 2), TILE // 12, (0, 255, 255), 2)
    return t


def caption(t, lines):
    for i, s in enumerate(lines):
        cv2.putText(t, s, (6, 18 + 18 * i), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 3)
        cv2.putText(t, s, (6, 18 + 18 * i), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (255, 255, 255), 1)
    return t


def main():
    kifucam, data, out = sys.argv[1:4]
    vg, rf = fixes()
    tiles = []
    for ident, x, y, was, is_, why in vg:
        path = next(iter(glob.glob(os.path.join(data, "photos", "*", "images", ident + ".*"))), None)
        if not path:
            print("truth_fixes: %s: not in %s" % (ident, data), file=sys.stderr)
            return 1
        got = json.loads(subprocess.run([kifucam, "detect", path, "--format", "json"],
                                        capture_output=True, text=True, check=True).stdout)
        n = got["size"]
        src = np.float32([[0, 0], [n - 1, 0], [n - 1, n - 1], [0, n - 1]])
        H = cv2.getPerspectiveTransform(src, np.float32(got["corners"]))
        p = cv2.perspectiveTransform(np.float32([[[int(x), int(y)]]]), H)[0][0]
        cell = np.linalg.norm(np.float32(got["corners"][1]) - np.float32(got["corners"][0])) / (n - 1)
        img = cv2.imread(path)
        tiles.append(caption(crop(img, p[0], p[1], 2.5 * cell),
                             [ident, "(%s,%s) %s -> %s" % (x, y, was.lower(), is_.lower())]))
    for source, px, py, cls, why in rf:
        path = next(iter(glob.glob(os.path.join(data, "photos", "roboflow-stones", "*", "images",
                                                source + "*"))), None)
        if not path:
            print("truth_fixes: %s: not in %s" % (source, data), file=sys.stderr)
            return 1
        img = cv2.imread(path)
        h, w = img.shape[:2]
        lab = path.replace("/images/", "/labels/").rsplit(".", 1)[0] + ".txt"
        for line in open(lab):
            c, cx, cy, bw, bh = map(float, line.split())
            col = (0, 0, 255) if int(c) == 0 else (255, 0, 0)
            cv2.rectangle(img, (int((cx - bw / 2) * w), int((cy - bh / 2) * h)),
                          (int((cx + bw / 2) * w), int((cy + bh / 2) * h)), col, 1)
        tiles.append(caption(crop(img, float(px), float(py), 75),
                             [source[:8], "second box, dropped" if cls == "RF_FIX_DUPLICATE"
                              else "no box -> %s" % ("black" if cls == "0" else "white")]))
    cols = 3
    while len(tiles) % cols:
        tiles.append(np.full((TILE, TILE, 3), 255, np.uint8))
    rows = [np.hstack(tiles[i:i + cols]) for i in range(0, len(tiles), cols)]
    cv2.imwrite(out, np.vstack(rows), [cv2.IMWRITE_JPEG_QUALITY, 85])
    print("truth_fixes: %d fixes drawn in %s" % (len(vg) + len(rf), out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
