#include "cuzk/filecoin/cs/circuits.h"

#include <string>

#include "cuzk/r1cs/precompiled.h"

namespace cuzk::filecoin::snark {
namespace {

std::string size_name(uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (u < 4 && bytes >= 1024 && bytes % 1024 == 0) {
    bytes /= 1024;
    ++u;
  }
  return std::to_string(bytes) + units[u];
}

template <class T>
const T* get_if_kind(const PartitionInputs& in) {
  return std::get_if<T>(&in);
}

}  // namespace

std::string_view circuit_kind_name(CircuitKind kind) {
  switch (kind) {
    case CircuitKind::kPorep: return "porep";
    case CircuitKind::kWinningPost: return "winning-post";
    case CircuitKind::kWindowPost: return "window-post";
    case CircuitKind::kSnapDeals: return "snap-deals";
  }
  return "?";
}

StatusOr<CircuitKind> parse_circuit_kind(std::string_view name) {
  for (CircuitKind k : {CircuitKind::kPorep, CircuitKind::kWinningPost, CircuitKind::kWindowPost, CircuitKind::kSnapDeals})
    if (name == circuit_kind_name(k)) return k;
  return invalid_argument("unknown Filecoin circuit kind \"" + std::string(name) +
                          "\" (porep, winning-post, window-post, snap-deals)");
}

StatusOr<FilecoinCircuit> FilecoinCircuit::create(CircuitKind kind, uint64_t sector_bytes) {
  FilecoinCircuit c;
  c.kind_ = kind;
  c.sector_bytes_ = sector_bytes;
  switch (kind) {
    case CircuitKind::kPorep: {
      ASSIGN_OR_RETURN(c.porep_, porep_config(sector_bytes));
      break;
    }
    case CircuitKind::kWinningPost:
    case CircuitKind::kWindowPost: {
      ASSIGN_OR_RETURN(c.post_, post_config(kind == CircuitKind::kWinningPost ? PostKind::kWinning : PostKind::kWindow,
                                            sector_bytes));
      break;
    }
    case CircuitKind::kSnapDeals: {
      ASSIGN_OR_RETURN(c.update_, update_config(sector_bytes));
      break;
    }
  }
  return c;
}

std::string FilecoinCircuit::name() const { return std::string(circuit_kind_name(kind_)) + "-" + size_name(sector_bytes_); }

PartitionInputs FilecoinCircuit::blank() const {
  switch (kind_) {
    case CircuitKind::kPorep: return blank_porep_partition(porep_);
    case CircuitKind::kSnapDeals: return blank_update_partition(update_);
    default: return blank_post_partition(post_);
  }
}

Status FilecoinCircuit::check(const PartitionInputs& in) const {
  const Status wrong = invalid_argument("partition inputs of another kind than " + name());
  switch (kind_) {
    case CircuitKind::kPorep: {
      const auto* p = get_if_kind<PorepPartition>(in);
      return p ? check_porep_partition(porep_, *p) : wrong;
    }
    case CircuitKind::kSnapDeals: {
      const auto* p = get_if_kind<UpdatePartition>(in);
      return p ? check_update_partition(update_, *p) : wrong;
    }
    default: {
      const auto* p = get_if_kind<PostPartition>(in);
      return p ? check_post_partition(post_, *p) : wrong;
    }
  }
}

template <class CS>
void FilecoinCircuit::synthesize(CS& cs, const PartitionInputs& in) const {
  switch (kind_) {
    case CircuitKind::kPorep: return synthesize_porep(cs, porep_, std::get<PorepPartition>(in));
    case CircuitKind::kSnapDeals: return synthesize_update(cs, update_, std::get<UpdatePartition>(in));
    default: return synthesize_post(cs, post_, std::get<PostPartition>(in));
  }
}

template void FilecoinCircuit::synthesize<WitnessCs>(WitnessCs&, const PartitionInputs&) const;
template void FilecoinCircuit::synthesize<RecordingCs>(RecordingCs&, const PartitionInputs&) const;

StatusOr<r1cs::CircuitShape> circuit_shape(const FilecoinCircuit& circuit) {
  WitnessCs cs({.values_known = false});
  circuit.synthesize(cs, circuit.blank());
  RETURN_IF_ERROR(cs.status());
  return r1cs::CircuitShape{cs.num_inputs(), cs.num_aux(), cs.num_constraints()};
}

ProvingKeyCounts proving_key_counts(const CircuitFacts& f) {
  const CircuitCounts& c = f.counts;
  ProvingKeyCounts k;
  const uint64_t rows = c.num_constraints + c.num_inputs;
  while ((uint64_t(1) << k.lg_n) < rows) ++k.lg_n;
  k.n_h = (uint64_t(1) << k.lg_n) - 1;
  k.num_inputs = c.num_inputs;
  k.num_vars = c.num_inputs + c.num_aux;
  k.m_l = c.num_aux;
  k.m_a = f.density.a_input.popcount + f.density.a_aux.popcount;
  k.m_b = f.density.b_input.popcount + f.density.b_aux.popcount;
  k.rows_bytes = 8 * (c.nonzeros[0] + c.nonzeros[1] + c.nonzeros[2]) + 4 * (3 * c.num_constraints + 1);
  return k;
}

StatusOr<CircuitFacts> circuit_facts(const FilecoinCircuit& circuit) {
  // SnapDeals' challenges read challenge bits of their own: they cannot be
  // replicated, only counted.
  RecordingCs cs({.replicate_sections = circuit.kind() != CircuitKind::kSnapDeals});
  circuit.synthesize(cs, circuit.blank());
  RETURN_IF_ERROR(cs.status());
  return CircuitFacts{cs.counts(), cs.density()};
}

StatusOr<r1cs::Circuit> build_circuit(const FilecoinCircuit& circuit) {
  ASSIGN_OR_RETURN(r1cs::CircuitShape shape, circuit_shape(circuit));
  r1cs::CircuitBuilder builder(shape.num_inputs, shape.num_aux);
  RecordingCs cs({.sink = &builder, .num_inputs = shape.num_inputs});
  circuit.synthesize(cs, circuit.blank());
  RETURN_IF_ERROR(cs.status());
  return std::move(builder).build();
}

Status write_precompiled_circuit(const FilecoinCircuit& circuit, const std::string& path) {
  ASSIGN_OR_RETURN(r1cs::CircuitShape shape, circuit_shape(circuit));
  ASSIGN_OR_RETURN(r1cs::PrecompiledWriter writer, r1cs::PrecompiledWriter::create(path, shape.num_inputs, shape.num_aux));
  RecordingCs cs({.sink = &writer, .num_inputs = shape.num_inputs});
  circuit.synthesize(cs, circuit.blank());
  RETURN_IF_ERROR(cs.status());
  return writer.finish().status();
}

StatusOr<std::vector<Fr>> generate_witness(const FilecoinCircuit& circuit, const PartitionInputs& inputs,
                                           ThreadPool* pool, const r1cs::CircuitShape* shape) {
  RETURN_IF_ERROR(circuit.check(inputs));
  WitnessOptions options;
  options.pool = pool;
  if (shape) {
    options.expected_inputs = shape->num_inputs;
    options.expected_aux = shape->num_aux;
  }
  WitnessCs cs(options);
  circuit.synthesize(cs, inputs);
  RETURN_IF_ERROR(cs.status());
  if (shape && (cs.num_inputs() != shape->num_inputs || cs.num_aux() != shape->num_aux)) {
    return internal_error(circuit.name() + ": the witness has " + std::to_string(cs.num_inputs()) + " inputs and " +
                          std::to_string(cs.num_aux()) + " aux; the circuit " + std::to_string(shape->num_inputs) +
                          " and " + std::to_string(shape->num_aux));
  }
  return std::move(cs).take_witness();
}

Status check_satisfied(const FilecoinCircuit& circuit, const PartitionInputs& inputs) {
  RETURN_IF_ERROR(circuit.check(inputs));
  RecordingCs cs({.check = true});
  circuit.synthesize(cs, inputs);
  RETURN_IF_ERROR(cs.status());
  Status s = cs.satisfied();
  return s.ok() ? s : s.with_context(circuit.name());
}

}  // namespace cuzk::filecoin::snark
