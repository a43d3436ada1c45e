// Argument checks and the JSON summary of `cuzk prove` with key files.
#include <nlohmann/json.hpp>

#include "cuzk/base/mapped_file.h"
#include "cuzk/io/bellperson.h"
#include "cuzk/io/zkey.h"
#include "file_kinds.h"
#include "prove_file.h"

namespace cuzk::app {
namespace {

using io::FileKind;

// `option` names the output as the user gave it: "--proof", or its place
// in snarkjs's order ("3rd (the proof.json to write)").
Status check_output(const std::string& out, const std::string& option, const FileProveArgs& a) {
  if (out.empty()) return ok_status();
  const std::string named = a.positional ? out + ", given " + option + "," : option + " " + out;
  for (const std::string* in : {&a.zkey, &a.params, &a.r1cs, &a.wtns}) {
    if (!in->empty() && *in == out)
      return invalid_argument(named + " is also an input; nothing was written (snarkjs's order is " +
                              "circuit.zkey witness.wtns proof.json public.json)");
  }
  return ok_status();
}

// The key's header (curve, protocol, counts) before the witness is read: a
// key for another curve is the first thing to say.
Status check_zkey_header(const std::string& path) {
  ASSIGN_OR_RETURN(MappedFile f, MappedFile::open(path));
  auto c = io::parse_iden3_container(f.bytes(), "zkey");
  if (!c.ok()) return c.status().with_context(path);
  Status h = io::parse_zkey_header(f.bytes(), *c).status();
  return h.ok() ? h : h.with_context(path);
}

}  // namespace

void add_key_check_options(CLI::App* cmd, FileProveArgs* a) {
  auto* full = cmd->add_flag("--full-check", a->full_check,
                             "Check every key point for subgroup membership too (all cores; remembered by the key's "
                             "content digest in the cache directory, so a key is checked once)");
  cmd->add_flag("--no-check", a->no_check,
                "Accepted for older scripts: loading checks points on the curve and the verifying key in the "
                "subgroup, not every point, unless --full-check")
      ->excludes(full);
  cmd->add_option("--cache-dir", a->cache_dir,
                  "Where --full-check remembers checked keys (default: $XDG_CACHE_HOME/cuzk, else ~/.cache/cuzk)");
}

Status take_positional_prove_files(const std::vector<std::string>& files, FileProveArgs* a, bool snarkjs_defaults) {
  if (files.empty() && !snarkjs_defaults) return ok_status();
  if (!a->zkey.empty() || !a->params.empty() || !a->wtns.empty() || !a->proof.empty() || !a->public_json.empty())
    return invalid_argument("give the files in snarkjs's order (circuit.zkey witness.wtns proof.json public.json) "
                            "or with --zkey/--wtns/--proof/--public, not both");
  if (files.size() == 1 && !snarkjs_defaults)
    return invalid_argument("snarkjs's order needs at least circuit.zkey witness.wtns (then proof.json public.json)");
  static const char* kDefaults[] = {"circuit_final.zkey", "witness.wtns", "proof.json", "public.json"};
  std::string* slots[] = {&a->zkey, &a->wtns, &a->proof, &a->public_json};
  for (size_t i = 0; i < 4; ++i) {
    if (i < files.size()) *slots[i] = files[i];
    else if (snarkjs_defaults) *slots[i] = kDefaults[i];
  }
  a->positional = true;
  return ok_status();
}

Status check_prove_inputs(const FileProveArgs& a) {
  if (a.zkey.empty() == a.params.empty())
    return invalid_argument("give exactly one of --zkey or --params (or --addr/--circuit for the daemon)");
  if (!a.params.empty() && a.r1cs.empty()) return invalid_argument("--params needs --r1cs (the circuit)");
  if (a.wtns.empty()) return invalid_argument("--wtns is required (the circom witness, .wtns)");
  if (a.positional)
    RETURN_IF_ERROR(expect_positional_kinds({{&a.zkey, {FileKind::kZkey}, "circuit.zkey"},
                                             {&a.wtns, {FileKind::kWtns}, "witness.wtns"}},
                                            "circuit.zkey witness.wtns proof.json public.json"));
  const KindOptions& opts = prove_kind_options();
  if (!a.zkey.empty()) RETURN_IF_ERROR(expect_file_kind(a.zkey, "--zkey", {FileKind::kZkey}, opts));
  if (!a.params.empty()) RETURN_IF_ERROR(expect_file_kind(a.params, "--params", {FileKind::kParams}, opts));
  if (!a.r1cs.empty())
    RETURN_IF_ERROR(expect_file_kind(a.r1cs, "--r1cs", {FileKind::kR1cs, FileKind::kPrecompiled}, opts));
  RETURN_IF_ERROR(expect_file_kind(a.wtns, "--wtns", {FileKind::kWtns}, opts));
  if (!a.zkey.empty()) RETURN_IF_ERROR(check_zkey_header(a.zkey));
  RETURN_IF_ERROR(check_output(a.proof, a.positional ? "3rd (the proof.json to write)" : "--proof", a));
  return check_output(a.public_json, a.positional ? "4th (the public.json to write)" : "--public", a);
}

Status check_key_fits_circuit(const FileProveArgs& a, const r1cs::CircuitShape& shape) {
  const std::string& key = a.zkey.empty() ? a.params : a.zkey;
  ASSIGN_OR_RETURN(MappedFile f, MappedFile::open(key));
  uint64_t vars = 0, inputs = 0;
  if (!a.zkey.empty()) {
    auto c = io::parse_iden3_container(f.bytes(), "zkey");
    if (!c.ok()) return c.status().with_context(key);
    auto h = io::parse_zkey_header(f.bytes(), *c);
    if (!h.ok()) return h.status().with_context(key);
    vars = h->num_vars;
    inputs = uint64_t(h->num_public) + 1;
  } else {
    auto lay = io::scan_params(f.bytes());
    if (!lay.ok()) return lay.status().with_context(key);
    inputs = lay->ic_len;
    vars = uint64_t(lay->ic_len) + lay->l.count;
  }
  return r1cs::check_key_shape(shape, a.r1cs, vars, inputs, key);
}

Status key_circuit_mismatch(const Status& s, const std::string& params, const std::string& r1cs) {
  const std::string tag = std::string("params: ") + io::kNotThisCircuit;
  if (s.message().starts_with(tag))
    return invalid_argument(params + " is not a key of " + r1cs + ": " + s.message().substr(tag.size()));
  return s.with_context(params);
}

std::string prove_summary_json(const FileProveArgs& a, const groth16::StageTimes& t, double load_s,
                               double attach_s, double verify_s, const std::string& key_note) {
  nlohmann::json j{{"ok", true},
                   {"key", a.zkey.empty() ? a.params : a.zkey},
                   {"witness", a.wtns},
                   {"proof", a.proof},
                   {"public", a.public_json},
                   {"verified", true},
                   {"key_check", a.full_check ? "full" : "curve"},
                   {"seconds",
                    {{"load", load_s},
                     {"attach", attach_s},
                     {"matvec", t.matvec_s},
                     {"stage", t.stage_s},
                     {"h", t.h_s},
                     {"msm", t.msm_s},
                     {"assembly", t.assembly_s},
                     {"prove", t.total_s},
                     {"verify", verify_s}}}};
  if (!key_note.empty()) j["key_note"] = key_note;
  return j.dump();
}

}  // namespace cuzk::app
