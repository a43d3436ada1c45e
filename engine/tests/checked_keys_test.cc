// Loading a key file with keys.check_points: every point is checked once per
// content and the digest recorded in <cache_dir>/checked-keys; a recorded
// content is not checked again (shown with a key whose H[0] lies outside the
// subgroup: refused without the record, loaded with it); with the checks off
// nothing is recorded.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

#include "cuzk/base/mapped_file.h"
#include "cuzk/ec/curves.h"
#include "cuzk/ec/zkey_codec.h"
#include "cuzk/io/key_check.h"
#include "cuzk/io/zkey.h"
#include "test_support.h"

namespace cuzk::engine {
namespace {

using testing::TempDir;

class CheckedKeys : public ::testing::Test {
 protected:
  void SetUp() override {
    auto made = ensure_demo_files(testing::small_demo(), dir_.path() + "/demo", nullptr);
    ASSERT_TRUE(made.ok()) << made.status().to_string();
    good_ = dir_.path() + "/good.zkey";
    std::filesystem::copy_file(demo_files(testing::small_demo(), dir_.path() + "/demo").zkey, good_);
    bad_ = dir_.path() + "/bad.zkey";
    std::string bytes = testing::read_file(good_);
    auto c = io::parse_iden3_container(ByteSpan(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()), "zkey");
    ASSERT_TRUE(c.ok());
    TestRng rng(fresh_test_seed());
    const auto point = ec::g1_to_zkey(ec::random_curve_point<ec::G1Curve>(rng));
    std::memcpy(bytes.data() + c->find(9)->offset, point.data(), point.size());  // H[0]
    ASSERT_TRUE(write_file(bad_, ByteSpan(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size())).ok());
  }

  Status load(const std::string& zkey, bool check) {
    CircuitSpec spec;
    spec.id = "k";
    spec.zkey = zkey;
    SourceOptions so;
    so.check_points = check;
    so.cache_dir = cache();
    auto source = make_circuit_source(spec, so);
    if (!source.ok()) return source.status();
    return (*source)->load(nullptr, nullptr).status();
  }
  std::string cache() const { return dir_.path() + "/cache"; }
  io::Sha256Digest digest(const std::string& path) const {
    auto f = MappedFile::open(path);
    EXPECT_TRUE(f.ok());
    return io::key_content_digest(f->bytes());
  }
  size_t records() const {
    std::error_code ec;
    size_t n = 0;
    for (auto it = std::filesystem::directory_iterator(cache() + "/checked-keys", ec);
         !ec && it != std::filesystem::directory_iterator(); ++it)
      ++n;
    return n;
  }

  TempDir dir_;
  std::string good_, bad_;
};

TEST_F(CheckedKeys, AKeyIsCheckedOnceAndRecordedByContent) {
  io::CheckedKeyRecord record(cache() + "/checked-keys");
  EXPECT_FALSE(record.contains(digest(good_)));
  ASSERT_TRUE(load(good_, true).ok());
  EXPECT_TRUE(record.contains(digest(good_)));
  EXPECT_EQ(records(), 1u);
  ASSERT_TRUE(load(good_, true).ok());  // found in the record
  EXPECT_EQ(records(), 1u);
}

TEST_F(CheckedKeys, TheRecordIsWhatSkipsTheChecks) {
  Status refused = load(bad_, true);
  EXPECT_EQ(refused.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(refused.message().find("subgroup"), std::string::npos) << refused.message();
  EXPECT_NE(refused.message().find("H[0]"), std::string::npos) << refused.message();
  EXPECT_EQ(records(), 0u);  // a failed check records nothing
  ASSERT_TRUE(io::CheckedKeyRecord(cache() + "/checked-keys").remember(digest(bad_), bad_).ok());
  EXPECT_TRUE(load(bad_, true).ok());
}

TEST_F(CheckedKeys, NothingIsRecordedWithTheChecksOff) {
  EXPECT_TRUE(load(bad_, false).ok());  // only the bulk points' subgroup test is skipped
  EXPECT_TRUE(load(good_, false).ok());
  EXPECT_EQ(records(), 0u);
}

}  // namespace
}  // namespace cuzk::engine
