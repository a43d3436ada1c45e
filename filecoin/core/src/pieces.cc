#include "cuzk/filecoin/pieces.h"

#include <string>

#include "cuzk/filecoin/sha256.h"

namespace cuzk::filecoin {

namespace {

bool is_pow2(uint64_t v) { return v && !(v & (v - 1)); }

bool get_bit(ByteSpan b, uint64_t i) { return (b[size_t(i / 8)] >> (i % 8)) & 1; }
void set_bit(std::vector<uint8_t>& b, uint64_t i) { b[size_t(i / 8)] |= uint8_t(1u << (i % 8)); }

}  // namespace

StatusOr<std::vector<uint8_t>> fr32_pad(ByteSpan unpadded) {
  if (unpadded.size() % 127)
    return invalid_argument("fr32 padding needs a multiple of 127 bytes, got " + std::to_string(unpadded.size()));
  std::vector<uint8_t> out(unpadded.size() / 127 * 128, 0);
  const uint64_t bits = uint64_t(unpadded.size()) * 8;
  for (uint64_t i = 0; i < bits; ++i)
    if (get_bit(unpadded, i)) set_bit(out, i / 254 * 256 + i % 254);
  return out;
}

StatusOr<std::vector<uint8_t>> fr32_unpad(ByteSpan padded) {
  if (padded.size() % 128)
    return invalid_argument("fr32 unpadding needs a multiple of 128 bytes, got " + std::to_string(padded.size()));
  std::vector<uint8_t> out(padded.size() / 128 * 127, 0);
  const uint64_t bits = uint64_t(out.size()) * 8;
  for (uint64_t i = 0; i < bits; ++i)
    if (get_bit(padded, i / 254 * 256 + i % 254)) set_bit(out, i);
  return out;
}

StatusOr<Node> zero_piece_commitment(uint64_t padded_bytes) {
  if (!is_pow2(padded_bytes) || padded_bytes < 32 || padded_bytes > (uint64_t(1) << 40))
    return invalid_argument("zero piece of " + std::to_string(padded_bytes) +
                            " bytes: not a power of two in [32, 2^40]");
  Node z{};
  for (uint64_t s = 32; s < padded_bytes; s *= 2) z = sha254_pair(z, z);
  return z;
}

StatusOr<Node> compute_comm_d(uint64_t sector_bytes, std::span<const PieceInfo> pieces) {
  if (pieces.empty()) return empty_sector_comm_d(sector_bytes);
  uint64_t total = 0;
  for (size_t i = 0; i < pieces.size(); ++i) {
    const uint64_t s = pieces[i].padded_bytes;
    if (!is_pow2(s) || s < 128)
      return invalid_argument("piece " + std::to_string(i) + ": size " + std::to_string(s) +
                              " is not a power of two >= 128");
    total += s;
    if (total > sector_bytes) return invalid_argument("pieces are larger than the sector");
  }
  std::vector<PieceInfo> stack;
  auto shift_reduce = [&](PieceInfo p) {
    stack.push_back(p);
    while (stack.size() >= 2 && stack[stack.size() - 1].padded_bytes == stack[stack.size() - 2].padded_bytes) {
      PieceInfo right = stack.back();
      stack.pop_back();
      PieceInfo& left = stack.back();
      left.commitment = sha254_pair(left.commitment, right.commitment);
      left.padded_bytes *= 2;
    }
  };
  auto zero = [](uint64_t size) { return PieceInfo{zero_piece_commitment(size).value(), size}; };
  stack.push_back(pieces[0]);
  for (size_t i = 1; i < pieces.size(); ++i) {
    while (stack.back().padded_bytes < pieces[i].padded_bytes) shift_reduce(zero(stack.back().padded_bytes));
    shift_reduce(pieces[i]);
  }
  while (stack.size() > 1) shift_reduce(zero(stack.back().padded_bytes));
  return stack[0].commitment;
}

}  // namespace cuzk::filecoin
