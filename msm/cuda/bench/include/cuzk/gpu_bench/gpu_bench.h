// The device benchmarks behind `cuzk bench msm|ntt|h2d --backend cuda` and the
// standalone cuzk-gpu-bench: argv as for cuzk-gpu-bench (argv[1] = msm, ntt
// or h2d). Returns 0 when every figure was measured and its check passed,
// 1 on a failed check or no GPU, 2 on bad arguments.
#pragma once

namespace cuzk::gpu_bench {

int run(int argc, char** argv);

}  // namespace cuzk::gpu_bench
