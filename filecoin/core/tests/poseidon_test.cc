#include "cuzk/filecoin/poseidon.h"

#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <vector>

#include "cuzk/base/random.h"
#include "cuzk/filecoin/node.h"
#include "test_util.h"

namespace cuzk::filecoin {
namespace {

using testing::fr_from_u64s;

// neptune src/round_numbers.rs, test_round_numbers_against_known_values:
// (t, R_P) with R_F = 8 at standard strength.
TEST(Poseidon, RoundNumbersStandard) {
  const std::pair<int, int> cases[] = {{2, 55},  {3, 55},  {4, 56},  {5, 56},  {6, 56},  {7, 56},  {8, 57},
                                       {9, 57},  {10, 57}, {11, 57}, {12, 57}, {13, 57}, {14, 57}, {15, 57},
                                       {16, 59}, {17, 59}, {25, 59}, {37, 60}, {65, 61}};
  for (auto [t, rp] : cases) {
    const auto rn = poseidon_round_numbers(t - 1, PoseidonStrength::kStandard);
    EXPECT_EQ(rn.full_rounds, 8) << "t=" << t;
    EXPECT_EQ(rn.partial_rounds, rp) << "t=" << t;
  }
}

// neptune src/lib.rs, test_strengthened_round_numbers: (arity, R_P).
TEST(Poseidon, RoundNumbersStrengthened) {
  const std::pair<int, int> cases[] = {{1, 69},  {2, 69},  {3, 70},  {4, 70},  {5, 70},  {6, 70},  {7, 72}, {8, 72},
                                       {9, 72},  {10, 72}, {11, 72}, {16, 74}, {24, 74}, {36, 75}, {64, 77}};
  for (auto [arity, rp] : cases) {
    const auto rn = poseidon_round_numbers(arity, PoseidonStrength::kStrengthened);
    EXPECT_EQ(rn.full_rounds, 8) << "arity=" << arity;
    EXPECT_EQ(rn.partial_rounds, rp) << "arity=" << arity;
  }
}

// The Poseidon reference script's own output, as neptune checks it
// (neptune parameters/round_constants-1-1-255-9-8-57-73EDA…01.txt, test
// round_constants::tests::test_round_constants): t = 9, R_F = 8, R_P = 57.
TEST(Poseidon, GrainRoundConstantsMatchReferenceScript) {
  const std::string text = testing::read_text(testing::testdata_path("neptune/round_constants-1-1-255-9-8-57.txt"));
  ASSERT_FALSE(text.empty()) << "missing test data";
  std::istringstream lines(text);
  std::string line;
  for (int i = 0; i < 9; ++i) std::getline(lines, line);  // the ninth line holds the list
  std::vector<std::string> expected;
  for (size_t p = line.find("'0x"); p != std::string::npos; p = line.find("'0x", p + 1))
    expected.push_back(line.substr(p + 3, 64));
  ASSERT_EQ(expected.size(), 585u);
  const std::vector<Fr> got = poseidon_grain_round_constants(255, 9, 8, 57);
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i].to_hex(), expected[i]) << "constant " << i;
  // The table neptune uses for arity 8 is this one.
  EXPECT_EQ(poseidon_constants(8).round_constants, got);
}

// neptune src/hash_type.rs, test_domain_tags.
TEST(Poseidon, DomainTags) {
  EXPECT_EQ(poseidon_merkle_tree_tag(8), fr_from_u64s({0xff, 0, 0, 0}));
  for (uint64_t len = 1; len < 15; ++len) EXPECT_EQ(poseidon_constant_length_tag(len), fr_from_u64s({0, len, 0, 0}));
  // SnapDeals' Custom(1) (Curio lib/proof/poseidon/dst.go SnapDST: byte 5 = 1, i.e. 2^40).
  EXPECT_EQ(poseidon_custom_tag(1).value(), fr_from_u64s({uint64_t(1) << 40, 0, 0, 0}));
  EXPECT_EQ(poseidon_gen_randomness_constants().domain_tag, poseidon_custom_tag(1).value());
  EXPECT_FALSE(poseidon_custom_tag(0).ok());
  EXPECT_FALSE(poseidon_custom_tag(257).ok());
}

