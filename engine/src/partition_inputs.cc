// A partition's inputs, from the queue to a prover worker: its place in the
// input window, the plan of who makes a, b, c, admission (the key HOT, the
// host memory reserved, idle pinned buffers claimed), witness intake, the
// row check, and the host matvec where the host makes the rows.
#include <algorithm>

#include "cuzk/base/log.h"
#include "cuzk/io/circom.h"
#include "cuzk/r1cs/eval.h"
#include "engine_impl.h"

namespace cuzk::engine {
namespace {

// Whether the rows the prover multiplies are the rows each witness is
// checked against (a bellperson key with its circuit, a Filecoin circuit):
// then whoever makes a, b, c can check them too.
bool rows_are_check_rows(const LoadedCircuit& c) {
  return c.check_circuit && c.c_rule == groth16::CRule::kMatrix &&
         c.check_circuit->terms().data() == c.prove_circuit.terms().data() &&
         c.check_circuit->offsets().data() == c.prove_circuit.offsets().data();
}

uint64_t rows_bytes_of(uint64_t n) { return 3 * sizeof(ff::Fr) * n; }

}  // namespace

groth16::HostBuffer PartitionInputs::use_claimed(uint64_t n) {
  for (auto it = claimed.begin(); it != claimed.end(); ++it)
    if (it->size() == n) {
      groth16::HostBuffer b = std::move(*it);
      claimed.erase(it);
      return b;
    }
  return {};
}

void PartitionInputs::clear() {
  std::vector<ff::Fr>().swap(witness);
  pinned_witness.reset();
  a.reset();
  b.reset();
  c.reset();
  rows = groth16::RowValues{};
  claimed.clear();
  row_keys.clear();
}

Engine::Impl::RowsPlan Engine::Impl::rows_plan(const std::string& circuit_id,
                                              std::vector<std::shared_ptr<const groth16::AttachedKey>>* keys) {
  // The CPU, a mix with the CPU, and GPUs told to leave the rows to the host.
  if (host_alloc_ == nullptr || !config_.matvec_on_device) return RowsPlan::kHost;
  bool unknown = false;
  for (auto& d : devices_) {
    if (!d->caps.can_make_rows) return RowsPlan::kHost;
    std::shared_ptr<const groth16::AttachedKey> k = d->attached(circuit_id);
    if (k && !k->computes_rows()) return RowsPlan::kHost;  // a streamed key: the host makes them
    if (!k) unknown = true;
    if (keys) keys->push_back(std::move(k));
  }
  return unknown ? RowsPlan::kDeviceOnceAttached : RowsPlan::kDevice;
}

std::vector<uint64_t> Engine::Impl::pinned_sizes(const CircuitInfo& info, RowsBy rows_by) const {
  std::vector<uint64_t> sizes;
  if (host_alloc_ == nullptr) return sizes;
  sizes.push_back(info.num_vars);
  if (rows_by == RowsBy::kHost) sizes.insert(sizes.end(), 3, uint64_t(1) << info.lg_n);
  return sizes;
}

uint64_t Engine::Impl::plan_inputs(Item& item, const CircuitInfo& info) {
  Job& job = *item.job;
  PartitionInputs& in = item.part().inputs;
  in.row_keys.clear();
  std::vector<std::shared_ptr<const groth16::AttachedKey>> keys;
  const RowsPlan plan = rows_plan(job.circuit_id, &keys);
  in.rows_by = plan == RowsPlan::kHost ? RowsBy::kHost : RowsBy::kDevice;
  // Not attached yet: the rows stay reserved, in case the attach cannot keep the circuit.
  in.rows_reserved = plan != RowsPlan::kDevice;
  const uint64_t need = job.est_partition_bytes;
  if (plan != RowsPlan::kDevice) return need;
  // Every GPU holds the key with its circuit, and keeps it while this
  // partition holds it: the rows never touch host memory.
  in.row_keys = std::move(keys);
  const uint64_t rows = rows_bytes_of(uint64_t(1) << info.lg_n);
  return need > rows ? need - rows : 0;
}

Status Engine::Impl::admit_and_prepare(Item& item, WorkerSlot* slot) {
  Job& job = *item.job;
  Partition& p = item.part();
  set_state(item, PartitionState::kAdmitting, slot);
  auto cancelled = [&job] { return job.finished.load(); };
  p.window = window_->acquire(cancelled);
  if (!p.window.held())
    return job.finished.load() ? ok_status() : cuzk::cancelled("the engine is shutting down");
  ASSIGN_OR_RETURN(CircuitInfo info, keys_->info(job.circuit_id));
  const uint64_t need = plan_inputs(item, info);
  // The pinned buffers this partition will fill, of the sizes the pool
  // keeps: idle ones are claimed with their charges, so that the admission
  // asks the budget only for the rest (and frees none of them).
  std::vector<uint64_t> wanted = pinned_sizes(info, p.inputs.rows_by);
  auto claim = [this, &wanted, &p](uint64_t) -> uint64_t {
    uint64_t got = 0;
    for (auto it = wanted.begin(); it != wanted.end();) {
      groth16::HostBuffer b = pinned_pool_.claim(*it);
      if (b.data() == nullptr) {
        ++it;
        continue;
      }
      got += b.size() * sizeof(ff::Fr);
      p.inputs.claimed.push_back(std::move(b));
      it = wanted.erase(it);
    }
    return got;
  };
  double waited_ms = 0;
  ASSIGN_OR_RETURN(KeyManager::Admission admitted, keys_->admit(job.circuit_id, need, cancelled, &waited_ms, claim));
  p.key = std::move(admitted.key);
  p.reservation = std::move(admitted.work);
  {
    MutexLock lock(mu_);
    p.srs_wait_ms = waited_ms;
  }
  set_state(item, PartitionState::kPreparing, slot);
  Status s = prepare(item);
  // A file the key views that changed under it explains whatever went wrong.
  Status files = p.key->check_files();
  if (!files.ok()) {
    keys_->invalidate(job.circuit_id, p.key.get());
    return files;
  }
  return s;
}

// Witness intake, the row-by-row check and, where the host makes the rows,
// the matvec (outside the device interlock). Where a GPU makes them the
// witness goes to pinned memory, nothing more, and the device checks the
// rows where it can. REQUIRES: the partition is admitted.
Status Engine::Impl::prepare(Item& item) {
  Job& job = *item.job;
  Partition& p = item.part();
  PartitionInputs& in = p.inputs;
  const LoadedCircuit& c = *p.key;
  if (job.filecoin) {
    // Witness generation from the vanilla proof (the hot path of a Filecoin proof).
    ASSIGN_OR_RETURN(in.witness, job.filecoin->witness(p.index, pool_.get(), c.prove_circuit.shape()));
  } else if (p.wtns.empty() && !c.bench_witness.empty()) {
    return prepare_bench(item);
  } else {
    ByteSpan bytes(reinterpret_cast<const uint8_t*>(p.wtns.data()), p.wtns.size());
    ASSIGN_OR_RETURN(in.witness, io::parse_wtns(bytes, pool_.get()));
    p.reservation.release(p.wtns.size());
    std::string().swap(p.wtns);
  }
  if (in.witness.size() != c.pk.num_vars())
    return invalid_argument("witness has " + std::to_string(in.witness.size()) + " values, the key has " +
                            std::to_string(c.pk.num_vars()) + " variables");
  if (in.rows_by == RowsBy::kDevice && rows_are_check_rows(c)) {
    in.rows_unchecked = true;
  } else if (c.check_circuit) {
    RETURN_IF_ERROR(r1cs::is_satisfied(*c.check_circuit, in.witness, pool_.get()));
  }
  if (job.filecoin) {
    p.public_inputs = job.filecoin->public_inputs(p.index);  // from the public parameters, not the witness
  } else {
    p.public_inputs.assign(in.witness.begin() + 1, in.witness.begin() + int64_t(c.pk.num_inputs));
  }
  if (job.finished.load()) return ok_status();
  RETURN_IF_ERROR(pin_witness(p, in.witness));
  if (host_alloc_ != nullptr) {
    std::vector<ff::Fr>().swap(in.witness);  // the pinned copy is the one proved with
    p.reservation.release(sizeof(ff::Fr) * c.pk.num_vars());
  }
  if (in.rows_by == RowsBy::kHost) RETURN_IF_ERROR(host_rows(p));
  return ok_status();
}

// A bench circuit's partition: its witness goes straight from the circuit
// into the partition's pinned buffer (GPU) or a copy (CPU).
Status Engine::Impl::prepare_bench(Item& item) {
  Partition& p = item.part();
  PartitionInputs& in = p.inputs;
  const std::vector<ff::Fr>& w = p.key->bench_witness;
  p.public_inputs.assign(w.begin() + 1, w.begin() + int64_t(p.key->pk.num_inputs));
  if (host_alloc_ != nullptr) {
    RETURN_IF_ERROR(pin_witness(p, w));
  } else {
    in.witness = w;
  }
  return in.rows_by == RowsBy::kHost ? host_rows(p) : ok_status();
}

Status Engine::Impl::pin_witness(Partition& p, std::span<const ff::Fr> witness) {
  if (host_alloc_ == nullptr) return ok_status();
  ASSIGN_OR_RETURN(p.inputs.pinned_witness, pinned_buffer(p, witness.size()));
  if (!p.inputs.pinned_witness.pinned()) count_fallback(nullptr, groth16::Fallback::kPinnedAlloc);
  groth16::HostBuffer& w = p.inputs.pinned_witness;  // filled in parallel
  pool_->parallel_for(w.size(), 1 << 16, [&](size_t lo, size_t hi) {
    std::copy(witness.begin() + long(lo), witness.begin() + long(hi), w.data() + lo);
  });
  return ok_status();
}

StatusOr<groth16::HostBuffer> Engine::Impl::pinned_buffer(Partition& p, uint64_t n) {
  groth16::HostBuffer b = p.inputs.use_claimed(n);
  if (b.data() != nullptr) return b;
  return pinned_pool_.take(n, *host_alloc_, &p.reservation);
}

Status Engine::Impl::host_rows(Partition& p) {
  PartitionInputs& in = p.inputs;
  const LoadedCircuit& c = *p.key;
  const std::span<const ff::Fr> witness = in.witness_span();
  auto start = Clock::now();
  groth16::ProveOptions options;
  options.pool = pool_.get();
  options.metrics = &metrics_;
  options.c_rule = c.c_rule;
  options.check_satisfied = false;
  if (host_alloc_ != nullptr) {
    const uint64_t n = c.pk.domain_size();
    bool pageable = false;
    for (groth16::HostBuffer* b : {&in.a, &in.b, &in.c}) {
      ASSIGN_OR_RETURN(*b, pinned_buffer(p, n));
      pageable = pageable || !b->pinned();
    }
    if (pageable) count_fallback(nullptr, groth16::Fallback::kPinnedAlloc);
    RETURN_IF_ERROR(groth16::compute_rows_into(c.pk, c.prove_circuit, witness, in.a.span(), in.b.span(),
                                               in.c.span(), options));
  } else {
    ASSIGN_OR_RETURN(in.rows, groth16::compute_rows(c.pk, c.prove_circuit, witness, options));
  }
  in.matvec_ms = ms_between(start, Clock::now());
  return ok_status();
}

Status Engine::Impl::rows_for_device(Device* device, Item& item) {
  Partition& p = item.part();
  PartitionInputs& in = p.inputs;
  const LoadedCircuit& c = *p.key;
  if (in.rows_unchecked) {
    RETURN_IF_ERROR(r1cs::is_satisfied(*c.check_circuit, in.witness_span(), pool_.get()));
    in.rows_unchecked = false;
  }
  if (!in.rows_reserved && host_alloc_ != nullptr) {
    // The plan had the device make them, so their memory was not reserved.
    const uint64_t rows = rows_bytes_of(c.pk.domain_size());
    pinned_pool_.reclaim(rows);
    Job& job = *item.job;
    ASSIGN_OR_RETURN(Reservation more, budget_->reserve(rows, [&job] { return job.finished.load(); }));
    p.reservation.absorb(std::move(more));
    in.rows_reserved = true;
  }
  return host_rows(p);
}

// The pinned buffers a full input window of this circuit's partitions
// uses, made now (PreloadSRS) rather than by the first job: pinning takes
// seconds per gigabyte-sized buffer, and the first proof on an idle daemon
// should not wait for it. Only what fits the budget now is made; the
// buffers wait idle in the pool, charged, and give way when memory is short.
void Engine::Impl::make_pinned_inputs(const std::string& circuit_id) {
  if (host_alloc_ == nullptr || !window_) return;
  StatusOr<CircuitInfo> info = keys_->info(circuit_id);
  if (!info.ok()) return;
  const RowsBy rows_by = rows_plan(circuit_id, nullptr) == RowsPlan::kHost ? RowsBy::kHost : RowsBy::kDevice;
  const std::vector<uint64_t> one = pinned_sizes(*info, rows_by);
  std::vector<uint64_t> sizes;
  for (uint32_t i = 0; i < window_->size(); ++i) sizes.insert(sizes.end(), one.begin(), one.end());
  std::vector<groth16::HostBuffer> held;  // all held until the end, so that each is a different buffer
  uint64_t made_before = pinned_pool_.allocations();
  for (uint64_t n : sizes) {
    Reservation r;
    if (!budget_->try_reserve(n * sizeof(ff::Fr), &r)) break;
    StatusOr<groth16::HostBuffer> b = pinned_pool_.take(n, *host_alloc_, &r);
    if (!b.ok() || !b->pinned()) break;
    held.push_back(std::move(*b));
  }
  const uint64_t made = pinned_pool_.allocations() - made_before;
  if (made > 0) {
    CUZK_LOG(Info) << "circuit \"" << circuit_id << "\": " << made << " pinned input buffer(s) made for "
                   << window_->size() << " partitions in flight (" << held.size() << " ready)";
  }
}

}  // namespace cuzk::engine
