#include "cuzk/filecoin/sdr.h"

#include <cstring>

#include "cuzk/filecoin/poseidon.h"
#include "cuzk/filecoin/sha256.h"

namespace cuzk::filecoin {

std::array<int, kLabelParentSlots> label_parent_slots(bool first_layer) {
  std::array<int, kLabelParentSlots> s{};
  size_t k = 0;
  if (first_layer) {
    for (int rep = 0; rep < 6; ++rep)
      for (int i = 0; i < kDrgDegree; ++i) s[k++] = i;
    s[k++] = 0;
  } else {
    for (int rep = 0; rep < 2; ++rep)
      for (int i = 0; i < kParentCount; ++i) s[k++] = i;
    for (int i = 0; i < 8; ++i) s[k++] = i;
    s[k++] = 8;
  }
  return s;
}

Node compute_replica_id(const Node& prover_id, uint64_t sector_id, const Node& ticket, const Node& comm_d,
                        const PoRepId& porep_id) {
  uint8_t sector_be[8];
  store_u64be(sector_be, sector_id);
  Sha256 h;
  h.update(prover_id.data(), 32).update(sector_be, 8).update(ticket.data(), 32).update(comm_d.data(), 32);
  h.update(porep_id.data(), 32);
  Sha256Digest d = h.finish();
  trim_to_fr32(d);
  return d;
}

Node create_label(const Node& replica_id, int layer, uint64_t node, std::span<const Node> drg,
                  std::span<const Node> exp) {
  uint8_t header[32] = {};
  store_u32be(header, uint32_t(layer));
  store_u64be(header + 4, node);
  Sha256 h;
  h.update(replica_id.data(), 32).update(header, sizeof(header));
  if (node > 0) {
    const bool first = layer == 1;
    for (int slot : label_parent_slots(first)) {
      const Node& p = slot < kDrgDegree ? drg[size_t(slot)] : exp[size_t(slot - kDrgDegree)];
      h.update(p.data(), p.size());
    }
  }
  Sha256Digest d = h.finish();
  trim_to_fr32(d);
  return d;
}

std::vector<std::vector<Node>> generate_labels(const StackedGraph& graph, const Node& replica_id, int layers) {
  const uint64_t n = graph.nodes();
  std::vector<std::vector<Node>> labels(static_cast<size_t>(layers), std::vector<Node>(n));
  // The parents are the same in every layer: compute them once per node.
  std::vector<std::array<uint32_t, kParentCount>> parents(n);
  for (uint64_t v = 0; v < n; ++v) parents[v] = graph.parents(uint32_t(v));
  Node drg[kDrgDegree], exp[kExpanderDegree];
  for (int l = 1; l <= layers; ++l) {
    std::vector<Node>& cur = labels[size_t(l - 1)];
    for (uint64_t v = 0; v < n; ++v) {
      for (int i = 0; i < kDrgDegree; ++i) drg[i] = cur[parents[v][size_t(i)]];
      if (l > 1) {
        const std::vector<Node>& prev = labels[size_t(l - 2)];
        for (int i = 0; i < kExpanderDegree; ++i) exp[i] = prev[parents[v][size_t(kDrgDegree + i)]];
      }
      cur[v] = create_label(replica_id, l, v, drg, l > 1 ? std::span<const Node>(exp) : std::span<const Node>());
    }
  }
  return labels;
}

StatusOr<Node> column_hash(std::span<const Node> column) {
  if (column.size() != 2 && column.size() != 11)
    return invalid_argument("no column hash for " + std::to_string(column.size()) + " layers (2 or 11)");
  Fr in[11];
  for (size_t i = 0; i < column.size(); ++i) in[i] = fr_from_node_trusted(column[i]);
  return node_from_fr(poseidon_hash(poseidon_constants(int(column.size())), std::span<const Fr>(in, column.size())));
}

Node encode_node(const Node& key, const Node& data) {
  return node_from_fr(fr_from_node_trusted(key) + fr_from_node_trusted(data));
}

Node decode_node(const Node& key, const Node& replica) {
  return node_from_fr(fr_from_node_trusted(replica) - fr_from_node_trusted(key));
}

Node compute_comm_r(const Node& comm_c, const Node& comm_r_last) {
  return node_from_fr(poseidon_hash2(fr_from_node_trusted(comm_c), fr_from_node_trusted(comm_r_last)));
}

namespace {

Status check_seal_inputs(const SealInputs& in, ByteSpan data) {
  if (data.size() != in.sector_bytes)
    return invalid_argument("sector data is " + std::to_string(data.size()) + " bytes, the sector " +
                            std::to_string(in.sector_bytes));
  if (in.layers != 2 && in.layers != 11) return invalid_argument("SDR layers must be 2 or 11");
  for (size_t off = 0; off < data.size(); off += kNodeBytes) {
    Node n;
    std::memcpy(n.data(), data.data() + off, kNodeBytes);
    if (!fr_from_node(n).ok())
      return invalid_argument("sector data: node at offset " + std::to_string(off) + " is not a field element");
  }
  RETURN_IF_ERROR(fr_from_node(in.prover_id, "prover_id").status());
  RETURN_IF_ERROR(fr_from_node(in.ticket, "ticket").status());
  return ok_status();
}

}  // namespace

StatusOr<SealedSector> seal_sector(const SealInputs& in, ByteSpan data) {
  RETURN_IF_ERROR(check_seal_inputs(in, data));
  ASSIGN_OR_RETURN(TreeShape shape, tree_r_shape(in.sector_bytes));
  SealedSector s;
  ASSIGN_OR_RETURN(s.tree_d, build_tree_d(data));
  s.comm_d = s.tree_d.root();
  s.replica_id = compute_replica_id(in.prover_id, in.sector_id, in.ticket, s.comm_d, in.porep_id);
  ASSIGN_OR_RETURN(StackedGraph graph, StackedGraph::create(in.sector_bytes / kNodeBytes, in.porep_id, in.api));
  s.labels = generate_labels(graph, s.replica_id, in.layers);

  const uint64_t n = graph.nodes();
  std::vector<Node> columns(n), column(size_t(in.layers));
  s.replica.resize(n);
  for (uint64_t v = 0; v < n; ++v) {
    for (int l = 0; l < in.layers; ++l) column[size_t(l)] = s.labels[size_t(l)][v];
    ASSIGN_OR_RETURN(columns[v], column_hash(column));
    s.replica[v] = encode_node(s.labels.back()[v], s.tree_d.level(0)[v]);
  }
  ASSIGN_OR_RETURN(s.tree_c, ShapedTree::build(shape, std::move(columns)));
  ASSIGN_OR_RETURN(s.tree_r_last, ShapedTree::build(shape, s.replica));
  s.comm_c = s.tree_c.root();
  s.comm_r_last = s.tree_r_last.root();
  s.comm_r = compute_comm_r(s.comm_c, s.comm_r_last);
  return s;
}

}  // namespace cuzk::filecoin
