#!/usr/bin/env bash
# make fuzz: run the libFuzzer targets for SECONDS each (default 600), one at a time.
# Usage: scripts/fuzz.sh BUILD_DIR [SECONDS] [NAME...]   (NAME: sgf profile http vision;
# default: every fuzz_* built). Corpus under BUILD_DIR/corpus-NAME (kept between runs),
# seeds from fuzz/seeds-NAME, crashes written as BUILD_DIR/crash-NAME-*, the whole output
# in BUILD_DIR/fuzz-NAME.log; a summary line per target (final cov/ft, executions).
# Exit 1 when a target found a crash (or failed to run).
set -uo pipefail
build=${1:-build-fuzz}
secs=${2:-600}
shift $(( $# > 2 ? 2 : $# ))
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  for t in "$build"/fuzz/fuzz_*; do
    [ -x "$t" ] && names+=("$(basename "$t" | sed 's/^fuzz_//')")
  done
fi
status=0
summary=()
for name in "${names[@]}"; do
  t="$build/fuzz/fuzz_$name"
  if [ ! -x "$t" ]; then
    echo "fuzz.sh: no $t" >&2
    status=1
    continue
  fi
  corpus="$build/corpus-$name"
  mkdir -p "$corpus"
  seeds="fuzz/seeds-$name"
  log="$build/fuzz-$name.log"
  echo "== fuzz_$name for ${secs}s (log: $log)"
  "$t" -max_total_time="$secs" -print_final_stats=1 -rss_limit_mb=2048 -timeout=30 \
       -artifact_prefix="$build/crash-$name-" "$corpus" $( [ -d "$seeds" ] && echo "$seeds" ) \
       >"$log" 2>&1
  rc=$?
  last=$(grep -E '^#[0-9]+.*cov:' "$log" | tail -1)
  cov=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.*ft: \([0-9]*\).*/\1/p' <<<"$last")
  execs=$(sed -n 's/^stat::number_of_executed_units: //p' "$log")
  line="fuzz_$name: ${secs}s, cov ${cov:-?} ft ${ft:-?}, ${execs:-?} executions, exit $rc"
  if [ $rc -ne 0 ]; then
    status=1
    line="$line: FOUND A CRASH, see $log and $build/crash-$name-*"
    grep -E 'ERROR|SUMMARY' "$log" | head -3
  fi
  echo "$line"
  summary+=("$line")
done
echo "== summary"
printf '%s\n' "${summary[@]}"
exit $status
