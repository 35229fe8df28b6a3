#!/usr/bin/env bash
# run.sh: the browser test (ctest web_browser). Installs playwright-core with npm into
# tests/web/browser/node_modules when missing (the npm registry is the only download),
# then runs e2e.mjs against the demo server. Exit 77 (skip) when chromium, node or the
# npm package cannot be had.
# Usage: run.sh DEMO_SERVER OUTDIR
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
demo=$1
out=${2:-.}
mkdir -p "$out"
. "$here/browser-env.sh"
kc_browser_ready "$out"
node "$here/e2e.mjs" "$demo" "$here/../data/demo9.sgf" "$here/../data/demo19.sgf" "$out"
rc=$?
# KC_DOCS=DIR: also refresh DIR/overlay.png and DIR/console.png (the README's screenshots),
# squeezed with pngquant when it is there (each must stay under 200 KB).
if [ $rc = 0 ] && [ -n "${KC_DOCS:-}" ]; then
  for f in overlay.png console.png; do
    if command -v pngquant >/dev/null; then
      pngquant --force --quality=70-95 --speed 1 --output "$KC_DOCS/$f" "$out/$f"
    else
      cp "$out/$f" "$KC_DOCS/$f"
    fi
    echo "$KC_DOCS/$f: $(stat -c %s "$KC_DOCS/$f") bytes"
  done
fi
exit $rc
