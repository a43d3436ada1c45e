// Internals of the CUDA backend (cuda_backend.h): the device context, the
// attached key, and the sizes of a lane's device buffers in either plan.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "cuzk/base/status.h"
#include "cuzk/base/thread_pool.h"
#include "cuzk/gpu/buffer.h"
#include "cuzk/gpu/vram_budget.h"
#include "cuzk/groth16/backend.h"
#include "cuzk/groth16/cuda/cuda_backend.h"
#include "cuzk/msm/cuda/msm.h"
#include "cuzk/msm/cuda/tuning.h"
#include "cuzk/r1cs/cuda/matvec.h"

namespace cuzk::groth16::cuda {

// The sizes that fix a lane's buffers.
struct KeyShape {
  KeyLayout layout = KeyLayout::kBellperson;
  int lg_n = 0;
  uint64_t n = 0;           // domain
  uint64_t n_h = 0;         // H points (n − 1 or n)
  uint64_t num_vars = 0;
  uint64_t num_inputs = 0;
  uint64_t m_l = 0, m_a = 0, m_b = 0;  // points of L, A, B
  bool resident = false;
  // The device's MSM tuning (DeviceContext::tuning): the MSMs' workspaces
  // and the streamed H batch cap follow it, so every size below uses the
  // tuning the lane's MSMs run with.
  msm::cuda::DeviceTuning tuning;
  friend bool operator==(const KeyShape&, const KeyShape&) = default;
  // The MSM configuration of this device's MSMs.
  msm::cuda::MsmConfig msm_config() const {
    msm::cuda::MsmConfig c;
    c.tuning = tuning;
    return c;
  }
};
KeyShape shape_of(const ProvingKey& pk, bool resident, const msm::cuda::DeviceTuning& tuning = {});

// The streamed plan's batch sizes and the device bytes of one input set and
// the workspace with them. Its MSMs run in the input set's buffers: the H MSM
// in the b/c buffer (dead after the H step), the tail MSMs in the a buffer
// (dead after the H MSM). Where w goes and where the batch additions run
// depends on `side`:
//   * side: the set has a third buffer, uploaded with w at stage, that also
//     holds the classification's outputs, the batch additions' batches and
//     then the tails' chunks and MSM workspace; the classification, the
//     batch additions (bound by PCIe: they stream every point of L, A, B1
//     and B2) and the tails run on a stream and host thread of their own
//     beside the H step and the H MSM (bound by the device);
//   * otherwise (a budget without room for it): w is uploaded into the b/c
//     buffer after the H MSM, and the batch additions run after it, in the a
//     buffer, one query at a time with its tail.
struct StreamedSizes {
  size_t batch = 0;      // H MSM batch (G1), lent the b/c buffer
  size_t add_batch = 0;  // batch additions' batch (G1; G2 takes half), lent the a or the side buffer
  size_t chunk = 0;      // tail points gathered at a time
  bool side = false;
  uint64_t bytes = 0;
  friend bool operator==(const StreamedSizes&, const StreamedSizes&) = default;
};
struct InputSetBytes {
  uint64_t a = 0, bc = 0, w = 0, side = 0;
  uint64_t total() const { return a + bc + w + side; }
};
struct WorkspaceBytes {
  uint64_t ntt = 0, cls = 0, msm = 0, ba = 0;
  uint64_t total() const { return ntt + cls + msm + ba; }
};
// `z` is ignored in the resident plan.
InputSetBytes input_set_bytes(const KeyShape& s, const StreamedSizes& z);
WorkspaceBytes workspace_bytes(const KeyShape& s);
// Device bytes of one input set and the workspace in the resident plan.
uint64_t resident_lane_bytes(const KeyShape& s);
// The streamed sizes with these batches (the batch additions' from the shape
// and `side`); bytes = 0 when a batch is invalid.
StreamedSizes streamed_sizes(const KeyShape& s, size_t batch, size_t chunk, bool side = false);
// The largest H batch (from 2^25, or the H MSM's size when smaller, down to
// 2^10) with the largest tail chunk (no larger than the batch, from 2^22 or
// the largest query, down to 2^20 before a smaller batch is tried) that fit
// in `available` bytes; bytes = 0 when none does. With `allow_side`, the
// sizes with a side buffer come first, down to H batches of 2^kMinSideBatchLg
// (cuda_sizes.cc): hiding the batch additions' transfers gains more than a
// larger H batch.
StreamedSizes fit_streamed(const KeyShape& s, uint64_t available, bool allow_side = true);

// One proof's inputs on the device: held by a lane from stage() to the end
// of run().
struct InputSet {
  gpu::VramBudget::Reservation reservation;
  gpu::DeviceBuffer<uint8_t> a, bc, w, side;
  InputSetBytes bytes;
  bool held = false;
};

// What run() uses besides the inputs, one per device (only one lane runs at a
// time): grown, never shrunk, so a device that proves one shape allocates it
// once.
struct Workspace {
  gpu::VramBudget::Reservation reservation;
  gpu::DeviceBuffer<uint8_t> ntt, cls, msm, ba;
  // Streamed plan: streams, events and pinned results only (made by the
  // first streamed run); their batches run in the input set's buffers.
  std::optional<msm::cuda::StreamedMsm<ec::G1Curve>> sm1;
  std::optional<msm::cuda::StreamedMsm<ec::G2Curve>> sm2;
  // The batch additions beside the H MSM (side buffer): streams of their own.
  std::optional<msm::cuda::StreamedMsm<ec::G1Curve>> sb1;
  std::optional<msm::cuda::StreamedMsm<ec::G2Curve>> sb2;
};

// What the backend's keys and lanes share. Thread-safe.
struct DeviceContext {
  int ordinal = 0;
  std::string name;  // device summary
  uint64_t total_bytes = 0;
  msm::cuda::DeviceTuning tuning;  // from the device's properties (msm/cuda/tuning.h)
  Placement placement = Placement::kAuto;
  ThreadPool* pool = nullptr;
  CudaFaults faults;
  bool ones_by_pairs = false;  // CudaBackendOptions::ones_sum, resolved
  gpu::VramBudget budget{0};
  std::atomic<uint32_t> lanes{0};
  std::atomic<uint64_t> runs{0};

