// SDR labelling, encoding and sealing (rust-fil-proofs storage-proofs-porep
// stacked/vanilla: create_label, encode, and the tree C / tree R-last
// construction of seal pre-commit phase 2), for sectors held in memory.
//
// Label of node v in layer l (1-based), a 32-byte node:
//   sha254(replica_id ‖ be32(l) ‖ be64(v) ‖ 0^20 ‖ P)
// where P is empty for v = 0 and otherwise 37 parent labels:
//   l = 1:  the 6 DRG parents' labels (this layer) repeated 6 times, then the
//           first again;
//   l ≥ 2:  the 14 parents' labels (6 DRG from this layer, 8 expander from
//           layer l − 1) twice, then the first 8, then parent 8.
// See label_parent_slots() for the order as indices into the 14 parents.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/base/status.h"
#include "cuzk/filecoin/merkle.h"
#include "cuzk/filecoin/node.h"
#include "cuzk/filecoin/sdr_graph.h"

namespace cuzk::filecoin {

inline constexpr int kLabelParentSlots = 37;

// The 37 positions of the label preimage as indices into parents(v) (0..5 DRG,
// 6..13 expander); layer 1 uses only DRG indices.
std::array<int, kLabelParentSlots> label_parent_slots(bool first_layer);

// generate_replica_id: sha254(prover_id ‖ be64(sector_id) ‖ ticket ‖ comm_d ‖ porep_id).
Node compute_replica_id(const Node& prover_id, uint64_t sector_id, const Node& ticket, const Node& comm_d,
                        const PoRepId& porep_id);

// A label from its parents' labels (`drg`: this layer; `exp`: the previous
// layer, empty for layer 1). REQUIRES: layer >= 1; drg.size() == 6 and (layer
// > 1) == (exp.size() == 8); node 0 ignores both.
Node create_label(const Node& replica_id, int layer, uint64_t node, std::span<const Node> drg,
                  std::span<const Node> exp);

// All layers' labels: labels[l − 1][v]. Cost: layers · nodes label hashes
// plus the graph's parent computation per layer.
std::vector<std::vector<Node>> generate_labels(const StackedGraph& graph, const Node& replica_id, int layers);

// Column hash of node v (tree C leaf): Poseidon with arity = layers over the
// labels of v in every layer (arity 2 or 11).
StatusOr<Node> column_hash(std::span<const Node> column);

// replica = data + key in Fr (encode), and its inverse.
Node encode_node(const Node& key, const Node& data);
Node decode_node(const Node& key, const Node& replica);

// comm_r = Poseidon-2(comm_c, comm_r_last).
Node compute_comm_r(const Node& comm_c, const Node& comm_r_last);

// What sealing a sector (pre-commit 1 and 2) produces, kept in memory.
struct SealedSector {
  Node replica_id{};
  Node comm_d{}, comm_c{}, comm_r_last{}, comm_r{};
  std::vector<std::vector<Node>> labels;  // [layer − 1][node]
  std::vector<Node> replica;              // the sealed sector, node by node
  MerkleTree tree_d;
  ShapedTree tree_c, tree_r_last;
};

struct SealInputs {
  uint64_t sector_bytes = 0;
  int layers = 0;
  PoRepId porep_id{};
  ApiVersion api = ApiVersion::kV1_1_0;
  Node prover_id{};
  uint64_t sector_id = 0;
  Node ticket{};
};

// Seals `data` (the sector's fr32-padded bytes, every node a field element).
// INVALID_ARGUMENT for a size that is not sector_bytes, a node >= r, a layer
// count without a column hash (not 2 or 11) or an unknown tree shape.
StatusOr<SealedSector> seal_sector(const SealInputs& in, ByteSpan data);

}  // namespace cuzk::filecoin
