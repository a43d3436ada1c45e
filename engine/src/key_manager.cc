#include "cuzk/engine/key_manager.h"

#include <algorithm>
#include <optional>

#include "cuzk/base/log.h"
#include "cuzk/base/utf8.h"

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
  bool stale = false;  // found damaged while referenced: dropped when the last reference ends
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

// An admission waiting for its turn. Lives on the waiting thread's stack.
struct KeyManager::Waiter {
  Entry* entry = nullptr;
  uint64_t work_bytes = 0;
  std::function<uint64_t(uint64_t)> claim;  // admit()'s claim hook, or empty
  Reservation work;  // set once admitted
};

namespace {

// How long a waiting admission sleeps at most: releases wake it at once
// (MemoryBudget's listener), the poll covers keys that become idle enough to
// be demoted and cancellation checks.
constexpr auto kAdmissionPoll = std::chrono::milliseconds(20);

}  // namespace

KeyManager::KeyManager(std::vector<std::unique_ptr<CircuitSource>> sources, MemoryBudget* budget,
                       KeyManagerOptions options, MetricsRegistry* metrics)
    : budget_(budget), options_(options), env_(options.env ? options.env : Env::posix()), metrics_(metrics) {
  for (auto& s : sources) {
    auto e = std::make_unique<Entry>();
    std::string id = s->id();
    e->source = std::move(s);
    e->last_used = env_->now();
    entries_.emplace(std::move(id), std::move(e));
  }
  // notify_all needs no lock; a wake-up lost between a waiter's check and its
  // wait costs at most one poll interval.
  budget_->set_release_listener([this] { cv_.notify_all(); });
}

KeyManager::~KeyManager() { budget_->set_release_listener(nullptr); }

void KeyManager::add(std::unique_ptr<CircuitSource> source, const CircuitInfo& info) {
  auto e = std::make_unique<Entry>();
  std::string id = source->id();
  e->source = std::move(source);
  e->info = info;
  MutexLock lock(mu_);
  e->last_used = env_->now();
  entries_.emplace(std::move(id), std::move(e));
}

bool KeyManager::has(const std::string& id) const {
  MutexLock lock(mu_);
  return entries_.count(id) != 0;
}

std::vector<std::string> KeyManager::ids() const {
  MutexLock lock(mu_);
  std::vector<std::string> out;
  for (const auto& [id, e] : entries_) out.push_back(id);
  return out;
}

StatusOr<CircuitInfo> KeyManager::info(const std::string& id) {
  CircuitSource* source = nullptr;
  {
    MutexLock lock(mu_);
    auto it = entries_.find(id);
    if (it == entries_.end()) return not_found("unknown circuit " + bounded_quote(id));
    if (it->second->info) return *it->second->info;
    source = it->second->source.get();
  }
  ASSIGN_OR_RETURN(CircuitInfo info, source->describe());
  MutexLock lock(mu_);
  entries_.at(id)->info = info;
  return info;
}

StatusOr<KeyLease> KeyManager::acquire(const std::string& id, const std::function<bool()>& cancelled,
                                       double* waited_ms) {
  ASSIGN_OR_RETURN(Admission a, admit(id, 0, cancelled, waited_ms));
  return std::move(a.key);
}

StatusOr<KeyManager::Admission> KeyManager::admit(const std::string& id, uint64_t work_bytes,
                                                  const std::function<bool()>& cancelled, double* waited_ms,
                                                  const std::function<uint64_t(uint64_t)>& claim) {
  RETURN_IF_ERROR(info(id).status());
  auto start = Clock::now();
  MutexLock lock(mu_);
  Entry& e = *entries_.at(id);
  RETURN_IF_ERROR(check_fits(e, work_bytes));
  Waiter w;
  w.entry = &e;
  w.work_bytes = work_bytes;
  w.claim = claim;
  waiters_.push_back(&w);
  Status s = wait_for_admission(w, cancelled);
  waiters_.remove(&w);
  cv_.notify_all();  // the next in line may go
  if (!s.ok()) return s;
  // Admitted: the key is HOT and referenced for us (see try_admit / load_entry).
  e.last_used = env_->now();
  publish_gauges();
  if (waited_ms) *waited_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  return Admission{KeyLease(this, id, e.loaded), std::move(w.work)};
}

