#include "cuzk/engine/key_manager.h"

#include <algorithm>
#include <optional>
#include <thread>

#include "cuzk/base/log.h"

namespace cuzk::engine {

std::string_view key_tier_name(KeyTier tier) {
  switch (tier) {
    case KeyTier::kHot: return "HOT";
    case KeyTier::kWarm: return "WARM";
    case KeyTier::kCold: return "COLD";
    case KeyTier::kDevice: return "DEVICE";
  }
  return "UNKNOWN";
}

struct KeyManager::Entry {
  std::unique_ptr<CircuitSource> source;
  std::optional<CircuitInfo> info;
  KeyTier tier = KeyTier::kCold;
  std::shared_ptr<const LoadedCircuit> loaded;  // set iff tier == kHot
  Reservation reservation;                      // the HOT bytes (also held while loading)
  MappedFile mapping;                           // the key file, while WARM or HOT
  uint32_t refs = 0;
  Clock::time_point last_used = Clock::now();
  bool loading = false;
  double progress = 0;
  uint64_t last_load_ms = 0;
  uint32_t loads = 0;
  std::string last_error;
};

KeyLease::KeyLease(KeyLease&& other) noexcept
    : manager_(other.manager_), id_(std::move(other.id_)), circuit_(std::move(other.circuit_)) {
  other.manager_ = nullptr;
}

KeyLease& KeyLease::operator=(KeyLease&& other) noexcept {
  if (this != &other) {
    reset();
    manager_ = other.manager_;
    id_ = std::move(other.id_);
    circuit_ = std::move(other.circuit_);
    other.manager_ = nullptr;
  }
  return *this;
}

KeyLease::~KeyLease() { reset(); }

void KeyLease::reset() {
  circuit_.reset();
  if (manager_) manager_->release(id_);
  manager_ = nullptr;
}

KeyManager::KeyManager(std::vector<std::unique_ptr<CircuitSource>> sources, MemoryBudget* budget,
                       KeyManagerOptions options, MetricsRegistry* metrics)
    : budget_(budget), options_(options), metrics_(metrics) {
  for (auto& s : sources) {
    auto e = std::make_unique<Entry>();
    std::string id = s->id();
    e->source = std::move(s);
    entries_.emplace(std::move(id), std::move(e));
  }
}

KeyManager::~KeyManager() = default;

bool KeyManager::has(const std::string& id) const {
  std::lock_guard<std::mutex> lock(mu_);
  return entries_.count(id) != 0;
}

std::vector<std::string> KeyManager::ids() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> out;
  for (const auto& [id, e] : entries_) out.push_back(id);
  return out;
}

StatusOr<CircuitInfo> KeyManager::info(const std::string& id) {
  CircuitSource* source = nullptr;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = entries_.find(id);
    if (it == entries_.end()) return not_found("unknown circuit \"" + id + "\"");
    if (it->second->info) return *it->second->info;
    source = it->second->source.get();
  }
  ASSIGN_OR_RETURN(CircuitInfo info, source->describe());
  std::lock_guard<std::mutex> lock(mu_);
  entries_.at(id)->info = info;
  return info;
}

StatusOr<KeyLease> KeyManager::acquire(const std::string& id, const std::function<bool()>& cancelled,
                                       double* waited_ms) {
  RETURN_IF_ERROR(info(id).status());
  auto start = Clock::now();
  std::unique_lock<std::mutex> lock(mu_);
  Entry& e = *entries_.at(id);
  while (!e.loaded) {
    if (cancelled && cancelled()) return cuzk::cancelled("cancelled while waiting for circuit \"" + id + "\" to load");
    if (e.loading) {
      cv_.wait_for(lock, std::chrono::milliseconds(50));
      continue;
    }
    RETURN_IF_ERROR(load_entry(e, lock, cancelled));
  }
  e.refs++;
  e.last_used = Clock::now();
  publish_gauges();
  if (waited_ms) *waited_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  return KeyLease(this, id, e.loaded);
}

void KeyManager::release(const std::string& id) {
  std::lock_guard<std::mutex> lock(mu_);
  Entry& e = *entries_.at(id);
  if (e.refs > 0) e.refs--;
  e.last_used = Clock::now();
  publish_gauges();
}

