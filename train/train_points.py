#!/usr/bin/env python3
"""train_points.py: train the learned point reader (train/README.md has the recipe).

The reader is a small fully convolutional network over the board seen from straight
above (vis_board_view: 16 px a point, one point of margin): one output per point, five
classes (empty, black, white, covered, off: the grid is wrong here). Input: the view's pixels / 255, B, G, R; the
network subtracts 0.5 itself. Output: logits, (size + 2) x (size + 2), the board's points
at [1 .. size]; the margin ring is trained to say off (no point of a board lies there
under a right grid), so a grid shifted into the board shows real points in its ring.

    train_points.py --data FILE [FILE...] --out MODEL.onnx [--holdout-fold K]
                    [--init BASE.pt] [--steps N] [--photo-share P] [--seed S]

Samples come from kifucam-traingen (renders, kind 0; roboflow-stones photos, kind 1 with
their fold). With --holdout-fold K the photos of fold K are left out: the model is scored
on them by `bench_vision stones --model`, a figure it never saw. Deterministic for a
seed on one machine (torch's CPU kernels). Progress on stderr; MODEL.onnx, MODEL.pt (the
weights, to start another run from) and MODEL.json (how it was made) are written.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kcts  # noqa: E402

NCLASS = 5
IGNORE = 255


class PointNet(nn.Module):
    """16 px a point in, one logit vector a point out (stride 16).

    arch "v2" (the shipped weights, 49,749 weights): about 45 M multiply-adds for a 19x19
    board's view (336 x 336): the costly full-resolution layers are strided.
    arch "w" (wider, 113,749 weights, about 71 M multiply-adds): more channels where a
    block is 4 and 2 px a point (what tells a pale stone from a pale board, glare from a
    white stone), the third layer strided instead of pooled, and two layers at a point's
    pixel of 64 channels. Same input, same output, same receptive field's order (~6
    points), so the C side reads either.
    arch "s" (v2's channels and weights, the third layer strided instead of a 3x3 at 2 px
    a point then pooled: about 33 M multiply-adds, one read 1.44 ms against v2's 1.93 in
    OpenCV's dnn on one core): for the 5 ms a video frame of issue 18.
    arch "g" (v2 and 1,056 weights more): the whole view's context scales a point's
    channels (SPLIT, below); trial "g" of vision/model/README.md."""

    ARCHS = {"v2": ((16, 32, 32, 48), False), "w": ((24, 48, 64, 64), True),
             "s": ((16, 32, 32, 48), True), "g": ((16, 32, 32, 48), False)}
    # arch "g": v2 and the whole view's context. At a point's pixel (after the third
    # block) every channel is scaled by 1 + tanh(a), a a 1x1 convolution of the channels'
    # means over the whole view: what the photo's wood, stones and light look like
    # overall, for a block that alone could be a pale stone or a pale board. Its
    # convolution starts at zero, so a v2 model (--init) reads as it did at step 0.
    SPLIT = 10  # body[:SPLIT] ends at a point's pixel (the third block and its pool)

    def __init__(self, arch="v2"):
        super().__init__()
        (c1, c2, c3, c4), strided = self.ARCHS[arch]

        def block(cin, cout, k, s=1):
            pad = k // 2 if k % 2 else 0
            return [nn.Conv2d(cin, cout, k, stride=s, padding=pad, bias=False),
                    nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

        third = block(c2, c3, 3, 2) if strided else block(c2, c3, 3) + [nn.MaxPool2d(2)]
        self.body = nn.Sequential(
            *block(3, c1, 4, 4),                  # 4 px a point
            *block(c1, c2, 3, 2),                 # 2 px a point
            *third,                               # 1 px a point
            *block(c3, c4, 3),
            *block(c4, c4, 3),
            nn.Conv2d(c4, NCLASS, 1))

        self.context = None
        if arch == "g":
            self.context = nn.Conv2d(c3, c3, 1)
            nn.init.zeros_(self.context.weight)
            nn.init.zeros_(self.context.bias)

    def forward(self, x):
        if self.context is None:
            return self.body(x - 0.5)
        h = self.body[:self.SPLIT](x - 0.5)
        # GlobalAveragePool in ONNX: OpenCV 4.6's dnn broadcasts its product over a view
        # of any size (a ReduceMean's does not import)
        g = torch.tanh(self.context(F.adaptive_avg_pool2d(h, 1)))
        return self.body[self.SPLIT:](h * (g + 1))


def git_commit():
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, cwd=os.path.dirname(os.path.abspath(__file__))).stdout.strip()
    except OSError:
        return "unknown"


def augment(x, y, rng, strength=1.0, keep_pad=False):
    """x: B x 3 x H x W float in 0..1, y: B x S x S labels. Board symmetries, colour,
    contrast, gamma, blur and noise, each drawn per sample. strength scales every range
    and probability but the symmetries (1: the shipped recipe's; the random draws are the
    same for any strength, so 1 gives the same batches as before the option).
    keep_pad: the view's padding outside the picture (pixels 0 in all three channels, as
    vis_board_view leaves them) stays 0, as the C side gives it to the reader, instead of
    taking the contrast, brightness, blur and noise of the picture (the same draws)."""
    B = x.shape[0]
    k = int(rng.integers(4))
    x = torch.rot90(x, k, (2, 3))
    y = torch.rot90(y, k, (1, 2))
    if rng.random() < 0.5:
        x = torch.flip(x, (3,))
        y = torch.flip(y, (2,))
    pad = (x.sum(1, keepdim=True) == 0) if keep_pad else None
    g = torch.from_numpy(rng.uniform(1 - 0.3 * strength, 1 + 0.3 * strength, (B, 3, 1, 1)).astype(np.float32))
    mix = torch.from_numpy((np.eye(3)[None] + rng.normal(0, 0.08 * strength, (B, 3, 3))).astype(np.float32))
    x = torch.einsum("bij,bjhw->bihw", mix, x) * g
    mean = x.mean((1, 2, 3), keepdim=True)
    c = torch.from_numpy(rng.uniform(1 - 0.35 * strength, 1 + 0.35 * strength, (B, 1, 1, 1)).astype(np.float32))
    bri = torch.from_numpy(rng.uniform(1 - 0.4 * strength, 1 + 0.4 * strength, (B, 1, 1, 1)).astype(np.float32))
    x = ((x - mean) * c + mean) * bri
    x = x.clamp(0, 1)
    gam = torch.from_numpy(np.exp(rng.uniform(-0.4 * strength, 0.4 * strength, (B, 1, 1, 1))).astype(np.float32))
    x = x ** gam
    if rng.random() < 0.3 * strength:
        s = float(rng.uniform(0.5, 1.8))
        r = int(math.ceil(2 * s))
        t = torch.arange(-r, r + 1, dtype=torch.float32)
        kern = torch.exp(-t * t / (2 * s * s))
        kern = kern / kern.sum()
        kx = kern.view(1, 1, 1, -1).repeat(3, 1, 1, 1)
        ky = kern.view(1, 1, -1, 1).repeat(3, 1, 1, 1)
        x = F.conv2d(F.pad(x, (r, r, 0, 0), mode="replicate"), kx, groups=3)
        x = F.conv2d(F.pad(x, (0, 0, r, r), mode="replicate"), ky, groups=3)
    sig = torch.from_numpy(rng.uniform(0, 0.035 * strength, (B, 1, 1, 1)).astype(np.float32))
    x = x + torch.randn(x.shape, generator=None) * sig
    gray = torch.from_numpy((rng.random((B, 1, 1, 1)) < 0.05 * strength).astype(np.float32))
    x = x * (1 - gray) + x.mean(1, keepdim=True) * gray
    if pad is not None:
        x = x.masked_fill(pad, 0.0)
    return x.clamp(0, 1).contiguous(), y.contiguous()


def batches_by_size(samples):
    by = {}
    for i, s in enumerate(samples):
        by.setdefault(s["size"], []).append(i)
    return by


BATCH = {19: 12, 13: 24, 9: 40}


OFF, COVERED = 4, 3


def ring_labels(s):
    """The labels of the view's blocks, margin included: the board's points as labelled;
    the margin ring, where a right grid has no point, off, or covered where the block is
    outside the picture (black), or, where the file labels the ring (--ring-hands 1),
    covered also under a hand or an arm. A view under a wrong grid (off inside) leaves its ring
    unknown: whether a board point lies there is not known."""
    S, P, M = s["size"], s["cell"], s["margin"]
    O = S + 2 * M
    out = np.full((O, O), IGNORE, np.uint8)
    out[M:M + S, M:M + S] = s["labels"]
    if (s["labels"] == OFF).any():
        return out
    ring = np.ones((O, O), bool)
    ring[M:M + S, M:M + S] = False
    v = s["view"]
    cov = (v.reshape(O, P, O, P, 3).sum(axis=4) == 0).mean(axis=(1, 3)) > 0.5
    if s.get("ring_labels") is not None and M == 1:
        # the render's own ring labels (kifucam-traingen --ring-hands 1), in row-major
        # order as vis_reading_t's ring: covered also where a hand or an arm lies on the
        # border
        hand = np.zeros((O, O), bool)
        hand[ring] = s["ring_labels"] == COVERED
        cov |= hand
    out[ring] = np.where(cov[ring], COVERED, OFF)
    return out


def cut_edge(view, ring, S, M, rng):
    """One view (H x W x 3 uint8) and its block labels (O x O, margin ring included) cut as
    a photo's edge cuts a board: one side, from a place within kcts.CUT_LINES lines of the
    board's edge line on it (kcts.cut_place), black (what vis_board_view gives beyond the
    picture). A block whose centre lies beyond the cut is covered, as the C side takes a
    point whose centre lies outside the picture (outside_hides); a point whose stone the cut
    crosses with its centre in view keeps its label (the reader reads what is left of it)."""
    O = ring.shape[0]
    P = view.shape[0] // O
    e, k = kcts.cut_place(S, M, P, rng)  # turned k times, pixels >= e cut (the right side)
    v = np.rot90(view, k, (0, 1)).copy()
    r = np.rot90(ring, k).copy()
    v[:, int(np.ceil(e)):] = 0
    r[:, (np.arange(O) + 0.5) * P >= e] = COVERED
    return np.rot90(v, -k, (0, 1)), np.rot90(r, -k)


def make_batch(samples, idx, rng=None, crop=0.0, cut=0.0):
    """Views and their block labels (margin ring included). With probability crop (per
    batch) the views are cut to a window of m x m blocks anywhere in them: the window's
    outer blocks are then mostly real points of the board, so that the network reads
    every block by what it shows, not by where it lies in the view (an FCN would learn
    that the view's border is always off)."""
    x = np.stack([samples[i]["view"] for i in idx])
    y = np.stack([samples[i]["ring"] for i in idx])
    if rng is not None and cut > 0:  # each view cut by a picture's edge with probability cut
        for b, i in enumerate(idx):
            if rng.random() < cut:
                x[b], y[b] = cut_edge(x[b], y[b], samples[i]["size"], samples[i]["margin"], rng)
    if rng is not None and crop > 0 and rng.random() < crop:
        O = y.shape[1]
        P = x.shape[1] // O
        m = int(rng.integers(5, O))
        xs, ys = [], []
        for b in range(len(idx)):
            i0, j0 = int(rng.integers(0, O - m + 1)), int(rng.integers(0, O - m + 1))
            xs.append(x[b, j0 * P:(j0 + m) * P, i0 * P:(i0 + m) * P])
            ys.append(y[b, j0:j0 + m, i0:i0 + m])
        x, y = np.stack(xs), np.stack(ys)
    x = torch.from_numpy(x.astype(np.float32) / 255.0).permute(0, 3, 1, 2).contiguous()
    y = torch.from_numpy(y.astype(np.int64))
    return x, y


def loss_of(model, x, y):
    out = model(x)
    return F.cross_entropy(out, y, ignore_index=IGNORE), out


def evaluate(model, samples):
    """Per-point accuracy (ignoring unknowns) and boards read perfectly."""
    model.eval()
    right = total = perfect = 0
    with torch.no_grad():
        by = batches_by_size(samples)
        for size, idx in by.items():
            for a in range(0, len(idx), 16):
                x, y = make_batch(samples, idx[a:a + 16])
                y = y[:, 1:-1, 1:-1]
                out = model(x)[:, :, 1:-1, 1:-1].argmax(1)
                ok = (out == y) | (y == IGNORE)
                right += int(ok.sum()) - int((y == IGNORE).sum())
                total += int((y != IGNORE).sum())
                perfect += int(ok.flatten(1).all(1).sum())
    model.train()
    return right / max(total, 1), perfect, len(samples)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", nargs="+", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--holdout-fold", type=int, default=-1)
    ap.add_argument("--init")
    ap.add_argument("--steps", type=int, default=4000)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--photo-share", type=float, default=0.35)
    ap.add_argument("--seed", type=int, default=18)
    # 0 for the shipped weights (vision/model/README.md); 0.4 was tried (v3: no better
    # held out, and its ring no more use to the occlusion pass)
    ap.add_argument("--crop", type=float, default=0.0)
    ap.add_argument("--threads", type=int, default=2)
    # v2: the shipped weights' network; w: wider (PointNet's docstring). --init must be
    # of the same arch
    ap.add_argument("--arch", choices=sorted(PointNet.ARCHS), default="v2")
    # the augmentation's strength on photo batches (renders always 1): 1 for the shipped
    # weights; the photos carry real light and colour of their own, and the full ranges
    # may wash out what tells a pale stone from pale wood
    ap.add_argument("--photo-aug", type=float, default=1.0)
    # 1: the padding outside the picture stays 0 through the augmentation (augment's
    # keep_pad); 0 for the shipped weights
    ap.add_argument("--keep-pad", type=int, choices=(0, 1), default=0)
    # the share of photo views cut as a picture's edge cuts a board (cut_edge), drawn per
    # view; 0 draws nothing (the batches of the recipe before it)
    ap.add_argument("--cut", type=float, default=0.0)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    torch.set_num_threads(a.threads)
    rng = np.random.default_rng(a.seed)

    renders, photos, held_out, files = [], [], [], []
    for f in a.data:
        ss = kcts.read(f)
        files.append("%s (%d samples)" % (os.path.basename(f), len(ss)))
        for s in ss:
            s["ring"] = ring_labels(s)
            if s["kind"] == 0:
                renders.append(s)
            elif s["fold"] != a.holdout_fold:
                photos.append(s)
            else:
                held_out.append(s)
    # a fixed share of the renders is kept apart to watch the training
    order = rng.permutation(len(renders))
    nval = max(1, len(renders) // 20)
    val = [renders[i] for i in order[:nval]]
    renders = [renders[i] for i in order[nval:]]
    print("train_points: %d renders (+%d apart), %d photo views (fold %s held out)" %
          (len(renders), len(val), len(photos), a.holdout_fold if a.holdout_fold >= 0 else "none"),
          file=sys.stderr)

    model = PointNet(a.arch)
    if a.init:
        missing, unexpected = model.load_state_dict(torch.load(a.init), strict=False)
        if unexpected or any(not k.startswith("context.") for k in missing):
            sys.exit("train_points: %s does not fit --arch %s" % (a.init, a.arch))
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=a.lr, total_steps=a.steps,
                                                pct_start=0.05 if a.init else 0.15)
    rby = batches_by_size(renders)
    pby = batches_by_size(photos)
    t0 = time.time()
    avg = None
    for step in range(a.steps):
        use_photo = photos and rng.random() < a.photo_share
        pool = pby if use_photo else rby
        sizes = list(pool.keys())
        w = np.array([len(pool[s]) for s in sizes], np.float64)
        size = sizes[int(rng.choice(len(sizes), p=w / w.sum()))]
        idx = rng.choice(pool[size], size=min(BATCH.get(size, 12), len(pool[size])), replace=False)
        src = photos if use_photo else renders
        x, y = make_batch(src, idx, rng, a.crop, a.cut if use_photo else 0.0)
        x, y = augment(x, y, rng, a.photo_aug if use_photo else 1.0, a.keep_pad)
        loss, _ = loss_of(model, x, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        avg = float(loss) if avg is None else 0.98 * avg + 0.02 * float(loss)
        if step % 50 == 0 or step == a.steps - 1:
            el = time.time() - t0
            print("\rtrain_points: step %d/%d loss %.4f  %.0f s (%.0f s left)   " %
                  (step + 1, a.steps, avg, el, el / (step + 1) * (a.steps - step - 1)),
                  end="", file=sys.stderr)
    print("", file=sys.stderr)
    acc, perfect, n = evaluate(model, val)
    print("train_points: renders kept apart: %.4f%% of points, %d/%d boards perfect" %
          (100 * acc, perfect, n), file=sys.stderr)
    # the photos' views as the reader sees them (no augmentation): those trained on (a
    # training figure, to tell a model that cannot fit the photos from one that does not
    # carry over) and, with --holdout-fold, the fold's (never trained on)
    fit = evaluate(model, photos) if photos else None
    held = evaluate(model, held_out) if held_out else None
    for name, r in (("trained on", fit), ("held out (fold %d)" % a.holdout_fold, held)):
        if r:
            print("train_points: photo views %s: %.4f%% of points, %d/%d views perfect" %
                  (name, 100 * r[0], r[1], r[2]), file=sys.stderr)

    model.eval()
    base = os.path.splitext(a.out)[0]
    torch.save(model.state_dict(), base + ".pt")
    dummy = torch.zeros(1, 3, 21 * 16, 21 * 16)
    torch.onnx.export(model, dummy, a.out, opset_version=11, input_names=["view"],
                      output_names=["logits"], do_constant_folding=True,
                      dynamic_axes={"view": {2: "h", 3: "w"}, "logits": {2: "oh", 3: "ow"}})
    meta = dict(model=os.path.basename(a.out), cell_px=16, margin=1,
                classes=["empty", "black", "white", "covered", "off"], data=files,
                holdout_fold=a.holdout_fold, init=os.path.basename(a.init) if a.init else None,
                arch=a.arch, photo_aug=a.photo_aug, keep_pad=a.keep_pad, cut=a.cut, steps=a.steps, lr=a.lr, photo_share=a.photo_share, seed=a.seed, crop=a.crop,
                commit=git_commit(), torch=torch.__version__,
                params=sum(p.numel() for p in model.parameters()),
                renders_apart=dict(points=round(100 * acc, 4), perfect=perfect, boards=n),
                photos_trained_on=dict(points=round(100 * fit[0], 4), perfect=fit[1], views=fit[2]) if fit else None,
                photos_held_out=dict(points=round(100 * held[0], 4), perfect=held[1], views=held[2]) if held else None,
                seconds=round(time.time() - t0))
    with open(base + ".json", "w") as f:
        json.dump(meta, f, indent=1)
    print("train_points: wrote %s (%d bytes)" % (a.out, os.path.getsize(a.out)), file=sys.stderr)


if __name__ == "__main__":
    main()
