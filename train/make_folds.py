#!/usr/bin/env python3
"""make_folds.py DATA_DIR > train/folds.tsv: the held-out folds of the real photo sets.

Each source photo of a set goes to one of K folds (5), so that a model trained on the
other folds can be scored on it. The augmented copies of one photo share its source id
(the file name before "_jpg.rf.") and so its fold. Sources are sorted, shuffled with a
fixed seed and dealt round-robin: the same data gives the same folds on any machine.
Sets scored by counts or corners (the two Roboflow sets) are split this way; imago and
gomrade are never trained on (their licences do not allow it) and are not listed.
"""
import os
import random
import sys

K = 5
SEED = 18
SETS = ("roboflow-stones", "roboflow-corners")


def sources(set_dir):
    out = set()
    for split in ("train", "valid", "test"):
        d = os.path.join(set_dir, split, "images")
        if not os.path.isdir(d):
            continue
        for f in os.listdir(d):
            if f.endswith(".jpg"):
                out.add(f[:-4].split("_jpg.rf.")[0])
    return sorted(out)


def main():
    data = sys.argv[1] if len(sys.argv) > 1 else "../shared/data"
    print("# set\tsource\tfold   (train/make_folds.py, K=%d, seed %d)" % (K, SEED))
    for s in SETS:
        src = sources(os.path.join(data, "photos", s))
        if not src:
            sys.exit("make_folds: %s: no photos" % s)
        rng = random.Random(SEED)
        rng.shuffle(src)
        for i, name in enumerate(sorted(src, key=src.index)):
            print("%s\t%s\t%d" % (s, name, i % K))


if __name__ == "__main__":
    main()
