#!/bin/bash
# bench/signals.sh BUILD_DIR: the end signals beside the board on tables of every kind.
# Clips of the first SIG_MOVES moves of samples/games/demo.sgf (default 6) with both
# players' end signals (`render --end pass`), 640x360 at 15 fps, seeds SIG_SEEDS (default
# 21-40, views steep and above in turn), each on the seed's own table and on a dark, a
# white-cloth and a pale one (`render --table`); each clip recorded with no calibration.
# Counts the clips whose end was recorded (two passes and a counted result), those that
# ended in a resignation (none is in the footage: a false one), and those whose end was
# lost (exit 1: one signal or none seen). Rendered once into BUILD_DIR/bench-signals.
set -u
BUILD=${1:-build}
BIN="$BUILD/app/kifucam"
[ -x "$BIN" ] || { echo "signals bench: $BIN is not built" >&2; exit 1; }
HERE=$(cd "$(dirname "$0")/.." && pwd)
OUT=${SIG_OUT:-$BUILD/bench-signals}   # SIG_OUT: the clips (and their records) elsewhere
MOVES=${SIG_MOVES:-6}
SEEDS=${SIG_SEEDS:-$(seq 21 40)}
mkdir -p "$OUT"
RSTAMP=$( { git -C "$HERE" rev-parse HEAD:render && git -C "$HERE" diff HEAD -- render; } 2>/dev/null | md5sum | cut -d' ' -f1)
echo "== end signals: demo.sgf, $MOVES moves, --end pass, seeds $(echo $SEEDS | awk '{print $1 ".." $NF}'), 4 tables each"
declare -A seen lost resign clips
for table in own dark cloth pale; do
  seen[$table]=0; lost[$table]=0; resign[$table]=0; clips[$table]=0
done
for s in $SEEDS; do
  view=steep; [ $((s % 2)) -eq 0 ] && view=above
  for table in own dark cloth pale; do
    d="$OUT/s$s-$table"
    topt=(); [ "$table" != own ] && topt=(--table "$table")
    if [ ! -f "$d/truth.txt" ] || [ "$(cat "$d/renderer" 2>/dev/null)" != "$RSTAMP" ]; then
      rm -rf "$d"
      "$BIN" render "$HERE/samples/games/demo.sgf" --out "$d" --size 640x360 --fps 15 --pace 0.3 \
        --seed "$s" --view "$view" --moves "$MOVES" --end pass "${topt[@]}" >/dev/null 2>&1 \
        || { echo "  s$s $table: render failed"; continue; }
      echo "$RSTAMP" > "$d/renderer"
    fi
    "$BIN" record --input "$d" --fps 15 --sgf "$d.sgf" > "$d.out" 2>"$d.err"
    rc=$?
    clips[$table]=$((clips[$table] + 1))
    re=$(grep -o 'RE\[[^]]*\]' "$d.sgf" 2>/dev/null | head -1)
    passes=$(grep -o ';[BW]\[\]' "$d.sgf" 2>/dev/null | wc -l)
    what="end recorded"
    if [[ "$re" == *+R* ]]; then
      resign[$table]=$((resign[$table] + 1)); what="a false resignation ($re)"
    elif [ "$rc" -ne 0 ] || [ "$passes" -lt 2 ] || [ -z "$re" ]; then
      lost[$table]=$((lost[$table] + 1)); what="end lost (exit $rc, $passes passes)"
    else
      seen[$table]=$((seen[$table] + 1))
    fi
    [ "$what" != "end recorded" ] && echo "  s$s ($view) $table: $what"
  done
done
tot_seen=0; tot=0; tot_res=0
for table in own dark cloth pale; do
  echo "  table $table: end recorded on ${seen[$table]} of ${clips[$table]}, lost ${lost[$table]}, false resignations ${resign[$table]}"
  tot_seen=$((tot_seen + seen[$table])); tot=$((tot + clips[$table])); tot_res=$((tot_res + resign[$table]))
done
echo "end signals: the end recorded on $tot_seen of $tot clips; false resignations $tot_res"
