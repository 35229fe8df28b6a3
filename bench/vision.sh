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
  # read as `kifucam detect` reads a photo (vis_config_for_photo); imago and gomrade were
  # never trained on (their licences do not allow it)
  "$BIN" accuracy "$SHARED/data" --photo || exit 1
  echo "== vision: roboflow-corners, the grid against the labelled corners (targets: 97% within"
  echo "   half a spacing, 90% within a quarter); the reader never trained on these photos"
  "$BIN" corners "$SHARED/data" --photo | tail -5
  # roboflow-stones is in the reader's training: each photo is read by the model of
  # `make train` that was trained without its fold (VISION_FOLD_MODELS, default
  # BUILD/train-data/models), never by the shipped one
  FOLDS=${VISION_FOLD_MODELS:-$BUILD/train-data/models}
  echo "== vision: roboflow-stones held out (target: 90% of photos with both counts exact)"
  if [ -f "$FOLDS/fold4.onnx" ]; then
    "$BIN" stones "$SHARED/data" --fold-models "$FOLDS" --folds "$HERE/train/folds.tsv" --photo | tail -5
  else
    echo "SKIP: no fold models in $FOLDS (make train makes them; VISION_FOLD_MODELS=DIR)"
  fi
  FRAME="$SHARED/data/photos/gomrade/images/gomrade_testing_sequence_11.jpg"
else
  echo "SKIP: $SHARED/data is absent (set KIFUCAM_SHARED)"
  FRAME=""
fi
echo "== vision: speed (targets: tracking <= 2 ms, cold detection <= 50 ms)"
if [ -n "$FRAME" ]; then
  "$BIN" speed "$FRAME"
  # a 1080p frame as kifucam record reads it: decoded at half size (--decode-min 960x540)
  "$BIN" speed "$FRAME" 960x540
else
  echo "SKIP: no frame to time without ../shared/data"
fi
# Cold board finding on rendered stills of real games (../shared/data/games/tygem, games
# with at least 240 moves, 40 spread over the file): 24 nearly full boards after 250 moves seen from the
# side (1280x720, seeds 701.., lights in turn), and 16 boards after 1 move at 640x360
# (above/steep in turn, seeds 801..; what `kifucam record` first sees). Rendered once into
# BUILD_DIR/bench-vision-find.
KC="$BUILD/app/kifucam"
if [ -x "$KC" ] && [ -d "$SHARED/data/games/tygem" ]; then
  FIND="$BUILD/bench-vision-find"
  mkdir -p "$FIND/games"
  [ -f "$FIND/games/g40.sgf" ] || python3 "$HERE/bench/pick_games.py" "$SHARED/data/games/tygem/Kifu2005-11.sgf" "$FIND/games" 40 240 g
  lights=(warm cool daylight uneven shadow blue green pink yellow)
  for k in $(seq 1 24); do
    d="$FIND/side/g$k"; g=$(printf "%s/games/g%02d.sgf" "$FIND" "$k")
    [ -f "$d/truth.txt" ] || { mkdir -p "$FIND/side"; "$KC" render "$g" --out "$d" --view side --moves 250 \
      --still --seed $((700 + k)) --light "${lights[$((k % 9))]}" >/dev/null 2>&1 || echo "render side $k failed"; }
  done
  for k in $(seq 1 16); do
    d="$FIND/empty/g$k"; g=$(printf "%s/games/g%02d.sgf" "$FIND" "$((k + 24))")
    view=above; [ $((k % 2)) -eq 0 ] && view=steep
    [ -f "$d/truth.txt" ] || { mkdir -p "$FIND/empty"; "$KC" render "$g" --out "$d" --view $view \
      --size 640x360 --moves 1 --still --seed $((800 + k)) >/dev/null 2>&1 || echo "render empty $k failed"; }
  done
  echo "== vision: cold board finding, 24 nearly full boards from the side (250 moves of real games)"
  "$BIN" footage "$FIND"/side/g* | grep -v '^rendered'
  echo "== vision: cold board finding, 16 boards after one move at 640x360 (above/steep)"
  "$BIN" footage "$FIND"/empty/g* | grep 'grid right'
else
  echo "SKIP: board finding on rendered stills ($KC not built or no ../shared/data/games)"
fi
# Crowded boards of the renderer's wide variety (tests/vision/crowded.h; no shared data):
# 20 each of 9x9, 13x13, 19x19, 90% of the points holding a stone, read as a photo
echo "== vision: board finding on 60 crowded renders (a test tool, not evidence about real boards)"
"$BIN" crowded 20 | tail -4
echo "== vision: the same on 60 renders kept apart from board finding's development (seeds 101-120)"
"$BIN" crowded 20 101 | tail -1
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
