#!/bin/bash
# bench/record.sh BUILD_DIR: `kifucam record` end to end on generated 1920x1080 footage, on
# one core (taskset), with the default speed options and with every frame decoded at full
# size: frames per second, speed against real time (target >= 10x), the share of time per
# stage, the moves right against the source game, and the latency from the hand leaving
# the board to the move being written, in footage time (target <= 0.5 s; min / median /
# 90th percentile / max; as the station saw it, and against the footage's truth).
# BENCH_GAMES=0 skips the many-games part. The footage (BENCH_MOVES moves of
# samples/games/demo.sgf at 30 fps, default 12) is rendered once into BUILD_DIR/bench-record.
set -u
BUILD=${1:-build}
BIN="$BUILD/app/kifucam"
if [ ! -x "$BIN" ]; then
  echo "record bench: $BIN is not built" >&2
  exit 1
fi
HERE=$(cd "$(dirname "$0")/.." && pwd)
MOVES=${BENCH_MOVES:-12}
OUT="$BUILD/bench-record"
FOOT="$OUT/footage-1080p-$MOVES"
mkdir -p "$OUT"
# Footage is rendered once and kept, stamped with the renderer it came from (render/'s
# tree in git, and its uncommitted changes): footage of an older renderer is rendered
# again, never measured (it once kept a white stone laid half over a black one after the
# renderer no longer did). Without git, always rendered afresh.
RSTAMP=$( { git -C "$HERE" rev-parse HEAD:render && git -C "$HERE" diff HEAD -- render; } 2>/dev/null | md5sum | cut -d' ' -f1)
git -C "$HERE" rev-parse HEAD:render >/dev/null 2>&1 || RSTAMP="none-$$"
if [ ! -f "$FOOT/truth.txt" ] || [ "$(cat "$FOOT/renderer" 2>/dev/null)" != "$RSTAMP" ]; then
  echo "== rendering $MOVES moves of demo.sgf at 1920x1080, 30 fps (once)"
  rm -rf "$FOOT"
  "$BIN" render "$HERE/samples/games/demo.sgf" --out "$FOOT" --size 1920x1080 --fps 30 \
    --seed 2 --pace 0.5 --moves "$MOVES" 2>/dev/null || { echo "record bench: render failed" >&2; exit 1; }
  echo "$RSTAMP" > "$FOOT/renderer"
fi
NF=$(ls "$FOOT" | grep -c '^frame_')
# Two runs on the same footage: the defaults (--analyse-fps 10: a third of the 30 fps
# frames looked at, the others never decoded; --decode-min 960x540: JPEG decoded at half
# size), and every frame at full size (--analyse-fps 0 --decode-min 0x0) for comparison.
for mode in default full; do
  args=()
  [ "$mode" = full ] && args=(--analyse-fps 0 --decode-min 0x0)
  echo "== kifucam record on $NF frames of 1920x1080 at 30 fps, one core: $mode ${args[*]:-(--analyse-fps 10 --decode-min 960x540)}"
  taskset -c 0 "$BIN" record --input "$FOOT" --fps 30 --sgf "$OUT/bench-$mode.sgf" --format json \
    "${args[@]}" > "$OUT/events-$mode.jsonl" || { echo "record bench: record failed" >&2; exit 1; }
  python3 - "$OUT/events-$mode.jsonl" "$HERE/samples/games/demo.sgf" "$OUT/bench-$mode.sgf" "$MOVES" "$FOOT/truth.txt" "$NF" "$HERE/bench/latency.py" <<'EOF'
import json, re, sys
exec(open(sys.argv[7]).read())
ev = [json.loads(l) for l in open(sys.argv[1]) if l.startswith('{')]
st = [e for e in ev if e.get('event') == 'stats'][-1]
ms = st['ms']
tot = sum(ms.values()) or 1
nf = int(sys.argv[6])
print("  frames analysed %d of %d; %.2f s wall: %.1fx real time; CPU %.2f s: %.1f fps of footage "
      "(%.1f analysed/s), %.1fx real time (target >= 10x)" % (st['frames'], nf, st['seconds'], st['speed'],
      st['cpu_seconds'], nf / max(st['cpu_seconds'], 1e-9), st['cpu_fps'], st['cpu_speed']))
print("  CPU time per stage: " + ", ".join("%s %.1f%% (%.2f ms/frame)" % (k, 100 * v / tot, v / max(st['frames'], 1))
                                      for k, v in ms.items()))
mv_ev = [e for e in ev if e.get('event') == 'move' and 't_hand' in e]
q = lambda v, p: v[min(len(v) - 1, int(p * len(v)))]
lat = sorted(e['t'] - e['t_hand'] for e in mv_ev)
if lat:
    print("  latency, station (t_hand: the hand seen leaving -> move written, footage s): min %.3f "
          "median %.3f p90 %.3f max %.3f over %d moves (target <= 0.5)" % (lat[0], q(lat, .5), q(lat, .9), lat[-1], len(lat)))
