#include "cuzk/io/bellperson.h"

#include <bit>
#include <cstring>
#include <string_view>

#include "cuzk/base/mapped_file.h"
#include "cuzk/ec/zcash_codec.h"
#include "io_internal.h"

namespace cuzk::io {

using groth16::G1Affine;
using groth16::G2Affine;
using internal::at_offset;

namespace {

constexpr uint64_t kG1 = ec::kG1UncompressedBytes;
constexpr uint64_t kG2 = ec::kG2UncompressedBytes;

// Uncompressed ZCash codec by type.
template <class P>
struct Zc;
template <>
struct Zc<G1Affine> {
  static constexpr uint64_t kBytes = kG1;
  static StatusOr<G1Affine> decode(ByteSpan b, ec::SubgroupCheck c) { return ec::g1_from_zcash(b, c); }
  static void encode(const G1Affine& p, uint8_t* out) {
    std::memcpy(out, ec::g1_to_zcash_uncompressed(p).data(), kBytes);
  }
};
template <>
struct Zc<G2Affine> {
  static constexpr uint64_t kBytes = kG2;
  static StatusOr<G2Affine> decode(ByteSpan b, ec::SubgroupCheck c) { return ec::g2_from_zcash(b, c); }
  static void encode(const G2Affine& p, uint8_t* out) {
    std::memcpy(out, ec::g2_to_zcash_uncompressed(p).data(), kBytes);
  }
};

// Decodes the point at `offset`; `name` and `index` (kNoIndex for a single
// point) name it in errors.
template <class P>
StatusOr<P> decode_at(ByteSpan file, uint64_t offset, const char* name, uint64_t index, ec::SubgroupCheck check,
                      bool allow_infinity, const char* kind) {
  auto p = Zc<P>::decode(file.subspan(offset, Zc<P>::kBytes), check);
  if (!p.ok())
    return invalid_argument(std::string(kind) + ": " + internal::element_name(name, index) + ": " +
                            p.status().message() + at_offset(offset));
  if (!allow_infinity && p->is_infinity())
    return invalid_argument(std::string(kind) + ": " + internal::element_name(name, index) +
                            " is the point at infinity" + at_offset(offset));
  return p;
}

template <class P>
StatusOr<std::vector<P>> decode_vector(ByteSpan file, const ParamsVector& v, const char* name, ec::SubgroupCheck check,
                                       ThreadPool& pool, const char* kind) {
  std::vector<P> out(v.count);
  RETURN_IF_ERROR(internal::parallel_try(pool, v.count, 2048, [&](uint64_t i) -> Status {
    auto p = decode_at<P>(file, v.offset + i * Zc<P>::kBytes, name, i, check, false, kind);
    if (!p.ok()) return p.status();
    out[i] = *p;
    return ok_status();
  }));
  return out;
}

// Reads the u32be count at *pos and checks `count` elements fit; advances *pos.
StatusOr<ParamsVector> scan_vector(ByteSpan file, uint64_t* pos, uint64_t elem_bytes, const char* name,
                                   const char* kind) {
  if (file.size() - *pos < 4)
    return invalid_argument(std::string(kind) + ": truncated: the " + name + " count runs past the end of the file (" +
                            std::to_string(file.size()) + " bytes)" + at_offset(*pos));
  ParamsVector v{load_u32be(file.data() + *pos), *pos + 4};
  const uint64_t remain = file.size() - v.offset;
  if (uint64_t(v.count) * elem_bytes > remain)
    return invalid_argument(std::string(kind) + ": truncated: " + name + " declares " + std::to_string(v.count) +
                            " points (" + std::to_string(uint64_t(v.count) * elem_bytes) + " bytes) but only " +
                            std::to_string(remain) + " bytes remain" + at_offset(*pos));
  *pos = v.offset + uint64_t(v.count) * elem_bytes;
  return v;
}

StatusOr<groth16::VerifyingKey> parse_vk_impl(ByteSpan b, ec::SubgroupCheck check, uint64_t* consumed,
                                              const char* kind, ec::SubgroupCheck ic_check) {
  if (b.size() < kVkFixedBytes)
    return invalid_argument(std::string(kind) + ": truncated: " + std::to_string(b.size()) +
                            " bytes, a verifying key needs at least " + std::to_string(kVkFixedBytes) +
                            at_offset(b.size()));
  groth16::VerifyingKey vk;
  ASSIGN_OR_RETURN(vk.alpha_g1, decode_at<G1Affine>(b, 0, "alpha_g1", internal::kNoIndex, check, true, kind));
  ASSIGN_OR_RETURN(vk.beta_g1, decode_at<G1Affine>(b, 96, "beta_g1", internal::kNoIndex, check, true, kind));
  ASSIGN_OR_RETURN(vk.beta_g2, decode_at<G2Affine>(b, 192, "beta_g2", internal::kNoIndex, check, true, kind));
  // γ or δ at infinity would let anyone forge proofs against the key. delta_g1 only blinds
  // proofs (a .vk made from snarkjs JSON, which lacks it, holds infinity): required in .params.
  const bool proving = std::string_view(kind) == "params";
  ASSIGN_OR_RETURN(vk.gamma_g2, decode_at<G2Affine>(b, 384, "gamma_g2", internal::kNoIndex, check, false, kind));
  ASSIGN_OR_RETURN(vk.delta_g1, decode_at<G1Affine>(b, 576, "delta_g1", internal::kNoIndex, check, !proving, kind));
  ASSIGN_OR_RETURN(vk.delta_g2, decode_at<G2Affine>(b, 672, "delta_g2", internal::kNoIndex, check, false, kind));
  uint64_t pos = 864;
  ASSIGN_OR_RETURN(ParamsVector ic, scan_vector(b, &pos, kG1, "IC", kind));
  vk.ic.resize(ic.count);
  for (uint64_t i = 0; i < ic.count; ++i) {
    ASSIGN_OR_RETURN(vk.ic[i], decode_at<G1Affine>(b, ic.offset + i * kG1, "IC", i, ic_check, false, kind));
  }
  if (consumed != nullptr) *consumed = pos;
  return vk;
}

Status check_density(const ParamsLayout& lay, const r1cs::DensityBitmaps& d) {
  auto mismatch = [](const std::string& what, uint64_t file, uint64_t circuit) {
    return invalid_argument("params: " + std::string(kNotThisCircuit) + what + ": the file has " +
                            std::to_string(file) + ", the circuit " + std::to_string(circuit));
  };
  const uint64_t inputs = lay.ic_len;
  if (d.a_input.bit_len != inputs) return mismatch("inputs (IC length)", inputs, d.a_input.bit_len);
  if (d.b_input.bit_len != inputs) return mismatch("inputs (IC length) vs B input density", inputs, d.b_input.bit_len);
  if (d.a_input.popcount != inputs)
    return invalid_argument("params: " + std::string(kNotThisCircuit) +
                            "the A input density must have every input set (per-input rows), " +
                            std::to_string(d.a_input.popcount) + " of " + std::to_string(inputs) + " are");
  if (lay.l.count != d.a_aux.bit_len) return mismatch("aux variables (L length)", lay.l.count, d.a_aux.bit_len);
  if (d.b_aux.bit_len != d.a_aux.bit_len) return mismatch("aux in B density", lay.l.count, d.b_aux.bit_len);
  if (lay.a.count != inputs + d.a_aux.popcount)
    return mismatch("A length (inputs + A aux popcount)", lay.a.count, inputs + d.a_aux.popcount);
  const uint64_t b_len = d.b_input.popcount + d.b_aux.popcount;
  if (lay.b_g1.count != b_len) return mismatch("B_G1 length (B density popcount)", lay.b_g1.count, b_len);
  if (lay.b_g2.count != b_len) return mismatch("B_G2 length (B density popcount)", lay.b_g2.count, b_len);
  const uint64_t n = uint64_t(lay.h.count) + 1;
  if (lay.h.count == 0 || (n & (n - 1)) != 0)
    return invalid_argument("params: H has " + std::to_string(lay.h.count) +
                            " points; H length + 1 must be a power of two >= 2");
  return ok_status();
}

r1cs::Bitmap concat(const r1cs::Bitmap& inputs, const r1cs::Bitmap& aux) {
  r1cs::Bitmap out(inputs.bit_len + aux.bit_len);
  internal::copy_bits(inputs, 0, out);
  internal::copy_bits(aux, inputs.bit_len, out);
  internal::recount(out);
  return out;
}

}  // namespace

StatusOr<groth16::VerifyingKey> parse_vk(ByteSpan bytes, ec::SubgroupCheck check, uint64_t* consumed) {
  return parse_vk_impl(bytes, check, consumed, "vk", check);
}

StatusOr<groth16::VerifyingKey> parse_vk_for_verifier(ByteSpan bytes) {
  return parse_vk_impl(bytes, ec::SubgroupCheck::kCheck, nullptr, "vk", ec::SubgroupCheck::kSkip);
}

StatusOr<groth16::VerifyingKey> read_vk_for_verifier(const std::string& path) {
  ASSIGN_OR_RETURN(MappedFile f, MappedFile::open(path));
  auto vk = parse_vk_for_verifier(f.bytes());
  if (!vk.ok()) return vk.status().with_context(path);
  return vk;
}

StatusOr<std::vector<uint8_t>> serialize_vk(const groth16::VerifyingKey& vk) {
  if (vk.ic.size() > 0xffffffffull) return invalid_argument("vk: IC has more than 2^32 - 1 points");
  std::vector<uint8_t> out(kVkFixedBytes + vk.ic.size() * kG1);
  uint8_t* p = out.data();
  Zc<G1Affine>::encode(vk.alpha_g1, p);
  Zc<G1Affine>::encode(vk.beta_g1, p + 96);
  Zc<G2Affine>::encode(vk.beta_g2, p + 192);
  Zc<G2Affine>::encode(vk.gamma_g2, p + 384);
  Zc<G1Affine>::encode(vk.delta_g1, p + 576);
  Zc<G2Affine>::encode(vk.delta_g2, p + 672);
  store_u32be(p + 864, uint32_t(vk.ic.size()));
  for (size_t i = 0; i < vk.ic.size(); ++i) {
    if (vk.ic[i].is_infinity())
      return invalid_argument("vk: IC[" + std::to_string(i) + "] is the point at infinity, which bellperson rejects");
    Zc<G1Affine>::encode(vk.ic[i], p + kVkFixedBytes + i * kG1);
  }
  return out;
}

StatusOr<groth16::VerifyingKey> read_vk(const std::string& path, ec::SubgroupCheck check) {
  ASSIGN_OR_RETURN(MappedFile f, MappedFile::open(path));
  auto vk = parse_vk(f.bytes(), check);
  if (!vk.ok()) return vk.status().with_context(path);
  return vk;
}

Status write_vk(const std::string& path, const groth16::VerifyingKey& vk) {
  ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, serialize_vk(vk));
  return write_file(path, bytes);
}

