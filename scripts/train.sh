#!/usr/bin/env bash
# make train: the learned point reader, from its data to the weights that ship
# (train/README.md has the recipe). Long: about 2.5 hours on 2 cores.
#   1 renders (kifucam-traingen render, --variety scenes): four deterministic streams
#     (with TRAIN_NEGATIVES=1 also 600 views of no board: kifucam-traingen negatives)
#   2 the roboflow-stones photos under their grids (when ../shared/data is there)
#   3 a base model on the renders alone
#   4 one model per fold of the photos: the base trained on, besides the renders, the
#     photos of the other folds (train/folds.tsv); these give the held-out figures
#   4b the stone finder (train/stone_centres.py --export, photos only): one model per
#     fold (centresK.onnx, beside the reader's) and the one of every photo (centres.onnx)
#   5 the model that ships: the base trained on the renders and every photo, written to
#     vision/model/points.onnx (re-laid by train/relayout.py; the export as trained beside
#     it, points-export.onnx) with its note (points.json); the finder of every photo to
#     vision/model/centres.onnx (centres.json)
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
BASE_STEPS=${TRAIN_BASE_STEPS:-4000}
TUNE_STEPS=${TRAIN_TUNE_STEPS:-2500}
THREADS=${TRAIN_THREADS:-2}
# TRAIN_FOLDS_ONLY=1 (make train-folds): steps 1-4b and the held-out figure only; the
# weights that ship are left as they are, and the finder of every photo is not trained
# (about 1 h 55 min on 2 cores from nothing)
FOLDS_ONLY=${TRAIN_FOLDS_ONLY:-0}
# The four render streams of the shipped weights (vision/model/README.md): seed, views
# of each scene, the share written again under a wrong grid, and the samples kept. The
# generator is deterministic: the same stream gives the same samples on any machine with
# Debian's gcc (a few draws share one expression, whose order C leaves to the compiler).
streams=("1 3 0 3854" "2 3 0 1488" "3 6 0.6 4418" "4 6 0.6 3072")
echo "== 1 renders: ${#streams[@]} streams ($DATA/render-s*.bin)"
pids=()
renders=()
# TRAIN_KNOCKED=1 TRAIN_NEGATIVES=1: the v4 candidate's recipe (stones knocked halfway to
# a neighbour labelled on neither point; 600 views of no board), measured and not shipped
# (vision/model/README.md); TRAIN_NEGATIVES=tune: the views of no board in the fine-tuning
# only (the folds and the model that ships), the base v2's (the "v5" recipe); the default
# is the shipped weights' (v2)
# TRAIN_KNOCKED=2: the same knocked stones with their two points labelled covered (the
# "k2" trial, measured and not shipped)
# TRAIN_KNOCKED=3: stones pushed up to 0.49 of a cell into an empty neighbour, labelled
# on their own point (the "p3" trial, kifucam-traingen --knocked 3)
KNOCKED=${TRAIN_KNOCKED:-0}
NEGATIVES=${TRAIN_NEGATIVES:-0}
# TRAIN_RING_HANDS=1: the renders also label the ring around the board covered under a
# hand or an arm (kifucam-traingen --ring-hands 1), so that a reader learns an arm lying
# on the border (the fingertips and held stones that pass unflagged, README); trained
# and measured as "r1" (vision/model/README.md), not shipped
RING=${TRAIN_RING_HANDS:-0}
# TRAIN_ARCH=s: train_points.py --arch s (v2's weights, the third layer strided: a
# cheaper read), the same data and steps; its models apart in models-s
ARCH=${TRAIN_ARCH:-v2}
# TRAIN_FAR_SHIFT=L (2 to 6): the wrong grids of the renders and the photos also moved by
# 1 to L whole lines (kifucam-traingen --far-shift), so that the reader learns off beyond
# a board's second ring, where board finding moves and grows windows (the "f4" trial,
# vision/model/README.md); the finders are the default recipe's, copied from models/
FAR=${TRAIN_FAR_SHIFT:-1}
fsfx=""; [ "$FAR" != 1 ] && fsfx="-f$FAR"   # its files and models apart
sfx=""; [ "$KNOCKED" != 0 ] && sfx="-k$KNOCKED"
[ "$RING" = 1 ] && sfx="$sfx-r1"
MODELS="$DATA/models"   # the models of another recipe apart: its base is not this one's
[ "$KNOCKED$NEGATIVES" != 00 ] && MODELS="$DATA/models-k$KNOCKED-n$NEGATIVES"
[ "$RING" = 1 ] && MODELS="$DATA/models-k$KNOCKED-n$NEGATIVES-r1"
[ "$ARCH" != v2 ] && MODELS="$MODELS-$ARCH"
MODELS="$MODELS$fsfx"
mkdir -p "$DATA" "$MODELS"
for st in "${streams[@]}"; do
  set -- $st
  f="$DATA/render-s$1-v$2-m$3-n$4$sfx.bin"
  [ "$3" != 0 ] && f="$DATA/render-s$1-v$2-m$3-n$4$sfx$fsfx.bin"   # --far-shift: the wrong grids'
  renders+=("$f")
  [ -f "$f" ] || { "$GEN" render --out "$f.part" --count 1000000 --seed "$1" --views "$2" \
                     --misalign "$3" --max-samples "$4" --knocked "$KNOCKED" --ring-hands "$RING" \
                     --far-shift "$FAR" && mv "$f.part" "$f"; } &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
