#include "cuzk/filecoin/vanilla.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "cuzk/base/random.h"
#include "cuzk/base/utf8.h"
#include "cuzk/filecoin/bincode.h"
#include "cuzk/filecoin/c1_json.h"
#include "cuzk/filecoin/cid.h"
#include "cuzk/filecoin/public_inputs.h"
#include "cuzk/filecoin/vanilla_produce.h"
#include "test_util.h"

namespace cuzk::filecoin {
namespace {

using ff::Fr;

std::vector<uint8_t> read_bytes(const std::string& rel) {
  const std::string s = testing::read_text(testing::testdata_path(rel));
  return std::vector<uint8_t>(s.begin(), s.end());
}

// Curio lib/proof/testgolden/post.vproof with postpub.json: a WindowPoSt
// vanilla proof of sector 1 (32 GiB, StackedDrgWindow32GiBV1 = 8) of miner
// f01000 for all-zero randomness. It decodes, re-encodes to the same bytes,
// carries the comm_r of the sealed CID, and every opening proves the
// challenge rust-fil-proofs derives under comm_r_last.
TEST(PoStVanilla, CurioGoldenWindowPoSt) {
  const auto bytes = read_bytes("curio/post.vproof");
  ASSERT_EQ(bytes.size(), 24960u) << "missing test data";
  auto p = decode_post_sector_proof(bytes);
  ASSERT_TRUE(p.ok()) << p.status().to_string();
  EXPECT_EQ(p->sector_id, 1u);
  ASSERT_EQ(p->sectors.size(), 1u);
  EXPECT_EQ(p->sectors[0].inclusion_proofs.size(), 10u);
  EXPECT_EQ(p->sectors[0].inclusion_proofs[0].kind, MerkleProof::Kind::kSub);
  EXPECT_EQ(encode_post_sector_proof(*p), bytes);

  const Node comm_r = commitment_from_cid(CommitmentKind::kSealed,
                                          "bagboea4b5abcbx3jccdohrttzfneleehcpkmle4oltwuh4q3rcf5tpdodaoj6mtl")
                          .value();
  EXPECT_EQ(p->comm_r, comm_r);
  const PoStProofInfo info = post_proof_info(8).value();
  EXPECT_EQ(info.name, "StackedDrgWindow32GiBV1");
  const Node randomness{};
  Status st = verify_post_sector_proof(info, randomness, *p, 0);
  EXPECT_TRUE(st.ok()) << st.to_string();
  // Under the API 1.2 rule the first sector's challenges are the same.
  EXPECT_TRUE(verify_post_sector_proof(post_proof_info(13).value(), randomness, *p, 0).ok());

  Node other{};
  other[0] = 1;
  st = verify_post_sector_proof(info, other, *p, 0);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("challenge"), std::string::npos) << st.message();
  auto tampered = *p;
  tampered.sectors[0].inclusion_proofs[4].base[2].hashes[3][0] ^= 1;
  st = verify_post_sector_proof(info, randomness, tampered, 0);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("inclusion_proofs[4]"), std::string::npos) << st.message();
}

// Every truncation of a valid encoding is refused with an offset, never a
// crash or an allocation sized by a hostile length.
TEST(PoStVanilla, MalformedBincode) {
  const auto bytes = read_bytes("curio/post.vproof");
  ASSERT_FALSE(bytes.empty());
  for (size_t n = 0; n < bytes.size(); n += 97) {
    auto r = decode_post_sector_proof(ByteSpan(bytes.data(), n));
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.status().message().find("offset"), std::string::npos);
  }
  auto trailing = bytes;
  trailing.push_back(0);
  EXPECT_FALSE(decode_post_sector_proof(trailing).ok());
  auto huge = bytes;
  for (int i = 0; i < 8; ++i) huge[40 + size_t(i)] = 0xff;  // vanilla_proof.sectors.len
  auto r = decode_post_sector_proof(huge);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("vanilla_proof.sectors"), std::string::npos) << r.status().message();
  auto variant = bytes;
  variant[56] = 7;  // the first inclusion proof's variant
  r = decode_post_sector_proof(variant);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("unknown variant 7"), std::string::npos) << r.status().message();
  auto not_fr = bytes;
  not_fr[8 + 31] = 0xff;  // comm_r >= r
  r = decode_post_sector_proof(not_fr);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("comm_r"), std::string::npos) << r.status().message();
}