StatusOr<ParamsLayout> scan_params(ByteSpan file) {
  ParamsLayout lay;
  uint64_t pos = 864;
  if (file.size() < kVkFixedBytes)
    return invalid_argument("params: truncated: " + std::to_string(file.size()) +
                            " bytes, the verifying key alone needs " + std::to_string(kVkFixedBytes) +
                            at_offset(file.size()));
  ASSIGN_OR_RETURN(ParamsVector ic, scan_vector(file, &pos, kG1, "IC", "params"));
  lay.ic_len = ic.count;
  lay.vk_bytes = pos;
  ASSIGN_OR_RETURN(lay.h, scan_vector(file, &pos, kG1, "H", "params"));
  ASSIGN_OR_RETURN(lay.l, scan_vector(file, &pos, kG1, "L", "params"));
  ASSIGN_OR_RETURN(lay.a, scan_vector(file, &pos, kG1, "A", "params"));
  ASSIGN_OR_RETURN(lay.b_g1, scan_vector(file, &pos, kG1, "B_G1", "params"));
  ASSIGN_OR_RETURN(lay.b_g2, scan_vector(file, &pos, kG2, "B_G2", "params"));
  lay.end_offset = pos;
  lay.trailing_bytes = file.size() - pos;
  return lay;
}

StatusOr<groth16::ProvingKey> parse_params(ByteSpan file, const r1cs::DensityBitmaps& density,
                                           const ParamsReadOptions& options) {
  ASSIGN_OR_RETURN(ParamsLayout lay, scan_params(file));
  RETURN_IF_ERROR(check_density(lay, density));
  const ec::SubgroupCheck check = options.check_subgroup ? ec::SubgroupCheck::kCheck : ec::SubgroupCheck::kSkip;
  ThreadPool& pool = internal::pool_or_default(options.pool);
  groth16::ProvingKey pk;
  pk.layout = groth16::KeyLayout::kBellperson;
  // The verifying key's points are few: always in the subgroup (key_check.h).
  ASSIGN_OR_RETURN(pk.vk, parse_vk_impl(file, ec::SubgroupCheck::kCheck, nullptr, "params", ec::SubgroupCheck::kCheck));
  pk.lg_n = std::countr_zero(uint64_t(lay.h.count) + 1);
  pk.num_inputs = lay.ic_len;
  pk.num_aux = lay.l.count;
  ASSIGN_OR_RETURN(pk.h, decode_vector<G1Affine>(file, lay.h, "H", check, pool, "params"));
  ASSIGN_OR_RETURN(pk.l, decode_vector<G1Affine>(file, lay.l, "L", check, pool, "params"));
  ASSIGN_OR_RETURN(pk.a, decode_vector<G1Affine>(file, lay.a, "A", check, pool, "params"));
  ASSIGN_OR_RETURN(pk.b_g1, decode_vector<G1Affine>(file, lay.b_g1, "B_G1", check, pool, "params"));
  ASSIGN_OR_RETURN(pk.b_g2, decode_vector<G2Affine>(file, lay.b_g2, "B_G2", check, pool, "params"));
  pk.a_density = concat(density.a_input, density.a_aux);
  pk.b_density = concat(density.b_input, density.b_aux);
  RETURN_IF_ERROR(pk.check_shape());
  return pk;
}

