#include "cuzk/filecoin/sdr_graph.h"

#include <cmath>
#include <cstring>

#include "cuzk/filecoin/blake2b.h"
#include "cuzk/filecoin/chacha.h"

namespace cuzk::filecoin {

namespace {

constexpr int kFeistelRounds = 3;
constexpr int kParentCacheVersion = 28;

}  // namespace

std::string_view api_version_name(ApiVersion v) {
  switch (v) {
    case ApiVersion::kV1_0_0: return "1.0.0";
    case ApiVersion::kV1_1_0: return "1.1.0";
    case ApiVersion::kV1_2_0: return "1.2.0";
  }
  return "?";
}

Sha256Digest derive_porep_domain_seed(std::string_view dst, const PoRepId& porep_id) {
  return Sha256().update(dst.data(), dst.size()).update(porep_id.data(), porep_id.size()).finish();
}

StatusOr<StackedGraph> StackedGraph::create(uint64_t nodes, const PoRepId& porep_id, ApiVersion api) {
  if (nodes < 2 || nodes > 0xffffffffull)
    return invalid_argument("SDR graph of " + std::to_string(nodes) + " nodes: need 2 <= nodes < 2^32");
  StackedGraph g;
  g.nodes_ = nodes;
  g.api_ = api;
  const Sha256Digest drg = derive_porep_domain_seed("Filecoin_DRSample", porep_id);
  std::memcpy(g.drg_seed_.data(), drg.data(), g.drg_seed_.size());
  const Sha256Digest feistel = derive_porep_domain_seed("Filecoin_Feistel", porep_id);
  for (int i = 0; i < 4; ++i) g.feistel_keys_[size_t(i)] = load_u64le(feistel.data() + 8 * i);
  // The smallest even bit count (a power of 4) covering 8·nodes, split in
  // two halves (feistel::precompute).
  const uint64_t elements = nodes * kExpanderDegree;
  uint64_t next_pow4 = 4, log4 = 1;
  while (next_pow4 < elements) {
    next_pow4 *= 4;
    ++log4;
  }
  g.left_mask_ = ((uint64_t(1) << log4) - 1) << log4;
  g.right_mask_ = (uint64_t(1) << log4) - 1;
  g.half_bits_ = log4;
  return g;
}

std::array<uint32_t, kDrgDegree> StackedGraph::drg_parents(uint32_t node) const {
  std::array<uint32_t, kDrgDegree> parents{};
  if (node < 2) return parents;  // nodes 0 and 1: every parent is node 0
  std::array<uint8_t, 32> seed{};
  std::memcpy(seed.data(), drg_seed_.data(), drg_seed_.size());
  store_u32le(seed.data() + 28, node);
  ChaCha8Rng rng(seed);
  constexpr uint64_t m_prime = kDrgDegree - 1;
  const uint64_t metagraph_node = uint64_t(node) * m_prime;
  const uint64_t n_buckets = uint64_t(std::ceil(std::log2(double(metagraph_node))));
  const bool legacy = api_ == ApiVersion::kV1_0_0;
  const size_t first = legacy ? 0 : 1;
  for (size_t k = 0; k < m_prime; ++k) {
    const uint64_t bucket_index = rng.next_u64() % n_buckets + 1;
    const uint64_t largest = std::min(metagraph_node, uint64_t(1) << bucket_index);
    const uint64_t smallest = std::max<uint64_t>(2, largest >> 1);
    const uint64_t distance = smallest + rng.next_u64() % (largest - smallest + 1);
    const uint32_t mapped = uint32_t((metagraph_node - distance) / m_prime);
    parents[first + k] = mapped == node ? node - 1 : mapped;
  }
  parents[legacy ? m_prime : 0] = node - 1;
  return parents;
}

uint64_t StackedGraph::feistel_permute(uint64_t index) const {
  auto round_fn = [&](uint64_t right, uint64_t key) {
    uint8_t data[16];
    store_u64be(data, right);
    store_u64be(data + 8, key);
    const auto h = blake2b_512(ByteSpan(data, sizeof(data)));
    return load_u64be(h.data()) & right_mask_;
  };
  auto encode = [&](uint64_t x) {
    uint64_t left = (x & left_mask_) >> half_bits_, right = x & right_mask_;
    for (int r = 0; r < kFeistelRounds; ++r) {
      const uint64_t l = right;
      right = left ^ round_fn(right, feistel_keys_[size_t(r)]);
      left = l;
    }
    return (left << half_bits_) | right;
  };
  const uint64_t elements = nodes_ * kExpanderDegree;
  uint64_t u = encode(index);
  while (u >= elements) u = encode(u);  // cycle-walk into range
  return u;
}

std::array<uint32_t, kExpanderDegree> StackedGraph::expander_parents(uint32_t node) const {
  std::array<uint32_t, kExpanderDegree> parents{};
  for (uint32_t i = 0; i < kExpanderDegree; ++i) {
    const uint64_t t = feistel_permute(uint64_t(node) * kExpanderDegree + i);
    parents[i] = api_ == ApiVersion::kV1_0_0 ? uint32_t(t) / kExpanderDegree : uint32_t(t / kExpanderDegree);
  }
  return parents;
}

std::array<uint32_t, kParentCount> StackedGraph::parents(uint32_t node) const {
  std::array<uint32_t, kParentCount> p;
  const auto drg = drg_parents(node);
  const auto exp = expander_parents(node);
  std::copy(drg.begin(), drg.end(), p.begin());
  std::copy(exp.begin(), exp.end(), p.begin() + kDrgDegree);
  return p;
}

std::string StackedGraph::parent_cache_name() const {
  const std::string hasher = "poseidon_hasher";
  const std::string id = "stacked_graph::StackedGraph{expansion_degree: 8 base_graph: drgraph::BucketGraph{size: " +
                         std::to_string(nodes_) + "; degree: 6; hasher: " + hasher + "} }";
  Sha256 h;
  h.update(hasher.data(), hasher.size()).update(id.data(), id.size());
  for (uint64_t k : feistel_keys_) {
    uint8_t b[8];
    store_u64le(b, k);
    h.update(b, sizeof(b));
  }
  uint8_t entries[4];
  store_u32le(entries, uint32_t(nodes_));
  h.update(entries, sizeof(entries));
  std::string name = "v";
  name += std::to_string(kParentCacheVersion);
  name += "-sdr-parent-";
  name += to_hex(h.finish());
  return name;
}

Sha256Digest parent_cache_digest(const StackedGraph& graph) {
  Sha256 h;
  uint8_t entry[4 * kParentCount];
  for (uint64_t v = 0; v < graph.nodes(); ++v) {
    const auto p = graph.parents(uint32_t(v));
    for (int i = 0; i < kParentCount; ++i) store_u32le(entry + 4 * i, p[size_t(i)]);
    h.update(entry, sizeof(entry));
  }
  return h.finish();
}

}  // namespace cuzk::filecoin
