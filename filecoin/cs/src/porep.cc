#include "cuzk/filecoin/cs/porep.h"

#include <string>

#include "cuzk/filecoin/cs/recording_cs.h"
#include "cuzk/filecoin/cs/witness_cs.h"

namespace cuzk::filecoin::snark {
namespace {

constexpr int kTotalParents = 37;  // SDR's parents per label, repeats included

// The label of `node` in `layer` (create_label_circuit): SHA-256 of
// replica_id ‖ layer ‖ node ‖ 37 parents, 32 bytes each, the digest's first
// 254 bits (bit numbering reversed per byte) packed.
template <class CS>
AllocatedNum create_label(CS& cs, Name name, std::span<const Boolean> replica_id,
                          const std::vector<const std::vector<Boolean>*>& parents, uint32_t layer,
                          const UInt64& node) {
  Scope<CS> ns(cs, name);
  std::vector<Boolean> buf(replica_id.begin(), replica_id.end());
  buf.reserve(size_t(kTotalParents + 2) * 256);
  while (buf.size() < 256) buf.push_back(Boolean::constant(false));
  UInt32::constant(layer).append_bits_be(buf);
  node.append_bits_be(buf);
  while (buf.size() < 512) buf.push_back(Boolean::constant(false));
  for (const std::vector<Boolean>* parent : parents) {
    buf.insert(buf.end(), parent->begin(), parent->end());
    while (buf.size() % 256 != 0) buf.push_back(Boolean::constant(false));
  }
  std::vector<Boolean> bits = reverse_bit_numbering(sha256(cs, Name("hash"), buf));
  bits.resize(kFrCapacity);
  return pack_bits(cs, Name("result_num"), bits);
}

template <class CS>
void enforce_inclusion(CS& cs, Name name, TreeHasher h, const AuthPath& path, const AllocatedNum& root,
                       const AllocatedNum& leaf) {
  por(cs, name, h, Root::var(leaf), path, Root::var(root), true);
}

// A parent's column: its rows allocated ("column/column_num_row_k"), hashed
// with Poseidon of arity `layers`, and that hash opened in tree C.
template <class CS>
std::vector<AllocatedNum> open_column(CS& cs, const char* kind, int64_t i, const ColumnOpening& opening,
                                      const AllocatedNum& comm_c) {
  std::vector<AllocatedNum> column;
  {
    Scope<CS> ns(cs, Name(kind, i, "_num"));
    Scope<CS> ns2(cs, Name("column"));
    for (size_t k = 0; k < opening.rows.size(); ++k)
      column.push_back(alloc_num(cs, Name("column_num_row_", int64_t(k)), opening.rows[k]));
  }
  const AllocatedNum hash =
      poseidon_hash(cs, Name(kind, i, "_constraint"), column, poseidon_constants(int(column.size())));
  enforce_inclusion(cs, Name(kind, i, "_inclusion"), TreeHasher::kPoseidon, opening.path, comm_c, hash);
  return column;
}

// The 37 parents of a label: layer 1 repeats its 6 DRG parents six times and
// then the first; later layers take DRG and expander parents twice and then
// the first nine.
std::vector<const std::vector<Boolean>*> expand_parents(const std::vector<std::vector<Boolean>>& parents, bool first) {
  std::vector<const std::vector<Boolean>*> out;
  out.reserve(kTotalParents);
  const int copies = first ? 6 : 2;
  for (int c = 0; c < copies; ++c)
    for (const auto& p : parents) out.push_back(&p);
  for (size_t k = 0; out.size() < size_t(kTotalParents); ++k) out.push_back(&parents[k]);
  return out;
}

// The labels of the challenged node in every layer, from its parents'
// columns (params.rs, "labeling_<layer>").
template <class CS>
std::vector<AllocatedNum> label_column(CS& cs, std::span<const Boolean> replica_id,
                                       const std::vector<std::vector<AllocatedNum>>& drg,
                                       const std::vector<std::vector<AllocatedNum>>& exp, const UInt64& node,
                                       int layers) {
  std::vector<AllocatedNum> labels;
  for (int layer = 1; layer <= layers; ++layer) {
    Scope<CS> ns(cs, Name("labeling_", layer));
    std::vector<std::vector<Boolean>> parents;
    for (const auto& col : drg) {
      parents.push_back(reverse_bit_numbering(
          to_bits_le(cs, Name("drg_parent_", int64_t(parents.size()), "_bits"), col[size_t(layer - 1)])));
    }
    if (layer > 1) {
      for (const auto& col : exp) {
        parents.push_back(reverse_bit_numbering(
            to_bits_le(cs, Name("exp_parent_", int64_t(parents.size()), "_bits"), col[size_t(layer - 2)])));
      }
    }
    labels.push_back(create_label(cs, Name("create_label"), replica_id, expand_parents(parents, layer == 1),
                                  uint32_t(layer), node));
  }
  return labels;
}

// (key + value)·1 = encoded ("encode_add").
template <class CS>
AllocatedNum encode(CS& cs, Name name, const AllocatedNum& key, const AllocatedNum& value) {
  Scope<CS> ns(cs, name);
  Scope<CS> ns2(cs, Name("encode_add"));
  const AllocatedNum res = alloc_num(cs, Name("add_num"), key.value + value.value);
  cs.enforce(
      Name("sum constraint"), [&](Lc& lc) { lc.add(key.var).add(value.var); }, [&](Lc& lc) { lc.add(Var::one()); },
      [&](Lc& lc) { lc.add(res.var); });
  return res;
}

template <class CS>
void synthesize_challenge(CS& cs, const PorepConfig& config, const PorepChallenge& ch, const AllocatedNum& comm_d,
                          const AllocatedNum& comm_c, const AllocatedNum& comm_r_last,
                          std::span<const Boolean> replica_id) {
  const AllocatedNum data_leaf = alloc_num(cs, Name("data_leaf"), ch.data_leaf);
  enforce_inclusion(cs, Name("comm_d_inclusion"), TreeHasher::kSha256, ch.comm_d_path, comm_d, data_leaf);
  std::vector<std::vector<AllocatedNum>> drg, exp;
  for (size_t i = 0; i < ch.drg_parents.size(); ++i)
    drg.push_back(open_column(cs, "drg_parent_", int64_t(i), ch.drg_parents[i], comm_c));
  for (size_t i = 0; i < ch.exp_parents.size(); ++i)
    exp.push_back(open_column(cs, "exp_parent_", int64_t(i), ch.exp_parents[i], comm_c));
  const UInt64 node = alloc_uint64(cs, Name("challenge"), ch.challenge);
  pack_into_inputs(cs, Name("challenge input"), node.bits);
  const std::vector<AllocatedNum> labels = label_column(cs, replica_id, drg, exp, node, config.layers);
  const AllocatedNum encoded = encode(cs, Name("encode_node"), labels.back(), data_leaf);
  enforce_inclusion(cs, Name("comm_r_last_data_inclusion"), TreeHasher::kPoseidon, ch.comm_r_last_path, comm_r_last,
                    encoded);
  const AllocatedNum column_hash =
      poseidon_hash(cs, Name("c_x_column_hash"), labels, poseidon_constants(int(labels.size())));
  enforce_inclusion(cs, Name("c_x_inclusion"), TreeHasher::kPoseidon, ch.comm_c_path, comm_c, column_hash);
}

}  // namespace

template <class CS>
void synthesize_porep(CS& cs, const PorepConfig& config, const PorepPartition& p) {
  const AllocatedNum replica_id = alloc_num(cs, Name("replica_id"), p.replica_id);
  inputize(cs, Name("replica_id_input"), replica_id);
  const std::vector<Boolean> replica_id_bits = reverse_bit_numbering(to_bits_le(cs, Name("replica_id_bits"), replica_id));
  const AllocatedNum comm_d = alloc_num(cs, Name("comm_d"), p.comm_d);
  inputize(cs, Name("comm_d_input"), comm_d);
  const AllocatedNum comm_r = alloc_num(cs, Name("comm_r"), p.comm_r);
  inputize(cs, Name("comm_r_input"), comm_r);
  const AllocatedNum comm_r_last = alloc_num(cs, Name("comm_r_last"), p.comm_r_last);
  const AllocatedNum comm_c = alloc_num(cs, Name("comm_c"), p.comm_c);
  const AllocatedNum h = hash2(cs, Name("H_comm_c_comm_r_last"), TreeHasher::kPoseidon, comm_c, comm_r_last);
  cs.enforce(
      Name("enforce comm_r = H(comm_c || comm_r_last)"), [&](Lc& lc) { lc.add(comm_r.var); },
      [&](Lc& lc) { lc.add(Var::one()); }, [&](Lc& lc) { lc.add(h.var); });
  cs.sections(p.challenges.size(), [&](CS& sub, size_t i) {
    Scope<CS> ns(sub, Name("challenge_", int64_t(i)));
    synthesize_challenge(sub, config, p.challenges[i], comm_d, comm_c, comm_r_last, replica_id_bits);
  });
}

template void synthesize_porep<WitnessCs>(WitnessCs&, const PorepConfig&, const PorepPartition&);
template void synthesize_porep<RecordingCs>(RecordingCs&, const PorepConfig&, const PorepPartition&);

}  // namespace cuzk::filecoin::snark
