#!/usr/bin/env bash
# bench/replay.sh BUILD_DIR: moves per second replaying the tygem records (SGF parsing +
# replay, and replay alone from pre-parsed move lists) on one core, then side by side with
# GNU Go loading the same records over GTP (`loadsgf FILE`), as a ratio.
# Needs ../shared/data (skips when absent); GNU Go from Debian's gnugo package (skipped
# when missing). Figures use CPU time (user+sys): the machine may be shared.
set -uo pipefail
build=${1:-build}
bin="$build/bench/bench_replay"
shared=${KIFUCAM_SHARED:-$(cd "$(dirname "$0")/.." && pwd)/../shared}
tygem="$shared/data/games/tygem"
sample=${REPLAY_SAMPLE:-1000}
if [ ! -x "$bin" ]; then echo "replay: $bin not built"; exit 1; fi
if ! ls "$tygem"/*.sgf >/dev/null 2>&1; then
  echo "replay: SKIP: $tygem is absent (set KIFUCAM_SHARED)"; exit 0
fi
one=""
command -v taskset >/dev/null 2>&1 && one="taskset -c 0"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores; one core used"

echo "-- kifucam, all tygem games (rules korean)"
$one "$bin" --runs 5 "$tygem"/*.sgf

gnugo=$(command -v gnugo || echo /usr/games/gnugo)
if [ ! -x "$gnugo" ]; then echo "replay: SKIP GNU Go comparison: gnugo not installed"; exit 0; fi
dir="$build/bench-replay"
rm -rf "$dir"; mkdir -p "$dir/games"
read -r _ games _ moves < <("$bin" --split "$sample" "$dir/games" "$tygem"/Kifu2005-11.sgf)
echo "-- the same $games games ($moves moves) one per file: kifucam, then GNU Go (loadsgf over GTP)"
ours=$($one "$bin" --runs 5 "$dir"/games/*.sgf | grep -E '^(parse\+replay|replay alone)')
echo "$ours"
for f in "$dir"/games/*.sgf; do echo "loadsgf $f"; done > "$dir/load.gtp"
echo quit >> "$dir/load.gtp"
echo quit > "$dir/empty.gtp"
cpu() { # CPU seconds (user+sys) of gnugo reading a GTP script, best of 3
  local best=""
  for _ in 1 2 3; do
    local t
    t=$( { TIMEFORMAT='%3U %3S'; time $one "$gnugo" --mode gtp < "$1" > "$dir/out.txt"; } 2>&1 | awk '{print $1+$2}')
    if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN{exit !(a<b)}'; then best=$t; fi
  done
  echo "$best"
}
t_all=$(cpu "$dir/load.gtp")
loaded=$(grep -c '^= [a-z]' "$dir/out.txt")
t_empty=$(cpu "$dir/empty.gtp")
awk -v m="$moves" -v a="$t_all" -v e="$t_empty" -v n="$loaded" -v ours="$ours" 'BEGIN {
  t = a - e; if (t <= 0) t = a
  g = m / t / 1e6
  split(ours, l, "\n")
  for (i in l) { if (l[i] ~ /^parse\+replay/) { split(l[i], w, " "); pr = w[2] } if (l[i] ~ /^replay alone/) { split(l[i], w, " "); ra = w[3] } }
  printf "gnugo loadsgf: %.3f M moves/s (%d games loaded, cpu %.3f s minus %.3f s start-up)\n", g, n, a, e
  printf "ratio kifucam : gnugo = %.0f : 1 (parse + replay), %.0f : 1 (replay alone)\n", pr / g, ra / g
}'
