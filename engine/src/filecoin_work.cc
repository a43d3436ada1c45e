// Decoding of the Filecoin kinds' requests (cuzk/engine/filecoin.h).
#include <algorithm>
#include <span>
#include <string>

#include "cuzk/engine/filecoin.h"
#include "cuzk/filecoin/bincode.h"
#include "cuzk/filecoin/c1_json.h"
#include "cuzk/filecoin/cs/circuits.h"
#include "cuzk/filecoin/cs/vanilla_inputs.h"
#include "cuzk/filecoin/public_inputs.h"

namespace cuzk::engine {
namespace {

namespace fc = cuzk::filecoin;
namespace snark = cuzk::filecoin::snark;
using ff::Fr;

class Work : public FilecoinWork {
 public:
  Work(snark::FilecoinCircuit circuit, std::vector<snark::PartitionInputs> inputs, std::vector<std::vector<Fr>> publics)
      : circuit_(std::move(circuit)), inputs_(std::move(inputs)), publics_(std::move(publics)) {}

  uint64_t sector_bytes() const override { return circuit_.sector_bytes(); }
  size_t partitions() const override { return inputs_.size(); }
  const std::vector<Fr>& public_inputs(size_t k) const override { return publics_[k]; }

  StatusOr<std::vector<Fr>> witness(size_t k, ThreadPool* pool, const r1cs::CircuitShape& shape) const override {
    ASSIGN_OR_RETURN(std::vector<Fr> w, snark::generate_witness(circuit_, inputs_[k], pool, &shape));
    RETURN_IF_ERROR(compare_inputs(std::span<const Fr>(w).subspan(1, std::min<size_t>(w.size() - 1, shape.num_inputs - 1)), k));
    return w;
  }

  Status check(size_t k) const override {
    RETURN_IF_ERROR(circuit_.check(inputs_[k]));
    snark::RecordingCs cs({.check = true});
    circuit_.synthesize(cs, inputs_[k]);
    RETURN_IF_ERROR(cs.status());
    Status s = cs.satisfied();
    if (!s.ok()) return s.with_context(circuit_.name() + " partition " + std::to_string(k));
    std::vector<Fr> in;
    for (uint64_t i = 1; i < cs.num_inputs(); ++i) in.push_back(cs.value(snark::Var::input(i)));
    return compare_inputs(in, k);
  }

 private:
  // The inputs the circuit allocated against the public parameters'.
  Status compare_inputs(std::span<const Fr> got, size_t k) const {
    const std::vector<Fr>& pub = publics_[k];
    if (got.size() != pub.size()) {
      return invalid_argument(circuit_.name() + ": the circuit has " + std::to_string(got.size()) +
                              " public inputs, the public parameters give " + std::to_string(pub.size()));
    }
    for (size_t i = 0; i < pub.size(); ++i) {
      if (got[i] != pub[i]) {
        return invalid_argument(circuit_.name() + ": public input " + std::to_string(i) + " of the vanilla proof is " +
                                got[i].to_hex() + ", the public parameters give " + pub[i].to_hex() +
                                " (the vanilla proof does not answer this request's challenges)");
      }
    }
    return ok_status();
  }

