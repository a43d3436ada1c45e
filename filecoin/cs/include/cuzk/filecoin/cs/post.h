// The Fallback PoSt circuit behind WinningPoSt and WindowPoSt:
// rust-fil-proofs' FallbackPoStCircuit (storage-proofs-post
// fallback/circuit.rs). Per sector: comm_r is public and must equal
// H(comm_c, comm_r_last); each challenged leaf is opened in tree R-last
// (private root comm_r_last), its index public. Public inputs per sector:
// comm_r, then one packed index per challenge.
#pragma once

#include <cstdint>
#include <vector>

#include "cuzk/base/status.h"
#include "cuzk/filecoin/cs/por.h"
#include "cuzk/filecoin/merkle.h"

namespace cuzk::filecoin::snark {

enum class PostKind { kWinning, kWindow };

struct PostConfig {
  PostKind kind = PostKind::kWindow;
  uint64_t sector_bytes = 0;
  int sector_count = 0;     // sectors per partition (the circuit's)
  int challenge_count = 0;  // challenged leaves per sector
  TreeShape tree_r;
  uint64_t nodes() const { return sector_bytes / 32; }
};

// filecoin-proofs' constants: WinningPoSt proves 66 challenges of one
// sector, which its setup turns into a circuit of 66 sectors with one
// challenge each (the same sector repeated); WindowPoSt has 10 challenges per
// sector and WINDOW_POST_SECTOR_COUNT sectors per partition (2 for test
// sizes, 2349 for 32 GiB, 2300 for 64 GiB).
// INVALID_ARGUMENT for an unsupported size.
StatusOr<PostConfig> post_config(PostKind kind, uint64_t sector_bytes);

struct PostSector {
  Fr comm_r, comm_c, comm_r_last;
  std::vector<Fr> leaves;      // challenge_count
  std::vector<AuthPath> paths; // challenge_count, tree R-last shape
};

struct PostPartition {
  std::vector<PostSector> sectors;  // sector_count (padded by repeating the last)
};

PostPartition blank_post_partition(const PostConfig& config);
// INVALID_ARGUMENT naming the first field whose shape differs from the config's.
Status check_post_partition(const PostConfig& config, const PostPartition& partition);

// REQUIRES: check_post_partition OK. Instantiated for WitnessCs and RecordingCs.
template <class CS>
void synthesize_post(CS& cs, const PostConfig& config, const PostPartition& partition);

}  // namespace cuzk::filecoin::snark
