// A tree node / commitment: 32 bytes, as rust-fil-proofs' Sha256Domain and
// PoseidonDomain hold them. Both are the little-endian canonical bytes of an
// Fr element (a sha254 digest is below 2^254 < r by construction), which is
// how comm_d, comm_r, replica_id and every label enter the circuits.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "cuzk/base/status.h"
#include "cuzk/ff/fr.h"

namespace cuzk::filecoin {

using Node = std::array<uint8_t, 32>;
inline constexpr size_t kNodeBytes = 32;

// INVALID_ARGUMENT (naming `what`) when the value is not below r.
StatusOr<ff::Fr> fr_from_node(const Node& n, std::string_view what = "node");
Node node_from_fr(const ff::Fr& f);
// For nodes already known to be field elements (built here, or validated on
// input). REQUIRES: value < r (a larger value is reduced mod r, never a crash).
ff::Fr fr_from_node_trusted(const Node& n);

// Lower-case hex of the 32 bytes in storage order (as rust-fil-proofs prints
// commitments), and its inverse (64 hex digits, optional 0x).
std::string node_to_hex(const Node& n);
StatusOr<Node> node_from_hex(std::string_view hex, std::string_view what = "node");

}  // namespace cuzk::filecoin