struct Sealed2KiB {
  SealProofInfo info;
  SealedSector sector;
  std::vector<uint8_t> data;
};

Sealed2KiB seal_random_2kib(TestRng& rng) {
  Sealed2KiB s{seal_proof_info(5).value(), {}, std::vector<uint8_t>(2048)};  // StackedDrg2KiBV1_1
  for (size_t i = 0; i < s.data.size(); ++i) s.data[i] = uint8_t(rng()) & (i % 32 == 31 ? 0x3f : 0xff);
  SealInputs in;
  in.sector_bytes = 2048;
  in.layers = s.info.layers;
  in.porep_id = s.info.porep_id;
  in.api = s.info.api;
  in.prover_id = node_from_fr(Fr::random(rng));
  in.ticket = node_from_fr(Fr::random(rng));
  in.sector_id = rng() % 1000;
  s.sector = seal_sector(in, s.data).value();
  return s;
}

TEST(PoRepVanilla, C1OutputRoundTripsAndVerifies) {
  TestRng rng(fresh_test_seed());
  const Sealed2KiB s = seal_random_2kib(rng);
  const Node seed = node_from_fr(Fr::random(rng)), ticket = node_from_fr(Fr::random(rng));
  const SealCommitPhase1Output c1 = produce_seal_commit_phase1(s.info, s.sector, seed, ticket);
  ASSERT_EQ(c1.vanilla_proofs.size(), 1u);
  ASSERT_EQ(c1.vanilla_proofs[0].size(), 2u);
  Status st = verify_porep_vanilla(s.info, c1);
  ASSERT_TRUE(st.ok()) << st.to_string();

  const std::string json = c1_output_to_json(c1);
  // filecoin-proofs-api tags the vanilla proofs with the size's V1 variant.
  EXPECT_NE(json.find("\"vanilla_proofs\":{\"StackedDrg2KiBV1\":[[{\"comm_d_proofs\""), std::string::npos);
  EXPECT_NE(json.find("{\"registered_proof\":\"StackedDrg2KiBV1_1\",\"vanilla_proofs\""), std::string::npos);
  auto back = parse_c1_output(json);
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_EQ(*back, c1);
  EXPECT_EQ(c1_output_to_json(*back), json);

  C1Envelope env{42, 2048, json};
  auto env_back = parse_c1_envelope(c1_envelope_to_json(env));
  ASSERT_TRUE(env_back.ok()) << env_back.status().to_string();
  EXPECT_EQ(env_back->sector_num, 42);
  EXPECT_EQ(env_back->sector_size, 2048u);
  EXPECT_EQ(env_back->phase1_out, json);
}

TEST(PoRepVanilla, TamperingIsCaught) {
  TestRng rng(fresh_test_seed());
  const Sealed2KiB s = seal_random_2kib(rng);
  const Node seed = node_from_fr(Fr::random(rng));
  const SealCommitPhase1Output c1 = produce_seal_commit_phase1(s.info, s.sector, seed, Node{});
  auto expect_fail = [&](SealCommitPhase1Output bad, const char* what) {
    Status st = verify_porep_vanilla(s.info, bad);
    EXPECT_FALSE(st.ok()) << what;
    return st.message();
  };
  // Another seed, with other challenges (2 of 63 nodes can repeat by chance).
  auto bad = c1;
  const auto challenges = porep_partition_challenges(s.info, c1.replica_id, c1.comm_r, c1.seed, 0);
  do {
    ++bad.seed[0];
  } while (porep_partition_challenges(s.info, c1.replica_id, c1.comm_r, bad.seed, 0) == challenges);
  expect_fail(bad, "seed");
  bad = c1;
  bad.vanilla_proofs[0][1].labeling_proofs[1].parents[3][2] ^= 1;
  EXPECT_NE(expect_fail(bad, "label parent").find("labeling_proofs[1]"), std::string::npos);
  bad = c1;
  bad.vanilla_proofs[0][0].replica_column_proofs.exp_parents[2].rows[0][1] ^= 1;
  EXPECT_NE(expect_fail(bad, "column row").find("exp_parents[2]"), std::string::npos);
  bad = c1;
  bad.vanilla_proofs[0][0].comm_d_proof.leaf[0] ^= 1;
  expect_fail(bad, "data leaf");
  bad = c1;
  bad.comm_r[0] ^= 1;
  expect_fail(bad, "comm_r");
  bad = c1;
  bad.vanilla_proofs[0].pop_back();
  expect_fail(bad, "challenge count");
}

