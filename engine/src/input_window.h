// How many partitions may hold proof inputs (a witness copy, rows) at once:
// those being prepared, those prepared and waiting for a prover worker, and
// those being proved. Beyond what keeps every worker fed, more partitions in
// flight only hold memory (4 GB of pinned witness each at 2^27) and make the
// pinned pool grow, so preparation waits for a slot before admission.
//
// Thread-safety: every method may be called from any thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>

namespace cuzk::engine {

class InputWindow {
 public:
  // A held slot; given back on destruction. Move-only.
  class Slot {
   public:
    Slot() = default;
    Slot(Slot&& o) noexcept : window_(o.window_) { o.window_ = nullptr; }
    Slot& operator=(Slot&& o) noexcept {
      if (this != &o) {
        reset();
        window_ = o.window_;
        o.window_ = nullptr;
      }
      return *this;
    }
    Slot(const Slot&) = delete;
    Slot& operator=(const Slot&) = delete;
    ~Slot() { reset(); }
    void reset() {
      if (window_) window_->give_back();
      window_ = nullptr;
    }
    bool held() const { return window_ != nullptr; }

   private:
    friend class InputWindow;
    explicit Slot(InputWindow* w) : window_(w) {}
    InputWindow* window_ = nullptr;
  };

  // REQUIRES: size >= 1.
  explicit InputWindow(uint32_t size) : size_(size) {}

  // Waits for a slot; an empty Slot when `cancelled` turned true (checked
  // every 20 ms) or the window was closed.
  Slot acquire(const std::function<bool()>& cancelled) {
    std::unique_lock<std::mutex> lock(mu_);
    while (!closed_ && held_ >= size_) {
      if (cancelled && cancelled()) return Slot();
      cv_.wait_for(lock, std::chrono::milliseconds(20));
    }
    if (closed_ || (cancelled && cancelled())) return Slot();
    ++held_;
    return Slot(this);
  }
  void close() {
    std::lock_guard<std::mutex> lock(mu_);
    closed_ = true;
    cv_.notify_all();
  }
  uint32_t size() const { return size_; }
  uint32_t held() const {
    std::lock_guard<std::mutex> lock(mu_);
    return held_;
  }

 private:
  void give_back() {
    std::lock_guard<std::mutex> lock(mu_);
    --held_;
    cv_.notify_one();
  }
  const uint32_t size_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  uint32_t held_ = 0;  // GUARDED_BY(mu_)
  bool closed_ = false;  // GUARDED_BY(mu_)
};

}  // namespace cuzk::engine
