// The status page served at GET / on the status port: one self-contained
// HTML document (no external assets) whose script polls /status once a
// second and draws the queue by priority, each job's partitions as stage
// bars, devices and workers, keys with their tiers, and recent failures.
#pragma once

#include <string_view>

namespace cuzk::server {

std::string_view status_page_html();

}  // namespace cuzk::server
