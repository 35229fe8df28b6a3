#!/usr/bin/env bash
# bench/web.sh BUILD_DIR: 200 overlay clients on /events during a replayed 19x19 game
# (a move every 100 ms); prints missed moves, publish->receipt latency, the server's CPU
# and the recording loop's speed with and without the clients.
set -uo pipefail
build=${1:-build}
here=$(cd "$(dirname "$0")/.." && pwd)
cmake --build "$build" --target bench_web -j2 >/dev/null || { echo "bench_web: build failed"; exit 1; }
ulimit -n 4096 2>/dev/null || true
"$build/bench/bench_web" --clients "${WEB_CLIENTS:-200}" --moves "${WEB_MOVES:-150}" \
  --interval-ms "${WEB_INTERVAL_MS:-100}" --sgf "$here/tests/web/data/demo19.sgf"
