#include "cuzk/gpu/buffer.h"

#include <cstdio>
#include <string>

#include "cuzk/gpu/check.h"
#include "cuzk/gpu/pinned_ranges.h"
#include "cuzk/gpu/vram_budget.h"

namespace cuzk::gpu {
namespace detail {

StatusOr<void*> device_alloc(size_t bytes) {
  void* p = nullptr;
  Status s = CUZK_CUDA_CHECK(cudaMalloc(&p, bytes));
  if (!s.ok()) {
    cudaGetLastError();
    return s.with_context("allocating " + std::to_string(bytes) + " bytes of device memory");
  }
  return p;
}

void device_free(void* p) { cudaFree(p); }

StatusOr<void*> pinned_alloc(size_t bytes, unsigned flags) {
  void* p = nullptr;
  Status s = CUZK_CUDA_CHECK(cudaHostAlloc(&p, bytes, flags));
  if (!s.ok()) {
    cudaGetLastError();
    return s.with_context("allocating " + std::to_string(bytes) + " bytes of pinned host memory");
  }
  return p;
}

void pinned_free(void* p) { cudaFreeHost(p); }

Status copy_async(void* dst, const void* src, size_t bytes, cudaStream_t stream) {
  if (bytes == 0) return ok_status();
  return CUZK_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, stream));
}

Status memset_async(void* dst, int value, size_t bytes, cudaStream_t stream) {
  if (bytes == 0) return ok_status();
  return CUZK_CUDA_CHECK(cudaMemsetAsync(dst, value, bytes, stream));
}

}  // namespace detail

namespace {

// cudaHostRegister is process-wide: memory registered once cannot be
// registered again (cudaErrorHostMemoryAlreadyRegistered), even for another
// device. So every HostRegistration goes through one table.
PinnedRanges& pinned_ranges() {
  static auto* t = new PinnedRanges;  // never destroyed: registrations may outlive statics
  return *t;
}

}  // namespace

StatusOr<HostRegistration> HostRegistration::create(void* p, size_t bytes, unsigned flags) {
  HostRegistration r;
  if (p == nullptr || bytes == 0) return r;
  ASSIGN_OR_RETURN(r.p_, pinned_ranges().acquire(p, bytes, flags, [&]() -> Status {
    Status s = CUZK_CUDA_CHECK(cudaHostRegister(p, bytes, flags));
    if (!s.ok()) {
      cudaGetLastError();
      return s.with_context("pinning " + std::to_string(bytes) + " bytes of host memory");
    }
    return ok_status();
  }));
  return r;
}

int HostRegistration::holders(const void* p) { return pinned_ranges().holders(p); }

HostRegistration& HostRegistration::operator=(HostRegistration&& o) noexcept {
  if (this != &o) {
    reset();
    p_ = std::exchange(o.p_, nullptr);
  }
  return *this;
}

void HostRegistration::reset() {
  if (!p_) return;
  void* p = std::exchange(p_, nullptr);
  pinned_ranges().release(p, [p] { cudaHostUnregister(p); });
}

bool is_device_pointer(const void* p) {
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged;
}

}  // namespace cuzk::gpu

namespace cuzk::gpu {

bool is_pinned_host_pointer(const void* p) {
  if (p == nullptr) return false;
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return a.type == cudaMemoryTypeHost;
}

StatusOr<void*> mapped_device_pointer(const void* host) {
  void* d = nullptr;
  RETURN_IF_ERROR(CUZK_CUDA_CHECK(cudaHostGetDevicePointer(&d, const_cast<void*>(host), 0)));
  return d;
}

std::string VramBudget::format_bytes(uint64_t bytes) {
  char buf[32];
  if (bytes >= (uint64_t(1) << 30))
    std::snprintf(buf, sizeof buf, "%.2f GiB", double(bytes) / double(uint64_t(1) << 30));
  else if (bytes >= (uint64_t(1) << 20))
    std::snprintf(buf, sizeof buf, "%.1f MiB", double(bytes) / double(uint64_t(1) << 20));
  else
    std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(bytes));
  return buf;
}

}  // namespace cuzk::gpu
