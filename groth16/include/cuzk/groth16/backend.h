// The seam between the prover (prover.h: matvec before, assembly after) and
// the devices that compute the H polynomial and the five MSMs.
//
//   Backend      one per device (the CPU is one). attach() places a proving key
//                on it once; make_lane() makes per-worker lanes.
//   AttachedKey  a key as a device holds it: resident in device memory, or
//                left in (pinned) host memory for the MSMs to stream, or, on the
//                CPU, simply the host key. Reports the device bytes it holds.
//   Lane         one worker's streams, events and device workspace:
//                  stage()  outside the device interlock: takes one proof's
//                           inputs and queues their uploads (one event each);
//                  run()    inside it: H, then the five MSMs with the 0/1
//                           split, returning their sums.
//
// Assembly (r, s blinding) happens on the host, in prover.cc, the same for
// every backend. The CPU backend implements the same seam and is the oracle:
// with the same r and s every backend must give the same proof bytes.
//
// Thread-safety: Backend::attach, make_lane and allocate_inputs may be called
// from any thread. An AttachedKey is immutable and may be shared by lanes of
// its backend (it is released when the last holder drops it). A Lane is used
// by one thread at a time (stage, run, stage, run, ...).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cuzk/base/status.h"
#include "cuzk/base/thread_pool.h"
#include "cuzk/ec/curves.h"
#include "cuzk/groth16/keys.h"
#include "cuzk/r1cs/circuit.h"

namespace cuzk::groth16 {

// Σ of each query against its scalars: H·h, L·aux, A·w_A, B1·w_B (G1) and
// B2·w_B (G2).
struct MsmSums {
  ec::G1Jacobian h, l, a, b1;
  ec::G2Jacobian b2;
};

// Why a proof took a slower path than its device's best. Counted per cause
// (cuzk_fallbacks_total{cause=fallback_name(f)}).
enum class Fallback : uint8_t {
  kPageableUpload,  // an input was not in pinned memory: uploads at pageable speed
  kPinnedAlloc,     // pinned memory could not be allocated for partition inputs
  kKeyStreamed,     // the key's points stream from host memory (it does not fit the device)
  kPlainPath,       // no device memory for this lane's own inputs: uploaded inside the device region
  kDeviceError,     // a device error failed a job; the device goes on
  kHostMatvec,      // the host made a, b, c where the device would have (its circuit is not there)
};
inline constexpr Fallback kAllFallbacks[] = {Fallback::kPageableUpload, Fallback::kPinnedAlloc, Fallback::kKeyStreamed,
                                             Fallback::kPlainPath,      Fallback::kDeviceError, Fallback::kHostMatvec};
// "pageable_upload", "pinned_alloc", "key_streamed", "plain_path", "device_error", "host_matvec".
std::string_view fallback_name(Fallback f);

// What a backend's device can do, for the engine's decisions (which never
// look at a backend's name).
struct BackendCaps {
  // attach() places a key once and it stays, holding device memory (the
  // DEVICE tier); false: keys are attached per proof and hold nothing.
  bool keeps_keys = true;
  // Proof inputs are uploaded: the engine puts them in host buffers the
  // backend allocates (allocate_inputs: pinned where that pays).
  bool uploads_inputs = true;
  // A key attached with its circuit may make a, b, c from the witness on
  // the device (AttachedKey::computes_rows()).
  bool can_make_rows = true;
  // LaneTimes are device times (events); the upload is not busy time.
  bool device_timed = true;
};

// One proof's inputs.
//   a, b, c   the row values (prover.h, compute_rows), domain size n each,
//             zero-padded; run() clobbers them. All three empty when the key
//             computes them itself (AttachedKey::computes_rows()): the lane
//             then makes them from the witness, on its device.
//   witness   all num_vars values (1, inputs, aux)
//   check_rows  with rows computed by the lane: first check a_i·b_i = c_i for
//             every row of the circuit (only meaningful for CRule::kMatrix)
//             and fail with INVALID_ARGUMENT "constraint <i> is not
//             satisfied" (the smallest such i, as r1cs::is_satisfied says it)
struct ProofInputs {
  std::span<Fr> a, b, c;
  std::span<const Fr> witness;
  bool check_rows = false;
  // Polled by run() between its stages (the CPU lane: after the rows, H and
  // each MSM): once it returns true, run() stops at the next boundary with
  // CANCELLED, so that the worker of a cancelled job is free in seconds, not
  // at the end of the proof. Must be thread-safe (the CUDA lane's
  // overlapped plan polls it from two threads). Empty: never. The CUDA lane
  // polls where its host waits for the device anyway (after the H step, and
  // between the streamed plans' StreamedMsm calls and tails); work already
  // queued on the device finishes before run() returns.
  std::function<bool()> cancelled;
  bool rows_given() const { return !a.empty() || !b.empty() || !c.empty(); }
};

// What a lane's last proof did: named stage times (device times from CUDA
// events on the CUDA backend, host wall times on the CPU), in order, and the
// bytes it moved to the device. Stages named "beside.<stage>" ran beside the
// others (another stream and host thread: the CUDA lane's overlapped
// streamed plan); total_ms() leaves them out, get() counts them only when
// asked for by that name.
struct LaneTimes {
  static constexpr std::string_view kBeside = "beside.";
  std::vector<std::pair<std::string, double>> stages_ms;
  uint64_t upload_bytes = 0;
  bool pageable_upload = false;  // an input was not in pinned memory (slower upload)
  // The fallbacks this proof took: kPageableUpload (as above), kPlainPath
  // (no device memory for this lane's own inputs: they were uploaded inside
  // the device region, into buffers the device's lanes share), kKeyStreamed
  // (the key's points are streamed from host memory).
  std::vector<Fallback> fallbacks;
  std::string plan;              // how the lane ran the proof ("cpu", "resident", "streamed")
  double total_ms() const;
  // Some stages ran beside the others ("beside." names): total_ms() is then
  // the main stream's time, not the device's busy time.
  bool overlapped() const;
  // The stage's time, or the sum of its parts ("msm_l" = "msm_l.ones" +
  // "msm_l.tail"); 0 when absent.
  double get(std::string_view stage) const;
};

// A proving key placed on a device. The host key it was attached from must
// outlive it.
class AttachedKey {
 public:
  explicit AttachedKey(const ProvingKey& pk) : pk_(&pk) {}
  virtual ~AttachedKey() = default;
  AttachedKey(const AttachedKey&) = delete;
  AttachedKey& operator=(const AttachedKey&) = delete;

