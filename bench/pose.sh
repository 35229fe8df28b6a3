#!/bin/bash
# bench/pose.sh BUILD_DIR: roboflow-stones as a phone takes a board (bench/pose.py: each
# photo laid on a table at an angle in a 1024x768 frame, its labels moved with it), read
# beside the set as it is, both by the fold models that never saw the photo; the pose's
# cost is said on the photos whose board the photo shows whole. POSE_SEED (default 18),
# POSE_LIGHT=1 adds a colour cast; POSE_KIND=cut reads instead copies whose edge cuts
# through an outer stone (bench/cut.py). Both copies carry the set's truth fixes (a copy
# made before they did, with no OUT/truth saying "fixed", is made again). About a minute
# on 2 cores once the copies are made; skips visibly without ../shared/data or the fold
# models (make train-folds).
set -u
BUILD=${1:-build}
BIN="$BUILD/bench/bench_vision"
if [ ! -x "$BIN" ]; then
  echo "pose bench: $BIN is not built" >&2
  exit 1
fi
HERE=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${KIFUCAM_SHARED:-$HERE/../shared}
FOLDS=${VISION_FOLD_MODELS:-$BUILD/train-data/models}
if [ ! -d "$SHARED/data/photos/roboflow-stones" ]; then
  echo "SKIP: $SHARED/data/photos/roboflow-stones is absent (set KIFUCAM_SHARED)"
  exit 0
fi
if [ ! -f "$FOLDS/fold4.onnx" ]; then
  echo "SKIP: no fold models in $FOLDS (make train-folds makes them; VISION_FOLD_MODELS=DIR)"
  exit 0
fi
PY=${PYTHON:-/usr/bin/python3} # Debian's, with python3-opencv (bootstrap.sh train)
if ! "$PY" -c "import cv2, numpy" 2>/dev/null; then
  echo "SKIP: $PY has no OpenCV binding (scripts/bootstrap.sh bench installs python3-opencv)"
  exit 0
fi
SEED=${POSE_SEED:-18}
LIGHT=""; [ "${POSE_LIGHT:-0}" = 1 ] && LIGHT="--light"
if [ "${POSE_KIND:-pose}" = cut ]; then
  OUT="$BUILD/bench-pose/cut-seed$SEED"
  WHAT=cut
  if [ ! -f "$OUT/cuts.tsv" ] || [ "$(cat "$OUT/truth" 2>/dev/null)" != fixed ]; then
    rm -rf "$OUT"
    "$PY" "$HERE/bench/cut.py" "$SHARED/data" "$OUT" --seed "$SEED" || exit 1
  fi
else
  OUT="$BUILD/bench-pose/seed$SEED${LIGHT:+-light}"
  WHAT=posed
  if [ ! -f "$OUT/poses.tsv" ] || [ "$(cat "$OUT/truth" 2>/dev/null)" != fixed ]; then
    rm -rf "$OUT"
    "$PY" "$HERE/bench/pose.py" "$SHARED/data" "$OUT" --seed "$SEED" $LIGHT || exit 1
  fi
fi
# the copies' labels carry truth_fixes.h's fixes, moved with them (pose.py's fixed_lines):
# the set as it is is read with the fixes, the copies with --raw-truth (their labels are
# already the fixed truth, and the fixes name the set's own pixels)
ARGS=(--fold-models "$FOLDS" --folds "$HERE/train/folds.tsv" --photo)
echo "== pose: roboflow-stones as it is and $WHAT (seed $SEED${LIGHT:+, coloured light}), read by the fold models"
VIS_VERBOSE=1 "$BIN" stones "$SHARED/data" "${ARGS[@]}" > "$OUT/as-is.txt" &
A=$!
VIS_VERBOSE=1 "$BIN" stones "$OUT" --raw-truth "${ARGS[@]}" > "$OUT/$WHAT.txt" &
B=$!
wait $A || { echo "pose bench: bench_vision failed on the set as it is" >&2; exit 1; }
wait $B || { echo "pose bench: bench_vision failed on the $WHAT set" >&2; exit 1; }
"$PY" "$HERE/bench/pose_compare.py" "$OUT/as-is.txt" "$OUT/$WHAT.txt" "$HERE/train/folds.tsv" "$WHAT"
