// A fixed pool of worker threads with parallel_for.
#pragma once

#include <cstddef>
#include <functional>
#include <queue>
#include <thread>
#include <vector>

#include "cuzk/base/mutex.h"

namespace cuzk {

class ThreadPool {
 public:
  // threads == 0 means std::thread::hardware_concurrency().
  explicit ThreadPool(unsigned threads = 0);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  unsigned size() const { return unsigned(workers_.size()); }

  // Runs fn(begin, end) over [0, n) split into chunks of at least min_chunk
  // items, on the pool and the calling thread; returns when all chunks are done.
  // Thread-safe; may be called from inside a pool task (it then runs inline).
  void parallel_for(size_t n, size_t min_chunk, const std::function<void(size_t, size_t)>& fn);

  // Runs fn(i) for i in [0, n), one task each.
  void parallel_tasks(size_t n, const std::function<void(size_t)>& fn);

 private:
  void worker_loop();
  void submit(std::function<void()> task);

  Mutex mu_;
  CondVar cv_;
  std::queue<std::function<void()>> tasks_ GUARDED_BY(mu_);
  bool stop_ GUARDED_BY(mu_) = false;
  std::vector<std::jthread> workers_;
};

// A process-default pool sized to the machine, for code that is not handed
// one. Created on first use; never reconfigured.
ThreadPool& default_thread_pool();

}  // namespace cuzk
