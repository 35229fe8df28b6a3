#!/usr/bin/env bash
# make train: the learned point reader, from its data to the weights that ship
# (train/README.md has the recipe). Long: about 2-3 hours on 2 cores.
#   1 renders (kifucam-traingen render, --variety scenes), TRAIN_RENDERS of them
#   2 the roboflow-stones photos under their grids (when ../shared/data is there)
#   3 a base model on the renders alone
#   4 one model per fold of the photos: the base trained on, besides the renders, the
#     photos of the other folds (train/folds.tsv); these give the held-out figures
#   5 the model that ships: the base trained on the renders and every photo, written to
#     vision/model/points.onnx with its note (points.json)
#   6 the figures: roboflow-stones read by each photo's own fold model (never seen),
#     imago and gomrade (never trained on) by the shipped model
set -euo pipefail
build=${1:-build}
HERE=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${KIFUCAM_SHARED:-$HERE/../shared}
DATA="$build/train-data"
GEN="$build/train/kifucam-traingen"
BENCH="$build/bench/bench_vision"
PY=${PYTHON:-/usr/bin/python3}
RENDERS=${TRAIN_RENDERS:-9000}
BASE_STEPS=${TRAIN_BASE_STEPS:-6000}
TUNE_STEPS=${TRAIN_TUNE_STEPS:-2500}
JOBS=$(nproc)
mkdir -p "$DATA" "$DATA/models"
echo "== 1 renders: $RENDERS in $JOBS streams ($DATA/render-s*.bin)"
per=$(( (RENDERS + JOBS - 1) / JOBS ))
pids=()
for s in $(seq 1 "$JOBS"); do
  f="$DATA/render-s$s-$per.bin"
  [ -f "$f" ] || { "$GEN" render --out "$f.part" --count "$per" --seed "$s" && mv "$f.part" "$f"; } &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
renders=("$DATA"/render-s*-"$per".bin)
photos=()
if [ -d "$SHARED/data/photos/roboflow-stones" ]; then
  echo "== 2 roboflow-stones photos under their grids"
  "$GEN" photos --data "$SHARED/data" --folds "$HERE/train/folds.tsv" --out "$DATA/photos.bin"
  photos=("$DATA/photos.bin")
else
  echo "SKIP: $SHARED/data is absent: the model is trained on renders alone, no held-out figure"
fi
echo "== 3 base model, renders only ($BASE_STEPS steps)"
[ -f "$DATA/models/base.pt" ] || "$PY" "$HERE/train/train_points.py" --data "${renders[@]}" \
  --out "$DATA/models/base.onnx" --steps "$BASE_STEPS" --photo-share 0 --threads "$JOBS"
if [ ${#photos[@]} -gt 0 ]; then
  for k in 0 1 2 3 4; do
    echo "== 4 fold $k held out ($TUNE_STEPS steps from the base)"
    [ -f "$DATA/models/fold$k.onnx" ] || "$PY" "$HERE/train/train_points.py" --data "${renders[@]}" \
      "${photos[@]}" --holdout-fold "$k" --init "$DATA/models/base.pt" --steps "$TUNE_STEPS" \
      --lr 1e-3 --out "$DATA/models/fold$k.onnx" --threads "$JOBS"
  done
fi
echo "== 5 the model that ships"
"$PY" "$HERE/train/train_points.py" --data "${renders[@]}" "${photos[@]}" --init "$DATA/models/base.pt" \
  --steps "$TUNE_STEPS" --lr 1e-3 --out "$DATA/models/final.onnx" --threads "$JOBS" \
  $([ ${#photos[@]} -gt 0 ] || echo --photo-share 0)
cp "$DATA/models/final.onnx" "$HERE/vision/model/points.onnx"
cp "$DATA/models/final.json" "$HERE/vision/model/points.json"
echo "   vision/model/points.onnx: $(stat -c %s "$HERE/vision/model/points.onnx") bytes"
if [ ${#photos[@]} -gt 0 ] && [ -x "$BENCH" ]; then
  echo "== 6 held-out figures"
  "$BENCH" stones "$SHARED/data" --fold-models "$DATA/models" --folds "$HERE/train/folds.tsv"
  "$BENCH" accuracy "$SHARED/data" --model "$DATA/models/final.onnx"
fi