StatusOr<groth16::ProvingKey> read_params(const std::string& path, const r1cs::DensityBitmaps& density,
                                          const ParamsReadOptions& options) {
  ASSIGN_OR_RETURN(MappedFile f, MappedFile::open(path));
  f.advise_sequential();
  auto pk = parse_params(f.bytes(), density, options);
  if (!pk.ok()) return pk.status().with_context(path);
  return pk;
}

namespace {

Status check_params_writable(const groth16::ProvingKey& pk) {
  if (pk.layout != groth16::KeyLayout::kBellperson)
    return invalid_argument("write_params: the proving key has the snarkjs layout; .params needs bellperson's");
  RETURN_IF_ERROR(pk.check_shape());
  for (uint64_t i = 0; i < pk.num_inputs; ++i) {
    if (!pk.a_density.test(i))
      return invalid_argument("write_params: input " + std::to_string(i) +
                              " is missing from the A density; bellperson's A holds every input");
  }
  const uint64_t biggest = std::max({pk.h.size(), pk.l.size(), pk.a.size(), pk.b_g1.size(), pk.vk.ic.size()});
  if (biggest > 0xffffffffull) return invalid_argument("write_params: a vector has more than 2^32 - 1 points");
  return ok_status();
}

template <class P>
Status write_vector(FileWriter& w, const std::vector<P>& pts, const char* name, ThreadPool& pool) {
  uint8_t count[4];
  store_u32be(count, uint32_t(pts.size()));
  RETURN_IF_ERROR(w.write(ByteSpan(count, 4)));
  return internal::write_records(w, pts.size(), Zc<P>::kBytes, pool, [&](uint64_t i, uint8_t* out) -> Status {
    if (pts[i].is_infinity())
      return invalid_argument(std::string("write_params: ") + name + "[" + std::to_string(i) +
                              "] is the point at infinity, which bellperson rejects");
    Zc<P>::encode(pts[i], out);
    return ok_status();
  });
}

}  // namespace

