"""kcts.py: read the sample files kifucam-traingen writes (format in train/traingen.c)."""
import struct

import numpy as np

LABEL_NAMES = ("empty", "black", "white", "covered", "off")
UNKNOWN = 255


def read(path):
    """A list of samples: dicts with size, cell, margin, kind, fold, src, view (H x W x 3
    uint8, BGR) and labels (size x size uint8)."""
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
            size, cell, margin, kind, fold, src, side, _ = struct.unpack("<8i", hdr)
            vb, lb = f.read(side * side * 3), f.read(size * size)
            if len(vb) < side * side * 3 or len(lb) < size * size:
                break  # a file still being written: its last sample is not whole yet
            view = np.frombuffer(vb, np.uint8).reshape(side, side, 3)
            labels = np.frombuffer(lb, np.uint8).reshape(size, size)
            out.append(dict(size=size, cell=cell, margin=margin, kind=kind, fold=fold,
                            src=src, view=view, labels=labels))
    return out
