#!/usr/bin/env python3
"""pose.py: the roboflow-stones photos as a phone takes a board: at an angle, in a wider frame.

    python3 bench/pose.py DATA_DIR OUT_DIR [--seed 18] [--light] [--raw-truth]
    build/bench/bench_vision stones OUT_DIR --raw-truth --photo \
        --fold-models build/train-data/models --folds train/folds.tsv

roboflow-stones is cropped to the board and stretched square: every photo fills its frame,
seen from above. A user's photo shows the board smaller, turned, seen at a slant, on a
table. This makes such a photo of each roboflow-stones photo and moves its labels with it,
so the same stones are counted under a pose the set never shows; the difference from the
set read as it is is what the pose costs. The copies' labels carry truth_fixes.h's fixes
(fixed_lines: the set's truth as bench_vision reads the set as it is), moved with the
photo, so the copies are read with --raw-truth (the fixes name the set's own pixels) and
the set as it is without; --raw-truth here writes the set's own labels instead (as before
2026-12-07, a sixth session). Nothing here is chosen on what it makes: the ranges below
are a phone's, fixed before any reading.

Each photo, with its own draw of a generator seeded by --seed and the photo's place in the
sorted list (so one photo's pose does not depend on which others exist):
- a canvas of 1024x768 (4:3, a phone's frame) of a table: one colour of five (dark wood,
  pale wood, grey, green cloth, white), a linear gradient of +-15% across it, noise of
  sigma 3;
- the photo's square laid on it as a quad: its height 55-85% of the canvas's, turned by
  -20..20 degrees, its far edge 70-95% as wide as its near one and the square 80-100% as
  tall as wide (a camera tilted towards the board), its centre anywhere that keeps the
  quad inside the canvas; warped bilinearly (anti-aliased by a blur when shrunk);
- with --light, the whole picture multiplied by a colour cast (each channel 0.75-1.15);
- saved as JPEG quality 90 (OUT/poses.tsv: where each photo's corners went); each label's centre moved by the same homography (sizes by the
  bounding box of its moved corners; bench_vision reads the centres only).

The same file names and folders (photos/roboflow-stones/SPLIT/images, labels), so
bench_vision's folds and fold models apply as they do to the set. Needs Python's OpenCV
(Debian's python3-opencv). The output is made from ../shared/data: keep it out of the
repository.
"""
import argparse
import glob
import math
import os
import sys

import cv2
import numpy as np

CANVAS_W, CANVAS_H = 1024, 768
TABLES = [(40, 60, 90), (150, 190, 215), (128, 128, 128), (60, 110, 50), (235, 235, 235)]  # BGR


def set_photos(data):
    """The roboflow-stones photos under DATA_DIR, sorted (a photo's place in the list seeds
    its draw)."""
    return sorted(glob.glob(os.path.join(data, "photos", "roboflow-stones", "*", "images", "*.jpg")))


def label_path(image):
    """The label file of a photo of the set's layout (SPLIT/images/X.jpg -> SPLIT/labels/X.txt)."""
    return image.replace(os.sep + "images" + os.sep, os.sep + "labels" + os.sep)[:-4] + ".txt"


def fixed_lines(image, lines, w, h, raw=False):
    """The photo's label lines (YOLO) with tests/vision/truth_fixes.h's roboflow-stones fixes
    applied as bench_vision applies them (rf_apply_fixes): a stone the labels miss added as
    a box of the photo's median size, unless a box's centre lies within a third of a box of
    it; a duplicate box dropped. So a copy's truth is the set's as bench_vision reads it
    (without --raw-truth), and the copy is read with --raw-truth (its pixels are not the
    set's). raw: the set's own labels, unchanged."""
    boxes = [ln.split() for ln in lines if len(ln.split()) == 5]
    if raw:
        return [" ".join(b) for b in boxes]
    from truth_fixes import fixes  # bench/truth_fixes.py: the header's lists, parsed
    source = os.path.basename(image).split("_jpg.rf.")[0]
    mine = [f for f in fixes()[1] if f[0] == source]
    if not mine:
        return [" ".join(b) for b in boxes]
    bw = float(np.median([float(b[3]) for b in boxes])) if boxes else 0.05
    bh = float(np.median([float(b[4]) for b in boxes])) if boxes else 0.05
    for src, px, py, cls, _why in mine:
        cx, cy = float(px) / w, float(py) / h
        held = next((k for k, b in enumerate(boxes)
                     if abs(cx - float(b[1])) < bw / 3 and abs(cy - float(b[2])) < bh / 3), -1)
        if cls == "RF_FIX_DUPLICATE":
            if held >= 0:
                del boxes[held]
        elif held < 0:
            boxes.append([cls, "%.6f" % cx, "%.6f" % cy, "%.6f" % bw, "%.6f" % bh])
    return [" ".join(b) for b in boxes]


def table(rng):
    base = np.array(TABLES[rng.integers(len(TABLES))], np.float32)
    ang = rng.uniform(0, 2 * math.pi)
    yy, xx = np.mgrid[0:CANVAS_H, 0:CANVAS_W].astype(np.float32)
    t = ((xx - CANVAS_W / 2) * math.cos(ang) + (yy - CANVAS_H / 2) * math.sin(ang)) / CANVAS_W
    img = base[None, None, :] * (1 + 0.3 * t)[..., None]
    img += rng.normal(0, 3, img.shape).astype(np.float32)
    return img


