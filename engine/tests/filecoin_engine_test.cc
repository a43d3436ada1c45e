// The Filecoin kinds through the engine: a Window PoSt partition of two 2 KiB
// sectors sealed in memory, proved with an INSECURE development key that the
// engine generates into its cache directory, checked against the verifying
// key read back from that file with public inputs computed from the public
// parameters; and bad requests failing their job with a message that names
// what is wrong, without affecting the next job.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "cuzk/engine/filecoin.h"
#include "cuzk/filecoin/bincode.h"
#include "cuzk/filecoin/public_inputs.h"
#include "cuzk/filecoin/sdr.h"
#include "cuzk/filecoin/vanilla_produce.h"
#include "cuzk/groth16/verifier.h"
#include "cuzk/io/bellperson.h"
#include "cuzk/r1cs/precompiled.h"
#include "fake_device.h"
#include "test_support.h"

namespace cuzk::engine {
namespace {

namespace fc = cuzk::filecoin;
using ff::Fr;

fc::SealedSector seal_2kib(TestRng& rng, uint64_t sector_id) {
  const fc::SealProofInfo info = fc::seal_proof_info(5).value();  // StackedDrg2KiBV1_1
  std::vector<uint8_t> data(2048);
  for (size_t i = 0; i < data.size(); ++i) data[i] = uint8_t(rng()) & (i % 32 == 31 ? 0x3f : 0xff);
  fc::SealInputs in;
  in.sector_bytes = 2048;
  in.layers = info.layers;
  in.porep_id = info.porep_id;
  in.api = info.api;
  in.prover_id = fc::node_from_fr(Fr::random(rng));
  in.ticket = fc::node_from_fr(Fr::random(rng));
  in.sector_id = sector_id;
  return fc::seal_sector(in, data).value();
}

std::string str(const std::vector<uint8_t>& v) { return std::string(v.begin(), v.end()); }
std::string str(const fc::Node& n) { return std::string(n.begin(), n.end()); }

class FilecoinEngineTest : public ::testing::Test {
 protected:
  // The development keys and rows (deterministic) come from the run's shared
  // cache: made once for all of this binary's test processes.
  static void SetUpTestSuite() { dir_ = new std::string(testing::shared_test_cache("filecoin")); }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }

  EngineConfig config(const std::string& cache_dir = *dir_) {
    EngineConfig c = testing::base_config(cache_dir);
    CircuitSpec s;
    s.id = "window-2k";
    s.filecoin.kind = "window-post";
    s.filecoin.sector_size = 2048;
    s.filecoin.dev_key = true;
    s.filecoin.dev_seed = 5;
    c.circuits = {s};
    return c;
  }

  // A Window PoSt request for two sealed sectors, as Curio sends it.
  JobRequest window_request(TestRng& rng, std::vector<Fr>* publics) {
    const fc::PoStProofInfo info = fc::post_proof_info(10).value();  // StackedDrgWindow2KiBV1_2
    const fc::SealedSector a = seal_2kib(rng, 31), b = seal_2kib(rng, 32);
    const fc::Node randomness = fc::node_from_fr(Fr::random(rng));
    auto f = std::make_shared<FilecoinRequest>();
    f->sector_size = 2048;
    f->registered_proof = 10;
    f->randomness = str(randomness);
    f->vanilla_proofs = {str(fc::encode_post_sector_proof(fc::produce_post_sector_proof(info, a, 31, randomness, 0))),
                         str(fc::encode_post_sector_proof(fc::produce_post_sector_proof(info, b, 32, randomness, 1)))};
    const fc::PoStSector pub[2] = {{31, a.comm_r}, {32, b.comm_r}};
    *publics = fc::window_post_public_inputs(info, randomness, pub, 0).value();
    JobRequest r;
    r.kind = ProofKind::kWindowPostPartition;
    r.filecoin = f;
    return r;
  }