  // Held by a lane's run(): the device region's buffers.
  std::mutex run_mu;
  Workspace ws;  // GUARDED_BY(run_mu)
  std::atomic<uint64_t> ws_bytes{0};  // what ws reserves (read by take_set for its estimate)

  // Input sets: one per lane when the budget holds that many (each lane
  // uploads its next proof while another runs), else one that the lanes use
  // in turn inside run() ("shared": uploads inside the device region).
  std::mutex sets_mu;
  std::vector<std::unique_ptr<InputSet>> sets;  // GUARDED_BY(sets_mu)
  uint64_t mode_bytes = 0;                      // GUARDED_BY(sets_mu): the set size the mode was chosen for
  bool shared_sets = false;                     // GUARDED_BY(sets_mu)
  std::vector<std::pair<KeyShape, StreamedSizes>> streamed;  // GUARDED_BY(sets_mu): sizes chosen per shape
};

// Device bytes a resident key holds (its points and index lists).
uint64_t resident_key_bytes(const ProvingKey& pk, const msm::cuda::DeviceTuning& tuning = {});
uint64_t resident_key_bytes(const KeyShape& s);
// Device bytes of a streamed key (its A and B index lists).
uint64_t streamed_key_bytes(const KeyShape& s);

class CudaKey final : public AttachedKey {
 public:
  // Resident when its points fit max_device_bytes and, with one lane's
  // buffers, the budget (or when the placement says so).
  // With options.circuit, a resident key also keeps the circuit's rows on
  // the device when they fit beside it (within max_device_bytes and with one
  // lane's buffers in the budget): computes_rows() then holds.
  static StatusOr<std::shared_ptr<const CudaKey>> create(const ProvingKey& pk, std::shared_ptr<DeviceContext> ctx,
                                                         const AttachOptions& options = {});

  uint64_t device_bytes() const override { return reservation_.bytes() + rows_reservation_.bytes(); }
  std::string placement() const override { return placement_; }
  bool computes_rows() const override { return rows_.has_value(); }
  bool resident() const { return resident_; }
  const KeyShape& shape() const { return shape_; }
  // The circuit on the device. REQUIRES: computes_rows().
  const r1cs::cuda::CircuitView& rows_view() const { return rows_->view(); }
  CRule c_rule() const { return c_rule_; }

  // The bases as the MSMs take them: device memory (resident) or pinned
  // host memory (streamed).
  const ec::G1Affine *h = nullptr, *l = nullptr, *a = nullptr, *b1 = nullptr;
  const ec::G2Affine* b2 = nullptr;
  // Device addresses of the same points for gathers (resident: the same
  // pointers; streamed: the mapped host memory).
  const void *l_dev = nullptr, *a_dev = nullptr, *b1_dev = nullptr, *b2_dev = nullptr;
  const uint32_t* idx_a() const { return idx_a_.data(); }
  const uint32_t* idx_b() const { return idx_b_.data(); }

 private:
  explicit CudaKey(const ProvingKey& pk) : AttachedKey(pk) {}
  Status make_resident(const ProvingKey& pk);
  Status make_streamed(const ProvingKey& pk);
  // Keeps `circuit` on the device when it fits; says which in placement_.
  Status keep_rows(const r1cs::Circuit& circuit, uint64_t max_device_bytes);
  // Pins `bytes` at p (a large block in place; a small one copied into a
  // pinned buffer of its own, since small heap blocks may share pages) and
  // returns the pinned host address and its device address.
  StatusOr<std::pair<const void*, const void*>> pin(const void* p, size_t bytes);

  std::shared_ptr<DeviceContext> ctx_;
  bool resident_ = false;
  KeyShape shape_;
  std::string placement_;
  gpu::VramBudget::Reservation reservation_;
  gpu::DeviceBuffer<ec::G1Affine> d_h_, d_l_, d_a_, d_b1_;
  gpu::DeviceBuffer<ec::G2Affine> d_b2_;
  std::vector<gpu::HostRegistration> registrations_;
  std::vector<gpu::PinnedBuffer<uint8_t>> copies_;
  gpu::DeviceBuffer<uint32_t> idx_a_, idx_b_;
  gpu::VramBudget::Reservation rows_reservation_;
  std::optional<r1cs::cuda::DeviceCircuit> rows_;
  CRule c_rule_ = CRule::kMatrix;
};

StatusOr<std::unique_ptr<Lane>> make_cuda_lane(std::shared_ptr<DeviceContext> ctx);

}  // namespace cuzk::groth16::cuda
