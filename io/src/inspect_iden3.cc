// `inspect` for iden3 containers: .zkey (any curve: a BN254 key is described
// and said to be unsupported), .r1cs, .wtns and .ptau.
#include <algorithm>
#include <bit>

#include "cuzk/io/zkey.h"
#include "curve_ids.h"
#include "inspect_internal.h"

namespace cuzk::io::internal {
namespace {

const char* section_name(const std::string& magic, uint32_t id) {
  static const char* kZkey[] = {"",  "header", "Groth16 header", "IC", "coefficients", "A", "B1", "B2",
                                "C", "H",      "contributions"};
  static const char* kR1cs[] = {
      "", "header", "constraints", "wire-to-label map", "custom gates list", "custom gates uses"};
  static const char* kWtns[] = {"", "header", "witness"};
  static const char* kPtau[] = {"", "header", "tau G1", "tau G2", "alpha tau G1", "beta tau G1", "beta G2",
                                "contributions", "", "", "", "", "Lagrange tau G1", "Lagrange tau G2",
                                "Lagrange alpha tau G1", "Lagrange beta tau G1"};
  if (magic == "zkey" && id <= 10) return kZkey[id];
  if (magic == "r1cs" && id <= 5) return kR1cs[id];
  if (magic == "wtns" && id <= 2) return kWtns[id];
  if (magic == "ptau" && id <= 15) return kPtau[id];
  return "";
}

// A prime of `n8` bytes at `at` inside section `s`, when it fits.
ByteSpan prime_at(ByteSpan b, const Iden3Section& s, uint64_t at, uint32_t n8) {
  if (n8 == 0 || n8 > 64 || at + n8 > s.offset + s.size) return {};
  return b.subspan(at, n8);
}

void add_curve(Summary& o, CurveId id, ByteSpan prime) {
  o.add("curve", "curve", id == CurveId::kBls12381 ? "bls12381" : id == CurveId::kBn254 ? "bn128" : "unknown",
        curve_description(id, prime));
  o.add("supported", "supported by cuzk", id == CurveId::kBls12381, id == CurveId::kBls12381 ? "yes" : "no");
}

// Section 4's entry count and rows (coefficients are 44-byte records).
void add_coefficients(ByteSpan b, const Iden3Container& c, uint32_t num_public, Summary& o) {
  const Iden3Section* s4 = c.find(4);
  if (s4 == nullptr || s4->size < 4) return;
  const uint64_t count = load_u32le(b.data() + s4->offset);
  o.add("coefficients", "A/B coefficients", count);
  if (s4->size != 4 + count * kZkeyCoeffBytes || count == 0) return;
  uint32_t max_row = 0;
  for (uint64_t k = 0; k < count; ++k)
    max_row = std::max(max_row, load_u32le(b.data() + s4->offset + 4 + k * kZkeyCoeffBytes + 4));
  if (max_row >= num_public)
    o.add("constraints", "constraints", max_row - num_public,
          std::to_string(max_row - num_public) + " (+ " + std::to_string(num_public + 1) + " per-input rows)");
}

// Sections 1 and 2 read for any curve: n8q, q, n8r, r, nVars, nPublic, domain size.
Status summarize_zkey(ByteSpan b, const Iden3Container& c, Summary& o) {
  const Iden3Section* s1 = c.find(1);
  const Iden3Section* s2 = c.find(2);
  if (s1 == nullptr || s1->size < 4 || s2 == nullptr || s2->size < 4)
    return invalid_argument("zkey: missing or short header sections 1 and 2");
  const uint32_t protocol = load_u32le(b.data() + s1->offset);
  o.add("protocol", "protocol", protocol == 1 ? "groth16" : protocol == 2 ? "plonk" : protocol == 10 ? "fflonk" : "?",
        protocol == 1 ? "groth16" : std::to_string(protocol) + " (only Groth16, 1, is supported)");
  if (protocol != 1) return ok_status();
  const uint64_t o2 = s2->offset;
  const uint32_t n8q = load_u32le(b.data() + o2);
  const uint64_t r_at = o2 + 4 + n8q;
  if (n8q > 64 || r_at + 4 + 12 > o2 + s2->size) return invalid_argument("zkey: Groth16 header too short for n8q");
  const uint32_t n8r = load_u32le(b.data() + r_at);
  const uint64_t counts_at = r_at + 4 + n8r;
  if (n8r > 64 || counts_at + 12 > o2 + s2->size) return invalid_argument("zkey: Groth16 header too short for n8r");
  add_curve(o, curve_of_base_prime(prime_at(b, *s2, o2 + 4, n8q)), prime_at(b, *s2, o2 + 4, n8q));
  const uint32_t vars = load_u32le(b.data() + counts_at), pub = load_u32le(b.data() + counts_at + 4);
  const uint32_t domain = load_u32le(b.data() + counts_at + 8);
  o.add("num_vars", "variables (nVars)", vars);
  o.add("num_public", "public inputs (nPublic, ONE excluded)", pub);
  if (vars > pub) o.add("num_aux", "aux variables", vars - pub - 1);
  o.add("domain_size", "domain size", domain,
        std::to_string(domain) + (std::has_single_bit(domain) ? " = 2^" + std::to_string(std::countr_zero(domain)) : ""));
  add_coefficients(b, c, pub, o);
  if (const Iden3Section* s10 = c.find(10); s10 != nullptr && s10->size >= kZkeyHashBytes + 4) {
    o.add("circuit_hash", "circuit hash", to_hex(b.subspan(s10->offset, kZkeyHashBytes)));
    o.add("contributions", "contributions", load_u32le(b.data() + s10->offset + kZkeyHashBytes));
  }
  return ok_status();
}

Status summarize_r1cs(ByteSpan b, const Iden3Container& c, Summary& o) {
  const Iden3Section* s = c.find(1);
  if (s == nullptr || s->size < 4) return invalid_argument("r1cs: missing or short header section 1");
  const uint32_t fs = load_u32le(b.data() + s->offset);
  if (s->size != 4 + uint64_t(fs) + 28)
    return invalid_argument("r1cs: header section has " + std::to_string(s->size) + " bytes, expected " +
                            std::to_string(32 + uint64_t(fs)) + " for field size " + std::to_string(fs));
  const ByteSpan prime = prime_at(b, *s, s->offset + 4, fs);
  add_curve(o, curve_of_scalar_prime(prime), prime);
  const uint8_t* p = b.data() + s->offset + 4 + fs;
  o.add("wires", "wires (ONE included)", load_u32le(p));
  o.add("public_outputs", "public outputs", load_u32le(p + 4));
  o.add("public_inputs", "public inputs", load_u32le(p + 8));
  o.add("private_inputs", "private inputs", load_u32le(p + 12));
  o.add("labels", "labels", load_u64le(p + 16));
  o.add("constraints", "constraints", load_u32le(p + 24));
  return ok_status();
}

Status summarize_wtns(ByteSpan b, const Iden3Container& c, Summary& o) {
  const Iden3Section* s = c.find(1);
  if (s == nullptr || s->size < 4) return invalid_argument("wtns: missing or short header section 1");
  const uint32_t n8 = load_u32le(b.data() + s->offset);
  if (s->size != 8 + uint64_t(n8)) return invalid_argument("wtns: header section size does not match n8");
  const ByteSpan prime = prime_at(b, *s, s->offset + 4, n8);
  add_curve(o, curve_of_scalar_prime(prime), prime);
  o.add("values", "witness values (ONE included)", load_u32le(b.data() + s->offset + 4 + n8));
  return ok_status();
}

// Section 1: n8 (u32), q (n8 bytes), power (u32), ceremony power (u32).
Status summarize_ptau(ByteSpan b, const Iden3Container& c, Summary& o) {
  const Iden3Section* s = c.find(1);
  if (s == nullptr || s->size < 4) return invalid_argument("ptau: missing or short header section 1");
  const uint32_t n8 = load_u32le(b.data() + s->offset);
  if (n8 > 64 || s->size < 4 + uint64_t(n8) + 8)
    return invalid_argument("ptau: header section has " + std::to_string(s->size) + " bytes, too few for n8 " +
                            std::to_string(n8));
  const ByteSpan prime = prime_at(b, *s, s->offset + 4, n8);
  add_curve(o, curve_of_base_prime(prime), prime);
  const uint32_t power = load_u32le(b.data() + s->offset + 4 + n8);
  const uint32_t ceremony = load_u32le(b.data() + s->offset + 8 + n8);
  o.add("power", "power", power, std::to_string(power) + " (2^" + std::to_string(power) + " = " +
                                     std::to_string(uint64_t(1) << std::min(power, 63u)) + " points)");
  o.add("ceremony_power", "ceremony power", ceremony);
  if (const Iden3Section* s7 = c.find(7); s7 != nullptr && s7->size >= 4)
    o.add("contributions", "contributions", load_u32le(b.data() + s7->offset));
  o.add("prepared_phase2", "prepared for phase 2 (Lagrange sections 12-15)", c.find(12) != nullptr,
        c.find(12) != nullptr ? "yes" : "no (run `snarkjs powersoftau prepare phase2`)");
  return ok_status();
}

}  // namespace

Status summarize_iden3(ByteSpan b, FileKind kind, Summary& o) {
  ASSIGN_OR_RETURN(Iden3Container c, parse_iden3_container(b, ""));
  o.add("version", "version", c.version);
  o.add_bytes("file_bytes", "file size", b.size());
  if (kind == FileKind::kZkey) RETURN_IF_ERROR(summarize_zkey(b, c, o));
  if (kind == FileKind::kR1cs) RETURN_IF_ERROR(summarize_r1cs(b, c, o));
  if (kind == FileKind::kWtns) RETURN_IF_ERROR(summarize_wtns(b, c, o));
  if (kind == FileKind::kPtau) RETURN_IF_ERROR(summarize_ptau(b, c, o));
  for (const Iden3Section& s : c.sections) o.add_section(s.id, section_name(c.magic, s.id), s.offset, s.size);
  if (c.end_offset != b.size()) o.add("trailing_bytes", "trailing bytes after the last section", b.size() - c.end_offset);
  return ok_status();
}

}  // namespace cuzk::io::internal
