#!/usr/bin/env python3
"""stone_centres.py: the stone finder (vision/vis_stones.c): a network that finds stones
(their centres, as the Roboflow boxes give them) over the reader's board view. Born as
trial "d" (would it count a photo better than reading point by point?); shipped since
2026-12-06 as vision/model/centres.onnx.

    stone_centres.py KIFUCAM DATA_DIR --export DIR [--only K,...] [--renders FILE...]
    stone_centres.py KIFUCAM DATA_DIR [--steps N] [--seed S] [--threads T] [--cv]

The point reader (train_points.py) reads each point from its own block, so a stone
lying between two points is read on both, on neither, or on the wrong one; the photos'
labels are boxes, one a stone, wherever it lies. This learns the boxes' centres
directly: a small fully convolutional network over the same board view (vis_board_view:
16 px a point, one point of margin, the grid `KIFUCAM detect --model FOLD.onnx` finds
for the photo with its fold's model), giving a heat map 4 px a point, one channel per
colour, peaked at every stone's centre (CenterNet's focal loss). Stones are the map's
local maxima over a threshold.

--export DIR (make train's step 4b) writes the models the C code reads: centresK.onnx,
trained on every fold but K (bench_vision stones --fold-models DIR reads fold K's photos
with it), and centres.onnx, trained on every photo (copied to vision/model/), each with a
JSON note; the finder's settings are chosen in C, on folds 0-2 (vis_stones_params_t).
Without --export, trial d's figures: model A is trained on folds 0-1 and its threshold
chosen on fold 2 (--cv: across folds 0-2, each fold read by a model of the other two);
model B, the same recipe on folds 0-2, is scored on folds 3-4 at it, counts only. Only
the roboflow-stones photos (CC BY 4.0) are used, with the stones tests/vision/truth_fixes.h
adds and the duplicate boxes it drops; --renders adds rendered views (measured and not kept: vision/model/README.md).
Needs Debian's python3-opencv and python3-torch. Progress on stderr; figures on stdout.
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import time

import cv2
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import kcts  # noqa: E402

P, M, R = 16, 1, 4  # view px a point, margin points, view px a heat-map pixel
SIGMA = 0.15 * P / R  # a peak's spread, heat-map pixels (0.15 of a cell)


def fixes():
    """The fixes of tests/vision/truth_fixes.h by source photo: (class, x, y) of a stone the
    labels miss, class -1 (RF_FIX_DUPLICATE) for a box that labels a stone twice."""
    text = open(os.path.join(HERE, "..", "tests", "vision", "truth_fixes.h")).read()
    out = {}
    for src, x, y, c in re.findall(r'\{\s*"([0-9a-f]{32})",\s*([\d.]+),\s*([\d.]+),\s*'
                                   r'(\d|RF_FIX_DUPLICATE),', text):
        out.setdefault(src, []).append((-1 if c == "RF_FIX_DUPLICATE" else int(c), float(x), float(y)))
    return out


def apply_fixes(boxes, fx, size):
    """boxes (class, x, y) with the fixes fx added or dropped, as rf_apply_fixes does: a
    duplicate drops the box whose centre lies within a third of size of it."""
    out = list(boxes)
    for c, x, y in fx:
        if c >= 0:
            out.append((c, x, y))
            continue
        near = [i for i, b in enumerate(out) if abs(b[1] - x) < size / 3 and abs(b[2] - y) < size / 3]
        if near:
            del out[near[0]]
    return out


def folds():
    out = {}
    for line in open(os.path.join(HERE, "folds.tsv")):
        p = line.split()
        if len(p) >= 3 and p[0] == "roboflow-stones":
            out[p[1]] = int(p[2])
    return out


def photos(kifucam, data, models, cache):
    """Every photo: its source, fold, image, boxes (class, x px, y px) and the grid its
    fold's model finds (size, corners), or None."""
    fx, fo = fixes(), folds()
    grids = json.load(open(cache)) if os.path.exists(cache) else {}
    out = []
    for img in sorted(glob.glob(os.path.join(data, "photos", "roboflow-stones", "*", "images", "*.jpg"))):
        name = os.path.basename(img)
        src = name.split("_jpg.rf.")[0]
        if src not in fo:
            continue
        im = cv2.imread(img)
        h, w = im.shape[:2]
        lab = img.replace("/images/", "/labels/")[:-4] + ".txt"
        boxes, sizes = [], []
        for line in open(lab):
            p = line.split()
            if len(p) == 5 and int(p[0]) in (0, 1):
                boxes.append((int(p[0]), float(p[1]) * w, float(p[2]) * h))
                sizes.append(float(p[3]) * w)
        boxes = apply_fixes(boxes, fx.get(src, []), float(np.median(sizes)) if sizes else 0.05 * w)
        if src not in grids:
            model = os.path.join(models, "fold%d.onnx" % fo[src])
            r = subprocess.run([kifucam, "detect", "--model", model, "--format", "json", img],
                               capture_output=True, text=True)
            try:
                j = json.loads(r.stdout)
                grids[src] = [j["size"], j["corners"]]
            except (ValueError, KeyError):
                grids[src] = None
            json.dump(grids, open(cache, "w"))
        out.append(dict(src=src, fold=fo[src], img=im, boxes=boxes, grid=grids[src]))
    return out


