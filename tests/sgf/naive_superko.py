#!/usr/bin/env python3
"""naive_superko.py: an independent check of `kifucam check --rules chinese`.

Reads SGF collections with its own tiny reader (regular expressions over the main line:
the files it is meant for have no variations), replays each game on a plain list board
with flood-fill captures, and lists every move whose resulting whole-board position
(stones only) equals an earlier one of the same game (the initial empty board included):
exactly the moves positional superko forbids. Nothing here shares code with kifucam.

usage: naive_superko.py KIFUCAM_BIN FILE.sgf...
Compares its list with the illegal moves `KIFUCAM_BIN check FILES --rules chinese`
prints; exit 0 when the two sets are equal (and non-contradictory), 1 otherwise,
77 when no file is given (ctest's skip).
"""
import re
import subprocess
import sys

MOVE = re.compile(rb';\s*([BW])\[([a-z]{0,2})\]')
SIZE = re.compile(rb'SZ\[(\d+)\]')


def neighbours(p, n):
    x, y = p % n, p // n
    if x > 0:
        yield p - 1
    if x < n - 1:
        yield p + 1
    if y > 0:
        yield p - n
    if y < n - 1:
        yield p + n


_NB = {}


def neighbour_table(n):
    if n not in _NB:
        _NB[n] = [list(neighbours(p, n)) for p in range(n * n)]
    return _NB[n]


def group(board, p, nb):
    """The chain at p and whether it has a liberty (the walk stops at the first one)."""
    col = board[p]
    seen = {p}
    stack = [p]
    while stack:
        q = stack.pop()
        for r in nb[q]:
            if board[r] == 0:
                return seen, True
            if board[r] == col and r not in seen:
                seen.add(r)
                stack.append(r)
    return seen, False


def repeats(game, n):
    """1-based numbers, colours and points of the moves that recreate a position."""
    nb = neighbour_table(n)
    board = bytearray(n * n)
    seen = {bytes(board)}
    out = []
    for i, (c, pt) in enumerate(game, 1):
        if pt in (b'', b'tt'):
            continue
        col = 1 if c == b'B' else 2
        p = (pt[1] - 97) * n + (pt[0] - 97)
        if board[p]:
            raise SystemExit('occupied point in a record: %r' % (game[i - 1],))
        board[p] = col
        for r in nb[p]:
            if board[r] == 3 - col:
                g, libs = group(board, r, nb)
                if not libs:
                    for q in g:
                        board[q] = 0
        g, libs = group(board, p, nb)
        if not libs:
            for q in g:
                board[q] = 0
        key = bytes(board)
        if key in seen:
            out.append((i, c.decode(), pt.decode()))
        seen.add(key)
    return out


def human(pt, n):
    """SGF letters as `check` prints them: the board's edge letters without I, row 1 at
    the bottom ('pd' on 19x19 is 'Q16')."""
    cols = 'ABCDEFGHJKLMNOPQRSTUVWXYZ'
    x, y = ord(pt[0]) - ord('a'), ord(pt[1]) - ord('a')
    return '%s%d' % (cols[x], n - y)


def main():
    if len(sys.argv) < 3:
        print('SKIP: no files (usage: naive_superko.py KIFUCAM_BIN FILE.sgf...)')
        return 77
    binary, files = sys.argv[1], sys.argv[2:]
    expected = set()
    games = 0
    for f in files:
        data = open(f, 'rb').read()
        trees = data.split(b'(;')[1:]
        for gi, t in enumerate(trees, 1):
            m = SIZE.search(t)
            n = int(m.group(1)) if m else 19
            games += 1
            for (mv, c, pt) in repeats(MOVE.findall(t), n):
                expected.add('%s:%d: move %d (%s %s)' % (f, gi, mv, c, human(pt, n)))
    res = subprocess.run([binary, 'check', '--rules', 'chinese'] + files,
                         capture_output=True, text=True)
    got = set()
    for line in res.stdout.splitlines():
        if line.startswith('checked '):
            continue
        head, _, reason = line.rpartition(': ')
        if 'superko' not in reason:
            print('not a superko line: ' + line)
            return 1
        got.add(head)
    print('naive: %d games, %d moves recreate an earlier position; kifucam lists %d'
          % (games, len(expected), len(got)))
    for x in sorted(expected - got):
        print('missed by kifucam: ' + x)
    for x in sorted(got - expected):
        print('listed by kifucam only: ' + x)
    ok = expected == got and res.returncode == (1 if expected else 0)
    print('OK: the two sets are equal' if ok else 'FAIL (kifucam exit %d)' % res.returncode)
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
