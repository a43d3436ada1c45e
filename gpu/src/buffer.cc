#include "cuzk/gpu/buffer.h"

#include <cstdint>
#include <cstdio>
#include <iterator>
#include <map>
#include <mutex>
#include <string>

#include "cuzk/gpu/check.h"
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
// registered again (cudaErrorHostMemoryAlreadyRegistered), even from another
// device. So registrations are counted here, by start address: a second
// HostRegistration of memory inside a registered range shares it, and the
// last one to go unregisters it.
struct Registered {
  size_t bytes = 0;
  unsigned flags = 0;
  int count = 0;
};

std::mutex& registry_mu() {
  static auto* mu = new std::mutex;  // never destroyed: registrations may outlive statics
  return *mu;
}
std::map<uintptr_t, Registered>& registry() {
  static auto* r = new std::map<uintptr_t, Registered>;
  return *r;
}

}  // namespace

StatusOr<HostRegistration> HostRegistration::create(void* p, size_t bytes, unsigned flags) {
  HostRegistration r;
  if (p == nullptr || bytes == 0) return r;
  const uintptr_t begin = reinterpret_cast<uintptr_t>(p), end = begin + bytes;
  const std::string what = "pinning " + std::to_string(bytes) + " bytes of host memory";
  std::lock_guard<std::mutex> lock(registry_mu());
  auto& reg = registry();
  // The registered range that starts at or before p, if any, and the next.
  auto next = reg.upper_bound(begin);
  if (next != reg.begin()) {
    auto it = std::prev(next);
    const uintptr_t it_end = it->first + it->second.bytes;
    if (begin < it_end) {
      if (end > it_end)
        return Status(StatusCode::kFailedPrecondition,
                      what + ": the range runs past memory pinned before (" + std::to_string(it->second.bytes) +
                          " bytes) that it overlaps");
      if ((flags & ~it->second.flags) != 0)
        return Status(StatusCode::kFailedPrecondition,
                      what + ": the memory is already pinned with flags " + std::to_string(it->second.flags) +
                          ", which lack some of " + std::to_string(flags));
      ++it->second.count;
      r.p_ = reinterpret_cast<void*>(it->first);
      return r;
    }
  }
  if (next != reg.end() && next->first < end)
    return Status(StatusCode::kFailedPrecondition,
                  what + ": the range overlaps memory pinned before (" + std::to_string(next->second.bytes) + " bytes)");
  Status s = CUZK_CUDA_CHECK(cudaHostRegister(p, bytes, flags));
  if (!s.ok()) {
    cudaGetLastError();
    return s.with_context(what);
  }
  reg.emplace(begin, Registered{bytes, flags, 1});
  r.p_ = p;
  return r;
}

int HostRegistration::holders(const void* p) {
  std::lock_guard<std::mutex> lock(registry_mu());
  auto& reg = registry();
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  auto next = reg.upper_bound(a);
  if (next == reg.begin()) return 0;
  auto it = std::prev(next);
  return a < it->first + it->second.bytes ? it->second.count : 0;
}

HostRegistration& HostRegistration::operator=(HostRegistration&& o) noexcept {
  if (this != &o) {
    reset();
    p_ = std::exchange(o.p_, nullptr);
  }
  return *this;
}

void HostRegistration::reset() {
  if (!p_) return;
  std::lock_guard<std::mutex> lock(registry_mu());
  auto& reg = registry();
  auto it = reg.find(reinterpret_cast<uintptr_t>(p_));
  if (it != reg.end() && --it->second.count == 0) {
    cudaHostUnregister(p_);
    reg.erase(it);
  }
  p_ = nullptr;
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
