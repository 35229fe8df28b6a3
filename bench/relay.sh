#!/usr/bin/env bash
# bench/relay.sh BUILD_DIR: the tournament relay under load. Starts mosquitto on a free
# loopback port and `kifucam hub`, then bench_relay: RELAY_BOARDS stations (default
# "10 50 100"; 50 is the target) each publishing a real game (the tygem records of
# ../shared/data, else samples/games/), RELAY_MOVES moves (default 60) a move every
# RELAY_INTERVAL_MS (default 500 ms) per board. Prints, per number of boards: every move
# at the hub in order (missing / wrong / gone back), the publish -> hub page latency
# (p50/p90/p99/max; the target p99 <= 200 ms), and the hub's CPU (% of one core over the
# run) and memory (RSS at the end, peak), the broker's CPU too. Exit 1 when a target fails.
set -uo pipefail
build=${1:-build}
here=$(cd "$(dirname "$0")/.." && pwd)
shared=${KIFUCAM_SHARED:-$here/../shared}
ulimit -n 8192 2>/dev/null || true
cmake --build "$build" --target bench_relay kifucam -j2 >/dev/null || { echo "relay bench: build failed"; exit 1; }
command -v mosquitto >/dev/null || [ -x /usr/sbin/mosquitto ] || { echo "relay bench: mosquitto is not installed (scripts/bootstrap.sh bench)"; exit 1; }
mosq=$(command -v mosquitto || echo /usr/sbin/mosquitto)
sgfs=()
if [ -d "$shared/data/games/tygem" ]; then
  for f in "$shared"/data/games/tygem/*.sgf; do sgfs+=("$f"); done
else
  for f in "$here"/samples/games/*.sgf; do sgfs+=("$f"); done
fi
tmp=$(mktemp -d /tmp/kc-relaybench.XXXXXX)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }   # utime + stime, clock ticks
hz=$(getconf CLK_TCK)
rc=0
for n in ${RELAY_BOARDS:-10 50 100}; do
  bp=$(port); hp=$(port)
  printf 'listener %s 127.0.0.1\nallow_anonymous true\npersistence false\nmax_queued_messages 10000\n' "$bp" > "$tmp/m.conf"
  [ "$(id -u)" = 0 ] && echo "user root" >> "$tmp/m.conf"
  "$mosq" -c "$tmp/m.conf" >"$tmp/mosq.log" 2>&1 & mp=$!; pids+=("$mp")
  sleep 0.5
  "$build/app/kifucam" hub --broker "mqtt://127.0.0.1:$bp/bench" --serve "127.0.0.1:$hp" \
    --max-clients 16 >"$tmp/hub.log" 2>&1 & hubp=$!; pids+=("$hubp")
  sleep 0.5
  rss0=$(awk '/VmRSS/ {print $2}' "/proc/$hubp/status")
  c0=$(cpu "$hubp"); m0=$(cpu "$mp"); t0=$(date +%s.%N)
  out=$("$build/bench/bench_relay" --url "mqtt://127.0.0.1:$bp/bench" --hub-port "$hp" \
        --boards "$n" --moves "${RELAY_MOVES:-60}" --interval-ms "${RELAY_INTERVAL_MS:-500}" "${sgfs[@]}")
  brc=$?
  c1=$(cpu "$hubp"); m1=$(cpu "$mp"); t1=$(date +%s.%N)
  rss=$(awk '/VmRSS/ {print $2}' "/proc/$hubp/status"); hwm=$(awk '/VmHWM/ {print $2}' "/proc/$hubp/status")
  echo "== $n boards: $out"
  awk -v c="$((c1 - c0))" -v m="$((m1 - m0))" -v hz="$hz" -v t0="$t0" -v t1="$t1" -v rss="$rss" -v hwm="$hwm" -v rss0="$rss0" \
    'BEGIN { w = t1 - t0; printf "   hub: CPU %.1f%% of one core (%.2f s over %.1f s), RSS %.1f MB at the end (%.1f MB before the boards came, peak %.1f MB); broker CPU %.1f%%\n", 100 * c / hz / w, c / hz, w, rss / 1024, rss0 / 1024, hwm / 1024, 100 * m / hz / w }'
  [ $brc = 0 ] || rc=1
  kill "$hubp" "$mp" 2>/dev/null; wait "$hubp" "$mp" 2>/dev/null
done
exit $rc