# views of no board (pages of text, blobs, noise; every point off), so that the reader
# does not believe a grid that board finding lays along the lines of a page (v4)
tune=()   # what the fine-tuning reads besides the base's renders and the photos
if [ "$NEGATIVES" != 0 ]; then
  negs="$DATA/negatives-s5-n600.bin"
  [ -f "$negs" ] || { "$GEN" negatives --out "$negs.part" --count 600 --seed 5 && mv "$negs.part" "$negs"; }
  if [ "$NEGATIVES" = tune ]; then tune=("$negs"); else renders+=("$negs"); fi
fi
photos=()
if [ -d "$SHARED/data/photos/roboflow-stones" ]; then
  echo "== 2 roboflow-stones photos under their grids"
  pf="$DATA/photos$fsfx.bin"
  [ -f "$pf" ] || "$GEN" photos --data "$SHARED/data" --folds "$HERE/train/folds.tsv" \
    --out "$pf" --copies 6 --misaligned 2 --far-shift "$FAR"
  photos=("$pf")
else
  echo "SKIP: $SHARED/data is absent: the model is trained on renders alone, no held-out figure"
fi
# v5's base is v2's: the same renders, the same steps
if [ "$NEGATIVES$KNOCKED$RING" = tune00 ] && [ ! -f "$MODELS/base.pt" ] && [ -f "$DATA/models/base.pt" ]; then
  cp "$DATA/models/base.pt" "$DATA/models/base.onnx" "$DATA/models/base.json" "$MODELS/"
fi
echo "== 3 base model, renders only ($BASE_STEPS steps)"
[ -f "$MODELS/base.pt" ] || "$PY" "$HERE/train/train_points.py" --data "${renders[@]}" \
  --out "$MODELS/base.onnx" --steps "$BASE_STEPS" --photo-share 0 --threads "$THREADS" --arch "$ARCH"
