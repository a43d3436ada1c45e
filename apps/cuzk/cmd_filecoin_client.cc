// `cuzk filecoin prove --addr A`: sends a Filecoin request to the daemon the
// way Curio does (SubmitProof with the vanilla proof(s)) and writes the
// returned proof bytes (192 per partition, in partition order).
#include <cstdio>
#include <memory>

#include "cli_util.h"
#include "commands.h"
#include "cuzk/base/mapped_file.h"
#include "cuzk/engine/filecoin.h"
#include "cuzk/filecoin/cs/circuits.h"
#include "cuzk/r1cs/witness_stats.h"
#include "cuzk/server/client.h"
#include "daemon_client_util.h"
#include "filecoin_cli.h"

namespace cuzk::app {
namespace {

struct ProveArgs {
  std::string addr, kind, proof_type, out, randomness, comm_r_old, comm_r_new, comm_d_new, request_id, sector_size;
  std::vector<std::string> vanilla;
  uint64_t sector_number = 0, miner_id = 0;
  uint32_t partition = 0;
  bool witness_stats = false;  // check: how partition 0's values fall into the split MSMs' classes
};

std::string kind_flag(engine::ProofKind k) {
  switch (k) {
    case engine::ProofKind::kPorepSealCommit: return "porep";
    case engine::ProofKind::kSnapDealsUpdate: return "snap-deals";
    case engine::ProofKind::kWindowPostPartition: return "window-post";
    default: return "winning-post";
  }
}

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

const char* kind_words(engine::ProofKind k) {
  switch (k) {
    case engine::ProofKind::kPorepSealCommit: return "a PoRep (seal)";
    case engine::ProofKind::kSnapDealsUpdate: return "a SnapDeals (sector update)";
    case engine::ProofKind::kWindowPostPartition: return "a Window PoSt";
    default: return "a Winning PoSt";
  }
}

// What kind of proof type `text` names, when it names one of another table:
// "StackedDrgWinning2KiBV1 is a Winning PoSt proof type".
std::string other_kind(const std::string& text) {
  if (auto p = parse_post_proof(text); p.ok())
    return std::string(p->name) + (p->kind == filecoin::PoStKind::kWindow ? " is a Window PoSt" : " is a Winning PoSt");
  if (auto u = parse_update_proof(text); u.ok()) return std::string(u->name) + " is a SnapDeals (update) proof type";
  if (auto p = parse_seal_proof(text); p.ok()) return std::string(p->name) + " is a PoRep (seal)";
  return "";
}

// The registered proof's number and sector size, from a number or a name of
// the kind's table. (Numbers overlap between the tables: a number is read in
// the table of --kind.)
StatusOr<std::pair<uint64_t, uint64_t>> proof_of_kind(engine::ProofKind kind, const std::string& text) {
  auto wrong = [&](const Status& s) -> Status {
    const std::string other = other_kind(text);
    if (other.empty()) return s.with_context("--registered-proof");
    return invalid_argument("--registered-proof: " + other + " proof type; --kind " + kind_flag(kind) + " takes " +
                            kind_words(kind) + " one");
  };
  if (kind == engine::ProofKind::kPorepSealCommit) {
    auto i = parse_seal_proof(text);
    if (!i.ok()) return wrong(i.status());
    return std::make_pair(i->registered_proof, i->sector_bytes);
  }
  if (kind == engine::ProofKind::kSnapDealsUpdate) {
    auto i = parse_update_proof(text);
    if (!i.ok()) return wrong(i.status());
    return std::make_pair(i->registered_proof, i->sector_bytes);
  }
  auto i = parse_post_proof(text);
  if (!i.ok()) return wrong(i.status());
  const bool window = kind == engine::ProofKind::kWindowPostPartition;
  if ((i->kind == filecoin::PoStKind::kWindow) != window)
    return invalid_argument("--registered-proof: " + std::string(i->name) + (window ? " is a Winning" : " is a Window") +
                            " PoSt proof type; --kind " + kind_flag(kind) + " takes " + kind_words(kind) + " one");
  return std::make_pair(i->registered_proof, i->sector_bytes);
}

bool looks_like_json(const std::string& bytes) {
  for (char ch : bytes) {
    if (ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t') continue;
    return ch == '{';
  }
  return false;
}

// What the daemon would refuse or fail on, found before anything is sent:
// the files --kind takes and the values it needs.
Status check_request(engine::ProofKind kind, const ProveArgs& a, const std::vector<std::string>& files) {
  const std::string k = "--kind " + a.kind;
  if (kind == engine::ProofKind::kPorepSealCommit) {
    if (files.size() != 1)
      return invalid_argument(k + " takes one --vanilla file (the C1 output JSON or Curio's envelope), not " +
                              std::to_string(files.size()));
    if (!looks_like_json(files[0]))
      return invalid_argument(a.vanilla[0] + " is not JSON; " + k + " takes the C1 output JSON or Curio's envelope");
    return ok_status();
  }
  for (size_t i = 0; i < files.size(); ++i)
    if (looks_like_json(files[i]))
      return invalid_argument(a.vanilla[i] + " is JSON (a C1 output?); " + k + " takes " +
                              (kind == engine::ProofKind::kSnapDealsUpdate
                                   ? "the bincode PartitionProof files, one per partition"
                                   : "the bincode FallbackPoStSectorProof files, one per sector"));
  if (kind == engine::ProofKind::kSnapDealsUpdate) {
    if (a.comm_r_old.empty() || a.comm_r_new.empty() || a.comm_d_new.empty())
      return invalid_argument(k + " needs --comm-r-old, --comm-r-new and --comm-d-new (64 hex digits each)");
    return ok_status();
  }
  if (a.randomness.empty())
    return invalid_argument(k + " needs --randomness (the PoSt's challenge randomness, 64 hex digits)");
  if (kind == engine::ProofKind::kWinningPost && files.size() != 1)
    return invalid_argument(k + " takes one --vanilla file (the challenged sector's proof), not " +
                            std::to_string(files.size()));
  return ok_status();
}

StatusOr<server::SubmitArgs> submit_args(const ProveArgs& a) {
  server::SubmitArgs s;
  ASSIGN_OR_RETURN(s.kind, kind_of(a.kind));
  s.request_id = a.request_id;
  auto f = std::make_shared<engine::FilecoinRequest>();
  ASSIGN_OR_RETURN(auto proof, proof_of_kind(s.kind, a.proof_type));
  f->registered_proof = proof.first;
  f->sector_size = proof.second;
  if (!a.sector_size.empty()) {
    ASSIGN_OR_RETURN(f->sector_size, parse_sector_size(a.sector_size));
    if (f->sector_size != proof.second)
      return invalid_argument("--sector-size " + a.sector_size + " is not the size of " + a.proof_type + " (" +
                              std::to_string(proof.second) + " bytes); leave it out to use the proof type's");
  }
  std::vector<std::string> files;
  for (const std::string& path : a.vanilla) {
    ASSIGN_OR_RETURN(std::string bytes, read_whole_file(path));
    files.push_back(std::move(bytes));
  }
  RETURN_IF_ERROR(check_request(s.kind, a, files));
  for (std::string& bytes : files) {
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
  auto client = server::Client::connect(resolve_addr(a.addr), std::chrono::seconds(10));
  // The daemon's answers: exit 2 only for what it calls bad input.
  if (!client.ok()) return fail("filecoin prove", client.status(), exit_code_for(client.status()));
  // Says the job id at submit and waits for the job to end; Ctrl-C cancels it.
  auto result = submit_and_await(**client, *args, /*quiet=*/false);
  if (!result.ok()) return fail("filecoin prove", result.status(), exit_code_for(result.status()));
  if (result->outcome == engine::JobOutcome::kCancelled && interrupted()) return kExitInterrupted;
  if (result->outcome != engine::JobOutcome::kCompleted) {
    std::fprintf(stderr, "cuzk filecoin prove: %s %s: %s\n", result->job_id.c_str(),
                 std::string(engine::job_outcome_name(result->outcome)).c_str(), result->error_message.c_str());
    return kExitInvalid;
  }
  const std::string& p = result->proof;
  Status w = write_file(a.out, ByteSpan(reinterpret_cast<const uint8_t*>(p.data()), p.size()));
  if (!w.ok()) return fail("filecoin prove", w);
  std::printf("%s: %zu partition proof(s) written to %s (synthesis %lu ms, compute %lu ms, total %lu ms)\n",
              result->job_id.c_str(), p.size() / 192, a.out.c_str(), result->timings.synthesis_ms,
              result->timings.compute_ms, result->timings.total_ms);
  return kExitOk;
}

// Partition 0's witness by query (L: the aux; A and B: their density's
// variables), as the GPU prover's 0/1 split sees it: zeros, ones and the
// tail, the tail by the bit length of its canonical values.
Status print_witness_stats(engine::ProofKind kind, const engine::FilecoinWork& work) {
  ASSIGN_OR_RETURN(filecoin::snark::CircuitKind ck,
                   filecoin::snark::parse_circuit_kind(engine::filecoin_circuit_kind(kind)));
  ASSIGN_OR_RETURN(filecoin::snark::FilecoinCircuit circuit,
                   filecoin::snark::FilecoinCircuit::create(ck, work.sector_bytes()));
  ASSIGN_OR_RETURN(r1cs::CircuitShape shape, filecoin::snark::circuit_shape(circuit));
  ASSIGN_OR_RETURN(filecoin::snark::CircuitFacts facts, filecoin::snark::circuit_facts(circuit));
  CommandPool pool(0);
  ASSIGN_OR_RETURN(std::vector<ff::Fr> w, work.witness(0, pool.get(), shape));
  ASSIGN_OR_RETURN(r1cs::QueryValueClasses q, r1cs::classify_query_values(facts.density, w, shape.num_inputs, pool.get()));
  std::printf("partition 0: %lu values (%lu inputs with ONE); tail by bits: <=32 <=64 <=128 <=192 <=255\n",
              (unsigned long)w.size(), (unsigned long)shape.num_inputs);
  for (const auto& [name, v] : {std::pair{"L", &q.l}, {"A", &q.a}, {"B", &q.b}}) {
    auto pct = [&](uint64_t x) { return v->positions ? 100.0 * double(x) / double(v->positions) : 0.0; };
    std::printf("%s: %lu positions, zeros %lu (%.1f%%), ones %lu (%.1f%%), tail %lu (%.1f%%):", name,
                (unsigned long)v->positions, (unsigned long)v->zeros, pct(v->zeros), (unsigned long)v->ones,
                pct(v->ones), (unsigned long)v->tail(), pct(v->tail()));
    for (uint64_t c : v->tail_by_bits) std::printf(" %lu", (unsigned long)c);
    std::printf("\n");
  }
  return ok_status();
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
  if (a.witness_stats) {
    Status s = print_witness_stats(args->kind, **work);
    if (!s.ok()) return fail("filecoin check", s);
  }
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
  cmd->add_option("--sector-size", a->sector_size, "Sector size: 2KiB, 32GiB or bytes (default: the registered proof's)");
}

}  // namespace

void add_filecoin_client_commands(CLI::App& filecoin, Runner* runner) {
  auto c = std::make_shared<ProveArgs>();
  auto* check = filecoin.add_subcommand(
      "check", "Synthesize a vanilla proof's circuits and check every row (names the first violated one): exit 0/1/2");
  add_vanilla_options(check, c.get());
  check->add_flag("--witness-stats", c->witness_stats,
                  "Then say how partition 0's witness falls into the GPU prover's classes per query (zeros, ones, "
                  "the rest by bit length)");
  check->callback([runner, c] { *runner = [c] { return run_check(*c); }; });

  auto a = std::make_shared<ProveArgs>();
  auto* cmd = filecoin.add_subcommand("prove", "Prove a Filecoin vanilla proof through the daemon, as Curio does");
  cmd->add_option("--addr", a->addr,
                  "Daemon address: unix:///path or host:port (default: $CUZK_ADDR, else the default socket)");
  add_vanilla_options(cmd, a.get());
  cmd->add_option("--out", a->out, "Output file for the proof bytes")->required();
  cmd->add_option("--sector-number", a->sector_number, "Sector number (informational)");
  cmd->add_option("--miner-id", a->miner_id, "Miner id (informational)");
  cmd->add_option("--request-id", a->request_id, "Idempotency key");
  cmd->callback([runner, a] { *runner = [a] { return run_prove(*a); }; });
}

}  // namespace cuzk::app
