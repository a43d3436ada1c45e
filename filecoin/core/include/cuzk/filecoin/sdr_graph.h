// The stacked DRG of SDR PoRep (rust-fil-proofs storage-proofs-core drgraph.rs
// and storage-proofs-porep stacked/vanilla/graph.rs).
//
// Every node v has 14 parents: 6 "base" (DRG) parents in the same layer and
// 8 expander parents in the previous layer.
//   DRG: bucket sampling over a metagraph of v·5 nodes with a ChaCha8 RNG
//        seeded with sha256("Filecoin_DRSample" ‖ porep_id)[..28] ‖ v (u32
//        le); nodes 0 and 1 have only parent 0. The immediate predecessor
//        v − 1 is parent 0 (API ≥ 1.1) or parent 5 (API 1.0).
//   expander: parent i of v is feistel(v·8 + i) / 8, a 3-round Feistel
//        permutation of [0, 8·nodes) keyed by sha256("Filecoin_Feistel" ‖
//        porep_id) (four u64 le) with BLAKE2b-512 round functions, cycle-
//        walked into range. API 1.0 truncates the permuted index to 32 bits
//        before dividing.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "cuzk/base/status.h"
#include "cuzk/filecoin/sha256.h"

namespace cuzk::filecoin {

enum class ApiVersion { kV1_0_0, kV1_1_0, kV1_2_0 };
std::string_view api_version_name(ApiVersion v);  // "1.0.0"

using PoRepId = std::array<uint8_t, 32>;

inline constexpr int kDrgDegree = 6;
inline constexpr int kExpanderDegree = 8;
inline constexpr int kParentCount = kDrgDegree + kExpanderDegree;

// sha256(dst ‖ porep_id) (storage-proofs-core crypto::derive_porep_domain_seed).
Sha256Digest derive_porep_domain_seed(std::string_view dst, const PoRepId& porep_id);

class StackedGraph {
 public:
  // INVALID_ARGUMENT unless 2 <= nodes < 2^32.
  static StatusOr<StackedGraph> create(uint64_t nodes, const PoRepId& porep_id, ApiVersion api);

  uint64_t nodes() const { return nodes_; }
  ApiVersion api_version() const { return api_; }
  const std::array<uint8_t, 28>& drg_seed() const { return drg_seed_; }
  const std::array<uint64_t, 4>& feistel_keys() const { return feistel_keys_; }

  // REQUIRES: node < nodes(). Pure functions of (node, porep_id, api);
  // thread-safe.
  std::array<uint32_t, kDrgDegree> drg_parents(uint32_t node) const;
  std::array<uint32_t, kExpanderDegree> expander_parents(uint32_t node) const;
  // DRG parents then expander parents, the order of the parent cache.
  std::array<uint32_t, kParentCount> parents(uint32_t node) const;

  // The parent cache's file stem, "v28-sdr-parent-<hex>", as rust-fil-proofs
  // names it for a Poseidon tree (keys of storage-proofs-porep/parent_cache.json).
  std::string parent_cache_name() const;

 private:
  uint64_t feistel_permute(uint64_t index) const;

  uint64_t nodes_ = 0;
  ApiVersion api_ = ApiVersion::kV1_1_0;
  std::array<uint8_t, 28> drg_seed_{};
  std::array<uint64_t, 4> feistel_keys_{};
  uint64_t left_mask_ = 0, right_mask_ = 0, half_bits_ = 0;
};

// SHA-256 of the parent cache file: for every node in order, its 14 parents
// as u32 le (the "digest" of parent_cache.json).
Sha256Digest parent_cache_digest(const StackedGraph& graph);

}  // namespace cuzk::filecoin
