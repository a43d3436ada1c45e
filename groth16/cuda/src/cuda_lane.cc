// A lane of the CUDA backend (cuda_backend.h): its streams, events and device
// buffers, and the two plans of a proof (resident and streamed bases).
//
// Stream order of the resident plan (us: upload stream, cs: compute stream):
//   stage:  us: a, b, c, w uploads, an event after each (only w when the key
//           keeps its circuit on the device and the proof brings no rows)
//   run:    [rows made here: cs: wait w → a, b, c = A·w, B·w, C·w, the rows
//           past the circuit's, and the row check → first broken row to the host]
//           cs: for a, b and c: wait its upload, transform it (so b and c
//           arrive while a is transformed; bellperson: c only to its
//           coefficients) → the element-wise step and, bellperson, the coset
//           iNTT less c's coefficients → [bellperson: h[n−1] to the host]
//           cs: wait w → classify L, A, B → tail counts to the host → event E
//           cs: H MSM (queued before the host waits)
//           host: wait E (H step and classification; the H MSM runs on)
//           cs, q0, q1, q2 (after the H MSM): L, A, B1, B2 side by side,
//           each its batch addition of the ones, then its tail MSM, in
//           workspaces carved from the H MSM's → cs waits for q0..q2
//           (where the four workspaces do not fit, or with the
//           serial_queries fault: all four in turn on cs, as before)
//           cs: results to the host; host waits for cs
// The classification's outputs live in the buffer b and c came in (the H step
// has consumed them by then).
//
// Stream order of the streamed plan (s0, s1: the StreamedMsms' two slot
// streams; every StreamedMsm call is host-synchronous, msm.h):
//   stage:  us: a, b, c uploads, an event after each
//   run:    cs: the H step as above → [bellperson: h[n−1] to the host]
//           host: wait cs (the b/c buffer is dead; h is in a), check h[n−1]
//           s0/s1: H MSM, bases from pinned host memory, batches in the b/c
//                  buffer, scalars read in a → result to the host
//           us: w into the b/c buffer (queued once the H MSM has returned)
//           cs: wait w → classify L, A, B (outputs after w) → tail counts
//           host: wait for the classification
//           for L, A, B1, B2: s0/s1: batch addition of the ones, bases from
//           pinned host memory, batches in the a buffer (dead once the H MSM
//           has read its scalars); cs: the tail MSM, its points gathered over
//           PCIe chunk by chunk into the end of the b/c buffer
// The H MSM comes first so that its batches can take the whole b/c buffer
// (a 2^27 domain under a 16 GiB budget: batches of 2^24 points, where
// batches that had to fit beside the inputs and the workspace were 2^22 at
// most), and the StreamedMsms need no memory of their own.
//
// The overlapped streamed plan (the set has a side buffer: cuda_internal.h
// StreamedSizes), where the budget holds it:
//   stage:  us: w into the side buffer, then a, b, c, an event after each
//   run:    cs: the H step as above; host: wait cs, check h[n−1];
//           s0/s1: the H MSM as above, batches in the b/c buffer
//           beside it, on a host thread of its own: ss: wait w → classify
//           L, A, B (outputs after w in the side buffer) → tail counts;
//           host: wait; b0/b1 (the side StreamedMsms' streams): the batch
//           additions of L, A, B1, B2, bases from pinned host memory,
//           batches in the side buffer after the splits; ss: the tails as
//           above, chunks and MSM workspace in the same room
//           host: join the thread
// The batch additions move ≈ 32 GiB of L, A, B1, B2 over PCIe for a 2^27
// PoRep partition and do little arithmetic; the H step and the H MSM do much
// arithmetic and move 12 GiB: side by side, each hides most of the other.
#include <algorithm>
#include <array>
#include <chrono>
#include <future>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "cuda_internal.h"
#include "cuzk/gpu/check.h"
#include "cuzk/gpu/device.h"
#include "cuzk/gpu/nvtx.h"
#include "cuzk/gpu/stream.h"
#include "cuzk/groth16/lane_util.h"
#include "cuzk/msm/cuda/msm.h"
#include "cuzk/msm/cuda/split.h"
#include "cuzk/ntt/cuda/ntt.h"
#include "gather.h"
#include "rows.h"

namespace cuzk::groth16::cuda {
namespace {

using ec::G1Curve;
using ec::G2Curve;
using ff::Fr;

constexpr uint64_t kAlign = 256;
// LaneTimes::plan of a resident proof whose queries ran side by side.
constexpr std::string_view kSideBySide = "resident, queries side by side";
constexpr std::string_view kOnesByPairs = ", ones by pair rounds";
uint64_t align(uint64_t x) { return (x + kAlign - 1) & ~(kAlign - 1); }

// Carves aligned pieces out of one device buffer.
class Carver {
 public:
  Carver(void* base, uint64_t size) : base_(static_cast<uint8_t*>(base)), size_(size) {}
  template <class T>
  StatusOr<T*> take(uint64_t count) {
    const uint64_t bytes = align(count * sizeof(T));
    if (at_ + bytes > size_) return internal_error("lane buffer layout overflows its buffer");
    T* p = reinterpret_cast<T*>(base_ + at_);
    at_ += bytes;
    return p;
  }
  uint64_t used() const { return at_; }

 private:
  uint8_t* base_;
  uint64_t size_;
  uint64_t at_ = 0;
};

// One query's split outputs.
struct QuerySplit {
  msm::cuda::SplitBuffers bufs;
  uint64_t m = 0;
};

// Where the streamed plan's tail MSMs run: chunk buffers for the gathered
// points (room for G2) and scalars, the MSM's workspace, the stream, and
// the device's MSM configuration.
struct TailRoom {
  uint8_t* points = nullptr;
  ff::Fr* scalars = nullptr;
  void* workspace = nullptr;
  size_t workspace_bytes = 0;
  cudaStream_t stream = nullptr;
  msm::cuda::MsmConfig config;
};

// Host wall times of host-synchronous stages, appended to `out` as each
// ends, named with `prefix` (LaneTimes::kBeside for the side thread's).
class HostStages {
 public:
  HostStages(std::vector<std::pair<std::string, double>>* out, std::string_view prefix)
      : out_(out), prefix_(prefix), t0_(std::chrono::steady_clock::now()) {}
  void mark(std::string_view stage) {
    const auto t1 = std::chrono::steady_clock::now();
    out_->emplace_back(prefix_ + std::string(stage), std::chrono::duration<double, std::milli>(t1 - t0_).count());
    t0_ = t1;
  }

 private:
  std::vector<std::pair<std::string, double>>* out_;
  std::string prefix_;
  std::chrono::steady_clock::time_point t0_;
};

// G1 results: h, l ones, l tail, a ones, a tail, b1 ones, b1 tail; G2: b2 ones, b2 tail.
enum G1Slot { kH = 0, kL1, kLt, kA1, kAt, kB11, kB1t, kG1Slots };
enum G2Slot { kB21 = 0, kB2t, kG2Slots };

template <class T>
Status grow(gpu::DeviceBuffer<T>& b, uint64_t n) {
  if (b.size() >= n) return ok_status();
  b.reset();
  ASSIGN_OR_RETURN(b, gpu::DeviceBuffer<T>::allocate(n));
  return ok_status();
}

class CudaLane final : public Lane {
 public:
  explicit CudaLane(std::shared_ptr<DeviceContext> ctx) : ctx_(std::move(ctx)) {}
  ~CudaLane() override;
  Status init();

  Status stage(std::shared_ptr<const AttachedKey> key, const ProofInputs& in) override;
  StatusOr<MsmSums> run() override;
  const LaneTimes& times() const override { return times_; }