  static std::string* dir_;
};

std::string* FilecoinEngineTest::dir_ = nullptr;

TEST_F(FilecoinEngineTest, WindowPoStWithADevKeyVerifiesAndBadRequestsFailTheirJob) {
  auto engine = Engine::create(config());
  ASSERT_TRUE(engine.ok()) << engine.status().to_string();
  TestRng rng(fresh_test_seed());
  std::vector<Fr> publics;
  JobRequest good = window_request(rng, &publics);

  // A truncated vanilla proof fails its job, naming the field.
  JobRequest truncated = good;
  auto bad = std::make_shared<FilecoinRequest>(*good.filecoin);
  bad->vanilla_proofs[1].resize(bad->vanilla_proofs[1].size() / 2);
  truncated.filecoin = bad;
  auto t = (*engine)->submit(truncated);
  ASSERT_TRUE(t.ok()) << t.status().to_string();
  auto tr = (*engine)->await(t->job_id, std::nullopt);
  ASSERT_TRUE(tr.ok());
  EXPECT_EQ(tr->outcome, JobOutcome::kFailed);
  EXPECT_NE(tr->error_message.find("vanilla_proofs[1]"), std::string::npos) << tr->error_message;

  // Randomness that the vanilla proofs do not answer: the witness's public
  // inputs differ from the parameters'.
  JobRequest other = good;
  auto moved = std::make_shared<FilecoinRequest>(*good.filecoin);
  moved->randomness = str(fc::node_from_fr(Fr::random(rng)));
  other.filecoin = moved;
  auto o = (*engine)->submit(other);
  ASSERT_TRUE(o.ok());
  auto orr = (*engine)->await(o->job_id, std::nullopt);
  ASSERT_TRUE(orr.ok());
  EXPECT_EQ(orr->outcome, JobOutcome::kFailed);
  EXPECT_NE(orr->error_message.find("does not answer this request's challenges"), std::string::npos)
      << orr->error_message;

  // Idempotency over the Filecoin fields: the same request_id and request is
  // the same job; with other vanilla proofs or randomness it is refused.
  good.request_id = "wdpost-1";
  auto s = (*engine)->submit(good);
  ASSERT_TRUE(s.ok()) << s.status().to_string();
  auto again = (*engine)->submit(good);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->job_id, s->job_id);
  EXPECT_TRUE(again->deduplicated);
  other.request_id = "wdpost-1";
  EXPECT_EQ((*engine)->submit(other).status().code(), StatusCode::kAlreadyExists);
  auto r = (*engine)->await(s->job_id, std::nullopt);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->outcome, JobOutcome::kCompleted) << r->error_message;
  ASSERT_EQ(r->proof.size(), 192u);

  // Check the proof ourselves with the key file the engine generated.
  const std::string params = (*dir_) + "/window-post-2KiB-dev5.params";
  auto file = MappedFile::open(params);
  ASSERT_TRUE(file.ok());
  auto key_vk = io::parse_vk(file->bytes());
  ASSERT_TRUE(key_vk.ok()) << key_vk.status().to_string();
  auto proof = io::parse_proof(ByteSpan(reinterpret_cast<const uint8_t*>(r->proof.data()), r->proof.size()));
  ASSERT_TRUE(proof.ok());
  auto ok = groth16::verify(*key_vk, publics, *proof);
  ASSERT_TRUE(ok.ok());
  EXPECT_TRUE(*ok);
  ASSERT_EQ(r->public_inputs.size(), publics.size());
  for (size_t i = 0; i < publics.size(); ++i) {
    std::array<uint8_t, 32> be;
    publics[i].to_bytes_be(be.data());
    EXPECT_EQ(r->public_inputs[i], be) << i;
  }
}

// On a device that keeps the circuit, the witness alone goes to the device,
// which makes a, b, c and checks the rows there (the preparation skips the
// host check); the proof verifies with the key file's verifying key.
TEST_F(FilecoinEngineTest, WindowPoStOnADeviceThatMakesTheRows) {
  testing::FakeDevices fakes;
  EngineConfig c = config();
  c.devices = {"fake:0"};
  c.backend_factory = fakes.factory();
  auto engine = Engine::create(c);
  ASSERT_TRUE(engine.ok()) << engine.status().to_string();
  TestRng rng(fresh_test_seed());
  std::vector<Fr> publics;
  auto s = (*engine)->submit(window_request(rng, &publics));
  ASSERT_TRUE(s.ok()) << s.status().to_string();
  auto r = (*engine)->await(s->job_id, std::nullopt);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->outcome, JobOutcome::kCompleted) << r->error_message;
  EXPECT_EQ(fakes.log("fake:0").rows_made, 1u);
  auto file = MappedFile::open((*dir_) + "/window-post-2KiB-dev5.params");
  ASSERT_TRUE(file.ok());
  auto key_vk = io::parse_vk(file->bytes());
  ASSERT_TRUE(key_vk.ok()) << key_vk.status().to_string();
  auto proof = io::parse_proof(ByteSpan(reinterpret_cast<const uint8_t*>(r->proof.data()), r->proof.size()));
  ASSERT_TRUE(proof.ok());
  EXPECT_TRUE(groth16::verify(*key_vk, publics, *proof).value());
}

