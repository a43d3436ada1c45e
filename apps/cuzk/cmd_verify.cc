// `cuzk verify`: one proof, one proof of a multi-proof file (--index), or
// every proof of it, each against its own list of public inputs.
#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli_util.h"
#include "cuzk/base/mapped_file.h"
#include "cuzk/groth16/verifier.h"
#include "cuzk/io/bellperson.h"
#include "cuzk/io/snarkjs_json.h"
#include "cuzk/io/zkey.h"
#include "file_kinds.h"
#include "commands.h"
#include "verify_file.h"

namespace cuzk::app {
namespace {

using io::FileKind;

Status check_verify_inputs(const VerifyArgs& a) {
  if (a.vkey_json.empty() == a.vk_bin.empty())
    return invalid_argument("give exactly one of --vkey (snarkjs verification_key.json) or --vk (bellperson .vk)");
  if (a.proof.empty()) return invalid_argument("--proof is required (proof.json, or a file of 192-byte proofs)");
  if (a.positional) {
    const std::vector<PositionalFile> files = {
        {&a.vkey_json, {FileKind::kVkJson, FileKind::kZkey}, "verification_key.json"},
        {&a.public_json, {FileKind::kPublicJson}, "public.json"},
        {&a.proof, {FileKind::kProofJson, FileKind::kProofs}, "proof.json"}};
    RETURN_IF_ERROR(expect_positional_kinds(files, "verification_key.json public.json proof.json"));
  }
  const KindOptions& opts = verify_kind_options();
  if (!a.vkey_json.empty())
    RETURN_IF_ERROR(expect_file_kind(a.vkey_json, "--vkey", {FileKind::kVkJson, FileKind::kZkey}, opts));
  if (!a.vk_bin.empty()) RETURN_IF_ERROR(expect_file_kind(a.vk_bin, "--vk", {FileKind::kVk, FileKind::kParams}, opts));
  if (!a.public_json.empty())
    RETURN_IF_ERROR(expect_file_kind(a.public_json, "--public", {FileKind::kPublicJson}, opts));
  return expect_file_kind(a.proof, "--proof", {FileKind::kProofJson, FileKind::kProofs}, opts);
}

StatusOr<groth16::VerifyingKey> read_key(const VerifyArgs& a) {
  if (!a.vk_bin.empty()) {
    ASSIGN_OR_RETURN(MappedFile f, MappedFile::open(a.vk_bin));
    auto vk = io::parse_vk(f.bytes());  // a .params file starts with its verifying key
    if (!vk.ok()) return vk.status().with_context(a.vk_bin);
    return vk;
  }
  if (!ends_with(a.vkey_json, ".zkey") && !ends_with(a.vkey_json, ".ZKEY")) {
    ASSIGN_OR_RETURN(MappedFile f, MappedFile::open(a.vkey_json));
    if (io::detect_file_kind(f.bytes()) != FileKind::kZkey) return io::read_vk_json(a.vkey_json);
  }
  ASSIGN_OR_RETURN(io::ZkeyContents z, io::read_zkey(a.vkey_json, {.check_points = false}));
  return z.pk.vk;
}

StatusOr<std::vector<groth16::Proof>> read_proof_file(const std::string& path) {
  ASSIGN_OR_RETURN(MappedFile f, MappedFile::open(path));
  if (io::detect_file_kind(f.bytes()) == FileKind::kProofJson) {
    ASSIGN_OR_RETURN(groth16::Proof p, io::read_proof_json(path));
    return std::vector<groth16::Proof>{p};
  }
  return io::read_proofs(path);
}

// The list of public inputs of each proof to check: from one list per proof,
// or from one flat list (one proof, or every proof's values one after another).
StatusOr<std::vector<std::vector<ff::Fr>>> publics_per_proof(const VerifyArgs& a, size_t proofs, size_t per) {
  std::vector<std::vector<ff::Fr>> lists(1);
  if (!a.public_json.empty()) {
    ASSIGN_OR_RETURN(lists, io::read_public_json_lists(a.public_json));
  }
  if (lists.size() == proofs) return lists;
  const std::string where = a.public_json.empty() ? std::string("no --public (no public inputs)") : a.public_json;
  if (lists.size() == 1 && proofs > 1 && per > 0 && lists[0].size() == proofs * per) {
    std::vector<std::vector<ff::Fr>> split;
    for (size_t i = 0; i < proofs; ++i)
      split.emplace_back(lists[0].begin() + long(i * per), lists[0].begin() + long((i + 1) * per));
    return split;
  }
  if (lists.size() == 1 && a.index >= 0) return std::vector<std::vector<ff::Fr>>(proofs, lists[0]);
  return invalid_argument(where + " holds " + std::to_string(lists.size()) + " list(s) of public inputs for " +
                          std::to_string(proofs) + " proof(s) in " + a.proof +
                          "; give one list per proof, or --index I to check one proof against one list");
}

// Each list must hold the key's nPublic values. Said before verifying, with
// both files named: snarkjs answers a short list with "Invalid proof" and a
// long one with a stack trace.
Status check_public_counts(const VerifyArgs& a, const std::vector<std::vector<ff::Fr>>& lists, size_t want) {
  const std::string& key = a.vk_bin.empty() ? a.vkey_json : a.vk_bin;
  for (size_t i = 0; i < lists.size(); ++i) {
    if (a.index >= 0 && size_t(a.index) != i) continue;
    if (lists[i].size() == want) continue;
    std::string which = "no --public given (no public values)";
    if (!a.public_json.empty()) {
      which = a.public_json + (lists.size() > 1 ? " list " + std::to_string(i) : std::string()) + " holds " +
              std::to_string(lists[i].size()) + " public value(s)";
    }
    return invalid_argument(which + ", but the key " + key + " takes " + std::to_string(want) +
                            " (nPublic: outputs, then public inputs); are the files of the same circuit?");
  }
  return ok_status();
}

void report(const VerifyArgs& a, const std::vector<std::pair<size_t, bool>>& results, size_t total) {
  bool all = true;
  for (const auto& r : results) all = all && r.second;
  if (a.json) {
    nlohmann::json j{{"valid", all}, {"proofs_in_file", total}, {"checked", nlohmann::json::array()}};
    for (const auto& [i, ok] : results) j["checked"].push_back({{"index", i}, {"valid", ok}});
    std::printf("%s\n", j.dump().c_str());
    return;
  }
  if (total == 1) {
    std::printf(all ? "OK: the proof is valid\n"
                    : "INVALID: the proof does not verify against this key and these public inputs\n");
    return;
  }
  for (const auto& [i, ok] : results) std::printf("proof %zu of %zu: %s\n", i, total, ok ? "OK" : "INVALID");
  std::printf(all ? "OK: every proof checked is valid\n" : "INVALID: at least one proof does not verify\n");
}

}  // namespace

int run_verify(const VerifyArgs& a, const char* command) {
  auto failed = [&](const Status& s) { return fail(command, s, kExitUsage, a.json); };
  if (Status s = check_verify_inputs(a); !s.ok()) return failed(s);
  auto vk = read_key(a);
  if (!vk.ok()) return failed(vk.status());
  auto proofs = read_proof_file(a.proof);
  if (!proofs.ok()) return failed(proofs.status());
  if (a.index >= int64_t(proofs->size()))
    return failed(invalid_argument("--index " + std::to_string(a.index) + ": " + a.proof + " holds " +
                                           std::to_string(proofs->size()) + " proof(s), numbered from 0"));
  auto publics = publics_per_proof(a, proofs->size(), vk->num_public_inputs());
  if (!publics.ok()) return failed(publics.status());
  if (Status s = check_public_counts(a, *publics, vk->num_public_inputs()); !s.ok()) return failed(s);
  groth16::PreparedVerifyingKey pvk(*vk);
  std::vector<std::pair<size_t, bool>> results;
  for (size_t i = 0; i < proofs->size(); ++i) {
    if (a.index >= 0 && size_t(a.index) != i) continue;
    auto ok = pvk.verify((*publics)[i], (*proofs)[i]);
    if (!ok.ok()) return failed(proofs->size() > 1 ? ok.status().with_context("proof " + std::to_string(i))
                                                            : ok.status());
    results.emplace_back(i, *ok);
  }
  report(a, results, proofs->size());
  for (const auto& r : results)
    if (!r.second) return kExitInvalid;
  return kExitOk;
}

void add_verify_command(CLI::App& app, Runner* runner) {
  auto a = std::make_shared<VerifyArgs>();
  auto files = std::make_shared<std::vector<std::string>>();
  auto* cmd = app.add_subcommand("verify", "Verify a Groth16 proof: exit 0 valid, 1 invalid, 2 usage or input error");
  cmd->add_option("files", *files, "snarkjs's order instead of the options: verification_key.json public.json proof.json")
      ->expected(0, 3);
  cmd->add_option("--vkey", a->vkey_json, "snarkjs verification_key.json (or a .zkey: its verifying key)");
  cmd->add_option("--vk", a->vk_bin, "bellperson verifying key (.vk, or a .params: its verifying key)");
  cmd->add_option("--public", a->public_json,
                  "snarkjs public.json (omit when there are no public inputs; one list per proof for several)");
  cmd->add_option("--proof", a->proof, "proof.json, or a file of 192-byte proofs");
  cmd->add_option("--index", a->index, "Check only proof I (from 0) of a multi-proof file (default: all)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag("--json", a->json, "Print the result as JSON");
  cmd->callback([runner, a, files] {
    if (Status s = take_positional_verify_files(*files, a.get(), false); !s.ok()) {
      *runner = [s, a] { return fail("verify", s, kExitUsage, a->json); };
      return;
    }
    *runner = [a] { return run_verify(*a); };
  });
}

Status take_positional_verify_files(const std::vector<std::string>& files, VerifyArgs* a, bool snarkjs_defaults) {
  if (files.empty() && !snarkjs_defaults) return ok_status();
  if (!a->vkey_json.empty() || !a->vk_bin.empty() || !a->public_json.empty() || !a->proof.empty())
    return invalid_argument("give the files in snarkjs's order (verification_key.json public.json proof.json) or "
                            "with --vkey/--public/--proof, not both");
  if (files.size() < 3 && !snarkjs_defaults)
    return invalid_argument("snarkjs's order is verification_key.json public.json proof.json (all three)");
  static const char* kDefaults[] = {"verification_key.json", "public.json", "proof.json"};
  std::string* slots[] = {&a->vkey_json, &a->public_json, &a->proof};
  for (size_t i = 0; i < 3; ++i) *slots[i] = i < files.size() ? files[i] : kDefaults[i];
  a->positional = true;
  return ok_status();
}

}  // namespace cuzk::app
