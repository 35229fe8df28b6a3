#!/usr/bin/env bash
# bench/web.sh BUILD_DIR: the web server under load, in two modes (WEB_MODE=standin|record|both,
# default both).
#   standin: 200 overlay clients on /events during a replayed 19x19 game (a move every
#     100 ms); prints missed moves, publish->receipt latency, the server's CPU and the
#     recording loop's speed with and without the clients.
#   record: a real recording of generated footage (`kifucam render` of samples/games/demo.sgf,
#     WEB_REC_MOVES moves, 640x360, 15 fps, pace 0.3) by `kifucam record --realtime --serve
#     --format json`, once without clients and once with WEB_CLIENTS (200) clients on /events
#     (bench_web --attach); prints whether every client received every move (move numbers
#     in the SSE states) and the recording's frames per CPU second (the final stats line's
#     cpu_fps) with and without the clients: the drop must stay under 10%. WEB_REC_ROUNDS
#     pairs of runs (default 1), alternated so that the machine's other load touches both.
set -uo pipefail
build=${1:-build}
here=$(cd "$(dirname "$0")/.." && pwd)
mode=${WEB_MODE:-both}
clients=${WEB_CLIENTS:-200}
ulimit -n 4096 2>/dev/null || true
rc=0
cmake --build "$build" --target bench_web -j2 >/dev/null || { echo "bench_web: build failed"; exit 1; }

if [ "$mode" = standin ] || [ "$mode" = both ]; then
  echo "== web (stand-in recording loop): $clients clients on /events"
  "$build/bench/bench_web" --clients "$clients" --moves "${WEB_MOVES:-150}" \
    --interval-ms "${WEB_INTERVAL_MS:-100}" --sgf "$here/tests/web/data/demo19.sgf" || rc=1
fi

if [ "$mode" = record ] || [ "$mode" = both ]; then
  cmake --build "$build" --target kifucam -j2 >/dev/null || { echo "kifucam: build failed"; exit 1; }
  kc="$build/app/kifucam"
  nm=${WEB_REC_MOVES:-20}
  tmp=$(mktemp -d /tmp/kc-webbench.XXXXXX)
  trap 'rm -rf "$tmp"' EXIT
  "$kc" render "$here/samples/games/demo.sgf" --out "$tmp/foot" --moves "$nm" --size 640x360 \
    --fps 15 --pace 0.3 2>/dev/null || { echo "kifucam render failed"; exit 1; }
  nf=$(ls "$tmp/foot" | grep -c '^frame_')
  echo "== web (kifucam record --realtime --serve): $nm moves of demo.sgf, $nf frames at 15 fps"
  field() { sed -n 's/.*"event":"stats".*"'"$1"'":\([0-9.]*\).*/\1/p' "$2" | tail -1; }
  # one run: record (and, with $1 > 0, $1 clients attached as soon as it serves)
  run() {
    local n=$1 out=$2
    "$kc" record --input "$tmp/foot" --fps 15 --sgf "$tmp/rec.sgf" --serve 127.0.0.1:0 --linger 0 \
      --realtime --format json >"$out" 2>"$out.err" &
    local rpid=$! port=""
    for _ in $(seq 200); do
      port=$(sed -n 's|.*overlay: http://127.0.0.1:\([0-9]*\)/overlay.*|\1|p' "$out" | head -1)
      [ -n "$port" ] && break
      sleep 0.05
    done
    if [ -z "$port" ]; then echo "record did not serve"; kill "$rpid" 2>/dev/null; wait "$rpid"; return 1; fi
    local bpid=""
    if [ "$n" -gt 0 ]; then
      "$build/bench/bench_web" --attach "$port" --clients "$n" --timeout 300 >"$out.bench" 2>&1 &
      bpid=$!
    fi
    wait "$rpid"; local rrc=$?
    local brc=0
    [ -n "$bpid" ] && { wait "$bpid"; brc=$?; }
    [ $rrc = 0 ] || { echo "record exited with $rrc"; return 1; }
    return $brc
  }
  rounds=${WEB_REC_ROUNDS:-1}
  base_sum=0 load_sum=0
  for r in $(seq "$rounds"); do
    run 0 "$tmp/none.$r" || rc=1
    run "$clients" "$tmp/load.$r" || rc=1
    moves=$(grep -c '"event":"move"' "$tmp/load.$r")
    echo "round $r: record with $clients clients reported $moves moves"
    sed 's/^/  /' "$tmp/load.$r.bench"
    # every client must have every move the record reported
    grep -q "moves 1..$moves: $clients clients received every move" "$tmp/load.$r.bench" ||
      { echo "  FAIL: not every client received moves 1..$moves"; rc=1; }
    b=$(field cpu_fps "$tmp/none.$r"); l=$(field cpu_fps "$tmp/load.$r")
    bw=$(field fps "$tmp/none.$r"); lw=$(field fps "$tmp/load.$r")
    bweb=$(sed -n 's/.*"web":\([0-9.]*\).*/\1/p' "$tmp/none.$r" | tail -1)
    lweb=$(sed -n 's/.*"web":\([0-9.]*\).*/\1/p' "$tmp/load.$r" | tail -1)
    echo "  frames per CPU second (record's stats cpu_fps): $b without clients, $l with $clients" \
         "(wall fps $bw / $lw; CPU in the web publish $bweb ms / $lweb ms)"
    base_sum=$(awk -v a="$base_sum" -v b="$b" 'BEGIN{print a+b}')
    load_sum=$(awk -v a="$load_sum" -v b="$l" 'BEGIN{print a+b}')
  done
  awk -v b="$base_sum" -v l="$load_sum" -v n="$clients" 'BEGIN{
    d = b > 0 ? 100 * (b - l) / b : 100;
    printf "recording speed with %d clients vs none: %+.1f%% (drop %.1f%%, target < 10%%): %s\n",
      n, -d, d, d < 10 ? "ok" : "FAIL" }'
  awk -v b="$base_sum" -v l="$load_sum" 'BEGIN{ exit !(b > 0 && 100 * (b - l) / b < 10) }' || rc=1
fi
exit $rc
