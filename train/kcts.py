"""kcts.py: read the sample files kifucam-traingen writes (format in train/traingen.c)."""
import struct

LABEL_NAMES = ("empty", "black", "white", "covered", "off")
UNKNOWN = 255


def read(path, raw=False):
    """A list of samples: dicts with size, cell, margin, kind, fold, src, side, view (H x W
    x 3 uint8, BGR), labels (size x size uint8) and ring_labels (the margin ring's 4*size+4
    labels in vis_reading_t's order, or None when the file has none: --ring-hands 0).
    raw: view, labels and ring_labels as the file's bytes (no numpy: for the tests)."""
    if not raw:
        import numpy as np
    out = []
    with open(path, "rb") as f:
        if f.read(4) != b"KCTS":
            raise ValueError("%s: not a kifucam-traingen file" % path)
        (ver,) = struct.unpack("<i", f.read(4))
        if ver != 1:
            raise ValueError("%s: version %d" % (path, ver))
        while True:
            hdr = f.read(32)
            if len(hdr) < 32:
                break
            size, cell, margin, kind, fold, src, side, has_ring = struct.unpack("<8i", hdr)
            nr = 4 * size + 4 if has_ring else 0
            vb, lb, rb = f.read(side * side * 3), f.read(size * size), f.read(nr)
            if len(vb) < side * side * 3 or len(lb) < size * size or len(rb) < nr:
                break  # a file still being written: its last sample is not whole yet
            if raw:
                view, labels, ring = vb, lb, rb if has_ring else None
            else:
                view = np.frombuffer(vb, np.uint8).reshape(side, side, 3)
                labels = np.frombuffer(lb, np.uint8).reshape(size, size)
                ring = np.frombuffer(rb, np.uint8) if has_ring else None
            out.append(dict(size=size, cell=cell, margin=margin, kind=kind, fold=fold,
                            src=src, side=side, view=view, labels=labels, ring_labels=ring))
    return out


# A picture's edge cutting a board (train_points.py and stone_centres.py --cut): one side
# of the view blacked out from a place within CUT_LINES lines of the board's edge line on
# it; each script labels what the cut leaves its own way.
CUT_LINES = 4


def cut_place(S, M, P, rng):
    """Where a cut falls in a view of a size-S board (M blocks of margin, P pixels a block):
    (e, k), the view turned by rot90 k times so that the cut side is the right one, and its
    pixels at e or beyond cut (the board's far end, half a line beyond its edge line, lies
    at (M + S) P)."""
    hi = (M + S) * P
    e = float(rng.uniform(hi - CUT_LINES * P, hi))
    return e, int(rng.integers(4))
