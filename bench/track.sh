#!/bin/bash
# bench/track.sh BUILD_DIR: vision tracking (bench_track): 1080p tracking speed on one core,
# then rendered footage (kifucam-render, seeds not used for tuning): false board_lost
# with the truth's geometry (hands over a crowded board included), a third of a cell
# followed back, and hands marked occluded. Run by `make bench` once bench/CMakeLists.txt
# lists "track"; skips visibly without its binaries or ../shared/data.
set -u
BUILD=${1:-build}
BIN="$BUILD/bench/bench_track"
[ -x "$BIN" ] || BIN="$BUILD/bench_track"
if [ ! -x "$BIN" ]; then
  echo "track bench: $BUILD/bench/bench_track is not built" >&2
  exit 1
fi
HERE=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${KIFUCAM_SHARED:-$HERE/../shared}
echo "== track: speed (target: tracking <= 2 ms per 1080p frame)"
FRAME="$SHARED/data/photos/gomrade/images/gomrade_testing_sequence_11.jpg"
if [ -f "$FRAME" ]; then
  "$BIN" speed "$FRAME"
else
  echo "SKIP: $FRAME is absent (set KIFUCAM_SHARED)"
fi
RENDER="$BUILD/render/kifucam-render"
if [ ! -x "$RENDER" ]; then
  echo "SKIP: $RENDER is not built"
  exit 0
fi
TMP=$(mktemp -d /tmp/kc_bench_track_XXXXXX)
trap 'rm -rf "$TMP"' EXIT
echo "== track: a long game (250 moves of demo.sgf, arms over a crowded board late on;"
echo "   target: no board_lost, a third of a cell followed back)"
"$RENDER" "$HERE/samples/games/demo.sgf" --out "$TMP/long" --seed 1 --moves 250 --fps 5 \
  --size 640x360 >/dev/null 2>&1 || echo "render long failed"
"$BIN" lost 8 "$TMP/long"
echo "== track: hands (held-out seeds; target: no covered point read, none unmarked)"
for spec in "side 101 blue" "steep 103 warm" "above 107 shadow" "steep 109 green" \
            "side 113 uneven" "above 127 yellow" "steep 131 cool" "side 137 pink"; do
  set -- $spec
  "$RENDER" "$HERE/samples/games/demo.sgf" --out "$TMP/$1_$2" --seed "$2" --view "$1" \
    --light "$3" --moves 40 --pace 0.1 --fps 10 >/dev/null 2>&1 || echo "render $spec failed"
done
"$BIN" occlusion 3 "$TMP"/*_[0-9]*