 private:
  StatusOr<StreamedSizes> sizes_for(const KeyShape& s);
  StatusOr<InputSet*> take_set(const KeyShape& s, bool in_run);
  Status add_set(const InputSetBytes& need);
  void release_set();
  Status ensure_workspace(const KeyShape& s);
  Status upload_inputs(const KeyShape& s);
  Status upload(const Fr* host, size_t count, Fr* dst, gpu::Event& done);
  Status run_locked(const CudaKey& key);
  Status make_rows(const CudaKey& key);
  Status h_step(const KeyShape& s);
  Status check_witness(const KeyShape& s);
  Status classify_all(const CudaKey& key, const Fr* d_w, cudaStream_t stream);
  Status resident_msms(const CudaKey& key);
  Status resident_queries(const CudaKey& key);
  Status streamed_h_msm(const CudaKey& key);
  Status streamed_plan(const CudaKey& key);
  Status overlapped_plan(const CudaKey& key);
  Status batch_additions_beside(const CudaKey& key, std::vector<std::pair<std::string, double>>* stages);
  Status streamed_msms(const CudaKey& key);
  Status streamed_tails(const CudaKey& key, const TailRoom& room, std::vector<std::pair<std::string, double>>* stages);
  TailRoom serial_tail_room();
  template <class C>
  Status streamed_tail(const void* bases_dev, const QuerySplit& q, uint32_t count, const Fr* d_w,
                       const TailRoom& room, ec::Jacobian<C>* acc);
  Status mark(const char* stage);
  Status stop_if_cancelled(const char* where) const;
  Status collect_marks();
  MsmSums sums() const;
  void abandon();

  std::shared_ptr<DeviceContext> ctx_;
  gpu::Stream us_, cs_;
  gpu::Stream ss_;  // the side buffer's classification (overlapped plan)
  // The resident plan's queries side by side: A, B1 and B2 on q0..q2 (L on
  // cs), forked after the H MSM; per query, events at the end of its batch
  // addition and of its tail MSM (L, A, B1, B2).
  std::array<gpu::Stream, 3> qs_;
  gpu::Event ev_fork_;
  std::array<std::array<gpu::Event, 2>, 4> ev_q_;
  gpu::Event ev_a_, ev_b_, ev_c_, ev_w_, ev_cls_, ev_up0_, ev_up1_;
  std::vector<std::pair<std::string, gpu::Event>> marks_;  // timing events on cs, in order
  size_t marks_used_ = 0;

  gpu::DeviceBuffer<ec::G1Jacobian> d_res1_;
  gpu::DeviceBuffer<ec::G2Jacobian> d_res2_;
  gpu::DeviceBuffer<uint32_t> d_counts_;
  gpu::PinnedBuffer<ec::G1Jacobian> h_res1_;
  gpu::PinnedBuffer<ec::G2Jacobian> h_res2_;
  gpu::PinnedBuffer<uint32_t> h_counts_;
  gpu::PinnedBuffer<Fr> h_last_;
  gpu::DeviceBuffer<uint32_t> d_bad_;  // the first row that does not hold (rows made here)
  gpu::PinnedBuffer<uint32_t> h_bad_;

