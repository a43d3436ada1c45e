// Boolean gadgets against bellpepper-core's own tests (gadgets/boolean.rs):
// result kinds of xor / and, the folding of sha256_ch / sha256_maj, values,
// satisfaction, and the row a wrong value breaks.
#include <gtest/gtest.h>

#include <cstring>

#include "cuzk/base/random.h"
#include "cuzk/filecoin/cs/boolean.h"
#include "cuzk/filecoin/cs/num.h"
#include "cuzk/filecoin/cs/recording_cs.h"
#include "cuzk/filecoin/cs/witness_cs.h"

namespace cuzk::filecoin::snark {
namespace {

using K = Boolean::Kind;

// bellpepper's OperandType.
enum class Op { kTrue, kFalse, kAllocTrue, kAllocFalse, kNegTrue, kNegFalse };
constexpr Op kOps[] = {Op::kTrue, Op::kFalse, Op::kAllocTrue, Op::kAllocFalse, Op::kNegTrue, Op::kNegFalse};

bool op_value(Op o) { return o == Op::kTrue || o == Op::kAllocTrue || o == Op::kNegFalse; }
bool op_constant(Op o) { return o == Op::kTrue || o == Op::kFalse; }
K op_kind(Op o) {
  if (op_constant(o)) return K::kConstant;
  return (o == Op::kAllocTrue || o == Op::kAllocFalse) ? K::kIs : K::kNot;
}

// A RecordingCs that gives the allocation whose name is `flip` the opposite
// bit (bellpepper's cs.set on a named variable).
class FlipCs : public RecordingCs {
 public:
  explicit FlipCs(const char* flip) : RecordingCs({.check = true}), flip_(flip) {}
  Var alloc(Name name, const Fr& v) {
    const bool hit = flip_ && std::strcmp(name.head, flip_) == 0;
    return RecordingCs::alloc(name, hit ? Fr::one() - v : v);
  }