TEST(PoRepVanilla, MalformedJsonNamesFieldAndOffset) {
  TestRng rng(fresh_test_seed());
  const Sealed2KiB s = seal_random_2kib(rng);
  const std::string json = c1_output_to_json(produce_seal_commit_phase1(s.info, s.sector, Node{}, Node{}));
  for (size_t n : {size_t(0), size_t(1), json.size() / 3, json.size() - 1}) {
    auto r = parse_c1_output(json.substr(0, n));
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.status().message().find("offset"), std::string::npos) << r.status().message();
  }
  std::string no_seed = json;
  no_seed.replace(no_seed.find("\"seed\""), 6, "\"sEEd\"");
  auto r = parse_c1_output(no_seed);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("missing field \"seed\""), std::string::npos) << r.status().message();
  std::string big_byte = json;
  const size_t at = big_byte.find("\"comm_r\":[") + 10;
  big_byte.replace(at, big_byte.find(',', at) - at, "256");
  r = parse_c1_output(big_byte);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("comm_r[0]"), std::string::npos) << r.status().message();
  EXPECT_FALSE(parse_c1_output(std::string(100, '[') + std::string(100, ']')).ok());
  // Skipped fields must still be well-formed JSON; unknown fields are skipped.
  std::string bad_null = json;
  bad_null.replace(bad_null.find("\"_h\":null"), 9, "\"_h\":nul1");
  EXPECT_FALSE(parse_c1_output(bad_null).ok());
  std::string extra = json;
  extra.insert(1, "\"x\":{\"a\":[1,-2.5e3,true,\"s\\\"\"]},");
  EXPECT_TRUE(parse_c1_output(extra).ok()) << parse_c1_output(extra).status().to_string();
  EXPECT_FALSE(parse_c1_envelope("{\"SectorNum\":1,\"Phase1Out\":\"***\",\"SectorSize\":2048}").ok());
}

// A byte that is not UTF-8 where the reader expects punctuation used to be
// echoed raw into the message, which then made the daemon's status JSON throw.
TEST(PoRepVanilla, BytesThatAreNotUtf8AreEscapedInTheMessage) {
  TestRng rng(fresh_test_seed());
  const Sealed2KiB s = seal_random_2kib(rng);
  const std::string json = c1_output_to_json(produce_seal_commit_phase1(s.info, s.sector, Node{}, Node{}));
  for (int round = 0; round < 8; ++round) {
    std::string bad = json;
    const size_t at = bad.find(',', rng() % (bad.size() - 1));
    ASSERT_NE(at, std::string::npos);
    const auto byte = uint8_t(0x80 + rng() % 0x80);  // never UTF-8 on its own
    bad[at] = char(byte);
    for (const std::string& text : {bad, "{\"SectorNum\":1" + std::string(1, char(byte)) + "}"}) {
      auto r = text[0] == '{' && text.size() < 40 ? parse_c1_envelope(text).status() : parse_c1_output(text).status();
      ASSERT_FALSE(r.ok());
      EXPECT_TRUE(is_valid_utf8(r.message())) << r.message();
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", byte);
      EXPECT_NE(r.message().find(hex), std::string::npos) << r.message();
    }
  }
}

