#include "cuzk/gpu/device.h"

#include <cuda_runtime_api.h>

#include <cstdio>

#include "cuzk/gpu/arch.h"
#include "cuzk/gpu/check.h"

namespace cuzk::gpu {

std::string DeviceInfo::summary() const {
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s (sm_%d%d, %d SMs, %.1f GiB)", name.c_str(), cc_major, cc_minor, sm_count,
                double(total_memory_bytes) / double(1ull << 30));
  return buf;
}

StatusOr<int> device_count() {
  int n = 0;
  cudaError_t err = cudaGetDeviceCount(&n);
  if (err != cudaSuccess) {
    cudaGetLastError();  // clear the sticky-free error so later calls start clean
    // Users read this as the reason no GPU is used (no driver, no device):
    // the error's name and text, without the source location other checks carry.
    return unavailable(std::string(cudaGetErrorName(err)) + ": " + cudaGetErrorString(err));
  }
  return n;
}

std::vector<int> usable_devices(std::string* why_not) {
  std::vector<int> out;
  std::string why;
  auto n = device_count();
  if (!n.ok()) {
    why = "no usable CUDA device: " + n.status().message();
  } else {
    for (int i = 0; i < *n; ++i) {
      auto code = device_code(i);
      if (code.ok()) {
        out.push_back(i);
      } else {
        if (!why.empty()) why += '\n';
        why += code.status().message();
      }
    }
  }
  if (why_not != nullptr) *why_not = why;
  return out;
}

bool device_available() { return !usable_devices().empty(); }

std::string device_unavailable_reason() {
  auto n = device_count();
  if (!n.ok()) return "no usable CUDA device: " + n.status().message();
  if (*n == 0) return "no CUDA device on this machine";
  std::string why;
  if (usable_devices(&why).empty()) return why;
  return "";
}

StatusOr<DeviceInfo> device_info(int ordinal) {
  cudaDeviceProp p{};
  RETURN_IF_ERROR(CUZK_CUDA_CHECK(cudaGetDeviceProperties(&p, ordinal)));
  DeviceInfo d;
  d.ordinal = ordinal;
  d.name = p.name;
  d.cc_major = p.major;
  d.cc_minor = p.minor;
  d.sm_count = p.multiProcessorCount;
  d.max_threads_per_sm = p.maxThreadsPerMultiProcessor;
  d.total_memory_bytes = p.totalGlobalMem;
  d.l2_cache_bytes = size_t(p.l2CacheSize);
  d.shared_memory_per_block_optin_bytes = p.sharedMemPerBlockOptin;
  d.shared_memory_per_sm_bytes = p.sharedMemPerMultiprocessor;
  RETURN_IF_ERROR(CUZK_CUDA_CHECK(cudaDeviceGetAttribute(&d.clock_khz, cudaDevAttrClockRate, ordinal)));
  RETURN_IF_ERROR(CUZK_CUDA_CHECK(cudaDeviceGetAttribute(&d.memory_clock_khz, cudaDevAttrMemoryClockRate, ordinal)));
  RETURN_IF_ERROR(
      CUZK_CUDA_CHECK(cudaDeviceGetAttribute(&d.memory_bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, ordinal)));
  RETURN_IF_ERROR(CUZK_CUDA_CHECK(cudaDriverGetVersion(&d.driver_version)));
  RETURN_IF_ERROR(CUZK_CUDA_CHECK(cudaRuntimeGetVersion(&d.runtime_version)));
  return d;
}

StatusOr<MemInfo> mem_info() {
  MemInfo m;
  RETURN_IF_ERROR(CUZK_CUDA_CHECK(cudaMemGetInfo(&m.free_bytes, &m.total_bytes)));
  return m;
}

StatusOr<ScopedDevice> ScopedDevice::create(int ordinal) {
  int previous = 0;
  RETURN_IF_ERROR(CUZK_CUDA_CHECK(cudaGetDevice(&previous)));
  RETURN_IF_ERROR(CUZK_CUDA_CHECK(cudaSetDevice(ordinal)));
  return ScopedDevice(previous);
}

ScopedDevice::~ScopedDevice() {
  if (previous_ >= 0) cudaSetDevice(previous_);  // best effort: destructors cannot report
}

}  // namespace cuzk::gpu
