// Precompiled file round trips, streaming writer, checksum and corruptions.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "cuzk/base/mapped_file.h"
#include "cuzk/base/thread_pool.h"
#include "cuzk/r1cs/eval.h"
#include "cuzk/r1cs/precompiled.h"
#include "cuzk/r1cs/synthetic.h"
#include "test_util.h"

namespace cuzk::r1cs {
namespace {

using testing::fresh_seed;
using testing::TempPath;

std::vector<uint8_t> read_all(const std::string& path) {
  auto f = MappedFile::open(path);
  EXPECT_TRUE(f.ok()) << f.status().to_string();
  return std::vector<uint8_t>(f->bytes().begin(), f->bytes().end());
}

void write_all(const std::string& path, const std::vector<uint8_t>& bytes) {
  ASSERT_TRUE(write_file(path, bytes).ok());
}

void expect_same(const Circuit& x, const Circuit& y) {
  EXPECT_EQ(x.shape(), y.shape());
  ASSERT_TRUE(std::equal(x.offsets().begin(), x.offsets().end(), y.offsets().begin(), y.offsets().end()));
  ASSERT_TRUE(std::equal(x.terms().begin(), x.terms().end(), y.terms().begin(), y.terms().end()));
  ASSERT_TRUE(std::equal(x.coeffs().begin(), x.coeffs().end(), y.coeffs().begin(), y.coeffs().end()));
}

SyntheticParams small_params(uint64_t seed) {
  SyntheticParams p;
  p.num_constraints = 3000;
  p.num_public_inputs = 5;
  p.num_aux = 3200;
  p.seed = seed;
  return p;
}

TEST(Checksum, StreamingMatchesOneShotForAnySplit) {
  TestRng rng(fresh_seed());
  ThreadPool pool(3);
  for (size_t n : {size_t(0), size_t(1), size_t(31), size_t(33), kChecksumChunkBytes - 1, kChecksumChunkBytes,
                   3 * kChecksumChunkBytes + 77}) {
    std::vector<uint8_t> data(n);
    for (auto& b : data) b = uint8_t(rng());
    const uint64_t one_shot = checksum64(data);
    EXPECT_EQ(checksum64(data, &pool), one_shot);
    StreamingChecksum s;
    size_t pos = 0;
    while (pos < n) {
      size_t take = std::min(n - pos, size_t(rng() % (rng() % 2 ? 100 : 2 * kChecksumChunkBytes)) + 1);
      s.update(ByteSpan(data).subspan(pos, take));
      pos += take;
    }
    EXPECT_EQ(s.finish(), one_shot) << n;
    if (n > 0) {  // every single-bit flip changes the checksum (sampled positions)
      for (int k = 0; k < 20; ++k) {
        const size_t i = rng() % n;
        const uint8_t orig = data[i];
        data[i] ^= uint8_t(1u << (rng() % 8));
        EXPECT_NE(checksum64(data), one_shot) << "flip at " << i;
        data[i] = orig;
      }
    }
  }
  const uint8_t zeros[64] = {};
  EXPECT_NE(checksum64(ByteSpan(zeros, 63)), checksum64(ByteSpan(zeros, 64)));  // length matters
}

TEST(Precompiled, RoundTrip) {
  const uint64_t seed = fresh_seed();
  auto gen = generate_synthetic(small_params(seed));
  ASSERT_TRUE(gen.ok()) << gen.status().to_string();
  TempPath tmp("roundtrip.cuzkr1cs");
  ASSERT_TRUE(write_precompiled(gen->circuit, tmp.path).ok());
  ThreadPool pool(2);
  auto loaded = load_precompiled(tmp.path, {.pool = &pool});
  ASSERT_TRUE(loaded.ok()) << loaded.status().to_string();
  expect_same(gen->circuit, *loaded);
  EXPECT_TRUE(is_satisfied(*loaded, gen->witness).ok());
  auto header = read_precompiled_header(tmp.path);
  ASSERT_TRUE(header.ok());
  EXPECT_EQ(header->shape, gen->circuit.shape());
  EXPECT_EQ(header->num_terms, gen->circuit.num_nonzeros());
  EXPECT_EQ(header->file_bytes, read_all(tmp.path).size());
  EXPECT_EQ(header->terms_offset % 64, 0u);
  EXPECT_EQ(header->offsets_offset % 64, 0u);
  EXPECT_EQ(header->coeffs_offset % 64, 0u);
}

TEST(Precompiled, EmptyCircuitRoundTrip) {
  CircuitBuilder b(1, 0);
  Circuit c = *std::move(b).build();
  TempPath tmp("empty.cuzkr1cs");
  ASSERT_TRUE(write_precompiled(c, tmp.path).ok());
  auto loaded = load_precompiled(tmp.path);
  ASSERT_TRUE(loaded.ok()) << loaded.status().to_string();
  EXPECT_EQ(loaded->num_constraints(), 0u);
  EXPECT_EQ(loaded->num_inputs(), 1u);
}

// The streaming writer and the in-memory path give byte-identical files.
TEST(Precompiled, StreamingWriterMatchesInMemory) {
  const uint64_t seed = fresh_seed();
  SyntheticParams p = small_params(seed);
  p.num_aux = 9000;  // free variables to consume
  TempPath streamed("streamed.cuzkr1cs"), direct("direct.cuzkr1cs");
  SyntheticStats stats;
  auto witness = write_synthetic_precompiled(p, streamed.path, &stats);
  ASSERT_TRUE(witness.ok()) << witness.status().to_string();
  auto gen = generate_synthetic(p);
  ASSERT_TRUE(gen.ok());
  EXPECT_EQ(*witness, gen->witness);
  ASSERT_TRUE(write_precompiled(gen->circuit, direct.path).ok());
  EXPECT_EQ(read_all(streamed.path), read_all(direct.path));
  auto loaded = load_precompiled(streamed.path);
  ASSERT_TRUE(loaded.ok()) << loaded.status().to_string();
  EXPECT_TRUE(is_satisfied(*loaded, *witness).ok());
  std::ifstream side(streamed.path + ".offsets");
  EXPECT_FALSE(side.good()) << "offsets side file left behind";
}

class Corruption : public ::testing::Test {
 protected:
  void SetUp() override {
    SyntheticParams p = small_params(fresh_seed());
    p.num_constraints = 500;
    p.num_aux = 500;
    auto gen = generate_synthetic(p);
    ASSERT_TRUE(gen.ok());
    ASSERT_TRUE(write_precompiled(gen->circuit, good_.path).ok());
    bytes_ = read_all(good_.path);
    auto h = parse_precompiled_header(bytes_, bytes_.size());
    ASSERT_TRUE(h.ok()) << h.status().to_string();
    header_ = *h;
  }
  // Loads `bytes` from a file; returns the error.
  Status load(const std::vector<uint8_t>& bytes, LoadOptions options = {}) {
    write_all(bad_.path, bytes);
    auto c = load_precompiled(bad_.path, options);
    return c.ok() ? ok_status() : c.status();
  }
  static void expect_error(const Status& s, StatusCode code, const std::string& needle) {
    EXPECT_EQ(s.code(), code) << s.to_string();
    EXPECT_NE(s.message().find(needle), std::string::npos) << s.to_string();
  }

