#include "cuzk/filecoin/proof_types.h"

#include <array>
#include <string>

#include "cuzk/base/bytes.h"
#include "cuzk/filecoin/challenges.h"

namespace cuzk::filecoin {

namespace {

constexpr uint64_t kKiB = 1024, kMiB = kKiB * 1024, kGiB = kMiB * 1024;
// The five published sector sizes, in the order of every registry enum.
constexpr std::array<uint64_t, 5> kSizes = {2 * kKiB, 8 * kMiB, 512 * kMiB, 32 * kGiB, 64 * kGiB};

bool production(uint64_t sector_bytes) { return sector_bytes >= 32 * kGiB; }

constexpr std::string_view kSealNames[20] = {
    "StackedDrg2KiBV1", "StackedDrg8MiBV1", "StackedDrg512MiBV1", "StackedDrg32GiBV1", "StackedDrg64GiBV1",
    "StackedDrg2KiBV1_1", "StackedDrg8MiBV1_1", "StackedDrg512MiBV1_1", "StackedDrg32GiBV1_1",
    "StackedDrg64GiBV1_1", "StackedDrg2KiBV1_1_Feat_SyntheticPoRep", "StackedDrg8MiBV1_1_Feat_SyntheticPoRep",
    "StackedDrg512MiBV1_1_Feat_SyntheticPoRep", "StackedDrg32GiBV1_1_Feat_SyntheticPoRep",
    "StackedDrg64GiBV1_1_Feat_SyntheticPoRep", "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep",
    "StackedDrg8MiBV1_2_Feat_NonInteractivePoRep", "StackedDrg512MiBV1_2_Feat_NonInteractivePoRep",
    "StackedDrg32GiBV1_2_Feat_NonInteractivePoRep", "StackedDrg64GiBV1_2_Feat_NonInteractivePoRep"};

constexpr std::string_view kPoStNames[15] = {
    "StackedDrgWinning2KiBV1", "StackedDrgWinning8MiBV1", "StackedDrgWinning512MiBV1",
    "StackedDrgWinning32GiBV1", "StackedDrgWinning64GiBV1", "StackedDrgWindow2KiBV1",
    "StackedDrgWindow8MiBV1", "StackedDrgWindow512MiBV1", "StackedDrgWindow32GiBV1",
    "StackedDrgWindow64GiBV1", "StackedDrgWindow2KiBV1_2", "StackedDrgWindow8MiBV1_2",
    "StackedDrgWindow512MiBV1_2", "StackedDrgWindow32GiBV1_2", "StackedDrgWindow64GiBV1_2"};

constexpr std::string_view kUpdateNames[5] = {"StackedDrg2KiBV1", "StackedDrg8MiBV1", "StackedDrg512MiBV1",
                                              "StackedDrg32GiBV1", "StackedDrg64GiBV1"};

template <size_t N>
StatusOr<uint64_t> id_by_name(const std::string_view (&names)[N], std::string_view name, const char* what) {
  for (size_t i = 0; i < N; ++i)
    if (names[i] == name) return uint64_t(i);
  return invalid_argument(std::string("unknown registered ") + what + " proof \"" + std::string(name) + "\"");
}

Status unknown_id(uint64_t id, const char* what) {
  return invalid_argument(std::string("unknown registered ") + what + " proof " + std::to_string(id));
}

}  // namespace

StatusOr<SealProofInfo> seal_proof_info(uint64_t id) {
  if (id >= 20) return unknown_id(id, "seal");
  SealProofInfo s;
  s.registered_proof = id;
  s.name = kSealNames[id];
  s.sector_bytes = kSizes[id % 5];
  const uint64_t group = id / 5;
  s.api = group == 0 ? ApiVersion::kV1_0_0 : group == 1 ? ApiVersion::kV1_1_0 : ApiVersion::kV1_2_0;
  s.feature = group == 2 ? PoRepFeature::kSynthetic : group == 3 ? PoRepFeature::kNonInteractive
                                                                  : PoRepFeature::kInteractive;
  store_u64le(s.porep_id.data(), id);  // nonce 0 in bytes 8..15
  const bool prod = production(s.sector_bytes);
  s.layers = prod ? 11 : 2;
  int min_challenges;
  if (s.feature == PoRepFeature::kNonInteractive) {
    s.partitions = prod ? 126 : 13;
    min_challenges = prod ? 2253 : 26;
  } else {
    s.partitions = prod ? 10 : 1;
    min_challenges = prod ? 176 : 2;
  }
  s.challenges_per_partition = (min_challenges + s.partitions - 1) / s.partitions;
  ASSIGN_OR_RETURN(s.shape, tree_r_shape(s.sector_bytes));
  return s;
}

std::string_view vanilla_seal_proof_variant(const SealProofInfo& info) { return kSealNames[info.registered_proof % 5]; }

StatusOr<SealProofInfo> seal_proof_info(std::string_view name) {
  ASSIGN_OR_RETURN(uint64_t id, id_by_name(kSealNames, name, "seal"));
  return seal_proof_info(id);
}

StatusOr<PoStProofInfo> post_proof_info(uint64_t id) {
  if (id >= 15) return unknown_id(id, "PoSt");
  PoStProofInfo p;
  p.registered_proof = id;
  p.name = kPoStNames[id];
  p.sector_bytes = kSizes[id % 5];
  p.kind = id < 5 ? PoStKind::kWinning : PoStKind::kWindow;
  p.api = id < 10 ? ApiVersion::kV1_0_0 : ApiVersion::kV1_2_0;
  if (p.kind == PoStKind::kWinning) {
    p.sector_count = 66;  // WINNING_POST_CHALLENGE_COUNT / WINNING_POST_SECTOR_COUNT
    p.challenge_count = 1;
  } else {
    p.sector_count = p.sector_bytes == 32 * kGiB ? 2349 : p.sector_bytes == 64 * kGiB ? 2300 : 2;
    p.challenge_count = 10;
  }
  ASSIGN_OR_RETURN(p.shape, tree_r_shape(p.sector_bytes));
  return p;
}

PoStProofInfo post_vanilla_shape(const PoStProofInfo& info) {
  if (info.kind != PoStKind::kWinning) return info;
  PoStProofInfo v = info;
  v.challenge_count = info.sector_count * info.challenge_count;
  v.sector_count = 1;
  return v;
}

StatusOr<PoStProofInfo> post_proof_info(std::string_view name) {
  ASSIGN_OR_RETURN(uint64_t id, id_by_name(kPoStNames, name, "PoSt"));
  return post_proof_info(id);
}

StatusOr<UpdateProofInfo> update_proof_info(uint64_t id) {
  if (id >= 5) return unknown_id(id, "update");
  UpdateProofInfo u;
  u.registered_proof = id;
  u.name = kUpdateNames[id];
  u.sector_bytes = kSizes[id];
  const uint64_t nodes = u.sector_bytes / 32;
  u.partitions = int(snap_partition_count(nodes));
  u.challenges_per_partition = int(snap_challenge_count(nodes));
  u.h = snap_h_default(nodes);
  ASSIGN_OR_RETURN(u.shape, tree_r_shape(u.sector_bytes));
  return u;
}

StatusOr<UpdateProofInfo> update_proof_info(std::string_view name) {
  ASSIGN_OR_RETURN(uint64_t id, id_by_name(kUpdateNames, name, "update"));
  return update_proof_info(id);
}

}  // namespace cuzk::filecoin
