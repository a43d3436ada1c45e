// Residency of proving keys. Tiers, fastest first:
//   DEVICE  in VRAM (only with a GPU backend; none in a CPU build)
//   HOT     decoded in host memory, ready to prove (counts against the budget)
//   WARM    the key file memory-mapped and read ahead: a reload skips the disk
//   COLD    known, nothing held
// Keys are loaded on first use (or by preload) and demoted HOT → WARM, least
// recently used first, when room is needed and they have been idle for at
// least eviction_min_idle. A lease holds a reference: a referenced key is
// never demoted. Thread-safe.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cuzk/base/mapped_file.h"
#include "cuzk/base/status.h"
#include "cuzk/base/trace.h"
#include "cuzk/engine/circuit_source.h"
#include "cuzk/engine/memory_budget.h"

namespace cuzk::engine {

// Wire values of SRSStatus.Tier.
enum class KeyTier : int { kHot = 0, kWarm = 1, kCold = 2, kDevice = 3 };
std::string_view key_tier_name(KeyTier tier);

struct KeyStatus {
  std::string id;
  KeyTier tier = KeyTier::kCold;
  uint64_t size_bytes = 0;  // host bytes when HOT, mapped bytes when WARM, file bytes when COLD
  uint32_t ref_count = 0;
  double idle_s = 0;        // since the last lease ended (0 while referenced)
  bool loading = false;
  double load_progress = 0;  // in [0, 1] while loading
  uint64_t last_load_ms = 0;
  uint32_t loads = 0;
  std::string last_error;
};

struct KeyManagerOptions {
  uint64_t host_cap_bytes = 0;  // 0: only the MemoryBudget limits HOT keys
  uint64_t min_idle_ms = 30'000;
};

class KeyManager;

// A reference to a HOT key. Move-only; the reference ends on destruction.
class KeyLease {
 public:
  KeyLease() = default;
  KeyLease(KeyLease&& other) noexcept;
  KeyLease& operator=(KeyLease&& other) noexcept;
  KeyLease(const KeyLease&) = delete;
  KeyLease& operator=(const KeyLease&) = delete;
  ~KeyLease();

  const LoadedCircuit* get() const { return circuit_.get(); }
  const LoadedCircuit* operator->() const { return circuit_.get(); }
  const LoadedCircuit& operator*() const { return *circuit_; }
  explicit operator bool() const { return circuit_ != nullptr; }
  // Keeps the loaded key's memory alive without holding the reference: a
  // device that attached the key (and views its host points) holds this, so
  // that an eviction never frees memory a device still reads.
  std::shared_ptr<const LoadedCircuit> share() const { return circuit_; }
  void reset();

 private:
  friend class KeyManager;
  KeyLease(KeyManager* manager, std::string id, std::shared_ptr<const LoadedCircuit> c)
      : manager_(manager), id_(std::move(id)), circuit_(std::move(c)) {}
  KeyManager* manager_ = nullptr;
  std::string id_;
  std::shared_ptr<const LoadedCircuit> circuit_;
};

class KeyManager {
 public:
  // REQUIRES: budget outlives the manager and is not yet shared (the manager
  // listens to its releases); source ids unique.
  KeyManager(std::vector<std::unique_ptr<CircuitSource>> sources, MemoryBudget* budget, KeyManagerOptions options,
             MetricsRegistry* metrics);
  ~KeyManager();
  KeyManager(const KeyManager&) = delete;
  KeyManager& operator=(const KeyManager&) = delete;

  bool has(const std::string& id) const;
  std::vector<std::string> ids() const;
  // Header facts (cached after the first call). Errors: NOT_FOUND for an
  // unknown id, FAILED_PRECONDITION when the files cannot be read.
  StatusOr<CircuitInfo> info(const std::string& id);

  // What a piece of work is admitted with: its key, referenced, and its
  // working memory, reserved.
  struct Admission {
    KeyLease key;
    Reservation work;
  };

