#!/usr/bin/env bash
# make bench: every benchmark under bench/, each printing its figures.
set -uo pipefail
build=${1:-build}
for b in bench/*.sh; do
  [ -e "$b" ] || continue
  echo "== $b"
  bash "$b" "$build"
done
