#include "cuzk/filecoin/cid.h"

#include <cstdio>
#include <cstring>
#include <vector>

namespace cuzk::filecoin {

namespace {

constexpr char kBase32[] = "abcdefghijklmnopqrstuvwxyz234567";

struct Codes {
  uint64_t codec;
  uint64_t multihash;
};

Codes codes(CommitmentKind kind) {
  return kind == CommitmentKind::kUnsealed ? Codes{0xf101, 0x1012} : Codes{0xf102, 0xb401};
}

void put_varint(std::vector<uint8_t>& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(uint8_t(v | 0x80));
    v >>= 7;
  }
  out.push_back(uint8_t(v));
}

bool get_varint(const std::vector<uint8_t>& in, size_t* pos, uint64_t* v) {
  *v = 0;
  for (int shift = 0; shift < 63 && *pos < in.size(); shift += 7) {
    const uint8_t b = in[(*pos)++];
    *v |= uint64_t(b & 0x7f) << shift;
    if (!(b & 0x80)) return true;
  }
  return false;
}

std::string base32_encode(const std::vector<uint8_t>& in) {
  std::string out;
  uint32_t acc = 0;
  int bits = 0;
  for (uint8_t b : in) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += kBase32[(acc >> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += kBase32[(acc << (5 - bits)) & 31];
  return out;
}

bool base32_decode(std::string_view in, std::vector<uint8_t>* out) {
  uint32_t acc = 0;
  int bits = 0;
  for (char c : in) {
    const char* p = std::strchr(kBase32, c);
    if (c == 0 || !p) return false;
    acc = (acc << 5) | uint32_t(p - kBase32);
    bits += 5;
    if (bits >= 8) {
      out->push_back(uint8_t(acc >> (bits - 8)));
      bits -= 8;
    }
  }
  return true;
}

}  // namespace

std::string commitment_to_cid(CommitmentKind kind, const Node& commitment) {
  const Codes c = codes(kind);
  std::vector<uint8_t> bytes;
  put_varint(bytes, 1);  // CIDv1
  put_varint(bytes, c.codec);
  put_varint(bytes, c.multihash);
  put_varint(bytes, commitment.size());
  bytes.insert(bytes.end(), commitment.begin(), commitment.end());
  std::string out(1, 'b');
  out.append(base32_encode(bytes));
  return out;
}

StatusOr<Node> commitment_from_cid(CommitmentKind kind, std::string_view cid) {
  const std::string what = "commitment CID \"" + std::string(cid.substr(0, 80)) + "\"";
  if (cid.empty() || cid[0] != 'b') return invalid_argument(what + ": not multibase base32 (prefix 'b')");
  std::vector<uint8_t> bytes;
  if (!base32_decode(cid.substr(1), &bytes)) return invalid_argument(what + ": not base32");
  const Codes c = codes(kind);
  size_t pos = 0;
  uint64_t version, codec, mh, len;
  if (!get_varint(bytes, &pos, &version) || !get_varint(bytes, &pos, &codec) || !get_varint(bytes, &pos, &mh) ||
      !get_varint(bytes, &pos, &len))
    return invalid_argument(what + ": truncated header");
  if (version != 1) return invalid_argument(what + ": not CIDv1");
  if (codec != c.codec || mh != c.multihash)
  {
    char buf[96];
    std::snprintf(buf, sizeof(buf), ": codec 0x%llx / multihash 0x%llx are not the %s commitment's",
                  static_cast<unsigned long long>(codec), static_cast<unsigned long long>(mh),
                  kind == CommitmentKind::kSealed ? "sealed" : "unsealed");
    return invalid_argument(what + buf);
  }
  if (len != kNodeBytes || bytes.size() - pos != kNodeBytes) return invalid_argument(what + ": digest is not 32 bytes");
  Node n;
  std::memcpy(n.data(), bytes.data() + pos, kNodeBytes);
  return n;
}

}  // namespace cuzk::filecoin