def view_of(ph):
    """The board view (BGR, side x side), the boxes in heat-map pixels, and the size."""
    S, c = ph["grid"]
    b2i = cv2.getPerspectiveTransform(np.float32([[0, 0], [S - 1, 0], [S - 1, S - 1], [0, S - 1]]),
                                      np.float32(c))
    v2b = np.array([[1.0 / P, 0, 0.5 / P - M - 0.5], [0, 1.0 / P, 0.5 / P - M - 0.5], [0, 0, 1]])
    v2i = b2i @ v2b
    side = (S + 2 * M) * P
    view = cv2.warpPerspective(ph["img"], v2i, (side, side), flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_CONSTANT)
    i2v = np.linalg.inv(v2i)
    stones = []
    for cls, x, y in ph["boxes"]:
        q = i2v @ np.array([x, y, 1.0])
        stones.append((cls, (q[0] / q[2] + 0.5) / R - 0.5, (q[1] / q[2] + 0.5) / R - 0.5))
    return view, stones, S


def target(stones, hs):
    t = np.zeros((2, hs, hs), np.float32)
    yy, xx = np.mgrid[0:hs, 0:hs]
    for cls, x, y in stones:
        if -1 <= x <= hs and -1 <= y <= hs:
            t[cls] = np.maximum(t[cls], np.exp(-((xx - x) ** 2 + (yy - y) ** 2) / (2 * SIGMA ** 2)))
            ix, iy = int(round(x)), int(round(y))
            if 0 <= ix < hs and 0 <= iy < hs:
                t[cls, iy, ix] = 1.0
    return t


class CentreNet(nn.Module):
    """16 px a point in, a heat map at 4 px a point out (two colours); about 1.3 points of
    context each way."""

    def __init__(self):
        super().__init__()

        def block(ci, co, s=1, d=1):
            return [nn.Conv2d(ci, co, 3, stride=s, padding=d, dilation=d, bias=False),
                    nn.BatchNorm2d(co), nn.ReLU(inplace=True)]
        self.body = nn.Sequential(*block(3, 16, 2), *block(16, 32, 2), *block(32, 32), *block(32, 48, d=2),
                                  *block(48, 48, d=4), nn.Conv2d(48, 2, 1))
        nn.init.constant_(self.body[-1].bias, -2.2)

    def forward(self, x):
        return self.body(x - 0.5)


def focal(logit, t, mask=None):
    """CenterNet's focal loss; mask (1 or 0 a heat pixel, broadcast over the colours): 0
    where nothing is known (a render's points under a hand)."""
    p = torch.sigmoid(logit).clamp(1e-4, 1 - 1e-4)
    pos = t.eq(1).float()
    neg = 1 - pos
    lp = -torch.log(p) * (1 - p) ** 2 * pos
    ln = -torch.log(1 - p) * p ** 2 * (1 - t) ** 4 * neg
    if mask is not None:
        lp, ln, pos = lp * mask, ln * mask, pos * mask
    return (lp.sum() + ln.sum()) / pos.sum().clamp(min=1)