# the footage's truth: move k's hand is out of the picture at the first frame with move=k hand=0
off = {}
for l in open(sys.argv[5]):
    m = re.match(r'frame \d+ \S+ t=([\d.]+) move=(\d+) hand=(\d)', l)
    if m and m.group(3) == '0' and int(m.group(2)) not in off:
        off[int(m.group(2))] = float(m.group(1))
tl = sorted(e['t'] - off[e['n']] for e in mv_ev if e['n'] in off)
if tl:
    print("  latency, truth (hand out of the picture -> move written; < 0: written while the hand "
          "was still in the picture, off the board): min %.3f median %.3f p90 %.3f max %.3f" % (tl[0], q(tl, .5), q(tl, .9), tl[-1]))
tb = sorted(board_latency(sys.argv[5], mv_ev))
if tb:
    print("  latency, truth (the hand off the board: no point under it -> move written): min %.3f "
          "median %.3f p90 %.3f max %.3f, over 0.5 s: %d (target 0)" % (tb[0], q(tb, .5), q(tb, .9), tb[-1], sum(1 for x in tb if x > 0.5)))
mv = lambda p: re.findall(r';\s*([BW]\[[a-s]{0,2}\])', open(p).read())
src, rec = mv(sys.argv[2])[:int(sys.argv[4])], mv(sys.argv[3])
print("  moves right: %d / %d" % (sum(1 for a, b in zip(src, rec) if a == b), len(src)))
EOF
done

# ---- many real games (../shared/data/games/tygem): BENCH_GAMES games (default 20), the
# first BENCH_GAME_MOVES moves of each (default 30), 640x360, seed g (views alternate
# steep/above, lights by seed), hands on. Without a calibration the record's orientation
# is the camera's, so a game counts the best of the 8 board symmetries.
SHARED=${KIFUCAM_SHARED:-$HERE/../shared}
GAMES=${BENCH_GAMES:-20}
[ "$GAMES" -ge 0 ] 2>/dev/null || GAMES=20
GMOVES=${BENCH_GAME_MOVES:-30}
if [ ! -d "$SHARED/data/games/tygem" ]; then
  echo "== record: many games: skipped (no ../shared/data)"
  exit 0
fi
GDIR="$OUT/games"
# footage SGF DIR SEED VIEW [render options]: a game's 640x360 15 fps footage, rendered once
footage() {
  [ -f "$2/truth.txt" ] && [ "$(cat "$2/renderer" 2>/dev/null)" = "$RSTAMP" ] && return 0
  rm -rf "$2"
  "$BIN" render "$1" --out "$2" --size 640x360 --fps 15 --pace 0.3 --seed "$3" --view "$4" \
    "${@:5}" 2>/dev/null && echo "$RSTAMP" > "$2/renderer"
}
mkdir -p "$GDIR"
# always the same 20 (their numbers name the same games whatever BENCH_GAMES says)
python3 "$HERE/bench/pick_games.py" "$SHARED/data/games/tygem/Kifu2005-12.sgf" "$GDIR" 20 100 game
if [ "$GAMES" -eq 0 ]; then
  echo "== record: many games: skipped (BENCH_GAMES=0)"
