// `cuzk status` for people: the daemon's status document (GET /status, or
// GetStatus's status_json) as a few lines of text.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace cuzk::app {

// Uptime, proofs and memory; devices and their workers; every registered
// circuit with its tier and size; queues; the newest `max_jobs` jobs (state
// while running, outcome when done, the error of failed ones).
std::string status_text(const nlohmann::json& status, size_t max_jobs = 10);

}  // namespace cuzk::app
