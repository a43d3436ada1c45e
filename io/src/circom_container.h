// Reading the sections of iden3 containers (parse_iden3_container,
// cuzk/io/iden3.h): a bounds-checked cursor, the field header of .r1cs and
// .wtns, canonical values. Internal to io/.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/base/bytes.h"
#include "cuzk/base/status.h"
#include "cuzk/io/iden3.h"
#include "cuzk/r1cs/circuit.h"

namespace cuzk::io::circom {

using Section = Iden3Section;
using Container = Iden3Container;

// The unique section with this id: NOT_FOUND-like INVALID_ARGUMENT when
// absent and `required`, INVALID_ARGUMENT when repeated; null when absent
// and not required.
StatusOr<const Section*> find_section(const Container& c, std::string_view kind, uint32_t id, const char* name,
                                      bool required);

// Reads little-endian fields inside one section, never past its end.
class Cursor {
 public:
  Cursor(ByteSpan bytes, const Section& s, std::string_view kind)
      : bytes_(bytes), pos_(s.offset), end_(s.end()), id_(s.id), kind_(kind) {}

  uint64_t pos() const { return pos_; }
  uint64_t remaining() const { return end_ - pos_; }
  // Error naming the current offset unless `n` bytes remain.
  Status need(uint64_t n, std::string_view what) const;
  uint32_t u32() { return load_u32le(take(4)); }
  uint64_t u64() { return load_u64le(take(8)); }
  // REQUIRES: need(n) succeeded.
  const uint8_t* take(uint64_t n) {
    const uint8_t* p = bytes_.data() + pos_;
    pos_ += n;
    return p;
  }

 private:
  ByteSpan bytes_;
  uint64_t pos_, end_;
  uint32_t id_;
  std::string_view kind_;
};

std::string at(uint64_t offset);

// BLS12-381 r as 32 little-endian bytes.
const uint8_t* bls12_381_r_le();
// Checks a field header: size 32 and prime r. `size_at`/`prime_at` are the
// offsets of the two fields; `prime` holds `field_bytes` bytes, or is null
// when they are not available (then this is an error).
Status check_field(std::string_view kind, uint32_t field_bytes, uint64_t size_at, const uint8_t* prime,
                   uint64_t prime_at);

// Reads a header's field size (named `size_name`, e.g. "n8") and checks it
// and the prime that follows with check_field. Leaves the cursor at the
// prime; `prime_at` receives its offset.
Status read_field(Cursor& cur, std::string_view kind, std::string_view size_name, uint32_t* field_bytes,
                  uint64_t* prime_at);

// Canonical 32-byte little-endian value → Fr; false when >= r.
bool fr_from_le(const uint8_t* p, r1cs::Fr* out);
void fr_to_le(const r1cs::Fr& x, uint8_t* out);

}  // namespace cuzk::io::circom
