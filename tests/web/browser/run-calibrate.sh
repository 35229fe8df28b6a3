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
command -v node >/dev/null || { echo "SKIP: node is not installed"; exit 77; }
[ -x "${KC_CHROMIUM:-/usr/bin/chromium}" ] || { echo "SKIP: chromium is not installed (scripts/bootstrap.sh test)"; exit 77; }
if [ ! -f "$here/node_modules/playwright-core/package.json" ]; then
  command -v npm >/dev/null || { echo "SKIP: npm is not installed"; exit 77; }
  ( flock 9
    [ -f "$here/node_modules/playwright-core/package.json" ] ||
      (cd "$here" && npm install --no-audit --no-fund --loglevel=error >&2) ) 9>"$out/npm.lock" ||
    { echo "SKIP: npm install playwright-core failed"; exit 77; }
fi
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