def render_items(paths, limit, seed):
    """Rendered views (kifucam-traingen render, on their true grids: --misalign 0) as
    training items: each stone's centre taken at its labelled point (the renderer puts it
    within a little jitter of it), the points labelled covered or unknown masked out.
    At most limit of them, drawn at random (seed)."""
    out = []
    for path in paths:
        for smp in kcts.read(path):
            if smp["cell"] != P or smp["margin"] != M or smp["kind"] != 0:
                continue
            out.append(smp)
    rng = np.random.default_rng(seed)
    if len(out) > limit:
        out = [out[i] for i in sorted(rng.choice(len(out), size=limit, replace=False))]
    items = []
    for smp in out:
        S, lab = smp["size"], smp["labels"]
        hs = smp["side"] // R
        stones, mask = [], np.ones((1, hs, hs), np.float32)
        yy, xx = np.mgrid[0:hs, 0:hs]
        for y in range(S):
            for x in range(S):
                c = int(lab[y, x])
                hx, hy = (x + M + 0.5) * P / R - 0.5, (y + M + 0.5) * P / R - 0.5
                if c in (1, 2):
                    stones.append((c - 1, hx, hy))
                elif c != 0:  # covered, unknown: a stone may lie there or not
                    mask[0][(xx - hx) ** 2 + (yy - hy) ** 2 <= (0.6 * P / R) ** 2] = 0
        items.append(dict(S=S, xu8=np.ascontiguousarray(smp["view"].transpose(2, 0, 1)),
                          t=target(stones, hs), mask=mask))
    return items


def jittered(it, jitter, rng):
    """The item's view and stones made anew under its grid with each corner moved by a
    normal draw of jitter cells each way (board finding's grids err by a fraction of a
    cell; the finder should find the stones under such a grid as under the right one)."""
    S, c = it["grid"]
    c = np.float32(c)
    cell = np.mean([np.hypot(*(c[(k + 1) % 4] - c[k])) for k in range(4)]) / (S - 1)
    c2 = c + rng.normal(0, jitter * cell, c.shape).astype(np.float32)
    view, stones, S = view_of(dict(img=it["img"], boxes=it["boxes"], grid=[S, c2.tolist()]))
    return view.transpose(2, 0, 1).astype(np.float32) / 255.0, stones


STONE_R = 0.47  # a stone's radius, cells
CUT_KEEP = 0.15  # a cut stone showing at least this share of its width keeps its label


def cut_edge(x, stones, S, rng):
    """The view x (3, side, side) cut as a photo's edge cuts a board: one side, from a
    place within kcts.CUT_LINES lines of the board's edge line on it (kcts.cut_place),
    black (the view's padding beyond a picture). Each stone the cut crosses is labelled as
    the sets' boxes are, clipped to the picture: at the middle of its part left, when that
    part is at least CUT_KEEP of its width; a thinner sliver is masked (the labels' makers differ on it).
    The view, the stones and the mask (1, hs, hs)."""
    side = x.shape[1]
    hs = side // R
    e, k = kcts.cut_place(S, M, P, rng)  # turned k times, pixels >= e cut (the right side)
    x = np.rot90(x, k, (1, 2)).copy()
    x[:, :, int(np.ceil(e)):] = 0
    mask = np.ones((1, hs, hs), np.float32)
    yy, xx = np.mgrid[0:hs, 0:hs]
    out = []
    r = STONE_R * P
    for cls, hx, hy in stones:
        # heat px to view px, turned as the view is (rot90 by k: (x, y) -> (y, side-1-x) each turn)
        vx, vy = (hx + 0.5) * R - 0.5, (hy + 0.5) * R - 0.5
        for _ in range(k):
            vx, vy = vy, side - 1 - vx
        if vx + r > e:
            shown = (e - (vx - r)) / (2 * r)
            if shown <= 0:
                continue
            if shown < CUT_KEEP:
                mx, my = (vx + 0.5) / R - 0.5, (vy + 0.5) / R - 0.5
                mask[0][(xx - mx) ** 2 + (yy - my) ** 2 <= (0.6 * P / R) ** 2] = 0
                continue
            vx = (vx - r + e) / 2
        out.append((cls, vx, vy))
    # back to the view's own orientation
    x = np.rot90(x, -k, (1, 2)).copy()
    mask = np.rot90(mask, -k, (1, 2)).copy()
    back = []
    for cls, vx, vy in out:
        for _ in range(k):
            vx, vy = side - 1 - vy, vx
        back.append((cls, (vx + 0.5) / R - 0.5, (vy + 0.5) / R - 0.5))
    return x, back, mask


