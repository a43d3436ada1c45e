// RAII memory: DeviceBuffer<T> (cudaMalloc), PinnedBuffer<T> (cudaHostAlloc)
// and HostRegistration (cudaHostRegister of memory someone else owns).
// Business code never calls cudaFree; buffers free themselves.
// T must be trivially copyable: the bytes move between host and device as is.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <type_traits>
#include <utility>

#include "cuzk/base/status.h"

namespace cuzk::gpu {

namespace detail {
StatusOr<void*> device_alloc(size_t bytes);
void device_free(void* p);
StatusOr<void*> pinned_alloc(size_t bytes, unsigned flags);
void pinned_free(void* p);
Status copy_async(void* dst, const void* src, size_t bytes, cudaStream_t stream);
Status memset_async(void* dst, int value, size_t bytes, cudaStream_t stream);
}  // namespace detail

template <class T>
class DeviceBuffer {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  DeviceBuffer() = default;
  // n elements, uninitialised. n == 0 gives an empty buffer (no allocation).
  static StatusOr<DeviceBuffer> allocate(size_t n) {
    DeviceBuffer b;
    if (n == 0) return b;
    ASSIGN_OR_RETURN(void* p, detail::device_alloc(n * sizeof(T)));
    b.p_ = static_cast<T*>(p);
    b.n_ = n;
    return b;
  }
  DeviceBuffer(DeviceBuffer&& o) noexcept : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      reset();
      p_ = std::exchange(o.p_, nullptr);
      n_ = std::exchange(o.n_, 0);
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { reset(); }

  void reset() {
    if (p_) detail::device_free(p_);
    p_ = nullptr;
    n_ = 0;
  }
  T* data() const { return p_; }
  size_t size() const { return n_; }
  size_t bytes() const { return n_ * sizeof(T); }
  bool empty() const { return n_ == 0; }

  // REQUIRES: offset + count <= size(). Stream-ordered.
  Status upload(const T* host, size_t count, cudaStream_t stream, size_t offset = 0) {
    return detail::copy_async(p_ + offset, host, count * sizeof(T), stream);
  }
  Status download(T* host, size_t count, cudaStream_t stream, size_t offset = 0) const {
    return detail::copy_async(host, p_ + offset, count * sizeof(T), stream);
  }
  Status fill_bytes(int value, cudaStream_t stream) { return detail::memset_async(p_, value, bytes(), stream); }

 private:
  T* p_ = nullptr;
  size_t n_ = 0;
};

// Page-locked host memory: DMA-able, the only kind of host memory that
// cudaMemcpyAsync moves at full PCIe speed.
template <class T>
class PinnedBuffer {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  PinnedBuffer() = default;
  static StatusOr<PinnedBuffer> allocate(size_t n, unsigned flags = cudaHostAllocDefault) {
    PinnedBuffer b;
    if (n == 0) return b;
    ASSIGN_OR_RETURN(void* p, detail::pinned_alloc(n * sizeof(T), flags));
    b.p_ = static_cast<T*>(p);
    b.n_ = n;
    return b;
  }
  PinnedBuffer(PinnedBuffer&& o) noexcept : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)) {}
  PinnedBuffer& operator=(PinnedBuffer&& o) noexcept {
    if (this != &o) {
      reset();
      p_ = std::exchange(o.p_, nullptr);
      n_ = std::exchange(o.n_, 0);
    }
    return *this;
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  ~PinnedBuffer() { reset(); }

  void reset() {
    if (p_) detail::pinned_free(p_);
    p_ = nullptr;
    n_ = 0;
  }
  T* data() const { return p_; }
  size_t size() const { return n_; }
  size_t bytes() const { return n_ * sizeof(T); }
  T& operator[](size_t i) const { return p_[i]; }
  T* begin() const { return p_; }
  T* end() const { return p_ + n_; }

 private:
  T* p_ = nullptr;
  size_t n_ = 0;
};

// Pins memory the caller owns (cudaHostRegister) for the lifetime of this
// object. REQUIRES: the memory outlives the registration.
//
// Registrations are counted process-wide: memory inside a range some other
// HostRegistration pinned (another device's key streamed from the same host
// arrays, say) shares that registration instead of failing, when it asks for
// no flag the first one lacks; the memory stays pinned until the last holder
// is reset. A range that partly overlaps a pinned one is FAILED_PRECONDITION.
class HostRegistration {
 public:
  HostRegistration() = default;
  static StatusOr<HostRegistration> create(void* p, size_t bytes, unsigned flags = cudaHostRegisterDefault);
  // How many HostRegistrations hold the pinned range containing p (0: none).
  static int holders(const void* p);
  HostRegistration(HostRegistration&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  HostRegistration& operator=(HostRegistration&& o) noexcept;
  HostRegistration(const HostRegistration&) = delete;
  HostRegistration& operator=(const HostRegistration&) = delete;
  ~HostRegistration() { reset(); }
  void reset();
  bool registered() const { return p_ != nullptr; }

 private:
  void* p_ = nullptr;
};

// True when p points to device memory (cudaMalloc'ed or managed), false for
// host memory (pinned or pageable).
bool is_device_pointer(const void* p);
// True for page-locked host memory (cudaHostAlloc'ed or cudaHostRegister'ed),
// which cudaMemcpyAsync moves at full PCIe speed; false for pageable memory.
bool is_pinned_host_pointer(const void* p);
// The device address of mapped pinned host memory (cudaHostAllocMapped, or
// registered with cudaHostRegisterMapped), for kernels that read it over
// PCIe (zero-copy gathers).
StatusOr<void*> mapped_device_pointer(const void* host);

}  // namespace cuzk::gpu
