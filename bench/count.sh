#!/usr/bin/env bash
# bench/count.sh BUILD_DIR: issue 20's speed target, one photo to its result and its
# picture in one command (`kifucam count PHOTO --picture P.png`) in at most 1 s for a
# 4000x3000 photo. Wall time of the whole process (decoding, board finding, the reading
# under 8 symmetries, the dead stones, the count, the picture), best and median of RUNS
# runs (default 5), and its CPU time; pinned to one core where taskset exists.
# The photos, made in WORK (default BUILD_DIR/count-bench; never committed):
#   - real: imago t1_t1_011 (a phone photo, 2048x1536) and gomrade_2_67 (1280x720)
#     scaled up to 4000x3000 JPEG (validation sets: nothing was trained on them), when
#     ../shared/data is there (else skipped, said);
#   - rendered: demo.sgf played out to its end, a finished crowded board, rendered at
#     4000x3000 (kifucam-render --still) and written as JPEG.
# --unsure empty: the count goes all the way even where a point is unsure (what costs
# most); the result is printed once so that a wrong reading is seen, not only timed.
set -uo pipefail
build=${1:-build}
HERE=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${KIFUCAM_SHARED:-$HERE/../shared}
RUNS=${RUNS:-5}
WORK=${WORK:-$build/count-bench}
kc="$build/app/kifucam"
bv="$build/bench/bench_vision"
render="$build/render/kifucam-render"
for b in "$kc" "$bv" "$render"; do
  [ -x "$b" ] || { echo "count: $b not built"; exit 1; }
done
mkdir -p "$WORK"
one=""
command -v taskset >/dev/null 2>&1 && one="taskset -c 0"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores; one core used"

photos=()
if [ -d "$SHARED/data/photos/imago" ]; then
  for src in imago/images/t1_t1_011.jpg gomrade/images/gomrade_2_67.jpg; do
    out="$WORK/$(basename "${src%.*}")-4000x3000.jpg"
    [ -f "$out" ] || "$bv" scale "$SHARED/data/photos/$src" "$out" 4000x3000 || exit 1
    photos+=("$out")
  done
else
  echo "SKIP: $SHARED/data is absent: the real photos are not timed"
fi
if [ ! -f "$WORK/demo-end-4000x3000.jpg" ]; then
  "$render" "$HERE/samples/games/demo.sgf" --out "$WORK/demo-end" --still --size 4000x3000 \
    --seed 3 --end pass >/dev/null 2>&1 || { echo "count: the render failed"; exit 1; }
  "$bv" scale "$WORK/demo-end/still.png" "$WORK/demo-end-4000x3000.jpg" 4000x3000 || exit 1
fi
photos+=("$WORK/demo-end-4000x3000.jpg")

for p in "${photos[@]}"; do
  echo "== $(basename "$p") ($(stat -c %s "$p") bytes)"
  $one "$kc" count "$p" --picture "$WORK/picture.png" --unsure empty | head -1 | sed 's/^/   result: /'
  walls=() ; cpus=()
  for _ in $(seq "$RUNS"); do
    /usr/bin/time -o "$WORK/time.txt" -f '%e %U %S' $one "$kc" count "$p" \
      --picture "$WORK/picture.png" --unsure empty >/dev/null 2>&1
    set -- $(tail -1 "$WORK/time.txt")
    walls+=("$1")
    cpus+=("$(awk -v u="$2" -v s="$3" 'BEGIN { printf "%.2f", u + s }')")
  done
  w=$(printf '%s\n' "${walls[@]}" | sort -n)
  c=$(printf '%s\n' "${cpus[@]}" | sort -n)
  echo "   wall s: best $(echo "$w" | head -1), median $(echo "$w" | sed -n "$(( (RUNS + 1) / 2 ))p"), worst $(echo "$w" | tail -1); CPU s median $(echo "$c" | sed -n "$(( (RUNS + 1) / 2 ))p")  (target: 1 s)"
done