def augment(x, t, rng):
    k = int(rng.integers(4))
    x, t = torch.rot90(x, k, (2, 3)), torch.rot90(t, k, (2, 3))
    if rng.random() < 0.5:
        x, t = torch.flip(x, (3,)), torch.flip(t, (3,))
    B = x.shape[0]
    g = torch.from_numpy(rng.uniform(0.75, 1.25, (B, 3, 1, 1)).astype(np.float32))
    c = torch.from_numpy(rng.uniform(0.7, 1.3, (B, 1, 1, 1)).astype(np.float32))
    mean = x.mean((1, 2, 3), keepdim=True)
    x = ((x * g - mean) * c + mean).clamp(0, 1)
    x = x + torch.randn(x.shape) * float(rng.uniform(0, 0.03))
    return x.clamp(0, 1), t


def glare(x, rng, share):
    """A lamp's glare laid over that share of the views of batch x (N, 3, H, W; 0..1): a
    soft bright streak, an oriented Gaussian 1 to 5 cells long, 1 to 4 times as long as it
    is wide, anywhere in the view, lifting the pixels towards white by 0.3 to 0.9 at its
    middle. The labels stay: glare on wood is no stone, glare on a stone is that stone. The
    ranges were set before any training and not tuned."""
    if share <= 0:
        return x
    N, _, H, W = x.shape
    yy, xx = torch.meshgrid(torch.arange(H, dtype=torch.float32), torch.arange(W, dtype=torch.float32),
                            indexing="ij")
    for n in range(N):
        if rng.random() >= share:
            continue
        cx, cy = rng.uniform(0, W), rng.uniform(0, H)
        long_ = rng.uniform(1, 5) * P
        wide = long_ / rng.uniform(1, 4)
        th = rng.uniform(0, np.pi)
        u = (xx - cx) * np.cos(th) + (yy - cy) * np.sin(th)
        v = -(xx - cx) * np.sin(th) + (yy - cy) * np.cos(th)
        g = torch.exp(-0.5 * ((u / long_) ** 2 + (v / wide) ** 2)) * float(rng.uniform(0.3, 0.9))
        x[n] = x[n] + (1 - x[n]) * g[None]
    return x


