#!/usr/bin/env bash
# Installs what is missing, builds the `tempo` CLI and runs the main job:
# checks and runs an example program, printing its outputs and writing them
# as .npy files under out/. Pass another program (and flags) to run that.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-debian.sh
BUILD_DIR="${TEMPO_BUILD_DIR:-build}"
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build "$BUILD_DIR" -j2 --target tempo
if [ $# -eq 0 ]; then set -- resources/examples/gpt_decode.tpo --out out/gpt_decode; fi
"$BUILD_DIR/app/tempo" check "$1"
"$BUILD_DIR/app/tempo" run "$@"
