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
#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cuzk/base/env.h"
#include "cuzk/base/mapped_file.h"
#include "cuzk/base/mutex.h"
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
  Env* env = nullptr;  // key files and the idle clock; null: Env::posix()
  // Called (with the manager's lock held: it must not call back into the
  // manager) when a key leaves the HOT tier, so that copies made from its
  // host points (the DEVICE tier) go with it.
  std::function<void(const std::string& id)> on_demote;
  // Called (with the manager's lock held: it must not call back into the
  // manager) when an admission finds no room in the budget: frees memory
  // held idle outside the manager (the engine's pooled pinned buffers), at
  // least `short_by` bytes where it can, and returns the bytes freed. Tried
  // before an idle key is demoted, since reloading a key costs far more.
  std::function<uint64_t(uint64_t short_by)> reclaim;
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

  // Registers one more circuit (made ready after the manager started), COLD,
  // with its header facts already read. REQUIRES: its id is not registered.
  void add(std::unique_ptr<CircuitSource> source, const CircuitInfo& info) EXCLUDES(mu_);

  bool has(const std::string& id) const EXCLUDES(mu_);
  std::vector<std::string> ids() const EXCLUDES(mu_);
  // The key file of `id` (for messages); empty for an unknown id.
  std::string key_path(const std::string& id) const EXCLUDES(mu_);
  // Header facts (cached after the first call). Errors: NOT_FOUND for an
  // unknown id, FAILED_PRECONDITION when the files cannot be read.
  StatusOr<CircuitInfo> info(const std::string& id) EXCLUDES(mu_);

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
  //
  // `claim`, when set, is called while the admission waits for room (with
  // the manager's lock held: it must not call back into the manager), with
  // the bytes still missing: it takes memory that is already charged to the
  // budget but idle (a pooled buffer of the size this work will use) into
  // the work, and returns the bytes it took, which come off work_bytes. It
  // is tried before anything is freed.
  StatusOr<Admission> admit(const std::string& id, uint64_t work_bytes, const std::function<bool()>& cancelled,
                            double* waited_ms = nullptr,
                            const std::function<uint64_t(uint64_t)>& claim = nullptr) EXCLUDES(mu_);
  // Counts `bytes` now for memory held outside any admission (a request
  // while the server decodes and submits it), making room as an admission
  // does: idle memory elsewhere (options.reclaim) first, then unreferenced
  // HOT keys idle for at least min_idle_ms. Where keys in use and work in
  // flight hold the rest, the bytes are charged past the total
  // (MemoryBudget::charge): the caller holds them already, and admissions
  // wait until they come back. Never waits itself. Errors:
  // RESOURCE_EXHAUSTED when bytes exceed the whole budget, naming both.
  StatusOr<Reservation> reserve_now(uint64_t bytes) EXCLUDES(mu_);
  // admit(id, 0, ...) without the empty reservation.
  StatusOr<KeyLease> acquire(const std::string& id, const std::function<bool()>& cancelled,
                             double* waited_ms = nullptr) EXCLUDES(mu_);

  struct PreloadResult {
    bool already_loaded = false;
    uint64_t load_time_ms = 0;
  };
  StatusOr<PreloadResult> preload(const std::string& id) EXCLUDES(mu_);

  struct EvictResult {
    bool was_loaded = false;
    uint64_t freed_bytes = 0;
  };
  // Drops the key to COLD, freeing its memory. Errors: NOT_FOUND,
  // FAILED_PRECONDITION while it is referenced or loading.
  StatusOr<EvictResult> evict(const std::string& id) EXCLUDES(mu_);

  // The key `circuit` of `id` was found damaged in use (a file it maps
  // changed): it is dropped to COLD once its last reference ends, and the
  // next admission loads it again from the files. A key already reloaded is
  // left alone.
  void invalidate(const std::string& id, const LoadedCircuit* circuit) EXCLUDES(mu_);

  // Wakes waiting admissions so that they look at cancelled() again.
  void wake() EXCLUDES(mu_);
  // Ends every wait with CANCELLED, now and later (shutting down).
  void close() EXCLUDES(mu_);

  std::vector<KeyStatus> status() const EXCLUDES(mu_);
  uint64_t hot_bytes() const EXCLUDES(mu_);
  // The bytes the key holds when HOT, else what loading it will reserve
  // (the estimate). REQUIRES: info(id) succeeded before.
  uint64_t key_bytes(const std::string& id) const EXCLUDES(mu_);

 private:
  friend class KeyLease;
  struct Entry;
  struct Waiter;
  using Clock = std::chrono::steady_clock;

  void release(const std::string& id) EXCLUDES(mu_);
  Status check_fits(const Entry& e, uint64_t work_bytes) const REQUIRES(mu_);
  Status wait_for_admission(Waiter& w, const std::function<bool()>& cancelled) REQUIRES(mu_);
  bool first_in_line(const Waiter& w) const REQUIRES(mu_);
  enum class Turn { kAdmitted, kLoad, kNoRoom };
  Turn try_admit(Waiter& w) REQUIRES(mu_);
  // Both drop mu_ while the key decodes (the entry is marked loading).
  Status load_entry(Entry& e, Reservation key_reservation) REQUIRES(mu_);
  StatusOr<std::shared_ptr<const LoadedCircuit>> decode(Entry& e) REQUIRES(mu_);
  void keep_loaded(Entry& e, std::shared_ptr<const LoadedCircuit> loaded, Reservation reservation,
                   Clock::time_point start) REQUIRES(mu_);
  bool reclaim_for(const Waiter& w) REQUIRES(mu_);
  bool demote_one_idle(const Entry* except) REQUIRES(mu_);
  void demote(Entry& e) REQUIRES(mu_);
  void drop_if_stale(Entry& e) REQUIRES(mu_);
  void publish_gauges() REQUIRES(mu_);

  MemoryBudget* budget_;
  KeyManagerOptions options_;
  Env* env_;
  MetricsRegistry* metrics_;
  mutable Mutex mu_;
  CondVar cv_;
  // Entries are added (add()), never removed; node-based, so references to
  // an entry stay valid while mu_ is dropped.
  std::map<std::string, std::unique_ptr<Entry>> entries_ GUARDED_BY(mu_);
  std::list<Waiter*> waiters_ GUARDED_BY(mu_);  // in arrival order
  uint64_t hot_bytes_ GUARDED_BY(mu_) = 0;
  bool closed_ GUARDED_BY(mu_) = false;
};

}  // namespace cuzk::engine
