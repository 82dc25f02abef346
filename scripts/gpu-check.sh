#!/usr/bin/env bash
# The device check (issue 13), run on a machine with an NVIDIA GPU and none of
# Tempo's build dependencies, from a copy of the repository that holds .gpu/
# (written by scripts/gpu-bundle.sh where Tempo builds). Prints the GPU, runs
# every bundled kernel on it against the CPU kernels' results, times the
# examples' kernels against the device's copy bandwidth and the launch cost,
# records that part with CUPTI as a Chrome trace (gpu-trace.json), and writes
# the summary as JSON to $OUT (or ./gpu-check-out). Nothing is
# downloaded. Exit 0 when every kernel case passed.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-gpu-check-out}
mkdir -p "$out"
if [ ! -x .gpu/gpu_kernel_check ]; then
  echo "gpu-check: no .gpu/ here: run scripts/gpu-bundle.sh where Tempo builds, and carry .gpu" >&2
  exit 2
fi
echo "== commit $(cat .gpu/commit 2>/dev/null)"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv 2>&1 | tee "$out/nvidia-smi.txt"
rm -rf /tmp/tempo-gpu && mkdir -p /tmp/tempo-gpu && tar -C /tmp/tempo-gpu -xzf .gpu/bundle.tgz
export LD_LIBRARY_PATH="$PWD/.gpu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
check=.gpu/gpu_kernel_check
"$check" >/dev/null 2>&1  # no arguments: its usage, exit 2, once it starts at all
if [ $? -ne 2 ]; then
  echo "gpu-check: the carried checker does not start here; building it with this machine's compiler"
  cuda=${CUDA_HOME:-/usr/local/cuda}
  g++ -O2 -std=c++20 -DTEMPO_HAVE_CUDA -I.gpu/src -I.gpu/include -I"$cuda/include" .gpu/src/GpuKernelCheck.cpp \
    .gpu/src/cuda/*.cpp -L"$cuda/lib64" -lcudart -lcupti -o /tmp/tempo-gpu/gpu_kernel_check || exit 1
  check=/tmp/tempo-gpu/gpu_kernel_check
fi
start=$(date +%s)
"$check" /tmp/tempo-gpu/bundle --bench --json "$out/gpu-kernels.json" --trace "$out/gpu-trace.json" 2>&1 | tee "$out/gpu-kernels.txt"
rc=${PIPESTATUS[0]}
echo "== gpu_kernel_check exit $rc in $(( $(date +%s) - start )) s"
exit "$rc"
