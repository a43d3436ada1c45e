#include <bit>
#include <string>

#include "cuzk/filecoin/cs/update.h"

namespace cuzk::filecoin::snark {
namespace {

struct SizeRow {
  uint64_t nodes;
  TreeShape shape;
};
// storage-proofs-update constants.rs: ALLOWED_SECTOR_SIZES and
// validate_tree_r_shape.
constexpr SizeRow kSizes[] = {
    {1u << 5, {8, 4, 0}},  {1u << 6, {8, 0, 0}},  {1u << 7, {8, 2, 0}},  {1u << 8, {8, 4, 0}},
    {1u << 9, {8, 8, 0}},  {1u << 10, {8, 8, 2}}, {1u << 18, {8, 0, 0}}, {1u << 19, {8, 2, 0}},
    {1u << 24, {8, 0, 0}}, {1u << 30, {8, 8, 0}}, {uint64_t(1) << 31, {8, 8, 2}},
};

int log2_exact(uint64_t x) { return std::countr_zero(x); }

// ChallengeProof::empty's tree R path: sub and top levels take their bits
// first, the rest are base (octree) levels.
std::vector<std::vector<Fr>> blank_path_r(const UpdateConfig& c) {
  int bits = c.challenge_bit_len;
  std::vector<std::vector<Fr>> tail;
  if (c.tree_r.sub) {
    tail.emplace_back(size_t(c.tree_r.sub - 1));
    bits -= log2_exact(uint64_t(c.tree_r.sub));
  }
  if (c.tree_r.top) {
    tail.emplace_back(size_t(c.tree_r.top - 1));
    bits -= log2_exact(uint64_t(c.tree_r.top));
  }
  std::vector<std::vector<Fr>> path(size_t(bits / log2_exact(uint64_t(c.tree_r.base))),
                                    std::vector<Fr>(size_t(c.tree_r.base - 1)));
  path.insert(path.end(), tail.begin(), tail.end());
  return path;
}

Status check_path(const std::vector<std::vector<Fr>>& got, const std::vector<std::vector<Fr>>& want,
                  const std::string& what) {
  if (got.size() != want.size()) {
    return invalid_argument(what + ": " + std::to_string(got.size()) + " levels, expected " + std::to_string(want.size()));
  }
  for (size_t l = 0; l < got.size(); ++l) {
    if (got[l].size() != want[l].size()) {
      return invalid_argument(what + " level " + std::to_string(l) + ": " + std::to_string(got[l].size()) +
                              " siblings, expected " + std::to_string(want[l].size()));
    }
  }
  return ok_status();
}

Status check_k_and_h_select(const UpdateConfig& c, const Fr& khs) {
  const Fr::Repr v = khs.canonical();
  const int used = c.partition_bit_len + int(c.hs.size());
  if (v[1] || v[2] || v[3] || (used < 64 && (v[0] >> used) != 0)) {
    return invalid_argument("k_and_h_select has bits set above its " + std::to_string(used) + " bits");
  }
  const uint64_t k = v[0] & ((uint64_t(1) << c.partition_bit_len) - 1);
  const uint64_t h_select = v[0] >> c.partition_bit_len;
  if (k >= uint64_t(c.partition_count)) {
    return invalid_argument("k_and_h_select: partition " + std::to_string(k) + " >= partition count " +
                            std::to_string(c.partition_count));
  }
  if (std::popcount(h_select) != 1) return invalid_argument("k_and_h_select: h_select must have exactly one bit set");
  return ok_status();
}

}  // namespace

StatusOr<UpdateConfig> update_config(uint64_t sector_bytes) {
  for (const SizeRow& row : kSizes) {
    if (row.nodes * 32 != sector_bytes) continue;
    UpdateConfig c;
    c.sector_bytes = sector_bytes;
    c.tree_r = row.shape;
    const uint64_t n = row.nodes;
    c.challenge_bit_len = log2_exact(n);
    c.challenge_count = n <= (1u << 19) ? 10 : 86;
    c.partition_count = n <= (1u << 8) ? 1 : n <= (1u << 10) ? 2 : n <= (1u << 19) ? 4 : 16;
    c.partition_bit_len = log2_exact(uint64_t(c.partition_count));
    c.apex_leaf_count = n <= (1u << 8) ? 8 : 128;
    c.apex_leaf_bit_len = log2_exact(uint64_t(c.apex_leaf_count));
    c.hs = n <= (1u << 10) ? std::array<int, 6>{1, 1, 1, 1, 1, 1} : std::array<int, 6>{7, 8, 9, 10, 11, 12};
    return c;
  }
  return invalid_argument("no SnapDeals update for sector size " + std::to_string(sector_bytes));
}

StatusOr<Fr> update_k_and_h_select(const UpdateConfig& c, uint64_t k, int h) {
  if (k >= uint64_t(c.partition_count)) {
    return invalid_argument("partition " + std::to_string(k) + " >= partition count " +
                            std::to_string(c.partition_count));
  }
  for (size_t i = 0; i < c.hs.size(); ++i) {
    if (c.hs[i] == h) return Fr::from_uint(k | ((uint64_t(1) << i) << c.partition_bit_len));
  }
  return invalid_argument("h = " + std::to_string(h) + " is not allowed for sector size " +
                          std::to_string(c.sector_bytes));
}

UpdatePartition blank_update_partition(const UpdateConfig& c) {
  UpdatePartition p;
  p.k_and_h_select = Fr::from_uint(uint64_t(1) << c.partition_bit_len);
  p.apex_leafs.assign(size_t(c.apex_leaf_count), Fr::zero());
  UpdateChallenge ch;
  ch.path_r_old = ch.path_r_new = blank_path_r(c);
  ch.path_d_new.assign(size_t(c.challenge_bit_len), std::vector<Fr>(1));
  p.challenges.assign(size_t(c.challenge_count), ch);
  return p;
}

Status check_update_partition(const UpdateConfig& c, const UpdatePartition& p) {
  RETURN_IF_ERROR(check_k_and_h_select(c, p.k_and_h_select));
  if (p.apex_leafs.size() != size_t(c.apex_leaf_count)) {
    return invalid_argument(std::to_string(p.apex_leafs.size()) + " apex leaves, expected " +
                            std::to_string(c.apex_leaf_count));
  }
  if (p.challenges.size() != size_t(c.challenge_count)) {
    return invalid_argument(std::to_string(p.challenges.size()) + " challenges, expected " +
                            std::to_string(c.challenge_count));
  }
  const std::vector<std::vector<Fr>> path_r = blank_path_r(c);
  const std::vector<std::vector<Fr>> path_d(size_t(c.challenge_bit_len), std::vector<Fr>(1));
  const size_t below = size_t(c.challenge_bit_len - c.partition_bit_len);
  for (size_t i = 0; i < p.challenges.size(); ++i) {
    const UpdateChallenge& ch = p.challenges[i];
    const std::string w = "challenge " + std::to_string(i);
    RETURN_IF_ERROR(check_path(ch.path_r_old, path_r, w + " path_r_old"));
    RETURN_IF_ERROR(check_path(ch.path_r_new, path_r, w + " path_r_new"));
    RETURN_IF_ERROR(check_path(ch.path_d_new, path_d, w + " path_d_new"));
    for (size_t l = below; l < ch.path_d_new.size(); ++l) {
      if (ch.path_d_new[l] != p.challenges[0].path_d_new[l]) {
        return invalid_argument(w + " path_d_new level " + std::to_string(l) +
                                " differs from challenge 0's partition path");
      }
    }
  }
  return ok_status();
}

}  // namespace cuzk::filecoin::snark
