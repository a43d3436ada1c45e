// A fake proving device for the pipeline tests (no GPU needed): the CPU
// backend does the arithmetic, so every proof is real and self-verifies,
// while the fake adds what a GPU has and the CPU lacks — a device memory
// budget that keys and input sets reserve from, scripted stage and run
// latencies, pinned and pageable host buffers, and injected device errors —
// and records what it saw (runs, concurrency in the device region, circuits,
// the budget's peak) for the tests to check.
//
// Its lanes follow the CUDA backend's policy for input sets: one per lane
// when the budget holds that many beside the workspace (uploads at stage,
// outside the device region), else one shared set that the lanes use in turn
// inside run() (the "plain_path" fallback).
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "cuzk/groth16/backend.h"

namespace cuzk::engine::testing {

struct FakeScript {
  uint64_t vram_bytes = uint64_t(1) << 30;  // the device's budget
  uint64_t key_bytes = uint64_t(1) << 20;   // a resident key's points
  uint64_t set_bytes = uint64_t(1) << 20;   // one proof's inputs
  uint64_t workspace_bytes = uint64_t(1) << 16;
  // A resident key keeps its circuit (a, b, c made on the device from the
  // witness) when this many more bytes fit its key cap and the budget.
  uint64_t rows_bytes = uint64_t(1) << 18;
  bool rows_on_device = true;
  int stage_ms = 0, run_ms = 2;
  // When set, stage() (stage_hold), run() (run_hold) or attach()
  // (attach_hold) holds while the flag is true, instead of stage_ms or
  // run_ms (run() also ends on a cancel): the test lets it go, not the clock.
  std::shared_ptr<std::atomic<bool>> stage_hold, run_hold, attach_hold;
  bool pinned = true;              // allocate_inputs gives pinned buffers
  std::set<uint64_t> fail_runs;    // the device's n-th run() (1-based) meets a device error
};

// What a fake device saw. Thread-safe.
struct FakeLog {
  std::mutex mu;
  uint64_t runs = 0;
  int in_region = 0, max_in_region = 0;  // lanes inside run() at once
  uint64_t rows_made = 0;                // proofs whose a, b, c the device made from the witness
  uint64_t upload_bytes = 0;
  std::vector<std::string> circuits;     // by run, the circuit (key tag) proved
  uint64_t attaches = 0;
  int held = 0;                          // lanes holding in stage() or run() now
};

class FakeBudget {
 public:
  explicit FakeBudget(uint64_t total) : total_(total) {}
  bool take(uint64_t n) {
    std::lock_guard<std::mutex> lock(mu_);
    if (n > total_ - used_) return false;
    used_ += n;
    peak_ = std::max(peak_, used_);
    return true;
  }
  void give(uint64_t n) {
    std::lock_guard<std::mutex> lock(mu_);
    used_ -= n;
  }
  uint64_t total() const { return total_; }
  uint64_t used() const {
    std::lock_guard<std::mutex> lock(mu_);
    return used_;
  }
  uint64_t peak() const {
    std::lock_guard<std::mutex> lock(mu_);
    return peak_;
  }

 private:
  mutable std::mutex mu_;
  const uint64_t total_;
  uint64_t used_ = 0, peak_ = 0;
};

class FakeKey final : public groth16::AttachedKey {
 public:
  FakeKey(const groth16::ProvingKey& pk, std::shared_ptr<const groth16::AttachedKey> cpu,
          std::shared_ptr<FakeBudget> budget, uint64_t bytes, bool resident, bool rows)
      : AttachedKey(pk), cpu_(std::move(cpu)), budget_(std::move(budget)), bytes_(bytes), resident_(resident),
        rows_(rows) {}
  ~FakeKey() override { budget_->give(bytes_); }
  uint64_t device_bytes() const override { return bytes_; }
  std::string placement() const override { return resident_ ? "device-resident (fake)" : "streamed (fake)"; }
  bool computes_rows() const override { return rows_; }
  bool resident() const { return resident_; }
  const std::shared_ptr<const groth16::AttachedKey>& cpu() const { return cpu_; }

