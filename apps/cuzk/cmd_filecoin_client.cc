// `cuzk filecoin prove --addr A`: sends a Filecoin request to the daemon the
// way Curio does (SubmitProof with the vanilla proof(s)) and writes the
// returned proof bytes (192 per partition, in partition order).
#include <cstdio>
#include <memory>

#include "cli_util.h"
#include "commands.h"
#include "cuzk/base/mapped_file.h"
#include "cuzk/engine/filecoin.h"
#include "cuzk/server/client.h"
#include "filecoin_cli.h"

namespace cuzk::app {
namespace {

struct ProveArgs {
  std::string addr, kind, proof_type, out, randomness, comm_r_old, comm_r_new, comm_d_new, request_id;
  std::vector<std::string> vanilla;
  uint64_t sector_size = 0, sector_number = 0, miner_id = 0;
  uint32_t partition = 0;
  uint64_t timeout_s = 3600;
};

StatusOr<engine::ProofKind> kind_of(const std::string& k) {
  if (k == "porep") return engine::ProofKind::kPorepSealCommit;
  if (k == "snap-deals") return engine::ProofKind::kSnapDealsUpdate;
  if (k == "window-post") return engine::ProofKind::kWindowPostPartition;
  if (k == "winning-post") return engine::ProofKind::kWinningPost;
  return invalid_argument("--kind: \"" + k + "\" is not one of porep, snap-deals, window-post, winning-post");
}

StatusOr<std::string> raw_node(const std::string& hex, const char* what) {
  if (hex.empty()) return std::string();
  ASSIGN_OR_RETURN(filecoin::Node n, parse_node_hex(hex, what));
  return std::string(n.begin(), n.end());
}

// The registered proof's number, from a number or a name of the kind's table.
StatusOr<uint64_t> proof_id(engine::ProofKind kind, const std::string& text) {
  if (kind == engine::ProofKind::kPorepSealCommit) {
    ASSIGN_OR_RETURN(filecoin::SealProofInfo i, parse_seal_proof(text));
    return i.registered_proof;
  }
  if (kind == engine::ProofKind::kSnapDealsUpdate) {
    ASSIGN_OR_RETURN(filecoin::UpdateProofInfo i, parse_update_proof(text));
    return i.registered_proof;
  }
  ASSIGN_OR_RETURN(filecoin::PoStProofInfo i, parse_post_proof(text));
  return i.registered_proof;
}

StatusOr<server::SubmitArgs> submit_args(const ProveArgs& a) {
  server::SubmitArgs s;
  ASSIGN_OR_RETURN(s.kind, kind_of(a.kind));
  s.request_id = a.request_id;
  auto f = std::make_shared<engine::FilecoinRequest>();
  f->sector_size = a.sector_size;
  ASSIGN_OR_RETURN(f->registered_proof, proof_id(s.kind, a.proof_type));
  for (const std::string& path : a.vanilla) {
    ASSIGN_OR_RETURN(std::string bytes, read_whole_file(path));
    if (s.kind == engine::ProofKind::kPorepSealCommit) f->vanilla_proof = std::move(bytes);
    else f->vanilla_proofs.push_back(std::move(bytes));
  }
  f->sector_number = a.sector_number;
  f->miner_id = a.miner_id;
  f->partition_index = a.partition;
  ASSIGN_OR_RETURN(f->randomness, raw_node(a.randomness, "--randomness"));
  ASSIGN_OR_RETURN(f->comm_r_old, raw_node(a.comm_r_old, "--comm-r-old"));
  ASSIGN_OR_RETURN(f->comm_r_new, raw_node(a.comm_r_new, "--comm-r-new"));
  ASSIGN_OR_RETURN(f->comm_d_new, raw_node(a.comm_d_new, "--comm-d-new"));
  s.filecoin = std::move(f);
  return s;
}

int run_prove(const ProveArgs& a) {
  auto args = submit_args(a);
  if (!args.ok()) return fail("filecoin prove", args.status());
  auto client = server::Client::connect(a.addr, std::chrono::seconds(10));
  if (!client.ok()) return fail("filecoin prove", client.status());
  auto submitted = (*client)->submit(*args);
  if (!submitted.ok()) return fail("filecoin prove", submitted.status());
  auto result = (*client)->await(submitted->job_id, a.timeout_s * 1000);
  if (!result.ok()) return fail("filecoin prove", result.status());
  if (result->outcome != engine::JobOutcome::kCompleted) {
    std::fprintf(stderr, "cuzk filecoin prove: %s %s: %s\n", submitted->job_id.c_str(),
                 std::string(engine::job_outcome_name(result->outcome)).c_str(), result->error_message.c_str());
    return kExitInvalid;
  }
  const std::string& p = result->proof;
  Status w = write_file(a.out, ByteSpan(reinterpret_cast<const uint8_t*>(p.data()), p.size()));
  if (!w.ok()) return fail("filecoin prove", w);
  std::printf("%s: %zu partition proof(s) written to %s (synthesis %lu ms, compute %lu ms, total %lu ms)\n",
              submitted->job_id.c_str(), p.size() / 192, a.out.c_str(), result->timings.synthesis_ms,
              result->timings.compute_ms, result->timings.total_ms);
  return kExitOk;
}

// Every partition's circuit checked row by row from the vanilla proof(s).
int run_check(const ProveArgs& a) {
  auto args = submit_args(a);
  if (!args.ok()) return fail("filecoin check", args.status());
  auto work = engine::decode_filecoin_request(args->kind, *args->filecoin);
  if (!work.ok()) return fail("filecoin check", work.status());
  for (size_t k = 0; k < (*work)->partitions(); ++k) {
    Status s = (*work)->check(k);
    if (!s.ok()) {
      std::printf("NOT SATISFIED: %s\n", s.message().c_str());
      return kExitInvalid;
    }
  }
  std::printf("OK: %zu partition(s); every row holds and the public inputs are the parameters'\n",
              (*work)->partitions());
  return kExitOk;
}

void add_vanilla_options(CLI::App* cmd, ProveArgs* a) {
  cmd->add_option("--kind", a->kind, "porep, snap-deals, window-post or winning-post")->required();
  cmd->add_option("--registered-proof", a->proof_type, "Registered proof, number or name")->required();
  cmd->add_option("--vanilla", a->vanilla,
                  "Vanilla proof file(s): porep C1 output or Curio's envelope; PoSt sector proofs (one per sector); "
                  "SnapDeals partition proofs (one per partition, in order)")
      ->required();
  cmd->add_option("--randomness", a->randomness, "PoSt randomness, 64 hex digits");
  cmd->add_option("--partition", a->partition, "Window PoSt partition index");
  cmd->add_option("--comm-r-old", a->comm_r_old, "SnapDeals: comm_r before the update, 64 hex digits");
  cmd->add_option("--comm-r-new", a->comm_r_new, "SnapDeals: comm_r after the update");
  cmd->add_option("--comm-d-new", a->comm_d_new, "SnapDeals: comm_d of the new data");
  cmd->add_option("--sector-size", a->sector_size, "Sector size in bytes (default: the registered proof's)");
}

}  // namespace

void add_filecoin_client_commands(CLI::App& filecoin, Runner* runner) {
  auto c = std::make_shared<ProveArgs>();
  auto* check = filecoin.add_subcommand(
      "check", "Synthesize a vanilla proof's circuits and check every row (names the first violated one): exit 0/1/2");
  add_vanilla_options(check, c.get());
  check->callback([runner, c] { *runner = [c] { return run_check(*c); }; });

  auto a = std::make_shared<ProveArgs>();
  auto* cmd = filecoin.add_subcommand("prove", "Prove a Filecoin vanilla proof through the daemon, as Curio does");
  cmd->add_option("--addr", a->addr, "Daemon address: unix:///path or host:port")->required();
  add_vanilla_options(cmd, a.get());
  cmd->add_option("--out", a->out, "Output file for the proof bytes")->required();
  cmd->add_option("--sector-number", a->sector_number, "Sector number (informational)");
  cmd->add_option("--miner-id", a->miner_id, "Miner id (informational)");
  cmd->add_option("--request-id", a->request_id, "Idempotency key");
  cmd->add_option("--timeout", a->timeout_s, "Seconds to wait for the proof (default 3600)");
  cmd->callback([runner, a] { *runner = [a] { return run_prove(*a); }; });
}

}  // namespace cuzk::app
