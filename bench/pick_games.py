#!/usr/bin/env python3
"""bench/pick_games.py FILE OUTDIR COUNT MIN_MOVES PREFIX: the benchmarks' choice of real
games. From an SGF collection (one tygem month), the 19x19 games without handicap stones
and with at least MIN_MOVES moves; COUNT of them spread evenly over the file, written as
OUTDIR/PREFIXnn.sgf (nn from 01)."""
import os
import sys

path, out, want, min_moves, prefix = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
text = open(path, encoding='utf-8', errors='replace').read()
games, depth, start, inval, esc = [], 0, None, False, False
for i, ch in enumerate(text):
    if inval:
        if esc: esc = False
        elif ch == '\\': esc = True
        elif ch == ']': inval = False
        continue
    if ch == '[': inval = True
    elif ch == '(':
        if depth == 0: start = i
        depth += 1
    elif ch == ')':
        depth -= 1
        if depth == 0 and start is not None:
            g = text[start:i + 1]
            if 'SZ[19]' in g and g.count(';B[') + g.count(';W[') >= min_moves and 'AB[' not in g:
                games.append(g)
for k, g in enumerate(games[::max(1, len(games) // want)][:want]):
    open(os.path.join(out, "%s%02d.sgf" % (prefix, k + 1)), 'w').write(g)