def quad(rng, side):
    """The four corners (TL, TR, BR, BL of the source square) on the canvas."""
    h = rng.uniform(0.55, 0.85) * CANVAS_H
    far = rng.uniform(0.70, 0.95)
    tall = rng.uniform(0.80, 1.00)
    w = h / tall
    q = np.array([[-far * w / 2, -h / 2], [far * w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    a = math.radians(rng.uniform(-20, 20))
    r = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    q = q @ r.T
    lo, hi = q.min(0), q.max(0)
    span = np.array([CANVAS_W, CANVAS_H]) - (hi - lo)
    if (span < 0).any():  # never with these ranges; kept whole if it were
        q *= 0.95 * min(CANVAS_W / (hi - lo)[0], CANVAS_H / (hi - lo)[1])
        lo, hi = q.min(0), q.max(0)
        span = np.array([CANVAS_W, CANVAS_H]) - (hi - lo)
    off = np.array([rng.uniform(0, span[0]), rng.uniform(0, span[1])]) - lo
    return (q + off).astype(np.float32)


def pose_one(src, rng, light):
    s = src.shape[0]
    dst = quad(rng, s)
    H = cv2.getPerspectiveTransform(np.float32([[0, 0], [s, 0], [s, s], [0, s]]), dst)
    shrink = s / max(np.linalg.norm(dst[1] - dst[0]), np.linalg.norm(dst[2] - dst[3]), 1)
    if shrink > 1.3:  # the warp samples sparser than the photo's pixels: blur first
        sig = 0.5 * math.sqrt(shrink * shrink - 1)
        src = cv2.GaussianBlur(src, (0, 0), sig)
    out = table(rng)
    mask = np.zeros((CANVAS_H, CANVAS_W), np.float32)
    warped = cv2.warpPerspective(src.astype(np.float32), H, (CANVAS_W, CANVAS_H),
                                 flags=cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(np.ones(src.shape[:2], np.float32), H, (CANVAS_W, CANVAS_H),
                               flags=cv2.INTER_LINEAR)[..., None]
    out = warped + (1 - mask) * out
    if light:
        out *= rng.uniform(0.75, 1.15, 3).astype(np.float32)[None, None, :]
    return np.clip(out, 0, 255).astype(np.uint8), H


def move_labels(lines, H, s):
    out = []
    for ln in lines:
        f = ln.split()
        if len(f) != 5:
            continue
        c, cx, cy, w, h = f[0], *map(float, f[1:])
        pts = np.float32([[[cx * s, cy * s]], [[(cx - w / 2) * s, (cy - h / 2) * s]],
                          [[(cx + w / 2) * s, (cy - h / 2) * s]], [[(cx + w / 2) * s, (cy + h / 2) * s]],
                          [[(cx - w / 2) * s, (cy + h / 2) * s]]])
        p = cv2.perspectiveTransform(pts, H)[:, 0, :]
        bw = (p[1:, 0].max() - p[1:, 0].min()) / CANVAS_W
        bh = (p[1:, 1].max() - p[1:, 1].min()) / CANVAS_H
        out.append("%s %.6f %.6f %.6f %.6f" % (c, p[0, 0] / CANVAS_W, p[0, 1] / CANVAS_H, bw, bh))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("data")
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--light", action="store_true")
    ap.add_argument("--raw-truth", action="store_true",
                    help="the set's own labels, without truth_fixes.h's fixes")
    a = ap.parse_args()
    srcs = set_photos(a.data)
    if not srcs:
        print("pose.py: no roboflow-stones photos under %s" % a.data, file=sys.stderr)
        return 2
    os.makedirs(a.out, exist_ok=True)
    poses = open(os.path.join(a.out, "poses.tsv"), "w")
    poses.write("# photo\tthe photo's corners (0,0) (s,0) (s,s) (0,s) on the canvas: x y x y x y x y\n")
    for i, path in enumerate(srcs):
        rng = np.random.default_rng([a.seed, i])
        img = cv2.imread(path, cv2.IMREAD_COLOR)
        if img is None or img.shape[0] != img.shape[1]:
            print("pose.py: %s: not a square photo" % path, file=sys.stderr)
            return 1
        posed, H = pose_one(img, rng, a.light)
        s = img.shape[0]
        q = cv2.perspectiveTransform(np.float32([[[0, 0], [s, 0], [s, s], [0, s]]]), H)[0]
        poses.write(os.path.basename(path) + "\t" + " ".join("%.2f" % v for v in q.ravel()) + "\n")
        rel = os.path.relpath(path, a.data)
        dst = os.path.join(a.out, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        cv2.imwrite(dst, posed, [cv2.IMWRITE_JPEG_QUALITY, 90])
        lab, dlab = label_path(path), label_path(dst)
        os.makedirs(os.path.dirname(dlab), exist_ok=True)
        with open(lab) as f, open(dlab, "w") as g:
            lines = fixed_lines(path, f.read().splitlines(), s, s, a.raw_truth)
            g.write("\n".join(move_labels(lines, H, s)) + "\n")
        if (i + 1) % 20 == 0 or i + 1 == len(srcs):
            print("pose.py: %d of %d photos posed" % (i + 1, len(srcs)), file=sys.stderr)
    poses.close()
    with open(os.path.join(a.out, "truth"), "w") as t:  # which labels (bench/pose.sh asks)
        t.write("raw\n" if a.raw_truth else "fixed\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
