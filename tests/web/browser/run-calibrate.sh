#!/usr/bin/env bash
# run-calibrate.sh: the corner editor in a real browser (ctest web_browser_calibrate).
# Renders one frame of an empty 19x19 board (samples/games/demo.sgf, --moves 0 --still,
# seed 2, 960x540) with `kifucam render`, then runs e2e-calibrate.mjs, which starts
# `kifucam calibrate --serve` with wrong corners and drags them right in chromium.
# Installs playwright-core like run.sh. Exit 77 (skip) when chromium, node or the npm
# package cannot be had. KC_DOCS=DIR also refreshes DIR/calibrate.png (the editor).
# Usage: run-calibrate.sh KIFUCAM OUTDIR
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kifucam=$1
out=${2:-.}
mkdir -p "$out"
. "$here/browser-env.sh"
kc_browser_ready "$out"
frame="$out/empty"
if [ ! -f "$frame/truth.txt" ]; then
  rm -rf "$frame"
  "$kifucam" render "$here/../../../samples/games/demo.sgf" --out "$frame" --moves 0 --still \
    --seed 2 --size 960x540 2>/dev/null || { echo "FAIL: kifucam render"; exit 1; }
fi
node "$here/e2e-calibrate.mjs" "$kifucam" "$frame" "$out"
rc=$?
if [ $rc = 0 ] && [ -n "${KC_DOCS:-}" ]; then
  if command -v pngquant >/dev/null; then
    pngquant --force --speed 1 --nofs --output "$KC_DOCS/calibrate.png" 96 "$out/calibrate.png"
  else
    cp "$out/calibrate.png" "$KC_DOCS/calibrate.png"
  fi
  echo "$KC_DOCS/calibrate.png: $(stat -c %s "$KC_DOCS/calibrate.png") bytes"
fi
exit $rc
