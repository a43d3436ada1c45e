// The four Filecoin circuits behind one interface: which circuit (kind and
// sector size), its blank inputs, synthesis on either back end, and what a
// key for it must look like. What the daemon and the CLI use.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "cuzk/base/status.h"
#include "cuzk/base/thread_pool.h"
#include "cuzk/filecoin/cs/porep.h"
#include "cuzk/filecoin/cs/post.h"
#include "cuzk/filecoin/cs/recording_cs.h"
#include "cuzk/filecoin/cs/update.h"
#include "cuzk/filecoin/cs/witness_cs.h"
#include "cuzk/r1cs/circuit.h"
#include "cuzk/r1cs/density.h"

namespace cuzk::filecoin::snark {

enum class CircuitKind { kPorep, kWinningPost, kWindowPost, kSnapDeals };

// "porep", "winning-post", "window-post", "snap-deals".
std::string_view circuit_kind_name(CircuitKind kind);
// The names above; INVALID_ARGUMENT otherwise.
StatusOr<CircuitKind> parse_circuit_kind(std::string_view name);

// One partition's inputs.
using PartitionInputs = std::variant<PorepPartition, PostPartition, UpdatePartition>;

// A Filecoin circuit: a kind at a sector size (every registered proof of
// that kind and size shares it).
class FilecoinCircuit {
 public:
  // INVALID_ARGUMENT for a size the kind does not support.
  static StatusOr<FilecoinCircuit> create(CircuitKind kind, uint64_t sector_bytes);

  CircuitKind kind() const { return kind_; }
  uint64_t sector_bytes() const { return sector_bytes_; }
  // "porep-2KiB", "window-post-32GiB", ...
  std::string name() const;

  PartitionInputs blank() const;
  // INVALID_ARGUMENT when the inputs are of another kind or shape.
  Status check(const PartitionInputs& inputs) const;

  // REQUIRES: check(inputs) OK.
  template <class CS>
  void synthesize(CS& cs, const PartitionInputs& inputs) const;

  const PorepConfig& porep() const { return porep_; }
  const PostConfig& post() const { return post_; }
  const UpdateConfig& update() const { return update_; }

 private:
  CircuitKind kind_ = CircuitKind::kPorep;
  uint64_t sector_bytes_ = 0;
  PorepConfig porep_;
  PostConfig post_;
  UpdateConfig update_;
};

// The shape of the blank circuit from a shape-only synthesis (no rows are
// built; sections replicated): inputs, aux and rows.
StatusOr<r1cs::CircuitShape> circuit_shape(const FilecoinCircuit& circuit);

// Counts, non-zeros and density of the blank circuit from a counting
// synthesis (sections replicated where the circuit allows).
struct CircuitFacts {
  CircuitCounts counts;
  r1cs::DensityBitmaps density;
};
StatusOr<CircuitFacts> circuit_facts(const FilecoinCircuit& circuit);

// The counts of the circuit's proving key in the bellperson layout (what a
// .params file for it holds): the domain (rows with bellperson's input rows,
// rounded up to a power of two), H with n − 1 points, L one per aux
// variable, A and B (B1 in G1, B2 in G2) one per variable in their density;
// and the bytes of its precompiled rows less the coefficient table (8 a
// term, 12 a row: r1cs/precompiled.h).
struct ProvingKeyCounts {
  int lg_n = 0;
  uint64_t n_h = 0, num_vars = 0, num_inputs = 0, m_l = 0, m_a = 0, m_b = 0;
  uint64_t rows_bytes = 0;
};
ProvingKeyCounts proving_key_counts(const CircuitFacts& facts);

// The blank circuit's rows in memory.
StatusOr<r1cs::Circuit> build_circuit(const FilecoinCircuit& circuit);
// The blank circuit's rows streamed to a precompiled file (r1cs/precompiled.h).
Status write_precompiled_circuit(const FilecoinCircuit& circuit, const std::string& path);

// The witness w = (inputs, aux) of one partition, sections on `pool`.
// `shape`, when known (circuit_shape), sizes the buffer once. Errors:
// INVALID_ARGUMENT from check() or from synthesis (a vanilla proof value
// that contradicts the circuit, e.g. a wrong SnapDeals leaf).
StatusOr<std::vector<Fr>> generate_witness(const FilecoinCircuit& circuit, const PartitionInputs& inputs,
                                           ThreadPool* pool, const r1cs::CircuitShape* shape = nullptr);

// OK when every row holds for these inputs; else INVALID_ARGUMENT naming the
// first violated row with its namespace path. Slow (keeps every value and
// evaluates every row); for diagnosis.
Status check_satisfied(const FilecoinCircuit& circuit, const PartitionInputs& inputs);

}  // namespace cuzk::filecoin::snark
