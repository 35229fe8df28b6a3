#!/usr/bin/env bash
# bench/station.sh BUILD_DIR: the station's speed (frames per second on 19x19 snapshots,
# share of time per stage, the SGF rewritten and fsync'd after every move) and the latency
# from the hand leaving the board to the move being recorded (footage time), on the sample
# games and, when ../shared/data is present, 20 more real games (STATION_GAMES=N for more).
set -uo pipefail
build=${1:-build}
here=$(cd "$(dirname "$0")/.." && pwd)
cmake --build "$build" --target bench_station -j2 >/dev/null || { echo "bench_station: build failed"; exit 1; }
shared=${KIFUCAM_SHARED:-$here/../shared}
args=("$here"/samples/games/*.sgf)
if [ -f "$shared/data/games/tygem/Kifu2005-12.sgf" ]; then
  args+=(--collection "$shared/data/games/tygem/Kifu2005-12.sgf" --games "${STATION_GAMES:-20}")
fi
"$build/bench/bench_station" --sgf-dir "${TMPDIR:-/tmp}" "${args[@]}"
