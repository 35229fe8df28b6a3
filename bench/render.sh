#!/usr/bin/env bash
# bench/render.sh BUILD_DIR: frames per second of the footage renderer at 1280x720 on one
# core (CPU time): the board itself, hand frames, a game with hands, and JPEG encoding apart.
# The target: the board itself well over 100 frames/s.
set -uo pipefail
build=${1:-build}
bin="$build/bench/bench_render"
if [ ! -x "$bin" ]; then echo "render: $bin not built"; exit 1; fi
one=""
command -v taskset >/dev/null 2>&1 && one="taskset -c 0"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores; one core used"
$one "$bin" --size 1280x720 --frames 600