  // The staged proof.
  std::shared_ptr<const CudaKey> key_;
  ProofInputs in_;
  StreamedSizes streamed_;
  InputSet* set_ = nullptr;  // held from stage (own set) or from run (shared set) to the end of run
  Workspace* ws_ = nullptr;  // during run
  std::array<QuerySplit, 3> split_;  // L, A, B
  Fr* d_w_ = nullptr;                // where w is on the device
  uint8_t* split_end_ = nullptr;     // the first byte after the split outputs
  bool rows_here_ = false;           // the lane makes a, b, c from w (the key keeps the circuit)
  LaneTimes times_;
  std::array<ec::G1Jacobian, kG1Slots> host_g1_{};
  std::array<ec::G2Jacobian, kG2Slots> host_g2_{};
};

Status CudaLane::init() {
  ASSIGN_OR_RETURN(gpu::ScopedDevice scope, gpu::ScopedDevice::create(ctx_->ordinal));
  ASSIGN_OR_RETURN(us_, gpu::Stream::create());
  ASSIGN_OR_RETURN(cs_, gpu::Stream::create());
  // The side thread's streams are the most urgent (ss here, the side
  // StreamedMsms' slot streams in ensure_workspace): in the overlapped plan
  // the side path (≈ 32 GiB of batch additions' transfers a 2^27 partition)
  // is the longer one, and its small kernels, queued behind the H step's
  // and the H MSM's, held up the next batch's copy.
  ASSIGN_OR_RETURN(const int urgent, gpu::Stream::greatest_priority());
  ASSIGN_OR_RETURN(ss_, gpu::Stream::create(urgent));
  // B1 and B2 (q1, q2) at the greatest priority: their tails are small MSMs,
  // mostly serial steps, and they finished last behind L's and A's full
  // kernels (2^27 PoRep: B2 238 ms beside them, 55 ms alone).
  ASSIGN_OR_RETURN(qs_[0], gpu::Stream::create());
  for (size_t i = 1; i < qs_.size(); ++i) {
    ASSIGN_OR_RETURN(qs_[i], gpu::Stream::create(urgent));
  }
  ASSIGN_OR_RETURN(ev_fork_, gpu::Event::create(true));
  for (auto& pair : ev_q_)
    for (gpu::Event& e : pair) {
      ASSIGN_OR_RETURN(e, gpu::Event::create(true));
    }
  for (gpu::Event* e : {&ev_a_, &ev_b_, &ev_c_, &ev_w_, &ev_cls_}) {
    ASSIGN_OR_RETURN(*e, gpu::Event::create(false));
  }
  ASSIGN_OR_RETURN(ev_up0_, gpu::Event::create(true));
  ASSIGN_OR_RETURN(ev_up1_, gpu::Event::create(true));
  ASSIGN_OR_RETURN(d_res1_, gpu::DeviceBuffer<ec::G1Jacobian>::allocate(kG1Slots));
  ASSIGN_OR_RETURN(d_res2_, gpu::DeviceBuffer<ec::G2Jacobian>::allocate(kG2Slots));
  ASSIGN_OR_RETURN(d_counts_, gpu::DeviceBuffer<uint32_t>::allocate(6));
  ASSIGN_OR_RETURN(h_res1_, gpu::PinnedBuffer<ec::G1Jacobian>::allocate(kG1Slots));
  ASSIGN_OR_RETURN(h_res2_, gpu::PinnedBuffer<ec::G2Jacobian>::allocate(kG2Slots));
  ASSIGN_OR_RETURN(h_counts_, gpu::PinnedBuffer<uint32_t>::allocate(6));
  ASSIGN_OR_RETURN(h_last_, gpu::PinnedBuffer<Fr>::allocate(1));
  ASSIGN_OR_RETURN(d_bad_, gpu::DeviceBuffer<uint32_t>::allocate(1));
  ASSIGN_OR_RETURN(h_bad_, gpu::PinnedBuffer<uint32_t>::allocate(1));
  ctx_->lanes.fetch_add(1);
  return ok_status();
}

CudaLane::~CudaLane() {
  abandon();
  release_set();
  ctx_->lanes.fetch_sub(1);
}

// The streamed plan's batch sizes for a shape: chosen once per device and
// shape, the largest that leave room for one input set and the workspace
// (free memory now, plus what the device's idle sets and workspace hold).
StatusOr<StreamedSizes> CudaLane::sizes_for(const KeyShape& s) {
  if (s.resident) return StreamedSizes{};
  std::lock_guard<std::mutex> lock(ctx_->sets_mu);
  for (const auto& [shape, z] : ctx_->streamed)
    if (shape == s) return z;
  uint64_t idle = 0;
  for (const auto& set : ctx_->sets)
    if (!set->held) idle += set->reservation.bytes();
  StreamedSizes z = fit_streamed(s, ctx_->budget.available() + idle, !ctx_->faults.no_side_room);
  if (z.bytes == 0)
    return resource_exhausted("a lane's buffers (streamed plan) for a domain of 2^" + std::to_string(s.lg_n) +
                              " do not fit the " + gpu::VramBudget::format_bytes(ctx_->budget.available()) +
                              " of device memory left in the budget");
  ctx_->streamed.emplace_back(s, z);
  return z;
}

// An input set for the staged shape. At stage (in_run false): the lane's own
// set when the device holds one per lane, else none (the proof takes the
// plain path). In run: the shared set. The mode is chosen when the set size
// changes: one set per lane when they fit beside the workspace, else one.
StatusOr<InputSet*> CudaLane::take_set(const KeyShape& s, bool in_run) {
  const InputSetBytes need = input_set_bytes(s, streamed_);
  std::lock_guard<std::mutex> lock(ctx_->sets_mu);
  if (ctx_->mode_bytes != need.total()) {
    // Idle sets of another size go; the mode is chosen again.
    std::erase_if(ctx_->sets, [&](const std::unique_ptr<InputSet>& x) {
      return !x->held && x->bytes.total() != need.total();
    });
    const uint64_t ws_need = workspace_bytes(s).total();
    uint64_t usable = ctx_->budget.available();
    const uint64_t ws_have = ctx_->ws_bytes.load();
    usable = usable + std::min(ws_have, ws_need) >= ws_need ? usable + std::min(ws_have, ws_need) - ws_need : 0;
    uint64_t fit = usable / std::max<uint64_t>(need.total(), 1);
    for (const auto& x : ctx_->sets)
      if (x->bytes.total() == need.total()) ++fit;
    if (ctx_->faults.max_input_sets > 0) fit = std::min<uint64_t>(fit, ctx_->faults.max_input_sets);
    const uint32_t lanes = std::max<uint32_t>(ctx_->lanes.load(), 1);
    if (fit == 0)
      return resource_exhausted("one proof's inputs for a domain of 2^" + std::to_string(s.lg_n) + " need " +
                                gpu::VramBudget::format_bytes(need.total()) + " of device memory beside a " +
                                gpu::VramBudget::format_bytes(ws_need) + " workspace; " +
                                gpu::VramBudget::format_bytes(ctx_->budget.available()) + " of the budget are free");
    ctx_->shared_sets = fit < lanes;
    ctx_->mode_bytes = need.total();
    const size_t want = ctx_->shared_sets ? 1 : lanes;
    size_t have = 0;
    for (const auto& x : ctx_->sets) have += x->bytes.total() == need.total();
    for (; have < want; ++have) {
      Status added = add_set(need);
      if (added.ok()) continue;
      if (have == 0) return added;
      ctx_->shared_sets = true;  // the budget moved since the estimate: share what there is
      break;
    }
  }
  if (ctx_->shared_sets && !in_run) return nullptr;
  for (auto& x : ctx_->sets)
    if (!x->held && x->bytes.total() == need.total()) {
      x->held = true;
      return x.get();
    }
  if (!in_run) return nullptr;  // every set is held: this proof uploads inside run()
  // Inside the device region with every set of this size held by lanes that
  // staged another shape first: one more set, or a clear refusal.
  std::erase_if(ctx_->sets, [&](const std::unique_ptr<InputSet>& x) {
    return !x->held && x->bytes.total() != need.total();
  });
  RETURN_IF_ERROR(add_set(need));
  ctx_->sets.back()->held = true;
  return ctx_->sets.back().get();
}

// A new input set of `need` in ctx_->sets. REQUIRES: ctx_->sets_mu held.
Status CudaLane::add_set(const InputSetBytes& need) {
  auto set = std::make_unique<InputSet>();
  ASSIGN_OR_RETURN(set->reservation, ctx_->budget.reserve(need.total(), "a proof's inputs on the device"));
  ASSIGN_OR_RETURN(set->a, gpu::DeviceBuffer<uint8_t>::allocate(need.a));
  ASSIGN_OR_RETURN(set->bc, gpu::DeviceBuffer<uint8_t>::allocate(need.bc));
  if (need.w) {
    ASSIGN_OR_RETURN(set->w, gpu::DeviceBuffer<uint8_t>::allocate(need.w));
  }
  if (need.side) {
    ASSIGN_OR_RETURN(set->side, gpu::DeviceBuffer<uint8_t>::allocate(need.side));
  }
  set->bytes = need;
  ctx_->sets.push_back(std::move(set));
  return ok_status();
}

void CudaLane::release_set() {
  if (set_ == nullptr) return;
  std::lock_guard<std::mutex> lock(ctx_->sets_mu);
  set_->held = false;
  set_ = nullptr;
}

// Grows the device's workspace to the shape's needs (never shrinks it), and
// makes the streamed plan's StreamedMsms (no device memory of their own).
// REQUIRES: ctx_->run_mu held (nobody else uses the workspace).
Status CudaLane::ensure_workspace(const KeyShape& s) {
  Workspace& w = ctx_->ws;
  if (!s.resident && !w.sm1) {
    ASSIGN_OR_RETURN(auto sm1, msm::cuda::StreamedMsm<G1Curve>::create_borrowing(s.msm_config()));
    ASSIGN_OR_RETURN(auto sm2, msm::cuda::StreamedMsm<G2Curve>::create_borrowing(s.msm_config()));
    w.sm1.emplace(std::move(sm1));
    w.sm2.emplace(std::move(sm2));
  }
  if (!s.resident && streamed_.side && !w.sb1) {
    ASSIGN_OR_RETURN(const int urgent, gpu::Stream::greatest_priority());  // as ss (init)
    ASSIGN_OR_RETURN(auto sb1, msm::cuda::StreamedMsm<G1Curve>::create_borrowing(s.msm_config(), urgent));
    ASSIGN_OR_RETURN(auto sb2, msm::cuda::StreamedMsm<G2Curve>::create_borrowing(s.msm_config(), urgent));
    w.sb1.emplace(std::move(sb1));
    w.sb2.emplace(std::move(sb2));
  }
  const WorkspaceBytes need = workspace_bytes(s);
  if (w.ntt.bytes() >= need.ntt && w.cls.bytes() >= need.cls && w.msm.bytes() >= need.msm && w.ba.bytes() >= need.ba)
    return ok_status();
  const uint64_t ntt = std::max<uint64_t>({w.ntt.bytes(), need.ntt, 1}), cls = std::max<uint64_t>({w.cls.bytes(), need.cls, 1});
  const uint64_t ms = std::max<uint64_t>({w.msm.bytes(), need.msm, 1}), ba = std::max<uint64_t>({w.ba.bytes(), need.ba, 1});
  // The old buffers go first (nothing uses them while run_mu is held).
  w.ntt.reset(), w.cls.reset(), w.msm.reset(), w.ba.reset();
  w.reservation.release();
  ctx_->ws_bytes.store(0);
  ASSIGN_OR_RETURN(w.reservation, ctx_->budget.reserve(ntt + cls + ms + ba, "the device's run workspace"));
  ctx_->ws_bytes.store(w.reservation.bytes());
  ASSIGN_OR_RETURN(w.ntt, gpu::DeviceBuffer<uint8_t>::allocate(ntt));
  ASSIGN_OR_RETURN(w.cls, gpu::DeviceBuffer<uint8_t>::allocate(cls));
  ASSIGN_OR_RETURN(w.msm, gpu::DeviceBuffer<uint8_t>::allocate(ms));
  ASSIGN_OR_RETURN(w.ba, gpu::DeviceBuffer<uint8_t>::allocate(ba));
  return ok_status();
}

Status CudaLane::upload(const Fr* host, size_t count, Fr* dst, gpu::Event& done) {
  if (count > 0 && !gpu::is_pinned_host_pointer(host) && !times_.pageable_upload) {
    times_.pageable_upload = true;
    times_.fallbacks.push_back(Fallback::kPageableUpload);
  }
  RETURN_IF_ERROR(CUZK_CUDA_CHECK(cudaMemcpyAsync(dst, host, count * sizeof(Fr), cudaMemcpyHostToDevice, us_.get())));
  times_.upload_bytes += count * sizeof(Fr);
  return done.record(us_);
}

Status CudaLane::stage(std::shared_ptr<const AttachedKey> key, const ProofInputs& in) {
  CUZK_NVTX_RANGE("lane.stage");
  auto ck = std::dynamic_pointer_cast<const CudaKey>(key);
  if (!ck) return invalid_argument("lane.stage: the key was attached to another backend");
  RETURN_IF_ERROR(check_inputs(ck->pk(), in, ck->computes_rows()));
  ASSIGN_OR_RETURN(gpu::ScopedDevice scope, gpu::ScopedDevice::create(ctx_->ordinal));
  key_.reset();
  release_set();
  const KeyShape& s = ck->shape();
  ASSIGN_OR_RETURN(streamed_, sizes_for(s));
  times_ = LaneTimes{};
  times_.plan = ck->resident() ? "resident" : streamed_.side ? "streamed, batch additions beside the H MSM" : "streamed";
  if (!ck->resident()) times_.fallbacks.push_back(Fallback::kKeyStreamed);
  marks_used_ = 0;
  key_ = std::move(ck);
  in_ = in;
  rows_here_ = !in.rows_given();
  ASSIGN_OR_RETURN(set_, take_set(s, false));
  if (set_ == nullptr) {
    times_.fallbacks.push_back(Fallback::kPlainPath);  // uploaded inside run(), into the shared set
    return ok_status();
  }
  Status st = upload_inputs(s);
  if (!st.ok()) {
    abandon();
    release_set();
    key_.reset();
  }
  return st;
}

// Queues the uploads of a, b, c (unless the lane makes them) and, resident,
// w into the held set, one event each.
Status CudaLane::upload_inputs(const KeyShape& s) {
  Fr* d_a = reinterpret_cast<Fr*>(set_->a.data());
  Fr* d_b = reinterpret_cast<Fr*>(set_->bc.data());
  RETURN_IF_ERROR(ev_up0_.record(us_));
  const bool side = !s.resident && streamed_.side;
  if (side) {
    // First: the side thread's classification and batch additions wait for
    // it, and it takes one polynomial's time to arrive.
    d_w_ = reinterpret_cast<Fr*>(set_->side.data());
    RETURN_IF_ERROR(upload(in_.witness.data(), s.num_vars, d_w_, ev_w_));
  }
  if (!rows_here_) {
    RETURN_IF_ERROR(upload(in_.a.data(), s.n, d_a, ev_a_));
    RETURN_IF_ERROR(upload(in_.b.data(), s.n, d_b, ev_b_));
    RETURN_IF_ERROR(upload(in_.c.data(), s.n, d_b + s.n, ev_c_));
  }
  if (s.resident) {
    d_w_ = reinterpret_cast<Fr*>(set_->w.data());
    RETURN_IF_ERROR(upload(in_.witness.data(), s.num_vars, d_w_, ev_w_));
  } else if (!side) {
    d_w_ = reinterpret_cast<Fr*>(set_->bc.data());  // uploaded after the H step (run)
  }
  RETURN_IF_ERROR(ev_up1_.record(us_));
  return ok_status();
}

// CANCELLED once the staged proof's job was cancelled (ProofInputs::
// cancelled), polled where the host waits for the device anyway: after the
// H step and the classification, and between the StreamedMsm calls and tail
// MSMs of the streamed plans (each host-synchronous). What the device still
// has queued finishes in abandon().
Status CudaLane::stop_if_cancelled(const char* where) const {
  if (in_.cancelled && in_.cancelled()) return cancelled(std::string("proof cancelled ") + where);
  return ok_status();
}

Status CudaLane::mark(const char* stage) {
  if (marks_used_ == marks_.size()) {
    ASSIGN_OR_RETURN(gpu::Event e, gpu::Event::create(true));
    marks_.emplace_back(std::string(), std::move(e));
  }
  marks_[marks_used_].first = stage;
  RETURN_IF_ERROR(marks_[marks_used_].second.record(cs_));
  ++marks_used_;
  return ok_status();
}

Status CudaLane::collect_marks() {
  for (size_t i = 1; i < marks_used_; ++i) {
    ASSIGN_OR_RETURN(float ms, gpu::Event::elapsed_ms(marks_[i - 1].second, marks_[i].second));
    times_.stages_ms.emplace_back(marks_[i].first, double(ms));
  }
  return ok_status();
}

// The H step (backend.h, ProofInputs; ntt::cuda::h_step): bellperson divides
// by Z on the coset g = 7 and reads the coefficients back (6 transforms);
// snarkjs keeps the evaluations on the odd coset ω(2n)·ω(n)^j (6 transforms).
Status CudaLane::h_step(const KeyShape& s) {
  const bool bell = s.layout == KeyLayout::kBellperson;
  const ntt::cuda::HStepSpec spec = bell ? ntt::cuda::bellperson_h_step(s.lg_n) : ntt::cuda::snarkjs_h_step(s.lg_n);
  Fr* d_a = reinterpret_cast<Fr*>(set_->a.data());
  Fr* d_b = reinterpret_cast<Fr*>(set_->bc.data());
  // Each polynomial's transforms wait only for its own upload, so that the
  // uploads of b and c overlap the transforms of a (and b).
  const cudaEvent_t arrived[3] = {ev_a_.get(), ev_b_.get(), ev_c_.get()};
  size_t ws = ws_->ntt.bytes();
  RETURN_IF_ERROR(ntt::cuda::h_step(d_a, d_b, d_b + s.n, spec, rows_here_ ? nullptr : arrived, ws_->ntt.data(), &ws,
                                    cs_.get()));
  if (!bell) return ok_status();
  return CUZK_CUDA_CHECK(
      cudaMemcpyAsync(h_last_.data(), d_a + (s.n - 1), sizeof(Fr), cudaMemcpyDeviceToHost, cs_.get()));
}

// a, b, c from w on the device (r1cs/cuda/matvec.h), as prover.h's
// compute_rows makes them, and with in_.check_rows the index of the first
// row that does not hold, to the host (read after ev_cls_).
Status CudaLane::make_rows(const CudaKey& key) {
  const KeyShape& s = key.shape();
  const r1cs::cuda::CircuitView& rows = key.rows_view();
  Fr* d_a = reinterpret_cast<Fr*>(set_->a.data());
  Fr* d_b = reinterpret_cast<Fr*>(set_->bc.data());
  Fr* d_c = d_b + s.n;
  RETURN_IF_ERROR(cs_.wait(ev_w_));
  RETURN_IF_ERROR(r1cs::cuda::compute_abc(rows, d_w_, d_a, d_b, d_c, cs_.get()));
  const uint64_t input_rows = s.layout == KeyLayout::kBellperson ? s.num_inputs : 0;
  RETURN_IF_ERROR(finish_rows(d_a, d_b, d_c, rows.rows, s.n, d_w_, input_rows,
                              key.c_rule() == CRule::kProductOfAB, cs_.get()));
  h_bad_[0] = UINT32_MAX;
  if (!in_.check_rows || key.c_rule() != CRule::kMatrix) return ok_status();
  RETURN_IF_ERROR(r1cs::cuda::first_unsatisfied(d_a, d_b, d_c, rows.rows, d_bad_.data(), cs_.get()));
  return d_bad_.download(h_bad_.data(), 1, cs_.get());
}

// After ev_cls_: the row check's verdict (rows made here), then bellperson's
// divisibility by Z.
Status CudaLane::check_witness(const KeyShape& s) {
  if (rows_here_ && h_bad_[0] != UINT32_MAX)
    return invalid_argument("constraint " + std::to_string(h_bad_[0]) + " is not satisfied");
  if (s.layout == KeyLayout::kBellperson && !h_last_[0].is_zero())
    return failed_precondition(
        "A·B − C is not divisible by Z: the witness does not satisfy the circuit (h has degree n − 1)");
  return ok_status();
}

// The split outputs right after w in the streamed plan (in the b/c buffer,
// or the side buffer), in the region b and c came in in the resident plan;
// queued on `stream`, ev_cls_ recorded after them.
Status CudaLane::classify_all(const CudaKey& key, const Fr* d_w, cudaStream_t stream) {
  const KeyShape& s = key.shape();
  const uint64_t w_bytes = s.resident ? 0 : align(s.num_vars * sizeof(Fr));
  gpu::DeviceBuffer<uint8_t>& region = streamed_.side && !s.resident ? set_->side : set_->bc;
  Carver carve(region.data() + w_bytes, region.bytes() - w_bytes);
  const uint64_t ms[3] = {s.m_l, s.m_a, s.m_b};
  const uint32_t* index[3] = {nullptr, key.idx_a(), key.idx_b()};
  for (int q = 0; q < 3; ++q) {
    QuerySplit& qs = split_[size_t(q)];
    qs.m = ms[q];
    ASSIGN_OR_RETURN(qs.bufs.ones, carve.take<uint64_t>((ms[q] + 63) / 64));
    ASSIGN_OR_RETURN(qs.bufs.tail_points, carve.take<uint32_t>(ms[q]));
    ASSIGN_OR_RETURN(qs.bufs.tail_scalars, carve.take<uint32_t>(ms[q]));
    qs.bufs.tail_count = d_counts_.data() + q;
    // The resident plan may sum the ones by pair rounds over their list
    // (CudaBackendOptions::ones_sum): their count beside the tails'.
    qs.bufs.ones_count = s.resident && ctx_->ones_by_pairs ? d_counts_.data() + 3 + q : nullptr;
    size_t ws = ws_->cls.bytes();
    RETURN_IF_ERROR(msm::cuda::classify(d_w, index[q], uint32_t(q == 0 ? s.num_inputs : 0), ms[q], qs.bufs,
                                        ws_->cls.data(), &ws, stream));
  }
  split_end_ = region.data() + w_bytes + carve.used();
  RETURN_IF_ERROR(d_counts_.download(h_counts_.data(), 6, stream));
  return ev_cls_.record(stream);
}

Status CudaLane::resident_msms(const CudaKey& key) {
  const KeyShape& s = key.shape();
  const Fr* d_h = reinterpret_cast<const Fr*>(set_->a.data());
  size_t ws = ws_->msm.bytes();
  RETURN_IF_ERROR(
      msm::cuda::msm<G1Curve>(key.h, d_h, s.n_h, d_res1_.data() + kH, ws_->msm.data(), &ws, cs_.get(), s.msm_config()));
  RETURN_IF_ERROR(mark("msm_h"));
  RETURN_IF_ERROR(ev_cls_.synchronize());  // the tail sizes (the H MSM runs on)
  RETURN_IF_ERROR(check_witness(s));
  RETURN_IF_ERROR(stop_if_cancelled("after H"));
  RETURN_IF_ERROR(resident_queries(key));
  RETURN_IF_ERROR(d_res1_.download(h_res1_.data(), kG1Slots, cs_.get()));
  RETURN_IF_ERROR(d_res2_.download(h_res2_.data(), kG2Slots, cs_.get()));
  RETURN_IF_ERROR(cs_.synchronize());
  std::copy(h_res1_.begin(), h_res1_.end(), host_g1_.begin());
  std::copy(h_res2_.begin(), h_res2_.end(), host_g2_.begin());
  if (times_.plan.starts_with(kSideBySide)) {
    // Each query's own device time ("beside.": they overlap one another;
    // the main timeline's stage is "msm_lab", from the fork to the join).
    const char* names[4] = {"msm_l", "msm_a", "msm_b1", "msm_b2"};
    for (int i = 0; i < 4; ++i) {
      ASSIGN_OR_RETURN(float ones_ms, gpu::Event::elapsed_ms(ev_fork_, ev_q_[size_t(i)][0]));
      ASSIGN_OR_RETURN(float tail_ms, gpu::Event::elapsed_ms(ev_q_[size_t(i)][0], ev_q_[size_t(i)][1]));
      times_.stages_ms.emplace_back(std::string(LaneTimes::kBeside) + names[i] + ".ones", double(ones_ms));
      times_.stages_ms.emplace_back(std::string(LaneTimes::kBeside) + names[i] + ".tail", double(tail_ms));
    }
  }
  return ok_status();
}

// L, A, B1 and B2 after the H MSM: each the sum of its ones, then the MSM
// over its tail. The ones are summed by batch_add over the bitmap, or (with
// ctx_->ones_by_pairs) by an MSM over their list with every scalar 1, whose
// pair rounds take fewer products an addition for more workspace. The H
// MSM's workspace is free by then; when it holds the four tails' workspaces
// and the ones' (but L's bitmap sum, which uses the batch-addition
// workspace), the queries run side by side on cs and q0..q2: each query's
// last steps (its scans, the bucket reduction's few long threads, the window
// combination on one thread, each kernel's last wave) then overlap the
// others' full kernels (the B queries are short, mostly such steps). Where
// the pair rounds' workspace does not fit side by side, the bitmap sums are
// tried side by side, then in turn on cs, each timed apart ("<query>.ones",
// "<query>.tail"), the ones by pair rounds where the H MSM's workspace holds
// them.
Status CudaLane::resident_queries(const CudaKey& key) {
  const KeyShape& s = key.shape();
  ec::G1Jacobian* r1 = d_res1_.data();
  ec::G2Jacobian* r2 = d_res2_.data();
  struct Query {
    const char* name;
    const void* bases;
    bool g2;
    const QuerySplit* split;
    uint32_t count, ones;
    int ones_slot, tail_slot;
  };
  const bool listed = split_[0].bufs.ones_count != nullptr;
  const std::array<Query, 4> queries = {
      {{"msm_l", key.l, false, &split_[0], h_counts_[0], listed ? h_counts_[3] : 0, kL1, kLt},
       {"msm_a", key.a, false, &split_[1], h_counts_[1], listed ? h_counts_[4] : 0, kA1, kAt},
       {"msm_b1", key.b1, false, &split_[2], h_counts_[2], listed ? h_counts_[5] : 0, kB11, kB1t},
       {"msm_b2", key.b2, true, &split_[2], h_counts_[2], listed ? h_counts_[5] : 0, kB21, kB2t}}};
  auto tail_config = [&](const Query& q) {
    msm::cuda::MsmConfig cfg = s.msm_config();
    cfg.scalar_index = q.split->bufs.tail_scalars;
    cfg.point_index = q.split->bufs.tail_points;
    return cfg;
  };
  auto ones_config = [&](const Query& q) {
    msm::cuda::MsmConfig cfg = s.msm_config();
    const msm::cuda::OnesList list = msm::cuda::ones_list(q.split->bufs, q.split->m, q.ones);
    cfg.scalar_index = list.scalars;
    cfg.point_index = list.points;
    cfg.scalar_bits = 1;
    return cfg;
  };
  auto tail_bytes = [&](const Query& q) -> uint64_t {
    return q.g2 ? msm::cuda::msm_workspace_bytes<G2Curve>(q.count, tail_config(q))
                : msm::cuda::msm_workspace_bytes<G1Curve>(q.count, tail_config(q));
  };
  auto ones_bytes = [&](const Query& q, bool pairs) -> uint64_t {
    if (pairs)
      return q.g2 ? msm::cuda::msm_workspace_bytes<G2Curve>(q.ones, ones_config(q))
                  : msm::cuda::msm_workspace_bytes<G1Curve>(q.ones, ones_config(q));
    return q.g2 ? msm::cuda::batch_add_workspace_bytes<G2Curve>(q.split->m)
                : msm::cuda::batch_add_workspace_bytes<G1Curve>(q.split->m);
  };
  // Side by side: each query's tail workspace and its ones' (but L's by the
  // bitmap, which uses the batch-addition workspace), carved in turn from
  // the H MSM's. 0 where they do not fit.
  auto side_bytes = [&](bool pairs, std::array<uint64_t, 4>* tails, std::array<uint64_t, 4>* ones) -> uint64_t {
    if (pairs && ctx_->faults.no_ones_room) return 0;
    uint64_t need = 0;
    for (size_t i = 0; i < queries.size(); ++i) {
      (*tails)[i] = tail_bytes(queries[i]);
      (*ones)[i] = pairs || i > 0 ? ones_bytes(queries[i], pairs) : 0;
      if (pairs && (*ones)[i] == 0) return 0;  // no plan for the list
      need += align((*tails)[i]) + align((*ones)[i]);
    }
    return need <= ws_->msm.bytes() ? need : 0;
  };
  std::array<uint64_t, 4> tail_ws_bytes{}, ones_ws_bytes{};
  bool pairs = listed;
  bool side_by_side = false;
  if (!ctx_->faults.serial_queries) {
    side_by_side = side_bytes(pairs, &tail_ws_bytes, &ones_ws_bytes) != 0;
    if (!side_by_side && pairs) {
      pairs = false;
      side_by_side = side_bytes(false, &tail_ws_bytes, &ones_ws_bytes) != 0;
    }
  }

  // An MSM over one of q's index lists (its tail, or its ones with every
  // scalar 1) into result slot `slot`.
  auto query_msm = [&](const Query& q, uint32_t count, int slot, void* ws, size_t ws_bytes, cudaStream_t stream,
                       const msm::cuda::MsmConfig& cfg) -> Status {
    if (q.g2)
      return msm::cuda::msm<G2Curve>(static_cast<const ec::G2Affine*>(q.bases), d_w_, count, r2 + slot, ws,
                                     &ws_bytes, stream, cfg);
    return msm::cuda::msm<G1Curve>(static_cast<const ec::G1Affine*>(q.bases), d_w_, count, r1 + slot, ws, &ws_bytes,
                                   stream, cfg);
  };
  // One query on `stream`: its sums in its result slots; `ones_done` and
  // `tail_done` recorded after each part (side by side), else marks on cs.
  auto run_query = [&](const Query& q, bool by_pairs, cudaStream_t stream, void* ones_ws, size_t ones_ws_bytes,
                       void* tail_ws, size_t tail_ws_bytes, gpu::Event* ones_done,
                       gpu::Event* tail_done) -> Status {
    if (by_pairs) {
      RETURN_IF_ERROR(query_msm(q, q.ones, q.ones_slot, ones_ws, ones_ws_bytes, stream, ones_config(q)));
    } else if (q.g2) {
      RETURN_IF_ERROR(msm::cuda::batch_add<G2Curve>(static_cast<const ec::G2Affine*>(q.bases), q.split->bufs.ones,
                                                    q.split->m, r2 + q.ones_slot, ones_ws, &ones_ws_bytes, stream));
    } else {
      RETURN_IF_ERROR(msm::cuda::batch_add<G1Curve>(static_cast<const ec::G1Affine*>(q.bases), q.split->bufs.ones,
                                                    q.split->m, r1 + q.ones_slot, ones_ws, &ones_ws_bytes, stream));
    }
    if (ones_done != nullptr)
      RETURN_IF_ERROR(ones_done->record(stream));
    else
      RETURN_IF_ERROR(mark((std::string(q.name) + ".ones").c_str()));
    RETURN_IF_ERROR(query_msm(q, q.count, q.tail_slot, tail_ws, tail_ws_bytes, stream, tail_config(q)));
    if (tail_done != nullptr) return tail_done->record(stream);
    return mark((std::string(q.name) + ".tail").c_str());
  };

  if (!side_by_side) {
    // In turn on cs: the ones by pair rounds in the H MSM's workspace (the
    // tail after them, on the same stream) where it holds them.
    bool any_pairs = false;
    for (const Query& q : queries) {
      const uint64_t need = listed && !ctx_->faults.no_ones_room ? ones_bytes(q, true) : 0;
      const bool by_pairs = need != 0 && need <= ws_->msm.bytes();
      any_pairs |= by_pairs;
      void* ones_ws = by_pairs ? static_cast<void*>(ws_->msm.data()) : ws_->ba.data();
      const size_t ob = by_pairs ? ws_->msm.bytes() : ws_->ba.bytes();
      RETURN_IF_ERROR(run_query(q, by_pairs, cs_.get(), ones_ws, ob, ws_->msm.data(), ws_->msm.bytes(), nullptr,
                                nullptr));
    }
    if (any_pairs) times_.plan += kOnesByPairs;
    return ok_status();
  }
  times_.plan = kSideBySide;
  if (pairs) times_.plan += kOnesByPairs;
  Carver carve(ws_->msm.data(), ws_->msm.bytes());
  RETURN_IF_ERROR(ev_fork_.record(cs_));
  for (gpu::Stream& q : qs_) RETURN_IF_ERROR(q.wait(ev_fork_));
  for (size_t i = 0; i < queries.size(); ++i) {
    ASSIGN_OR_RETURN(uint8_t* tail_ws, carve.take<uint8_t>(tail_ws_bytes[i]));
    void* ones_ws = ws_->ba.data();
    uint64_t ob = ws_->ba.bytes();
    if (pairs || i > 0) {
      ob = ones_ws_bytes[i];
      ASSIGN_OR_RETURN(uint8_t* p, carve.take<uint8_t>(ob));
      ones_ws = p;
    }
    cudaStream_t stream = i == 0 ? cs_.get() : qs_[i - 1].get();
    RETURN_IF_ERROR(run_query(queries[i], pairs, stream, ones_ws, ob, tail_ws, tail_ws_bytes[i], &ev_q_[i][0],
                              &ev_q_[i][1]));
  }
  for (size_t i = 1; i < queries.size(); ++i) RETURN_IF_ERROR(cs_.wait(ev_q_[i][1]));
  return mark("msm_lab");
}

// Σ over the tail of one query with streamed bases: the tail's points and
// scalars are gathered chunk by chunk into the room's buffers (points read
// over PCIe from the mapped host key) and summed by a device MSM each, in the
// room's workspace, on its stream. Host-synchronous.
template <class C>
Status CudaLane::streamed_tail(const void* bases_dev, const QuerySplit& q, uint32_t count, const Fr* d_w,
                               const TailRoom& room, ec::Jacobian<C>* acc) {
  auto* d_pts = reinterpret_cast<ec::Affine<C>*>(room.points);
  Fr* d_sc = room.scalars;
  cudaStream_t stream = room.stream;
  ec::Jacobian<C>* d_r = nullptr;
  if constexpr (std::is_same_v<C, G1Curve>)
    d_r = d_res1_.data() + kLt;
  else
    d_r = d_res2_.data() + kB2t;
  *acc = ec::Jacobian<C>::identity();
  for (uint32_t t0 = 0; t0 < count; t0 += uint32_t(streamed_.chunk)) {
    const uint32_t len = std::min<uint32_t>(uint32_t(streamed_.chunk), count - t0);
    RETURN_IF_ERROR(gather_points(bases_dev, sizeof(ec::Affine<C>), q.bufs.tail_points + t0, len, d_pts, stream));
    RETURN_IF_ERROR(msm::cuda::gather_scalars(d_w, q.bufs.tail_scalars + t0, len, d_sc, stream));
    size_t ws = room.workspace_bytes;
    RETURN_IF_ERROR(msm::cuda::msm<C>(d_pts, d_sc, len, d_r, room.workspace, &ws, stream, room.config));
    ec::Jacobian<C> part;
    RETURN_IF_ERROR(CUZK_CUDA_CHECK(cudaMemcpyAsync(&part, d_r, sizeof part, cudaMemcpyDeviceToHost, stream)));
    RETURN_IF_ERROR(CUZK_CUDA_CHECK(cudaStreamSynchronize(stream)));
    *acc += part;
  }
  return ok_status();
}

// Both streamed plans, once the H step is queued: wait for it (b and c are
// consumed, h is in a), check h[n−1], then the H MSM with its bases from
// pinned host memory and its batches in the b/c buffer; "msm_h" is recorded
// on the idle cs at its end.
Status CudaLane::streamed_h_msm(const CudaKey& key) {
  const KeyShape& s = key.shape();
  RETURN_IF_ERROR(cs_.synchronize());
  RETURN_IF_ERROR(check_witness(s));
  RETURN_IF_ERROR(stop_if_cancelled("after H"));
  const Fr* d_h = reinterpret_cast<const Fr*>(set_->a.data());
  const msm::cuda::LentMemory bc{set_->bc.data(), set_->bc.bytes(), streamed_.batch};
  ASSIGN_OR_RETURN(host_g1_[kH], ws_->sm1->run(key.h, d_h, s.n_h, bc));
  return mark("msm_h");
}

// The streamed plan after the H step (stream order at the top of this file).
Status CudaLane::streamed_plan(const CudaKey& key) {
  if (streamed_.side) return overlapped_plan(key);
  const KeyShape& s = key.shape();
  RETURN_IF_ERROR(streamed_h_msm(key));
  RETURN_IF_ERROR(stop_if_cancelled("after msm_h"));
  // w goes where the H MSM's batches were. No event orders the upload after
  // them: StreamedMsm::run is host-synchronous (msm.h), so none of its work
  // still touches the b/c buffer once it has returned.
  RETURN_IF_ERROR(upload(in_.witness.data(), s.num_vars, d_w_, ev_w_));
  RETURN_IF_ERROR(cs_.wait(ev_w_));
  RETURN_IF_ERROR(classify_all(key, d_w_, cs_.get()));
  RETURN_IF_ERROR(mark("classify"));
  RETURN_IF_ERROR(ev_cls_.synchronize());  // the tail sizes
  return streamed_msms(key);
}

// The serial streamed plan's tails: chunk buffers at the end of the b/c
// buffer (after w and the splits), the MSM workspace in the a buffer (h is
// consumed, and each query's batch addition, host-synchronous, is done with
// it), on cs.
TailRoom CudaLane::serial_tail_room() {
  uint8_t* end = set_->bc.data() + set_->bc.bytes();
  TailRoom r;
  r.points = end - align(streamed_.chunk * sizeof(ec::G2Affine)) - align(streamed_.chunk * sizeof(Fr)) - kAlign;
  r.scalars = reinterpret_cast<Fr*>(end - align(streamed_.chunk * sizeof(Fr)) - kAlign);
  r.workspace = set_->a.data();
  r.workspace_bytes = set_->a.bytes();
  r.stream = cs_.get();
  return r;
}

// The batch additions and the tails of L, A, B1 and B2 with streamed bases.
// The batch additions run in the a buffer, in turn with the tails' MSMs
// (each host-synchronous): the H MSM, which read h there, has returned.
Status CudaLane::streamed_msms(const CudaKey& key) {
  HostStages host(&times_.stages_ms, "");
  TailRoom room = serial_tail_room();
  room.config = key.shape().msm_config();
  const msm::cuda::LentMemory a1{set_->a.data(), set_->a.bytes(), streamed_.add_batch};
  const msm::cuda::LentMemory a2{set_->a.data(), set_->a.bytes(), std::max<size_t>(streamed_.add_batch / 2, 64)};
  const ec::G1Affine* g1_bases[3] = {key.l, key.a, key.b1};
  const void* g1_dev[3] = {key.l_dev, key.a_dev, key.b1_dev};
  const int ones[3] = {kL1, kA1, kB11}, tails[3] = {kLt, kAt, kB1t};
  const char* names[3] = {"msm_l", "msm_a", "msm_b1"};
  for (int q = 0; q < 3; ++q) {
    const QuerySplit& qs = split_[size_t(q)];
    RETURN_IF_ERROR(stop_if_cancelled(q == 0 ? "after the classification" : "between queries"));
    ASSIGN_OR_RETURN(host_g1_[size_t(ones[q])], ws_->sm1->run_batch_add(g1_bases[q], qs.bufs.ones, qs.m, a1));
    std::string part(names[q]);
    host.mark(part + ".ones");
    RETURN_IF_ERROR(
        streamed_tail<G1Curve>(g1_dev[q], qs, h_counts_[size_t(q)], d_w_, room, &host_g1_[size_t(tails[q])]));
    host.mark(part + ".tail");
  }
  RETURN_IF_ERROR(stop_if_cancelled("between queries"));
  ASSIGN_OR_RETURN(host_g2_[kB21], ws_->sm2->run_batch_add(key.b2, split_[2].bufs.ones, split_[2].m, a2));
  host.mark("msm_b2.ones");
  RETURN_IF_ERROR(streamed_tail<G2Curve>(key.b2_dev, split_[2], h_counts_[2], d_w_, room, &host_g2_[kB2t]));
  host.mark("msm_b2.tail");
  return ok_status();
}

// The overlapped plan (a side buffer): the classification, the batch
// additions of L, A, B1 and B2 and their tails on a host thread of their
// own, beside the H step and the H MSM. The thread is joined on every path
// before anything it uses is released. Where no thread can be started, the
// same work runs in line after the H MSM.
Status CudaLane::overlapped_plan(const CudaKey& key) {
  std::vector<std::pair<std::string, double>> beside;
  std::future<Status> side;
  try {
    side = std::async(std::launch::async, [this, &key, &beside] { return batch_additions_beside(key, &beside); });
  } catch (const std::system_error&) {
    // No thread: run it after the H MSM below.
  }
  Status main = streamed_h_msm(key);
  Status rest = side.valid() ? side.get() : main.ok() ? batch_additions_beside(key, &beside) : ok_status();
  for (auto& st : beside) times_.stages_ms.push_back(std::move(st));
  RETURN_IF_ERROR(main);
  return rest;
}

// The side buffer's work (overlapped plan), on its own host thread: wait for
// w, classify L, A, B on ss_ (outputs after w in the side buffer), then the
// batch additions of the ones, their bases streamed in batches in the side
// buffer's room after the splits, then the tails in the same room (chunk
// buffers first, the MSM workspace after them). Host times go to *stages,
// prefixed "beside." (they overlap the H step and the H MSM: LaneTimes).
Status CudaLane::batch_additions_beside(const CudaKey& key, std::vector<std::pair<std::string, double>>* stages) {
  ASSIGN_OR_RETURN(gpu::ScopedDevice scope, gpu::ScopedDevice::create(ctx_->ordinal));
  HostStages host(stages, LaneTimes::kBeside);
  RETURN_IF_ERROR(ss_.wait(ev_w_));
  RETURN_IF_ERROR(classify_all(key, d_w_, ss_.get()));
  RETURN_IF_ERROR(ev_cls_.synchronize());
  host.mark("classify");
  // The batches' room: the side buffer after w and the splits.
  uint8_t* room = split_end_;
  const uint64_t room_bytes = uint64_t(set_->side.data() + set_->side.bytes() - room);
  const msm::cuda::LentMemory g1{room, room_bytes, streamed_.add_batch};
  const msm::cuda::LentMemory g2{room, room_bytes, std::max<size_t>(streamed_.add_batch / 2, 64)};
  const ec::G1Affine* bases[3] = {key.l, key.a, key.b1};
  const int ones[3] = {kL1, kA1, kB11};
  const char* names[3] = {"msm_l.ones", "msm_a.ones", "msm_b1.ones"};
  for (int q = 0; q < 3; ++q) {
    const QuerySplit& qs = split_[size_t(q)];
    RETURN_IF_ERROR(stop_if_cancelled(q == 0 ? "after the classification" : "between queries"));
    ASSIGN_OR_RETURN(host_g1_[size_t(ones[q])], ws_->sb1->run_batch_add(bases[q], qs.bufs.ones, qs.m, g1));
    host.mark(names[q]);
  }
  RETURN_IF_ERROR(stop_if_cancelled("between queries"));
  ASSIGN_OR_RETURN(host_g2_[kB21], ws_->sb2->run_batch_add(key.b2, split_[2].bufs.ones, split_[2].m, g2));
  host.mark("msm_b2.ones");
  TailRoom tails;
  tails.points = room;
  tails.scalars = reinterpret_cast<Fr*>(room + align(streamed_.chunk * sizeof(ec::G2Affine)));
  tails.workspace = room + align(streamed_.chunk * sizeof(ec::G2Affine)) + align(streamed_.chunk * sizeof(Fr));
  tails.workspace_bytes = size_t(set_->side.data() + set_->side.bytes() - static_cast<uint8_t*>(tails.workspace));
  tails.stream = ss_.get();
  tails.config = key.shape().msm_config();
  return streamed_tails(key, tails, stages);
}

// The tails of L, A, B1 and B2 with streamed bases in `room` (overlapped
// plan: on the side thread, after the batch additions). Host times go to
// *stages, prefixed "beside.".
Status CudaLane::streamed_tails(const CudaKey& key, const TailRoom& room,
                                std::vector<std::pair<std::string, double>>* stages) {
  HostStages host(stages, LaneTimes::kBeside);
  const void* g1_dev[3] = {key.l_dev, key.a_dev, key.b1_dev};
  const int tails[3] = {kLt, kAt, kB1t};
  const char* names[3] = {"msm_l.tail", "msm_a.tail", "msm_b1.tail"};
  for (int q = 0; q < 3; ++q) {
    RETURN_IF_ERROR(stop_if_cancelled("between tails"));
    RETURN_IF_ERROR(streamed_tail<G1Curve>(g1_dev[q], split_[size_t(q)], h_counts_[size_t(q)], d_w_, room,
                                           &host_g1_[size_t(tails[q])]));
    host.mark(names[q]);
  }
  RETURN_IF_ERROR(streamed_tail<G2Curve>(key.b2_dev, split_[2], h_counts_[2], d_w_, room, &host_g2_[kB2t]));
  host.mark("msm_b2.tail");
  return ok_status();
}

StatusOr<MsmSums> CudaLane::run() {
  if (!key_) return failed_precondition("lane: nothing staged");
  CUZK_NVTX_RANGE("lane.run");
  ASSIGN_OR_RETURN(gpu::ScopedDevice scope, gpu::ScopedDevice::create(ctx_->ordinal));
  std::shared_ptr<const CudaKey> key = std::move(key_);
  Status st = [&]() -> Status {
    std::lock_guard<std::mutex> region(ctx_->run_mu);
    const KeyShape& s = key->shape();
    RETURN_IF_ERROR(ensure_workspace(s));
    ws_ = &ctx_->ws;
    if (set_ == nullptr) {
      ASSIGN_OR_RETURN(set_, take_set(s, true));
      RETURN_IF_ERROR(upload_inputs(s));
    }
    Status r = run_locked(*key);
    ws_ = nullptr;
    return r;
  }();
  if (!st.ok()) {
    abandon();
    release_set();
    return st;
  }
  release_set();
  // Device stage times (the streamed plan adds its batch additions' and
  // tails' times from the host).
  std::vector<std::pair<std::string, double>> host_stages = std::move(times_.stages_ms);
  times_.stages_ms.clear();
  RETURN_IF_ERROR(collect_marks());
  for (auto& hs : host_stages) times_.stages_ms.push_back(std::move(hs));
  ASSIGN_OR_RETURN(float up_ms, gpu::Event::elapsed_ms(ev_up0_, ev_up1_));
  times_.stages_ms.insert(times_.stages_ms.begin(), {"upload", double(up_ms)});
  return sums();
}

// The proof's device work. REQUIRES: ctx_->run_mu held, set_ and ws_ set.
Status CudaLane::run_locked(const CudaKey& key) {
  const KeyShape& s = key.shape();
  RETURN_IF_ERROR(mark("start"));
  if (rows_here_) {
    RETURN_IF_ERROR(make_rows(key));
    RETURN_IF_ERROR(mark("matvec"));
  }
  RETURN_IF_ERROR(h_step(s));
  RETURN_IF_ERROR(mark("h"));
  const uint64_t nth = ctx_->runs.fetch_add(1) + 1;
  if (ctx_->faults.fail_run != 0 && nth == ctx_->faults.fail_run) {
    // A real CUDA error (an invalid copy) in the middle of the device work.
    Status injected = CUZK_CUDA_CHECK(cudaMemcpyAsync(nullptr, h_last_.data(), sizeof(Fr), cudaMemcpyHostToDevice,
                                                      cs_.get()));
    return injected.ok() ? internal_error("injected fault did not fail") : injected.with_context("injected fault");
  }
  if (!s.resident) return streamed_plan(key);
  RETURN_IF_ERROR(cs_.wait(ev_w_));
  RETURN_IF_ERROR(classify_all(key, d_w_, cs_.get()));
  RETURN_IF_ERROR(mark("classify"));
  return resident_msms(key);
}

MsmSums CudaLane::sums() const {
  MsmSums m;
  m.h = host_g1_[kH];
  m.l = host_g1_[kL1] + host_g1_[kLt];
  m.a = host_g1_[kA1] + host_g1_[kAt];
  m.b1 = host_g1_[kB11] + host_g1_[kB1t];
  m.b2 = host_g2_[kB21] + host_g2_[kB2t];
  return m;
}

// After an error: let queued work finish on our buffers before the next use.
void CudaLane::abandon() {
  us_.synchronize().ignore();
  cs_.synchronize().ignore();
  ss_.synchronize().ignore();
  for (gpu::Stream& q : qs_) q.synchronize().ignore();
  cudaGetLastError();
}

}  // namespace

StatusOr<std::unique_ptr<Lane>> make_cuda_lane(std::shared_ptr<DeviceContext> ctx) {
  auto lane = std::make_unique<CudaLane>(std::move(ctx));
  RETURN_IF_ERROR(lane->init());
  return std::unique_ptr<Lane>(std::move(lane));
}

}  // namespace cuzk::groth16::cuda
