// The four Filecoin kinds through the daemon (in-process, on a unix socket,
// through the gRPC client), as Curio sends them: a 2 KiB sector sealed in
// memory, its C1 output in Curio's envelope, Window and Winning PoSt sector
// proofs, and a SnapDeals update with its partition proof. Every circuit has
// an INSECURE development key the daemon generates into its cache directory;
// each returned proof is checked here against that key's verifying key with
// the public inputs computed from the public parameters.
//
// Slow on two cores (the development keys of the 2^22-row PoRep and 2^21-row
// SnapDeals circuits take one to two minutes each to make, and the PoRep
// proof about one on the CPU): CTest label "filecoin". The keys are
// deterministic (fixed seeds) and kept in the run's shared test cache.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>

#include "cuzk/base/mapped_file.h"
#include "cuzk/base/random.h"
#include "cuzk/filecoin/bincode.h"
#include "cuzk/filecoin/c1_json.h"
#include "cuzk/filecoin/public_inputs.h"
#include "cuzk/filecoin/sdr.h"
#include "cuzk/filecoin/vanilla_produce.h"
#include "cuzk/groth16/verifier.h"
#include "cuzk/io/bellperson.h"
#include "cuzk/server/client.h"
#include "cuzk/server/server.h"
#include "../../engine/tests/test_support.h"

