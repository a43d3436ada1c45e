// SHA-256 gadget: row counts from bellperson's gadgets/sha256.rs tests and
// digests from FIPS 180-2 (appendix B test vectors).
#include <gtest/gtest.h>

#include <string>

#include "cuzk/base/random.h"
#include "cuzk/filecoin/cs/recording_cs.h"
#include "cuzk/filecoin/cs/sha256.h"
#include "cuzk/filecoin/cs/witness_cs.h"

namespace cuzk::filecoin::snark {
namespace {

// Message bits, most significant bit of each byte first; allocated or constant.
template <class CS>
std::vector<Boolean> message_bits(CS& cs, const std::string& msg, bool allocate) {
  std::vector<Boolean> bits;
  for (size_t i = 0; i < msg.size(); ++i) {
    for (int k = 7; k >= 0; --k) {
      const bool b = (uint8_t(msg[i]) >> k) & 1;
      bits.push_back(allocate ? Boolean(alloc_bit(cs, Name("m ", int64_t(8 * i + 7 - k)), b)) : Boolean::constant(b));
    }
  }
  return bits;
}

std::string digest_hex(const std::vector<Boolean>& bits) {
  static const char* hex = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < bits.size(); i += 4) {
    int nib = 0;
    for (size_t k = 0; k < 4; ++k) nib = nib * 2 + bits[i + k].value();
    s += hex[nib];
  }
  return s;
}

// test_full_block: one compression of 512 allocated bits costs 25,840 rows.
TEST(Sha256, FullBlockCostsTheReferenceRowCount) {
  TestRng rng(fresh_test_seed());
  RecordingCs cs({.check = true});
  std::vector<Boolean> input;
  for (int i = 0; i < 512; ++i) input.push_back(Boolean(alloc_bit(cs, Name("input bit ", i), rng() & 1)));
  const std::vector<Boolean> out = sha256_block_no_padding(cs, Name("block"), input);
  EXPECT_EQ(out.size(), 256u);
  EXPECT_TRUE(cs.satisfied().ok()) << cs.satisfied().message();
  EXPECT_EQ(cs.num_constraints() - 512, 25840u);
}

// test_full_hash: the padded hash of 512 allocated bits costs 44,874 rows.
TEST(Sha256, FullHashCostsTheReferenceRowCount) {
  TestRng rng(fresh_test_seed());
  RecordingCs cs({.check = true});
  std::vector<Boolean> input;
  for (int i = 0; i < 512; ++i) input.push_back(Boolean(alloc_bit(cs, Name("input bit ", i), rng() & 1)));
  sha256(cs, Name("sha256"), input);
  EXPECT_TRUE(cs.satisfied().ok()) << cs.satisfied().message();
  EXPECT_EQ(cs.num_constraints() - 512, 44874u);
  // The witness back end sees the same variables and rows.
  WitnessCs w;
  TestRng rng2(1);
  std::vector<Boolean> input2;
  for (int i = 0; i < 512; ++i) input2.push_back(Boolean(alloc_bit(w, Name("input bit ", i), rng2() & 1)));
  sha256(w, Name("sha256"), input2);
  EXPECT_EQ(w.num_constraints(), cs.num_constraints());
  EXPECT_EQ(w.num_aux(), cs.num_aux());
}

// test_blank_hash: the hash of the empty message folds to constants.
TEST(Sha256, EmptyMessageFoldsToTheConstantDigest) {
  RecordingCs cs({.check = true});
  const std::vector<Boolean> out = sha256(cs, Name("sha256"), {});
  EXPECT_EQ(cs.num_constraints(), 0u);
  for (const Boolean& b : out) EXPECT_TRUE(b.is_constant());
  EXPECT_EQ(digest_hex(out), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

struct Vector {
  const char* message;
  const char* digest;
};
// FIPS 180-2 appendix B.1 and B.2.
constexpr Vector kFips[] = {
    {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
    {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
     "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
};

TEST(Sha256, FipsVectorsAllocatedAndConstant) {
  for (const Vector& v : kFips) {
    for (bool allocate : {true, false}) {
      RecordingCs cs({.check = true});
      const std::vector<Boolean> bits = message_bits(cs, v.message, allocate);
      const std::vector<Boolean> out = sha256(cs, Name("sha256"), bits);
      EXPECT_EQ(digest_hex(out), v.digest) << v.message;
      EXPECT_TRUE(cs.satisfied().ok());
      if (!allocate) {
        EXPECT_EQ(cs.num_constraints(), 0u);
      }
    }
  }
}

}  // namespace
}  // namespace cuzk::filecoin::snark
