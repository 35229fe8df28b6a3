#!/usr/bin/env bash
# scripts/longrun.sh: the long run (issue 10): `kifucam record` on an hour of generated
# footage of a whole game, for speed, peak memory and memory growth with time, then a
# shorter part under the sanitizers for leaks. Not part of `make test` (too long).
#
#   bash scripts/longrun.sh RELEASE_BUILD_DIR [ASAN_BUILD_DIR]
#
# Environment (defaults in brackets):
#   LONGRUN_WORK   work folder, footage and records [/tmp/kifucam-longrun]
#   LONGRUN_PACE   --pace of the footage: 5.4 gives ~61 min of 30 fps footage of demo.sgf
#                  (357 moves; ~109,500 frames: pace 1 is 33,623 frames, 10 is 186,867) [5.4]
#   LONGRUN_SIZE   frame size [640x360]
#   LONGRUN_ASAN_MOVES  moves of the game rendered for the sanitizer run [60]
#   LONGRUN_SAMPLE seconds between RSS samples [5]
#
# Steps: render samples/games/demo.sgf whole (--fps 30, seed 1); record it with the Release
# binary under /usr/bin/time -v, sampling VmRSS from /proc/PID/status every few seconds
# (NAME.rss: wall seconds, footage time of the latest event, moves announced, VmRSS kB); compare the record
# with the source move for move (up to the board's 8 symmetries: no calibration); then the
# sanitizer binary on a shorter rendering (ASan's leak check at exit). Exit 0 when the
# records equal their sources and no leak is reported.
set -u -o pipefail
REL=${1:?usage: longrun.sh RELEASE_BUILD_DIR [ASAN_BUILD_DIR]}
ASAN=${2:-}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${LONGRUN_WORK:-/tmp/kifucam-longrun}
PACE=${LONGRUN_PACE:-5.4}
SIZE=${LONGRUN_SIZE:-640x360}
AMOVES=${LONGRUN_ASAN_MOVES:-60}
SAMPLE=${LONGRUN_SAMPLE:-5}
GAME=$ROOT/samples/games/demo.sgf
BIN=$REL/app/kifucam
[ -x "$BIN" ] || { echo "longrun: $BIN is not built" >&2; exit 2; }
mkdir -p "$WORK"
status=0

# moves "B pd" one a line from an SGF's main line (no variations in these records)
sgf_moves() {
    tr -d '\n' < "$1" | grep -o ';[BW]\[[a-s]*\]' | sed 's/;\([BW]\)\[\(.*\)\]/\1 \2/'
}

# compare two move lists up to the 8 symmetries of a 19x19 board: 0 when equal
same_game() {
    python3 - "$1" "$2" <<'EOF'
import sys
def rd(p):
    return [l.split() for l in open(p) if l.strip()]
a, b = rd(sys.argv[1]), rd(sys.argv[2])
def t(k, m):
    if len(m) < 2 or not m[1]: return m[0], ''
    x, y = ord(m[1][0]) - 97, ord(m[1][1]) - 97
    if k & 1: x = 18 - x
    if k & 2: y = 18 - y
    if k & 4: x, y = y, x
    return m[0], chr(97 + x) + chr(97 + y)
for k in range(8):
    if len(a) == len(b) and all(t(k, m) == tuple(n + [''] * (2 - len(n))) for m, n in zip(a, b)):
        print(f"same {len(a)} moves (symmetry {k})"); sys.exit(0)
n = 0
for k in range(8):
    c = 0
    for m, q in zip(a, b):
        if t(k, m) != tuple(q + [''] * (2 - len(q))): break
        c += 1
    n = max(n, c)
print(f"DIFFERENT: source {len(a)} moves, record {len(b)}, first {n} equal"); sys.exit(1)
EOF
}

