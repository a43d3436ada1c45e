// What the CUDA backend chooses for a key on a GPU, from the GPU's memory and
// the key's counts alone: whether the key stays resident or streams from
// pinned host memory, whether the circuit's rows stay beside it (a, b, c made
// on the device), how many input sets the device holds for its workers (one
// each lets a worker upload its next proof while another runs), and the
// streamed plan's batch sizes. The backend's own decisions use the same sizes
// (cuda_sizes.cc), so the plan is what a fresh device of that size does with
// that key alone; docs/daemon.md's table of GPU sizes comes from it
// (device_plan_test). Needs no GPU.
#pragma once

#include <cstdint>
#include <string>

#include "cuzk/msm/cuda/tuning.h"

namespace cuzk::groth16::cuda {

// A key's counts (ProvingKey sizes) and its circuit's device bytes (0: the
// rows are not kept, e.g. no circuit given).
struct KeyCounts {
  int lg_n = 0;
  uint64_t n_h = 0, num_vars = 0, num_inputs = 0, m_l = 0, m_a = 0, m_b = 0;
  uint64_t circuit_bytes = 0;
  // A 32 GiB PoRep partition's key (r1cs/src/porep_shape.cc) and circuit.
  static KeyCounts porep_32gib();
};

// The GPUs Filecoin operators own, by the memory nvidia-smi reports (MiB,
// NVIDIA's published totals): what device_plan_test and `cuzk filecoin
// circuit --memory` plan for.
struct OperatorCard {
  const char* name;
  uint64_t mib;
};
inline constexpr OperatorCard kOperatorCards[] = {
    {"RTX 5070 Ti 16 GB", 16303}, {"RTX 4090 24 GB", 24564}, {"RTX 5090 32 GB", 32607},
    {"A100 40 GB", 40960},        {"A100 80 GB", 81920},     {"H100 80 GB", 81559},
    {"H200 141 GB", 143771},
};

struct DevicePlan {
  uint64_t budget_bytes = 0;  // what the backend may use (free memory less a margin, or the limit)
  bool fits = false;          // false: not even the streamed plan's buffers fit
  bool resident = false;      // key points in device memory
  bool rows_on_device = false;
  uint32_t input_sets = 0;  // held at once; fewer than the workers: they share one (plain path)
  uint64_t key_bytes = 0, rows_bytes = 0, input_set_bytes = 0, workspace_bytes = 0;
  size_t h_batch = 0, add_batch = 0, chunk = 0;  // streamed plan
  bool side = false;  // streamed plan: w and the batch additions in a side buffer, beside the H MSM
  // "resident key 45.2 GiB, rows on the device 9.1 GiB, 2 input sets of 10.3 GiB, workspace 21.0 GiB".
  std::string summary() const;
};

// The device's memory as the backend sees it at start: total less what the
// driver's context takes, less the backend's margin; a vram_limit caps it.
uint64_t device_budget_bytes(uint64_t total_memory_bytes, uint64_t vram_limit_bytes);

// `budget_bytes` from device_budget_bytes; `workers` per device; `tuning`
// the device's (msm/cuda/tuning.h: the H200's by default).
DevicePlan plan_device(uint64_t budget_bytes, const KeyCounts& key, uint32_t workers,
                       const msm::cuda::DeviceTuning& tuning = {});

}  // namespace cuzk::groth16::cuda