  TempPath good_{"good.cuzkr1cs"}, bad_{"bad.cuzkr1cs"};
  std::vector<uint8_t> bytes_;
  PrecompiledHeader header_;
};

TEST_F(Corruption, Truncation) {
  EXPECT_TRUE(load(bytes_).ok());
  const uint64_t cuts[] = {0, 5, 127, 128, header_.offsets_offset - 3, header_.offsets_offset + 10,
                           header_.coeffs_offset + 1, bytes_.size() - 1};
  for (uint64_t cut : cuts) {
    std::vector<uint8_t> t(bytes_.begin(), bytes_.begin() + long(cut));
    Status s = load(t);
    expect_error(s, StatusCode::kDataLoss, "truncated at byte " + std::to_string(cut));
  }
  std::vector<uint8_t> t(bytes_.begin(), bytes_.begin() + long(header_.offsets_offset + 10));
  expect_error(load(t), StatusCode::kDataLoss, "section 'offsets'");
  std::vector<uint8_t> longer = bytes_;
  longer.push_back(0);
  expect_error(load(longer), StatusCode::kDataLoss, "trailing bytes at byte " + std::to_string(bytes_.size()));
}

TEST_F(Corruption, FlippedPayloadByteFailsChecksum) {
  TestRng rng(fresh_seed());
  for (int k = 0; k < 5; ++k) {
    std::vector<uint8_t> b = bytes_;
    const size_t i = 128 + rng() % (b.size() - 128);
    b[i] ^= 0x10;
    expect_error(load(b), StatusCode::kDataLoss, "payload checksum mismatch");
  }
}

TEST_F(Corruption, FlippedHeaderByteFailsHeaderChecksum) {
  std::vector<uint8_t> b = bytes_;
  b[33] ^= 1;  // num_constraints
  expect_error(load(b), StatusCode::kDataLoss, "header checksum mismatch at byte 120");
}

TEST_F(Corruption, BadMagicAndVersion) {
  std::vector<uint8_t> b = bytes_;
  b[0] = 'X';
  expect_error(load(b), StatusCode::kInvalidArgument, "bad magic at byte 0");
  b = bytes_;
  PrecompiledHeader h = header_;
  h.version = 7;
  encode_precompiled_header(h, b.data());
  expect_error(load(b), StatusCode::kInvalidArgument, "unsupported version 7 at byte 8");
}

TEST_F(Corruption, HugeCountsNeverAllocate) {
  // Counts patched with a valid header checksum: the layout check rejects
  // them from the header and the file size alone.
  std::vector<uint8_t> b = bytes_;
  PrecompiledHeader h = header_;
  h.num_terms = uint64_t(1) << 31;
  encode_precompiled_header(h, b.data());
  expect_error(load(b), StatusCode::kDataLoss, "offsets_offset at byte 64");

  h = header_;
  h.shape.num_constraints = uint64_t(1) << 40;
  encode_precompiled_header(h, b.data());
  expect_error(load(b), StatusCode::kDataLoss, "exceeds 2^32-1");

  // A consistent header declaring a huge file: reported as truncation.
  auto huge = precompiled_layout({1, 10, uint64_t(1) << 31}, (uint64_t(1) << 32) - 1, 1000);
  ASSERT_TRUE(huge.ok());
  encode_precompiled_header(*huge, b.data());
  expect_error(load(b), StatusCode::kDataLoss, "truncated at byte " + std::to_string(b.size()));
}

TEST_F(Corruption, StructuralErrorBehindValidChecksum) {
  // A term pointing past num_vars, with both checksums recomputed: only
  // validation can catch it.
  std::vector<uint8_t> b = bytes_;
  store_u32le(b.data() + header_.terms_offset, uint32_t(header_.shape.num_vars()));
  PrecompiledHeader h = header_;
  h.payload_checksum = checksum64(ByteSpan(b).subspan(128));
  encode_precompiled_header(h, b.data());
  expect_error(load(b), StatusCode::kInvalidArgument, "row 0 A term 0: var");
  EXPECT_TRUE(load(b, {.validate = false}).ok());
  EXPECT_TRUE(load(bytes_, {.verify_checksum = false}).ok());
}

TEST(FileIo, WriterPublishesOnlyOnCommit) {
  TempPath tmp("writer.bin");
  {
    auto w = FileWriter::create(tmp.path);
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE(w->write(std::vector<uint8_t>{1, 2, 3}).ok());
  }  // dropped without commit: neither the file nor the partial remains
  EXPECT_FALSE(std::ifstream(tmp.path).good());
  auto partials_left = [&] {
    const std::filesystem::path p(tmp.path);
    int n = 0;
    for (const auto& e : std::filesystem::directory_iterator(p.parent_path()))
      if (e.path().filename().string().rfind(p.filename().string() + ".partial", 0) == 0) ++n;
    return n;
  };
  EXPECT_EQ(partials_left(), 0);
  auto w = FileWriter::create(tmp.path);
  ASSERT_TRUE(w.ok());
  std::vector<uint8_t> big(5 << 20, 7);  // larger than the write buffer
  ASSERT_TRUE(w->write(std::vector<uint8_t>{1, 2, 3}).ok());
  ASSERT_TRUE(w->write(big).ok());
  ASSERT_TRUE(w->write_zeros(10).ok());
  ASSERT_TRUE(w->write_at(1, std::vector<uint8_t>{9}).ok());
  EXPECT_EQ(w->write_at(big.size() + 10, std::vector<uint8_t>{0, 0, 0, 0}).code(), StatusCode::kOutOfRange);
  EXPECT_EQ(w->bytes_written(), 3 + big.size() + 10);
  ASSERT_TRUE(w->commit().ok());
  std::vector<uint8_t> got = read_all(tmp.path);
  ASSERT_EQ(got.size(), 3 + big.size() + 10);
  EXPECT_EQ(got[0], 1);
  EXPECT_EQ(got[1], 9);
  EXPECT_EQ(got[2], 3);
  EXPECT_EQ(got[3 + big.size() - 1], 7);
  EXPECT_EQ(got.back(), 0);
  EXPECT_EQ(partials_left(), 0);
  // Two writers of one path (as two daemons generating the same cache file):
  // each writes its own partial, each commit publishes a whole file.
  {
    auto a = FileWriter::create(tmp.path), b = FileWriter::create(tmp.path);
    ASSERT_TRUE(a.ok() && b.ok());
    std::vector<uint8_t> xa(3 << 20, 0xaa), xb(2 << 20, 0xbb);
    ASSERT_TRUE(a->write(xa).ok());
    ASSERT_TRUE(b->write(xb).ok());
    ASSERT_TRUE(a->commit().ok());
    EXPECT_EQ(read_all(tmp.path), xa);
    ASSERT_TRUE(b->commit().ok());
    EXPECT_EQ(read_all(tmp.path), xb);
  }
  EXPECT_EQ(partials_left(), 0);
  TempPath empty("empty.bin");
  ASSERT_TRUE(write_file(empty.path, {}).ok());
  auto m = MappedFile::open(empty.path);
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->size(), 0u);
}

TEST(Precompiled, MissingFile) {
  auto c = load_precompiled("/nonexistent/dir/x.cuzkr1cs");
  EXPECT_EQ(c.status().code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace cuzk::r1cs