# render DIR MOVES|all
render() {
    local dir=$1 moves=$2 extra=()
    [ "$moves" != all ] && extra=(--moves "$moves")
    if [ -f "$dir/truth.txt" ] && [ -f "$dir/.done" ]; then
        echo "longrun: reusing $dir ($(grep '^frames' "$dir/truth.txt"))"
        return 0
    fi
    rm -rf "$dir"
    local t0=$SECONDS
    "$BIN" render "$GAME" --out "$dir" --size "$SIZE" --fps 30 --pace "$PACE" --seed 1 \
        "${extra[@]}" 2> >(tr '\r' '\n' | awk 'NR % 50 == 0 { print "  " $0; fflush() }' >&2) \
        || { echo "longrun: render failed" >&2; return 1; }
    sleep 1
    touch "$dir/.done"
    echo "longrun: rendered $dir in $((SECONDS - t0)) s: $(grep '^frames' "$dir/truth.txt")"
}

# record NAME BINARY DIR: runs the recorder, samples its RSS, compares the record
record() {
    local name=$1 bin=$2 dir=$3
    local sgf=$WORK/$name.sgf out=$WORK/$name.out log=$WORK/$name.rss
    rm -f "$sgf" "$sgf.tmp"
    local nframes
    nframes=$(grep '^frames' "$dir/truth.txt" | awk '{print $2}')
    echo "longrun: $name: recording $nframes frames ($(awk "BEGIN{printf \"%.1f\", $nframes/30/60}") min of footage)"
    local t0=$SECONDS
    ASAN_OPTIONS=detect_leaks=1 /usr/bin/time -v -o "$WORK/$name.time" \
        "$bin" record --input "$dir" --sgf "$sgf" --format json > "$out" 2> "$WORK/$name.err" &
    local tpid=$! pid=""
    for _ in $(seq 50); do
        pid=$(pgrep -P "$tpid" | head -1)
        [ -n "$pid" ] && break
        sleep 0.1
    done
    echo "# seconds footage_t moves vmrss_kb" > "$log"
    while kill -0 "$tpid" 2>/dev/null; do
        local rss moves frame
        rss=$(awk '/^VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null)
        [ -z "$rss" ] && break
        moves=$(grep -c '"event":"move"' "$out")
        frame=$(grep -o '"t":[0-9.]*' "$out" | tail -1 | cut -d: -f2)
        echo "$((SECONDS - t0)) ${frame:-0} $moves $rss" >> "$log"
        printf '  %s: %4ds  move %3d  footage %7ss/%ss  RSS %6d kB\n' "$name" $((SECONDS - t0)) \
            "$moves" "${frame:-0}" "$((nframes / 30))" "$rss"
        sleep "$SAMPLE"
    done
    wait "$tpid"
    local rc=$?
    echo "longrun: $name: exit $rc after $((SECONDS - t0)) s"
    grep '"stats"' "$out" | sed 's/^/  /'
    grep -E 'Maximum resident|Elapsed|User time' "$WORK/$name.time" | sed 's/^\s*/  /'
    awk 'NR == 2 { f = $4 } END { if (NR > 1) printf "  RSS first sample %d kB, last %d kB, max %d kB\n", f, $4, m } { if (NR > 1 && $4 > m) m = $4 }' "$log"
    if grep -q 'LeakSanitizer\|ERROR: AddressSanitizer\|runtime error' "$WORK/$name.err"; then
        echo "longrun: $name: SANITIZER REPORT:"; head -30 "$WORK/$name.err"; status=1
    elif [ "$name" = asan ]; then
        echo "  asan: no sanitizer report (LeakSanitizer checks at exit)"
    fi
    [ "$rc" = 0 ] || status=1
    sgf_moves "$GAME" > "$WORK/$name.src"
    local want
    want=$(grep '^moves' "$dir/truth.txt" | awk '{print $2}')
    head -n "$want" "$WORK/$name.src" > "$WORK/$name.src.n"
    sgf_moves "$sgf" > "$WORK/$name.got"
    same_game "$WORK/$name.src.n" "$WORK/$name.got" | sed "s/^/  $name: /" || status=1
}

render "$WORK/hour" all || exit 1
record release "$BIN" "$WORK/hour"
if [ -n "$ASAN" ]; then
    [ -x "$ASAN/app/kifucam" ] || { echo "longrun: $ASAN/app/kifucam is not built" >&2; exit 2; }
    render "$WORK/part" "$AMOVES" || exit 1
    record asan "$ASAN/app/kifucam" "$WORK/part"
fi
[ $status = 0 ] && echo "longrun: OK" || echo "longrun: FAILED"
exit $status
