#!/usr/bin/env python3
"""test_traingen.py TRAINGEN [far]: the training data's options (train/traingen.c).
render --knocked 2 labels a knocked stone's two points covered (knocked_labels); --knocked
3 labels every stone on its own point, pushed or not (pushed_labels); with "far" alone,
render --far-shift 4 moves some wrong grids 2 to 4 whole lines, the points beyond the board
off (far_shift); photos
--stone-size 1 refuses a grid that does not explain the stones' size (stone_size: on the
real photos when ../shared/data is there, else said and skipped); pseudo labels
roboflow-corners' points with a reader's sure readings (pseudo_labels, the same); and render
--ring-hands 1 labels the ring
of blocks around the board (train/traingen.c's format): the same views and point labels
as without it, 4*size+4 ring labels each 3 (covered) or 4 (off), covered under a hand or an
arm lying on the border (a block of the view that shows no black of outside the picture),
and never covered on a view that has no hand and is all in the picture. The files are
read by train/kcts.py (raw: no numpy), so it runs where make test runs."""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "train"))
import kcts  # noqa: E402  (the format's one reader)


def read(path):
    return kcts.read(path, raw=True)


def block_black(s, i, j):
    """Share of the pixels of view block (i, j) that are black (outside the picture)."""
    P, side, v = s["cell"], s["side"], s["view"]
    n = 0
    for y in range(j * P, (j + 1) * P):
        row = y * side * 3
        for x in range(i * P, (i + 1) * P):
            p = row + 3 * x
            n += v[p] == 0 and v[p + 1] == 0 and v[p + 2] == 0
    return n / (P * P)


