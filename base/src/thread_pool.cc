#include "cuzk/base/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <memory>

namespace cuzk {
namespace {
thread_local bool t_in_pool = false;
}

ThreadPool::ThreadPool(unsigned threads) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  workers_.reserve(threads);
  for (unsigned i = 0; i < threads; ++i) workers_.emplace_back([this] { worker_loop(); });
}

ThreadPool::~ThreadPool() {
  {
    MutexLock lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  workers_.clear();  // joins
}

void ThreadPool::worker_loop() {
  t_in_pool = true;
  for (;;) {
    std::function<void()> task;
    {
      MutexLock lock(mu_);
      while (!stop_ && tasks_.empty()) cv_.wait(mu_);
      if (tasks_.empty()) return;
      task = std::move(tasks_.front());
      tasks_.pop();
    }
    task();
  }
}

void ThreadPool::submit(std::function<void()> task) {
  {
    MutexLock lock(mu_);
    tasks_.push(std::move(task));
  }
  cv_.notify_one();
}

void ThreadPool::parallel_for(size_t n, size_t min_chunk, const std::function<void(size_t, size_t)>& fn) {
  if (n == 0) return;
  min_chunk = std::max<size_t>(1, min_chunk);
  size_t max_chunks = (n + min_chunk - 1) / min_chunk;
  size_t chunks = std::min<size_t>(max_chunks, size_t(size()) * 4);
  if (chunks <= 1 || t_in_pool) {
    fn(0, n);
    return;
  }
  // Shared with helper tasks, which may start after this call has returned
  // (when every chunk was already taken); they then only touch this state.
  struct Shared {
    std::atomic<size_t> next{0};
    std::atomic<size_t> done{0};
    std::mutex mu;
    std::condition_variable cv;
    std::exception_ptr error;
  };
  auto shared = std::make_shared<Shared>();
  const auto* body = &fn;
  auto run_chunks = [shared, body, chunks, n] {
    for (;;) {
      size_t c = shared->next.fetch_add(1);
      if (c >= chunks) return;
      size_t b = n * c / chunks, e = n * (c + 1) / chunks;
      try {
        (*body)(b, e);
      } catch (...) {
        std::lock_guard<std::mutex> lock(shared->mu);
        if (!shared->error) shared->error = std::current_exception();
      }
      if (shared->done.fetch_add(1) + 1 == chunks) {
        std::lock_guard<std::mutex> lock(shared->mu);
        shared->cv.notify_all();
      }
    }
  };
  size_t helpers = std::min<size_t>(chunks - 1, size());
  for (size_t i = 0; i < helpers; ++i) submit(run_chunks);
  run_chunks();
  std::unique_lock<std::mutex> lock(shared->mu);
  shared->cv.wait(lock, [&] { return shared->done.load() == chunks; });
  std::exception_ptr error = shared->error;
  if (error) std::rethrow_exception(error);
}

void ThreadPool::parallel_tasks(size_t n, const std::function<void(size_t)>& fn) {
  parallel_for(n, 1, [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) fn(i);
  });
}

ThreadPool& default_thread_pool() {
  static ThreadPool pool(0);
  return pool;
}

}  // namespace cuzk
