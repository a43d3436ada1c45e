#include <algorithm>
#include <cstring>
#include <mutex>
#include <string>

#include "circom_container.h"
#include "cuzk/base/mapped_file.h"
#include "cuzk/io/circom.h"

namespace cuzk::io {
namespace {

using circom::at;
using circom::Cursor;
using circom::Container;
using circom::Section;

constexpr std::string_view kKind = "wtns";
constexpr uint32_t kVersion = 2;
constexpr uint32_t kHeaderSection = 1, kValuesSection = 2;
constexpr uint64_t kHeaderBytes = 4 + 32 + 4;
constexpr uint64_t kFourGiB = uint64_t(1) << 32;

struct HeaderFields {
  uint32_t n8 = 0;
  uint32_t count = 0;
};

Status parse_header(ByteSpan bytes, const Section& s, HeaderFields* h) {
  Cursor cur(bytes, s, kKind);
  uint64_t prime_at = 0;
  RETURN_IF_ERROR(circom::read_field(cur, kKind, "n8", &h->n8, &prime_at));
  if (s.size != kHeaderBytes) {
    return invalid_argument("wtns: header section (section 1" + at(s.header_offset) + ") has " +
                            std::to_string(s.size) + " bytes, expected 40 for n8 = 32");
  }
  cur.take(32);
  h->count = cur.u32();
  if (h->count == 0) return invalid_argument("wtns: nWitness" + at(prime_at + 32) + " is 0: ONE is missing");
  return ok_status();
}

// circom_runtime's JavaScript writer gets section 2's length wrong from
// 4 GiB on; the header (section 1, written first) tells the true length.
uint64_t fix_values_size(ByteSpan bytes, const Section& s, const std::vector<Section>& before) {
  if (s.id != kValuesSection) return s.size;
  for (const Section& h : before) {
    if (h.id != kHeaderSection || h.size != kHeaderBytes) continue;
    const uint64_t n8 = load_u32le(bytes.data() + h.offset);
    const uint64_t count = load_u32le(bytes.data() + h.offset + 4 + 32);
    const uint64_t expected = n8 * count;
    if (expected >= kFourGiB && s.size != expected && bytes.size() - s.offset == expected) return expected;
  }
  return s.size;
}

// Converts the values; reports the smallest index that is not reduced.
StatusOr<std::vector<Fr>> convert_values(ByteSpan bytes, uint64_t values_offset, uint64_t count, ThreadPool* pool) {
  std::vector<Fr> w(count);
  std::mutex mu;
  uint64_t bad = ~uint64_t(0);  // GUARDED_BY(mu)
  auto convert = [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      if (!circom::fr_from_le(bytes.data() + values_offset + 32 * i, &w[i])) {
        std::lock_guard<std::mutex> lock(mu);
        bad = std::min<uint64_t>(bad, i);
        return;
      }
    }
  };
  if (pool != nullptr) pool->parallel_for(count, 1 << 16, convert);
  else convert(0, count);
  if (bad != ~uint64_t(0)) {
    return invalid_argument("wtns: witness value " + std::to_string(bad) + at(values_offset + 32 * bad) +
                            " is not reduced (>= r)");
  }
  if (!w[0].is_one()) {
    return invalid_argument("wtns: witness value 0" + at(values_offset) + " is not 1 (ONE)");
  }
  return w;
}

}  // namespace

StatusOr<WtnsHeader> parse_wtns_header(ByteSpan bytes) {
  ASSIGN_OR_RETURN(Container c,
                   parse_iden3_container(bytes, kKind, [&](const Section& s, const std::vector<Section>& before) {
                     return fix_values_size(bytes, s, before);
                   }));
  if (c.version != kVersion) {
    return invalid_argument("wtns: unsupported version " + std::to_string(c.version) + at(4) + " (expected 2)");
  }
  ASSIGN_OR_RETURN(const Section* hs, circom::find_section(c, kKind, kHeaderSection, "header", true));
  HeaderFields h;
  RETURN_IF_ERROR(parse_header(bytes, *hs, &h));
  ASSIGN_OR_RETURN(const Section* vs, circom::find_section(c, kKind, kValuesSection, "witness values", true));
  const uint64_t expected = uint64_t(h.n8) * h.count;
  if (vs->size != expected) {
    return invalid_argument("wtns: section 2 (header" + at(vs->header_offset) + ") has " + std::to_string(vs->size) +
                            " bytes, expected n8·nWitness = " + std::to_string(expected));
  }
  return WtnsHeader{.count = h.count, .values_offset = vs->offset, .end_offset = c.end_offset};
}

StatusOr<std::vector<Fr>> parse_wtns(ByteSpan bytes, ThreadPool* pool) {
  ASSIGN_OR_RETURN(WtnsHeader h, parse_wtns_header(bytes));
  return convert_values(bytes, h.values_offset, h.count, pool);
}

StatusOr<std::vector<Fr>> read_wtns(const std::string& path, ThreadPool* pool) {
  ASSIGN_OR_RETURN(MappedFile file, MappedFile::open(path));
  file.advise_sequential();
  auto w = parse_wtns(file.bytes(), pool);
  if (!w.ok()) return w.status().with_context(path);
  return w;
}

namespace {

// The file up to the first witness value (76 bytes).
std::vector<uint8_t> wtns_preamble(uint64_t count) {
  std::vector<uint8_t> out(12 + 12 + kHeaderBytes + 12);
  uint8_t* p = out.data();
  std::memcpy(p, "wtns", 4);
  store_u32le(p + 4, kVersion);
  store_u32le(p + 8, 2);
  store_u32le(p + 12, kHeaderSection);
  store_u64le(p + 16, kHeaderBytes);
  store_u32le(p + 24, 32);
  std::memcpy(p + 28, circom::bls12_381_r_le(), 32);
  store_u32le(p + 60, uint32_t(count));
  store_u32le(p + 64, kValuesSection);
  store_u64le(p + 68, 32 * count);
  return out;
}

}  // namespace

std::vector<uint8_t> serialize_wtns(std::span<const Fr> witness) {
  std::vector<uint8_t> out = wtns_preamble(witness.size());
  const size_t base = out.size();
  out.resize(base + 32 * witness.size());
  for (size_t i = 0; i < witness.size(); ++i) circom::fr_to_le(witness[i], out.data() + base + 32 * i);
  return out;
}

Status write_wtns(std::span<const Fr> witness, const std::string& path) {
  if (witness.size() > 0xffffffffull) return invalid_argument("wtns writer: more than 2^32-1 values");
  ASSIGN_OR_RETURN(FileWriter file, FileWriter::create(path));
  RETURN_IF_ERROR(file.write(wtns_preamble(witness.size())));
  constexpr size_t kBlock = 1 << 15;  // values per write
  std::vector<uint8_t> block(32 * kBlock);
  for (size_t i = 0; i < witness.size(); i += kBlock) {
    const size_t n = std::min(kBlock, witness.size() - i);
    for (size_t k = 0; k < n; ++k) circom::fr_to_le(witness[i + k], block.data() + 32 * k);
    RETURN_IF_ERROR(file.write(ByteSpan(block.data(), 32 * n)));
  }
  return file.commit();
}

}  // namespace cuzk::io