  const ProvingKey& pk() const { return *pk_; }
  // Device memory this key holds (0 on the CPU).
  virtual uint64_t device_bytes() const = 0;
  // Where its points are and why ("host", "device-resident: ...", "streamed
  // from pinned host memory: ...").
  virtual std::string placement() const = 0;
  // Whether lanes compute a, b, c from the witness themselves (the key was
  // attached with its circuit and the device kept it): ProofInputs may then
  // leave a, b and c empty.
  virtual bool computes_rows() const { return false; }

 private:
  const ProvingKey* pk_;
};

class Lane {
 public:
  virtual ~Lane() = default;
  // Outside the device interlock: takes one proof under `key` and queues the
  // uploads of its inputs. REQUIRES: the spans of `in` stay valid and are not
  // touched by the caller until run() has returned (or the lane is
  // destroyed); `key` is alive until then; the sizes match the key, and a, b,
  // c are empty only when key->computes_rows() (checked: INVALID_ARGUMENT).
  // Errors: RESOURCE_EXHAUSTED when the lane's workspace does not fit the
  // device budget.
  virtual Status stage(std::shared_ptr<const AttachedKey> key, const ProofInputs& in) = 0;
  // Inside the device interlock: the H step and the five MSMs of the staged
  // proof (first the rows, when the lane makes them). Errors:
  // INVALID_ARGUMENT "constraint <i> is not satisfied" from the row check
  // (ProofInputs::check_rows), FAILED_PRECONDITION when A·B − C is not
  // divisible by Z (bellperson keys: the witness does not satisfy the circuit),
  // FAILED_PRECONDITION when nothing is staged, device errors (the lane stays
  // usable for the next proof).
  virtual StatusOr<MsmSums> run() = 0;
  virtual const LaneTimes& times() const = 0;
};

// Host memory for proof inputs, allocated by a backend in the kind it
// uploads fastest from (pinned on CUDA, plain on the CPU). Move-only.
class HostBuffer {
 public:
  HostBuffer() = default;
  HostBuffer(Fr* p, size_t n, bool pinned, std::function<void(Fr*)> free)
      : p_(p), n_(n), pinned_(pinned), free_(std::move(free)) {}
  HostBuffer(HostBuffer&& o) noexcept { *this = std::move(o); }
  HostBuffer& operator=(HostBuffer&& o) noexcept {
    if (this != &o) {
      reset();
      p_ = std::exchange(o.p_, nullptr);
      n_ = std::exchange(o.n_, 0);
      pinned_ = o.pinned_;
      free_ = std::move(o.free_);
    }
    return *this;
  }
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;
  ~HostBuffer() { reset(); }
  void reset() {
    if (p_ && free_) free_(p_);
    p_ = nullptr;
    n_ = 0;
  }
  Fr* data() const { return p_; }
  size_t size() const { return n_; }
  bool pinned() const { return pinned_; }
  std::span<Fr> span() const { return {p_, n_}; }