// Whether the key and the work can ever fit (REQUIRES: mu_ held, info known).
Status KeyManager::check_fits(const Entry& e, uint64_t work_bytes) const {
  const std::string& id = e.source->id();
  const uint64_t key = e.loaded ? e.reservation.bytes() : e.info->est_key_bytes;
  if (options_.host_cap_bytes && key > options_.host_cap_bytes)
    return resource_exhausted("circuit " + bounded_quote(id) + " needs " + std::to_string(key) +
                              " bytes; keys.host_budget is " + std::to_string(options_.host_cap_bytes));
  if (key > budget_->total() || work_bytes > budget_->total() - key)
    return resource_exhausted("circuit " + bounded_quote(id) + " needs " + std::to_string(key) + " bytes of host memory" +
                              (work_bytes ? " and " + std::to_string(work_bytes) + " more for the work" : "") +
                              "; the memory budget is " + std::to_string(budget_->total()));
  return ok_status();
}

// Waits until w is admitted (its key HOT and referenced, w.work reserved),
// loading the key when it is w's turn and nobody else is loading it.
Status KeyManager::wait_for_admission(Waiter& w, const std::function<bool()>& cancelled) {
  Entry& e = *w.entry;
  while (true) {
    if (closed_) return cuzk::cancelled("the key manager is shutting down");
    if (cancelled && cancelled())
      return cuzk::cancelled("cancelled while waiting for circuit " + bounded_quote(e.source->id()));
    drop_if_stale(e);
    if (first_in_line(w)) {
      if (w.claim && w.work_bytes > 0) w.work_bytes -= std::min(w.work_bytes, w.claim(w.work_bytes));
      Turn turn = try_admit(w);
      if (turn == Turn::kAdmitted) return ok_status();
      if (turn == Turn::kLoad) {
        Reservation key = w.work.split(e.info->est_key_bytes);
        waiters_.remove(&w);  // others may go while this thread loads
        cv_.notify_all();
        RETURN_IF_ERROR(load_entry(e, std::move(key)));
        e.refs++;
        return ok_status();
      }
      if (turn == Turn::kNoRoom && reclaim_for(w)) continue;
      if (demote_one_idle(&e)) continue;
    }
    cv_.wait_for(mu_, kAdmissionPoll);
  }
}

// Whether w is the oldest waiter that can act: waiters whose key is being
// loaded (or is stale and still referenced) step aside until it is ready.
bool KeyManager::first_in_line(const Waiter& w) const {
  for (const Waiter* o : waiters_) {
    const Entry& e = *o->entry;
    if (e.loading || (e.stale && e.refs > 0)) continue;
    return o == &w;
  }
  return false;
}

// One attempt at w's turn: kAdmitted (the key is HOT, referenced, and the
// work reserved), kLoad (the key must be loaded; its estimate and the work
// are reserved together in w.work), or kNoRoom.
KeyManager::Turn KeyManager::try_admit(Waiter& w) {
  Entry& e = *w.entry;
  if (e.loaded && !e.stale) {
    if (w.work_bytes != 0 && !budget_->try_reserve(w.work_bytes, &w.work)) return Turn::kNoRoom;
    e.refs++;
    return Turn::kAdmitted;
  }
  if (e.loading || e.stale) return Turn::kNoRoom;
  const uint64_t key = e.info->est_key_bytes;
  if (options_.host_cap_bytes && hot_bytes_ + key > options_.host_cap_bytes) return Turn::kNoRoom;
  if (!budget_->try_reserve(key + w.work_bytes, &w.work)) return Turn::kNoRoom;
  hot_bytes_ += key;
  return Turn::kLoad;
}

// Frees idle memory outside the manager (options_.reclaim) when w's key is
// ready or loadable and the budget is what keeps w out: true when some was freed.
bool KeyManager::reclaim_for(const Waiter& w) {
  const Entry& e = *w.entry;
  if (!options_.reclaim || e.loading || e.stale) return false;
  const uint64_t need = w.work_bytes + (e.loaded ? 0 : e.info->est_key_bytes);
  const uint64_t used = budget_->used(), total = budget_->total();
  const uint64_t free = used < total ? total - used : 0;
  if (need <= free) return false;  // something else (keys.host_budget) keeps it out
  return options_.reclaim(need - free) > 0;
}

