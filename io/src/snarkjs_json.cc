#include "cuzk/io/snarkjs_json.h"

#include <nlohmann/json.hpp>

#include "cuzk/base/mapped_file.h"
#include "cuzk/ec/json_codec.h"
#include "cuzk/pairing/pairing.h"
#include "curve_ids.h"

namespace cuzk::io {

using groth16::G1Affine;
using groth16::G2Affine;
using Json = nlohmann::ordered_json;

namespace {

constexpr const char* kProofFile = "proof.json";
constexpr const char* kPublicFile = "public.json";
constexpr const char* kVkFile = "verification_key.json";
constexpr const char* kCurve = "bls12381";
constexpr const char* kProtocol = "groth16";

Status field_error(const char* file, const std::string& field, const std::string& msg) {
  return invalid_argument(std::string(file) + ": field \"" + field + "\": " + msg);
}

StatusOr<Json> parse_text(std::string_view text, const char* file) {
  try {
    return Json::parse(text.begin(), text.end());
  } catch (const Json::exception& e) {
    // what() starts with the library's tag ("[json.exception.parse_error.101] "): drop it.
    std::string what = e.what();
    if (size_t tag = what.find("] "); what.starts_with("[json.exception") && tag != std::string::npos)
      what = what.substr(tag + 2);
    return invalid_argument(std::string(file) + ": not valid JSON: " + what);
  }
}

StatusOr<const Json*> member(const Json& obj, const char* key, const char* file) {
  if (!obj.is_object()) return invalid_argument(std::string(file) + ": the top level must be a JSON object");
  auto it = obj.find(key);
  if (it == obj.end()) return field_error(file, key, "missing");
  return &*it;
}

StatusOr<std::vector<std::string>> string_array(const Json& j, const std::string& field, const char* file) {
  if (!j.is_array()) return field_error(file, field, "expected an array of decimal strings");
  std::vector<std::string> out;
  for (size_t i = 0; i < j.size(); ++i) {
    if (!j[i].is_string())
      return field_error(file, field + "[" + std::to_string(i) + "]", "expected a decimal (or 0x hex) string");
    out.push_back(j[i].get<std::string>());
  }
  return out;
}

StatusOr<G1Affine> g1_from(const Json& j, const std::string& field, const char* file, ec::SubgroupCheck check) {
  ASSIGN_OR_RETURN(std::vector<std::string> s, string_array(j, field, file));
  auto p = ec::g1_from_json_strings(s, check);
  if (!p.ok()) return field_error(file, field, p.status().message());
  return p;
}

StatusOr<G2Affine> g2_from(const Json& j, const std::string& field, const char* file, ec::SubgroupCheck check) {
  if (!j.is_array()) return field_error(file, field, "expected [[x.c0, x.c1], [y.c0, y.c1], [z.c0, z.c1]]");
  std::vector<std::vector<std::string>> coords;
  for (size_t i = 0; i < j.size(); ++i) {
    ASSIGN_OR_RETURN(auto pair, string_array(j[i], field + "[" + std::to_string(i) + "]", file));
    coords.push_back(std::move(pair));
  }
  auto p = ec::g2_from_json_strings(std::span<const std::vector<std::string>>(coords), check);
  if (!p.ok()) return field_error(file, field, p.status().message());
  return p;
}

Json g1_json(const G1Affine& p) {
  const auto s = ec::g1_to_json_strings(p);
  return Json::array({s[0], s[1], s[2]});
}

Json g2_json(const G2Affine& p) {
  const auto s = ec::g2_to_json_strings(p);
  Json out = Json::array();
  for (const auto& pair : s) out.push_back(Json::array({pair[0], pair[1]}));
  return out;
}

// An optional string field that must equal `want` when present. A file of
// snarkjs's default curve is named as such: its numbers would otherwise be
// refused one by one as values of the wrong field.
Status check_tag(const Json& obj, const char* key, const char* want, const char* file, bool required) {
  auto it = obj.find(key);
  if (it == obj.end()) return required ? field_error(file, key, "missing") : ok_status();
  if (it->is_string() && it->get<std::string>() == want) return ok_status();
  if (std::string(key) == "curve" && it->is_string() && (*it == "bn128" || *it == "bn254"))
    return field_error(file, key,
                       "the file is for BN254 (" + it->get<std::string>() +
                           "), not BLS12-381, the only curve cuzk proves and verifies on; " + internal::kBls12381Hint);
  return field_error(file, key, "expected \"" + std::string(want) + "\", got " + it->dump());
}

// As the snarkjs CLI writes: one-space indentation, no final newline.
std::string dump(const Json& j) { return j.dump(1); }

StatusOr<std::string> read_text(const std::string& path) {
  ASSIGN_OR_RETURN(MappedFile f, MappedFile::open(path));
  return std::string(reinterpret_cast<const char*>(f.data()), f.size());
}

Status write_text(const std::string& path, const std::string& text) {
  return write_file(path, ByteSpan(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

}  // namespace

std::string proof_to_json(const groth16::Proof& proof) {
  Json j = Json::object();
  j["pi_a"] = g1_json(proof.a);
  j["pi_b"] = g2_json(proof.b);
  j["pi_c"] = g1_json(proof.c);
  j["protocol"] = kProtocol;
  j["curve"] = kCurve;
  return dump(j);
}

StatusOr<groth16::Proof> proof_from_json(std::string_view text, ec::SubgroupCheck check) {
  ASSIGN_OR_RETURN(Json j, parse_text(text, kProofFile));
  groth16::Proof proof;
  ASSIGN_OR_RETURN(const Json* a, member(j, "pi_a", kProofFile));
  ASSIGN_OR_RETURN(const Json* b, member(j, "pi_b", kProofFile));
  ASSIGN_OR_RETURN(const Json* c, member(j, "pi_c", kProofFile));
  RETURN_IF_ERROR(check_tag(j, "protocol", kProtocol, kProofFile, false));
  RETURN_IF_ERROR(check_tag(j, "curve", kCurve, kProofFile, false));
  ASSIGN_OR_RETURN(proof.a, g1_from(*a, "pi_a", kProofFile, check));
  ASSIGN_OR_RETURN(proof.b, g2_from(*b, "pi_b", kProofFile, check));
  ASSIGN_OR_RETURN(proof.c, g1_from(*c, "pi_c", kProofFile, check));
  return proof;
}

std::string public_inputs_to_json(std::span<const ff::Fr> inputs) {
  Json j = Json::array();
  for (const ff::Fr& x : inputs) j.push_back(x.to_decimal());
  return dump(j);
}

namespace {

// One public value as text. snarkjs writes decimal strings; its reader also
// takes "0x" hex strings and JSON numbers, which are exact only as integers
// below 2^53 (1.5e3 is 1500; 1e30 is not exact and is refused).
StatusOr<std::string> public_value_text(const Json& v, const std::string& field) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_unsigned()) return std::to_string(v.get<uint64_t>());
  if (v.is_number_float()) {
    const double d = v.get<double>();
    constexpr double kExact = 9007199254740992.0;  // 2^53
    if (d >= 0 && d <= kExact && d == double(uint64_t(d))) return std::to_string(uint64_t(d));
    return field_error(kPublicFile, field,
                       "the number " + v.dump() + " is not an exact non-negative integer; write it as a decimal "
                       "string");
  }
  return field_error(kPublicFile, field, "expected a decimal (or 0x hex) string");
}

// The values of one JSON array; `where` ("" or "[k]") prefixes the indices in errors.
StatusOr<std::vector<ff::Fr>> public_values(const Json& j, const std::string& where) {
  std::vector<ff::Fr> out;
  out.reserve(j.size());
  for (size_t i = 0; i < j.size(); ++i) {
    std::string field = where;  // built by appends: g++ 12 warns (-Wrestrict) on "[" + ... + "]"
    field += '[';
    field += std::to_string(i);
    field += ']';
    ASSIGN_OR_RETURN(std::string s, public_value_text(j[i], field));
    auto v = ec::fr_from_json_string(s);
    if (!v.ok()) return field_error(kPublicFile, field, v.status().message() + " (values must be < r)");
    out.push_back(*v);
  }
  return out;
}

}  // namespace

StatusOr<std::vector<ff::Fr>> public_inputs_from_json(std::string_view text) {
  ASSIGN_OR_RETURN(Json j, parse_text(text, kPublicFile));
  if (!j.is_array()) return invalid_argument(std::string(kPublicFile) + ": expected an array of decimal strings");
  if (!j.empty() && j[0].is_array())
    return invalid_argument(std::string(kPublicFile) + ": holds " + std::to_string(j.size()) +
                            " lists (one per proof of a multi-proof file); pick one proof");
  return public_values(j, "");
}

std::string public_input_lists_to_json(std::span<const std::vector<ff::Fr>> lists) {
  Json j = Json::array();
  for (const auto& list : lists) {
    Json inner = Json::array();
    for (const ff::Fr& x : list) inner.push_back(x.to_decimal());
    j.push_back(std::move(inner));
  }
  return dump(j);
}

StatusOr<std::vector<std::vector<ff::Fr>>> public_input_lists_from_json(std::string_view text) {
  ASSIGN_OR_RETURN(Json j, parse_text(text, kPublicFile));
  if (!j.is_array()) return invalid_argument(std::string(kPublicFile) + ": expected an array");
  std::vector<std::vector<ff::Fr>> out;
  if (j.empty() || !j[0].is_array()) {
    ASSIGN_OR_RETURN(std::vector<ff::Fr> one, public_values(j, ""));
    out.push_back(std::move(one));
    return out;
  }
  for (size_t k = 0; k < j.size(); ++k) {
    std::string where(1, '[');
    where += std::to_string(k);
    where += ']';
    if (!j[k].is_array()) return field_error(kPublicFile, where, "expected an array (one list per proof)");
    ASSIGN_OR_RETURN(std::vector<ff::Fr> list, public_values(j[k], where));
    out.push_back(std::move(list));
  }
  return out;
}

std::vector<std::vector<std::vector<std::string>>> fp12_to_json_strings(const ff::Fp12& v) {
  std::vector<std::vector<std::vector<std::string>>> out;
  for (const ff::Fp6* f6 : {&v.c0, &v.c1}) {
    std::vector<std::vector<std::string>> level;
    for (const ff::Fp2* f2 : {&f6->c0, &f6->c1, &f6->c2}) level.push_back({f2->c0.to_decimal(), f2->c1.to_decimal()});
    out.push_back(std::move(level));
  }
  return out;
}

std::string vk_to_json(const groth16::VerifyingKey& vk) {
  Json j = Json::object();
  j["protocol"] = kProtocol;
  j["curve"] = kCurve;
  j["nPublic"] = vk.num_public_inputs();
  j["vk_alpha_1"] = g1_json(vk.alpha_g1);
  j["vk_beta_2"] = g2_json(vk.beta_g2);
  j["vk_gamma_2"] = g2_json(vk.gamma_g2);
  j["vk_delta_2"] = g2_json(vk.delta_g2);
  j["vk_alphabeta_12"] = fp12_to_json_strings(pairing::pairing(vk.alpha_g1, vk.beta_g2));
  Json ic = Json::array();
  for (const G1Affine& p : vk.ic) ic.push_back(g1_json(p));
  j["IC"] = std::move(ic);
  return dump(j);
}

StatusOr<groth16::VerifyingKey> vk_from_json(std::string_view text, ec::SubgroupCheck check) {
  ASSIGN_OR_RETURN(Json j, parse_text(text, kVkFile));
  if (!j.is_object()) return invalid_argument(std::string(kVkFile) + ": the top level must be a JSON object");
  RETURN_IF_ERROR(check_tag(j, "protocol", kProtocol, kVkFile, true));
  RETURN_IF_ERROR(check_tag(j, "curve", kCurve, kVkFile, true));
  ASSIGN_OR_RETURN(const Json* npub, member(j, "nPublic", kVkFile));
  if (!npub->is_number_unsigned()) return field_error(kVkFile, "nPublic", "expected a non-negative integer");
  groth16::VerifyingKey vk;
  vk.beta_g1 = G1Affine::identity();
  vk.delta_g1 = G1Affine::identity();
  ASSIGN_OR_RETURN(const Json* alpha, member(j, "vk_alpha_1", kVkFile));
  ASSIGN_OR_RETURN(vk.alpha_g1, g1_from(*alpha, "vk_alpha_1", kVkFile, check));
  ASSIGN_OR_RETURN(const Json* beta, member(j, "vk_beta_2", kVkFile));
  ASSIGN_OR_RETURN(vk.beta_g2, g2_from(*beta, "vk_beta_2", kVkFile, check));
  ASSIGN_OR_RETURN(const Json* gamma, member(j, "vk_gamma_2", kVkFile));
  ASSIGN_OR_RETURN(vk.gamma_g2, g2_from(*gamma, "vk_gamma_2", kVkFile, check));
  ASSIGN_OR_RETURN(const Json* delta, member(j, "vk_delta_2", kVkFile));
  ASSIGN_OR_RETURN(vk.delta_g2, g2_from(*delta, "vk_delta_2", kVkFile, check));
  // With γ or δ zero the pairing check accepts forged proofs.
  if (vk.gamma_g2.is_infinity()) return field_error(kVkFile, "vk_gamma_2", "is the point at infinity");
  if (vk.delta_g2.is_infinity()) return field_error(kVkFile, "vk_delta_2", "is the point at infinity");
  ASSIGN_OR_RETURN(const Json* ic, member(j, "IC", kVkFile));
  if (!ic->is_array()) return field_error(kVkFile, "IC", "expected an array of G1 points");
  const uint64_t n_public = npub->get<uint64_t>();
  if (ic->empty() || ic->size() - 1 != n_public)
    return field_error(
        kVkFile, "IC",
        "has " + std::to_string(ic->size()) + " points, nPublic + 1 = " + std::to_string(n_public + 1) + " expected");
  vk.ic.reserve(ic->size());
  for (size_t i = 0; i < ic->size(); ++i) {
    ASSIGN_OR_RETURN(G1Affine p, g1_from((*ic)[i], "IC[" + std::to_string(i) + "]", kVkFile, check));
    vk.ic.push_back(p);
  }
  return vk;
}

StatusOr<groth16::Proof> read_proof_json(const std::string& path) {
  ASSIGN_OR_RETURN(std::string text, read_text(path));
  auto r = proof_from_json(text);
  if (!r.ok()) return r.status().with_context(path);
  return r;
}

Status write_proof_json(const std::string& path, const groth16::Proof& proof) {
  return write_text(path, proof_to_json(proof));
}

StatusOr<std::vector<ff::Fr>> read_public_json(const std::string& path) {
  ASSIGN_OR_RETURN(std::string text, read_text(path));
  auto r = public_inputs_from_json(text);
  if (!r.ok()) return r.status().with_context(path);
  return r;
}

Status write_public_json(const std::string& path, std::span<const ff::Fr> inputs) {
  return write_text(path, public_inputs_to_json(inputs));
}

StatusOr<std::vector<std::vector<ff::Fr>>> read_public_json_lists(const std::string& path) {
  ASSIGN_OR_RETURN(std::string text, read_text(path));
  auto r = public_input_lists_from_json(text);
  if (!r.ok()) return r.status().with_context(path);
  return r;
}

Status write_public_json_lists(const std::string& path, std::span<const std::vector<ff::Fr>> lists) {
  return write_text(path, public_input_lists_to_json(lists));
}

StatusOr<groth16::VerifyingKey> read_vk_json(const std::string& path) {
  ASSIGN_OR_RETURN(std::string text, read_text(path));
  auto r = vk_from_json(text);
  if (!r.ok()) return r.status().with_context(path);
  return r;
}

Status write_vk_json(const std::string& path, const groth16::VerifyingKey& vk) {
  return write_text(path, vk_to_json(vk));
}

}  // namespace cuzk::io
