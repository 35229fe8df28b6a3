#!/usr/bin/env bash
# run-record.sh: the browser test against a real recording (ctest web_browser_record).
# Renders 10 moves of samples/games/demo.sgf (640x360, 15 fps, pace 0.3: ~19 s of footage)
# with `kifucam render`, then runs e2e-record.mjs, which records it with --serve --realtime
# and watches the overlay in chromium. Installs playwright-core like run.sh. Exit 77 (skip)
# when chromium, node or the npm package cannot be had.
# Usage: run-record.sh KIFUCAM OUTDIR
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kifucam=$1
out=${2:-.}
mkdir -p "$out"
. "$here/browser-env.sh"
kc_browser_ready "$out"
foot="$out/footage"
if [ ! -f "$foot/truth.txt" ]; then
  rm -rf "$foot"
  "$kifucam" render "$here/../../../samples/games/demo.sgf" --out "$foot" --moves 10 \
    --size 640x360 --fps 15 --pace 0.3 2>/dev/null || { echo "FAIL: kifucam render"; exit 1; }
fi
node "$here/e2e-record.mjs" "$kifucam" "$foot" 15 "$out"
