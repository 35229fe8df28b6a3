#!/usr/bin/env bash
# bench/capture.sh BUILD_DIR: the capture path's share of one core at 1920x1080, 30 fps
# (fake camera in YUYV and MJPEG, video files). FRAMES (default 90) per case.
set -euo pipefail
build=${1:-build}
cmake --build "$build" --target bench_capture -j 2 >/dev/null
"$build/bench/bench_capture" "${FRAMES:-90}"