struct HashValuesCase {
  int arity;
  std::array<uint64_t, 4> merkle_standard, merkle_strengthened, constant4_standard, constant4_strengthened;
};

// neptune src/poseidon.rs, test hash_values: a MerkleTree hasher fed 0, 1, …,
// arity−1, and a ConstantLength(4) sponge fed 0, 1, 2, 3, at both strengths.
const HashValuesCase kHashValues[] = {
    {2,
     {0x2e203c369a02e7ff, 0xa6fba9339d05a69d, 0x739e0fd902efe161, 0x396508d75e76a56b},
     {0x793dbaf54552cd69, 0x5278ecbf17040ea6, 0xc48b36ecc4cab748, 0x33d28a753baee41b},
     {0x1e12d20d3b71ec56, 0x7fb97ce0b8f66322, 0xc923003920c488d4, 0x19e8a3fe6c2df9ff},
     {0xcbd4499072dcaff6, 0xdd21d8ebc5db51fb, 0x336c9c5c50e6a71e, 0x28156ad178f3a8fe}},
    {4,
     {0x019814ff6662075d, 0xfb6b4605bf1327ec, 0x00db3c6579229399, 0x58a54b10a9e5848a},
     {0x4650ee190212aa9a, 0xe5113a254d6f5c7e, 0x54013bdaf68ba4c2, 0x09d8207c51ca3f43},
     {0x8935b00a07909d45, 0x4984de08542c9977, 0x39443980077d7593, 0x3a21a6ae86754a29},
     {0xa31d9dc66a42f972, 0xb5be830aae89db0d, 0xdff9a095d1d40420, 0x466e7819bb809c44}},
    {8,
     {0x2a9934f56d38a5e6, 0x4b682e9d9cc4aed9, 0x1201004211677077, 0x2394611da3a5de55},
     {0x9f0c3c93c3fc894e, 0xe843d4cfba662df1, 0xd69aae8fe1cb63e8, 0x69e61465981ae17e},
     {0x370a94532f818897, 0x203e3c7c4a85c1f9, 0xcad8b9f8aeb1578f, 0x5c6de4b69de9d792},
     {0x6f2c393786312ee2, 0xadb6da339b87e590, 0xbf626c21fd6cb051, 0x0bb12009ab1fb62a}},
    {11,
     {0xcee3bbc32b693163, 0x09f3dcd8ccb08fc1, 0x6ca537e232ebe87a, 0x0c0fc1b2e5227f28},
     {0x778af344d8f9e8b7, 0xc94fe2ca3f46d433, 0x07abbcf9b406e8d8, 0x28bb83ff439753c0},
     {0xe9b0cb7d6496f73b, 0x7d2807d793af9582, 0xef841b6bf51a5a39, 0x02550c3a2113c7ca},
     {0x6d14b130d0fc1ed5, 0x96e16aa48efc68a9, 0xf199e67d4e6e4bc7, 0x5ee31c86cd42e810}},
    {16,
     {0x1291c74060266d37, 0x5b8dbc6d30680a6f, 0xc1c2fb5a6f871e63, 0x2d3ae2663381ae8a},
     {0x3cc2664c5fd6ae07, 0xd7431eaaa5e43189, 0x43ba5f418c6ef01d, 0x68d7856395aa217e},
     {0x6a1e563d359c1bdd, 0x6b4493d5d40be9d3, 0x275a6eb04a0ecb37, 0x30ec6fa0fec08504},
     {0x7dbe8ac03eb7fb25, 0xeb53bd55f5095e4e, 0x5bc3390694ee8251, 0x4611720250274a29}},
    {24,
     {0xd7ef3569f585b321, 0xc3e779f6468815b1, 0x066f39bf783f3d9f, 0x63beb8831f11ae15},
     {0x1df1da58827cb39d, 0x0566756b7b80fb10, 0x222eb82c6666be3d, 0x086e4e81a35bfd92},
     {0xc540772c5968a299, 0xe2e556352af20f97, 0x15ed0a6b8faba5aa, 0x327bdee6fa2b22b6},
     {0xe2ed71355cbe9268, 0x2400a67b915b45fa, 0xaa5f37dd1685188e, 0x1075afe1e62be162}},
    {36,
     {0x4473606dfa4e8140, 0x75cd368df8a8ac3c, 0x540a30e03c10bbaa, 0x699303082a6e5d5f},
     {0x636401e9371dc311, 0x8f69e35a702ed188, 0x64d73b2ddc03d43b, 0x609f8c6fe45cc054},
     {0x7d89cddb70217dcd, 0x02ae71d3d04f0b32, 0xfe52151f29c50f99, 0x626bdae6cad79307},
     {0x8d6f2e5faf077152, 0xd3cd55eeec46751a, 0x4fc92a1baa0ee777, 0x4ed7c0e22446987f}},
};

