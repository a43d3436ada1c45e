// `cuzk filecoin`: Filecoin proofs from the command line.
//   verify-seal / verify-window-post / verify-winning-post / verify-snap
//       build a proof's public inputs from its public parameters and verify
//       the 192-byte Groth16 proofs (one per partition) against a verifying
//       key: exit 0 valid, 1 invalid, 2 usage or input error.
//   check-vanilla   run the reference's vanilla verifier on what Curio sends
//   seal, dev-prove (cmd_filecoin_dev.cc)  make test inputs.
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>

#include "cli_util.h"
#include "commands.h"
#include "cuzk/base/byte_size.h"
#include "cuzk/base/mapped_file.h"
#include "cuzk/base/random.h"
#include "cuzk/filecoin/bincode.h"
#include "cuzk/filecoin/c1_json.h"
#include "cuzk/filecoin/challenges.h"
#include "cuzk/filecoin/public_inputs.h"
#include "cuzk/filecoin/sdr.h"
#include "cuzk/filecoin/vanilla.h"
#include "cuzk/groth16/verifier.h"
#include "cuzk/io/bellperson.h"
#include "cuzk/io/snarkjs_json.h"
#include "filecoin_cli.h"

namespace cuzk::app {

namespace fc = cuzk::filecoin;

// ---- shared helpers (filecoin_cli.h) ----

StatusOr<fc::Node> parse_node_hex(const std::string& text, const char* what) { return fc::node_from_hex(text, what); }

StatusOr<fc::Node> parse_commitment(const std::string& text, fc::CommitmentKind kind, const char* what) {
  const bool hex = text.size() == 64 && std::all_of(text.begin(), text.end(), ::isxdigit);
  if (!hex && !text.empty() && text[0] == 'b') {
    auto n = fc::commitment_from_cid(kind, text);
    if (!n.ok()) return n.status().with_context(what);
    return n;
  }
  return fc::node_from_hex(text, what);
}

StatusOr<fc::Node> parse_prover(const std::string& prover_hex, int64_t miner_id) {
  if (prover_hex.empty() == (miner_id < 0)) return invalid_argument("give exactly one of --prover-id HEX or --miner-id N");
  if (miner_id >= 0) return fc::prover_id_from_miner_id(uint64_t(miner_id));
  return fc::node_from_hex(prover_hex, "--prover-id");
}

namespace {

bool is_number(const std::string& s) { return !s.empty() && std::all_of(s.begin(), s.end(), ::isdigit); }

template <class Info, class ById, class ByName>
StatusOr<Info> parse_proof(const std::string& text, ById by_id, ByName by_name) {
  if (is_number(text)) return by_id(std::stoull(text.substr(0, 18)));
  return by_name(text);
}

}  // namespace

StatusOr<fc::SealProofInfo> parse_seal_proof(const std::string& t) {
  return parse_proof<fc::SealProofInfo>(t, [](uint64_t i) { return fc::seal_proof_info(i); },
                                        [](const std::string& s) { return fc::seal_proof_info(s); });
}
StatusOr<fc::PoStProofInfo> parse_post_proof(const std::string& t) {
  return parse_proof<fc::PoStProofInfo>(t, [](uint64_t i) { return fc::post_proof_info(i); },
                                        [](const std::string& s) { return fc::post_proof_info(s); });
}
StatusOr<fc::UpdateProofInfo> parse_update_proof(const std::string& t) {
  return parse_proof<fc::UpdateProofInfo>(t, [](uint64_t i) { return fc::update_proof_info(i); },
                                          [](const std::string& s) { return fc::update_proof_info(s); });
}

StatusOr<uint64_t> parse_sector_size(const std::string& text) {
  StatusOr<uint64_t> bytes = parse_byte_size(text);
  if (!bytes.ok()) return invalid_argument("--sector-size: " + bytes.status().message());
  return bytes;
}

StatusOr<std::string> read_whole_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return not_found(path + ": cannot open");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Status write_text_file(const std::string& path, const std::string& text) {
  return write_file(path, ByteSpan(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

fc::Node random_node() {
  OsRng rng;
  return fc::node_from_fr(ff::Fr::random(rng));
}

namespace {

// ---- verification against a key ----

struct KeyArgs {
  std::string vk, proof, inputs_out;
};

// Writes <dir>/public-<k>.json for each partition (the inputs a dev proof or
// another verifier needs); creates the directory.
Status write_inputs(const std::string& dir, const std::vector<std::vector<ff::Fr>>& inputs) {
  ::mkdir(dir.c_str(), 0755);
  for (size_t k = 0; k < inputs.size(); ++k)
    RETURN_IF_ERROR(io::write_public_json(dir + "/public-" + std::to_string(k) + ".json", inputs[k]));
  return ok_status();
}

// Verifies proofs[k] against inputs[k] for every partition.
int verify_partitions(const char* cmd, const KeyArgs& a, const std::vector<std::vector<ff::Fr>>& inputs) {
  if (!a.inputs_out.empty()) {
    Status st = write_inputs(a.inputs_out, inputs);
    if (!st.ok()) return fail(cmd, st);
    std::printf("wrote the public inputs of %zu partition(s) to %s\n", inputs.size(), a.inputs_out.c_str());
    if (a.vk.empty() && a.proof.empty()) return kExitOk;
  }
  if (a.vk.empty() || a.proof.empty()) return fail(cmd, invalid_argument("--vk and --proof are required"));
  auto vk = io::read_vk_for_verifier(a.vk);
  if (!vk.ok()) return fail(cmd, vk.status().with_context(a.vk));
  auto proofs = io::read_proofs(a.proof);
  if (!proofs.ok()) return fail(cmd, proofs.status().with_context(a.proof));
  if (proofs->size() != inputs.size())
    return fail(cmd, invalid_argument(a.proof + ": " + std::to_string(proofs->size()) + " proofs, expected one per partition (" +
                                      std::to_string(inputs.size()) + ")"));
  groth16::PreparedVerifyingKey pvk(*vk);
  bool all = true;
  for (size_t k = 0; k < inputs.size(); ++k) {
    auto ok = pvk.verify(inputs[k], (*proofs)[k]);
    if (!ok.ok()) return fail(cmd, ok.status().with_context("partition " + std::to_string(k)));
    if (!*ok) std::printf("INVALID: partition %zu does not verify\n", k);
    all = all && *ok;
  }
  if (!all) return kExitInvalid;
  std::printf("OK: %zu partition proof(s) valid\n", inputs.size());
  return kExitOk;
}

void add_key_options(CLI::App* cmd, KeyArgs* a) {
  cmd->add_option("--vk", a->vk, "Groth16 verifying key (bellperson .vk)");
  cmd->add_option("--proof", a->proof, "Proof file: 192 bytes per partition, in partition order");
  cmd->add_option("--inputs-out", a->inputs_out, "Also write each partition's public inputs to DIR/public-<k>.json");
}

struct SealArgs {
  KeyArgs key;
  std::string proof_type, comm_r, comm_d, prover_id, ticket, seed, c1, porep_id, api_version;
  int64_t miner_id = -1;
  int64_t sector = -1;
};

// The C1 output in a file: Curio's envelope (its sector number too) or the
// bare SealCommitPhase1Output JSON.
StatusOr<fc::SealCommitPhase1Output> read_c1(const std::string& path, int64_t* sector_num) {
  ASSIGN_OR_RETURN(std::string text, read_whole_file(path));
  if (text.find("\"Phase1Out\"") != std::string::npos) {
    auto env = fc::parse_c1_envelope(text);
    if (!env.ok()) return env.status().with_context(path);
    *sector_num = env->sector_num;
    text = std::move(env->phase1_out);
  }
  auto c1 = fc::parse_c1_output(text);
  if (!c1.ok()) return c1.status().with_context(path);
  return c1;
}

// --api-version 1.0.0 | 1.1.0 | 1.2.0
StatusOr<fc::ApiVersion> parse_api_version(const std::string& text) {
  for (fc::ApiVersion v : {fc::ApiVersion::kV1_0_0, fc::ApiVersion::kV1_1_0, fc::ApiVersion::kV1_2_0})
    if (text == fc::api_version_name(v)) return v;
  return invalid_argument("--api-version: \"" + text + "\" is not one of 1.0.0, 1.1.0, 1.2.0");
}

// The proof type: --registered-proof, else the C1 output's; then the
// overrides of filecoin-proofs' PoRepConfig (networks that derive their own
// porep_id or API version).
StatusOr<fc::SealProofInfo> seal_info(const SealArgs& a, const std::string& c1_proof) {
  if (a.proof_type.empty() && c1_proof.empty())
    return invalid_argument("give --registered-proof (e.g. StackedDrg32GiBV1_1), or --c1 to take it from the C1 output");
  ASSIGN_OR_RETURN(fc::SealProofInfo info, parse_seal_proof(a.proof_type.empty() ? c1_proof : a.proof_type));
  if (!a.porep_id.empty()) {
    ASSIGN_OR_RETURN(fc::Node id, parse_node_hex(a.porep_id, "--porep-id"));
    std::copy(id.begin(), id.end(), info.porep_id.begin());
  }
  if (!a.api_version.empty()) {
    ASSIGN_OR_RETURN(info.api, parse_api_version(a.api_version));
  }
  return info;
}

StatusOr<std::vector<std::vector<ff::Fr>>> seal_inputs(const SealArgs& a) {
  fc::Node comm_r, comm_d, ticket, seed;
  std::string c1_proof;
  int64_t sector = a.sector;
  if (!a.c1.empty()) {
    int64_t envelope_sector = -1;
    ASSIGN_OR_RETURN(fc::SealCommitPhase1Output c1, read_c1(a.c1, &envelope_sector));
    comm_r = c1.comm_r, comm_d = c1.comm_d, ticket = c1.ticket, seed = c1.seed;
    c1_proof = c1.registered_proof;
    if (sector < 0) sector = envelope_sector;
  } else {
    ASSIGN_OR_RETURN(comm_r, parse_commitment(a.comm_r, fc::CommitmentKind::kSealed, "--comm-r"));
    ASSIGN_OR_RETURN(comm_d, parse_commitment(a.comm_d, fc::CommitmentKind::kUnsealed, "--comm-d"));
    ASSIGN_OR_RETURN(ticket, parse_node_hex(a.ticket, "--ticket"));
    ASSIGN_OR_RETURN(seed, parse_node_hex(a.seed, "--seed"));
  }
  if (sector < 0) return invalid_argument("give --sector N (Curio's C1 envelope carries it; a bare C1 output does not)");
  ASSIGN_OR_RETURN(fc::SealProofInfo info, seal_info(a, c1_proof));
  if (comm_r == fc::Node{} || comm_d == fc::Node{}) return invalid_argument("an all-zero commitment (comm_r or comm_d)");
  ASSIGN_OR_RETURN(fc::Node prover, parse_prover(a.prover_id, a.miner_id));
  const fc::Node replica_id = fc::compute_replica_id(prover, uint64_t(sector), ticket, comm_d, info.porep_id);
  std::vector<std::vector<ff::Fr>> inputs;
  for (uint64_t k = 0; k < uint64_t(info.partitions); ++k) {
    ASSIGN_OR_RETURN(auto in, fc::porep_public_inputs(info, replica_id, comm_d, comm_r, seed, k));
    inputs.push_back(std::move(in));
  }
  return inputs;
}

void add_verify_seal(CLI::App& fil, Runner* runner) {
  auto a = std::make_shared<SealArgs>();
  auto* cmd = fil.add_subcommand("verify-seal", "Verify a PoRep (seal) proof: exit 0 valid, 1 invalid, 2 input error");
  add_key_options(cmd, &a->key);
  cmd->add_option("--registered-proof", a->proof_type,
                  "Seal proof type, number or name (default with --c1: the C1 output's)");
  cmd->add_option("--comm-r", a->comm_r, "comm_r: 64 hex digits or the sealed CID (bagboea4b5abc…)");
  cmd->add_option("--comm-d", a->comm_d, "comm_d: 64 hex digits or the unsealed CID (baga6ea4sea…)");
  cmd->add_option("--ticket", a->ticket, "Ticket (seal randomness), 64 hex digits");
  cmd->add_option("--seed", a->seed, "Interactive seed, 64 hex digits");
  cmd->add_option("--c1", a->c1,
                  "Take the proof type, comm_r, comm_d, ticket and seed (and with Curio's envelope the sector "
                  "number) from this C1 output instead");
  cmd->add_option("--prover-id", a->prover_id, "Prover id, 64 hex digits");
  cmd->add_option("--miner-id", a->miner_id, "Miner actor id N (f0N), instead of --prover-id");
  cmd->add_option("--sector", a->sector, "Sector number (default with Curio's envelope: its SectorNum)");
  cmd->add_option("--porep-id", a->porep_id, "Override the proof type's porep_id: 64 hex digits");
  cmd->add_option("--api-version", a->api_version, "Override the proof type's API version: 1.0.0, 1.1.0 or 1.2.0");
  cmd->callback([runner, a] {
    *runner = [a] {
      auto in = seal_inputs(*a);
      if (!in.ok()) return fail("filecoin verify-seal", in.status());
      return verify_partitions("filecoin verify-seal", a->key, *in);
    };
  });
}

struct PoStArgs {
  KeyArgs key;
  std::string proof_type, randomness, comm_r;
  std::vector<std::string> sectors;  // "N:COMMR"
  uint64_t sector = 0;
  uint64_t partition = 0;
  bool all_partitions = false;
};

StatusOr<std::vector<fc::PoStSector>> parse_sectors(const std::vector<std::string>& items) {
  std::vector<fc::PoStSector> out;
  for (const std::string& s : items) {
    const size_t colon = s.find(':');
    if (colon == std::string::npos || !is_number(s.substr(0, colon)))
      return invalid_argument("--sector-comm-r \"" + s + "\": expected SECTOR:COMM_R");
    fc::PoStSector ps;
    ps.sector_id = std::stoull(s.substr(0, colon));
    ASSIGN_OR_RETURN(ps.comm_r, parse_commitment(s.substr(colon + 1), fc::CommitmentKind::kSealed, "comm_r"));
    out.push_back(ps);
  }
  // filecoin-proofs orders a PoSt's sectors by sector id (a BTreeMap).
  std::sort(out.begin(), out.end(), [](const auto& x, const auto& y) { return x.sector_id < y.sector_id; });
  return out;
}

StatusOr<std::vector<std::vector<ff::Fr>>> window_inputs(const PoStArgs& a) {
  ASSIGN_OR_RETURN(fc::PoStProofInfo info, parse_post_proof(a.proof_type));
  if (info.kind != fc::PoStKind::kWindow) return invalid_argument(std::string(info.name) + " is not a Window PoSt");
  ASSIGN_OR_RETURN(fc::Node randomness, parse_node_hex(a.randomness, "--randomness"));
  ASSIGN_OR_RETURN(auto sectors, parse_sectors(a.sectors));
  if (sectors.empty()) return invalid_argument("no sectors: give --sector-comm-r N:COMM_R for each");
  const uint64_t partitions = (sectors.size() + uint64_t(info.sector_count) - 1) / uint64_t(info.sector_count);
  std::vector<std::vector<ff::Fr>> inputs;
  for (uint64_t k = a.all_partitions ? 0 : a.partition; k < (a.all_partitions ? partitions : a.partition + 1); ++k) {
    ASSIGN_OR_RETURN(auto in, fc::window_post_public_inputs(info, randomness, sectors, k));
    inputs.push_back(std::move(in));
  }
  return inputs;
}

StatusOr<std::vector<std::vector<ff::Fr>>> winning_inputs(const PoStArgs& a) {
  ASSIGN_OR_RETURN(fc::PoStProofInfo info, parse_post_proof(a.proof_type));
  ASSIGN_OR_RETURN(fc::Node randomness, parse_node_hex(a.randomness, "--randomness"));
  fc::PoStSector s;
  s.sector_id = a.sector;
  ASSIGN_OR_RETURN(s.comm_r, parse_commitment(a.comm_r, fc::CommitmentKind::kSealed, "--comm-r"));
  ASSIGN_OR_RETURN(auto in, fc::winning_post_public_inputs(info, randomness, s));
  return std::vector<std::vector<ff::Fr>>{std::move(in)};
}

void add_verify_post(CLI::App& fil, Runner* runner, bool window) {
  auto a = std::make_shared<PoStArgs>();
  a->proof_type = window ? "StackedDrgWindow32GiBV1_2" : "StackedDrgWinning32GiBV1";
  auto* cmd = fil.add_subcommand(window ? "verify-window-post" : "verify-winning-post",
                                 window ? "Verify a Window PoSt partition proof: exit 0 valid, 1 invalid, 2 input error"
                                        : "Verify a Winning PoSt proof: exit 0 valid, 1 invalid, 2 input error");
  add_key_options(cmd, &a->key);
  cmd->add_option("--registered-proof", a->proof_type, "PoSt proof type, number or name (default " + a->proof_type + ")");
  cmd->add_option("--randomness", a->randomness, "PoSt randomness, 64 hex digits")->required();
  if (window) {
    cmd->add_option("--sector-comm-r", a->sectors, "SECTOR:COMM_R of every proven sector (repeat)")->required();
    cmd->add_option("--partition", a->partition, "The partition the proof is for (default 0)");
    cmd->add_flag("--all-partitions", a->all_partitions, "The proof file holds every partition's proof, in order");
  } else {
    cmd->add_option("--sector", a->sector, "The challenged sector's number")->required();
    cmd->add_option("--comm-r", a->comm_r, "Its comm_r: 64 hex digits or sealed CID")->required();
  }
  const char* name = window ? "filecoin verify-window-post" : "filecoin verify-winning-post";
  cmd->callback([runner, a, window, name] {
    *runner = [a, window, name] {
      auto in = window ? window_inputs(*a) : winning_inputs(*a);
      if (!in.ok()) return fail(name, in.status());
      return verify_partitions(name, a->key, *in);
    };
  });
}

struct SnapArgs {
  KeyArgs key;
  std::string proof_type = "StackedDrg32GiBV1", comm_r_old, comm_d_new, comm_r_new;
  uint64_t h = 0;
};

StatusOr<std::vector<std::vector<ff::Fr>>> snap_inputs(const SnapArgs& a) {
  ASSIGN_OR_RETURN(fc::UpdateProofInfo info, parse_update_proof(a.proof_type));
  ASSIGN_OR_RETURN(fc::Node r_old, parse_commitment(a.comm_r_old, fc::CommitmentKind::kSealed, "--comm-r-old"));
  ASSIGN_OR_RETURN(fc::Node d_new, parse_commitment(a.comm_d_new, fc::CommitmentKind::kUnsealed, "--comm-d-new"));
  ASSIGN_OR_RETURN(fc::Node r_new, parse_commitment(a.comm_r_new, fc::CommitmentKind::kSealed, "--comm-r-new"));
  std::vector<std::vector<ff::Fr>> inputs;
  for (uint64_t k = 0; k < uint64_t(info.partitions); ++k) {
    ASSIGN_OR_RETURN(auto in, fc::snap_public_inputs(info, k, a.h ? a.h : info.h, r_old, d_new, r_new));
    inputs.push_back(std::move(in));
  }
  return inputs;
}

void add_verify_snap(CLI::App& fil, Runner* runner) {
  auto a = std::make_shared<SnapArgs>();
  auto* cmd = fil.add_subcommand("verify-snap", "Verify a SnapDeals (sector update) proof: exit 0 valid, 1 invalid, 2 input error");
  add_key_options(cmd, &a->key);
  cmd->add_option("--registered-proof", a->proof_type, "Update proof type, number or name (default StackedDrg32GiBV1)");
  cmd->add_option("--comm-r-old", a->comm_r_old, "comm_r of the sector before the update (hex or CID)")->required();
  cmd->add_option("--comm-d-new", a->comm_d_new, "comm_d of the new data (hex or CID)")->required();
  cmd->add_option("--comm-r-new", a->comm_r_new, "comm_r after the update (hex or CID)")->required();
  cmd->add_option("--h", a->h, "h (default: the sector size's, 10 for 32 GiB)");
  cmd->callback([runner, a] {
    *runner = [a] {
      auto in = snap_inputs(*a);
      if (!in.ok()) return fail("filecoin verify-snap", in.status());
      return verify_partitions("filecoin verify-snap", a->key, *in);
    };
  });
}

// ---- vanilla proofs ----

struct VanillaArgs {
  std::string kind, file, proof_type, randomness, comm_r_old, comm_d_new, comm_r_new;
  uint64_t sector_index = 0, partition = 0, h = 0;
};

// The verifier's verdict on a proof that could be read (exit 0 or 1); an
// error status instead is about the input (unreadable, malformed: exit 2).
struct Verdict {
  Status result;
};

StatusOr<Verdict> check_vanilla(const VanillaArgs& a) {
  ASSIGN_OR_RETURN(std::string bytes, read_whole_file(a.file));
  const ByteSpan span(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  if (a.kind == "porep") {
    // Curio's envelope or the bare C1 output.
    std::string c1_text = bytes;
    if (bytes.find("\"Phase1Out\"") != std::string::npos) {
      ASSIGN_OR_RETURN(fc::C1Envelope env, fc::parse_c1_envelope(bytes));
      c1_text = std::move(env.phase1_out);
    }
    ASSIGN_OR_RETURN(fc::SealCommitPhase1Output c1, fc::parse_c1_output(c1_text));
    ASSIGN_OR_RETURN(fc::SealProofInfo info, parse_seal_proof(a.proof_type.empty() ? c1.registered_proof : a.proof_type));
    return Verdict{fc::verify_porep_vanilla(info, c1)};
  }
  if (a.kind == "post") {
    ASSIGN_OR_RETURN(fc::PoStProofInfo info, parse_post_proof(a.proof_type));
    ASSIGN_OR_RETURN(fc::Node randomness, parse_node_hex(a.randomness, "--randomness"));
    ASSIGN_OR_RETURN(fc::FallbackPoStSectorProof p, fc::decode_post_sector_proof(span));
    return Verdict{fc::verify_post_sector_proof(info, randomness, p, a.sector_index)};
  }
  if (a.kind == "snap") {
    ASSIGN_OR_RETURN(fc::UpdateProofInfo info, parse_update_proof(a.proof_type));
    ASSIGN_OR_RETURN(fc::Node r_old, parse_commitment(a.comm_r_old, fc::CommitmentKind::kSealed, "--comm-r-old"));
    ASSIGN_OR_RETURN(fc::Node d_new, parse_commitment(a.comm_d_new, fc::CommitmentKind::kUnsealed, "--comm-d-new"));
    ASSIGN_OR_RETURN(fc::Node r_new, parse_commitment(a.comm_r_new, fc::CommitmentKind::kSealed, "--comm-r-new"));
    ASSIGN_OR_RETURN(fc::SnapPartitionProof p, fc::decode_snap_partition_proof(span));
    return Verdict{fc::verify_snap_partition(info, a.partition, a.h ? a.h : info.h, r_old, d_new, r_new, p)};
  }
  return invalid_argument("--kind must be porep, post or snap");
}

void add_check_vanilla(CLI::App& fil, Runner* runner) {
  auto a = std::make_shared<VanillaArgs>();
  auto* cmd = fil.add_subcommand("check-vanilla",
                                 "Run the reference vanilla verifier on a vanilla proof: exit 0 valid, 1 invalid, 2 unreadable");
  cmd->add_option("--kind", a->kind, "porep (C1 output JSON or Curio's envelope), post (bincode) or snap (bincode)")->required();
  cmd->add_option("file", a->file, "The vanilla proof")->required();
  cmd->add_option("--registered-proof", a->proof_type, "Proof type, number or name (porep: default from the file)");
  cmd->add_option("--randomness", a->randomness, "post: PoSt randomness, 64 hex digits");
  cmd->add_option("--sector-index", a->sector_index, "post: the sector's position in the PoSt (default 0)");
  cmd->add_option("--partition", a->partition, "snap: partition index k");
  cmd->add_option("--h", a->h, "snap: h (default: the sector size's)");
  cmd->add_option("--comm-r-old", a->comm_r_old, "snap: comm_r before the update");
  cmd->add_option("--comm-d-new", a->comm_d_new, "snap: comm_d of the new data");
  cmd->add_option("--comm-r-new", a->comm_r_new, "snap: comm_r after the update");
  cmd->callback([runner, a] {
    *runner = [a] {
      auto verdict = check_vanilla(*a);
      if (!verdict.ok()) return fail("filecoin check-vanilla", verdict.status());
      if (verdict->result.ok()) {
        std::printf("OK: the vanilla proof is valid\n");
        return kExitOk;
      }
      std::printf("INVALID: %s\n", verdict->result.message().c_str());
      return kExitInvalid;
    };
  });
}

}  // namespace

void add_filecoin_commands(CLI::App& app, Runner* runner) {
  auto* fil = app.add_subcommand("filecoin", "Filecoin proofs: verify SNARKs, check vanilla proofs, make test sectors");
  fil->require_subcommand(1);
  add_verify_seal(*fil, runner);
  add_verify_post(*fil, runner, /*window=*/true);
  add_verify_post(*fil, runner, /*window=*/false);
  add_verify_snap(*fil, runner);
  add_check_vanilla(*fil, runner);
  add_filecoin_dev_commands(*fil, runner);
}

}  // namespace cuzk::app
