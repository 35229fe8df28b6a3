# bench/latency.py: the latency of each recorded move against the footage's truth, shared
# by bench/record.sh's scripts (exec'd: defines board_latency).
#
# The hand leaves the board at the last frame of the move's turn, up to the move being
# written, where no point of the board is under it while one was the frame before (the
# truth's occluded= list empties). Measured from the last such frame, a move held back by
# the station on purpose (a bumped stone put back, a capture still being removed) counts
# from the hand's last departure, not its first.
import re


def board_latency(truth_path, moves):
    """moves: the station's move events (n, t). Returns the list of latencies in seconds."""
    frames = []
    pat = re.compile(r'frame \d+ \S+ t=([\d.]+) move=(\d+) hand=\d.* occluded=(\S*)')
    with open(truth_path) as f:
        for line in f:
            m = pat.match(line)
            if m:
                frames.append((float(m.group(1)), int(m.group(2)), m.group(3) in ('', '-')))
    out = []
    for e in moves:
        off = None
        for i in range(1, len(frames)):
            t, n, clear = frames[i]
            if t > e['t'] + 1e-6:
                break
            if n == e['n'] and clear and not frames[i - 1][2]:
                off = t
        if off is not None:
            out.append(e['t'] - off)
    return out
