// cuzk-gpu-bench: the device benchmarks as a standalone binary.
#include "cuzk/gpu_bench/gpu_bench.h"

int main(int argc, char** argv) { return cuzk::gpu_bench::run(argc, argv); }
