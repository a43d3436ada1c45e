// Attaching a key to a device (cuda_internal.h): resident or streamed.
#include <chrono>
#include <cstring>

#include "cuda_internal.h"
#include "cuzk/base/log.h"
#include "cuzk/gpu/check.h"
#include "cuzk/gpu/device.h"
#include "cuzk/gpu/stream.h"
#include "cuzk/groth16/lane_util.h"

namespace cuzk::groth16::cuda {
namespace {

using gpu::VramBudget;

// Blocks at least this large are pinned in place; glibc serves them with
// mmap, so they own their pages. Smaller ones are copied.
constexpr size_t kRegisterInPlaceBytes = size_t(64) << 20;

template <class T>
StatusOr<gpu::DeviceBuffer<T>> upload_all(const std::vector<T>& v, cudaStream_t stream) {
  ASSIGN_OR_RETURN(auto d, gpu::DeviceBuffer<T>::allocate(v.size()));
  RETURN_IF_ERROR(d.upload(v.data(), v.size(), stream));
  return d;
}

std::string gib(uint64_t bytes) { return VramBudget::format_bytes(bytes); }

}  // namespace

Status CudaKey::make_resident(const ProvingKey& pk) {
  ASSIGN_OR_RETURN(gpu::Stream stream, gpu::Stream::create());
  ASSIGN_OR_RETURN(d_h_, upload_all(pk.h, stream.get()));
  ASSIGN_OR_RETURN(d_l_, upload_all(pk.l, stream.get()));
  ASSIGN_OR_RETURN(d_a_, upload_all(pk.a, stream.get()));
  ASSIGN_OR_RETURN(d_b1_, upload_all(pk.b_g1, stream.get()));
  ASSIGN_OR_RETURN(d_b2_, upload_all(pk.b_g2, stream.get()));
  RETURN_IF_ERROR(stream.synchronize());
  h = d_h_.data(), l = d_l_.data(), a = d_a_.data(), b1 = d_b1_.data(), b2 = d_b2_.data();
  l_dev = l, a_dev = a, b1_dev = b1, b2_dev = b2;
  return ok_status();
}

StatusOr<std::pair<const void*, const void*>> CudaKey::pin(const void* p, size_t bytes) {
  if (bytes == 0) return std::pair<const void*, const void*>{p, nullptr};
  if (bytes >= kRegisterInPlaceBytes) {
    ASSIGN_OR_RETURN(gpu::HostRegistration r,
                     gpu::HostRegistration::create(const_cast<void*>(p), bytes,
                                                   cudaHostRegisterMapped | cudaHostRegisterPortable));
    registrations_.push_back(std::move(r));
    ASSIGN_OR_RETURN(void* d, gpu::mapped_device_pointer(p));
    return std::pair<const void*, const void*>{p, d};
  }
  ASSIGN_OR_RETURN(auto copy, gpu::PinnedBuffer<uint8_t>::allocate(bytes, cudaHostAllocMapped | cudaHostAllocPortable));
  std::memcpy(copy.data(), p, bytes);
  const void* host = copy.data();
  copies_.push_back(std::move(copy));
  ASSIGN_OR_RETURN(void* d, gpu::mapped_device_pointer(host));
  return std::pair<const void*, const void*>{host, d};
}

Status CudaKey::make_streamed(const ProvingKey& pk) {
  auto g1 = [&](const std::vector<ec::G1Affine>& v, const ec::G1Affine** host, const void** dev) -> Status {
    ASSIGN_OR_RETURN(auto pd, pin(v.data(), v.size() * sizeof(ec::G1Affine)));
    *host = static_cast<const ec::G1Affine*>(pd.first);
    if (dev) *dev = pd.second;
    return ok_status();
  };
  RETURN_IF_ERROR(g1(pk.h, &h, nullptr));
  RETURN_IF_ERROR(g1(pk.l, &l, &l_dev));
  RETURN_IF_ERROR(g1(pk.a, &a, &a_dev));
  RETURN_IF_ERROR(g1(pk.b_g1, &b1, &b1_dev));
  ASSIGN_OR_RETURN(auto pd, pin(pk.b_g2.data(), pk.b_g2.size() * sizeof(ec::G2Affine)));
  b2 = static_cast<const ec::G2Affine*>(pd.first);
  b2_dev = pd.second;
  return ok_status();
}

// Device bytes a resident key's first proof still needs: an input set unless
// the device has one of that size, and the workspace beyond what it holds.
static uint64_t lane_bytes_needed(const KeyShape& rs, DeviceContext& ctx) {
  const uint64_t set = input_set_bytes(rs, {}).total();
  const uint64_t ws = workspace_bytes(rs).total();
  const uint64_t ws_have = ctx.ws_bytes.load();
  bool have_set = false;
  {
    std::lock_guard<std::mutex> lock(ctx.sets_mu);
    for (const auto& x : ctx.sets) have_set = have_set || x->bytes.total() == set;
  }
  return (have_set ? 0 : set) + (ws > ws_have ? ws - ws_have : 0) + (1 << 16);
}

// The rows stay on the device beside a resident key when they fit the key's
// share of the device (max_device_bytes) and leave one lane's buffers in the
// budget; otherwise the host makes a, b, c (placement_ says why).
Status CudaKey::keep_rows(const r1cs::Circuit& circuit, uint64_t max_device_bytes) {
  const uint64_t need = r1cs::cuda::DeviceCircuit::device_bytes(circuit);
  const uint64_t lane_bytes = lane_bytes_needed(shape_, *ctx_);
  const uint64_t avail = ctx_->budget.available();
  std::string why;
  if (!resident_) {
    why = "rows from the host (a streamed key leaves no room for the circuit)";
  } else if (reservation_.bytes() + need > max_device_bytes) {
    why = "rows from the host: key and circuit " + gib(reservation_.bytes() + need) + " exceed the " +
          gib(max_device_bytes) + " left to them in the device's key budget";
  } else if (need + lane_bytes > avail) {
    why = "rows from the host: circuit " + gib(need) + " + lane " + gib(lane_bytes) + " exceed the " + gib(avail) +
          " free of the device budget";
  }
  if (!why.empty()) {
    placement_ += "; " + why;
    return ok_status();
  }
  ASSIGN_OR_RETURN(rows_reservation_, ctx_->budget.reserve(need, "the circuit's rows"));
  ASSIGN_OR_RETURN(gpu::Stream stream, gpu::Stream::create());
  ASSIGN_OR_RETURN(r1cs::cuda::DeviceCircuit rows, r1cs::cuda::DeviceCircuit::upload(circuit, stream.get(), ctx_->pool));
  rows_.emplace(std::move(rows));
  placement_ += "; rows made on the device (circuit " + gib(need) + ")";
  return ok_status();
}

StatusOr<std::shared_ptr<const CudaKey>> CudaKey::create(const ProvingKey& pk, std::shared_ptr<DeviceContext> ctx,
                                                         const AttachOptions& options) {
  const uint64_t max_device_bytes = options.max_device_bytes;
  RETURN_IF_ERROR(pk.check_shape());
  if (options.circuit) RETURN_IF_ERROR(check_circuit_of(pk, *options.circuit));
  if (pk.num_vars() >= (uint64_t(1) << 31) || pk.domain_size() >= (uint64_t(1) << 31))
    return invalid_argument("the CUDA backend takes keys of fewer than 2^31 variables and domains below 2^31");
  ASSIGN_OR_RETURN(gpu::ScopedDevice scope, gpu::ScopedDevice::create(ctx->ordinal));
  std::shared_ptr<CudaKey> key(new CudaKey(pk));
  key->ctx_ = ctx;
  const uint64_t point_bytes = resident_key_bytes(pk);
  const KeyShape rs = shape_of(pk, true, ctx->tuning);
  const uint64_t index_bytes = streamed_key_bytes(rs);
  const uint64_t lane_bytes = lane_bytes_needed(rs, *ctx);
  const uint64_t avail = ctx->budget.available();
  const bool capped = point_bytes > max_device_bytes;
  bool resident = ctx->placement == Placement::kResident ||
                  (ctx->placement == Placement::kAuto && !capped && point_bytes + lane_bytes <= avail);
  std::string why;
  if (resident) {
    why = "device-resident: key " + gib(point_bytes) + " + lane " + gib(lane_bytes) + " of " + gib(avail) + " free";
  } else if (ctx->placement == Placement::kStreamed) {
    why = "streamed from pinned host memory (asked for)";
  } else if (capped) {
    why = "streamed from pinned host memory: key " + gib(point_bytes) + " exceeds the " + gib(max_device_bytes) +
          " left to it in the device's key budget";
  } else {
    why = "streamed from pinned host memory: key " + gib(point_bytes) + " + lane " + gib(lane_bytes) +
          " exceed the " + gib(avail) + " free of the device budget";
  }
  ASSIGN_OR_RETURN(key->reservation_,
                   ctx->budget.reserve(resident ? point_bytes : index_bytes, resident ? "the resident key" : "the key's index lists"));
  key->resident_ = resident;
  key->shape_ = shape_of(pk, resident, ctx->tuning);
  key->placement_ = why;
  auto t0 = std::chrono::steady_clock::now();
  RETURN_IF_ERROR(resident ? key->make_resident(pk) : key->make_streamed(pk));
  ASSIGN_OR_RETURN(gpu::Stream stream, gpu::Stream::create());
  const std::vector<uint32_t> ia = density_index(pk.a_density), ib = density_index(pk.b_density);
  ASSIGN_OR_RETURN(key->idx_a_, upload_all(ia, stream.get()));
  ASSIGN_OR_RETURN(key->idx_b_, upload_all(ib, stream.get()));
  RETURN_IF_ERROR(stream.synchronize());
  key->c_rule_ = options.c_rule;
  if (options.circuit) RETURN_IF_ERROR(key->keep_rows(*options.circuit, max_device_bytes));
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  key->placement_ += " (attached in " + std::to_string(int(s * 1000)) + " ms)";
  return std::shared_ptr<const CudaKey>(std::move(key));
}

}  // namespace cuzk::groth16::cuda
