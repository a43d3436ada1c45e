// Loading circuits and witnesses from the files users have.
#pragma once

#include <string>

#include "cuzk/base/status.h"
#include "cuzk/base/thread_pool.h"
#include "cuzk/r1cs/circuit.h"

namespace cuzk::app {

// A circom .r1cs or a cuzk precompiled circuit (detected by magic).
StatusOr<r1cs::Circuit> load_circuit_file(const std::string& path, ThreadPool* pool);

}  // namespace cuzk::app
