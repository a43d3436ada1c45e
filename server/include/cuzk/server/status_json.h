// The daemon's status as one JSON document: what GET /status serves and
// GetStatus returns in status_json (jobs with per-partition stage times,
// workers, keys, queues, memory, devices).
#pragma once

#include <string>

#include "cuzk/engine/engine.h"

namespace cuzk::server {

// Pretty-printed (two-space indent), ending in a newline. Thread-safe: reads
// only `status`.
std::string status_json(const engine::EngineStatus& status);

}  // namespace cuzk::server
