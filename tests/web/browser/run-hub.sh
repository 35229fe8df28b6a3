#!/usr/bin/env bash
# run-hub.sh: the tournament page in a real browser (ctest web_browser_hub). Starts
# mosquitto on a free loopback port, `kifucam hub` and relay_demo (6 stand-in stations
# publishing real records: samples/games/ and the web tests' game), then e2e-hub.mjs
# checks the pages in chromium and takes the screenshots. Installs playwright-core like
# run.sh. Exit 77 (skip) when chromium, node, mosquitto or the npm package are missing.
# Usage: run-hub.sh KIFUCAM RELAY_DEMO OUTDIR      (KC_DOCS=DIR: copy hub.png there)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../../.." && pwd)
kifucam=$1
demo=$2
out=${3:-.}
mkdir -p "$out"
. "$here/browser-env.sh"
kc_browser_ready "$out"
mosq=$(command -v mosquitto || echo /usr/sbin/mosquitto)
[ -x "$mosq" ] || { echo "SKIP: mosquitto is not installed (scripts/bootstrap.sh test)"; exit 77; }
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
bp=$(port); hp=$(port)
printf 'listener %s 127.0.0.1\nallow_anonymous true\npersistence false\n' "$bp" > "$out/mosquitto.conf"
[ "$(id -u)" = 0 ] && echo "user root" >> "$out/mosquitto.conf"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; }
trap cleanup EXIT
"$mosq" -c "$out/mosquitto.conf" >"$out/mosquitto.log" 2>&1 & pids+=($!)
for i in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$bp") 2>/dev/null && break; sleep 0.1; done
"$kifucam" hub --broker "mqtt://127.0.0.1:$bp/e2e" --serve "127.0.0.1:$hp" --token e2e-token \
  >"$out/hub.log" 2>&1 & pids+=($!)
for i in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$hp") 2>/dev/null && break; sleep 0.1; done
games=("$src/tests/web/data/demo19.sgf" "$src"/samples/games/*.sgf)   # a board each
"$demo" --url "mqtt://127.0.0.1:$bp/e2e" --moves 60 --interval 1500 "${games[@]}" \
  >"$out/demo.log" 2>&1 & pids+=($!)
node "$here/e2e-hub.mjs" "$hp" "${#games[@]}" "$out"
rc=$?
if [ $rc = 0 ] && [ -n "${KC_DOCS:-}" ]; then
  for f in hub.png; do
    if command -v pngquant >/dev/null; then
      pngquant --force --quality=70-95 --speed 1 --output "$KC_DOCS/$f" "$out/$f"
    else
      cp "$out/$f" "$KC_DOCS/$f"
    fi
    echo "$KC_DOCS/$f: $(stat -c %s "$KC_DOCS/$f") bytes"
  done
fi
exit $rc
