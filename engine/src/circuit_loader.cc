// Making the configured circuits ready: each one's source (demo files,
// Filecoin rows and development keys generated where missing) and its
// header facts, then its entry in the key manager. With
// EngineConfig::load_in_background this runs on the engine's loader thread
// while the daemon already answers; each circuit is served once ready.
#include <cstdio>

#include "cuzk/base/log.h"
#include "engine_impl.h"

namespace cuzk::engine {
namespace {

// "850 ms", "12.3 s".
std::string duration_text(double ms) {
  char buf[32];
  if (ms < 1000) std::snprintf(buf, sizeof buf, "%.0f ms", ms);
  else std::snprintf(buf, sizeof buf, "%.1f s", ms / 1000);
  return buf;
}

// A source's error without the `circuit "<id>": ` it usually starts with.
std::string without_id(const std::string& message, const std::string& id) {
  const std::string prefix = "circuit \"" + id + "\": ";
  return message.starts_with(prefix) ? message.substr(prefix.size()) : message;
}

}  // namespace

std::string_view circuit_state_name(CircuitState state) {
  switch (state) {
    case CircuitState::kLoading: return "loading";
    case CircuitState::kReady: return "ready";
    case CircuitState::kFailed: return "failed";
  }
  return "unknown";
}

void Engine::Impl::start_loading() {
  MutexLock lock(circuits_mu_);
  if (!config_.load_in_background || loader_.joinable()) return;
  loader_ = std::jthread([this](std::stop_token stop) { load_circuits(stop); });
}

void Engine::Impl::stop_loading() {
  std::string busy;
  {
    MutexLock lock(circuits_mu_);
    retry_stop_.request_stop();
    if (!loader_.joinable() && retries_in_flight_ == 0) return;
    loader_.request_stop();
    for (const CircuitLoad& c : circuits_)
      if (c.state == CircuitState::kLoading && is_set(c.began)) busy = "circuit \"" + c.id + "\" (" + c.step + ")";
  }
  if (!busy.empty()) {
    CUZK_LOG(Info) << "stopping: waiting for " << busy << " to finish its current step";
  }
  if (loader_.joinable()) loader_.join();
  MutexLock lock(circuits_mu_);
  while (retries_in_flight_ != 0) circuits_cv_.wait(circuits_mu_);
}

void Engine::Impl::load_circuits(std::stop_token stop) {
  for (size_t i = 0; i < config_.circuits.size(); ++i) {
    if (stop.stop_requested()) return;
    Status s = load_circuit(i, stop);
    end_load(i, s);
  }
}

Status Engine::Impl::load_circuit(size_t index, std::stop_token stop) {
  const CircuitSpec& spec = config_.circuits[index];
  SourceOptions so;
  so.check_points = config_.check_key_points;
  so.pool = pool_.get();
  so.cache_dir = config_.cache_dir;
  so.env = env_;
  so.on_step = [this, index, stop](const std::string& step) {
    if (stop.stop_requested()) return cancelled("the daemon is stopping");
    begin_step(index, step);
    return ok_status();
  };
  begin_step(index, "checking its configuration and files");
  StatusOr<std::unique_ptr<CircuitSource>> source =
      config_.source_factory ? config_.source_factory(spec, so) : make_circuit_source(spec, so);
  RETURN_IF_ERROR(source.status());
  if (stop.stop_requested()) return cancelled("the daemon is stopping");
  begin_step(index, "reading the key file's header");
  ASSIGN_OR_RETURN(CircuitInfo info, (*source)->describe());
  keys_->add(std::move(*source), info);
  CUZK_LOG(Info) << "circuit \"" << spec.id << "\": " << info.num_vars << " variables, " << info.num_public
                 << " public inputs, domain 2^" << info.lg_n << ", key file " << info.key_file_bytes << " bytes";
  return ok_status();
}

void Engine::Impl::begin_step(size_t index, std::string step) {
  std::string id, previous;
  double previous_ms = 0;
  {
    MutexLock lock(circuits_mu_);
    CircuitLoad& c = circuits_[index];
    const Clock::time_point now = Clock::now();
    if (!is_set(c.began)) {
      c.began = now;
    } else {
      previous = c.step;
      previous_ms = ms_between(c.step_began, now);
    }
    c.step = step;
    c.step_began = now;
    id = c.id;
  }
  if (!previous.empty()) {
    CUZK_LOG(Info) << "circuit \"" << id << "\": " << previous << ": done in " << duration_text(previous_ms);
  }
  CUZK_LOG(Info) << "circuit \"" << id << "\": " << step << "...";
}

void Engine::Impl::end_load(size_t index, const Status& result) {
  std::string id, step;
  double step_ms = 0, total_ms = 0;
  {
    MutexLock lock(circuits_mu_);
    CircuitLoad& c = circuits_[index];
    c.ended = Clock::now();
    c.last_attempt_end = env_->now();
    c.state = result.ok() ? CircuitState::kReady : CircuitState::kFailed;
    c.error = result.ok() ? std::string() : without_id(result.message(), c.id);
    id = c.id;
    step = c.step;
    step_ms = ms_between(c.step_began, c.ended);
    total_ms = ms_between(c.began, c.ended);
  }
  circuits_cv_.notify_all();
  if (result.ok()) {
    CUZK_LOG(Info) << "circuit \"" << id << "\": " << step << ": done in " << duration_text(step_ms)
                   << "; ready (" << duration_text(total_ms) << " in all)";
  } else if (result.code() == StatusCode::kCancelled) {
    CUZK_LOG(Info) << "circuit \"" << id << "\": loading stopped (" << step << "): " << result.message();
  } else {
    CUZK_LOG(Error) << "circuit \"" << id << "\" failed to load (" << step << ", after " << duration_text(total_ms)
                    << "): " << result.to_string()
                    << (config_.load_in_background
                            ? "; its requests are refused, the other circuits are served; a preload or a request "
                              "for it tries again"
                            : "");
  }
}

bool Engine::Impl::wait_for_circuits(std::chrono::milliseconds timeout) {
  const Clock::time_point deadline = Clock::now() + timeout;
  MutexLock lock(circuits_mu_);
  while (true) {
    bool loading = false;
    for (const CircuitLoad& c : circuits_) loading |= c.state == CircuitState::kLoading;
    if (!loading) return true;
    if (Clock::now() >= deadline) return false;
    circuits_cv_.wait_until(circuits_mu_, deadline);
  }
}

std::optional<Engine::Impl::RetryClaim> Engine::Impl::claim_retry(const std::string& id) {
  MutexLock lock(circuits_mu_);
  if (retry_stop_.stop_requested()) return std::nullopt;
  for (size_t i = 0; i < circuits_.size(); ++i) {
    CircuitLoad& c = circuits_[i];
    if (c.id != id) continue;
    if (c.state != CircuitState::kFailed) return std::nullopt;
    const auto interval = std::chrono::milliseconds(config_.circuit_retry_interval_ms);
    if (env_->now() - c.last_attempt_end < interval) return std::nullopt;
    c.state = CircuitState::kLoading;
    c.step = "trying again";
    c.began = c.step_began = Clock::time_point();
    ++c.attempts;
    ++retries_in_flight_;
    return RetryClaim{i, c.attempts + 1};
  }
  return std::nullopt;
}

Status Engine::Impl::ready_or_retry(const std::string& id) {
  if (std::optional<RetryClaim> claim = claim_retry(id)) {
    CUZK_LOG(Info) << "circuit \"" << id << "\" failed to load before; trying again (attempt " << claim->attempt
                   << ")";
    Status s = load_circuit(claim->index, retry_stop_.get_token());
    end_load(claim->index, s);
    {
      MutexLock lock(circuits_mu_);
      --retries_in_flight_;
    }
    circuits_cv_.notify_all();
    if (s.code() == StatusCode::kCancelled)
      return unavailable("the daemon is shutting down; circuit " + bounded_quote(id) + " was not loaded");
  }
  return check_circuit_ready(id);
}

Status Engine::Impl::check_circuit_ready(const std::string& id) const {
  MutexLock lock(circuits_mu_);
  for (const CircuitLoad& c : circuits_) {
    if (c.id != id) continue;
    switch (c.state) {
      case CircuitState::kReady: return ok_status();
      case CircuitState::kLoading: {
        const std::string when = is_set(c.step_began)
                                     ? " (for " + duration_text(ms_between(c.step_began, Clock::now())) + ")"
                                     : std::string();
        return unavailable("circuit " + bounded_quote(id) + " is still loading: " + c.step + when +
                           "; retry later (/status shows its progress)");
      }
      case CircuitState::kFailed:
        return failed_precondition("circuit " + bounded_quote(id) + " failed to load: " + c.error);
    }
  }
  return ok_status();
}

std::vector<CircuitLoadStatus> Engine::Impl::circuit_status() const {
  std::vector<CircuitLoadStatus> out;
  const Clock::time_point now = Clock::now();
  MutexLock lock(circuits_mu_);
  for (const CircuitLoad& c : circuits_) {
    CircuitLoadStatus s;
    s.id = c.id;
    s.state = c.state;
    s.step = c.state == CircuitState::kLoading ? c.step : std::string();
    s.error = c.error;
    const Clock::time_point end = c.state == CircuitState::kLoading ? now : c.ended;
    s.elapsed_s = ms_between(c.began, end) / 1000;
    s.step_s = c.state == CircuitState::kLoading ? ms_between(c.step_began, now) / 1000 : 0;
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace cuzk::engine
