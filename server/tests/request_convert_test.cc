// A SubmitProofRequest as the engine's JobRequest. The witnesses arrive whole,
// and what enters the idempotency digest (other_payload) is, byte for byte,
// what it was when it was made from a copy of the whole message with the
// engine's fields cleared: for every kind, with witnesses large and small,
// and with fields this build does not know. Fresh random requests each run.
#include <gtest/gtest.h>

#include <google/protobuf/unknown_field_set.h>

#include "../src/convert.h"
#include "cuzk/base/random.h"

namespace cuzk::server {
namespace {

// How other_payload was made before: a copy of the whole message (witnesses
// included) with the engine's fields cleared.
std::string payload_from_a_whole_copy(const v1::SubmitProofRequest& req) {
  v1::SubmitProofRequest rest = req;
  rest.clear_request_id();
  rest.clear_proof_kind();
  rest.clear_priority();
  rest.clear_circuit_id();
  rest.clear_witness();
  rest.clear_witnesses();
  rest.clear_self_verify();
  std::string out;
  rest.SerializeToString(&out);
  return out;
}

std::string random_bytes(TestRng& rng, size_t n) {
  std::string s(n, '\0');
  for (char& c : s) c = char(rng());
  return s;
}

// Each field set or left at its default by a coin toss; `witness_bytes` of
// witnesses spread over `witness` and up to three `witnesses`.
v1::SubmitProofRequest random_request(TestRng& rng, size_t witness_bytes) {
  v1::SubmitProofRequest r;
  auto coin = [&] { return rng() % 2 == 0; };
  auto small = [&] { return random_bytes(rng, rng() % 80); };
  if (coin()) r.set_request_id(small());
  r.set_proof_kind(v1::ProofKind(rng() % 7));
  if (coin()) r.set_sector_size(rng());
  if (coin()) r.set_registered_proof(rng() % 20);
  if (coin()) r.set_priority(v1::Priority(rng() % 5));
  if (coin()) r.set_vanilla_proof(random_bytes(rng, rng() % 4096));
  for (uint64_t i = rng() % 4; i > 0; --i) r.add_vanilla_proofs(random_bytes(rng, rng() % 1024));
  if (coin()) r.set_sector_number(rng());
  if (coin()) r.set_miner_id(rng());
  if (coin()) r.set_randomness(random_bytes(rng, 32));
  if (coin()) r.set_partition_index(uint32_t(rng()));
  if (coin()) r.set_comm_r_old(random_bytes(rng, 32));
  if (coin()) r.set_comm_r_new(random_bytes(rng, 32));
  if (coin()) r.set_comm_d_new(random_bytes(rng, 32));
  if (coin()) r.set_circuit_id(small());
  if (coin()) r.set_self_verify(coin());
  const uint64_t parts = 1 + rng() % 4;
  for (uint64_t i = 0; i < parts; ++i) {
    std::string w = random_bytes(rng, witness_bytes / parts);
    if (i == 0 && coin()) r.set_witness(std::move(w));
    else r.add_witnesses(std::move(w));
  }
  // Fields of a newer client (numbers this build does not use).
  google::protobuf::UnknownFieldSet* unknown = r.GetReflection()->MutableUnknownFields(&r);
  if (coin()) unknown->AddVarint(int(200 + rng() % 100), rng());
  if (coin()) unknown->AddLengthDelimited(int(300 + rng() % 100), small());
  return r;
}

// Byte strings of megabytes are compared without printing them.
void expect_converted(const v1::SubmitProofRequest& req, const engine::JobRequest& r) {
  const std::string reference = payload_from_a_whole_copy(req);
  EXPECT_TRUE(r.other_payload == reference)
      << "other_payload (" << r.other_payload.size() << " bytes) differs from the reference (" << reference.size()
      << " bytes)";
  std::vector<std::string> witnesses;
  if (!req.witness().empty()) witnesses.push_back(req.witness());
  witnesses.insert(witnesses.end(), req.witnesses().begin(), req.witnesses().end());
  EXPECT_TRUE(r.witnesses == witnesses) << r.witnesses.size() << " witnesses, " << witnesses.size() << " sent";
  EXPECT_EQ(witness_bytes(req), [&] {
    uint64_t n = 0;
    for (const std::string& w : witnesses) n += w.size();
    return n;
  }());
  EXPECT_EQ(r.request_id, req.request_id());
  EXPECT_EQ(r.circuit_id, req.circuit_id());
  EXPECT_EQ(int(r.kind), int(req.proof_kind()));
  EXPECT_EQ(int(r.priority), int(req.priority()));
  EXPECT_EQ(r.self_verify.has_value(), req.has_self_verify());
  if (!engine::is_filecoin_kind(r.kind)) {
    EXPECT_EQ(r.filecoin, nullptr);
    return;
  }
  ASSERT_NE(r.filecoin, nullptr);
  const engine::FilecoinRequest& f = *r.filecoin;
  EXPECT_EQ(f.sector_size, req.sector_size());
  EXPECT_EQ(f.registered_proof, req.registered_proof());
  EXPECT_EQ(f.vanilla_proof, req.vanilla_proof());
  EXPECT_EQ(f.vanilla_proofs, std::vector<std::string>(req.vanilla_proofs().begin(), req.vanilla_proofs().end()));
  EXPECT_EQ(f.sector_number, req.sector_number());
  EXPECT_EQ(f.miner_id, req.miner_id());
  EXPECT_EQ(f.randomness, req.randomness());
  EXPECT_EQ(f.partition_index, req.partition_index());
  EXPECT_EQ(f.comm_r_old, req.comm_r_old());
  EXPECT_EQ(f.comm_r_new, req.comm_r_new());
  EXPECT_EQ(f.comm_d_new, req.comm_d_new());
}

TEST(RequestConvert, TheDigestPayloadIsTheWholeMessageLessTheEngineFields) {
  TestRng rng(fresh_test_seed());
  for (int i = 0; i < 300; ++i) {
    v1::SubmitProofRequest req = random_request(rng, rng() % 2048);
    expect_converted(req, job_request_from_proto(req));
    if (::testing::Test::HasFailure()) break;
  }
}

// Witnesses of megabytes leave the payload as it is without them (they enter
// the digest as witnesses, not as payload).
TEST(RequestConvert, LargeWitnessesLeaveThePayloadAsWithoutThem) {
  TestRng rng(fresh_test_seed());
  for (int i = 0; i < 4; ++i) {
    v1::SubmitProofRequest req = random_request(rng, (size_t(4) << 20) + rng() % 4096);
    engine::JobRequest with = job_request_from_proto(req);
    expect_converted(req, with);
    v1::SubmitProofRequest bare = req;
    bare.clear_witness();
    bare.clear_witnesses();
    engine::JobRequest without = job_request_from_proto(bare);
    EXPECT_TRUE(with.other_payload == without.other_payload);
    EXPECT_TRUE(without.witnesses.empty());
    EXPECT_GE(witness_bytes(req), size_t(4) << 20);
  }
}

}  // namespace
}  // namespace cuzk::server
