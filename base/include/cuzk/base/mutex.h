// A mutex, a scoped lock and a condition variable that Clang's thread-safety
// analysis understands (std::mutex carries no annotations). Thin wrappers
// over the standard ones; same costs.
//
//   Mutex mu_;
//   int count_ GUARDED_BY(mu_);
//   void add() EXCLUDES(mu_) { MutexLock lock(mu_); count_++; cv_.notify_all(); }
//   void wait_nonzero() EXCLUDES(mu_) {
//     MutexLock lock(mu_);
//     while (count_ == 0) cv_.wait(mu_);   // loops, not predicate lambdas: the
//   }                                      // analysis does not see into lambdas
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>

#include "cuzk/base/thread_annotations.h"

namespace cuzk {

class CAPABILITY("mutex") Mutex {
 public:
  Mutex() = default;
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  void lock() ACQUIRE() { mu_.lock(); }
  void unlock() RELEASE() { mu_.unlock(); }
  bool try_lock() TRY_ACQUIRE(true) { return mu_.try_lock(); }
  // Tells the analysis the caller holds the mutex (checked by nothing).
  void assert_held() const ASSERT_CAPABILITY(this) {}

 private:
  friend class CondVar;
  std::mutex mu_;
};

// Holds a Mutex for its scope; unlock() and lock() let it go for a while
// (slow work done without the lock).
class SCOPED_CAPABILITY MutexLock {
 public:
  explicit MutexLock(Mutex& mu) ACQUIRE(mu) : mu_(mu) { mu_.lock(); }
  ~MutexLock() RELEASE() {
    if (held_) mu_.unlock();
  }
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;

  void unlock() RELEASE() {
    mu_.unlock();
    held_ = false;
  }
  void lock() ACQUIRE() {
    mu_.lock();
    held_ = true;
  }

 private:
  Mutex& mu_;
  bool held_ = true;
};

// Waits release the mutex and hold it again on return; spurious wake-ups
// happen, so callers wait in a loop over their condition.
class CondVar {
 public:
  void wait(Mutex& mu) REQUIRES(mu) {
    std::unique_lock<std::mutex> lock(mu.mu_, std::adopt_lock);
    cv_.wait(lock);
    lock.release();
  }
  // Returns false when the time ran out.
  template <class Rep, class Period>
  bool wait_for(Mutex& mu, std::chrono::duration<Rep, Period> d) REQUIRES(mu) {
    std::unique_lock<std::mutex> lock(mu.mu_, std::adopt_lock);
    bool woken = cv_.wait_for(lock, d) == std::cv_status::no_timeout;
    lock.release();
    return woken;
  }
  template <class Clock, class Duration>
  bool wait_until(Mutex& mu, std::chrono::time_point<Clock, Duration> t) REQUIRES(mu) {
    std::unique_lock<std::mutex> lock(mu.mu_, std::adopt_lock);
    bool woken = cv_.wait_until(lock, t) == std::cv_status::no_timeout;
    lock.release();
    return woken;
  }
  void notify_one() { cv_.notify_one(); }
  void notify_all() { cv_.notify_all(); }

 private:
  std::condition_variable cv_;
};

}  // namespace cuzk
