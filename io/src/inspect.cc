#include "cuzk/io/inspect.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cuzk/base/mapped_file.h"
#include "cuzk/io/bellperson.h"
#include "cuzk/io/zkey.h"

namespace cuzk::io {

namespace {

std::string human_bytes(uint64_t n) {
  std::string s = std::to_string(n) + " bytes";
  const char* units[] = {"KiB", "MiB", "GiB", "TiB"};
  double v = double(n);
  int u = -1;
  while (v >= 1024.0 && u < 3) {
    v /= 1024.0;
    ++u;
  }
  if (u >= 0) {
    char buf[32];
    std::snprintf(buf, sizeof buf, " (%.1f %s)", v, units[u]);
    s += buf;
  }
  return s;
}

bool equals_limbs(ByteSpan b, const uint64_t* limbs, size_t n) {
  if (b.size() != 8 * n) return false;
  for (size_t i = 0; i < n; ++i) {
    if (load_u64le(b.data() + 8 * i) != limbs[i]) return false;
  }
  return true;
}

// The curve whose scalar field is `prime` (little-endian bytes).
std::string curve_of_scalar_prime(ByteSpan prime) {
  static constexpr uint64_t kBn254R[4] = {0x43e1f593f0000001, 0x2833e84879b97091, 0xb85045b68181585d,
                                          0x30644e72e131a029};
  if (equals_limbs(prime, ff::Fr::kModulus.data(), 4)) return "bls12381";
  if (equals_limbs(prime, kBn254R, 4)) return "bn128 (not supported by cuzk)";
  return "unknown prime 0x" + to_hex(prime);
}

const char* section_name(const std::string& magic, uint32_t id) {
  static const char* kZkey[] = {"",  "header", "Groth16 header", "IC", "coefficients", "A", "B1", "B2",
                                "C", "H",      "contributions"};
  static const char* kR1cs[] = {
      "", "header", "constraints", "wire-to-label map", "custom gates list", "custom gates uses"};
  static const char* kWtns[] = {"", "header", "witness"};
  static const char* kPtau[] = {"",
                                "header",
                                "tau G1",
                                "tau G2",
                                "alpha tau G1",
                                "beta tau G1",
                                "beta G2",
                                "contributions",
                                "",
                                "",
                                "",
                                "",
                                "Lagrange tau G1",
                                "Lagrange tau G2",
                                "Lagrange alpha tau G1",
                                "Lagrange beta tau G1"};
  if (magic == "zkey" && id <= 10) return kZkey[id];
  if (magic == "r1cs" && id <= 5) return kR1cs[id];
  if (magic == "wtns" && id <= 2) return kWtns[id];
  if (magic == "ptau" && id <= 15) return kPtau[id];
  return "";
}

void print_sections(std::ostringstream& o, const Iden3Container& c) {
  o << "sections: " << c.sections.size() << "\n";
  for (const Iden3Section& s : c.sections) {
    const char* name = section_name(c.magic, s.id);
    o << "  id " << s.id << (name[0] ? std::string(" (") + name + ")" : std::string(" (unknown)"))
      << ": payload at offset " << s.offset << ", " << human_bytes(s.size) << "\n";
  }
}

Status summarize_zkey(ByteSpan b, const Iden3Container& c, std::ostringstream& o) {
  ASSIGN_OR_RETURN(ZkeyHeader h, parse_zkey_header(b, c));
  o << "protocol: groth16\ncurve: bls12381\n";
  o << "variables (nVars): " << h.num_vars << "\n";
  o << "public inputs (nPublic, ONE excluded): " << h.num_public << "\n";
  o << "aux variables: " << (h.num_vars - h.num_public - 1) << "\n";
  o << "domain size: " << h.domain_size << " = 2^" << std::countr_zero(h.domain_size) << "\n";
  if (const Iden3Section* s4 = c.find(4); s4 != nullptr && s4->size >= 4) {
    const uint64_t count = load_u32le(b.data() + s4->offset);
    o << "A/B coefficients: " << count << "\n";
    if (s4->size == 4 + count * kZkeyCoeffBytes && count > 0) {
      uint32_t max_row = 0;
      for (uint64_t k = 0; k < count; ++k)
        max_row = std::max(max_row, load_u32le(b.data() + s4->offset + 4 + k * kZkeyCoeffBytes + 4));
      if (max_row >= h.num_public)
        o << "constraints: " << (max_row - h.num_public) << " (+ " << h.num_public + 1 << " per-input rows)\n";
    }
  }
  if (const Iden3Section* s10 = c.find(10); s10 != nullptr && s10->size >= kZkeyHashBytes + 4) {
    o << "circuit hash: " << to_hex(b.subspan(s10->offset, kZkeyHashBytes)) << "\n";
    o << "contributions: " << load_u32le(b.data() + s10->offset + kZkeyHashBytes) << "\n";
  }
  return ok_status();
}

Status summarize_r1cs(ByteSpan b, const Iden3Container& c, std::ostringstream& o) {
  const Iden3Section* s = c.find(1);
  if (s == nullptr || s->size < 4) return invalid_argument("r1cs: missing or short header section 1");
  const uint32_t fs = load_u32le(b.data() + s->offset);
  if (s->size != 4 + uint64_t(fs) + 28)
    return invalid_argument("r1cs: header section has " + std::to_string(s->size) + " bytes, expected " +
                            std::to_string(32 + uint64_t(fs)) + " for field size " + std::to_string(fs));
  const uint8_t* p = b.data() + s->offset + 4 + fs;
  o << "curve: " << curve_of_scalar_prime(b.subspan(s->offset + 4, fs)) << "\n";
  o << "wires (ONE included): " << load_u32le(p) << "\n";
  o << "public outputs: " << load_u32le(p + 4) << "\npublic inputs: " << load_u32le(p + 8) << "\n";
  o << "private inputs: " << load_u32le(p + 12) << "\nlabels: " << load_u64le(p + 16) << "\n";
  o << "constraints: " << load_u32le(p + 24) << "\n";
  return ok_status();
}

Status summarize_wtns(ByteSpan b, const Iden3Container& c, std::ostringstream& o) {
  const Iden3Section* s = c.find(1);
  if (s == nullptr || s->size < 4) return invalid_argument("wtns: missing or short header section 1");
  const uint32_t n8 = load_u32le(b.data() + s->offset);
  if (s->size != 8 + uint64_t(n8)) return invalid_argument("wtns: header section size does not match n8");
  o << "curve: " << curve_of_scalar_prime(b.subspan(s->offset + 4, n8)) << "\n";
  o << "witness values (ONE included): " << load_u32le(b.data() + s->offset + 4 + n8) << "\n";
  return ok_status();
}

StatusOr<std::string> summarize_iden3(ByteSpan b, FileKind kind) {
  ASSIGN_OR_RETURN(Iden3Container c, parse_iden3_container(b, ""));
  std::ostringstream o;
  o << "kind: " << file_kind_name(kind) << "\nversion: " << c.version << "\nfile size: " << human_bytes(b.size())
    << "\n";
  if (kind == FileKind::kZkey) RETURN_IF_ERROR(summarize_zkey(b, c, o));
  if (kind == FileKind::kR1cs) RETURN_IF_ERROR(summarize_r1cs(b, c, o));
  if (kind == FileKind::kWtns) RETURN_IF_ERROR(summarize_wtns(b, c, o));
  print_sections(o, c);
  if (c.end_offset != b.size()) o << "trailing bytes after the last section: " << (b.size() - c.end_offset) << "\n";
  return o.str();
}

StatusOr<std::string> summarize_params(ByteSpan b) {
  ASSIGN_OR_RETURN(ParamsLayout l, scan_params(b));
  std::ostringstream o;
  o << "kind: " << file_kind_name(FileKind::kParams) << "\ncurve: bls12381\nfile size: " << human_bytes(b.size())
    << "\n";
  o << "inputs (IC, ONE included): " << l.ic_len << "\n";
  o << "domain size n = H + 1: " << (uint64_t(l.h.count) + 1) << "\n";
  o << "aux variables (L): " << l.l.count << "\n";
  auto vec = [&](const char* name, const ParamsVector& v, uint64_t elem) {
    o << name << ": " << v.count << " points at offset " << v.offset << ", " << human_bytes(v.count * elem) << "\n";
  };
  o << "verifying key: " << human_bytes(l.vk_bytes) << "\n";
  vec("H", l.h, 96);
  vec("L", l.l, 96);
  vec("A", l.a, 96);
  vec("B_G1", l.b_g1, 96);
  vec("B_G2", l.b_g2, 192);
  if (l.trailing_bytes > 0) o << "trailing bytes (e.g. MPC contributions): " << l.trailing_bytes << "\n";
  return o.str();
}

StatusOr<std::string> summarize_json(ByteSpan b, FileKind kind) {
  auto j = nlohmann::json::parse(b.begin(), b.end(), nullptr, false);
  std::ostringstream o;
  o << "kind: " << file_kind_name(kind) << "\nfile size: " << human_bytes(b.size()) << "\n";
  if (kind == FileKind::kPublicJson) o << "public values: " << j.size() << "\n";
  if (j.is_object()) {
    for (const char* key : {"protocol", "curve"}) {
      if (j.contains(key) && j[key].is_string()) o << key << ": " << j[key].get<std::string>() << "\n";
    }
    if (j.contains("nPublic")) o << "nPublic: " << j["nPublic"].dump() << "\n";
    if (j.contains("IC") && j["IC"].is_array()) o << "IC points: " << j["IC"].size() << "\n";
  }
  return o.str();
}

StatusOr<std::string> summarize_proofs(ByteSpan b) {
  std::ostringstream o;
  o << "kind: " << file_kind_name(FileKind::kProofs) << "\ncurve: bls12381\nfile size: " << human_bytes(b.size())
    << "\nproofs (partitions): " << b.size() / kProofBytes << "\n";
  auto proofs = parse_proofs(b);
  o << "decoding: " << (proofs.ok() ? std::string("all points valid") : proofs.status().message()) << "\n";
  return o.str();
}

bool looks_like_json(ByteSpan b, char* first) {
  for (uint8_t c : b) {
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
    *first = char(c);
    return c == '{' || c == '[';
  }
  return false;
}

FileKind detect_json(ByteSpan b) {
  auto j = nlohmann::json::parse(b.begin(), b.end(), nullptr, false);
  if (j.is_discarded()) return FileKind::kUnknown;
  if (j.is_array()) return FileKind::kPublicJson;
  if (j.is_object() && j.contains("pi_a")) return FileKind::kProofJson;
  if (j.is_object() && j.contains("vk_alpha_1")) return FileKind::kVkJson;
  return FileKind::kUnknown;
}

}  // namespace

const char* file_kind_name(FileKind kind) {
  switch (kind) {
    case FileKind::kZkey:
      return "snarkjs Groth16 proving key (.zkey)";
    case FileKind::kR1cs:
      return "circom constraint system (.r1cs)";
    case FileKind::kWtns:
      return "circom witness (.wtns)";
    case FileKind::kPtau:
      return "powers of tau (.ptau)";
    case FileKind::kParams:
      return "bellperson parameters (.params)";
    case FileKind::kVk:
      return "bellperson verifying key (.vk)";
    case FileKind::kProofs:
      return "Groth16 proofs (192-byte compressed, bellperson)";
    case FileKind::kProofJson:
      return "snarkjs proof (proof.json)";
    case FileKind::kVkJson:
      return "snarkjs verification key (verification_key.json)";
    case FileKind::kPublicJson:
      return "snarkjs public inputs (public.json)";
    case FileKind::kUnknown:
      break;
  }
  return "unknown";
}

FileKind detect_file_kind(ByteSpan b) {
  if (b.size() >= 12) {
    const std::string magic(reinterpret_cast<const char*>(b.data()), 4);
    if (magic == "zkey") return FileKind::kZkey;
    if (magic == "r1cs") return FileKind::kR1cs;
    if (magic == "wtns") return FileKind::kWtns;
    if (magic == "ptau") return FileKind::kPtau;
  }
  char first = 0;
  if (looks_like_json(b, &first)) return detect_json(b);
  if (!b.empty() && b.size() % kProofBytes == 0 && (b[0] & 0x80) != 0) return FileKind::kProofs;
  if (b.size() >= kVkFixedBytes) {
    const uint64_t ic = load_u32be(b.data() + 864);
    if (b.size() == kVkFixedBytes + 96 * ic) return FileKind::kVk;
    if (scan_params(b).ok()) return FileKind::kParams;
  }
  return FileKind::kUnknown;
}

StatusOr<std::string> inspect_bytes(ByteSpan b) {
  const FileKind kind = detect_file_kind(b);
  switch (kind) {
    case FileKind::kZkey:
    case FileKind::kR1cs:
    case FileKind::kWtns:
    case FileKind::kPtau:
      return summarize_iden3(b, kind);
    case FileKind::kParams:
      return summarize_params(b);
    case FileKind::kVk: {
      std::ostringstream o;
      const uint32_t ic = load_u32be(b.data() + 864);
      o << "kind: " << file_kind_name(kind) << "\ncurve: bls12381\nfile size: " << human_bytes(b.size())
        << "\nIC points (inputs, ONE included): " << ic << "\npublic inputs: " << (ic == 0 ? 0 : ic - 1) << "\n";
      auto vk = parse_vk(b);
      o << "decoding: " << (vk.ok() ? std::string("all points valid") : vk.status().message()) << "\n";
      return o.str();
    }
    case FileKind::kProofs:
      return summarize_proofs(b);
    case FileKind::kProofJson:
    case FileKind::kVkJson:
    case FileKind::kPublicJson:
      return summarize_json(b, kind);
    case FileKind::kUnknown:
      break;
  }
  return invalid_argument("unrecognised file (" + human_bytes(b.size()) +
                          "): not an iden3 container, snarkjs JSON, bellperson .params/.vk or 192-byte proofs");
}

StatusOr<std::string> inspect_file(const std::string& path) {
  ASSIGN_OR_RETURN(MappedFile f, MappedFile::open(path));
  auto r = inspect_bytes(f.bytes());
  if (!r.ok()) return r.status().with_context(path);
  return "file: " + path + "\n" + *r;
}

}  // namespace cuzk::io
