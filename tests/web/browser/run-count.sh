#!/usr/bin/env bash
# run-count.sh: the correction page of `kifucam count --serve` in a real browser (ctest
# web_browser_count): e2e-count.mjs counts samples/frames/end-signals.png with the page
# open in chromium, changes the count there and accepts. Installs playwright-core like
# run.sh. Exit 77 (skip) when chromium, node or the npm package cannot be had.
# KC_DOCS=DIR also refreshes DIR/count.png (the page).
# Usage: run-count.sh KIFUCAM OUTDIR
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kifucam=$1
out=${2:-.}
mkdir -p "$out"
. "$here/browser-env.sh"
kc_browser_ready "$out"
node "$here/e2e-count.mjs" "$kifucam" "$(cd "$here/../../../samples/frames" && pwd)/end-signals.png" "$out"
rc=$?
if [ $rc = 0 ] && [ -n "${KC_DOCS:-}" ]; then
  if command -v pngquant >/dev/null; then
    pngquant --force --speed 1 --nofs --output "$KC_DOCS/count.png" 96 "$out/count.png"
  else
    cp "$out/count.png" "$KC_DOCS/count.png"
  fi
  echo "$KC_DOCS/count.png: $(stat -c %s "$KC_DOCS/count.png") bytes"
fi
exit $rc
