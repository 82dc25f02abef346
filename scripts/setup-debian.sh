#!/usr/bin/env bash
# Installs every Debian 12 package Tempo Studio needs to build, test and run.
# Idempotent: when everything is present it only refreshes the package lists
# and returns in a few seconds. Run as root (or with sudo available).
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config git
  qt6-base-dev qt6-svg-dev qt6-charts-dev libqt6opengl6-dev libqscintilla2-qt6-dev
  libgraphviz-dev librsvg2-dev libcairo2-dev libisl-dev llvm-16-dev lld-16 libzstd-dev libedit-dev
  libsqlite3-dev libopenblas-dev libxsmm-dev libdnnl-dev nlohmann-json3-dev libcli11-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  xvfb xauth imagemagick fonts-dejavu-core
)

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup-debian: all ${#PACKAGES[@]} packages present"
  exit 0
fi

echo "setup-debian: installing ${missing[*]}"
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends \
  -o DPkg::Lock::Timeout=300 "${missing[@]}"
