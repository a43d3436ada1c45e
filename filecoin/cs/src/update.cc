#include "cuzk/filecoin/cs/update.h"

#include <string>

#include "cuzk/filecoin/cs/recording_cs.h"
#include "cuzk/filecoin/cs/witness_cs.h"

namespace cuzk::filecoin::snark {
namespace {

const TreeShape kTreeD{2, 0, 0};

// The Fr::NUM_BITS bits of x and the row (Σ 2^i·bit_i)·ONE = x
// (allocated_num_to_allocated_bits, "binary decomp").
template <class CS>
std::vector<AllocatedBit> num_to_bits(CS& cs, Name name, const AllocatedNum& x) {
  Scope<CS> ns(cs, name);
  std::vector<AllocatedBit> bits = field_into_allocated_bits_le(cs, x.value);
  cs.enforce(
      Name("binary decomp"),
      [&](Lc& lc) {
        for (size_t i = 0; i < bits.size(); ++i) lc.add(bits[i].var, pow2(unsigned(i)));
      },
      [&](Lc& lc) { lc.add(Var::one()); }, [&](Lc& lc) { lc.add(x.var); });
  return bits;
}

template <class CS>
std::vector<AllocatedNum> alloc_nums(CS& cs, const char* head, std::span<const Fr> values) {
  std::vector<AllocatedNum> out;
  out.reserve(values.size());
  for (size_t i = 0; i < values.size(); ++i) out.push_back(alloc_num(cs, Name(head, int64_t(i)), values[i]));
  return out;
}

template <class CS>
std::vector<std::vector<AllocatedNum>> alloc_path(CS& cs, const char* head, const std::vector<std::vector<Fr>>& path,
                                                  size_t levels) {
  std::vector<std::vector<AllocatedNum>> out;
  for (size_t row = 0; row < levels; ++row) {
    std::vector<AllocatedNum> sib;
    for (size_t s = 0; s < path[row].size(); ++s) {
      sib.push_back(alloc_num(cs, Name(head, int64_t(row), " sibling ", int64_t(s)), path[row][s]));
    }
    out.push_back(std::move(sib));
  }
  return out;
}

// The partition's apex tree over its apex leaves (SHA-256 pairs, row by row),
// and its root opened in tree D-new along the partition path (apex_por).
template <class CS>
void apex_por(CS& cs, Name name, std::vector<AllocatedNum> row, std::span<const AllocatedBit> partition_bits,
              const std::vector<std::vector<AllocatedNum>>& partition_path, const AllocatedNum& comm_d) {
  Scope<CS> ns(cs, name);
  for (int64_t r = 0; row.size() > 1; ++r) {
    std::vector<AllocatedNum> next;
    for (size_t i = 0; i + 1 < row.size(); i += 2) {
      next.push_back(hash2(cs, Name("apex_tree generation hash (tree_row=", r, ", siblings=", int64_t(i / 2), ")"),
                           TreeHasher::kSha256, row[i], row[i + 1]));
    }
    row = std::move(next);
  }
  por_no_challenge_input(cs, Name("partition-tree por"), TreeHasher::kSha256, kTreeD, partition_bits, row[0],
                         partition_path, comm_d);
}

// Each challenge's bits below the partition bits: digest_j = H(comm_r_new,
// k·digests + j) split into chunks of bits_per_challenge (gen_challenge_bits).
template <class CS>
std::vector<std::vector<AllocatedBit>> gen_challenge_bits(CS& cs, Name name, const AllocatedNum& comm_r_new,
                                                          const AllocatedNum& partition, size_t challenges,
                                                          size_t bits_per_challenge) {
  Scope<CS> ns(cs, name);
  const size_t per_digest = kFrCapacity / bits_per_challenge;
  const size_t digests = (challenges + per_digest - 1) / per_digest;
  std::vector<std::vector<AllocatedBit>> out;
  for (size_t j = 0; j < digests; ++j) {
    const Fr dpp = Fr::from_uint(digests), jj = Fr::from_uint(j);
    const AllocatedNum index = alloc_num(cs, Name("digest_index_", int64_t(j)), partition.value * dpp + jj);
    cs.enforce(
        Name("digest_index_", int64_t(j), " == k * digests_per_partition + j"),
        [&](Lc& lc) { lc.add(partition.var, dpp).add(Var::one(), jj); }, [&](Lc& lc) { lc.add(Var::one()); },
        [&](Lc& lc) { lc.add(index.var); });
    const AllocatedNum pre[2] = {comm_r_new, index};
    const AllocatedNum digest =
        poseidon_hash(cs, Name("digest_", int64_t(j)), pre, poseidon_gen_randomness_constants());
    const std::vector<AllocatedBit> bits = num_to_bits(cs, Name("digest_", int64_t(j), "_bits"), digest);
    const size_t take = j + 1 == digests ? challenges - out.size() : per_digest;
    for (size_t c = 0; c < take; ++c) {
      out.emplace_back(bits.begin() + ptrdiff_t(c * bits_per_challenge),
                       bits.begin() + ptrdiff_t((c + 1) * bits_per_challenge));
    }
  }
  return out;
}

// The h high bits of the challenge, h = hs[i] for the one set h_select bit i:
// Σ_k h_select_k · pack(high hs[k] bits) (get_challenge_high_bits).
template <class CS>
AllocatedNum challenge_high_bits(CS& cs, Name name, std::span<const AllocatedBit> c_bits,
                                 std::span<const AllocatedBit> h_select, const std::array<int, 6>& hs) {
  Scope<CS> ns(cs, name);
  const std::vector<Boolean> bits(c_bits.begin(), c_bits.end());
  std::vector<AllocatedNum> terms;
  Fr sum = Fr::zero();
  for (size_t k = 0; k < hs.size(); ++k) {
    const size_t h = size_t(hs[k]);
    const AllocatedNum high =
        pack_bits(cs, Name("c_high (h=", int64_t(h), ", k=", int64_t(k), ")"), std::span(bits).subspan(bits.size() - h));
    const AllocatedNum or_zero = alloc_num(cs, Name("c_high_or_zero (h=", int64_t(h), ", k=", int64_t(k), ")"),
                                           h_select[k].value ? high.value : Fr::zero());
    cs.enforce(
        Name("c_high_or_zero == c_high * h_select_bit"), [&](Lc& lc) { lc.add(high.var); },
        [&](Lc& lc) { lc.add(h_select[k].var); }, [&](Lc& lc) { lc.add(or_zero.var); });
    sum += or_zero.value;
    terms.push_back(or_zero);
  }
  const AllocatedNum selected = alloc_num(cs, Name("c_high_selected"), sum);
  cs.enforce(
      Name("c_high_selected == dot(c_highs, h_select_bits)"),
      [&](Lc& lc) {
        for (const AllocatedNum& t : terms) lc.add(t.var);
      },
      [&](Lc& lc) { lc.add(Var::one()); }, [&](Lc& lc) { lc.add(selected.var); });
  return selected;
}

// label_r_new = label_r_old + label_d_new·rho.
template <class CS>
AllocatedNum label_r_new(CS& cs, Name name, const AllocatedNum& r_old, const AllocatedNum& d_new,
                         const AllocatedNum& rho) {
  Scope<CS> ns(cs, name);
  const AllocatedNum d_rho = num_mul(cs, Name("label_d_new * rho"), d_new, rho);
  const AllocatedNum r_new = alloc_num(cs, Name("label_r_new"), r_old.value + d_rho.value);
  cs.enforce(
      Name("label_r_new == label_r_old + label_d_new * rho"), [&](Lc& lc) { lc.add(r_old.var).add(d_rho.var); },
      [&](Lc& lc) { lc.add(Var::one()); }, [&](Lc& lc) { lc.add(r_new.var); });
  return r_new;
}

struct Shared {
  const UpdateConfig& config;
  const AllocatedNum& phi;
  const AllocatedNum& root_r_old;
  const AllocatedNum& root_r_new;
  const std::vector<AllocatedNum>& apex_leafs;
  const std::vector<AllocatedBit>& partition_bits;
  const std::vector<AllocatedBit>& h_select_bits;
};

template <class CS>
void synthesize_challenge(CS& cs, const Shared& sh, const UpdateChallenge& ch,
                          const std::vector<AllocatedBit>& generated, int64_t c) {
  const UpdateConfig& cfg = sh.config;
  std::vector<AllocatedBit> c_bits = generated;
  c_bits.insert(c_bits.end(), sh.partition_bits.begin(), sh.partition_bits.end());
  const AllocatedNum high = challenge_high_bits(cs, Name("get_challenge_high_bits (c_index=", c, ")"), c_bits,
                                                sh.h_select_bits, cfg.hs);
  const AllocatedNum rho_pre[2] = {sh.phi, high};
  const AllocatedNum rho = poseidon_hash(cs, Name("rho (c_index=", c, ")"), rho_pre, poseidon_gen_randomness_constants());
  const AllocatedNum leaf_r_old = alloc_num(cs, Name("leaf_r_old (c_index=", c, ")"), ch.leaf_r_old);
  const AllocatedNum leaf_d_new = alloc_num(cs, Name("leaf_d_new (c_index=", c, ")"), ch.leaf_d_new);
  const AllocatedNum leaf_r_new = label_r_new(cs, Name("leaf_r_new (c_index=", c, ")"), leaf_r_old, leaf_d_new, rho);
  if (cs.values_known() && leaf_r_new.value != ch.leaf_r_new) {
    cs.fail(invalid_argument("challenge " + std::to_string(c) +
                             ": leaf_r_new is not leaf_r_old + leaf_d_new·rho (the vanilla proof's new replica leaf "
                             "does not match its old leaf and data)"));
  }
  const auto path_r_old = alloc_path(cs, "path_r_old row ", ch.path_r_old, ch.path_r_old.size());
  por_no_challenge_input(cs, Name("por tree_r_old (c_index=", c, ")"), TreeHasher::kPoseidon, cfg.tree_r, c_bits,
                         leaf_r_old, path_r_old, sh.root_r_old);
  const auto path_r_new = alloc_path(cs, "path_r_new row ", ch.path_r_new, ch.path_r_new.size());
  por_no_challenge_input(cs, Name("por tree_r_new (c_index=", c, ")"), TreeHasher::kPoseidon, cfg.tree_r, c_bits,
                         leaf_r_new, path_r_new, sh.root_r_new);
  const size_t to_apex = size_t(cfg.challenge_bit_len - cfg.partition_bit_len - cfg.apex_leaf_bit_len);
  const std::vector<Boolean> apex_bits(c_bits.begin() + ptrdiff_t(to_apex),
                                       c_bits.begin() + ptrdiff_t(to_apex + size_t(cfg.apex_leaf_bit_len)));
  const AllocatedNum apex_leaf = select(cs, Name("select_apex_leaf (c_index=", c, ")"), sh.apex_leafs, apex_bits);
  const auto path_to_apex = alloc_path(cs, "path_to_apex_leaf row ", ch.path_d_new, to_apex);
  por_no_challenge_input(cs, Name("por to_apex_leaf (c_index=", c, ")"), TreeHasher::kSha256, kTreeD,
                         std::span<const AllocatedBit>(c_bits).first(to_apex), leaf_d_new, path_to_apex, apex_leaf);
}

// k_and_h_select as an input and its partition_bit_len + 6 bits.
template <class CS>
std::vector<AllocatedBit> k_and_h_select_bits(CS& cs, const UpdateConfig& cfg, const Fr& value) {
  const AllocatedNum khs = alloc_num(cs, Name("k_and_h_select"), value);
  inputize(cs, Name("k_and_h_select (public input)"), khs);
  const Fr::Repr v = value.canonical();
  std::vector<AllocatedBit> bits;
  for (int i = 0; i < cfg.partition_bit_len + int(cfg.hs.size()); ++i) {
    bits.push_back(alloc_bit(cs, Name("k_and_h_select_bit_", i), (v[size_t(i) / 64] >> (i % 64)) & 1));
  }
  cs.enforce(
      Name("k_and_h_select binary decomp"),
      [&](Lc& lc) {
        for (size_t i = 0; i < bits.size(); ++i) lc.add(bits[i].var, pow2(unsigned(i)));
      },
      [&](Lc& lc) { lc.add(Var::one()); }, [&](Lc& lc) { lc.add(khs.var); });
  return bits;
}

template <class CS>
AllocatedNum alloc_input_value(CS& cs, const char* name, const char* input_name, const Fr& v) {
  const AllocatedNum n = alloc_num(cs, Name(name), v);
  inputize(cs, Name(input_name), n);
  return n;
}

template <class CS>
void enforce_equal_nums(CS& cs, Name name, const AllocatedNum& a, const AllocatedNum& b) {
  cs.enforce(
      name, [&](Lc& lc) { lc.add(a.var); }, [&](Lc& lc) { lc.add(Var::one()); }, [&](Lc& lc) { lc.add(b.var); });
}

}  // namespace

template <class CS>
void synthesize_update(CS& cs, const UpdateConfig& cfg, const UpdatePartition& p) {
  const std::vector<AllocatedBit> khs_bits = k_and_h_select_bits(cs, cfg, p.k_and_h_select);
  const std::vector<AllocatedBit> partition_bits(khs_bits.begin(), khs_bits.begin() + cfg.partition_bit_len);
  const std::vector<AllocatedBit> h_select_bits(khs_bits.begin() + cfg.partition_bit_len, khs_bits.end());
  const AllocatedNum partition = pack_bits(cs, Name("pack partition bits"),
                                           std::vector<Boolean>(partition_bits.begin(), partition_bits.end()));
  const AllocatedNum comm_r_old = alloc_input_value(cs, "comm_r_old", "comm_r_old_input", p.comm_r_old);
  const AllocatedNum comm_d_new = alloc_input_value(cs, "comm_d_new", "comm_d_new_input", p.comm_d_new);
  const AllocatedNum comm_r_new = alloc_input_value(cs, "comm_r_new", "comm_r_new_input", p.comm_r_new);
  const AllocatedNum phi_pre[2] = {comm_d_new, comm_r_old};
  const AllocatedNum phi = poseidon_hash(cs, Name("phi"), phi_pre, poseidon_gen_randomness_constants());
  const AllocatedNum comm_c = alloc_num(cs, Name("comm_c"), p.comm_c);
  const AllocatedNum root_r_old = alloc_num(cs, Name("root_r_old"), p.root_r_old);
  const AllocatedNum root_r_new = alloc_num(cs, Name("root_r_new"), p.root_r_new);
  const std::vector<AllocatedNum> apex_leafs = alloc_nums(cs, "apex_leaf_", p.apex_leafs);
  const size_t below = size_t(cfg.challenge_bit_len - cfg.partition_bit_len);
  std::vector<std::vector<AllocatedNum>> partition_path;
  for (int i = 0; i < cfg.partition_bit_len; ++i) {
    partition_path.push_back({alloc_num(cs, Name("partition_path_sibling_", i),
                                        p.challenges[0].path_d_new[below + size_t(i)][0])});
  }
  const AllocatedNum old_calc = hash2(cs, Name("comm_r_old_calc"), TreeHasher::kPoseidon, comm_c, root_r_old);
  enforce_equal_nums(cs, Name("enforce comm_r_old_calc == comm_r_old"), old_calc, comm_r_old);
  const AllocatedNum new_calc = hash2(cs, Name("comm_r_new_calc"), TreeHasher::kPoseidon, comm_c, root_r_new);
  enforce_equal_nums(cs, Name("enforce comm_r_new_calc == comm_r_new"), new_calc, comm_r_new);
  apex_por(cs, Name("apex_gadget"), apex_leafs, partition_bits, partition_path, comm_d_new);
  const auto generated = gen_challenge_bits(cs, Name("gen_challenge_bits"), comm_r_new, partition,
                                            size_t(cfg.challenge_count), below);
  const Shared shared{cfg, phi, root_r_old, root_r_new, apex_leafs, partition_bits, h_select_bits};
  cs.sections(p.challenges.size(), [&](CS& sub, size_t c) {
    synthesize_challenge(sub, shared, p.challenges[c], generated[c], int64_t(c));
  });
}

template void synthesize_update<WitnessCs>(WitnessCs&, const UpdateConfig&, const UpdatePartition&);
template void synthesize_update<RecordingCs>(RecordingCs&, const UpdateConfig&, const UpdatePartition&);

}  // namespace cuzk::filecoin::snark
