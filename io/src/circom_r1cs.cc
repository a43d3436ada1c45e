#include <string>

#include "circom_container.h"
#include "cuzk/base/mapped_file.h"
#include "cuzk/io/circom.h"

namespace cuzk::io {
namespace {

using circom::at;
using circom::Cursor;
using circom::Section;

constexpr std::string_view kKind = "r1cs";
constexpr uint32_t kVersion = 1;
constexpr uint32_t kHeaderSection = 1, kConstraintSection = 2, kWireMapSection = 3;
constexpr uint32_t kCustomGatesList = 4, kCustomGatesUses = 5;
constexpr uint64_t kTermBytes = 4 + 32;

Status parse_header(ByteSpan bytes, const Section& s, CircomR1csHeader* h) {
  Cursor cur(bytes, s, kKind);
  uint64_t prime_at = 0;
  RETURN_IF_ERROR(circom::read_field(cur, kKind, "the field size", &h->field_bytes, &prime_at));
  if (s.size != 64) {
    return invalid_argument("r1cs: header section (section 1" + at(s.header_offset) + ") has " + std::to_string(s.size) +
                            " bytes, expected 64 for field size 32");
  }
  cur.take(32);
  h->n_wires = cur.u32();
  h->n_pub_out = cur.u32();
  h->n_pub_in = cur.u32();
  h->n_prv_in = cur.u32();
  h->n_labels = cur.u64();
  h->n_constraints = cur.u32();
  // The public wires (the constant one, outputs, public inputs) come first and
  // must all exist. nPrvIn is not checked against nWires: circom counts every
  // declared private input there, but its optimiser removes one that appears
  // in no constraint from the wires (snarkjs accepts such a file).
  const uint64_t declared = 1 + uint64_t(h->n_pub_out) + h->n_pub_in;
  if (h->n_wires < declared) {
    return invalid_argument("r1cs: header" + at(prime_at + 32) + ": nWires " + std::to_string(h->n_wires) +
                            " < 1 + nPubOut + nPubIn = " + std::to_string(declared));
  }
  return ok_status();
}

// Reads one linear combination into `lc`.
Status parse_lincomb(Cursor& cur, const CircomR1csHeader& h, std::vector<r1cs::LinTerm>& lc) {
  RETURN_IF_ERROR(cur.need(4, "a term count"));
  const uint64_t count_at = cur.pos();
  const uint32_t n = cur.u32();
  if (uint64_t(n) * kTermBytes > cur.remaining()) {
    return invalid_argument("r1cs: section 2 truncated" + at(count_at) + ": " + std::to_string(n) +
                            " terms need " + std::to_string(uint64_t(n) * kTermBytes) + " bytes, " +
                            std::to_string(cur.remaining()) + " remain in the section");
  }
  lc.resize(n);
  for (uint32_t k = 0; k < n; ++k) {
    const uint64_t term_at = cur.pos();
    const uint32_t wire = cur.u32();
    if (wire >= h.n_wires) {
      return invalid_argument("r1cs: wire id " + std::to_string(wire) + at(term_at) + " >= nWires " +
                              std::to_string(h.n_wires));
    }
    if (!circom::fr_from_le(cur.take(32), &lc[k].coeff)) {
      return invalid_argument("r1cs: coefficient" + at(term_at + 4) + " is not reduced (>= r)");
    }
    lc[k].var = wire;
  }
  return ok_status();
}

StatusOr<r1cs::Circuit> parse_constraints(ByteSpan bytes, const Section& s, const CircomR1csHeader& h) {
  if (uint64_t(h.n_constraints) * 12 > s.size) {
    return invalid_argument("r1cs: section 2" + at(s.header_offset) + " has " + std::to_string(s.size) +
                            " bytes, too few for " + std::to_string(h.n_constraints) +
                            " constraints (at least 12 bytes each)");
  }
  const uint64_t num_inputs = 1 + h.num_public();
  r1cs::CircuitBuilder builder(num_inputs, h.n_wires - num_inputs);
  Cursor cur(bytes, s, kKind);
  std::vector<r1cs::LinTerm> lc[3];
  for (uint32_t i = 0; i < h.n_constraints; ++i) {
    const uint64_t row_at = cur.pos();
    for (auto& l : lc) RETURN_IF_ERROR(parse_lincomb(cur, h, l));
    Status st = builder.add_row(lc[0], lc[1], lc[2]);
    if (!st.ok()) return st.with_context("r1cs: constraint " + std::to_string(i) + at(row_at));
  }
  if (cur.remaining() != 0) {
    return invalid_argument("r1cs: section 2 has " + std::to_string(cur.remaining()) +
                            " unexpected bytes after the last constraint" + at(cur.pos()) +
                            " (wrong section size or nConstraints)");
  }
  return std::move(builder).build();
}

StatusOr<circom::Container> index_r1cs(ByteSpan bytes) {
  ASSIGN_OR_RETURN(circom::Container c, parse_iden3_container(bytes, kKind));
  if (c.version != kVersion) {
    return invalid_argument("r1cs: unsupported version " + std::to_string(c.version) + at(4) + " (expected 1)");
  }
  for (const Section& s : c.sections) {
    if (s.id == kCustomGatesList || s.id == kCustomGatesUses) {
      return unimplemented("r1cs: custom gates unsupported (section " + std::to_string(s.id) + at(s.header_offset) +
                           "): Groth16 needs a plain R1CS; compile without `pragma custom_templates`");
    }
  }
  return c;
}

StatusOr<CircomR1csHeader> header_of(ByteSpan bytes, const circom::Container& c) {
  ASSIGN_OR_RETURN(const Section* hs, circom::find_section(c, kKind, kHeaderSection, "header", true));
  CircomR1csHeader h;
  RETURN_IF_ERROR(parse_header(bytes, *hs, &h));
  ASSIGN_OR_RETURN(const Section* map, circom::find_section(c, kKind, kWireMapSection, "wire to label map", false));
  if (map != nullptr && map->size != 8 * uint64_t(h.n_wires)) {
    return invalid_argument("r1cs: section 3 (wire to label map" + at(map->header_offset) + ") has " +
                            std::to_string(map->size) + " bytes, expected 8·nWires = " +
                            std::to_string(8 * uint64_t(h.n_wires)));
  }
  return h;
}

}  // namespace

StatusOr<CircomR1csHeader> parse_circom_r1cs_header(ByteSpan bytes) {
  ASSIGN_OR_RETURN(circom::Container c, index_r1cs(bytes));
  return header_of(bytes, c);
}

StatusOr<r1cs::Circuit> parse_circom_r1cs(ByteSpan bytes, CircomR1csHeader* header) {
  ASSIGN_OR_RETURN(circom::Container c, index_r1cs(bytes));
  ASSIGN_OR_RETURN(CircomR1csHeader h, header_of(bytes, c));
  ASSIGN_OR_RETURN(const Section* cs, circom::find_section(c, kKind, kConstraintSection, "constraints", true));
  ASSIGN_OR_RETURN(r1cs::Circuit circuit, parse_constraints(bytes, *cs, h));
  if (header != nullptr) *header = h;
  return circuit;
}

StatusOr<r1cs::Circuit> read_circom_r1cs(const std::string& path, CircomR1csHeader* header) {
  ASSIGN_OR_RETURN(MappedFile file, MappedFile::open(path));
  file.advise_sequential();
  auto c = parse_circom_r1cs(file.bytes(), header);
  if (!c.ok()) return c.status().with_context(path);
  return c;
}

}  // namespace cuzk::io