 private:
  std::shared_ptr<const groth16::AttachedKey> cpu_;
  std::shared_ptr<FakeBudget> budget_;
  uint64_t bytes_;
  bool resident_;
  bool rows_;  // the CPU key beneath computes the rows (it was given the circuit)
};

// The device state its lanes share.
struct FakeShared {
  FakeScript script;
  std::shared_ptr<FakeBudget> budget;
  std::shared_ptr<FakeLog> log;
  std::mutex mu;  // input sets, workspace
  uint32_t lanes = 0;
  bool decided = false, shared_sets = false;
  uint32_t sets = 0, free_sets = 0;
  bool workspace = false;
  std::mutex pinned_mu;
  std::set<const void*> pinned;  // buffers allocate_inputs handed out as pinned
};

class FakeLane final : public groth16::Lane {
 public:
  FakeLane(std::shared_ptr<FakeShared> sh, std::unique_ptr<groth16::Lane> cpu)
      : sh_(std::move(sh)), cpu_(std::move(cpu)) {}
  ~FakeLane() override { give_set(); }

  Status stage(std::shared_ptr<const groth16::AttachedKey> key, const groth16::ProofInputs& in) override {
    auto fk = std::dynamic_pointer_cast<const FakeKey>(key);
    if (!fk) return invalid_argument("fake lane: the key was attached to another backend");
    give_set();
    times_ = groth16::LaneTimes{};
    times_.plan = fk->resident() ? "resident" : "streamed";
    if (!fk->resident()) times_.fallbacks.push_back(groth16::Fallback::kKeyStreamed);
    {
      std::lock_guard<std::mutex> lock(sh_->pinned_mu);
      if (!sh_->pinned.count(in.rows_given() ? in.a.data() : in.witness.data())) {
        times_.pageable_upload = true;
        times_.fallbacks.push_back(groth16::Fallback::kPageableUpload);
      }
    }
    RETURN_IF_ERROR(decide());
    own_ = take_set(false);
    if (!own_) times_.fallbacks.push_back(groth16::Fallback::kPlainPath);
    if (sh_->script.stage_hold) hold(*sh_->script.stage_hold, nullptr);
    else if (sh_->script.stage_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(sh_->script.stage_ms));
    times_.upload_bytes = (in.a.size() + in.b.size() + in.c.size() + in.witness.size()) * sizeof(ff::Fr);
    {
      std::lock_guard<std::mutex> lock(sh_->log->mu);
      sh_->log->rows_made += in.rows_given() ? 0 : 1;
      sh_->log->upload_bytes += times_.upload_bytes;
    }
    key_ = fk;
    cancelled_ = in.cancelled;
    return cpu_->stage(fk->cpu(), in);
  }

  StatusOr<groth16::MsmSums> run() override {
    if (!key_) return failed_precondition("fake lane: nothing staged");
    auto key = std::move(key_);
    uint64_t nth = 0;
    {
      std::lock_guard<std::mutex> lock(sh_->log->mu);
      nth = ++sh_->log->runs;
      sh_->log->max_in_region = std::max(sh_->log->max_in_region, ++sh_->log->in_region);
      sh_->log->circuits.push_back(tag(key->pk()));
    }
    StatusOr<groth16::MsmSums> out = run_in_region(nth);
    {
      std::lock_guard<std::mutex> lock(sh_->log->mu);
      --sh_->log->in_region;
    }
    give_set();
    return out;
  }
  const groth16::LaneTimes& times() const override { return times_; }

  // A circuit's tag for the log: its domain and variable count.
  static std::string tag(const groth16::ProvingKey& pk) {
    return std::to_string(pk.lg_n) + "/" + std::to_string(pk.num_vars());
  }

