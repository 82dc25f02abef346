#!/usr/bin/env bash
# Prepares the device check (issue 13) where Tempo builds, with no GPU needed:
# builds gpu_bundle and gpu_kernel_check, writes the kernel bundle (every
# generated kernel of the examples, of the generated programs and of every
# (op, dtype) pair, compiled by NVRTC for sm_90, with the CPU kernels' results)
# and puts it, the checker and CUDA's runtime library into .gpu/ (ignored by
# git), which a GPU machine's copy of the repository runs with
# scripts/gpu-check.sh. Usage: scripts/gpu-bundle.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
cmake --build "$build" -j2 --target gpu_bundle gpu_kernel_check
rm -rf .gpu && mkdir -p .gpu/bundle
grep -qx '/.gpu/' .git/info/exclude 2>/dev/null || echo '/.gpu/' >> .git/info/exclude
"$build/bench/gpu_bundle" .gpu/bundle --generated "${TEMPO_GPU_GENERATED:-40}"
tar -C .gpu -czf .gpu/bundle.tgz bundle && rm -rf .gpu/bundle
cp "$build/bench/gpu_kernel_check" .gpu/
cudart=$(ldd "$build/bench/gpu_kernel_check" | awk '/libcudart/ {print $3}')
[ -n "$cudart" ] && cp -L "$cudart" .gpu/
# The checker's sources and the JSON header too: a GPU machine with a newer or older C++
# runtime rebuilds it there (scripts/gpu-check.sh) if the carried binary does not start.
mkdir -p .gpu/src/cuda .gpu/include
cp runtime/cuda/*.h runtime/cuda/*.cpp .gpu/src/cuda/ && cp bench/gpu/GpuKernelCheck.cpp .gpu/src/
cp -r "$(dirname "$(find /usr/include -name json.hpp -path '*nlohmann*' | head -1)")" .gpu/include/
git rev-parse --short HEAD > .gpu/commit
du -sh .gpu