 private:
  const char* flip_;
};

template <class CS>
Boolean make(CS& cs, Op o, const char* name) {
  switch (o) {
    case Op::kTrue: return Boolean::constant(true);
    case Op::kFalse: return Boolean::constant(false);
    case Op::kAllocTrue: return Boolean(alloc_bit(cs, Name(name), true));
    case Op::kAllocFalse: return Boolean(alloc_bit(cs, Name(name), false));
    case Op::kNegTrue: return Boolean(alloc_bit(cs, Name(name), true)).negated();
    case Op::kNegFalse: return Boolean(alloc_bit(cs, Name(name), false)).negated();
  }
  return {};
}

TEST(AllocatedBit, NonBooleanValueBreaksTheBooleanConstraint) {
  RecordingCs cs({.check = true});
  const Var v = cs.alloc(Name("x"), Fr::from_uint(2));
  cs.enforce(
      Name("boolean constraint"), [&](Lc& lc) { lc.add(Var::one()).sub(v); }, [&](Lc& lc) { lc.add(v); },
      [](Lc&) {});
  EXPECT_NE(cs.satisfied().message().find("(boolean constraint)"), std::string::npos);
  RecordingCs ok({.check = true});
  alloc_bit(ok, Name("b"), true);
  EXPECT_TRUE(ok.satisfied().ok());
  EXPECT_EQ(ok.num_constraints(), 1u);
}

// test_boolean_xor's table: false is the identity, true negates, a ⊕ ¬b is ¬(a ⊕ b).
TEST(Boolean, XorKindsValuesAndSatisfaction) {
  for (Op x : kOps) {
    for (Op y : kOps) {
      RecordingCs cs({.check = true});
      const Boolean a = make(cs, x, "a"), b = make(cs, y, "b");
      const uint64_t rows_before = cs.num_constraints();
      const Boolean c = boolean_xor(cs, Name("xor"), a, b);
      EXPECT_TRUE(cs.satisfied().ok());
      EXPECT_EQ(c.value(), op_value(x) != op_value(y));
      K expect;
      if (op_constant(x) && op_constant(y)) expect = K::kConstant;
      else if (x == Op::kFalse) expect = op_kind(y);
      else if (y == Op::kFalse) expect = op_kind(x);
      else if (x == Op::kTrue) expect = op_kind(y) == K::kIs ? K::kNot : K::kIs;
      else if (y == Op::kTrue) expect = op_kind(x) == K::kIs ? K::kNot : K::kIs;
      else expect = op_kind(x) == op_kind(y) ? K::kIs : K::kNot;
      EXPECT_EQ(c.kind(), expect) << int(x) << " " << int(y);
      const bool allocates = !op_constant(x) && !op_constant(y);
      EXPECT_EQ(cs.num_constraints() - rows_before, allocates ? 1u : 0u);
    }
  }
}

// test_boolean_and's table: false wins, true is the identity, otherwise one
// new bit (and / and_not / nor).
TEST(Boolean, AndKindsValuesAndSatisfaction) {
  for (Op x : kOps) {
    for (Op y : kOps) {
      RecordingCs cs({.check = true});
      const Boolean a = make(cs, x, "a"), b = make(cs, y, "b");
      const uint64_t rows_before = cs.num_constraints();
      const Boolean c = boolean_and(cs, Name("and"), a, b);
      EXPECT_TRUE(cs.satisfied().ok());
      EXPECT_EQ(c.value(), op_value(x) && op_value(y));
      K expect;
      if (x == Op::kFalse || y == Op::kFalse || (op_constant(x) && op_constant(y))) expect = K::kConstant;
      else if (x == Op::kTrue) expect = op_kind(y);
      else if (y == Op::kTrue) expect = op_kind(x);
      else expect = K::kIs;
      EXPECT_EQ(c.kind(), expect) << int(x) << " " << int(y);
      EXPECT_EQ(cs.num_constraints() - rows_before, (!op_constant(x) && !op_constant(y)) ? 1u : 0u);
      // or = ¬(¬a ∧ ¬b)
      RecordingCs cs2({.check = true});
      const Boolean o = boolean_or(cs2, Name("or"), make(cs2, x, "a"), make(cs2, y, "b"));
      EXPECT_TRUE(cs2.satisfied().ok());
      EXPECT_EQ(o.value(), op_value(x) || op_value(y));
    }
  }
}

// test_boolean_sha256_ch / _maj: every combination of operand kinds gives
// the right value and holds; all constants cost nothing; three allocated
// operands cost exactly the reference's rows, and flipping the result breaks
// "ch computation" / "maj computation".
template <class F>
void check_triop(F gadget, const char* result_name, const char* row_name, uint64_t full_rows, bool (*expect)(bool, bool, bool)) {
  for (Op x : kOps) {
    for (Op y : kOps) {
      for (Op z : kOps) {
        RecordingCs cs({.check = true});
        const Boolean a = make(cs, x, "a"), b = make(cs, y, "b"), c = make(cs, z, "c");
        const uint64_t rows_before = cs.num_constraints();
        const Boolean r = gadget(cs, a, b, c);
        EXPECT_TRUE(cs.satisfied().ok());
        EXPECT_EQ(r.value(), expect(op_value(x), op_value(y), op_value(z)));
        const uint64_t rows = cs.num_constraints() - rows_before;
        if (op_constant(x) && op_constant(y) && op_constant(z)) {
          EXPECT_EQ(rows, 0u);
        }
        if (op_constant(x) || op_constant(y) || op_constant(z)) {
          EXPECT_LE(rows, 1u);
          continue;
        }
        EXPECT_EQ(rows, full_rows);
        FlipCs flipped(result_name);
        const Boolean a2 = make(flipped, x, "a"), b2 = make(flipped, y, "b"), c2 = make(flipped, z, "c");
        gadget(flipped, a2, b2, c2);
        const std::string m = flipped.satisfied().message();
        EXPECT_NE(m.find(std::string("/") + row_name + ")"), std::string::npos) << m;
      }
    }
  }
}

TEST(Boolean, Sha256Ch) {
  check_triop([](auto& cs, const Boolean& a, const Boolean& b, const Boolean& c) { return sha256_ch(cs, Name("ch"), a, b, c); },
              "ch", "ch computation", 1, [](bool a, bool b, bool c) { return (a && b) != (!a && c); });
}

TEST(Boolean, Sha256Maj) {
  check_triop(
      [](auto& cs, const Boolean& a, const Boolean& b, const Boolean& c) { return sha256_maj(cs, Name("maj"), a, b, c); },
      "maj", "maj computation", 2, [](bool a, bool b, bool c) { return ((a && b) != (a && c)) != (b && c); });
}

// test_enforce_equal: constants and bits in all combinations.
TEST(Boolean, EnforceEqual) {
  for (Op x : kOps) {
    for (Op y : kOps) {
      RecordingCs cs({.check = true});
      const Boolean a = make(cs, x, "a"), b = make(cs, y, "b");
      enforce_equal(cs, Name("eq"), a, b);
      const bool equal = op_value(x) == op_value(y);
      const bool holds = cs.satisfied().ok() && cs.status().ok();
      EXPECT_EQ(holds, equal) << int(x) << " " << int(y);
    }
  }
}

// test_alloc_conditionally.
TEST(AllocatedBit, AllocConditionally) {
  for (bool must_be_false : {false, true}) {
    for (bool value : {false, true}) {
      RecordingCs cs({.check = true});
      const AllocatedBit b = alloc_bit(cs, Name("b"), must_be_false);
      alloc_bit_conditionally(cs, Name("alloc_conditionally"), value, b);
      EXPECT_EQ(cs.satisfied().ok(), !(value && must_be_false));
    }
  }
}

// test_field_into_allocated_bits_le / test_into_bits: 255 bits, least
// significant first, plus one unpacking row; the bits reassemble the value.
TEST(Num, ToBitsLe) {
  TestRng rng(fresh_test_seed());
  const Fr v = Fr::random(rng);
  RecordingCs cs({.check = true});
  const AllocatedNum n = alloc_num(cs, Name("n"), v);
  const std::vector<Boolean> bits = to_bits_le(cs, Name("bits"), n);
  ASSERT_EQ(bits.size(), 255u);
  EXPECT_TRUE(cs.satisfied().ok());
  EXPECT_EQ(cs.num_constraints(), 256u);
  const Fr::Repr c = v.canonical();
  for (size_t i = 0; i < 255; ++i) EXPECT_EQ(bits[i].value(), bool((c[i / 64] >> (i % 64)) & 1)) << i;
}

// test_num_* : add, mul, square hold; a wrong product is named.
TEST(Num, Arithmetic) {
  TestRng rng(fresh_test_seed());
  RecordingCs cs({.check = true});
  const AllocatedNum a = alloc_num(cs, Name("a"), Fr::random(rng));
  const AllocatedNum b = alloc_num(cs, Name("b"), Fr::random(rng));
  EXPECT_EQ(num_add(cs, Name("add"), a, b).value, a.value + b.value);
  EXPECT_EQ(num_mul(cs, Name("mul"), a, b).value, a.value * b.value);
  EXPECT_EQ(num_square(cs, Name("sq"), a).value, a.value.square());
  EXPECT_TRUE(cs.satisfied().ok());
  EXPECT_EQ(cs.num_constraints(), 3u);
}

// pack_into_inputs / compute_multipacking (bellperson test_multipacking):
// the inputs are the packed chunks of kFrCapacity bits.
TEST(Multipack, PackIntoInputsMatchesComputeMultipacking) {
  TestRng rng(fresh_test_seed());
  for (size_t n : {1u, 253u, 254u, 255u, 600u}) {
    RecordingCs cs({.check = true});
    std::vector<bool> raw;
    std::vector<Boolean> bits;
    for (size_t i = 0; i < n; ++i) {
      raw.push_back(rng() & 1);
      bits.push_back(Boolean(alloc_bit(cs, Name("bit ", int64_t(i)), raw.back())));
    }
    pack_into_inputs(cs, Name("pack"), bits);
    EXPECT_TRUE(cs.satisfied().ok());
    const std::vector<Fr> expect = compute_multipacking(raw);
    ASSERT_EQ(cs.num_inputs(), 1 + expect.size());
    for (size_t i = 0; i < expect.size(); ++i) EXPECT_EQ(cs.value(Var::input(1 + i)), expect[i]);
  }
}

TEST(Boolean, ReverseBitNumberingPadsAndReversesEachByte) {
  std::vector<Boolean> bits;
  for (int i = 0; i < 10; ++i) bits.push_back(Boolean::constant(i == 0 || i == 9));
  const std::vector<Boolean> r = reverse_bit_numbering(bits);
  ASSERT_EQ(r.size(), 16u);
  EXPECT_TRUE(r[7].value());
  EXPECT_TRUE(r[14].value());  // bit 9 = second byte's bit 1 -> position 8 + 6
  int ones = 0;
  for (const Boolean& b : r) ones += b.value();
  EXPECT_EQ(ones, 2);
}

}  // namespace
}  // namespace cuzk::filecoin::snark