 private:
  StatusOr<groth16::MsmSums> run_in_region(uint64_t nth) {
    if (!own_ && !take_set(true)) return internal_error("fake lane: no input set free inside the device region");
    have_set_ = true;
    // The scripted device time, cut short when the proof is cancelled (as a
    // lane stops at its next stage boundary).
    if (sh_->script.run_hold) {
      hold(*sh_->script.run_hold, cancelled_);
    } else {
      const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(sh_->script.run_ms);
      while (std::chrono::steady_clock::now() < end && !(cancelled_ && cancelled_()))
        std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(end - std::chrono::steady_clock::now(),
                                                                                   std::chrono::milliseconds(5)));
    }
    if (sh_->script.fail_runs.count(nth)) return unavailable("fake device error (an illegal address, injected)");
    StatusOr<groth16::MsmSums> sums = cpu_->run();
    times_.stages_ms = {{"upload", 0.5}, {"h", sh_->script.run_ms / 2.0}, {"msm_h", sh_->script.run_ms / 2.0}};
    return sums;
  }

  // Waits while the test holds the lane (and, given cancelled, until a cancel).
  void hold(const std::atomic<bool>& held, const std::function<bool()>& cancelled) {
    {
      std::lock_guard<std::mutex> lock(sh_->log->mu);
      ++sh_->log->held;
    }
    while (held.load() && !(cancelled && cancelled())) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::lock_guard<std::mutex> lock(sh_->log->mu);
    --sh_->log->held;
  }

  // Chooses per device, at the first stage: one set per lane, or one shared.
  Status decide() {
    std::lock_guard<std::mutex> lock(sh_->mu);
    if (sh_->decided) return ok_status();
    if (!sh_->workspace) {
      if (!sh_->budget->take(sh_->script.workspace_bytes))
        return resource_exhausted("fake device: no room for the workspace");
      sh_->workspace = true;
    }
    const uint64_t room = sh_->budget->total() - sh_->budget->used();
    const uint64_t fit = room / sh_->script.set_bytes;
    if (fit == 0) return resource_exhausted("fake device: no room for one proof's inputs");
    sh_->shared_sets = fit < sh_->lanes;
    sh_->sets = sh_->shared_sets ? 1 : sh_->lanes;
    if (!sh_->budget->take(sh_->sets * sh_->script.set_bytes)) return internal_error("fake device: budget moved");
    sh_->free_sets = sh_->sets;
    sh_->decided = true;
    return ok_status();
  }
  bool take_set(bool in_run) {
    std::lock_guard<std::mutex> lock(sh_->mu);
    if ((sh_->shared_sets && !in_run) || sh_->free_sets == 0) return false;
    --sh_->free_sets;
    have_set_ = true;
    return true;
  }
  void give_set() {
    if (!have_set_) return;
    std::lock_guard<std::mutex> lock(sh_->mu);
    ++sh_->free_sets;
    have_set_ = false;
    own_ = false;
  }

  std::shared_ptr<FakeShared> sh_;
  std::unique_ptr<groth16::Lane> cpu_;
  std::shared_ptr<const FakeKey> key_;
  std::function<bool()> cancelled_;  // the staged proof's (ProofInputs::cancelled)
  groth16::LaneTimes times_;
  bool own_ = false, have_set_ = false;
};