std::vector<Fr> counting(int n) {
  std::vector<Fr> v;
  for (int i = 0; i < n; ++i) v.push_back(Fr::from_uint(uint64_t(i)));
  return v;
}

void check_hash_values(const HashValuesCase& hv, PoseidonStrength strength) {
  const bool standard = strength == PoseidonStrength::kStandard;
  auto merkle = build_poseidon_constants(hv.arity, strength, poseidon_merkle_tree_tag(hv.arity));
  ASSERT_TRUE(merkle.ok());
  const std::vector<Fr> in = counting(hv.arity);
  const Fr want = fr_from_u64s(standard ? hv.merkle_standard : hv.merkle_strengthened);
  EXPECT_EQ(poseidon_hash(*merkle, in), want) << "arity " << hv.arity;
  EXPECT_EQ(poseidon_hash_reference(*merkle, in), want) << "arity " << hv.arity;

  auto constant = build_poseidon_constants(hv.arity, strength, poseidon_constant_length_tag(4));
  ASSERT_TRUE(constant.ok());
  const Fr want_c = fr_from_u64s(standard ? hv.constant4_standard : hv.constant4_strengthened);
  EXPECT_EQ(poseidon_sponge_constant_length(*constant, counting(4)), want_c) << "arity " << hv.arity;
  if (hv.arity >= 4) {
    EXPECT_EQ(poseidon_hash(*constant, counting(4)), want_c) << "arity " << hv.arity;
  }
}

TEST(Poseidon, NeptuneHashValuesStandard) {
  for (const auto& hv : kHashValues) check_hash_values(hv, PoseidonStrength::kStandard);
}

TEST(Poseidon, NeptuneHashValuesStrengthened) {
  for (const auto& hv : kHashValues) check_hash_values(hv, PoseidonStrength::kStrengthened);
}

// The shared tables are the standard MerkleTree constants.
TEST(Poseidon, SharedTablesMatchHashValues) {
  for (const auto& hv : kHashValues) {
    EXPECT_EQ(poseidon_hash(poseidon_constants(hv.arity), counting(hv.arity)), fr_from_u64s(hv.merkle_standard));
  }
}

// rust-fil-proofs filecoin-hashers/src/poseidon.rs, test_poseidon_hasher: a
// binary Poseidon tree over leaves (1, 0, 0, 1).
TEST(Poseidon, FilecoinHashersBinaryTree) {
  const Fr one = Fr::one(), zero = Fr::zero();
  const Fr i1 = poseidon_hash2(one, zero), i2 = poseidon_hash2(zero, one);
  EXPECT_EQ(i1, fr_from_u64s({0xb339ff6079800b5e, 0xec5907b3dc3094af, 0x93c003cc74a24f26, 0x042f94ffbe786bc3}));
  EXPECT_EQ(poseidon_hash2(i1, i2),
            fr_from_u64s({0xefbb8be3e291e671, 0x77cc72b8cb2b5ad2, 0x30eb6385ae6b74ae, 0x1effebb7b26ad9eb}));
}

