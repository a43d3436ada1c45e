// The engine's metric families: each with its HELP text and type, and the
// counters a scrape should see before they first move, at 0.
#pragma once

#include <string>
#include <vector>

#include "cuzk/base/trace.h"

namespace cuzk::engine {

// Describes every family the engine writes and creates its counters at 0:
// per proof kind, per registered circuit (`circuit_ids`), per eviction
// reason and per refusal code.
void describe_engine_metrics(MetricsRegistry& metrics, const std::vector<std::string>& circuit_ids);

}  // namespace cuzk::engine
