#!/usr/bin/env bash
# make demo: the station's main job on the bundled sample. Until recording lands, it
# checks and scores the bundled sample game.
set -euo pipefail
build=${1:-build}
bin="$build/app/kifucam"
game=samples/games/demo.sgf
echo "== kifucam check $game"
"$bin" check "$game" || true
echo "== kifucam score $game --rules chinese"
"$bin" score "$game" --rules chinese || true