// Loads e (REQUIRES: lock held, !e.loading, !e.loaded); drops the lock while
// reserving and decoding and holds it again on return.
Status KeyManager::load_entry(Entry& e, std::unique_lock<std::mutex>& lock, const std::function<bool()>& cancelled) {
  e.loading = true;
  e.progress = 0;
  const uint64_t est = e.info->est_key_bytes;
  auto start = Clock::now();
  Reservation reservation;
  using Loaded = StatusOr<std::shared_ptr<const LoadedCircuit>>;
  auto decode = [&]() -> Loaded {
    if (e.mapping.size() == 0) {
      auto m = MappedFile::open(e.source->key_path());
      if (m.ok()) {
        m->advise_sequential();
        e.mapping = std::move(*m);
      }
    }
    const MappedFile* mapping = e.mapping.size() ? &e.mapping : nullptr;
    lock.unlock();
    Loaded r = e.source->load(mapping, [this, &e](double f) {
      std::lock_guard<std::mutex> g(mu_);
      e.progress = f;
    });
    lock.lock();
    return r;
  };
  // (A StatusOr is never built from an OK status: debug builds assert on it.)
  Status s = reserve_for(e, est, lock, cancelled, &reservation);
  Loaded loaded = s.ok() ? decode() : Loaded(s);
  e.loading = false;
  cv_.notify_all();
  if (!loaded.ok()) {
    hot_bytes_ -= reservation.bytes();
    e.last_error = loaded.status().message();
    if (loaded.status().code() == StatusCode::kCancelled) {
      CUZK_LOG(Debug) << "loading circuit \"" << e.source->id() << "\" stopped: " << loaded.status().message();
    } else {
      CUZK_LOG(Error) << "loading circuit \"" << e.source->id() << "\" failed: " << loaded.status().to_string();
    }
    return loaded.status();
  }
  uint64_t actual = (*loaded)->host_bytes();
  if (actual < reservation.bytes()) {
    hot_bytes_ -= reservation.bytes() - actual;
    reservation.release(reservation.bytes() - actual);
  } else if (actual > reservation.bytes()) {
    CUZK_LOG(Warn) << "circuit \"" << e.source->id() << "\" takes " << actual << " bytes, more than the "
                   << reservation.bytes() << " estimated";
  }
  e.loaded = std::move(*loaded);
  e.reservation = std::move(reservation);
  e.tier = KeyTier::kHot;
  e.last_error.clear();
  e.loads++;
  e.last_load_ms = uint64_t(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  if (metrics_) {
    metrics_->add_counter("cuzk_key_loads_total", 1, "circuit=\"" + e.source->id() + "\"");
    metrics_->observe_seconds("cuzk_key_load_seconds", double(e.last_load_ms) / 1000.0);
  }
  CUZK_LOG(Info) << "circuit \"" << e.source->id() << "\" is HOT: " << e.reservation.bytes() << " bytes, loaded in "
                 << e.last_load_ms << " ms";
  return ok_status();
}

// Reserves `bytes` for e, demoting idle keys to make room and waiting for
// memory to come back. REQUIRES: lock held; may drop it while waiting.
Status KeyManager::reserve_for(Entry& e, uint64_t bytes, std::unique_lock<std::mutex>& lock,
                               const std::function<bool()>& cancelled, Reservation* out) {
  const std::string& id = e.source->id();
  if (bytes > budget_->total())
    return resource_exhausted("circuit \"" + id + "\" needs " + std::to_string(bytes) +
                              " bytes of host memory; the memory budget is " + std::to_string(budget_->total()));
  if (options_.host_cap_bytes && bytes > options_.host_cap_bytes)
    return resource_exhausted("circuit \"" + id + "\" needs " + std::to_string(bytes) +
                              " bytes; keys.host_budget is " + std::to_string(options_.host_cap_bytes));
  while (true) {
    bool cap_ok = !options_.host_cap_bytes || hot_bytes_ + bytes <= options_.host_cap_bytes;
    if (cap_ok && budget_->try_reserve(bytes, out)) {
      hot_bytes_ += bytes;
      return ok_status();
    }
    if (demote_one_idle(&e)) continue;
    if (cancelled && cancelled())
      return cuzk::cancelled("cancelled while waiting for memory for circuit \"" + id + "\"");
    lock.unlock();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    lock.lock();
  }
}

bool KeyManager::demote_one_idle(const Entry* except) {
  auto now = Clock::now();
  Entry* victim = nullptr;
  for (auto& [id, e] : entries_) {
    if (e.get() == except || e->tier != KeyTier::kHot || e->refs > 0 || e->loading) continue;
    auto idle_ms = std::chrono::duration_cast<std::chrono::milliseconds>(now - e->last_used).count();
    if (uint64_t(idle_ms) < options_.min_idle_ms) continue;
    if (!victim || e->last_used < victim->last_used) victim = e.get();
  }
  if (!victim) return false;
  CUZK_LOG(Info) << "demoting idle circuit \"" << victim->source->id() << "\" to WARM ("
                 << victim->reservation.bytes() << " bytes freed)";
  if (metrics_) metrics_->add_counter("cuzk_key_evictions_total", 1, "reason=\"idle\"");
  demote(*victim);
  return true;
}

void KeyManager::demote(Entry& e) {
  e.loaded.reset();
  hot_bytes_ -= e.reservation.bytes();
  e.reservation.release_all();
  e.tier = e.mapping.size() ? KeyTier::kWarm : KeyTier::kCold;
  publish_gauges();
}

StatusOr<KeyManager::PreloadResult> KeyManager::preload(const std::string& id) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = entries_.find(id);
    if (it == entries_.end()) return not_found("unknown circuit \"" + id + "\"");
    if (it->second->loaded) return PreloadResult{true, 0};
  }
  auto start = Clock::now();
  ASSIGN_OR_RETURN(KeyLease lease, acquire(id, nullptr));
  lease.reset();
  uint64_t ms = uint64_t(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  return PreloadResult{false, ms};
}

