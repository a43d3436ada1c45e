// The circuit source of a Filecoin circuit (CircuitSpec::filecoin): rows from
// cuzk's own synthesis, cached as a precompiled circuit file; the key from an
// official .params file (checked against the synthesized circuit) or an
// INSECURE development key generated into the cache directory.
#pragma once

#include <memory>
#include <string>

#include "cuzk/base/status.h"
#include "cuzk/engine/circuit_source.h"
#include "cuzk/engine/config.h"
#include "cuzk/filecoin/cs/circuits.h"

namespace cuzk::engine {

struct FilecoinFiles {
  std::string circuit;     // <cache>/<name>.cuzkr1cs, the blank circuit's rows
  std::string dev_params;  // <cache>/<name>-dev<seed>.params (dev keys only)
};
FilecoinFiles filecoin_files(const filecoin::snark::FilecoinCircuit& circuit, const FilecoinCircuitSpec& spec,
                             const std::string& cache_dir);

// Writes the circuit file when it is missing (minutes for 32 GiB circuits,
// once), and a development key when the spec asks for one and it is missing
// (logged as INSECURE). Errors: FAILED_PRECONDITION naming the circuit and
// the step (no cache directory, an unsupported kind or size, a key file whose
// counts disagree with the circuit).
StatusOr<std::unique_ptr<CircuitSource>> make_filecoin_source(const CircuitSpec& spec, const SourceOptions& options);

}  // namespace cuzk::engine