TEST_F(FilecoinEngineTest, RoutingErrors) {
  auto engine = Engine::create(config());
  ASSERT_TRUE(engine.ok());
  JobRequest r;
  r.kind = ProofKind::kWinningPost;
  r.filecoin = std::make_shared<FilecoinRequest>();
  auto s = (*engine)->submit(r);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), StatusCode::kNotFound);
  EXPECT_NE(s.status().message().find("winning-post"), std::string::npos) << s.status().message();
  r.kind = ProofKind::kWindowPostPartition;
  r.filecoin = nullptr;
  EXPECT_EQ((*engine)->submit(r).status().code(), StatusCode::kInvalidArgument);
}

// The circuit's rows file is derived (synthesized from the circuit): one
// found damaged used to fail every job of the circuit until someone removed
// it; it is synthesized again now, and the job proves.
TEST_F(FilecoinEngineTest, ADamagedRowsFileIsSynthesizedAgain) {
  { ASSERT_TRUE(Engine::create(config()).ok()); }  // the files exist
  testing::TempDir copy;  // the shared files stay intact
  for (const char* f : {"/window-post-2KiB.cuzkr1cs", "/window-post-2KiB-dev5.params"})
    std::filesystem::copy_file(*dir_ + f, copy.path() + f);
  const std::string rows = copy.path() + "/window-post-2KiB.cuzkr1cs";
  ASSERT_TRUE(r1cs::load_precompiled(rows).ok());
  TestRng rng(fresh_test_seed());
  for (int damage = 0; damage < 2; ++damage) {
    std::string bytes = testing::read_file(rows);
    if (damage == 0) {
      bytes[bytes.size() / 2 + rng() % (bytes.size() / 2)] ^= char(1 + rng() % 255);  // a payload byte
    } else {
      bytes.resize(rng() % bytes.size());  // truncated
    }
    std::ofstream(rows, std::ios::binary | std::ios::trunc) << bytes;
    ASSERT_FALSE(r1cs::load_precompiled(rows).ok());
    auto engine = Engine::create(config(copy.path()));
    ASSERT_TRUE(engine.ok()) << engine.status().to_string();
    std::vector<Fr> publics;
    auto s = (*engine)->submit(window_request(rng, &publics));
    ASSERT_TRUE(s.ok()) << s.status().to_string();
    auto r = (*engine)->await(s->job_id, std::nullopt);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->outcome, JobOutcome::kCompleted) << r->error_message;
    EXPECT_TRUE(r1cs::load_precompiled(rows).ok()) << damage;
  }
}

// 32 bytes, little-endian, at or above the scalar field's modulus r
// (0x73eda753...00000001): r itself, r + 1, or a random value with a top
// byte above r's.
std::string outside_the_field(TestRng& rng, int which) {
  const fc::Node r_le = {0x01, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xfe, 0x5b, 0xfe, 0xff, 0x02, 0xa4, 0xbd, 0x53,
                         0x05, 0xd8, 0xa1, 0x09, 0x08, 0xd8, 0x39, 0x33, 0x48, 0x7d, 0x9d, 0x29, 0x53, 0xa7, 0xed, 0x73};
  std::string out = str(r_le);
  if (which == 1) out[0] = 0x02;
  if (which == 2) {
    for (char& c : out) c = char(rng());
    out[31] = char(0x74 + rng() % (0x100 - 0x74));
  }
  return out;
}

// Randomness (and SnapDeals' commitments) at or above r was accepted for
// Window PoSt: the proof made was one the verifier refuses. Every kind now
// refuses it at submit (check_filecoin_fields, once the request is routed to
// its circuit), as rust-fil-proofs does (as_safe_commitment).
TEST_F(FilecoinEngineTest, ValuesOutsideTheFieldAreRefusedAtSubmitForEveryKind) {
  auto engine = Engine::create(config());
  ASSERT_TRUE(engine.ok()) << engine.status().to_string();
  TestRng rng(fresh_test_seed());
  std::vector<Fr> publics;
  const JobRequest good = window_request(rng, &publics);
  for (int which = 0; which < 3; ++which) {
    for (ProofKind kind : {ProofKind::kWindowPostPartition, ProofKind::kWinningPost}) {
      JobRequest r = good;
      r.kind = kind;
      auto f = std::make_shared<FilecoinRequest>(*good.filecoin);
      f->randomness = outside_the_field(rng, which);
      r.filecoin = f;
      // The rule submit applies (for Window PoSt here through a registered
      // circuit; a kind without one is NOT_FOUND first).
      for (Status s : {check_filecoin_fields(kind, *f), kind == ProofKind::kWindowPostPartition
                                                             ? (*engine)->submit(r).status()
                                                             : check_filecoin_fields(kind, *f)}) {
        ASSERT_FALSE(s.ok()) << proof_kind_name(kind);
        EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
        EXPECT_NE(s.message().find("randomness"), std::string::npos) << s.message();
        EXPECT_NE(s.message().find("not a field element"), std::string::npos) << s.message();
      }
      // The decoder refuses it as well (the rule is not only at the door).
      EXPECT_EQ(decode_filecoin_request(kind, *f).status().code(), StatusCode::kInvalidArgument);
    }
    JobRequest snap;
    snap.kind = ProofKind::kSnapDealsUpdate;
    auto f = std::make_shared<FilecoinRequest>();
    f->comm_r_old = f->comm_r_new = f->comm_d_new = str(fc::node_from_fr(Fr::random(rng)));
    const int field = int(rng() % 3);
    (field == 0 ? f->comm_r_old : field == 1 ? f->comm_r_new : f->comm_d_new) = outside_the_field(rng, which);
    snap.filecoin = f;
    Status s = check_filecoin_fields(snap.kind, *f);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
    EXPECT_NE(s.message().find(field == 0 ? "comm_r_old" : field == 1 ? "comm_r_new" : "comm_d_new"),
              std::string::npos)
        << s.message();
  }
  // Randomness of another length is refused the same way, at submit.
  JobRequest short_randomness = good;
  auto f = std::make_shared<FilecoinRequest>(*good.filecoin);
  f->randomness.resize(31);
  short_randomness.filecoin = f;
  EXPECT_EQ((*engine)->submit(short_randomness).status().code(), StatusCode::kInvalidArgument);
  // The good request is still accepted.
  auto ok = (*engine)->submit(good);
  ASSERT_TRUE(ok.ok()) << ok.status().to_string();
}

}  // namespace
}  // namespace cuzk::engine

