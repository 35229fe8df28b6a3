# browser-env.sh: sourced by the run*.sh browser tests. kc_browser_ready OUTDIR checks for
# node and chromium (KC_CHROMIUM, default /usr/bin/chromium) and installs playwright-core
# with npm into this folder's node_modules when missing (the npm registry is the only
# download; one install at a time, even with ctest -j, by a lock in OUTDIR). Exits the
# calling script with 77 (ctest's skip) and a SKIP: line when any of them cannot be had.
kc_browser_ready() {
  local dir
  dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
  command -v node >/dev/null || { echo "SKIP: node is not installed"; exit 77; }
  [ -x "${KC_CHROMIUM:-/usr/bin/chromium}" ] || { echo "SKIP: chromium is not installed (scripts/bootstrap.sh test)"; exit 77; }
  if [ ! -f "$dir/node_modules/playwright-core/package.json" ]; then
    command -v npm >/dev/null || { echo "SKIP: npm is not installed"; exit 77; }
    ( flock 9
      [ -f "$dir/node_modules/playwright-core/package.json" ] ||
        (cd "$dir" && npm install --no-audit --no-fund --loglevel=error >&2) ) 9>"$1/npm.lock" ||
      { echo "SKIP: npm install playwright-core failed"; exit 77; }
  fi
}