TEST(PoStVanilla, ProduceAndVerify2KiB) {
  TestRng rng(fresh_test_seed());
  const Sealed2KiB s = seal_random_2kib(rng);
  const PoStProofInfo info = post_proof_info(10).value();  // StackedDrgWindow2KiBV1_2
  const Node randomness = node_from_fr(Fr::random(rng));
  const auto p = produce_post_sector_proof(info, s.sector, 77, randomness, 1);
  EXPECT_TRUE(verify_post_sector_proof(info, randomness, p, 1).ok());
  const auto bytes = encode_post_sector_proof(p);
  EXPECT_EQ(decode_post_sector_proof(bytes).value(), p);
  auto bad = p;
  bad.sectors[0].comm_c[0] ^= 1;
  EXPECT_FALSE(verify_post_sector_proof(info, randomness, bad, 1).ok());
  bad = p;
  bad.sector_id = 78;
  EXPECT_FALSE(verify_post_sector_proof(info, randomness, bad, 1).ok());
}

// Winning PoSt as rust-fil-proofs makes it (filecoin-proofs/src/constants.rs:
// WINNING_POST_CHALLENGE_COUNT = 66, WINNING_POST_SECTOR_COUNT = 1;
// filecoin-proofs/src/api/post_util.rs generate_fallback_sector_challenges and
// single_partition_vanilla_proofs; storage-proofs-post/src/fallback/
// compound.rs generate_public_inputs): the sector's vanilla proof opens 66
// leaves, challenge n at index n, and opening n is what circuit sector n
// proves against public input 2n+1. `seal` used to write one opening, and a
// correct 66-opening proof was refused ("expected 1").
TEST(PoStVanilla, WinningOpensTheSixtySixChallengesOfTheReference) {
  TestRng rng(fresh_test_seed());
  const Sealed2KiB s = seal_random_2kib(rng);
  const PoStProofInfo info = post_proof_info(0).value();  // StackedDrgWinning2KiBV1
  ASSERT_EQ(info.sector_count * info.challenge_count, 66);
  EXPECT_EQ(post_vanilla_shape(info).sector_count, 1);
  EXPECT_EQ(post_vanilla_shape(info).challenge_count, 66);
  const Node randomness = node_from_fr(Fr::random(rng));
  const uint64_t sector_id = rng() % 1000000;
  const auto p = produce_post_sector_proof(info, s.sector, sector_id, randomness, 0);
  ASSERT_EQ(p.sectors.size(), 1u);
  ASSERT_EQ(p.sectors[0].inclusion_proofs.size(), 66u);
  EXPECT_TRUE(verify_post_sector_proof(info, randomness, p, 0).ok());
  // Opening n answers the challenge of circuit sector n (API 1.0: index n).
  auto pub = winning_post_public_inputs(info, randomness, {sector_id, s.sector.comm_r});
  ASSERT_TRUE(pub.ok()) << pub.status().to_string();
  ASSERT_EQ(pub->size(), 2u * 66);
  for (size_t n = 0; n < 66; ++n) {
    EXPECT_EQ((*pub)[2 * n], fr_from_node(s.sector.comm_r).value()) << n;
    EXPECT_EQ((*pub)[2 * n + 1], Fr::from_uint(p.sectors[0].inclusion_proofs[n].path_index())) << n;
  }
  // A short proof (the one opening `seal` used to write) is refused plainly.
  auto short_proof = p;
  short_proof.sectors[0].inclusion_proofs.resize(1 + rng() % 65);
  Status st = verify_post_sector_proof(info, randomness, short_proof, 0);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("expected 66"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("WINNING_POST_CHALLENGE_COUNT"), std::string::npos) << st.message();
  // Openings in another order prove other leaves than their challenges.
  auto swapped = p;
  std::swap(swapped.sectors[0].inclusion_proofs[0], swapped.sectors[0].inclusion_proofs[65]);
  if (swapped.sectors[0].inclusion_proofs[0].path_index() != p.sectors[0].inclusion_proofs[0].path_index()) {
    EXPECT_FALSE(verify_post_sector_proof(info, randomness, swapped, 0).ok());
  }
}

