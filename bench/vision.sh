#!/bin/bash
# bench/vision.sh BUILD_DIR: accuracy of vision/ on the shared photos (per set and overall,
# automatic mode and with given corners; held-out photos apart) and speed on 1920x1080
# frames on one core, hands over rendered footage (kifucam-render). Run by `make bench`;
# skips visibly without ../shared/data.
set -u
BUILD=${1:-build}
BIN="$BUILD/bench/bench_vision"
[ -x "$BIN" ] || BIN="$BUILD/bench_vision"
if [ ! -x "$BIN" ]; then
  echo "vision bench: $BUILD/bench/bench_vision is not built" >&2
  exit 1
fi
HERE=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${KIFUCAM_SHARED:-$HERE/../shared}
echo "== vision: accuracy (targets: automatic >= 99.9% points and >= 90% boards perfect;"
echo "   given corners >= 99.95% points)"
if [ -d "$SHARED/data/photos" ]; then
  "$BIN" accuracy "$SHARED/data" || exit 1
  FRAME="$SHARED/data/photos/gomrade/images/gomrade_testing_sequence_11.jpg"
else
  echo "SKIP: $SHARED/data is absent (set KIFUCAM_SHARED)"
  FRAME=""
fi
echo "== vision: speed (targets: tracking <= 2 ms, cold detection <= 50 ms)"
if [ -n "$FRAME" ]; then
  "$BIN" speed "$FRAME"
else
  echo "SKIP: no frame to time without ../shared/data"
fi
echo "== vision: hands over rendered footage (target: no covered point read as a stone,"
echo "   no hand-free frame flagged)"
RENDER="$BUILD/render/kifucam-render"
if [ -x "$RENDER" ]; then
  TMP=$(mktemp -d /tmp/kc_bench_vision_XXXXXX)
  for spec in "side 11 uneven" "steep 17 blue" "above 23 shadow" "steep 29 pink"; do
    set -- $spec
    "$RENDER" "$HERE/samples/games/demo.sgf" --out "$TMP/$1_$2" --seed "$2" --view "$1" \
      --light "$3" --moves 30 --pace 0.1 --fps 10 >/dev/null 2>&1 || echo "render $spec failed"
  done
  "$BIN" occlusion "$TMP"/*_*
  rm -rf "$TMP"
else
  echo "SKIP: $RENDER is not built"
fi
