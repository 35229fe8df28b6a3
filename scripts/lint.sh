#!/usr/bin/env bash
# make lint: static analysis of every C source (library code, the CLI, tests, fuzzers,
# benches) with cppcheck and clang-tidy (configuration: .clang-tidy; suppressions:
# .cppcheck-suppressions and inline `cppcheck-suppress` comments with their reason).
# Usage: scripts/lint.sh [BUILD_DIR] [FILE.c...]
#   BUILD_DIR (default build) must hold compile_commands.json (configure with
#   -DCMAKE_EXPORT_COMPILE_COMMANDS=ON; `make build` does); files not in it (fuzzers
#   without a fuzz build) are checked by cppcheck only.
#   LINT_ONLY=cppcheck|clang-tidy runs one tool; LINT_JOBS (default 2) parallel jobs.
# Prints the findings (file:line:col: ... [check]) and a count per file; exit 1 when
# there is any finding, 2 when a tool is missing.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
[ $# -gt 0 ] && shift
jobs=${LINT_JOBS:-2}
only=${LINT_ONLY:-}
if [ $# -gt 0 ]; then
  files=("$@")
else
  mapfile -t files < <(git ls-files '*.c')
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
status=0

if [ "$only" != clang-tidy ]; then
  command -v cppcheck >/dev/null || { echo "lint: cppcheck is missing (apt-get install cppcheck)" >&2; exit 2; }
  echo "== cppcheck (${#files[@]} files)"
  # -D__GNUC__ so that cppcheck takes the same #if branches as gcc; the tests' cmocka
  # macros need its header.
  cppcheck --std=c11 --language=c --enable=warning,performance,portability \
    --inline-suppr --suppressions-list=.cppcheck-suppressions --error-exitcode=1 -q \
    -j "$jobs" -I . -I tests -D_POSIX_C_SOURCE=200809L -D__GNUC__ -D__linux__ \
    --template='{file}:{line}:{column}: {severity}: {message} [{id}]' \
    "${files[@]}" 2>"$out/cppcheck.txt"
  [ $? -ne 0 ] && status=1
  grep -E '^[^ ]+:[0-9]+:[0-9]+: ' "$out/cppcheck.txt" > "$out/cppcheck.find" || true
  cat "$out/cppcheck.find"
fi

if [ "$only" != cppcheck ]; then
  command -v clang-tidy >/dev/null || { echo "lint: clang-tidy is missing (apt-get install clang-tidy)" >&2; exit 2; }
  db="$build/compile_commands.json"
  if [ ! -f "$db" ]; then
    echo "lint: $db is missing: configure $build with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON" >&2
    exit 2
  fi
  tidy_files=()
  for f in "${files[@]}"; do
    grep -q "\"file\": \"$(pwd)/$f\"" "$db" && tidy_files+=("$f")
  done
  echo "== clang-tidy (${#tidy_files[@]} files in $db)"
  printf '%s\n' "${tidy_files[@]}" |
    xargs -r -P "$jobs" -I{} sh -c 'clang-tidy -p "$1" --quiet "$2" >"$3/tidy.$(echo "$2" | tr / _).txt" 2>/dev/null; exit 0' \
      sh "$build" {} "$out"
  cat "$out"/tidy.*.txt 2>/dev/null | grep -E '^/.*:[0-9]+:[0-9]+: (warning|error): ' |
    sed "s|^$(pwd)/||" | sort -u > "$out/tidy.find" || true
  cat "$out/tidy.find"
  [ -s "$out/tidy.find" ] && status=1
fi

echo "== findings per file"
cat "$out"/*.find 2>/dev/null | cut -d: -f1 | sort | uniq -c | sort -rn
[ $status -eq 0 ] && echo "lint: clean" || echo "lint: findings above"
exit $status