StatusOr<Reservation> KeyManager::reserve_now(uint64_t bytes) {
  const uint64_t total = budget_->total();
  if (bytes > total)
    return resource_exhausted("needs " + std::to_string(bytes) + " bytes of host memory; the memory budget is " +
                              std::to_string(total) + " bytes in all");
  MutexLock lock(mu_);
  Reservation r;
  while (!budget_->try_reserve(bytes, &r)) {
    const uint64_t used = budget_->used();
    const uint64_t free = used < total ? total - used : 0;
    if (bytes <= free) continue;  // given back meanwhile
    if (options_.reclaim && options_.reclaim(bytes - free) > 0) continue;
    if (demote_one_idle(nullptr)) continue;
    // Keys in use and work in flight hold the rest. The caller holds the
    // bytes already: count them past the total, so that admissions wait
    // until they come back, rather than refuse a request that would fit an
    // idle daemon.
    return budget_->charge(bytes);
  }
  return r;
}

void KeyManager::release(const std::string& id) {
  MutexLock lock(mu_);
  Entry& e = *entries_.at(id);
  if (e.refs > 0) e.refs--;
  e.last_used = env_->now();
  drop_if_stale(e);
  publish_gauges();
  cv_.notify_all();  // an idle key may be demoted now
}

// Loads e with `key_reservation` (counted in hot_bytes_ already). REQUIRES:
// mu_ held, !e.loading, !e.loaded; drops the lock while decoding and holds
// it again on return.
Status KeyManager::load_entry(Entry& e, Reservation key_reservation) {
  e.loading = true;
  e.progress = 0;
  auto start = Clock::now();
  StatusOr<std::shared_ptr<const LoadedCircuit>> loaded = decode(e);
  e.loading = false;
  cv_.notify_all();
  if (!loaded.ok()) {
    hot_bytes_ -= key_reservation.bytes();
    e.last_error = valid_utf8(loaded.status().message());  // shown in /status
    e.mapping = MappedFile();  // the file may have changed: map it afresh next time
    e.tier = KeyTier::kCold;
    CUZK_LOG(Error) << "loading circuit " << bounded_quote(e.source->id()) << " failed: " << loaded.status().to_string();
    return loaded.status();
  }
  keep_loaded(e, std::move(*loaded), std::move(key_reservation), start);
  return ok_status();
}

// Maps the key file (again, when it changed since it was mapped) and
// decodes it. REQUIRES: mu_ held; drops it while decoding.
StatusOr<std::shared_ptr<const LoadedCircuit>> KeyManager::decode(Entry& e) {
  const std::string path = e.source->key_path();
  if (e.mapping.size() != 0) {
    auto now = env_->file_identity(path);
    if (!now.ok() || *now != e.mapping.identity()) {
      CUZK_LOG(Info) << "the key file " << path << " changed since it was mapped; mapping it again";
      e.mapping = MappedFile();
    }
  }
  if (e.mapping.size() == 0 && !path.empty()) {
    auto m = env_->map_file(path);
    if (!m.ok()) return failed_precondition("circuit " + bounded_quote(e.source->id()) + ": " + m.status().message());
    m->advise_sequential();
    e.mapping = std::move(*m);
  }
  const MappedFile* mapping = path.empty() ? nullptr : &e.mapping;
  mu_.unlock();  // the entry is ours while it is loading
  auto r = e.source->load(mapping, [this, &e](double f) {
    MutexLock g(mu_);
    e.progress = f;
  });
  Status intact = mapping ? mapping->check_intact() : ok_status();
  if (intact.ok() && r.ok()) intact = (*r)->check_files();
  mu_.lock();
  if (!intact.ok()) return intact.with_context("circuit " + bounded_quote(e.source->id()));
  return r;
}

