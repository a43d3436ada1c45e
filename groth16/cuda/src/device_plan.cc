// The backend's choices for a key on a GPU of a given size (device_plan.h),
// from the sizes its decisions use (cuda_sizes.cc): CudaKey::create keeps a
// key resident when its points and one lane fit the budget, keep_rows keeps
// the rows when they and a lane still fit, CudaLane::take_set holds one input
// set per worker when they fit beside the workspace (else one, shared), and a
// streamed key's lane takes the largest batches fit_streamed finds.
#include "cuzk/groth16/cuda/device_plan.h"

#include <algorithm>
#include <bit>

#include "cuda_internal.h"
#include "cuzk/gpu/vram_budget.h"

namespace cuzk::groth16::cuda {
namespace {

// What the driver's context takes on the device before cuzk allocates (CUDA
// 13 on an H200: about 0.5 GiB), and the backend's own margin
// (cuda_backend.cc kMarginBytes).
constexpr uint64_t kContextBytes = uint64_t(512) << 20;
constexpr uint64_t kMarginBytes = uint64_t(512) << 20;

std::string gib(uint64_t b) { return gpu::VramBudget::format_bytes(b); }

KeyShape shape_from(const KeyCounts& k, bool resident, const msm::cuda::DeviceTuning& tuning) {
  KeyShape s;
  s.tuning = tuning;
  s.lg_n = k.lg_n;
  s.n = uint64_t(1) << k.lg_n;
  s.n_h = k.n_h;
  s.num_vars = k.num_vars;
  s.num_inputs = k.num_inputs;
  s.m_l = k.m_l;
  s.m_a = k.m_a;
  s.m_b = k.m_b;
  s.resident = resident;
  return s;
}

}  // namespace

KeyCounts KeyCounts::porep_32gib() {
  // The 2^27 PoRep partition's key as its shape (r1cs/src/porep_shape.cc):
  // 130,169,893 aux and 328 inputs; A touches 129,753,620 variables and B
  // 33,100,000 (rounded). Its circuit's rows are not counted here: whether
  // they stay on the device is decided when the circuit is known.
  KeyCounts k;
  k.lg_n = 27;
  k.n_h = (uint64_t(1) << 27) - 1;
  k.num_inputs = 328;
  k.num_vars = 130169893 + 328;
  k.m_l = 130169893;
  k.m_a = 129753620;
  k.m_b = 33100000;
  return k;
}

uint64_t device_budget_bytes(uint64_t total_memory_bytes, uint64_t vram_limit_bytes) {
  const uint64_t free = total_memory_bytes > kContextBytes ? total_memory_bytes - kContextBytes : 0;
  uint64_t budget = free > kMarginBytes ? free - kMarginBytes : 0;
  if (vram_limit_bytes != 0) budget = std::min(budget, vram_limit_bytes);
  return budget;
}

DevicePlan plan_device(uint64_t budget_bytes, const KeyCounts& key, uint32_t workers,
                       const msm::cuda::DeviceTuning& tuning) {
  DevicePlan p;
  p.budget_bytes = budget_bytes;
  workers = std::max<uint32_t>(workers, 1);
  const KeyShape rs = shape_from(key, true, tuning);
  const uint64_t resident_key = resident_key_bytes(rs);
  const uint64_t resident_set = input_set_bytes(rs, {}).total();
  const uint64_t resident_ws = workspace_bytes(rs).total();
  const uint64_t lane = resident_set + resident_ws + (1 << 16);  // lane_bytes_needed on a fresh device
  KeyShape s = rs;
  StreamedSizes z;
  if (resident_key + lane <= budget_bytes) {
    p.resident = true;
    p.key_bytes = resident_key;
  } else {
    s = shape_from(key, false, tuning);
    p.key_bytes = streamed_key_bytes(s);
    if (p.key_bytes >= budget_bytes) return p;
    z = fit_streamed(s, budget_bytes - p.key_bytes);
    if (z.bytes == 0) return p;
    p.h_batch = z.batch;
    p.add_batch = z.add_batch;
    p.chunk = z.chunk;
    p.side = z.side;
  }
  uint64_t used = p.key_bytes;
  if (p.resident && key.circuit_bytes != 0 && key.circuit_bytes + lane <= budget_bytes - used) {
    p.rows_on_device = true;
    p.rows_bytes = key.circuit_bytes;
    used += p.rows_bytes;
  }
  p.input_set_bytes = input_set_bytes(s, z).total();
  p.workspace_bytes = workspace_bytes(s).total();
  const uint64_t left = budget_bytes - used;
  if (left < p.workspace_bytes + p.input_set_bytes) return p;
  const uint64_t fit = (left - p.workspace_bytes) / p.input_set_bytes;
  p.input_sets = uint32_t(std::min<uint64_t>(fit, workers));
  p.fits = true;
  return p;
}

std::string DevicePlan::summary() const {
  if (!fits) return "does not fit: " + gib(budget_bytes) + " of device memory hold neither the key nor the streamed plan's buffers";
  std::string s = resident ? "resident key " + gib(key_bytes) : "key streamed from pinned host memory";
  if (rows_on_device) s += ", rows on the device " + gib(rows_bytes);
  s += ", " + std::to_string(input_sets) + (input_sets == 1 ? " input set of " : " input sets of ") + gib(input_set_bytes);
  s += ", workspace " + gib(workspace_bytes);
  if (!resident)
    s += " (H batch 2^" + std::to_string(std::countr_zero(h_batch)) + ", tail chunk 2^" +
         std::to_string(std::countr_zero(chunk)) +
         (side ? ", batch additions beside the H MSM" : ", batch additions after the H MSM") + ")";
  s += " of " + gib(budget_bytes);
  return s;
}

}  // namespace cuzk::groth16::cuda
