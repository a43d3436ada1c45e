// snarkjs JSON points (formats.md §5, "JSON"): decimal strings of canonical
// coordinates in projective-looking triples with z = 1.
//   G1 = [x, y, "1"];                       infinity ["0", "1", "0"]
//   G2 = [[x.c0, x.c1], [y.c0, y.c1], ["1", "0"]];
//                                           infinity [["0","0"], ["1","0"], ["0","0"]]
// Values are read as snarkjs reads them (ffjavascript's unstringifyBigInts):
// decimal digits, or "0x" and hex digits. Only plain strings here: parsing
// JSON text belongs to the callers (io/).
#pragma once

#include <array>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/base/status.h"
#include "cuzk/ec/curves.h"
#include "cuzk/ff/fr.h"

namespace cuzk::ec {

using G1JsonStrings = std::array<std::string, 3>;
using G2JsonStrings = std::array<std::array<std::string, 2>, 3>;

G1JsonStrings g1_to_json_strings(const G1Affine& p);
G2JsonStrings g2_to_json_strings(const G2Affine& p);

// A field element written as snarkjs's JSON reader takes it: decimal digits,
// or "0x" followed by hex digits (either case); no sign, no spaces, leading
// zeros allowed. The value must be canonical (< the modulus): snarkjs reduces
// a coordinate >= p, cuzk refuses it, so that a proof has one encoding.
StatusOr<ff::Fp> fp_from_json_string(std::string_view s);
StatusOr<ff::Fr> fr_from_json_string(std::string_view s);

// Decoders: INVALID_ARGUMENT for a wrong number of entries (3, or 2 with z
// taken as one, as snarkjs does), a string that fp_from_json_string refuses,
// a z that is neither one
// ("1", resp. ["1", "0"]) nor zero with the infinity form of x and y, (x, y)
// not on the curve, or (with kCheck) a point outside the prime-order subgroup.
StatusOr<G1Affine> g1_from_json_strings(std::span<const std::string> v,
                                        SubgroupCheck check = SubgroupCheck::kCheck);
StatusOr<G2Affine> g2_from_json_strings(std::span<const std::vector<std::string>> v,
                                        SubgroupCheck check = SubgroupCheck::kCheck);
StatusOr<G2Affine> g2_from_json_strings(const G2JsonStrings& v, SubgroupCheck check = SubgroupCheck::kCheck);

}  // namespace cuzk::ec
