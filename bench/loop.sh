#!/bin/bash
# bench/loop.sh BUILD_DIR: the recording loop as a library (bench_loop, loop/rl_loop.h)
# over the 20 real games of bench/record.sh (their first 30 moves, 640x360 at 15 fps,
# seed g, views steep and above in turn, hands on), with no command line: moves right,
# clips exact, and the CPU per analysed frame of each stage. The footage is the record
# bench's (BUILD_DIR/bench-record/games), rendered here the same way when it is missing
# or of another renderer. Needs ../shared/data (the games); skips without it.
set -u
BUILD=${1:-build}
BIN="$BUILD/app/kifucam"
LOOP="$BUILD/bench/bench_loop"
[ -x "$BIN" ] && [ -x "$LOOP" ] || { echo "loop bench: $BIN or $LOOP is not built" >&2; exit 1; }
HERE=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${KIFUCAM_SHARED:-$HERE/../shared}
if [ ! -d "$SHARED/data/games/tygem" ]; then
  echo "== loop: skipped (no ../shared/data)"
  exit 0
fi
RSTAMP=$( { git -C "$HERE" rev-parse HEAD:render && git -C "$HERE" diff HEAD -- render; } 2>/dev/null | md5sum | cut -d' ' -f1)
git -C "$HERE" rev-parse HEAD:render >/dev/null 2>&1 || RSTAMP="none-$$"
GDIR="$BUILD/bench-record/games"
mkdir -p "$GDIR"
python3 "$HERE/bench/pick_games.py" "$SHARED/data/games/tygem/Kifu2005-12.sgf" "$GDIR" 20 100 game
dirs=()
for sgf in $(ls "$GDIR"/game[0-9][0-9].sgf); do
  g=$(basename "$sgf" .sgf)
  n=${g#game}; n=$((10#$n))
  view=steep; [ $((n % 2)) -eq 0 ] && view=above
  foot="$GDIR/$g-footage"
  if [ ! -f "$foot/truth.txt" ] || [ "$(cat "$foot/renderer" 2>/dev/null)" != "$RSTAMP" ]; then
    rm -rf "$foot"
    "$BIN" render "$sgf" --out "$foot" --size 640x360 --fps 15 --pace 0.3 --seed "$n" \
      --view "$view" --moves 30 2>/dev/null && echo "$RSTAMP" > "$foot/renderer" \
      || { echo "  $g: render failed"; continue; }
  fi
  dirs+=("$foot")
done
echo "== loop: the 20 real games, first 30 moves each, one core"
taskset -c 0 "$LOOP" "${dirs[@]}"
