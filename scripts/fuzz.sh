#!/usr/bin/env bash
# make fuzz: run every libFuzzer target for SECONDS each (default 600), corpus under
# build-fuzz/corpus-NAME, seeds from fuzz/seeds-NAME.
set -uo pipefail
build=${1:-build-fuzz}
secs=${2:-600}
status=0
for t in "$build"/fuzz/fuzz_*; do
  [ -x "$t" ] || continue
  name=$(basename "$t")
  corpus="$build/corpus-${name#fuzz_}"
  mkdir -p "$corpus"
  seeds="fuzz/seeds-${name#fuzz_}"
  echo "== $name for ${secs}s"
  "$t" -max_total_time="$secs" -print_final_stats=1 -artifact_prefix="$build/crash-${name#fuzz_}-" \
       "$corpus" $( [ -d "$seeds" ] && echo "$seeds" ) || status=1
done
exit $status