namespace cuzk::engine {
namespace {

// A parameter file of another circuit is refused at startup, naming the file
// and the count that differs (here the Window PoSt key given for Winning
// PoSt: 133 against 23 inputs); a missing file names the path.
TEST_F(FilecoinEngineTest, AParamsFileOfAnotherCircuitIsRefusedWithTheCounts) {
  {
    auto engine = Engine::create(config());  // makes the window-post dev key if missing
    ASSERT_TRUE(engine.ok()) << engine.status().to_string();
  }
  EngineConfig c = testing::base_config((*dir_));
  CircuitSpec s;
  s.id = "winning-2k";
  s.filecoin.kind = "winning-post";
  s.filecoin.sector_size = 2048;
  s.params = (*dir_) + "/window-post-2KiB-dev5.params";
  c.circuits = {s};
  auto engine = Engine::create(c);
  ASSERT_FALSE(engine.ok());
  EXPECT_EQ(engine.status().code(), StatusCode::kFailedPrecondition);
  const std::string m = engine.status().message();
  EXPECT_NE(m.find("is not a key of winning-post-2KiB"), std::string::npos) << m;
  EXPECT_NE(m.find("IC"), std::string::npos) << m;
  c.circuits[0].params = (*dir_) + "/no-such.params";
  auto missing = Engine::create(c);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("no-such.params"), std::string::npos) << missing.status().message();
}

// A parameter file that is missing or of another circuit is found before
// anything is written to the cache (a 32 GiB PoRep's rows are ~7 GB); with
// check_only (serve --check-config) nothing is written even for a good file.
TEST_F(FilecoinEngineTest, AMissingParamsFileIsFoundBeforeTheCacheIsWritten) {
  TestRng rng(fresh_test_seed());
  testing::TempDir cache;
  CircuitSpec s;
  s.id = "winning-2k";
  s.filecoin.kind = "winning-post";
  s.filecoin.sector_size = 2048;
  s.params = cache.path() + "/missing-" + std::to_string(rng() % 1000000) + ".params";
  SourceOptions o;
  o.cache_dir = cache.path() + "/cache";
  auto source = make_circuit_source(s, o);
  ASSERT_FALSE(source.ok());
  EXPECT_NE(source.status().message().find(s.params), std::string::npos) << source.status().message();
  EXPECT_FALSE(std::filesystem::exists(o.cache_dir)) << "the cache was written before the key file was checked";

  // A key file that passes the header check: describe() works, no file made.
  {
    auto engine = Engine::create(config());  // makes the window-post dev key if missing
    ASSERT_TRUE(engine.ok()) << engine.status().to_string();
  }
  s.id = "window-2k";
  s.filecoin.kind = "window-post";
  s.params = *dir_ + "/window-post-2KiB-dev5.params";
  o.check_only = true;
  source = make_circuit_source(s, o);
  ASSERT_TRUE(source.ok()) << source.status().to_string();
  auto info = (*source)->describe();
  ASSERT_TRUE(info.ok()) << info.status().to_string();
  EXPECT_GT(info->key_file_bytes, 0u);
  EXPECT_FALSE(std::filesystem::exists(o.cache_dir)) << "check_only wrote into the cache";
}

}  // namespace
}  // namespace cuzk::engine
