#!/usr/bin/env python3
"""knocked_eval.py: how a reader takes stones knocked halfway to a neighbour.

    knocked_eval.py --k1 K1.bin --k2 K2.bin MODEL.pt [MODEL.pt ...]

K1.bin and K2.bin are the same renders written with `kifucam-traingen render --knocked 1`
and `--knocked 2` (same seed, count and views: train/README.md gives the command): their
labels differ exactly at the two points of each knocked stone (empty in one, covered in
the other), so those points are known without a labeller. For each model: of those
points, how many it reads surely (the C decision's rule, vis_decide: covered under 0.5 and
the best colour's p / (1 - P(covered)) at least 0.9, VIS_SURE_CONF), and what it takes
them for; of every other point of the boards, the share it is unsure of and how many it
reads surely wrong (the cost). One view a board, no symmetries, no board colour model:
a figure to compare readers by, not the product's reading.
"""
import argparse
import collections
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kcts  # noqa: E402
import train_points as tp  # noqa: E402

NAMES = ("empty", "black", "white", "covered", "off")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--k1", required=True)
    ap.add_argument("--k2", required=True)
    ap.add_argument("--arch", default="v2")
    ap.add_argument("models", nargs="+")
    a = ap.parse_args()
    torch.set_num_threads(1)
    k1, k2 = kcts.read(a.k1), kcts.read(a.k2)
    if len(k1) != len(k2) or any(x["size"] != y["size"] for x, y in zip(k1, k2)):
        sys.exit("knocked_eval: %s and %s are not the same renders" % (a.k1, a.k2))
    for path in a.models:
        m = tp.PointNet(a.arch)
        m.load_state_dict(torch.load(path))
        m.eval()
        kn = sure = other = other_unsure = other_wrong = 0
        took = collections.Counter()
        for s1, s2 in zip(k1, k2):
            x = torch.from_numpy(s1["view"].astype(np.float32) / 255).permute(2, 0, 1)[None]
            with torch.no_grad():
                p = torch.softmax(m(x)[0, :, 1:-1, 1:-1], 0).numpy()
            y = s1["labels"]
            knock = y != s2["labels"]
            cov = p[3]
            conf = p[:3].max(0) / np.maximum(1 - cov, 1e-6)
            unsure = (cov >= 0.5) | (conf < 0.9)
            kn += int(knock.sum())
            sure += int((knock & ~unsure).sum())
            took.update(int(c) for c in p.argmax(0)[knock])
            rest = ~knock & (y < 3)
            other += int(rest.sum())
            other_unsure += int((rest & unsure).sum())
            other_wrong += int((rest & ~unsure & (p[:3].argmax(0) != y)).sum())
        print("%s: knocked points %d, read surely %d (%.0f%%), taken for %s; other points %d: "
              "unsure %.2f%%, surely wrong %d" %
              (path, kn, sure, 100.0 * sure / max(kn, 1),
               ", ".join("%s %d" % (NAMES[c], n) for c, n in took.most_common()),
               other, 100.0 * other_unsure / max(other, 1), other_wrong))


if __name__ == "__main__":
    main()
