#include "cuzk/filecoin/cs/post.h"

#include <string>

#include "cuzk/filecoin/cs/porep.h"
#include "cuzk/filecoin/cs/recording_cs.h"
#include "cuzk/filecoin/cs/witness_cs.h"

namespace cuzk::filecoin::snark {
namespace {

constexpr uint64_t kKiB = 1024, kMiB = kKiB * 1024, kGiB = kMiB * 1024;

template <class CS>
void synthesize_sector(CS& cs, const PostSector& s) {
  const AllocatedNum comm_r_last = alloc_num(cs, Name("comm_r_last"), s.comm_r_last);
  const AllocatedNum comm_c = alloc_num(cs, Name("comm_c"), s.comm_c);
  const AllocatedNum comm_r = alloc_num(cs, Name("comm_r"), s.comm_r);
  inputize(cs, Name("comm_r_input"), comm_r);
  const AllocatedNum h = hash2(cs, Name("H_comm_c_comm_r_last"), TreeHasher::kPoseidon, comm_c, comm_r_last);
  cs.enforce(
      Name("enforce_comm_c_comm_r_last_hash_comm_r"), [&](Lc& lc) { lc.add(comm_r.var); },
      [&](Lc& lc) { lc.add(Var::one()); }, [&](Lc& lc) { lc.add(h.var); });
  for (size_t i = 0; i < s.leaves.size(); ++i) {
    por(cs, Name("challenge_inclusion_", int64_t(i)), TreeHasher::kPoseidon, Root::val(s.leaves[i]), s.paths[i],
        Root::var(comm_r_last), true);
  }
}

}  // namespace

StatusOr<PostConfig> post_config(PostKind kind, uint64_t sector_bytes) {
  PostConfig c;
  c.kind = kind;
  c.sector_bytes = sector_bytes;
  auto porep = porep_config(sector_bytes);  // the supported sizes and their tree shapes
  if (!porep.ok()) return invalid_argument("no PoSt for sector size " + std::to_string(sector_bytes));
  c.tree_r = porep->tree_r;
  if (kind == PostKind::kWinning) {
    // winning_post_setup_params: the 66 challenges of the one sector become
    // 66 circuit sectors of one challenge each.
    c.sector_count = 66;
    c.challenge_count = 1;
  } else {
    c.challenge_count = 10;
    c.sector_count = sector_bytes == 32 * kGiB ? 2349 : sector_bytes == 64 * kGiB ? 2300 : 2;
  }
  return c;
}

PostPartition blank_post_partition(const PostConfig& config) {
  PostSector s;
  s.leaves.assign(size_t(config.challenge_count), Fr::zero());
  s.paths.assign(size_t(config.challenge_count), blank_auth_path(config.tree_r, config.nodes()));
  PostPartition p;
  p.sectors.assign(size_t(config.sector_count), s);
  return p;
}

Status check_post_partition(const PostConfig& config, const PostPartition& p) {
  if (p.sectors.size() != size_t(config.sector_count)) {
    return invalid_argument("the partition has " + std::to_string(p.sectors.size()) + " sectors, expected " +
                            std::to_string(config.sector_count));
  }
  const AuthPath want = blank_auth_path(config.tree_r, config.nodes());
  for (size_t i = 0; i < p.sectors.size(); ++i) {
    const PostSector& s = p.sectors[i];
    const std::string where = "sector " + std::to_string(i);
    if (s.leaves.size() != size_t(config.challenge_count) || s.paths.size() != size_t(config.challenge_count)) {
      return invalid_argument(where + ": " + std::to_string(s.leaves.size()) + " leaves and " +
                              std::to_string(s.paths.size()) + " paths, expected " +
                              std::to_string(config.challenge_count));
    }
    for (size_t k = 0; k < s.paths.size(); ++k) {
      RETURN_IF_ERROR(check_auth_path(s.paths[k], want, where + " challenge " + std::to_string(k) + " path"));
    }
  }
  return ok_status();
}

template <class CS>
void synthesize_post(CS& cs, const PostConfig& config, const PostPartition& p) {
  Scope<CS> outer(cs, Name("outer namespace"));
  cs.sections(p.sectors.size(), [&](CS& sub, size_t i) {
    Scope<CS> ns(sub, Name("sector_", int64_t(i)));
    synthesize_sector(sub, p.sectors[i]);
  });
}

template void synthesize_post<WitnessCs>(WitnessCs&, const PostConfig&, const PostPartition&);
template void synthesize_post<RecordingCs>(RecordingCs&, const PostConfig&, const PostPartition&);

}  // namespace cuzk::filecoin::snark