  // Admits work on circuit `id` that needs `work_bytes` of memory besides the
  // key: returns once the key is HOT with a reference held and work_bytes
  // are reserved, loading the key first when needed (one load at a time per
  // key; others that need it wait for that load). Nothing is held while
  // waiting, so admissions never wait on each other's holdings; they are
  // served first come, first served, and when memory or keys.host_budget is
  // short, unreferenced HOT keys idle for at least min_idle_ms are demoted,
  // least recently used first. So an admission whose key and work fit the
  // budget at all is always served in the end. *waited_ms gets the time
  // spent. Errors: NOT_FOUND, FAILED_PRECONDITION or DATA_LOSS (the key does
  // not load), RESOURCE_EXHAUSTED (key plus work can never fit), CANCELLED
  // (cancelled() turned true, or close()).
  StatusOr<Admission> admit(const std::string& id, uint64_t work_bytes, const std::function<bool()>& cancelled,
                            double* waited_ms = nullptr);
  // admit(id, 0, ...) without the empty reservation.
  StatusOr<KeyLease> acquire(const std::string& id, const std::function<bool()>& cancelled,
                             double* waited_ms = nullptr);

  struct PreloadResult {
    bool already_loaded = false;
    uint64_t load_time_ms = 0;
  };
  StatusOr<PreloadResult> preload(const std::string& id);

  struct EvictResult {
    bool was_loaded = false;
    uint64_t freed_bytes = 0;
  };
  // Drops the key to COLD, freeing its memory. Errors: NOT_FOUND,
  // FAILED_PRECONDITION while it is referenced or loading.
  StatusOr<EvictResult> evict(const std::string& id);

  // The key `circuit` of `id` was found damaged in use (a file it maps
  // changed): it is dropped to COLD once its last reference ends, and the
  // next admission loads it again from the files. A key already reloaded is
  // left alone.
  void invalidate(const std::string& id, const LoadedCircuit* circuit);

  // Wakes waiting admissions so that they look at cancelled() again.
  void wake();
  // Ends every wait with CANCELLED, now and later (shutting down).
  void close();

  std::vector<KeyStatus> status() const;
  uint64_t hot_bytes() const;
  // The bytes the key holds when HOT, else what loading it will reserve
  // (the estimate). REQUIRES: info(id) succeeded before.
  uint64_t key_bytes(const std::string& id) const;

 private:
  friend class KeyLease;
  struct Entry;
  struct Waiter;
  using Clock = std::chrono::steady_clock;

  void release(const std::string& id);
  Status check_fits(const Entry& e, uint64_t work_bytes) const;
  // REQUIRES for the rest: mu_ held.
  Status wait_for_admission(Waiter& w, std::unique_lock<std::mutex>& lock, const std::function<bool()>& cancelled);
  bool first_in_line(const Waiter& w) const;
  enum class Turn { kAdmitted, kLoad, kNoRoom };
  Turn try_admit(Waiter& w);
  Status load_entry(Entry& e, std::unique_lock<std::mutex>& lock, Reservation key_reservation);
  StatusOr<std::shared_ptr<const LoadedCircuit>> decode(Entry& e, std::unique_lock<std::mutex>& lock);
  void keep_loaded(Entry& e, std::shared_ptr<const LoadedCircuit> loaded, Reservation reservation, Clock::time_point start);
  bool demote_one_idle(const Entry* except);
  void demote(Entry& e);
  void drop_if_stale(Entry& e);
  void publish_gauges();

  MemoryBudget* budget_;
  KeyManagerOptions options_;
  MetricsRegistry* metrics_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::string, std::unique_ptr<Entry>> entries_;  // GUARDED_BY(mu_); the map itself is fixed
  std::list<Waiter*> waiters_;                             // GUARDED_BY(mu_): in arrival order
  uint64_t hot_bytes_ = 0;                                 // GUARDED_BY(mu_)
  bool closed_ = false;                                    // GUARDED_BY(mu_)
};

}  // namespace cuzk::engine
