#include "circom_container.h"

#include <algorithm>
#include <cstring>

namespace cuzk::io::circom {
namespace {

// BN254's r, the circom default, named in errors because it is the usual mistake.
constexpr char kBn254R[] = "30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001";

std::string hex_be(const uint8_t* le, size_t n) {
  std::vector<uint8_t> be(le, le + n);
  std::reverse(be.begin(), be.end());
  return to_hex(be);
}

}  // namespace

std::string at(uint64_t offset) { return " at byte " + std::to_string(offset); }

StatusOr<const Section*> find_section(const Container& c, std::string_view kind, uint32_t id, const char* name,
                                      bool required) {
  const Section* found = nullptr;
  for (const Section& s : c.sections) {
    if (s.id != id) continue;
    if (found != nullptr) {
      return invalid_argument(std::string(kind) + ": section " + std::to_string(id) + " (" + name +
                              ") appears twice, at bytes " + std::to_string(found->header_offset) + " and " +
                              std::to_string(s.header_offset));
    }
    found = &s;
  }
  if (found == nullptr && required) {
    return invalid_argument(std::string(kind) + ": section " + std::to_string(id) + " (" + name + ") is missing");
  }
  return found;
}

Status Cursor::need(uint64_t n, std::string_view what) const {
  if (remaining() >= n) return ok_status();
  return invalid_argument(std::string(kind_) + ": section " + std::to_string(id_) + " truncated" + at(pos_) + ": " +
                          std::string(what) + " needs " + std::to_string(n) + " bytes but the section ends" +
                          at(end_));
}

const uint8_t* bls12_381_r_le() {
  static const auto kR = [] {
    std::array<uint8_t, 32> r{};
    for (int i = 0; i < 4; ++i) store_u64le(r.data() + 8 * i, r1cs::Fr::kModulus[i]);
    return r;
  }();
  return kR.data();
}

Status read_field(Cursor& cur, std::string_view kind, std::string_view size_name, uint32_t* field_bytes,
                  uint64_t* prime_at) {
  RETURN_IF_ERROR(cur.need(4, size_name));
  const uint64_t size_at = cur.pos();
  *field_bytes = cur.u32();
  *prime_at = cur.pos();
  if (*field_bytes == 32) RETURN_IF_ERROR(cur.need(32, "the prime"));
  const bool have_prime = *field_bytes <= cur.remaining();
  return check_field(kind, *field_bytes, size_at, have_prime ? cur.take(0) : nullptr, *prime_at);
}

Status check_field(std::string_view kind, uint32_t field_bytes, uint64_t size_at, const uint8_t* prime,
                   uint64_t prime_at) {
  const std::string k(kind);
  if (field_bytes != 32 || prime == nullptr || std::memcmp(prime, bls12_381_r_le(), 32) != 0) {
    std::string found = prime != nullptr && field_bytes <= 64 ? "0x" + hex_be(prime, field_bytes)
                                                                : "not shown (" + std::to_string(field_bytes) + " bytes)";
    if (found == std::string("0x") + kBn254R) found += " (BN254's r: compile with `circom --prime bls12381`)";
    return invalid_argument(k + ": wrong curve/prime" + at(prime_at) + ": the file's prime is " + found +
                            " (field size " + std::to_string(field_bytes) + at(size_at) +
                            "), expected BLS12-381's r 0x" + hex_be(bls12_381_r_le(), 32) + " (field size 32)");
  }
  return ok_status();
}

bool fr_from_le(const uint8_t* p, r1cs::Fr* out) {
  r1cs::Fr::Repr c;
  for (int i = 0; i < 4; ++i) c[i] = load_u64le(p + 8 * i);
  return r1cs::Fr::from_canonical(c, out);
}

void fr_to_le(const r1cs::Fr& x, uint8_t* out) {
  const auto c = x.canonical();
  for (int i = 0; i < 4; ++i) store_u64le(out + 8 * i, c[i]);
}

}  // namespace cuzk::io::circom