Status write_params(const std::string& path, const groth16::ProvingKey& pk, ThreadPool* pool_arg) {
  RETURN_IF_ERROR(check_params_writable(pk));
  ThreadPool& pool = internal::pool_or_default(pool_arg);
  ASSIGN_OR_RETURN(std::vector<uint8_t> vk, serialize_vk(pk.vk));
  ASSIGN_OR_RETURN(FileWriter w, FileWriter::create(path));
  RETURN_IF_ERROR(w.write(vk));
  RETURN_IF_ERROR(write_vector(w, pk.h, "H", pool));
  RETURN_IF_ERROR(write_vector(w, pk.l, "L", pool));
  RETURN_IF_ERROR(write_vector(w, pk.a, "A", pool));
  RETURN_IF_ERROR(write_vector(w, pk.b_g1, "B_G1", pool));
  RETURN_IF_ERROR(write_vector(w, pk.b_g2, "B_G2", pool));
  return w.commit();
}

// ---- proofs ----------------------------------------------------------------

std::array<uint8_t, kProofBytes> serialize_proof(const groth16::Proof& proof) {
  std::array<uint8_t, kProofBytes> out{};
  const auto a = ec::g1_to_zcash_compressed(proof.a);
  const auto b = ec::g2_to_zcash_compressed(proof.b);
  const auto c = ec::g1_to_zcash_compressed(proof.c);
  std::memcpy(out.data(), a.data(), 48);
  std::memcpy(out.data() + 48, b.data(), 96);
  std::memcpy(out.data() + 144, c.data(), 48);
  return out;
}