TEST(SnapVanilla, UpdateProduceAndVerify2KiB) {
  TestRng rng(fresh_test_seed());
  const Sealed2KiB s = seal_random_2kib(rng);
  const UpdateProofInfo info = update_proof_info(0).value();  // StackedDrg2KiBV1
  std::vector<uint8_t> new_data(2048);
  for (size_t i = 0; i < new_data.size(); ++i) new_data[i] = uint8_t(rng()) & (i % 32 == 31 ? 0x3f : 0xff);
  auto u = snap_encode(info, s.sector, new_data);
  ASSERT_TRUE(u.ok()) << u.status().to_string();
  EXPECT_NE(u->comm_r_new, s.sector.comm_r);
  const auto p = produce_snap_partition_proof(info, s.sector, *u, 0);
  ASSERT_EQ(p.challenge_proofs.size(), 10u);
  Status st = verify_snap_partition(info, 0, info.h, s.sector.comm_r, u->comm_d_new, u->comm_r_new, p);
  ASSERT_TRUE(st.ok()) << st.to_string();
  const auto bytes = encode_snap_partition_proof(p);
  EXPECT_EQ(decode_snap_partition_proof(bytes).value(), p);
  for (size_t n = 0; n < bytes.size(); n += 131) EXPECT_FALSE(decode_snap_partition_proof(ByteSpan(bytes.data(), n)).ok());

  EXPECT_FALSE(verify_snap_partition(info, 0, info.h, u->comm_r_new, u->comm_d_new, u->comm_r_new, p).ok());
  auto bad = p;
  bad.challenge_proofs[3].proof_r_new.leaf = node_from_fr(Fr::random(rng));
  EXPECT_FALSE(verify_snap_partition(info, 0, info.h, s.sector.comm_r, u->comm_d_new, u->comm_r_new, bad).ok());
  bad = p;
  for (Node& leaf : bad.apex_leafs) leaf[0] ^= 1;  // every challenge path leaves the apex tree
  st = verify_snap_partition(info, 0, info.h, s.sector.comm_r, u->comm_d_new, u->comm_r_new, bad);
  EXPECT_FALSE(st.ok());
  EXPECT_FALSE(verify_snap_partition(info, 0, 3, s.sector.comm_r, u->comm_d_new, u->comm_r_new, p).ok());
}

// Random corruptions of valid encodings: every decoder either refuses the
// input or yields a proof the verifiers handle (normally rejecting it) —
// never a crash, a hang or a huge allocation.
TEST(VanillaRobustness, RandomCorruptions) {
  TestRng rng(fresh_test_seed());
  const Sealed2KiB s = seal_random_2kib(rng);
  const SealCommitPhase1Output c1 = produce_seal_commit_phase1(s.info, s.sector, Node{}, Node{});
  const std::string json = c1_output_to_json(c1);
  const PoStProofInfo post = post_proof_info(10).value();
  const auto post_bytes = encode_post_sector_proof(produce_post_sector_proof(post, s.sector, 3, Node{}, 0));
  const UpdateProofInfo upd = update_proof_info(0).value();
  std::vector<uint8_t> new_data(2048, 0);
  const auto u = snap_encode(upd, s.sector, new_data).value();
  const auto snap_bytes = encode_snap_partition_proof(produce_snap_partition_proof(upd, s.sector, u, 0));
  int accepted = 0;
  for (int iter = 0; iter < 300; ++iter) {
    std::string j = json;
    for (int k = 0; k < 1 + int(rng() % 3); ++k) j[rng() % j.size()] = "0123456789[]{},:\"a"[rng() % 18];
    auto pc = parse_c1_output(j);
    if (pc.ok() && verify_porep_vanilla(s.info, *pc).ok()) ++accepted;
    auto b = post_bytes;
    b[rng() % b.size()] ^= uint8_t(1u << (rng() % 8));
    auto pp = decode_post_sector_proof(b);
    if (pp.ok() && verify_post_sector_proof(post, Node{}, *pp, 0).ok()) ++accepted;
    auto sb = snap_bytes;
    sb[rng() % sb.size()] ^= uint8_t(1u << (rng() % 8));
    auto sp = decode_snap_partition_proof(sb);
    if (sp.ok() && verify_snap_partition(upd, 0, upd.h, s.sector.comm_r, u.comm_d_new, u.comm_r_new, *sp).ok()) ++accepted;
  }
  // A corruption can land in bytes no check covers (JSON whitespace, a
  // skipped field); accepting a changed proof must be rare.
  EXPECT_LT(accepted, 30);
}

}  // namespace
}  // namespace cuzk::filecoin