class FakeBackend final : public groth16::Backend {
 public:
  FakeBackend(std::string name, FakeScript script, std::shared_ptr<FakeLog> log)
      : name_(std::move(name)), cpu_(groth16::make_cpu_backend()), sh_(std::make_shared<FakeShared>()) {
    sh_->script = std::move(script);
    sh_->budget = std::make_shared<FakeBudget>(sh_->script.vram_bytes);
    sh_->log = std::move(log);
  }
  std::string_view name() const override { return "fake"; }
  std::string describe() const override { return name_ + " (fake device)"; }
  groth16::DeviceMemory device_memory() const override {
    return {sh_->script.vram_bytes * 2, sh_->budget->total(), sh_->budget->used(), sh_->budget->peak()};
  }
  StatusOr<std::shared_ptr<const groth16::AttachedKey>> attach(const groth16::ProvingKey& pk,
                                                               const groth16::AttachOptions& options) override {
    ASSIGN_OR_RETURN(auto cpu, cpu_->attach(pk, options));
    {
      std::lock_guard<std::mutex> lock(sh_->log->mu);
      ++sh_->log->attaches;
    }
    if (sh_->script.attach_hold)
      while (sh_->script.attach_hold->load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    const uint64_t need = sh_->script.key_bytes;
    // Resident when it fits the key cap and leaves room for one input set
    // (unless the device's sets are already made).
    uint64_t reserve = sh_->script.set_bytes + sh_->script.workspace_bytes;
    {
      std::lock_guard<std::mutex> lock(sh_->mu);
      if (sh_->decided) reserve = 0;
    }
    bool resident = need <= options.max_device_bytes && sh_->budget->take(need + reserve);
    if (resident) sh_->budget->give(reserve);
    uint64_t held = resident ? need : 0;
    // The circuit beside a resident key, when it fits the cap and the budget
    // (with one set's room): the CUDA backend's rule.
    const uint64_t rows = sh_->script.rows_bytes;
    bool keep_rows = resident && options.circuit && sh_->script.rows_on_device &&
                     need + rows <= options.max_device_bytes && sh_->budget->take(rows + reserve);
    if (keep_rows) sh_->budget->give(reserve), held += rows;
    return std::shared_ptr<const groth16::AttachedKey>(
        std::make_shared<FakeKey>(pk, cpu, sh_->budget, held, resident, keep_rows && cpu->computes_rows()));
  }
  uint64_t resident_key_bytes(const groth16::ProvingKey&) const override { return sh_->script.key_bytes; }
  StatusOr<std::unique_ptr<groth16::Lane>> make_lane() override {
    ASSIGN_OR_RETURN(auto cpu, cpu_->make_lane());
    {
      std::lock_guard<std::mutex> lock(sh_->mu);
      ++sh_->lanes;
    }
    return std::unique_ptr<groth16::Lane>(std::make_unique<FakeLane>(sh_, std::move(cpu)));
  }
  StatusOr<groth16::HostBuffer> allocate_inputs(size_t n) override {
    ASSIGN_OR_RETURN(groth16::HostBuffer b, Backend::allocate_inputs(n));
    if (!sh_->script.pinned || b.data() == nullptr) return b;
    std::lock_guard<std::mutex> lock(sh_->pinned_mu);
    sh_->pinned.insert(b.data());
    ff::Fr* p = b.data();
    const size_t size = b.size();
    auto keep = std::make_shared<groth16::HostBuffer>(std::move(b));
    std::shared_ptr<FakeShared> sh = sh_;
    return groth16::HostBuffer(p, size, true, [keep, sh](ff::Fr* q) {
      std::lock_guard<std::mutex> l(sh->pinned_mu);
      sh->pinned.erase(q);
      keep->reset();
    });
  }
  FakeBudget& budget() { return *sh_->budget; }

 private:
  std::string name_;
  std::unique_ptr<groth16::Backend> cpu_;
  std::shared_ptr<FakeShared> sh_;
};

// Fake devices by name for EngineConfig::backend_factory: "fake:N" gets
// scripts[N] (or the default script) and logs[N]; other names NOT_FOUND.
struct FakeDevices {
  std::map<std::string, FakeScript> scripts;
  std::map<std::string, std::shared_ptr<FakeLog>> logs;
  std::map<std::string, FakeBudget*> budgets;

  std::function<StatusOr<std::unique_ptr<groth16::Backend>>(const std::string&)> factory() {
    return [this](const std::string& name) -> StatusOr<std::unique_ptr<groth16::Backend>> {
      if (name.rfind("fake:", 0) != 0) return not_found("not a fake device");
      auto& log = logs[name];
      if (!log) log = std::make_shared<FakeLog>();
      auto b = std::make_unique<FakeBackend>(name, scripts.count(name) ? scripts[name] : FakeScript{}, log);
      budgets[name] = &b->budget();
      return std::unique_ptr<groth16::Backend>(std::move(b));
    };
  }
  FakeLog& log(const std::string& name) { return *logs.at(name); }
};

}  // namespace cuzk::engine::testing
