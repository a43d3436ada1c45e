#include "cuzk/io/inspect.h"

#include <cstdio>
#include <cstring>

#include "cuzk/base/mapped_file.h"
#include "cuzk/io/bellperson.h"
#include "cuzk/r1cs/precompiled.h"
#include "inspect_internal.h"

namespace cuzk::io {

namespace internal {

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

void Summary::add(const std::string& key, const std::string& label, const OrderedJson& value,
                  const std::string& text) {
  json_[key] = value;
  lines_.push_back(label + ": " + (!text.empty() ? text : value.is_string() ? value.get<std::string>() : value.dump()));
}

void Summary::add_bytes(const std::string& key, const std::string& label, uint64_t bytes) {
  add(key, label, bytes, human_bytes(bytes));
}

void Summary::add_section(uint32_t id, const std::string& name, uint64_t offset, uint64_t size) {
  if (!json_.contains("sections")) json_["sections"] = OrderedJson::array();
  json_["sections"].push_back({{"id", id}, {"name", name}, {"offset", offset}, {"bytes", size}});
  section_lines_.push_back("  id " + std::to_string(id) + " (" + (name.empty() ? "unknown" : name) +
                           "): payload at offset " + std::to_string(offset) + ", " + human_bytes(size));
}

std::string Summary::text() const {
  std::string out;
  for (const std::string& l : lines_) out += l + "\n";
  if (!section_lines_.empty()) out += "sections: " + std::to_string(section_lines_.size()) + "\n";
  for (const std::string& l : section_lines_) out += l + "\n";
  return out;
}

}  // namespace internal

namespace {

using internal::Summary;

Status summarize_params(ByteSpan b, Summary& o) {
  ASSIGN_OR_RETURN(ParamsLayout l, scan_params(b));
  o.add("curve", "curve", "bls12381");
  o.add_bytes("file_bytes", "file size", b.size());
  o.add("inputs", "inputs (IC, ONE included)", l.ic_len);
  o.add("domain_size", "domain size n = H + 1", uint64_t(l.h.count) + 1);
  o.add("num_aux", "aux variables (L)", l.l.count);
  o.add_bytes("vk_bytes", "verifying key", l.vk_bytes);
  const std::pair<const char*, const ParamsVector*> vecs[] = {
      {"H", &l.h}, {"L", &l.l}, {"A", &l.a}, {"B_G1", &l.b_g1}, {"B_G2", &l.b_g2}};
  for (const auto& [name, v] : vecs) {
    const uint64_t elem = std::strcmp(name, "B_G2") == 0 ? 192 : 96;
    o.add(std::string("points_") + name, name, v->count,
          std::to_string(v->count) + " points at offset " + std::to_string(v->offset) + ", " +
              internal::human_bytes(v->count * elem));
  }
  if (l.trailing_bytes > 0) o.add("trailing_bytes", "trailing bytes (e.g. MPC contributions)", l.trailing_bytes);
  return ok_status();
}

Status summarize_vk(ByteSpan b, Summary& o) {
  const uint32_t ic = load_u32be(b.data() + 864);
  o.add("curve", "curve", "bls12381");
  o.add_bytes("file_bytes", "file size", b.size());
  o.add("ic_points", "IC points (inputs, ONE included)", ic);
  o.add("public_inputs", "public inputs", ic == 0 ? 0 : ic - 1);
  auto vk = parse_vk(b);
  o.add("points_valid", "decoding", vk.ok(), vk.ok() ? std::string("all points valid") : vk.status().message());
  return ok_status();
}

Status summarize_precompiled(ByteSpan b, Summary& o) {
  ASSIGN_OR_RETURN(r1cs::PrecompiledHeader h, r1cs::parse_precompiled_header(b, b.size()));
  o.add("curve", "curve", "bls12381");
  o.add("version", "version", h.version);
  o.add_bytes("file_bytes", "file size", b.size());
  o.add("inputs", "inputs (ONE and the public values)", h.shape.num_inputs);
  o.add("num_aux", "aux variables", h.shape.num_aux);
  o.add("constraints", "constraints", h.shape.num_constraints);
  o.add("terms", "non-zero terms (A, B, C)", h.num_terms);
  o.add("distinct_coefficients", "distinct coefficients", h.num_coeffs);
  o.add_section(1, "terms", h.terms_offset, h.num_terms * 8);
  o.add_section(2, "row offsets", h.offsets_offset, (3 * h.shape.num_constraints + 1) * 4);
  o.add_section(3, "coefficients", h.coeffs_offset, h.num_coeffs * 32);
  return ok_status();
}

Status summarize_json(ByteSpan b, FileKind kind, Summary& o) {
  auto j = nlohmann::json::parse(b.begin(), b.end(), nullptr, false);
  o.add_bytes("file_bytes", "file size", b.size());
  if (kind == FileKind::kPublicJson) o.add("public_values", "public values", j.size());
  if (!j.is_object()) return ok_status();
  if (j.contains("protocol") && j["protocol"].is_string())
    o.add("protocol", "protocol", j["protocol"].get<std::string>());
  if (j.contains("curve") && j["curve"].is_string()) {
    const std::string curve = j["curve"].get<std::string>();
    const bool bn254 = curve == "bn128" || curve == "bn254";
    o.add("curve", "curve", curve,
          bn254 ? curve + " (BN254; not supported by cuzk, which proves on BLS12-381)" : curve);
    o.add("supported", "supported by cuzk", curve == "bls12381", curve == "bls12381" ? "yes" : "no");
  }
  if (j.contains("nPublic")) o.add("nPublic", "nPublic", j["nPublic"]);
  if (j.contains("IC") && j["IC"].is_array()) o.add("ic_points", "IC points", j["IC"].size());
  return ok_status();
}

Status summarize_proofs(ByteSpan b, Summary& o) {
  o.add("curve", "curve", "bls12381");
  o.add_bytes("file_bytes", "file size", b.size());
  o.add("proofs", "proofs (partitions)", b.size() / kProofBytes);
  auto proofs = parse_proofs(b);
  o.add("points_valid", "decoding", proofs.ok(),
        proofs.ok() ? std::string("all points valid") : proofs.status().message());
  return ok_status();
}

bool looks_like_json(ByteSpan b) {
  for (uint8_t c : b) {
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
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

StatusOr<Summary> summarize(ByteSpan b) {
  const FileKind kind = detect_file_kind(b);
  Summary o;
  if (kind == FileKind::kUnknown)
    return invalid_argument("unrecognised file (" + internal::human_bytes(b.size()) +
                            "): not an iden3 container (.zkey, .r1cs, .wtns, .ptau), a cuzk precompiled circuit, "
                            "snarkjs JSON, a bellperson .params/.vk or 192-byte proofs");
  o.add("kind", "kind", file_kind_name(kind));
  switch (kind) {
    case FileKind::kZkey:
    case FileKind::kR1cs:
    case FileKind::kWtns:
    case FileKind::kPtau:
      RETURN_IF_ERROR(internal::summarize_iden3(b, kind, o));
      break;
    case FileKind::kPrecompiled:
      RETURN_IF_ERROR(summarize_precompiled(b, o));
      break;
    case FileKind::kParams:
      RETURN_IF_ERROR(summarize_params(b, o));
      break;
    case FileKind::kVk:
      RETURN_IF_ERROR(summarize_vk(b, o));
      break;
    case FileKind::kProofs:
      RETURN_IF_ERROR(summarize_proofs(b, o));
      break;
    default:
      RETURN_IF_ERROR(summarize_json(b, kind, o));
      break;
  }
  return o;
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
    case FileKind::kPrecompiled:
      return "cuzk precompiled circuit";
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
  if (b.size() >= 8 && std::memcmp(b.data(), r1cs::kPrecompiledMagic, 8) == 0) return FileKind::kPrecompiled;
  if (looks_like_json(b)) return detect_json(b);
  if (!b.empty() && b.size() % kProofBytes == 0 && (b[0] & 0x80) != 0) return FileKind::kProofs;
  if (b.size() >= kVkFixedBytes) {
    const uint64_t ic = load_u32be(b.data() + 864);
    if (b.size() == kVkFixedBytes + 96 * ic) return FileKind::kVk;
    if (scan_params(b).ok()) return FileKind::kParams;
  }
  return FileKind::kUnknown;
}

StatusOr<std::string> inspect_bytes(ByteSpan b) {
  ASSIGN_OR_RETURN(Summary s, summarize(b));
  return s.text();
}

StatusOr<std::string> inspect_bytes_json(ByteSpan b) {
  ASSIGN_OR_RETURN(Summary s, summarize(b));
  return s.json().dump(2) + "\n";
}

StatusOr<std::string> inspect_file(const std::string& path, bool json) {
  ASSIGN_OR_RETURN(MappedFile f, MappedFile::open(path));
  auto s = summarize(f.bytes());
  if (!s.ok()) return s.status().with_context(path);
  if (!json) return "file: " + path + "\n" + s->text();
  internal::OrderedJson j = {{"file", path}};
  j.update(s->json());
  return j.dump(2) + "\n";
}

}  // namespace cuzk::io