void KeyManager::keep_loaded(Entry& e, std::shared_ptr<const LoadedCircuit> loaded, Reservation reservation,
                             Clock::time_point start) {
  uint64_t actual = loaded->host_bytes();
  if (actual < reservation.bytes()) {
    hot_bytes_ -= reservation.bytes() - actual;
    reservation.release(reservation.bytes() - actual);
  } else if (actual > reservation.bytes()) {
    CUZK_LOG(Debug) << "circuit " << bounded_quote(e.source->id()) << " takes " << actual << " bytes, more than the "
                   << reservation.bytes() << " estimated";
  }
  e.loaded = std::move(loaded);
  e.reservation = std::move(reservation);
  e.tier = KeyTier::kHot;
  e.stale = false;
  e.last_error.clear();
  e.loads++;
  e.last_load_ms = uint64_t(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  if (metrics_) {
    metrics_->add_counter("cuzk_key_loads_total", 1, "circuit=\"" + e.source->id() + "\"");
    metrics_->observe_seconds("cuzk_key_load_seconds", double(e.last_load_ms) / 1000.0);
  }
  CUZK_LOG(Info) << "circuit " << bounded_quote(e.source->id()) << " is HOT: " << e.reservation.bytes()
                 << " bytes, loaded in " << e.last_load_ms << " ms";
}

bool KeyManager::demote_one_idle(const Entry* except) {
  auto now = env_->now();
  Entry* victim = nullptr;
  for (auto& [id, e] : entries_) {
    if (e.get() == except || e->tier != KeyTier::kHot || e->refs > 0 || e->loading) continue;
    auto idle_ms = std::chrono::duration_cast<std::chrono::milliseconds>(now - e->last_used).count();
    if (uint64_t(idle_ms) < options_.min_idle_ms) continue;
    if (!victim || e->last_used < victim->last_used) victim = e.get();
  }
  if (!victim) return false;
  CUZK_LOG(Info) << "demoting idle circuit " << bounded_quote(victim->source->id()) << " to WARM ("
                 << victim->reservation.bytes() << " bytes freed)";
  if (metrics_) metrics_->add_counter("cuzk_key_evictions_total", 1, "reason=\"idle\"");
  demote(*victim);
  return true;
}

void KeyManager::demote(Entry& e) {
  if (options_.on_demote && e.loaded) options_.on_demote(e.source->id());
  e.loaded.reset();
  hot_bytes_ -= e.reservation.bytes();
  e.reservation.release_all();
  e.tier = e.mapping.size() ? KeyTier::kWarm : KeyTier::kCold;
  publish_gauges();
}

// A stale key (found damaged) leaves once nobody uses it. REQUIRES: mu_ held.
void KeyManager::drop_if_stale(Entry& e) {
  if (!e.stale || e.refs > 0) return;
  demote(e);
  e.mapping = MappedFile();
  e.tier = KeyTier::kCold;
  e.stale = false;
  if (metrics_) metrics_->add_counter("cuzk_key_evictions_total", 1, "reason=\"damaged\"");
  publish_gauges();
}

void KeyManager::invalidate(const std::string& id, const LoadedCircuit* circuit) {
  MutexLock lock(mu_);
  auto it = entries_.find(id);
  if (it == entries_.end()) return;
  Entry& e = *it->second;
  if (!e.loaded || e.loaded.get() != circuit) return;
  CUZK_LOG(Warn) << "circuit " << bounded_quote(id) << ": a file of its key changed while in use; it is dropped and "
                 << "will be loaded again";
  e.stale = true;
  e.last_error = "a file of the key changed while in use";
  drop_if_stale(e);
  cv_.notify_all();
}

void KeyManager::wake() { cv_.notify_all(); }

void KeyManager::close() {
  MutexLock lock(mu_);
  closed_ = true;
  cv_.notify_all();
}

StatusOr<KeyManager::PreloadResult> KeyManager::preload(const std::string& id) {
  {
    MutexLock lock(mu_);
    auto it = entries_.find(id);
    if (it == entries_.end()) return not_found("unknown circuit " + bounded_quote(id));
    if (it->second->loaded) return PreloadResult{true, 0};
  }
  auto start = Clock::now();
  ASSIGN_OR_RETURN(KeyLease lease, acquire(id, nullptr));
  lease.reset();
  uint64_t ms = uint64_t(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  return PreloadResult{false, ms};
}

StatusOr<KeyManager::EvictResult> KeyManager::evict(const std::string& id) {
  MutexLock lock(mu_);
  auto it = entries_.find(id);
  if (it == entries_.end()) return not_found("unknown circuit " + bounded_quote(id));
  Entry& e = *it->second;
  if (e.loading) return failed_precondition("circuit " + bounded_quote(id) + " is loading; evict it after the load");
  if (e.refs > 0)
    return failed_precondition("circuit " + bounded_quote(id) + " is in use by " + std::to_string(e.refs) +
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
  MutexLock lock(mu_);
  std::vector<KeyStatus> out;
  auto now = env_->now();
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

std::string KeyManager::key_path(const std::string& id) const {
  MutexLock lock(mu_);
  auto it = entries_.find(id);
  return it == entries_.end() ? std::string() : it->second->source->key_path();
}

uint64_t KeyManager::key_bytes(const std::string& id) const {
  MutexLock lock(mu_);
  auto it = entries_.find(id);
  if (it == entries_.end()) return 0;
  const Entry& e = *it->second;
  if (e.loaded) return e.reservation.bytes();
  return e.info ? e.info->est_key_bytes : 0;
}

uint64_t KeyManager::hot_bytes() const {
  MutexLock lock(mu_);
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
