#include "cuzk/filecoin/node.h"

#include "cuzk/base/bytes.h"

namespace cuzk::filecoin {

StatusOr<ff::Fr> fr_from_node(const Node& n, std::string_view what) {
  auto f = ff::Fr::from_bytes_le(n);
  if (!f.ok()) return invalid_argument(std::string(what) + ": " + node_to_hex(n) + " is not a field element (>= r)");
  return f;
}

ff::Fr fr_from_node_trusted(const Node& n) {
  ff::Fr::Repr limbs;
  for (int i = 0; i < 4; ++i) limbs[size_t(i)] = load_u64le(n.data() + 8 * i);
  return ff::Fr::from_limbs_reduce(limbs);
}

Node node_from_fr(const ff::Fr& f) {
  Node n;
  f.to_bytes_le(n.data());
  return n;
}

std::string node_to_hex(const Node& n) { return to_hex(n); }

StatusOr<Node> node_from_hex(std::string_view hex, std::string_view what) {
  std::string bytes;
  if (!from_hex(hex, &bytes) || bytes.size() != kNodeBytes)
    return invalid_argument(std::string(what) + ": expected 64 hex digits, got \"" + std::string(hex.substr(0, 80)) + "\"");
  Node n;
  for (size_t i = 0; i < kNodeBytes; ++i) n[i] = uint8_t(bytes[i]);
  return n;
}

}  // namespace cuzk::filecoin
