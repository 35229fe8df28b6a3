#!/usr/bin/env bash
# bench/score.sh BUILD_DIR: counting the game.
#  1. agreement with recorded results: every tygem game whose RE[] is a counted margin
#     (Korean rules, komi 6.5), dead stones by the station's proposal (`--dead auto`):
#     share of recorded winners and of exact recorded margins (targets 99% and 90%), and
#     the disagreements by cause;
#  2. time per 19x19 position of the dead-stone proposal + count (CPU time, one core);
#  3. GNU Go's `final_status_list dead` on a sample of the same positions: its time per
#     position (CPU), the ratio, and its accuracy on that sample beside ours (scored with
#     its dead stones by `kifucam score --dead LIST`).
# Needs ../shared/data (skips when absent); GNU Go from Debian's gnugo package (that part
# is skipped when it is missing). SCORE_SAMPLE sets the GNU Go sample's size (default 30),
# SCORE_EVERY its spacing: every Nth counted game of Kifu2005-12 (default 50).
set -uo pipefail
build=${1:-build}
bin="$build/bench/bench_score"
kc="$build/app/kifucam"
shared=${KIFUCAM_SHARED:-$(cd "$(dirname "$0")/.." && pwd)/../shared}
tygem="$shared/data/games/tygem"
sample=${SCORE_SAMPLE:-30}
every=${SCORE_EVERY:-50}
if [ ! -x "$bin" ]; then echo "score: $bin not built"; exit 1; fi
if ! ls "$tygem"/*.sgf >/dev/null 2>&1; then
  echo "score: SKIP: $tygem is absent (set KIFUCAM_SHARED)"; exit 0
fi
one=""
command -v taskset >/dev/null 2>&1 && one="taskset -c 0"

echo "-- agreement with the recorded results (all tygem games with a counted margin)"
$one "$bin" agree --show "${SCORE_SHOW:-0}" "$tygem"/*.sgf

echo "-- time per position: dead-stone proposal + count (CPU time)"
$one "$bin" time --n 500 "$tygem"/*.sgf

gnugo=$(command -v gnugo || echo /usr/games/gnugo)
if [ ! -x "$gnugo" ]; then echo "score: SKIP GNU Go comparison: gnugo not installed"; exit 0; fi
if [ ! -x "$kc" ]; then echo "score: SKIP GNU Go comparison: $kc not built"; exit 0; fi
dir="$build/bench-score"
rm -rf "$dir"; mkdir -p "$dir/games"
# the sample: every Nth (50th) counted game of the second file, spread over the month
mkdir -p "$dir/all"
"$bin" dump --n 100000 --out "$dir/all" "$tygem"/Kifu2005-12.sgf >/dev/null
i=0; n=0
for f in $(ls "$dir"/all/*.sgf | sort); do
  i=$((i + 1))
  if [ $((i % every)) -eq 0 ] && [ "$n" -lt "$sample" ]; then cp "$f" "$dir/games/"; n=$((n + 1)); fi
done
rm -rf "$dir/all"
echo "-- GNU Go final_status_list dead on $n of the same positions (CPU time, one core)"
cpu() { # CPU seconds (user+sys) of a command
  local t
  t=$( { TIMEFORMAT='%3U %3S'; time "$@" > /dev/null 2>&1; } 2>&1 | awk '{print $1+$2}')
  echo "$t"
}
gg_ok=0; gg_win=0; our_ok=0; our_win=0; total=0
gg_cpu=$(cpu true)
for f in "$dir"/games/*.sgf; do
  printf 'loadsgf %s\nfinal_status_list dead\nquit\n' "$f" > "$dir/cmd.gtp"
  t=$( { TIMEFORMAT='%3U %3S'; time $one "$gnugo" --mode gtp < "$dir/cmd.gtp" > "$dir/out.txt" 2>/dev/null; } 2>&1 | awk '{print $1+$2}')
  gg_cpu=$(awk -v a="$gg_cpu" -v b="$t" 'BEGIN{print a+b}')
  # GTP vertices -> SGF points
  size=$(grep -o 'SZ\[[0-9]*\]' "$f" | head -1 | tr -dc 0-9); size=${size:-19}
  list=$(awk -v size="$size" 'BEGIN{cols="ABCDEFGHJKLMNOPQRSTUVWXYZ"} /^= /{sub(/^= /,"")} {for(i=1;i<=NF;i++){v=$i; c=index(cols,substr(v,1,1))-1; r=size-substr(v,2); if(c>=0&&r>=0) printf "%s%c%c", (n++?",":""), 97+c, 97+r}} END{}' "$dir/out.txt")
  [ -z "$list" ] && list=none
  want=$(grep -o 'RE\[[BW]+[0-9.]*\]' "$f" | head -1 | sed 's/RE\[\(.*\)\]/\1/')
  gg=$("$kc" score "$f" --rules korean --dead "$list" 2>/dev/null | head -1)
  ours=$("$kc" score "$f" --rules korean 2>/dev/null | head -1)
  total=$((total + 1))
  [ "$gg" = "$want" ] && gg_ok=$((gg_ok + 1))
  [ "$ours" = "$want" ] && our_ok=$((our_ok + 1))
  [ "${gg:0:1}" = "${want:0:1}" ] && gg_win=$((gg_win + 1))
  [ "${ours:0:1}" = "${want:0:1}" ] && our_win=$((our_win + 1))
done
echo quit > "$dir/empty.gtp"
start=$( { TIMEFORMAT='%3U %3S'; time $one "$gnugo" --mode gtp < "$dir/empty.gtp" > /dev/null 2>&1; } 2>&1 | awk '{print $1+$2}')
our_ms=$($one "$bin" time --n 500 "$tygem"/*.sgf | sed -n 's/.*mean \([0-9.]*\) ms.*/\1/p')
awk -v g="$gg_cpu" -v n="$total" -v s="$start" -v o="$our_ms" -v a="$gg_ok" -v b="$our_ok" -v aw="$gg_win" -v bw="$our_win" 'BEGIN {
  ms = g * 1000 / n; net = ms - s * 1000
  if (net <= 0) net = ms
  printf "gnugo: %.1f ms per position (CPU; %.1f ms without its %.1f ms start-up); kifucam: %.3f ms\n", ms, net, s * 1000, o
  printf "ratio kifucam : gnugo = %.0f : 1 (start-up excluded; target >= 100)\n", net / o
  printf "on these %d positions: exact margin gnugo %d, kifucam %d; winner gnugo %d, kifucam %d\n", n, a, b, aw, bw
}'