renders+=(${tune[@]+"${tune[@]}"})
if [ ${#photos[@]} -gt 0 ]; then
  for k in 0 1 2 3 4; do
    echo "== 4 fold $k held out ($TUNE_STEPS steps from the base)"
    [ -f "$MODELS/fold$k.onnx" ] || "$PY" "$HERE/train/train_points.py" --data "${renders[@]}" \
      "${photos[@]}" --holdout-fold "$k" --init "$MODELS/base.pt" --steps "$TUNE_STEPS" \
      --lr 1e-3 --photo-share 0.5 --out "$MODELS/fold$k.onnx" --threads "$THREADS" --arch "$ARCH"
  done
fi
if [ ${#photos[@]} -gt 0 ]; then
  # the boards' grids as each photo's own fold reader finds them, kept beside the models
  # make train-folds: the five fold finders alone (the one of every photo is the shipped
  # one's, which train-folds leaves as it is)
  want=(centres.onnx); only=()
  if [ "$FOLDS_ONLY" = 1 ]; then want=(centres0.onnx centres1.onnx centres2.onnx centres3.onnx centres4.onnx); only=(--only 0,1,2,3,4); fi
  if [ "$FAR" != 1 ]; then   # the finder's recipe is not this trial's
    for m in "${want[@]}"; do
      [ -f "$MODELS/$m" ] || [ ! -f "$DATA/models/$m" ] || cp "$DATA/models/$m" "$DATA/models/${m%.onnx}.json" "$MODELS/"
    done
  fi
  have=1; for m in "${want[@]}"; do [ -f "$MODELS/$m" ] || have=0; done
  echo "== 4b the stone finder: a model per fold$([ "$FOLDS_ONLY" = 1 ] || echo " and one of every photo")"
  [ "$have" = 1 ] || "$PY" "$HERE/train/stone_centres.py" "$build/app/kifucam" "$SHARED/data" \
    --models "$MODELS" --cache "$MODELS/centres-grids.json" --threads "$THREADS" --export "$MODELS" \
    ${only[@]+"${only[@]}"}
fi
if [ "$FOLDS_ONLY" = 1 ]; then
  if [ ${#photos[@]} -gt 0 ] && [ -x "$BENCH" ]; then
    echo "== 6 held-out figures (the fold models; the shipped weights untouched)"
    "$BENCH" stones "$SHARED/data" --fold-models "$MODELS" --folds "$HERE/train/folds.tsv" --photo
  fi
  exit 0
fi
echo "== 5 the model that ships"
"$PY" "$HERE/train/train_points.py" --data "${renders[@]}" "${photos[@]}" --init "$MODELS/base.pt" \
  --steps "$TUNE_STEPS" --lr 1e-3 --photo-share "$([ ${#photos[@]} -gt 0 ] && echo 0.5 || echo 0)" \
  --out "$MODELS/final.onnx" --threads "$THREADS" --arch "$ARCH"
if [ "$MODELS" = "$DATA/models" ]; then
  # the export kept as it is (test_reader checks the two read alike); the shipped one
  # re-laid for a cheaper first layer (train/relayout.py: the same weights)
  cp "$MODELS/final.onnx" "$HERE/vision/model/points-export.onnx"
  "$PY" "$HERE/train/relayout.py" "$MODELS/final.onnx" "$HERE/vision/model/points.onnx"
  cp "$MODELS/final.json" "$HERE/vision/model/points.json"
  if [ -f "$MODELS/centres.onnx" ]; then
    cp "$MODELS/centres.onnx" "$HERE/vision/model/centres.onnx"
    cp "$MODELS/centres.json" "$HERE/vision/model/centres.json"
  fi
else
  echo "   a candidate recipe: $MODELS/final.onnx, not copied over vision/model/ (build with -DKIFUCAM_MODEL=$MODELS/final.onnx to compare)"
fi
echo "   vision/model/points.onnx: $(stat -c %s "$HERE/vision/model/points.onnx") bytes"
if [ ${#photos[@]} -gt 0 ] && [ -x "$BENCH" ]; then
  echo "== 6 held-out figures"
  "$BENCH" stones "$SHARED/data" --fold-models "$MODELS" --folds "$HERE/train/folds.tsv" --photo
  "$BENCH" accuracy "$SHARED/data" --model "$MODELS/final.onnx" --photo
fi