// rust-fil-proofs filecoin-hashers/src/poseidon.rs, test_hash_md: 71 ones.
TEST(Poseidon, FilecoinHashersHashMd) {
  const std::vector<Fr> ones(71, Fr::one());
  EXPECT_EQ(poseidon_hash_md(ones),
            fr_from_u64s({0x351c54133b332c90, 0xc26f6d625f4e8195, 0x5fd9623643ed9622, 0x59f42220e09ff6f7}));
}

// Curio lib/proof/tree_r_last_comm_test.go, golden_8_matches_paux_commRLast:
// the roots of the eight tree-R-last files of a 32 GiB sector (a `hexdump`
// of 16-bit little-endian words) hash with arity 8 to the comm_r_last in its
// p_aux file (bytes 32..63).
std::vector<uint8_t> parse_hexdump_words(const char* s) {
  std::vector<uint8_t> out;
  std::istringstream lines(s);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string tok;
    fields >> tok;  // offset
    while (fields >> tok) {
      const unsigned v = unsigned(std::stoul(tok, nullptr, 16));
      out.push_back(uint8_t(v));
      out.push_back(uint8_t(v >> 8));
    }
  }
  return out;
}

TEST(Poseidon, CurioTreeRLastGolden) {
  const char* roots_dump =
      "0000000 4a92 c600 5816 2932 d995 49fc 8a3f 72ec\n"
      "0000010 5b36 a530 9701 95e5 df37 6c24 9fa3 1bfd\n"
      "0000020 95d7 6f8d 68f2 0977 9215 9bea de51 a35c\n"
      "0000030 adb0 af57 fe34 10fd 9122 dba4 ec1a 3a54\n"
      "0000040 fbfa 6411 076c 1cd0 63bf ccfa 6b26 dd46\n"
      "0000050 b01a d30c 05e3 ef60 cf18 fd50 f340 732d\n"
      "0000060 b8dc b4d1 3ebd 2a67 8cd9 e529 05cd 2edc\n"
      "0000070 a709 f06e 8308 87a4 63e1 4efe 9f71 63e6\n"
      "0000080 46d8 37e9 fe87 146c 6ff2 ee49 0f61 4d43\n"
      "0000090 1c02 d1c0 a5ad 6962 085e 4daf f65a 5733\n"
      "00000a0 ae5a e9f4 7d77 313b 4dd7 20ad dd75 84d5\n"
      "00000b0 8c57 7993 efe7 1538 c92c fa19 d127 29c6\n"
      "00000c0 6740 6828 7f4d 5ec8 0f05 db31 7599 552b\n"
      "00000d0 2f2a 609d 0987 eaf0 d6a2 6ac6 96fc 6be4\n"
      "00000e0 b09c 331c 137f bbb4 a4f4 02ae bd96 27d9\n"
      "00000f0 b5db 7924 87e8 d35b 7413 e5c9 7367 2c5f\n";
  const char* paux_dump =
      "0000000 4199 9de5 a224 58a0 5577 c58a 1afa 25ab\n"
      "0000010 d16b 3e2a ef88 ee51 f579 8d8b ad80 4eb9\n"
      "0000020 6bf5 7f7f 8d31 ac88 724d d9e5 fd4e e77d\n"
      "0000030 dff1 1b50 b098 851a fa64 b44c 3b98 4b9e\n";
  const auto roots = parse_hexdump_words(roots_dump);
  const auto paux = parse_hexdump_words(paux_dump);
  ASSERT_EQ(roots.size(), 8u * 32);
  ASSERT_EQ(paux.size(), 64u);
  std::vector<Fr> in;
  for (int i = 0; i < 8; ++i) {
    Node n;
    std::copy(roots.begin() + 32 * i, roots.begin() + 32 * (i + 1), n.begin());
    in.push_back(fr_from_node(n).value());
  }
  Node comm_r_last;
  std::copy(paux.begin() + 32, paux.end(), comm_r_last.begin());
  EXPECT_EQ(node_to_hex(node_from_fr(poseidon_hash(poseidon_constants(8), in))), node_to_hex(comm_r_last));
}