def train(items, steps, seed, log, renders=(), render_share=0.0, jitter=0.0, net=None, cut=0.0,
          glare_share=0.0):
    """A CentreNet on the photos' items, and with render_share of the batches drawn from
    the renders' items instead; with jitter, half the photos' views in each batch are made
    under their grid moved (jittered); with cut, that share of them cut by a picture's
    edge (cut_edge)."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    net = net if net is not None else CentreNet()
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps, pct_start=0.1)

    def groups(its):
        by = {}
        for i, it in enumerate(its):
            by.setdefault(it["S"], []).append(i)
        sizes = sorted(by)
        return by, sizes, np.array([len(by[s]) for s in sizes], np.float64)
    sets = [(items,) + groups(items)]
    if renders:
        sets.append((renders,) + groups(renders))
    t0 = time.time()
    for step in range(steps):
        its, by, sizes, w = sets[1] if len(sets) > 1 and rng.random() < render_share else sets[0]
        S = sizes[int(rng.choice(len(sizes), p=w / w.sum()))]
        idx = rng.choice(by[S], size=min(8, len(by[S])), replace=False)
        if "xu8" in its[idx[0]]:
            x = torch.from_numpy(np.stack([its[i]["xu8"] for i in idx]).astype(np.float32) / 255.0)
            t = torch.from_numpy(np.stack([its[i]["t"] for i in idx]))
            m = torch.from_numpy(np.stack([its[i]["mask"] for i in idx]))
        else:
            xs, ts, ms = [], [], []
            for i in idx:
                it = its[i]
                v, st = jittered(it, jitter, rng) if jitter > 0 and rng.random() < 0.5 else (it["x"], it["stones"])
                hs = v.shape[1] // R
                mk = np.ones((1, hs, hs), np.float32)
                if cut > 0 and rng.random() < cut:
                    v, st, mk = cut_edge(v, st, it["S"], rng)
                xs.append(v)
                ts.append(target(st, hs))
                ms.append(mk)
            x, t, m = (torch.from_numpy(np.stack(a)) for a in (xs, ts, ms))
        x, tm = augment(x, torch.cat([t, m], 1), rng)
        t, m = tm[:, :2], tm[:, 2:]
        x = glare(x, rng, glare_share)
        net.train()
        loss = focal(net(x), t, m)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 100 == 0 or step == steps - 1:
            print("\r%s: step %d/%d loss %.3f %.0f s   " % (log, step + 1, steps, float(loss), time.time() - t0),
                  end="", file=sys.stderr)
    print(file=sys.stderr)
    net.eval()
    return net


def counts(net, it, th):
    """The stones found on the board, per colour, at each threshold of th."""
    with torch.no_grad():
        h = torch.sigmoid(net(torch.from_numpy(it["x"][None])))
    peak = (h == F.max_pool2d(h, 3, 1, 1)) & (h > min(th))
    S = it["S"]
    lo, hi = M * P / R - 0.5, (M + S) * P / R - 0.5  # half a line beyond the edge lines
    out = []
    for t in th:
        n = []
        for c in range(2):
            ys, xs = torch.nonzero(peak[0, c] & (h[0, c] > t), as_tuple=True)
            n.append(int(((xs >= lo) & (xs <= hi) & (ys >= lo) & (ys <= hi)).sum()))
        out.append(n)
    return out


def export(has, a):
    """The fold models and the model of every photo, as ONNX with a note of how each was made."""
    os.makedirs(a.export, exist_ok=True)
    commit = subprocess.run(["git", "-C", HERE, "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    base = None
    if a.pretrain_steps:  # trained on the renders alone first, once for every fold
        path = os.path.join(a.export, "pretrain.pt")
        base = CentreNet()
        if os.path.exists(path):
            base.load_state_dict(torch.load(path))
        else:
            base = train(a.render_items, a.pretrain_steps, a.seed, "pretrained on renders")
            torch.save(base.state_dict(), path)
    for k in a.only:
        sel = [i for i in has if i["fold"] != k]
        name = "centres%d" % k if k >= 0 else "centres"
        start = None
        if base is not None:
            start = CentreNet()
            start.load_state_dict(base.state_dict())
        net = train(sel, a.steps, a.seed, name + (" (every fold but %d)" % k if k >= 0 else " (every photo)"),
                    () if base is not None else a.render_items, a.render_share, a.jitter, start, a.cut,
                    a.glare)
        dummy = torch.zeros(1, 3, (19 + 2 * M) * P, (19 + 2 * M) * P)
        path = os.path.join(a.export, name + ".onnx")
        torch.onnx.export(net, dummy, path, opset_version=11, input_names=["view"], output_names=["heat"],
                          dynamic_axes={"view": {2: "h", 3: "w"}, "heat": {2: "oh", 3: "ow"}})
        json.dump(dict(model=name + ".onnx", cell_px=P, margin=M, heat_px=R, classes=["black", "white"],
                       data="roboflow-stones (CC BY 4.0), %d photos%s, with tests/vision/truth_fixes.h%s" %
                       (len(sel), ", every fold but %d (train/folds.tsv)" % k if k >= 0 else "",
                        "; %d rendered views of %s, %s" %
                        (len(a.render_items), " ".join(os.path.basename(r) for r in a.renders),
                         "trained on first (pretrain_steps)" if a.pretrain_steps else
                         "%.0f%% of the batches" % (100 * a.render_share)) if a.render_items else ""),
                       steps=a.steps, seed=a.seed, jitter=a.jitter, cut=a.cut, glare=a.glare,
                       pretrain_steps=a.pretrain_steps,
                       commit=commit, torch=torch.__version__,
                       params=sum(p.numel() for p in net.parameters())),
                  open(os.path.join(a.export, name + ".json"), "w"), indent=1)
        print("stone_centres: wrote %s" % path, file=sys.stderr)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kifucam")
    ap.add_argument("data")
    ap.add_argument("--models", default=os.path.join(HERE, "..", "build", "train-data", "models"))
    ap.add_argument("--cache", default=os.path.join(HERE, "..", "build", "train-data", "centres-grids.json"))
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--threads", type=int, default=2)
    # the threshold chosen across folds 0-2 (each fold read by a model of the other two,
    # pooled) instead of on fold 2 alone
    ap.add_argument("--cv", action="store_true")
    # instead of the trial's figures: the five fold models (centresK.onnx, each trained on
    # the other four folds, for bench_vision's --fold-models) and the one of every photo
    # (centres.onnx), written into this folder
    ap.add_argument("--export", metavar="DIR")
    # with --export: which of the models (fold numbers; -1 the one of every photo)
    ap.add_argument("--only", type=lambda v: [int(x) for x in v.split(",")], default=[0, 1, 2, 3, 4, -1])
    # rendered views (kifucam-traingen render --misalign 0 files) beside the photos: at
    # most --render-limit of them, --render-share of the batches
    ap.add_argument("--renders", nargs="*", default=[])
    ap.add_argument("--render-limit", type=int, default=3000)
    ap.add_argument("--render-share", type=float, default=0.5)
    # cells: half the photos' views of each batch made under their grid with each corner
    # moved by a normal draw of this spread (0: never)
    ap.add_argument("--jitter", type=float, default=0.0)
    # the share of the photos' views in each batch cut as a picture's edge cuts a board
    # (cut_edge; 0: never, as before 2026-12-07)
    ap.add_argument("--cut", type=float, default=0.3)
    # with --export and --renders: the network first trained this many steps on the
    # renders alone (kept as DIR/pretrain.pt for the other folds' runs), then on the
    # photos alone (0: the renders, if any, mixed into the photos' batches)
    ap.add_argument("--pretrain-steps", type=int, default=0)
    # the share of the views in each batch with a lamp's glare laid over them (glare; 0:
    # never, the recipe before 2026-12-07's trial)
    ap.add_argument("--glare", type=float, default=0.0)
    a = ap.parse_args()
    a.render_items = render_items(a.renders, a.render_limit, a.seed) if a.renders else []
    torch.set_num_threads(a.threads)
    items = []
    for ph in photos(a.kifucam, a.data, a.models, a.cache):
        tb = sum(1 for b in ph["boxes"] if b[0] == 0)
        tw = len(ph["boxes"]) - tb
        it = dict(src=ph["src"], fold=ph["fold"], tb=tb, tw=tw, S=None)
        if ph["grid"]:
            view, stones, S = view_of(ph)
            # the heat map is made per batch from the stones (cut_edge moves them)
            it.update(S=S, x=view.transpose(2, 0, 1).astype(np.float32) / 255.0,
                      stones=stones, img=ph["img"], boxes=ph["boxes"], grid=ph["grid"])
        items.append(it)
    print("stone_centres: %d photos, %d with a grid" % (len(items), sum(1 for i in items if i["S"])), file=sys.stderr)
    th = [round(0.2 + 0.05 * k, 2) for k in range(13)]

    def score(net, sel):
        right = np.zeros(len(th), int)
        for it in sel:
            if not it["S"]:
                continue
            for k, (nb, nw) in enumerate(counts(net, it, th)):
                right[k] += nb == it["tb"] and nw == it["tw"]
        return right

    has = [i for i in items if i["S"]]
    if a.export:
        export(has, a)
        return
    pooled = np.zeros(len(th), int)
    for v in ((2,) if not a.cv else (2, 1, 0)):
        tr = tuple(f for f in (0, 1, 2) if f != v)
        a_net = train([i for i in has if i["fold"] in tr], a.steps, a.seed,
                      "model A (folds %d-%d)" % tr if tr[1] == tr[0] + 1 else "model A (folds %d, %d)" % tr,
                      a.render_items, a.render_share, a.jitter)
        val = [i for i in items if i["fold"] == v]
        r2 = score(a_net, val)
        pooled += r2
        print("fold %d (%d photos), model A (the other two), both counts exact by threshold: %s" %
              (v, len(val), ", ".join("%.2f %d" % (t, r) for t, r in zip(th, r2))))
    best = int(np.argmax(pooled))
    if a.cv:
        print("folds 0-2 (72 photos), each by the model of the other two: %s" %
              ", ".join("%.2f %d" % (t, r) for t, r in zip(th, pooled)))
    b_net = train([i for i in has if i["fold"] in (0, 1, 2)], a.steps, a.seed, "model B (folds 0-2)",
                  a.render_items, a.render_share, a.jitter)
    test = [i for i in items if i["fold"] in (3, 4)]
    r34 = score(b_net, test)
    print("folds 3-4 (%d photos), model B, both counts exact at the threshold chosen %.2f: %d "
          "(at every threshold: %s)" % (len(test), th[best], r34[best],
                                        ", ".join("%.2f %d" % (t, r) for t, r in zip(th, r34))))
    for it in test:
        if it["S"]:
            nb, nw = counts(b_net, it, [th[best]])[0]
            if nb != it["tb"] or nw != it["tw"]:
                print("  %s fold %d black %d/%d white %d/%d" % (it["src"][:8], it["fold"], nb, it["tb"], nw, it["tw"]))
        else:
            print("  %s fold %d no grid" % (it["src"][:8], it["fold"]))


if __name__ == "__main__":
    main()
