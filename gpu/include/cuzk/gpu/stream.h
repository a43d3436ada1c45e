// RAII streams and events. Cross-stream order is explicit: a consumer stream
// waits on an event recorded on the producer stream (stream.wait(event)).
#pragma once

#include <cuda_runtime_api.h>

#include "cuzk/base/status.h"

namespace cuzk::gpu {

class Event;

// A non-blocking CUDA stream (no implicit synchronisation with the legacy
// default stream). Move-only; destroyed with cudaStreamDestroy.
class Stream {
 public:
  // `priority` as cudaStreamCreateWithPriority takes it: lower numbers are
  // more urgent; 0 is the default.
  static StatusOr<Stream> create(int priority = 0);
  // The current device's most urgent priority (cudaDeviceGetStreamPriorityRange's
  // greatest; 0 where the device has none): its blocks are scheduled before
  // those of default-priority streams' kernels as SMs free up.
  static StatusOr<int> greatest_priority();
  Stream() = default;  // empty: no stream until assigned from create()
  Stream(Stream&& o) noexcept : s_(o.s_) { o.s_ = nullptr; }
  Stream& operator=(Stream&& o) noexcept;
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  ~Stream();

  cudaStream_t get() const { return s_; }
  // Blocks the host until all work queued so far has finished.
  Status synchronize() const;
  // Work queued on this stream after the call starts once `e` has completed.
  Status wait(const Event& e) const;

 private:
  explicit Stream(cudaStream_t s) : s_(s) {}
  cudaStream_t s_ = nullptr;
};

// A CUDA event; with timing it measures elapsed time between two records.
class Event {
 public:
  static StatusOr<Event> create(bool timing = true);
  Event() = default;  // empty: no event until assigned from create()
  Event(Event&& o) noexcept : e_(o.e_) { o.e_ = nullptr; }
  Event& operator=(Event&& o) noexcept;
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  ~Event();

  cudaEvent_t get() const { return e_; }
  Status record(cudaStream_t stream);
  Status record(const Stream& stream) { return record(stream.get()); }
  // Blocks the host until the recorded work has completed.
  Status synchronize() const;
  // True when the recorded work has completed.
  StatusOr<bool> done() const;
  // Milliseconds between two timing events, once both have completed (it
  // waits for them).
  static StatusOr<float> elapsed_ms(const Event& start, const Event& end);

 private:
  explicit Event(cudaEvent_t e) : e_(e) {}
  cudaEvent_t e_ = nullptr;
};

}  // namespace cuzk::gpu
