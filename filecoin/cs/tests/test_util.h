// Helpers shared by the filecoin/cs tests.
#pragma once

#include <vector>

#include "cuzk/base/random.h"
#include "cuzk/filecoin/cs/por.h"
#include "cuzk/filecoin/merkle.h"
#include "cuzk/filecoin/node.h"

namespace cuzk::filecoin::snark::testing {

inline std::vector<Node> random_leaves(TestRng& rng, size_t n) {
  std::vector<Node> leaves;
  leaves.reserve(n);
  for (size_t i = 0; i < n; ++i) leaves.push_back(node_from_fr(Fr::random(rng)));
  return leaves;
}

inline std::vector<PathLevel> levels_of(const std::vector<PathElement>& path) {
  std::vector<PathLevel> out;
  for (const PathElement& e : path) {
    PathLevel l;
    for (const Node& n : e.hashes) l.siblings.push_back(fr_from_node_trusted(n));
    l.index = e.index;
    out.push_back(std::move(l));
  }
  return out;
}

inline AuthPath auth_path_of(const MerkleProof& p) {
  return AuthPath{levels_of(p.base), levels_of(p.sub), levels_of(p.top)};
}

}  // namespace cuzk::filecoin::snark::testing
