#include <bit>
#include <string>

#include "cuzk/filecoin/cs/porep.h"

namespace cuzk::filecoin::snark {
namespace {

constexpr uint64_t kKiB = 1024, kMiB = kKiB * 1024, kGiB = kMiB * 1024;

int log2_exact(uint64_t x) { return std::countr_zero(x); }

std::string where(size_t challenge, const char* field) {
  return "challenge " + std::to_string(challenge) + " " + field;
}

Status check_levels(const std::vector<PathLevel>& got, const std::vector<PathLevel>& want, const std::string& what) {
  if (got.size() != want.size()) {
    return invalid_argument(what + ": " + std::to_string(got.size()) + " levels, expected " + std::to_string(want.size()));
  }
  for (size_t l = 0; l < got.size(); ++l) {
    const size_t arity = want[l].siblings.size() + 1;
    if (got[l].siblings.size() != want[l].siblings.size()) {
      return invalid_argument(what + " level " + std::to_string(l) + ": " + std::to_string(got[l].siblings.size()) +
                              " siblings, expected " + std::to_string(arity - 1));
    }
    if (got[l].index >= arity) {
      return invalid_argument(what + " level " + std::to_string(l) + ": index " + std::to_string(got[l].index) +
                              " >= arity " + std::to_string(arity));
    }
  }
  return ok_status();
}

Status check_columns(const std::vector<ColumnOpening>& cols, size_t count, const PorepConfig& config,
                     const AuthPath& want, const std::string& what) {
  if (cols.size() != count) {
    return invalid_argument(what + ": " + std::to_string(cols.size()) + " parents, expected " + std::to_string(count));
  }
  for (size_t k = 0; k < cols.size(); ++k) {
    const std::string w = what + " " + std::to_string(k);
    if (cols[k].rows.size() != size_t(config.layers)) {
      return invalid_argument(w + ": column of " + std::to_string(cols[k].rows.size()) + " rows, expected " +
                              std::to_string(config.layers));
    }
    RETURN_IF_ERROR(check_auth_path(cols[k].path, want, w + " path"));
  }
  return ok_status();
}

}  // namespace

Status check_auth_path(const AuthPath& got, const AuthPath& want, const std::string& what) {
  RETURN_IF_ERROR(check_levels(got.base, want.base, what + " (base)"));
  RETURN_IF_ERROR(check_levels(got.sub, want.sub, what + " (sub)"));
  return check_levels(got.top, want.top, what + " (top)");
}

StatusOr<PorepConfig> porep_config(uint64_t sector_bytes) {
  PorepConfig c;
  c.sector_bytes = sector_bytes;
  auto shape = tree_r_shape(sector_bytes);
  if (!shape.ok()) return shape.status();
  c.tree_r = *shape;
  const bool large = sector_bytes == 32 * kGiB || sector_bytes == 64 * kGiB;
  const bool small = sector_bytes == 2 * kKiB || sector_bytes == 4 * kKiB || sector_bytes == 16 * kKiB ||
                     sector_bytes == 32 * kKiB || sector_bytes == 8 * kMiB || sector_bytes == 16 * kMiB ||
                     sector_bytes == 512 * kMiB || sector_bytes == kGiB;
  if (!large && !small) return invalid_argument("no PoRep for sector size " + std::to_string(sector_bytes));
  c.layers = large ? 11 : 2;
  c.partitions = large ? 10 : 1;
  const int minimum_challenges = large ? 176 : 2;
  c.challenges_per_partition = (minimum_challenges + c.partitions - 1) / c.partitions;
  return c;
}

AuthPath blank_auth_path(const TreeShape& shape, uint64_t leaves) {
  AuthPath p;
  const uint64_t base_leaves = leaves / uint64_t(shape.base_count());
  const int base_levels = log2_exact(base_leaves) / log2_exact(uint64_t(shape.base));
  p.base.assign(size_t(base_levels), PathLevel{std::vector<Fr>(size_t(shape.base - 1)), 0});
  if (shape.sub) p.sub.push_back(PathLevel{std::vector<Fr>(size_t(shape.sub - 1)), 0});
  if (shape.top) p.top.push_back(PathLevel{std::vector<Fr>(size_t(shape.top - 1)), 0});
  return p;
}

PorepPartition blank_porep_partition(const PorepConfig& config) {
  PorepPartition p;
  const AuthPath path_d = blank_auth_path(TreeShape{2, 0, 0}, config.nodes());
  const AuthPath path_r = blank_auth_path(config.tree_r, config.nodes());
  const ColumnOpening column{std::vector<Fr>(size_t(config.layers)), path_r};
  PorepChallenge ch;
  ch.comm_d_path = path_d;
  ch.comm_r_last_path = path_r;
  ch.comm_c_path = path_r;
  ch.drg_parents.assign(size_t(config.drg_degree), column);
  ch.exp_parents.assign(size_t(config.exp_degree), column);
  p.challenges.assign(size_t(config.challenges_per_partition), ch);
  return p;
}

Status check_porep_partition(const PorepConfig& config, const PorepPartition& p) {
  if (p.challenges.size() != size_t(config.challenges_per_partition)) {
    return invalid_argument("the partition has " + std::to_string(p.challenges.size()) + " challenges, expected " +
                            std::to_string(config.challenges_per_partition));
  }
  const AuthPath path_d = blank_auth_path(TreeShape{2, 0, 0}, config.nodes());
  const AuthPath path_r = blank_auth_path(config.tree_r, config.nodes());
  for (size_t i = 0; i < p.challenges.size(); ++i) {
    const PorepChallenge& ch = p.challenges[i];
    if (ch.challenge >= config.nodes()) {
      return invalid_argument(where(i, "index") + " " + std::to_string(ch.challenge) + " is outside the sector's " +
                              std::to_string(config.nodes()) + " nodes");
    }
    RETURN_IF_ERROR(check_auth_path(ch.comm_d_path, path_d, where(i, "comm_d path")));
    RETURN_IF_ERROR(check_auth_path(ch.comm_r_last_path, path_r, where(i, "comm_r_last path")));
    RETURN_IF_ERROR(check_auth_path(ch.comm_c_path, path_r, where(i, "comm_c path")));
    RETURN_IF_ERROR(check_columns(ch.drg_parents, size_t(config.drg_degree), config, path_r, where(i, "drg parent")));
    RETURN_IF_ERROR(check_columns(ch.exp_parents, size_t(config.exp_degree), config, path_r, where(i, "exp parent")));
  }
  return ok_status();
}

std::vector<Fr> porep_challenge_inputs(uint64_t challenge, std::span<const uint64_t> drg_parents,
                                       std::span<const uint64_t> exp_parents) {
  std::vector<Fr> v;
  v.push_back(por_public_input(challenge));
  for (uint64_t p : drg_parents) v.push_back(por_public_input(p));
  for (uint64_t p : exp_parents) v.push_back(por_public_input(p));
  v.push_back(Fr::from_uint(challenge));
  v.push_back(por_public_input(challenge));
  v.push_back(por_public_input(challenge));
  return v;
}

}  // namespace cuzk::filecoin::snark
