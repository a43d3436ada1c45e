// The daemon client's submit-and-wait with Ctrl-C cancellation, and its
// outputs.
#include <signal.h>

#include <atomic>
#include <chrono>
#include <nlohmann/json.hpp>

#include "cuzk/io/snarkjs_json.h"
#include "daemon_client_util.h"

namespace cuzk::app {
namespace {

// Set by the SIGINT handler while a job is awaited (a process-wide flag: the
// handler has nowhere else to write).
std::atomic<bool> g_interrupted{false};

void on_sigint(int) { g_interrupted.store(true); }

// SIGINT sets the flag while this object lives; the previous action is
// restored after.
class InterruptScope {
 public:
  InterruptScope() {
    struct sigaction sa {};
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGINT, &sa, &old_);
  }
  ~InterruptScope() { ::sigaction(SIGINT, &old_, nullptr); }
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;

 private:
  struct sigaction old_ {};
};

constexpr uint64_t kAwaitSliceMs = 300;

}  // namespace

bool interrupted() { return g_interrupted.load(); }

StatusOr<engine::JobResult> submit_and_await(server::Client& client, const server::SubmitArgs& args, bool quiet) {
  ASSIGN_OR_RETURN(engine::SubmitResult sub, client.submit(args));
  if (!quiet)
    std::fprintf(stderr, "cuzk: submitted %s%s (queue position %u); Ctrl-C cancels it\n", sub.job_id.c_str(),
                 sub.deduplicated ? " (an earlier job with this request id)" : "", sub.queue_position);
  InterruptScope scope;
  while (true) {
    ASSIGN_OR_RETURN(engine::JobResult r, client.await(sub.job_id, kAwaitSliceMs));
    if (r.outcome != engine::JobOutcome::kTimeout) return r;
    if (!g_interrupted.load()) continue;
    auto was_running = client.cancel(sub.job_id);
    if (!was_running.ok()) return was_running.status().with_context("cancelling " + sub.job_id);
    std::fprintf(stderr, "cuzk: interrupted: cancelled %s%s\n", sub.job_id.c_str(),
                 *was_running ? " (a partition was proving)" : "");
    ASSIGN_OR_RETURN(engine::JobResult done, client.await(sub.job_id, 10'000));
    return done;
  }
}

Status write_publics(const std::string& path, size_t proofs, const std::vector<ff::Fr>& publics) {
  if (proofs <= 1) return io::write_public_json(path, publics);
  const size_t per = publics.size() / proofs;
  std::vector<std::vector<ff::Fr>> lists;
  for (size_t i = 0; i < proofs; ++i)
    lists.emplace_back(publics.begin() + long(i * per), publics.begin() + long((i + 1) * per));
  return io::write_public_json_lists(path, lists);
}

std::string job_result_json(const engine::JobResult& r, double client_ms) {
  const auto& t = r.timings;
  nlohmann::json j{{"job_id", r.job_id},
                   {"outcome", engine::job_outcome_name(r.outcome)},
                   {"proofs", r.proof.size() / 192},
                   {"public_inputs", r.public_inputs.size()},
                   {"timings_ms",
                    {{"queue", t.queue_wait_ms},
                     {"key_load", t.srs_load_ms},
                     {"synthesis", t.synthesis_ms},
                     {"compute", t.compute_ms},
                     {"verify", t.verify_ms},
                     {"total", t.total_ms},
                     {"client_round_trip", client_ms}}}};
  if (!r.error_message.empty()) j["error_message"] = r.error_message;
  return j.dump();
}

}  // namespace cuzk::app
