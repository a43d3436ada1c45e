#include <set>

#include "cuzk/engine/config.h"

namespace cuzk::engine {
namespace {

Status check_filecoin_circuit(const CircuitSpec& c, const std::string& where) {
  static const std::set<std::string> kKinds = {"porep", "winning-post", "window-post", "snap-deals"};
  if (!kKinds.count(c.filecoin.kind))
    return invalid_argument(where + ".filecoin: \"" + c.filecoin.kind +
                            "\" is not one of porep, winning-post, window-post, snap-deals");
  if (c.filecoin.sector_size == 0) return invalid_argument(where + ".sector_size: required with filecoin");
  if (!c.zkey.empty() || !c.r1cs.empty() || !c.check_r1cs.empty() || c.demo)
    return invalid_argument(where + ": a filecoin circuit takes params or dev_seed, no zkey, r1cs or check_r1cs");
  if (c.params.empty() == !c.filecoin.dev_key)
    return invalid_argument(where + ": give exactly one of params or dev_seed for a filecoin circuit");
  return ok_status();
}

Status check_circuit(const CircuitSpec& c, size_t i) {
  // The demo circuit comes from the [demo] section: its keys are demo.*.
  std::string where = c.demo ? std::string("demo")
                             : "circuits[" + std::to_string(i) + "]" + (c.id.empty() ? "" : " (id \"" + c.id + "\")");
  if (c.id.empty()) return invalid_argument(where + ".id: must not be empty");
  if (c.is_filecoin()) return check_filecoin_circuit(c, where);
  if (c.is_bench()) {
    if (c.bench.shape != "porep") return invalid_argument(where + ".bench: \"" + c.bench.shape + "\" is not porep");
    if (c.bench.lg < 8 || c.bench.lg > 27)
      return invalid_argument(where + ".lg: must be in [8, 27], got " + std::to_string(c.bench.lg));
    if (!c.zkey.empty() || !c.params.empty() || !c.r1cs.empty() || c.demo)
      return invalid_argument(where + ": a bench circuit takes no key files");
    return ok_status();
  }
  int sources = int(!c.zkey.empty()) + int(!c.params.empty()) + int(c.demo);
  if (sources != 1)
    return invalid_argument(where + ": give exactly one of zkey, params (with r1cs) or demo = true");
  if (!c.params.empty() && c.r1cs.empty()) return invalid_argument(where + ".r1cs: required with params");
  if (c.params.empty() && !c.r1cs.empty()) return invalid_argument(where + ".r1cs: only valid with params");
  if (c.demo) {
    const DemoCircuitSpec& d = c.demo_spec;
    if (d.lg_domain < 3 || d.lg_domain > 24)
      return invalid_argument(where + ".lg_domain: must be in [3, 24], got " + std::to_string(d.lg_domain));
    if ((uint64_t(1) << d.lg_domain) < uint64_t(d.num_public_inputs) + 3)
      return invalid_argument(where + ".public_inputs: too many for the domain");
    if (!(d.zero_one_fraction >= 0 && d.zero_one_fraction <= 1))
      return invalid_argument(where + ".zero_one_fraction: must be in [0, 1]");
  }
  return ok_status();
}

}  // namespace

Status EngineConfig::validate() const {
  if (total_budget_bytes == 0) return invalid_argument("memory.total_budget: must be > 0");
  if (preparation_workers == 0) return invalid_argument("pipeline.preparation_workers: must be >= 1");
  if (workers_per_device == 0) return invalid_argument("pipeline.workers_per_device: must be >= 1");
  if (finalizer_threads == 0) return invalid_argument("pipeline.finalizer_threads: must be >= 1");
  if (devices.empty()) return invalid_argument("pipeline.devices: at least one device is needed");
  if (max_queued_jobs == 0) return invalid_argument("scheduler.max_queued_jobs: must be >= 1");
  if (max_batch_size == 0) return invalid_argument("scheduler.max_batch_size: must be >= 1");
  if (max_partitions_per_job == 0) return invalid_argument("scheduler.max_partitions_per_job: must be >= 1");
  std::set<std::string> ids;
  for (size_t i = 0; i < circuits.size(); ++i) {
    RETURN_IF_ERROR(check_circuit(circuits[i], i));
    if (!ids.insert(circuits[i].id).second)
      return invalid_argument("circuits[" + std::to_string(i) + "].id: \"" + circuits[i].id + "\" is used twice");
  }
  return ok_status();
}

}  // namespace cuzk::engine