def knocked_labels(gen, d):
    """--knocked 2: the renders of --knocked 1 (same seed), the two points of each stone
    knocked halfway to a neighbour labelled covered (3) where --knocked 1 has them empty
    (0), every other label and every view the same; --knocked 4 refused."""
    k1, k2 = os.path.join(d, "k1.bin"), os.path.join(d, "k2.bin")
    for path, k in ((k1, "1"), (k2, "2")):
        subprocess.run([gen, "render", "--out", path, "--count", "12", "--seed", "5",
                        "--views", "1", "--knocked", k], check=True, stderr=subprocess.DEVNULL)
    bad = subprocess.run([gen, "render", "--out", os.path.join(d, "k4.bin"), "--knocked", "4"],
                         stderr=subprocess.PIPE, text=True)
    assert bad.returncode == 2 and "--knocked is 0 to 3" in bad.stderr, bad.stderr
    s1, s2 = read(k1), read(k2)
    assert len(s1) == len(s2) and len(s1) >= 10, (len(s1), len(s2))
    pairs = 0
    for x, y in zip(s1, s2):
        assert x["view"] == y["view"]
        S = x["size"]
        diff = [p for p in range(S * S) if x["labels"][p] != y["labels"][p]]
        for p in diff:
            assert x["labels"][p] == 0 and y["labels"][p] == 3, (p, x["labels"][p], y["labels"][p])
            # the stone's point and the neighbour it leans into (a hand or the picture's
            # edge may already cover one of them in both)
            pairs += any(q > p and abs(q % S - p % S) <= 1 and abs(q // S - p // S) <= 1
                         for q in diff)
    print("%d samples, %d knocked stones labelled covered on both points" % (len(s1), pairs))
    assert pairs >= 5, pairs


def pushed_labels(gen, d):
    """--knocked 3 (the p3 trial; after knocked_labels, whose --knocked 1 renders it reads
    again): the first view's stones are --knocked 1's (same seed:
    the colours are drawn before the modes part), each labelled on its own point, pushed
    or not: a stone --knocked 1 labels keeps its colour (a hand's covered aside), and some
    that --knocked 1 leaves unknown (255, 0.4-0.47 off) or on neither point (0, knocked
    halfway) are labelled with their colour."""
    k1, k3 = os.path.join(d, "k1.bin"), os.path.join(d, "p3.bin")  # k1: knocked_labels's
    subprocess.run([gen, "render", "--out", k3, "--count", "12", "--seed", "5",
                    "--views", "1", "--knocked", "3"], check=True, stderr=subprocess.DEVNULL)
    x, y = read(k1)[0], read(k3)[0]
    assert x["size"] == y["size"]
    S, kept, counted = x["size"], 0, 0
    for p in range(S * S):
        a, b = x["labels"][p], y["labels"][p]
        if a in (1, 2):
            assert b == a or b == 3, (p, a, b)
            kept += b == a
        elif a in (0, 255) and b in (1, 2):
            counted += 1
    print("--knocked 3: %d stones labelled as --knocked 1 has them, %d more on their point" %
          (kept, counted))
    assert kept >= 20 and counted >= 1, (kept, counted)


def whole_shift(t, w):
    """The whole-line move (dx, dy) under which wrong-grid sample w's labels are true
    sample t's: each point's label the true label of the point dx, dy lines on (covered
    where the picture ends), off beyond the board; None when no move of up to 6 lines
    explains them (a shift by a fraction, another spacing, a turn, anywhere)."""
    S = t["size"]
    if w["size"] != S:
        return None
    for dy in range(-6, 7):
        for dx in range(-6, 7):
            if dx == 0 and dy == 0:
                continue
            ok, on = True, 0
            for y in range(S):
                for x in range(S):
                    u, v, lab = x + dx, y + dy, w["labels"][y * S + x]
                    if 0 <= u < S and 0 <= v < S:
                        ok = lab == t["labels"][v * S + u] or lab == 3
                        on += lab == t["labels"][v * S + u] and lab != 255
                    else:
                        ok = lab in (3, 4)
                    if not ok:
                        break
                if not ok:
                    break
            if ok and on >= S:
                return dx, dy
    return None


def far_shift(gen, d):
    """render --far-shift 4: some wrong grids are the true one moved 2 to 4 whole lines
    (whole_shift), their points beyond the board off; --far-shift 1 (the default, the
    shipped weights' data) moves none by whole lines; --far-shift 7 refused."""
    bad = subprocess.run([gen, "render", "--out", os.path.join(d, "f7.bin"), "--far-shift", "7"],
                         stderr=subprocess.PIPE, text=True)
    assert bad.returncode == 2 and "--far-shift 1 to 6" in bad.stderr, bad.stderr
    found = {}
    for far in ("1", "4"):
        path = os.path.join(d, "f%s.bin" % far)
        subprocess.run([gen, "render", "--out", path, "--count", "20", "--seed", "9",
                        "--views", "1", "--misalign", "1", "--far-shift", far], check=True,
                       stderr=subprocess.DEVNULL)
        ss = read(path)
        moves = [whole_shift(ss[i], ss[i + 1]) for i in range(0, len(ss) - 1)
                 if ss[i]["src"] == ss[i + 1]["src"]]
        found[far] = [m for m in moves if m]
        print("--far-shift %s: %d wrong grids, whole-line moves %s" % (far, len(moves), found[far]))
        assert len(moves) >= 15, len(moves)
    assert not found["1"], found["1"]
    assert sum(max(abs(dx), abs(dy)) >= 2 for dx, dy in found["4"]) >= 2, found["4"]
    assert all(max(abs(dx), abs(dy)) <= 4 for dx, dy in found["4"]), found["4"]


def stone_size(gen, d):
    """photos --stone-size 2 refused; with ../shared/data, --stone-size 1 refuses the one
    photo whose grid is at half the board's spacing (a8bb2af6: two stones, both on points
    of that grid, each two spacings wide) and keeps the rest as --stone-size 0 does."""
    bad = subprocess.run([gen, "photos", "--data", d, "--folds", os.devnull, "--out",
                          os.path.join(d, "p.bin"), "--stone-size", "2"],
                         stderr=subprocess.PIPE, text=True)
    assert bad.returncode == 2 and "--stone-size 0 or 1" in bad.stderr, bad.stderr
    here = os.path.dirname(os.path.abspath(__file__))
    shared = os.environ.get("KIFUCAM_SHARED", os.path.join(here, "..", "..", "..", "shared"))
    data = os.path.join(shared, "data")
    folds = os.path.join(here, "..", "..", "train", "folds.tsv")
    if not os.path.isdir(os.path.join(data, "photos", "roboflow-stones")):
        print("SKIP stone size on real photos: %s/photos/roboflow-stones is absent" % data)
        return
    kept = {}
    for ss in ("0", "1"):
        r = subprocess.run([gen, "photos", "--data", data, "--folds", folds, "--out",
                            os.path.join(d, "p%s.bin" % ss), "--copies", "1",
                            "--stone-size", ss], stderr=subprocess.PIPE, text=True, check=True)
        kept[ss] = int(r.stderr.split(" photos written")[0].split()[-1])
        if ss == "1":
            assert "a8bb2af6ebf64eb28c3c64b524336b1a: stones 2.0" in r.stderr, r.stderr[-400:]
    print("photos kept: %d, with --stone-size 1: %d" % (kept["0"], kept["1"]))
    assert kept["1"] == kept["0"] - 1, kept


def pseudo_labels(gen, d):
    """pseudo --sure 0.4 refused; with ../shared/data, pseudo with the shipped reader keeps
    most roboflow-corners photos (a grid near the labelled corners), each a 19x19 photo view
    (kind 1) of a fold 0..4, its points labelled empty, black, white, covered or unknown,
    most of them known (the reader sure of them)."""
    here = os.path.dirname(os.path.abspath(__file__))
    model = os.path.join(here, "..", "..", "vision", "model", "points.onnx")
    bad = subprocess.run([gen, "pseudo", "--data", d, "--folds", os.devnull, "--model", model,
                          "--out", os.path.join(d, "q.bin"), "--sure", "0.4"],
                         stderr=subprocess.PIPE, text=True)
    assert bad.returncode == 2 and "--sure over 0.5" in bad.stderr, bad.stderr
    shared = os.environ.get("KIFUCAM_SHARED", os.path.join(here, "..", "..", "..", "shared"))
    data = os.path.join(shared, "data")
    if not os.path.isdir(os.path.join(data, "photos", "roboflow-corners")):
        print("SKIP pseudo labels on real photos: %s/photos/roboflow-corners is absent" % data)
        return
    out = os.path.join(d, "pseudo.bin")
    r = subprocess.run([gen, "pseudo", "--data", data, "--folds",
                        os.path.join(here, "..", "..", "train", "folds.tsv"), "--model", model,
                        "--out", out, "--copies", "0"],
                       stderr=subprocess.PIPE, text=True, check=True)
    kept = int(r.stderr.split(" photos written")[0].split()[-1])
    ss = read(out)
    known = sum(sum(1 for v in s["labels"] if v != 255) for s in ss)
    total = sum(len(s["labels"]) for s in ss)
    print("pseudo labels: %d photos kept, %d of %d points known" % (kept, known, total))
    assert kept >= 90 and len(ss) == kept, (kept, len(ss))
    for s in ss:
        assert s["kind"] == 1 and s["size"] == 19 and 0 <= s["fold"] <= 4, s["fold"]
        assert set(s["labels"]) <= {0, 1, 2, 3, 255}, set(s["labels"])
    assert known >= 0.9 * total, (known, total)


def main():
    gen = sys.argv[1]
    if sys.argv[2:] == ["far"]:  # its own test (test_traingen_far): renders are slow under ASan
        with tempfile.TemporaryDirectory() as d:
            far_shift(gen, d)
        print("1 passed, 0 failed")
        return
    with tempfile.TemporaryDirectory() as d:
        a, b = os.path.join(d, "a.bin"), os.path.join(d, "b.bin")
        for path, ring in ((a, "1"), (b, "0")):
            subprocess.run([gen, "render", "--out", path, "--count", "12", "--seed", "7",
                            "--views", "2", "--ring-hands", ring], check=True,
                           stderr=subprocess.DEVNULL)
        bad = subprocess.run([gen, "render", "--out", os.path.join(d, "c.bin"),
                              "--ring-hands", "2"], stderr=subprocess.PIPE, text=True)
        assert bad.returncode == 2 and "--ring-hands 0 or 1" in bad.stderr, bad.stderr
        sa, sb = read(a), read(b)
        knocked_labels(gen, d)
        pushed_labels(gen, d)
        stone_size(gen, d)
        pseudo_labels(gen, d)
    assert len(sa) == len(sb) and len(sa) >= 10, (len(sa), len(sb))
    hand_blocks = 0
    for x, y in zip(sa, sb):
        assert x["view"] == y["view"] and x["labels"] == y["labels"]
        assert y["ring_labels"] is None and x["ring_labels"] is not None
        S = x["size"]
        assert len(x["ring_labels"]) == 4 * S + 4 and set(x["ring_labels"]) <= {3, 4}, \
            set(x["ring_labels"])
        O, k, covered_inside = S + 2, 0, 3 in x["labels"]
        for j in range(O):
            for i in range(O):
                if 1 <= i <= S and 1 <= j <= S:
                    continue
                if x["ring_labels"][k] == 3 and block_black(x, i, j) == 0:
                    # a hand or an arm: only on a view with a covered point
                    assert covered_inside, "ring block %d covered on a view with no hand" % k
                    hand_blocks += 1
                k += 1
    print("%d samples, %d ring blocks covered by a hand or an arm" % (len(sa), hand_blocks))
    assert hand_blocks >= 5, hand_blocks
    print("1 passed, 0 failed")


if __name__ == "__main__":
    main()
