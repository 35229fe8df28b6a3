#!/usr/bin/env bash
# make demo: the station's main job on the bundled sample. Renders footage of
# samples/games/demo.sgf (a physical board filmed by a webcam, hands bringing the stones;
# the game's first DEMO_MOVES moves, then two passes, dead stones lifted and the Chinese
# end signals) into BUILD/demo (generated at demo time, never committed), records it with
# `kifucam record`, and prints the record, the count, how many moves match the source, the
# count of the record by `kifucam score` and the path of a picture of the final position
# (BUILD/demo/demo-count.png).
#   DEMO_MOVES=N   moves of the sample to play (default 60; "all" for the whole game,
#                  which takes several minutes)
set -euo pipefail
build=${1:-build}
bin="$build/app/kifucam"
game=samples/games/demo.sgf
moves=${DEMO_MOVES:-60}
out="$build/demo"
footage="$out/footage-$moves"
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

echo "== kifucam record --input $footage --fps 15 --sgf $record"
rm -f "$record"
"$bin" record --input "$footage" --fps 15 --sgf "$record" --rules korean --komi 6.5 \
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
