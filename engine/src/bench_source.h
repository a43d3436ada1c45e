// The source of a bench circuit (config.h, BenchCircuitSpec): built in memory.
#pragma once

#include <memory>

#include "cuzk/engine/circuit_source.h"

namespace cuzk::engine {

StatusOr<std::unique_ptr<CircuitSource>> make_bench_source(const CircuitSpec& spec, const SourceOptions& options);

}  // namespace cuzk::engine
