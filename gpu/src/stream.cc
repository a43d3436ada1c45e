#include "cuzk/gpu/stream.h"

#include "cuzk/gpu/check.h"

namespace cuzk::gpu {

StatusOr<Stream> Stream::create(int priority) {
  cudaStream_t s = nullptr;
  RETURN_IF_ERROR(CUZK_CUDA_CHECK(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, priority)));
  return Stream(s);
}

StatusOr<int> Stream::greatest_priority() {
  int least = 0, greatest = 0;
  RETURN_IF_ERROR(CUZK_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest)));
  return greatest;
}

Stream& Stream::operator=(Stream&& o) noexcept {
  if (this != &o) {
    if (s_) cudaStreamDestroy(s_);
    s_ = o.s_;
    o.s_ = nullptr;
  }
  return *this;
}

Stream::~Stream() {
  if (s_) cudaStreamDestroy(s_);
}

Status Stream::synchronize() const { return CUZK_CUDA_CHECK(cudaStreamSynchronize(s_)); }

Status Stream::wait(const Event& e) const { return CUZK_CUDA_CHECK(cudaStreamWaitEvent(s_, e.get(), 0)); }

StatusOr<Event> Event::create(bool timing) {
  cudaEvent_t e = nullptr;
  RETURN_IF_ERROR(CUZK_CUDA_CHECK(cudaEventCreateWithFlags(&e, timing ? cudaEventDefault : cudaEventDisableTiming)));
  return Event(e);
}

Event& Event::operator=(Event&& o) noexcept {
  if (this != &o) {
    if (e_) cudaEventDestroy(e_);
    e_ = o.e_;
    o.e_ = nullptr;
  }
  return *this;
}

Event::~Event() {
  if (e_) cudaEventDestroy(e_);
}

Status Event::record(cudaStream_t stream) { return CUZK_CUDA_CHECK(cudaEventRecord(e_, stream)); }

Status Event::synchronize() const { return CUZK_CUDA_CHECK(cudaEventSynchronize(e_)); }

StatusOr<bool> Event::done() const {
  cudaError_t err = cudaEventQuery(e_);
  if (err == cudaErrorNotReady) return false;
  RETURN_IF_ERROR(CUZK_CUDA_CHECK(err));
  return true;
}

StatusOr<float> Event::elapsed_ms(const Event& start, const Event& end) {
  // cudaEventElapsedTime fails with cudaErrorNotReady while either event is
  // still queued (e.g. a stage mark recorded on a stream the host did not
  // wait for): wait for both first.
  RETURN_IF_ERROR(start.synchronize());
  RETURN_IF_ERROR(end.synchronize());
  float ms = 0;
  RETURN_IF_ERROR(CUZK_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), end.get())));
  return ms;
}

}  // namespace cuzk::gpu