else
echo "== record: $GAMES real games, first $GMOVES moves each, 640x360 15 fps, hands on"
for sgf in $(ls "$GDIR"/game[0-9][0-9].sgf | head -n "$GAMES"); do
  g=$(basename "$sgf" .sgf)
  n=${g#game}; n=$((10#$n))
  view=steep; [ $((n % 2)) -eq 0 ] && view=above
  foot="$GDIR/$g-footage"
  footage "$sgf" "$foot" "$n" "$view" --moves "$GMOVES" || { echo "$g: render failed"; continue; }
  "$BIN" record --input "$foot" --fps 15 --sgf "$GDIR/$g-rec.sgf" --format json \
    > "$GDIR/$g-events.jsonl" 2>/dev/null
  echo "$g $view $sgf $GDIR/$g-rec.sgf $foot/truth.txt $GDIR/$g-events.jsonl"
done | python3 -c '
import json, re, sys
N = int(sys.argv[1])
exec(open(sys.argv[2]).read())
lat = []
mv = lambda p: re.findall(r";\s*([BW])\[([a-s]{0,2})\]", open(p, errors="replace").read())
def sym(p, k):
    if len(p) != 2: return p
    x, y = ord(p[0]) - 97, ord(p[1]) - 97
    for _ in range(k & 3): x, y = 18 - y, x
    if k & 4: x = 18 - x
    return chr(97 + x) + chr(97 + y)
tot = right = perfect = games = 0
for line in sys.stdin:
    g, view, src, rec, truth, events = line.split()
    try:
        mv_ev = [e for e in map(json.loads, (l for l in open(events) if l.startswith("{")))
                 if e.get("event") == "move"]
        lat += board_latency(truth, mv_ev)
    except OSError:
        pass
    s = mv(src)[:N]
    try: r = mv(rec)
    except OSError: r = []
    best = max(sum(1 for a, b in zip(s, r) if a[0] == b[0] and sym(b[1], k) == a[1]) for k in range(8))
    ok = best == len(s) and len(r) == len(s)
    print("  %s (%s): %d / %d moves right, %d recorded%s" % (g, view, best, len(s), len(r), "" if ok else "  <--"))
    tot += len(s); right += best; perfect += ok; games += 1
print("moves right: %d / %d (%.1f%%); games recorded perfectly: %d / %d" % (right, tot, 100.0 * right / max(tot, 1), perfect, games))
lat.sort()
q = lambda v, p: v[min(len(v) - 1, int(p * len(v)))]
if lat:
    print("latency (the hand off the board -> move written, footage s) over %d moves: min %.3f median %.3f "
          "p90 %.3f p99 %.3f max %.3f, over 0.5 s: %d (target 0)" % (len(lat), lat[0], q(lat, .5), q(lat, .9),
          q(lat, .99), lat[-1], sum(1 for x in lat if x > 0.5)))
' "$GMOVES" "$HERE/bench/latency.py"
fi

# ---- played out: BENCH_FULL of the same games (default 4; 20: all), every move, with the
# end the record's RE[] tells (`--end auto`: both pass and the dead stones lifted, or the
# loser's resignation signal), recorded under the games' rules (Korean, komi 6.5): every
# move right, and the result written against the source's RE[] and against `kifucam score`
# of the source (the station's count is that proposal, confirmed by the stones lifted).
FULL=${BENCH_FULL:-4}
[ "$FULL" -gt 0 ] 2>/dev/null || { echo "== record: played out: skipped (BENCH_FULL=0)"; exit 0; }
FDIR="$OUT/full"
mkdir -p "$FDIR"
echo "== record: $FULL real games played out (every move, --end auto), 640x360 15 fps, hands on"
for sgf in $(ls "$GDIR"/game[0-9][0-9].sgf | head -n "$FULL"); do
  g=$(basename "$sgf" .sgf)
  n=${g#game}; n=$((10#$n))
  view=steep; [ $((n % 2)) -eq 0 ] && view=above
  foot="$FDIR/$g-footage"
  footage "$sgf" "$foot" "$n" "$view" --end auto || { echo "$g: render failed"; continue; }
  "$BIN" record --input "$foot" --fps 15 --rules korean --sgf "$FDIR/$g-rec.sgf" --format json \
    > "$FDIR/$g-events.jsonl" 2>/dev/null
  score=$("$BIN" score "$sgf" --rules korean 2>/dev/null | head -1)
  echo "$g $view $sgf $FDIR/$g-rec.sgf $FDIR/$g-events.jsonl ${score:-?}"
done | python3 -c '
import json, re, sys
mv = lambda p: re.findall(r";\s*([BW])\[([a-s]{0,2})\]", open(p, errors="replace").read())
def sym(p, k):
    if len(p) != 2: return p
    x, y = ord(p[0]) - 97, ord(p[1]) - 97
    for _ in range(k & 3): x, y = 18 - y, x
    if k & 4: x = 18 - x
    return chr(97 + x) + chr(97 + y)
RE = lambda p: (re.findall(r"RE\[([^]]*)\]", open(p, errors="replace").read()) or ["-"])[0]
games = perfect = res_ok = res_score = warned = 0
for line in sys.stdin:
    g, view, src, rec, events, score = line.split()
    # the moves, passes in mid-game included (a pass is an end signal answered by a
    # move), but not the passes that end the game (the source may leave them out)
    def trim(ms):
        while ms and not ms[-1][1]: ms = ms[:-1]
        return ms
    s = trim(mv(src))
    try: r = trim(mv(rec))
    except OSError: r = []
    best = max(sum(1 for a, b in zip(s, r) if a[0] == b[0] and sym(b[1], k) == a[1]) for k in range(8))
    ok = best == len(s) and len(r) == len(s)
    want = RE(src)
    try: got = RE(rec)
    except OSError: got = "-"
    if want.endswith("+Resign"): want = want[:3]
    if got.endswith("+Resign"): got = got[:3]
    try:
        ev = [json.loads(l) for l in open(events) if l.startswith("{")]
    except OSError:
        ev = []
    nw = sum(1 for e in ev if e.get("event") == "warning")
    counted = not want.endswith("+R")
    # a counted game is right as its record says or as its final position counts (the
    # RE[] of the record is what the players agreed, and can be off: game04 left a dead stone)
    right = got == want or (counted and got == score)
    games += 1; perfect += ok; res_ok += got == want; warned += nw > 0
    res_score += right
    print("  %s (%s): %d / %d moves right%s; result %s, the source %s%s; warnings %d%s" % (
        g, view, best, len(s), "" if ok else " (%d recorded)" % len(r), got, want,
        ", kifucam score of the source %s" % score if counted else "", nw,
        "" if ok and right and not nw else "  <--"))
print("games recorded move for move: %d / %d; result right: %d / %d (as the RE[] of the source: %d, "
      "else as its final position counts); games with a warning: %d"
      % (perfect, games, res_score, games, res_ok, warned))
'