  snark::FilecoinCircuit circuit_;
  std::vector<snark::PartitionInputs> inputs_;
  std::vector<std::vector<Fr>> publics_;
};

ByteSpan bytes_of(const std::string& s) { return ByteSpan(reinterpret_cast<const uint8_t*>(s.data()), s.size()); }

StatusOr<fc::Node> node_of(const std::string& s, const char* field) {
  if (s.size() != 32) return invalid_argument(std::string(field) + ": " + std::to_string(s.size()) + " bytes, expected 32");
  fc::Node n;
  std::copy(s.begin(), s.end(), n.begin());
  return n;
}

Status check_sector_size(const FilecoinRequest& r, uint64_t bytes, std::string_view proof_name) {
  if (r.sector_size == 0 || r.sector_size == bytes) return ok_status();
  return invalid_argument("sector_size " + std::to_string(r.sector_size) + " disagrees with registered_proof " +
                          std::to_string(r.registered_proof) + " (" + std::string(proof_name) + ": " +
                          std::to_string(bytes) + " bytes)");
}

// Curio's envelope {SectorNum, Phase1Out, SectorSize}, or the C1 JSON itself.
StatusOr<fc::SealCommitPhase1Output> parse_c1(const std::string& text) {
  if (text.find("\"Phase1Out\"") != std::string::npos) {
    ASSIGN_OR_RETURN(fc::C1Envelope env, fc::parse_c1_envelope(text));
    auto c1 = fc::parse_c1_output(env.phase1_out);
    if (!c1.ok()) return c1.status().with_context("vanilla_proof (Phase1Out)");
    return c1;
  }
  auto c1 = fc::parse_c1_output(text);
  if (!c1.ok()) return c1.status().with_context("vanilla_proof");
  return c1;
}

StatusOr<std::shared_ptr<const FilecoinWork>> decode_porep(const FilecoinRequest& r) {
  ASSIGN_OR_RETURN(fc::SealProofInfo info, fc::seal_proof_info(r.registered_proof));
  RETURN_IF_ERROR(check_sector_size(r, info.sector_bytes, info.name));
  ASSIGN_OR_RETURN(fc::SealCommitPhase1Output c1, parse_c1(r.vanilla_proof));
  if (c1.registered_proof != info.name) {
    return invalid_argument("vanilla_proof: registered_proof \"" + c1.registered_proof + "\" but the request's is " +
                            std::string(info.name));
  }
  if (c1.vanilla_proofs.size() != size_t(info.partitions)) {
    return invalid_argument("vanilla_proof: " + std::to_string(c1.vanilla_proofs.size()) + " partitions, " +
                            std::string(info.name) + " has " + std::to_string(info.partitions));
  }
  ASSIGN_OR_RETURN(snark::FilecoinCircuit circuit, snark::FilecoinCircuit::create(snark::CircuitKind::kPorep, info.sector_bytes));
  std::vector<snark::PartitionInputs> inputs;
  std::vector<std::vector<Fr>> publics;
  for (uint64_t k = 0; k < c1.vanilla_proofs.size(); ++k) {
    ASSIGN_OR_RETURN(snark::PorepPartition p, snark::porep_partition_from_c1(info, c1, k));
    inputs.emplace_back(std::move(p));
    ASSIGN_OR_RETURN(std::vector<Fr> pub, fc::porep_public_inputs(info, c1.replica_id, c1.comm_d, c1.comm_r, c1.seed, k));
    publics.push_back(std::move(pub));
  }
  return std::shared_ptr<const FilecoinWork>(std::make_shared<Work>(std::move(circuit), std::move(inputs), std::move(publics)));
}

StatusOr<std::vector<fc::FallbackPoStSectorProof>> decode_post_proofs(const FilecoinRequest& r) {
  std::vector<std::string> raw = r.vanilla_proofs;
  if (raw.empty() && !r.vanilla_proof.empty()) raw.push_back(r.vanilla_proof);
  if (raw.empty()) return invalid_argument("vanilla_proofs: a PoSt needs the sectors' vanilla proofs");
  std::vector<fc::FallbackPoStSectorProof> out;
  for (size_t i = 0; i < raw.size(); ++i) {
    auto p = fc::decode_post_sector_proof(bytes_of(raw[i]));
    if (!p.ok()) return p.status().with_context("vanilla_proofs[" + std::to_string(i) + "]");
    out.push_back(std::move(*p));
  }
  return out;
}

// FallbackPoStCompound::generate_public_inputs for one partition: per sector
// comm_r and its challenged leaves (sector index = partition·sector_count +
// i); the last sector's inputs repeated up to sector_count.
StatusOr<std::vector<Fr>> window_publics(const fc::PoStProofInfo& info, const fc::Node& randomness,
                                         const std::vector<fc::FallbackPoStSectorProof>& proofs, uint64_t k) {
  // As rust-fil-proofs (as_safe_commitment) and winning_post_public_inputs.
  RETURN_IF_ERROR(fc::fr_from_node(randomness, "randomness").status());
  std::vector<Fr> in;
  for (size_t i = 0; i < proofs.size(); ++i) {
    ASSIGN_OR_RETURN(Fr comm_r, fc::fr_from_node(proofs[i].comm_r, "vanilla_proofs[" + std::to_string(i) + "].comm_r"));
    in.push_back(comm_r);
    const uint64_t index = k * uint64_t(info.sector_count) + i;
    for (uint64_t leaf : fc::post_sector_leaf_challenges(info, randomness, proofs[i].sector_id, index))
      in.push_back(Fr::from_uint(leaf));
  }
  const size_t per = 1 + size_t(info.challenge_count);
  while (in.size() < per * size_t(info.sector_count)) {
    const std::vector<Fr> last(in.end() - ptrdiff_t(per), in.end());
    in.insert(in.end(), last.begin(), last.end());
  }
  return in;
}

StatusOr<std::shared_ptr<const FilecoinWork>> decode_post(ProofKind kind, const FilecoinRequest& r) {
  ASSIGN_OR_RETURN(fc::PoStProofInfo info, fc::post_proof_info(r.registered_proof));
  const bool winning = kind == ProofKind::kWinningPost;
  if ((info.kind == fc::PoStKind::kWinning) != winning) {
    return invalid_argument("registered_proof " + std::to_string(r.registered_proof) + " (" + std::string(info.name) +
                            ") is not a " + (winning ? "Winning" : "Window") + " PoSt proof");
  }
  RETURN_IF_ERROR(check_sector_size(r, info.sector_bytes, info.name));
  ASSIGN_OR_RETURN(fc::Node randomness, node_of(r.randomness, "randomness"));
  ASSIGN_OR_RETURN(std::vector<fc::FallbackPoStSectorProof> proofs, decode_post_proofs(r));
  ASSIGN_OR_RETURN(snark::PostPartition part, snark::post_partition_from_vanilla(info, proofs));
  std::vector<Fr> pub;
  if (winning) {
    ASSIGN_OR_RETURN(pub, fc::winning_post_public_inputs(info, randomness, {proofs[0].sector_id, proofs[0].comm_r}));
  } else {
    ASSIGN_OR_RETURN(pub, window_publics(info, randomness, proofs, r.partition_index));
  }
  ASSIGN_OR_RETURN(snark::FilecoinCircuit circuit,
                   snark::FilecoinCircuit::create(winning ? snark::CircuitKind::kWinningPost : snark::CircuitKind::kWindowPost,
                                                  info.sector_bytes));
  std::vector<snark::PartitionInputs> inputs;
  inputs.emplace_back(std::move(part));
  return std::shared_ptr<const FilecoinWork>(
      std::make_shared<Work>(std::move(circuit), std::move(inputs), std::vector<std::vector<Fr>>{std::move(pub)}));
}

StatusOr<std::shared_ptr<const FilecoinWork>> decode_snap(const FilecoinRequest& r) {
  ASSIGN_OR_RETURN(fc::UpdateProofInfo info, fc::update_proof_info(r.registered_proof));
  RETURN_IF_ERROR(check_sector_size(r, info.sector_bytes, info.name));
  ASSIGN_OR_RETURN(fc::Node comm_r_old, node_of(r.comm_r_old, "comm_r_old"));
  ASSIGN_OR_RETURN(fc::Node comm_r_new, node_of(r.comm_r_new, "comm_r_new"));
  ASSIGN_OR_RETURN(fc::Node comm_d_new, node_of(r.comm_d_new, "comm_d_new"));
  if (r.vanilla_proofs.size() != size_t(info.partitions)) {
    return invalid_argument("vanilla_proofs: " + std::to_string(r.vanilla_proofs.size()) + " partition proofs, " +
                            std::string(info.name) + " has " + std::to_string(info.partitions) + " partitions");
  }
  ASSIGN_OR_RETURN(snark::FilecoinCircuit circuit,
                   snark::FilecoinCircuit::create(snark::CircuitKind::kSnapDeals, info.sector_bytes));
  std::vector<snark::PartitionInputs> inputs;
  std::vector<std::vector<Fr>> publics;
  for (uint64_t k = 0; k < r.vanilla_proofs.size(); ++k) {
    const std::string where = "vanilla_proofs[" + std::to_string(k) + "]";
    auto proof = fc::decode_snap_partition_proof(bytes_of(r.vanilla_proofs[k]));
    if (!proof.ok()) return proof.status().with_context(where);
    auto part = snark::update_partition_from_vanilla(info, k, comm_r_old, comm_d_new, comm_r_new, *proof);
    if (!part.ok()) return part.status().with_context(where);
    inputs.emplace_back(std::move(*part));
    ASSIGN_OR_RETURN(std::vector<Fr> pub, fc::snap_public_inputs(info, k, info.h, comm_r_old, comm_d_new, comm_r_new));
    publics.push_back(std::move(pub));
  }
  return std::shared_ptr<const FilecoinWork>(std::make_shared<Work>(std::move(circuit), std::move(inputs), std::move(publics)));
}

// A 32-byte field of the request that must be a field element.
Status check_field_element(const std::string& bytes, const char* field) {
  ASSIGN_OR_RETURN(fc::Node n, node_of(bytes, field));
  return fc::fr_from_node(n, field).status();
}

}  // namespace

Status check_filecoin_fields(ProofKind kind, const FilecoinRequest& r) {
  switch (kind) {
    case ProofKind::kWindowPostPartition:
    case ProofKind::kWinningPost: return check_field_element(r.randomness, "randomness");
    case ProofKind::kSnapDealsUpdate:
      RETURN_IF_ERROR(check_field_element(r.comm_r_old, "comm_r_old"));
      RETURN_IF_ERROR(check_field_element(r.comm_r_new, "comm_r_new"));
      return check_field_element(r.comm_d_new, "comm_d_new");
    default: return ok_status();  // PoRep's values are inside its C1 output (checked as it is read)
  }
}

bool is_filecoin_kind(ProofKind kind) {
  return kind == ProofKind::kPorepSealCommit || kind == ProofKind::kSnapDealsUpdate ||
         kind == ProofKind::kWindowPostPartition || kind == ProofKind::kWinningPost;
}

std::string_view filecoin_circuit_kind(ProofKind kind) {
  switch (kind) {
    case ProofKind::kPorepSealCommit: return "porep";
    case ProofKind::kSnapDealsUpdate: return "snap-deals";
    case ProofKind::kWindowPostPartition: return "window-post";
    case ProofKind::kWinningPost: return "winning-post";
    default: return "";
  }
}

StatusOr<std::shared_ptr<const FilecoinWork>> decode_filecoin_request(ProofKind kind, const FilecoinRequest& r) {
  switch (kind) {
    case ProofKind::kPorepSealCommit: return decode_porep(r);
    case ProofKind::kSnapDealsUpdate: return decode_snap(r);
    case ProofKind::kWindowPostPartition:
    case ProofKind::kWinningPost: return decode_post(kind, r);
    default: return invalid_argument("proof kind " + std::string(proof_kind_name(kind)) + " is not a Filecoin kind");
  }
}

}  // namespace cuzk::engine
