// `cuzk filecoin seal` and `cuzk filecoin dev-prove`: test inputs without a
// Filecoin node.
//   seal       seals a small sector (2 KiB, 8 MiB) in memory and writes the
//              replica, its C1 output (bare and in Curio's envelope), PoSt
//              vanilla proofs and a SnapDeals update, plus seal.env with
//              every commitment (shell KEY=value lines).
//   dev-prove  an INSECURE stand-in for the real circuits: a dev key and
//              proofs for a circuit whose only job is to carry the given
//              public inputs, so the verify-* commands can be exercised end
//              to end (the real circuits live in the constraint-system layer).
#include <sys/stat.h>

#include <cstdio>
#include <memory>

#include "cli_util.h"
#include "commands.h"
#include "cuzk/base/mapped_file.h"
#include "cuzk/filecoin/bincode.h"
#include "cuzk/filecoin/c1_json.h"
#include "cuzk/filecoin/vanilla_produce.h"
#include "cuzk/groth16/prover.h"
#include "cuzk/groth16/setup.h"
#include "cuzk/io/bellperson.h"
#include "cuzk/io/snarkjs_json.h"
#include "filecoin_cli.h"

namespace cuzk::app {

namespace fc = cuzk::filecoin;

namespace {

struct SealCmdArgs {
  std::string proof_type = "StackedDrg2KiBV1_1", data, prover_id, ticket, seed, out, post_randomness;
  int64_t miner_id = -1;
  uint64_t sector = 1;
  bool snap = false;
};

StatusOr<std::vector<uint8_t>> sector_data(const SealCmdArgs& a, uint64_t bytes) {
  if (!a.data.empty()) {
    ASSIGN_OR_RETURN(std::string d, read_whole_file(a.data));
    return std::vector<uint8_t>(d.begin(), d.end());
  }
  std::vector<uint8_t> d;
  for (uint64_t i = 0; i < bytes / 32; ++i) {
    const fc::Node n = random_node();
    d.insert(d.end(), n.begin(), n.end());
  }
  return d;
}

Status write_bytes(const std::string& path, ByteSpan b) { return write_file(path, b); }

Status write_nodes(const std::string& path, const std::vector<fc::Node>& nodes) {
  std::vector<uint8_t> b;
  for (const fc::Node& n : nodes) b.insert(b.end(), n.begin(), n.end());
  return write_bytes(path, b);
}

struct Env {
  std::string text;
  void put(const std::string& k, const std::string& v) { text += k + "=" + v + "\n"; }
  void put(const std::string& k, const fc::Node& n) { put(k, fc::node_to_hex(n)); }
};

Status write_post(const SealCmdArgs& a, const fc::SealProofInfo& info, const fc::SealedSector& s, Env* env) {
  ASSIGN_OR_RETURN(fc::Node randomness, parse_node_hex(a.post_randomness, "--post-randomness"));
  const uint64_t size_index = info.registered_proof % 5;
  ASSIGN_OR_RETURN(fc::PoStProofInfo window, fc::post_proof_info(10 + size_index));  // StackedDrgWindow*V1_2
  ASSIGN_OR_RETURN(fc::PoStProofInfo winning, fc::post_proof_info(size_index));      // StackedDrgWinning*V1
  const auto w = fc::produce_post_sector_proof(window, s, a.sector, randomness, 0);
  RETURN_IF_ERROR(write_bytes(a.out + "/post-window.vproof", fc::encode_post_sector_proof(w)));
  const auto win = fc::produce_post_sector_proof(winning, s, a.sector, randomness, 0);
  RETURN_IF_ERROR(write_bytes(a.out + "/post-winning.vproof", fc::encode_post_sector_proof(win)));
  env->put("WINDOW_POST_PROOF", std::string(window.name));
  env->put("WINNING_POST_PROOF", std::string(winning.name));
  env->put("POST_RANDOMNESS", randomness);
  return ok_status();
}

Status write_snap(const SealCmdArgs& a, const fc::SealProofInfo& info, const fc::SealedSector& s, Env* env) {
  ASSIGN_OR_RETURN(fc::UpdateProofInfo u, fc::update_proof_info(info.registered_proof % 5));
  SealCmdArgs random_data = a;
  random_data.data.clear();
  ASSIGN_OR_RETURN(std::vector<uint8_t> data, sector_data(random_data, info.sector_bytes));
  ASSIGN_OR_RETURN(fc::SnapUpdate update, fc::snap_encode(u, s, data));
  RETURN_IF_ERROR(write_bytes(a.out + "/snap-data.dat", data));
  RETURN_IF_ERROR(write_nodes(a.out + "/snap-sealed.dat", update.replica_new));
  for (uint64_t k = 0; k < uint64_t(u.partitions); ++k) {
    const auto p = fc::produce_snap_partition_proof(u, s, update, k);
    RETURN_IF_ERROR(write_bytes(a.out + "/snap-partition-" + std::to_string(k) + ".bin", fc::encode_snap_partition_proof(p)));
  }
  env->put("UPDATE_PROOF", std::string(u.name));
  env->put("SNAP_PARTITIONS", std::to_string(u.partitions));
  env->put("COMM_D_NEW", update.comm_d_new);
  env->put("COMM_R_NEW", update.comm_r_new);
  return ok_status();
}

Status run_seal(const SealCmdArgs& a) {
  ASSIGN_OR_RETURN(fc::SealProofInfo info, parse_seal_proof(a.proof_type));
  if (info.sector_bytes > (uint64_t(8) << 20))
    return invalid_argument(std::string(info.name) + ": seal holds sectors in memory; use 2 KiB or 8 MiB");
  fc::SealInputs in;
  in.sector_bytes = info.sector_bytes;
  in.layers = info.layers;
  in.porep_id = info.porep_id;
  in.api = info.api;
  in.sector_id = a.sector;
  ASSIGN_OR_RETURN(in.prover_id, parse_prover(a.prover_id, a.prover_id.empty() && a.miner_id < 0 ? 1000 : a.miner_id));
  in.ticket = random_node();
  if (!a.ticket.empty()) {
    ASSIGN_OR_RETURN(in.ticket, parse_node_hex(a.ticket, "--ticket"));
  }
  fc::Node seed = random_node();
  if (!a.seed.empty()) {
    ASSIGN_OR_RETURN(seed, parse_node_hex(a.seed, "--seed"));
  }
  ASSIGN_OR_RETURN(std::vector<uint8_t> data, sector_data(a, info.sector_bytes));
  ASSIGN_OR_RETURN(fc::SealedSector s, fc::seal_sector(in, data));

  ::mkdir(a.out.c_str(), 0755);
  RETURN_IF_ERROR(write_bytes(a.out + "/unsealed.dat", data));
  RETURN_IF_ERROR(write_nodes(a.out + "/sealed.dat", s.replica));
  const fc::SealCommitPhase1Output c1 = fc::produce_seal_commit_phase1(info, s, seed, in.ticket);
  const std::string c1_json = fc::c1_output_to_json(c1);
  RETURN_IF_ERROR(write_text_file(a.out + "/c1.json", c1_json));
  RETURN_IF_ERROR(write_text_file(a.out + "/c1-envelope.json",
                                  fc::c1_envelope_to_json({int64_t(a.sector), info.sector_bytes, c1_json})));
  Env env;
  env.put("SEAL_PROOF", std::string(info.name));
  env.put("POREP_ID", fc::Node(info.porep_id));
  env.put("SECTOR", std::to_string(a.sector));
  env.put("PROVER_ID", in.prover_id);
  env.put("TICKET", in.ticket);
  env.put("SEED", seed);
  env.put("REPLICA_ID", s.replica_id);
  env.put("COMM_D", s.comm_d);
  env.put("COMM_C", s.comm_c);
  env.put("COMM_R_LAST", s.comm_r_last);
  env.put("COMM_R", s.comm_r);
  env.put("UNSEALED_CID", fc::commitment_to_cid(fc::CommitmentKind::kUnsealed, s.comm_d));
  env.put("SEALED_CID", fc::commitment_to_cid(fc::CommitmentKind::kSealed, s.comm_r));
  if (!a.post_randomness.empty()) RETURN_IF_ERROR(write_post(a, info, s, &env));
  if (a.snap) RETURN_IF_ERROR(write_snap(a, info, s, &env));
  RETURN_IF_ERROR(write_text_file(a.out + "/seal.env", env.text));
  std::printf("%s", env.text.c_str());
  return ok_status();
}

// ---- dev-prove ----

struct DevProveArgs {
  std::vector<std::string> publics;
  std::string vk, proof;
  uint64_t seed = 0;
  bool seed_given = false;
};

// x_i · 1 = x_i for every public input, and x_1 · 1 = w for one aux variable
// w: a circuit satisfied by any inputs, whose key binds them through IC.
StatusOr<r1cs::Circuit> carrier_circuit(size_t n_inputs) {
  r1cs::CircuitBuilder b(1 + n_inputs, 1);
  const ff::Fr one = ff::Fr::one();
  for (size_t i = 1; i <= n_inputs; ++i) {
    const r1cs::LinTerm x{i, one}, o{0, one};
    RETURN_IF_ERROR(b.add_row(r1cs::LinComb(&x, 1), r1cs::LinComb(&o, 1), r1cs::LinComb(&x, 1)));
  }
  const r1cs::LinTerm x{1, one}, o{0, one}, w{1 + n_inputs, one};
  RETURN_IF_ERROR(b.add_row(r1cs::LinComb(&x, 1), r1cs::LinComb(&o, 1), r1cs::LinComb(&w, 1)));
  return std::move(b).build();
}

Status run_dev_prove(const DevProveArgs& a) {
  if (!a.seed_given) return invalid_argument("--dev-seed N is required: this is an INSECURE development setup");
  std::vector<std::vector<ff::Fr>> inputs;
  for (const std::string& p : a.publics) {
    auto in = io::read_public_json(p);
    if (!in.ok()) return in.status().with_context(p);
    if (in->empty() || (!inputs.empty() && in->size() != inputs[0].size()))
      return invalid_argument(p + ": every partition needs the same, non-zero number of inputs");
    inputs.push_back(std::move(in).value());
  }
  if (inputs.empty()) return invalid_argument("give --public FILE (one per partition)");
  ASSIGN_OR_RETURN(r1cs::Circuit circuit, carrier_circuit(inputs[0].size()));
  ASSIGN_OR_RETURN(groth16::ProvingKey pk,
                   groth16::dev_setup(circuit, {.layout = groth16::KeyLayout::kBellperson, .seed = a.seed}));
  auto backend = groth16::make_cpu_backend();
  std::vector<groth16::Proof> proofs;
  for (const auto& in : inputs) {
    std::vector<ff::Fr> witness = {ff::Fr::one()};
    witness.insert(witness.end(), in.begin(), in.end());
    witness.push_back(in[0]);
    ASSIGN_OR_RETURN(groth16::Proof p, groth16::prove(pk, circuit, witness, groth16::Blinding::random(), *backend));
    proofs.push_back(p);
  }
  RETURN_IF_ERROR(io::write_vk(a.vk, pk.vk));
  RETURN_IF_ERROR(io::write_proofs(a.proof, proofs));
  std::printf("wrote an INSECURE dev key (%zu public inputs) to %s and %zu proof(s) to %s\n", inputs[0].size(),
              a.vk.c_str(), proofs.size(), a.proof.c_str());
  return ok_status();
}

}  // namespace

void add_filecoin_dev_commands(CLI::App& fil, Runner* runner) {
  auto s = std::make_shared<SealCmdArgs>();
  auto* seal = fil.add_subcommand("seal", "Seal a 2 KiB or 8 MiB sector in memory; write its replica, C1 output and "
                                          "(optionally) PoSt and SnapDeals vanilla proofs");
  seal->add_option("--registered-proof", s->proof_type, "Seal proof type (default StackedDrg2KiBV1_1)");
  seal->add_option("--data", s->data, "The sector's fr32-padded bytes (default: random field elements)");
  seal->add_option("--prover-id", s->prover_id, "Prover id, 64 hex digits");
  seal->add_option("--miner-id", s->miner_id, "Miner actor id (default 1000)");
  seal->add_option("--sector", s->sector, "Sector number (default 1)");
  seal->add_option("--ticket", s->ticket, "Ticket, 64 hex digits (default random)");
  seal->add_option("--seed", s->seed, "Interactive seed, 64 hex digits (default random)");
  seal->add_option("--post-randomness", s->post_randomness, "Also write Window and Winning PoSt vanilla proofs");
  seal->add_flag("--snap", s->snap, "Also update the sector with random data and write SnapDeals partition proofs");
  seal->add_option("--out", s->out, "Output directory")->required();
  seal->callback([runner, s] {
    *runner = [s] {
      Status st = run_seal(*s);
      return st.ok() ? kExitOk : fail("filecoin seal", st);
    };
  });

  auto d = std::make_shared<DevProveArgs>();
  auto* dev = fil.add_subcommand("dev-prove", "INSECURE, for testing: a dev key and proofs that carry given public inputs");
  dev->add_option("--public", d->publics, "public.json of each partition, in order (repeat)")->required();
  dev->add_option("--vk", d->vk, "Output verifying key (.vk)")->required();
  dev->add_option("--proof", d->proof, "Output proofs (192 bytes each)")->required();
  dev->add_option("--dev-seed", d->seed, "Seed of the toxic waste (required; makes the key insecure)")
      ->each([d](const std::string&) { d->seed_given = true; });
  dev->callback([runner, d] {
    *runner = [d] {
      Status st = run_dev_prove(*d);
      return st.ok() ? kExitOk : fail("filecoin dev-prove", st);
    };
  });
}

}  // namespace cuzk::app