 private:
  Fr* p_ = nullptr;
  size_t n_ = 0;
  bool pinned_ = false;
  std::function<void(Fr*)> free_;
};

// A device's memory as its backend sees it (all 0 on the CPU): the device's
// size, the budget the backend may use, what it holds now and its peak.
struct DeviceMemory {
  uint64_t total_bytes = 0, budget_bytes = 0, used_bytes = 0, peak_bytes = 0;
};

struct AttachOptions {
  // The most device memory the key may hold: a key that needs more for its
  // points is streamed from host memory instead (keys.device_budget).
  uint64_t max_device_bytes = UINT64_MAX;
  // The rows the key proves (prover.h: the circuit's own rows for a
  // bellperson key, the key's A/B rows for a snarkjs key) and how c is made.
  // When set, the backend may keep them beside the key so that its lanes
  // compute a, b, c from the witness alone (AttachedKey::computes_rows()): on
  // a GPU, when the key is resident and the rows fit beside it (they count in
  // device_bytes() and against max_device_bytes). REQUIRES: *circuit outlives
  // the attached key, and matches the key (checked: FAILED_PRECONDITION).
  const r1cs::Circuit* circuit = nullptr;
  CRule c_rule = CRule::kMatrix;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string_view name() const = 0;
  virtual BackendCaps caps() const { return {}; }
  virtual DeviceMemory device_memory() const { return {}; }
  // One line for logs: the device, its memory budget.
  virtual std::string describe() const = 0;
  // Places `pk` on the device (uploads its points once, or prepares them for
  // streaming). REQUIRES: pk outlives the returned key. Errors:
  // RESOURCE_EXHAUSTED when it cannot be placed at all; device errors.
  virtual StatusOr<std::shared_ptr<const AttachedKey>> attach(const ProvingKey& pk,
                                                             const AttachOptions& options = {}) = 0;
  // Device bytes `pk` would hold resident (0 where keys take no device
  // memory, as on the CPU).
  virtual uint64_t resident_key_bytes(const ProvingKey& pk) const {
    (void)pk;
    return 0;
  }
  virtual StatusOr<std::unique_ptr<Lane>> make_lane() = 0;
  // n uninitialised values. Pinned when the backend benefits and pinning
  // succeeds (HostBuffer::pinned() says which).
  virtual StatusOr<HostBuffer> allocate_inputs(size_t n);
};

// The CPU backend over ntt/ and msm/, running on `pool` (default pool when null).
std::unique_ptr<Backend> make_cpu_backend(ThreadPool* pool = nullptr);

}  // namespace cuzk::groth16
