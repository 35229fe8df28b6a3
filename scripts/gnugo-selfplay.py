#!/usr/bin/env python3
"""GNU Go playing itself: how samples/games/demo9.sgf was made (samples/games/README.md).

    scripts/gnugo-selfplay.py SEED > game.sgf      (Debian's gnugo, /usr/games/gnugo)

9x9, Chinese rules, komi 7.5, GNU Go 3.8 at --level 10 with --seed SEED, genmove for each
side in turn until two passes in a row (or 150 moves); RE[] is GNU Go's final_score. The
same seed gives the same game. demo9.sgf is seed 3.
"""
import subprocess
import sys

COLS = "ABCDEFGHJ"


def main():
    seed = sys.argv[1] if len(sys.argv) > 1 else "3"
    p = subprocess.Popen(["/usr/games/gnugo", "--mode", "gtp", "--level", "10", "--chinese-rules",
                          "--komi", "7.5", "--seed", seed],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def gtp(c):
        p.stdin.write(c + "\n")
        p.stdin.flush()
        lines = []
        while True:
            line = p.stdout.readline()
            if not line:
                sys.exit("gnugo-selfplay: gnugo stopped answering")
            if line.strip() == "" and lines:
                break
            if line.strip():
                lines.append(line.strip())
        if not lines[0].startswith("="):
            sys.exit("gnugo-selfplay: gnugo refused '%s': %s" % (c, lines[0]))
        return lines[0][1:].strip()

    gtp("boardsize 9")
    gtp("clear_board")
    gtp("komi 7.5")
    moves, col, passes = [], "B", 0
    while passes < 2 and len(moves) < 150:
        m = gtp("genmove " + ("black" if col == "B" else "white")).upper()
        if m == "PASS":
            s, passes = "", passes + 1
        else:
            passes = 0
            x, y = COLS.index(m[0]), 9 - int(m[1:])
            s = "abcdefghi"[x] + "abcdefghi"[y]
        moves.append(";%s[%s]" % (col, s))
        col = "W" if col == "B" else "B"
    result = gtp("final_score")
    gtp("quit")
    out = "(;GM[1]FF[4]CA[UTF-8]SZ[9]KM[7.5]RU[Chinese]PB[GNU Go 3.8]PW[GNU Go 3.8]RE[%s]\n" % result
    for i in range(0, len(moves), 10):
        out += "".join(moves[i:i + 10]) + "\n"
    sys.stdout.write(out + ")\n")


if __name__ == "__main__":
    main()
