#!/usr/bin/env bash
# The device kit's one script (docs/gpu.md, "The device kit"), for a Linux machine with an
# NVIDIA GPU, its driver and a C compiler: builds driver.c, then runs every case of this kit
# on the GPU against the CPU build's outputs and times the benchmarks; prints one table and
# keeps it in results.txt. Exit status: 0 when every case is correct.
#
#   bash run.sh [CASE...]       every case, or the ones named (names as in cases.txt)
#
# Environment: CC (default cc); AOT_CUDA_LIBRARY, the CUDA driver library (default
# libcuda.so.1); KIT_MODEL=A100|H100, the time model's device to compare with (default: the
# one the GPU's name says, else H100); KIT_TIMEOUT, seconds per case (default 120);
# KIT_CUBLAS=1 lets the matmuls go to cuBLAS when libcublas is found (default: off, so the
# measured kernels are the ones the time model predicts).
set -u
cd "$(dirname "$0")" || exit 2
"${CC:-cc}" -std=c11 -O2 -I. -o driver driver.c -ldl -lm || { echo "run.sh: cannot build driver.c" >&2; exit 2; }
if [ "${KIT_CUBLAS:-0}" = 1 ]; then unset AOT_CUBLAS; else export AOT_CUBLAS=0; fi
start=$(date +%s)
./driver . "$@" | tee results.txt
status=${PIPESTATUS[0]}
echo "run.sh: $(( $(date +%s) - start )) s; the table is in $(pwd)/results.txt"
exit "$status"
