#!/usr/bin/env bash
# Installs, with apt-get, only the Debian packages kifucam needs that are missing.
# Usage: scripts/bootstrap.sh [build|test|bench|lint|train]   (test adds the browser and
# fuzzing tools, the MQTT broker, openssl for the TLS test's certificates and groff for
# the man page's test; bench GNU Go, valgrind, the broker and OpenCV's Python binding
# (bench/pose.py); lint cppcheck and
# clang-tidy; train PyTorch and ONNX for the point reader's training, and OpenCV's Python
# binding for the stone finder's, train/stone_centres.py)
set -euo pipefail
what=${1:-build}
pkgs=(cmake make gcc g++ pkg-config
      libopencv-core-dev libopencv-imgproc-dev libopencv-imgcodecs-dev
      libopencv-calib3d-dev libopencv-videoio-dev libopencv-dnn-dev
      libv4l-dev libcmocka-dev libmicrohttpd-dev libjansson-dev libmosquitto-dev libssl-dev
      libjpeg62-turbo-dev)
case "$what" in
  test)  pkgs+=(clang libclang-rt-14-dev chromium mosquitto openssl groff-base)
         # Node.js may come from another packaging that bundles npm (Debian's npm would
         # conflict with it): only ask for Debian's when there is no npm at all.
         command -v npm >/dev/null 2>&1 || pkgs+=(nodejs npm) ;;
  bench) pkgs+=(clang libclang-rt-14-dev gnugo valgrind mosquitto python3-opencv python3-numpy) ;;
  lint)  pkgs+=(cppcheck clang-tidy) ;;
  train) pkgs+=(python3-torch python3-onnx python3-numpy python3-opencv) ;;
esac
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "bootstrap: all ${#pkgs[@]} packages present"
  exit 0
fi
echo "bootstrap: installing ${missing[*]}"
if [ "$(id -u)" != 0 ]; then
  echo "bootstrap: not root; install these packages yourself: ${missing[*]}" >&2
  exit 2
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "bootstrap: done"
