#!/bin/bash
# bench/record.sh BUILD_DIR: `kifucam record` end to end on generated 1920x1080 footage, on
# one core (taskset): frames per second, speed against real time (target >= 10x), the
# share of time per stage, the moves right against the source game, and the latency from
# the hand leaving the board to the move being written, in footage time (target <= 0.5 s;
# min / median / 90th percentile / max). The footage (BENCH_MOVES moves of
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
if [ ! -f "$FOOT/truth.txt" ]; then
  echo "== rendering $MOVES moves of demo.sgf at 1920x1080, 30 fps (once)"
  rm -rf "$FOOT"
  "$BIN" render "$HERE/samples/games/demo.sgf" --out "$FOOT" --size 1920x1080 --fps 30 \
    --seed 2 --pace 0.5 --moves "$MOVES" 2>/dev/null || { echo "record bench: render failed" >&2; exit 1; }
fi
echo "== kifucam record on $(ls "$FOOT" | grep -c '^frame_') frames of 1920x1080 (one core)"
taskset -c 0 "$BIN" record --input "$FOOT" --fps 30 --sgf "$OUT/bench.sgf" --format json \
  > "$OUT/events.jsonl" || { echo "record bench: record failed" >&2; exit 1; }
python3 - "$OUT/events.jsonl" "$HERE/samples/games/demo.sgf" "$OUT/bench.sgf" "$MOVES" <<'EOF'
import json, re, sys
ev = [json.loads(l) for l in open(sys.argv[1]) if l.startswith('{')]
st = [e for e in ev if e.get('event') == 'stats'][-1]
ms = st['ms']
tot = sum(ms.values()) or 1
print("frames %d in %.2f s wall: %.1f fps, %.1fx real time; CPU %.2f s: %.1f fps, %.1fx real "
      "time (target >= 10x)" % (st['frames'], st['seconds'], st['fps'], st['speed'],
                                st['cpu_seconds'], st['cpu_fps'], st['cpu_speed']))
print("CPU time per stage: " + ", ".join("%s %.1f%% (%.2f ms/frame)" % (k, 100 * v / tot, v / max(st['frames'], 1))
                                      for k, v in ms.items()))
lat = sorted(e['t'] - e['t_hand'] for e in ev if e.get('event') == 'move' and 't_hand' in e)
if lat:
    q = lambda p: lat[min(len(lat) - 1, int(p * len(lat)))]
    print("latency (hand off the board -> move written, footage s): min %.3f median %.3f "
          "p90 %.3f max %.3f over %d moves (target <= 0.5)" % (lat[0], q(0.5), q(0.9), lat[-1], len(lat)))
mv = lambda p: re.findall(r';\s*([BW]\[[a-s]{0,2}\])', open(p).read())
src, rec = mv(sys.argv[2])[:int(sys.argv[4])], mv(sys.argv[3])
print("moves right: %d / %d" % (sum(1 for a, b in zip(src, rec) if a == b), len(src)))
EOF
