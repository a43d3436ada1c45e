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
  // REQUIRES: budget outlives the manager; source ids unique.
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

  // The HOT key with a reference held, loading it first when needed (one
  // load at a time per key; concurrent callers wait for it). *waited_ms gets
  // the time this call spent waiting for a load. Errors: NOT_FOUND,
  // FAILED_PRECONDITION (the key does not load), RESOURCE_EXHAUSTED (it can
  // never fit the budget), CANCELLED (cancelled() turned true).
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

  std::vector<KeyStatus> status() const;
  uint64_t hot_bytes() const;
  // The bytes the key holds when HOT, else what loading it will reserve
  // (the estimate). REQUIRES: info(id) succeeded before.
  uint64_t key_bytes(const std::string& id) const;

 private:
  friend class KeyLease;
  struct Entry;
  using Clock = std::chrono::steady_clock;

  void release(const std::string& id);
  Status load_entry(Entry& e, std::unique_lock<std::mutex>& lock, const std::function<bool()>& cancelled);
  Status reserve_for(Entry& e, uint64_t bytes, std::unique_lock<std::mutex>& lock,
                     const std::function<bool()>& cancelled, Reservation* out);
  bool demote_one_idle(const Entry* except);  // REQUIRES: mu_ held
  void demote(Entry& e);                       // REQUIRES: mu_ held
  void publish_gauges();                       // REQUIRES: mu_ held

  MemoryBudget* budget_;
  KeyManagerOptions options_;
  MetricsRegistry* metrics_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::string, std::unique_ptr<Entry>> entries_;  // GUARDED_BY(mu_); the map itself is fixed
  uint64_t hot_bytes_ = 0;                                 // GUARDED_BY(mu_)
};

}  // namespace cuzk::engine