// Curio lib/proof/post_vproof_test.go, TestPoseidonHashMulti: eight nodes
// (little-endian field elements) hashed with arity 8.
TEST(Poseidon, CurioHashMulti) {
  const char* in_hex[8] = {"f743111428ecda9b74a18826f1cc62d48ae1510de17e58645997559f86442f31",
                           "197a6efa37086e3a37108f8460c52bc810e2781aff0091bfd7b74e3f6f752f02",
                           "01c2c12f7930bbb59e3b36dae1c694b33ac6b3f199ec32a8665fadb8338f4f21",
                           "bbe672a853f65cdb2563339ca61d6ad648473b4b4ce44bf3a48486424b865a2d",
                           "937d57295f488cea8099f5525958f1af39c6241614b917835292e8e2314cf908",
                           "3272570cd8ba38c1183629ca72d5e9149d76786ed22c1d591db3d2bccfa7d308",
                           "2d3fc90e11aaf601bd1beae80fc3aba15a9e1f886d8140533ce36cda3dd9f936",
                           "0a017e264d0728bfcd2edb3c6c60cc5a05a02af31a71cdd7bb2da27616f5f630"};
  std::vector<Fr> in;
  for (const char* h : in_hex) in.push_back(fr_from_node(node_from_hex(h).value()).value());
  EXPECT_EQ(node_to_hex(node_from_fr(poseidon_hash(poseidon_constants(8), in))),
            "0737ca506df7d4544f8512df35aaa07ed8a40691e96ae868c23320220fec6866");
}

// The optimised permutation equals the plain one on fresh random inputs,
// including partial preimages (zero padded).
TEST(Poseidon, OptimisedEqualsReference) {
  TestRng rng(fresh_test_seed());
  for (int arity : {2, 4, 8, 11}) {
    const PoseidonConstants& c = poseidon_constants(arity);
    for (int iter = 0; iter < 8; ++iter) {
      std::vector<Fr> in(size_t(1 + rng() % uint64_t(arity)));
      for (auto& x : in) x = Fr::random(rng);
      EXPECT_EQ(poseidon_hash(c, in), poseidon_hash_reference(c, in)) << "arity " << arity;
    }
  }
}

// The factorisations neptune relies on hold: M = M'·M'', M·M^-1 = I, each
// sparse matrix is the M'' it came from, and the counts match the rounds.
TEST(Poseidon, MatrixIdentities) {
  for (int arity : {2, 8, 11}) {
    const PoseidonConstants& c = poseidon_constants(arity);
    const size_t w = size_t(c.width);
    EXPECT_EQ(c.mds.m_prime * c.mds.m_double_prime, c.mds.m);
    EXPECT_EQ(c.mds.m * c.mds.m_inv, FrMatrix::identity(w));
    EXPECT_EQ(c.mds.m, c.mds.m.transpose());  // Cauchy with x_i + y_j is symmetric
    EXPECT_EQ(c.compressed_round_constants.size(), size_t(c.full_rounds) * w + size_t(c.partial_rounds));
    ASSERT_EQ(c.sparse_matrices.size(), size_t(c.partial_rounds));
    for (const auto& s : c.sparse_matrices) {
      EXPECT_EQ(s.w_hat.size(), w);
      EXPECT_EQ(s.v_rest.size(), w - 1);
    }
  }
  EXPECT_EQ(poseidon_constants(2).partial_rounds, 55);
  EXPECT_EQ(poseidon_constants(8).partial_rounds, 57);
  EXPECT_EQ(poseidon_constants(11).partial_rounds, 57);
}

TEST(Poseidon, RejectsBadArity) {
  EXPECT_FALSE(build_poseidon_constants(0, PoseidonStrength::kStandard, Fr::zero()).ok());
  EXPECT_FALSE(build_poseidon_constants(65, PoseidonStrength::kStandard, Fr::zero()).ok());
  EXPECT_FALSE(poseidon_arity_supported(3));
}

}  // namespace
}  // namespace cuzk::filecoin