namespace cuzk::server {
namespace {

using namespace std::chrono_literals;
namespace fc = cuzk::filecoin;
using ff::Fr;

std::string str(const std::vector<uint8_t>& v) { return std::string(v.begin(), v.end()); }
std::string str(const fc::Node& n) { return std::string(n.begin(), n.end()); }

engine::CircuitSpec dev_circuit(const std::string& kind) {
  engine::CircuitSpec s;
  s.id = kind + "-2k";
  s.filecoin.kind = kind;
  s.filecoin.sector_size = 2048;
  s.filecoin.dev_key = true;
  s.filecoin.dev_seed = 5;
  return s;
}

class FilecoinDaemonTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (std::filesystem::temp_directory_path() / "cuzk-fil-daemon-XXXXXX").string();
    dir_ = ::mkdtemp(tmpl.data());
    ServerConfig c = default_config(read_config_env());
    c.listen = "unix://" + dir_ + "/run/cuzk.sock";
    c.status_listen = "";
    c.engine.cache_dir = cache_ = engine::testing::shared_test_cache("filecoin");
    c.engine.total_budget_bytes = uint64_t(8) << 30;
    c.engine.circuits = {dev_circuit("porep"), dev_circuit("winning-post"), dev_circuit("window-post"),
                         dev_circuit("snap-deals")};
    auto s = Server::start(c);
    ASSERT_TRUE(s.ok()) << s.status().to_string();
    server_ = std::move(*s);
    ASSERT_TRUE(server_->engine().wait_for_circuits(std::chrono::minutes(20)));
    auto cl = Client::connect(server_->grpc_address(), 10s);
    ASSERT_TRUE(cl.ok()) << cl.status().to_string();
    client_ = std::move(*cl);
  }
  void TearDown() override {
    client_.reset();
    server_.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  // Proves through the daemon and checks every partition against the dev key.
  void prove_and_check(const std::string& kind, engine::ProofKind k, std::shared_ptr<engine::FilecoinRequest> f,
                       const std::vector<std::vector<Fr>>& publics) {
    SubmitArgs a;
    a.kind = k;
    a.filecoin = std::move(f);
    auto r = client_->prove(a);
    ASSERT_TRUE(r.ok()) << kind << ": " << r.status().to_string();
    ASSERT_EQ(r->outcome, engine::JobOutcome::kCompleted) << kind << ": " << r->error_message;
    ASSERT_EQ(r->proof.size(), 192 * publics.size()) << kind;
    auto file = MappedFile::open(cache_ + "/" + kind + "-2KiB-dev5.params");
    ASSERT_TRUE(file.ok());
    auto vk = io::parse_vk(file->bytes());
    ASSERT_TRUE(vk.ok());
    auto proofs = io::parse_proofs(ByteSpan(reinterpret_cast<const uint8_t*>(r->proof.data()), r->proof.size()));
    ASSERT_TRUE(proofs.ok());
    for (size_t i = 0; i < publics.size(); ++i) {
      auto ok = groth16::verify(*vk, publics[i], (*proofs)[i]);
      ASSERT_TRUE(ok.ok()) << kind;
      EXPECT_TRUE(*ok) << kind << " partition " << i;
    }
    std::printf("%s through the daemon: %zu partition(s), synthesis %lu ms, compute %lu ms\n", kind.c_str(),
                publics.size(), r->timings.synthesis_ms, r->timings.compute_ms);
  }

  std::string dir_, cache_;
  std::unique_ptr<Server> server_;
  std::unique_ptr<Client> client_;
};

TEST_F(FilecoinDaemonTest, AllFourKindsAt2KiB) {
  TestRng rng(fresh_test_seed());
  const fc::SealProofInfo seal = fc::seal_proof_info(5).value();  // StackedDrg2KiBV1_1
  std::vector<uint8_t> data(2048);
  for (size_t i = 0; i < data.size(); ++i) data[i] = uint8_t(rng()) & (i % 32 == 31 ? 0x3f : 0xff);
  fc::SealInputs in{2048, seal.layers, seal.porep_id, seal.api, fc::node_from_fr(Fr::random(rng)), 9,
                    fc::node_from_fr(Fr::random(rng))};
  const fc::SealedSector sector = fc::seal_sector(in, data).value();

  // PoRep: Curio's envelope around the C1 JSON.
  const fc::Node seed = fc::node_from_fr(Fr::random(rng));
  const fc::SealCommitPhase1Output c1 = fc::produce_seal_commit_phase1(seal, sector, seed, in.ticket);
  auto porep = std::make_shared<engine::FilecoinRequest>();
  porep->registered_proof = 5;
  porep->sector_size = 2048;
  porep->vanilla_proof = fc::c1_envelope_to_json(fc::C1Envelope{9, 2048, fc::c1_output_to_json(c1)});
  prove_and_check("porep", engine::ProofKind::kPorepSealCommit, porep,
                  {fc::porep_public_inputs(seal, c1.replica_id, c1.comm_d, c1.comm_r, seed, 0).value()});

  // Window PoSt: the one sector of partition 0 (padded to two by the circuit).
  const fc::Node randomness = fc::node_from_fr(Fr::random(rng));
  const fc::PoStProofInfo window = fc::post_proof_info(10).value();  // StackedDrgWindow2KiBV1_2
  auto wpost = std::make_shared<engine::FilecoinRequest>();
  wpost->registered_proof = 10;
  wpost->randomness = str(randomness);
  wpost->vanilla_proofs = {str(fc::encode_post_sector_proof(fc::produce_post_sector_proof(window, sector, 9, randomness, 0)))};
  const fc::PoStSector pub{9, sector.comm_r};
  prove_and_check("window-post", engine::ProofKind::kWindowPostPartition, wpost,
                  {fc::window_post_public_inputs(window, randomness, std::span(&pub, 1), 0).value()});

  // Winning PoSt: the sector's proof holds its 66 openings, as `cuzk filecoin
  // seal` writes it (filecoin-proofs' PoStConfig: WINNING_POST_SECTOR_COUNT = 1,
  // WINNING_POST_CHALLENGE_COUNT = 66, filecoin-proofs/src/constants.rs).
  const fc::PoStProofInfo winning = fc::post_proof_info(0).value();  // StackedDrgWinning2KiBV1
  const fc::FallbackPoStSectorProof wp = fc::produce_post_sector_proof(winning, sector, 9, randomness, 0);
  ASSERT_EQ(wp.sectors[0].inclusion_proofs.size(), 66u);
  auto win = std::make_shared<engine::FilecoinRequest>();
  win->registered_proof = 0;
  win->randomness = str(randomness);
  win->vanilla_proofs = {str(fc::encode_post_sector_proof(wp))};
  prove_and_check("winning-post", engine::ProofKind::kWinningPost, win,
                  {fc::winning_post_public_inputs(winning, randomness, pub).value()});

  // SnapDeals: new data encoded into the replica, one partition proof.
  const fc::UpdateProofInfo update = fc::update_proof_info(0).value();  // StackedDrg2KiBV1
  std::vector<uint8_t> new_data(2048);
  for (size_t i = 0; i < new_data.size(); ++i) new_data[i] = uint8_t(rng()) & (i % 32 == 31 ? 0x3f : 0xff);
  const fc::SnapUpdate u = fc::snap_encode(update, sector, new_data).value();
  auto snap = std::make_shared<engine::FilecoinRequest>();
  snap->registered_proof = 0;
  snap->comm_r_old = str(sector.comm_r);
  snap->comm_r_new = str(u.comm_r_new);
  snap->comm_d_new = str(u.comm_d_new);
  snap->vanilla_proofs = {str(fc::encode_snap_partition_proof(fc::produce_snap_partition_proof(update, sector, u, 0)))};
  prove_and_check("snap-deals", engine::ProofKind::kSnapDealsUpdate, snap,
                  {fc::snap_public_inputs(update, 0, update.h, sector.comm_r, u.comm_d_new, u.comm_r_new).value()});
}

}  // namespace
}  // namespace cuzk::server
