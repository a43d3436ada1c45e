#include "cuzk/filecoin/challenges.h"

#include <cmath>
#include <cstring>
#include <string_view>

#include "cuzk/filecoin/blake2b.h"
#include "cuzk/filecoin/chacha.h"
#include "cuzk/filecoin/poseidon.h"
#include "cuzk/filecoin/sha256.h"

namespace cuzk::filecoin {

namespace {

// 1 + (little-endian 256-bit value mod (nodes − 1)): never node 0.
uint64_t bigint_to_challenge(const uint8_t le[32], uint64_t sector_nodes) {
  const uint64_t m = sector_nodes - 1;
  uint64_t r = 0;
  for (int i = 31; i >= 0; --i) r = ((r << 8) | le[i]) % m;
  return r + 1;
}

std::vector<uint64_t> derive(const Sha256& prefix, uint64_t nodes, uint64_t per_partition, uint64_t k) {
  std::vector<uint64_t> out;
  for (uint64_t i = 0; i < per_partition; ++i) {
    uint8_t j[4];
    store_u32le(j, uint32_t(per_partition * k + i));
    Sha256 h = prefix;
    const Sha256Digest d = h.update(j, 4).finish();
    out.push_back(bigint_to_challenge(d.data(), nodes));
  }
  return out;
}

constexpr std::array<uint8_t, 12> kSynthNonce = {'s', 'y', 'n', 't', 'h', '-', 'p', 'o', 'r', 'e', 'p', 0};

std::array<uint8_t, 32> synth_key(std::string_view tag, const Node& a, const Node& b) {
  auto d = Blake2b(32, ByteSpan(reinterpret_cast<const uint8_t*>(tag.data()), tag.size()))
               .update(a)
               .update(b)
               .finish();
  std::array<uint8_t, 32> key;
  std::memcpy(key.data(), d.data(), 32);
  return key;
}

}  // namespace

std::vector<uint64_t> porep_interactive_challenges(uint64_t sector_nodes, const Node& replica_id, const Node& seed,
                                                   uint64_t challenges_per_partition, uint64_t k) {
  Sha256 prefix;
  prefix.update(replica_id.data(), 32).update(seed.data(), 32);
  return derive(prefix, sector_nodes, challenges_per_partition, k);
}

std::vector<uint64_t> porep_ni_challenges(uint64_t sector_nodes, const Node& replica_id, const Node& comm_r,
                                          uint64_t challenges_per_partition, uint64_t k) {
  static constexpr std::string_view kTag = "filecoin.io|PoRep|1|NonInteractive|1";
  Sha256 prefix;
  prefix.update(kTag.data(), kTag.size()).update(replica_id.data(), 32).update(comm_r.data(), 32);
  return derive(prefix, sector_nodes, challenges_per_partition, k);
}

SynthChallenges::SynthChallenges(uint64_t sector_nodes, const Node& replica_id, const Node& comm_r, uint64_t num_synth)
    : sector_nodes_(sector_nodes),
      num_synth_(num_synth),
      replica_id_(replica_id),
      gen_key_(synth_key("filecoin.io|PoRep|1|Synthetic|1|Generation", replica_id, comm_r)) {}

uint64_t SynthChallenges::default_count(uint64_t sector_nodes) { return std::min<uint64_t>(sector_nodes, 1u << 18); }

uint64_t SynthChallenges::synth_challenge(uint64_t i) const {
  ChaCha20Ietf c(gen_key_, kSynthNonce);
  c.seek(i * 32);
  uint8_t bytes[32] = {};
  c.apply(MutableByteSpan(bytes, sizeof(bytes)));
  return bigint_to_challenge(bytes, sector_nodes_);
}

std::vector<uint64_t> SynthChallenges::partition_indexes(uint64_t challenges_per_partition, const Node& seed,
                                                         uint64_t k) const {
  ChaCha20Ietf c(synth_key("filecoin.io|PoRep|1|Synthetic|1|Selection", replica_id_, seed), kSynthNonce);
  c.seek(k * challenges_per_partition * 4);
  std::vector<uint8_t> bytes(challenges_per_partition * 4, 0);
  c.apply(bytes);
  std::vector<uint64_t> out;
  for (uint64_t i = 0; i < challenges_per_partition; ++i) out.push_back(load_u32le(bytes.data() + 4 * i) % num_synth_);
  return out;
}

std::vector<uint64_t> SynthChallenges::partition_challenges(uint64_t challenges_per_partition, const Node& seed,
                                                            uint64_t k) const {
  std::vector<uint64_t> out;
  for (uint64_t i : partition_indexes(challenges_per_partition, seed, k)) out.push_back(synth_challenge(i));
  return out;
}

uint64_t post_sector_challenge(const Node& randomness, uint64_t n, uint64_t sector_set_len, const Node& prover_id) {
  uint8_t nb[8];
  store_u64le(nb, n);
  const Sha256Digest d = Sha256().update(prover_id.data(), 32).update(randomness.data(), 32).update(nb, 8).finish();
  return load_u64le(d.data()) % sector_set_len;
}

uint64_t post_challenge_index(ApiVersion api, uint64_t sector_index, uint64_t challenge_count, uint64_t n) {
  return api == ApiVersion::kV1_2_0 ? n : sector_index * challenge_count + n;
}

uint64_t post_leaf_challenge(uint64_t sector_nodes, const Node& randomness, uint64_t sector_id,
                             uint64_t challenge_index) {
  uint8_t sid[8], idx[8];
  store_u64le(sid, sector_id);
  store_u64le(idx, challenge_index);
  const Sha256Digest d = Sha256().update(randomness.data(), 32).update(sid, 8).update(idx, 8).finish();
  return load_u64le(d.data()) % sector_nodes;
}

Node prover_id_from_miner_id(uint64_t miner_id) {
  Node id{};
  size_t i = 0;
  while (miner_id >= 0x80) {
    id[i++] = uint8_t(miner_id | 0x80);
    miner_id >>= 7;
  }
  id[i] = uint8_t(miner_id);
  return id;
}

uint64_t snap_partition_count(uint64_t sector_nodes) {
  if (sector_nodes <= (1u << 8)) return 1;   // <= 8 KiB
  if (sector_nodes <= (1u << 10)) return 2;  // <= 32 KiB
  if (sector_nodes <= (1u << 19)) return 4;  // <= 16 MiB
  return 16;
}

uint64_t snap_challenge_count(uint64_t sector_nodes) { return sector_nodes <= (1u << 19) ? 10 : 86; }

std::array<uint64_t, 6> snap_hs(uint64_t sector_nodes) {
  if (sector_nodes <= (1u << 10)) return {1, 1, 1, 1, 1, 1};
  return {7, 8, 9, 10, 11, 12};
}

uint64_t snap_h_default(uint64_t sector_nodes) { return snap_hs(sector_nodes)[3]; }

uint64_t snap_h_select(uint64_t sector_nodes, uint64_t h) {
  const auto hs = snap_hs(sector_nodes);
  for (size_t i = 0; i < hs.size(); ++i)
    if (hs[i] == h) return uint64_t(1) << i;
  return 0;
}

uint64_t snap_apex_leaf_count(uint64_t sector_nodes) { return sector_nodes <= (1u << 8) ? 8 : 128; }

std::vector<uint32_t> snap_challenges(uint64_t sector_nodes, const Node& comm_r_new, uint64_t k) {
  const uint64_t partitions = snap_partition_count(sector_nodes);
  const int challenge_bits = __builtin_ctzll(sector_nodes);
  const int partition_bits = __builtin_ctzll(partitions);
  const int random_bits = challenge_bits - partition_bits;
  const uint64_t per_digest = 254 / uint64_t(random_bits);  // Fr::CAPACITY
  const uint64_t count = snap_challenge_count(sector_nodes);
  const uint64_t digests_per_partition = uint64_t(std::ceil(float(count) / float(per_digest)));
  const uint32_t high = uint32_t(k << random_bits);
  const Fr comm = fr_from_node_trusted(comm_r_new);
  std::vector<uint32_t> out;
  uint64_t digest_index = k * digests_per_partition;
  Node digest{};
  for (uint64_t c = 0; c < count; ++c) {
    const uint64_t i = c % per_digest;
    if (i == 0) {
      const Fr in[2] = {comm, Fr::from_uint(digest_index++)};
      digest = node_from_fr(poseidon_hash(poseidon_gen_randomness_constants(), in));
    }
    uint32_t v = 0;
    for (int b = 0; b < random_bits; ++b) {
      const uint64_t bit = i * uint64_t(random_bits) + uint64_t(b);
      if ((digest[bit / 8] >> (bit % 8)) & 1) v |= uint32_t(1) << b;
    }
    out.push_back(v | high);
  }
  return out;
}

Node snap_phi(const Node& comm_d_new, const Node& comm_r_old) {
  const Fr in[2] = {fr_from_node_trusted(comm_d_new), fr_from_node_trusted(comm_r_old)};
  return node_from_fr(poseidon_hash(poseidon_gen_randomness_constants(), in));
}

Node snap_rho(const Node& phi, uint32_t high) {
  const Fr in[2] = {fr_from_node_trusted(phi), Fr::from_uint(high)};
  return node_from_fr(poseidon_hash(poseidon_gen_randomness_constants(), in));
}

}  // namespace cuzk::filecoin