namespace {

template <class P>
Status decode_proof_point(ByteSpan bytes, uint64_t base, uint64_t off, uint64_t len, const char* name,
                          ec::SubgroupCheck check, P* out) {
  auto p = Zc<P>::decode(bytes.subspan(off, len), check);
  if (!p.ok())
    return invalid_argument(std::string("proof: ") + name + ": " + p.status().message() + at_offset(base + off));
  if (p->is_infinity())
    return invalid_argument(std::string("proof: ") + name + " is the point at infinity" + at_offset(base + off));
  *out = *p;
  return ok_status();
}

StatusOr<groth16::Proof> parse_proof_at(ByteSpan bytes, uint64_t base, ec::SubgroupCheck check) {
  groth16::Proof proof;
  RETURN_IF_ERROR(decode_proof_point(bytes, base, 0, 48, "A", check, &proof.a));
  RETURN_IF_ERROR(decode_proof_point(bytes, base, 48, 96, "B", check, &proof.b));
  RETURN_IF_ERROR(decode_proof_point(bytes, base, 144, 48, "C", check, &proof.c));
  return proof;
}

}  // namespace

StatusOr<groth16::Proof> parse_proof(ByteSpan bytes, ec::SubgroupCheck check) {
  if (bytes.size() != kProofBytes)
    return invalid_argument("proof: expected 192 bytes, got " + std::to_string(bytes.size()));
  return parse_proof_at(bytes, 0, check);
}

std::vector<uint8_t> serialize_proofs(std::span<const groth16::Proof> proofs) {
  std::vector<uint8_t> out;
  out.reserve(proofs.size() * kProofBytes);
  for (const groth16::Proof& p : proofs) {
    const auto b = serialize_proof(p);
    out.insert(out.end(), b.begin(), b.end());
  }
  return out;
}

StatusOr<std::vector<groth16::Proof>> parse_proofs(ByteSpan bytes, ec::SubgroupCheck check) {
  if (bytes.empty() || bytes.size() % kProofBytes != 0)
    return invalid_argument("proofs: " + std::to_string(bytes.size()) + " bytes is not a positive multiple of 192");
  std::vector<groth16::Proof> out(bytes.size() / kProofBytes);
  for (size_t i = 0; i < out.size(); ++i) {
    auto p = parse_proof_at(bytes.subspan(i * kProofBytes, kProofBytes), i * kProofBytes, check);
    if (!p.ok()) return p.status().with_context("partition " + std::to_string(i));
    out[i] = *p;
  }
  return out;
}

StatusOr<std::vector<groth16::Proof>> read_proofs(const std::string& path) {
  ASSIGN_OR_RETURN(MappedFile f, MappedFile::open(path));
  auto r = parse_proofs(f.bytes());
  if (!r.ok()) return r.status().with_context(path);
  return r;
}

Status write_proofs(const std::string& path, std::span<const groth16::Proof> proofs) {
  return write_file(path, serialize_proofs(proofs));
}

}  // namespace cuzk::io
