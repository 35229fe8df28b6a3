#!/usr/bin/env bash
# make demo: the station's main job on the bundled sample, a whole game to its count.
# Renders footage of samples/games/demo9.sgf (a whole 9x9 game, GNU Go against itself:
# samples/games/README.md) as a webcam would film a physical board (hands bringing the
# stones, captures lifted, the game's own two passes, the dead stones lifted and the
# Chinese end signals) into BUILD/demo (generated at demo time, never committed), records
# it with `kifucam record` under the game's rules and komi, and prints the record, how
# many moves match the source, the station's count against the game's own result, the
# count of the record by `kifucam score` and the path of a picture of the final position
# (BUILD/demo/demo-count.png). About half a minute.
#   DEMO_GAME=FILE  another game (samples/games/demo.sgf: a 357-move 19x19 game between
#                   9-dan players, several minutes whole)
#   DEMO_MOVES=N    play only its first N moves, then two passes (default: all)
set -euo pipefail
build=${1:-build}
bin="$build/app/kifucam"
game=${DEMO_GAME:-samples/games/demo9.sgf}
moves=${DEMO_MOVES:-all}
name=$(basename "$game" .sgf)
out="$build/demo"
footage="$out/footage-$name-$moves"
record="$out/demo-record.sgf"
mkdir -p "$out"

render_args=(--size 640x360 --seed 2 --fps 15 --pace 0.3 --end pass)
if [ "$moves" != all ]; then
  render_args+=(--moves "$moves")
fi
if [ ! -f "$footage/truth.txt" ]; then
  echo "== kifucam render $game --out $footage ${render_args[*]}"
  rm -rf "$footage"
  start=$(date +%s)
  "$bin" render "$game" --out "$footage" "${render_args[@]}" 2>/dev/null
  echo "   $(ls "$footage" | grep -c '^frame_') frames in $(( $(date +%s) - start )) s"
else
  echo "== footage already rendered: $footage"
fi

# the game's own rules and komi (RU[], KM[]), as the players would set the station
prop() { tr -d '\n\r' < "$game" | grep -o "$1\\[[^]]*\\]" | head -1 | sed "s/^$1\\[\\(.*\\)\\]$/\\1/"; }
rules=$(prop RU | tr 'A-Z' 'a-z'); rules=${rules:-chinese}
komi=$(prop KM); komi=${komi:-7.5}
echo "== kifucam record --input $footage --fps 15 --sgf $record --rules $rules --komi $komi"
rm -f "$record"
"$bin" record --input "$footage" --fps 15 --sgf "$record" --rules "$rules" --komi "$komi" \
  --black Black --white White

echo
echo "== the record ($record)"
cat "$record"
echo

# Move for move against the source game.
extract() { tr -d '\n\r' < "$1" | grep -o ';[BW]\[[a-s]*\]' | sed 's/^;//'; }
n=$(extract "$record" | wc -l)
if [ "$moves" = all ]; then
  want=$(extract "$game" | wc -l)
else
  want=$moves
fi
same=$(paste -d' ' <(extract "$game" | head -n "$want") <(extract "$record" | head -n "$want") |
  awk '$1 == $2 { s++ } END { print s + 0 }')
echo "== moves right: $same / $want (the record holds $n moves and passes)"
grep -o 'RE\[[^]]*\]' "$record" | sed 's/^/== result in the record: /' || echo "== no result in the record"
if [ "$moves" = all ] && [ -n "$(prop RE)" ]; then
  echo "== the game's own result: $(prop RE)"
fi

# The count of the record as `kifucam score` makes it (the same count as the station's:
# the dead stones agreed there, the record's KD[]), and a picture of the final position.
picture="$out/demo-count.png"
echo
echo "== kifucam score $record --picture $picture"
"$bin" score "$record" --picture "$picture"
re=$(grep -o 'RE\[[^]]*\]' "$record" | head -1 | sed 's/^RE\[\(.*\)\]$/\1/')
scored=$("$bin" score "$record" | head -1)
if [ -n "$re" ] && [ "$re" != "$scored" ]; then
  echo "== the station counted $re, score counts $scored: they differ (a bug)"
fi
echo "== picture of the final position: $picture"