StatusOr<KeyManager::EvictResult> KeyManager::evict(const std::string& id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(id);
  if (it == entries_.end()) return not_found("unknown circuit \"" + id + "\"");
  Entry& e = *it->second;
  if (e.loading) return failed_precondition("circuit \"" + id + "\" is loading; evict it after the load");
  if (e.refs > 0)
    return failed_precondition("circuit \"" + id + "\" is in use by " + std::to_string(e.refs) +
                               " partition(s); evict it when idle");
  EvictResult r;
  r.was_loaded = e.tier == KeyTier::kHot || e.tier == KeyTier::kWarm;
  r.freed_bytes = e.reservation.bytes();
  demote(e);
  e.mapping = MappedFile();
  e.tier = KeyTier::kCold;
  if (metrics_ && r.was_loaded) metrics_->add_counter("cuzk_key_evictions_total", 1, "reason=\"request\"");
  publish_gauges();
  return r;
}

std::vector<KeyStatus> KeyManager::status() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<KeyStatus> out;
  auto now = Clock::now();
  for (const auto& [id, e] : entries_) {
    KeyStatus k;
    k.id = id;
    k.tier = e->tier;
    if (e->tier == KeyTier::kHot) k.size_bytes = e->reservation.bytes();
    else if (e->tier == KeyTier::kWarm) k.size_bytes = e->mapping.size();
    else k.size_bytes = e->info ? e->info->key_file_bytes : 0;
    k.ref_count = e->refs;
    k.idle_s = e->refs ? 0 : std::chrono::duration<double>(now - e->last_used).count();
    k.loading = e->loading;
    k.load_progress = e->loading ? e->progress : (e->loaded ? 1.0 : 0.0);
    k.last_load_ms = e->last_load_ms;
    k.loads = e->loads;
    k.last_error = e->last_error;
    out.push_back(std::move(k));
  }
  return out;
}

uint64_t KeyManager::key_bytes(const std::string& id) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(id);
  if (it == entries_.end()) return 0;
  const Entry& e = *it->second;
  if (e.loaded) return e.reservation.bytes();
  return e.info ? e.info->est_key_bytes : 0;
}

uint64_t KeyManager::hot_bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return hot_bytes_;
}

void KeyManager::publish_gauges() {
  if (!metrics_) return;
  uint64_t tier_bytes[4] = {0, 0, 0, 0};
  for (const auto& [id, e] : entries_) {
    if (e->tier == KeyTier::kHot) tier_bytes[0] += e->reservation.bytes();
    if (e->tier == KeyTier::kWarm) tier_bytes[1] += e->mapping.size();
  }
  metrics_->set_gauge("cuzk_key_bytes", double(tier_bytes[0]), "tier=\"HOT\"");
  metrics_->set_gauge("cuzk_key_bytes", double(tier_bytes[1]), "tier=\"WARM\"");
}

}  // namespace cuzk::engine
