// Devices: enumeration, properties, free/total memory, and a scoped current
// device. Business code never calls cudaSetDevice directly; it holds a
// ScopedDevice for the span of work on one GPU.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "cuzk/base/status.h"

namespace cuzk::gpu {

struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  int max_threads_per_sm = 0;
  size_t total_memory_bytes = 0;
  size_t l2_cache_bytes = 0;
  size_t shared_memory_per_block_optin_bytes = 0;
  size_t shared_memory_per_sm_bytes = 0;
  int clock_khz = 0;
  int memory_clock_khz = 0;
  int memory_bus_width_bits = 0;
  int driver_version = 0;   // e.g. 13000
  int runtime_version = 0;
  // "NVIDIA H200 (sm_90, 132 SMs, 139.8 GiB)".
  std::string summary() const;
};

struct MemInfo {
  size_t free_bytes = 0;
  size_t total_bytes = 0;
};

// Number of CUDA devices; UNAVAILABLE when the driver or runtime cannot be
// used (no GPU, no driver).
StatusOr<int> device_count();
// The ordinals of the devices this build's device code runs on (gpu/arch.h):
// a GPU older or newer than every architecture the build carries is left out,
// and *why_not (when given) says which and why, one per line ("" when none
// is left out; the driver's error when there is no usable driver).
std::vector<int> usable_devices(std::string* why_not = nullptr);
// True when at least one device can be used. Never fails.
bool device_available();
// A short reason why no device can be used ("" when one can), for test skips
// and for users: the CUDA error's name and text, or the GPU's architecture
// and the build's, never a source location.
std::string device_unavailable_reason();

StatusOr<DeviceInfo> device_info(int ordinal);
// Free and total memory of the current device.
StatusOr<MemInfo> mem_info();

// Makes `ordinal` the current device for this thread and restores the
// previous one on destruction. Use create(); a failed switch is a Status.
class ScopedDevice {
 public:
  static StatusOr<ScopedDevice> create(int ordinal);
  ScopedDevice(ScopedDevice&& o) noexcept : previous_(o.previous_) { o.previous_ = -1; }
  ScopedDevice& operator=(ScopedDevice&&) = delete;
  ScopedDevice(const ScopedDevice&) = delete;
  ~ScopedDevice();

 private:
  explicit ScopedDevice(int previous) : previous_(previous) {}
  int previous_;  // -1: nothing to restore
};

}  // namespace cuzk::gpu
