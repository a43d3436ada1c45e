#include "cuzk/io/zkey.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <thread>

#include "cuzk/base/huge_pages.h"
#include "cuzk/base/mapped_file.h"
#include "cuzk/ec/zkey_codec.h"
#include "curve_ids.h"
#include "io_internal.h"

namespace cuzk::io {

using groth16::G1Affine;
using groth16::G2Affine;
using internal::at_offset;

namespace {

constexpr uint64_t kG1Bytes = ec::kG1ZkeyBytes;
constexpr uint64_t kG2Bytes = ec::kG2ZkeyBytes;
constexpr uint32_t kNumSections = 10;

Status bad(const std::string& msg, uint64_t offset) { return invalid_argument("zkey: " + msg + at_offset(offset)); }

// Point codec by type, so that one template decodes both groups.
template <class P>
struct Lem;
template <>
struct Lem<G1Affine> {
  static constexpr uint64_t kBytes = kG1Bytes;
  static StatusOr<G1Affine> decode(ByteSpan b, ec::SubgroupCheck c) { return ec::g1_from_zkey(b, c); }
  static void encode(const G1Affine& p, uint8_t* out) { std::memcpy(out, ec::g1_to_zkey(p).data(), kBytes); }
};
template <>
struct Lem<G2Affine> {
  static constexpr uint64_t kBytes = kG2Bytes;
  static StatusOr<G2Affine> decode(ByteSpan b, ec::SubgroupCheck c) { return ec::g2_from_zkey(b, c); }
  static void encode(const G2Affine& p, uint8_t* out) { std::memcpy(out, ec::g2_to_zkey(p).data(), kBytes); }
};

struct Ctx {
  ByteSpan file;
  ec::SubgroupCheck check;
  ThreadPool& pool;
};

// Points per task: a subgroup test costs ~40 µs, so a few hundred checked
// points (the IC of a circuit with many public values) already fill the cores.
size_t chunk_for(const Ctx& ctx) { return ctx.check == ec::SubgroupCheck::kCheck ? 32 : 4096; }

template <class P>
StatusOr<P> decode_at(const Ctx& ctx, uint64_t offset, const char* name, uint64_t index = internal::kNoIndex) {
  auto p = Lem<P>::decode(ctx.file.subspan(offset, Lem<P>::kBytes), ctx.check);
  if (!p.ok()) return bad(internal::element_name(name, index) + ": " + p.status().message(), offset);
  return p;
}

// All `count` points of a section.
template <class P>
StatusOr<std::vector<P>> decode_dense(const Ctx& ctx, const Iden3Section& s, uint64_t count, const char* name) {
  std::vector<P> out = huge_page_vector<P>(count);
  RETURN_IF_ERROR(internal::parallel_try(ctx.pool, count, chunk_for(ctx), [&](uint64_t i) -> Status {
    auto p = decode_at<P>(ctx, s.offset + i * Lem<P>::kBytes, name, i);
    if (!p.ok()) return p.status();
    out[i] = *p;
    return ok_status();
  }));
  return out;
}

// The points of a section whose bit is set in `map`, in order.
template <class P>
StatusOr<std::vector<P>> decode_filtered(const Ctx& ctx, const Iden3Section& s, const r1cs::Bitmap& map,
                                         const char* name) {
  std::vector<P> out = huge_page_vector<P>(map.popcount);
  const std::vector<uint64_t> rank = internal::bitmap_ranks(map);
  RETURN_IF_ERROR(internal::parallel_try(ctx.pool, map.bit_len, chunk_for(ctx), [&](uint64_t i) -> Status {
    if (!map.test(i)) return ok_status();
    auto p = decode_at<P>(ctx, s.offset + i * Lem<P>::kBytes, name, i);
    if (!p.ok()) return p.status();
    out[internal::rank_of(rank, map, i)] = *p;
    return ok_status();
  }));
  return out;
}

template <int N>
bool equals_modulus(ByteSpan file, uint64_t offset, const ff::Limbs<N>& modulus) {
  for (int i = 0; i < N; ++i) {
    if (load_u64le(file.data() + offset + 8 * uint64_t(i)) != modulus[size_t(i)]) return false;
  }
  return true;
}

Status check_size(const Iden3Section& s, uint64_t want, const std::string& what) {
  if (s.size == want) return ok_status();
  return bad("section " + std::to_string(s.id) + " (" + what + ") has " + std::to_string(s.size) +
                 " bytes, the header's counts need " + std::to_string(want),
             s.header_offset);
}

StatusOr<const Iden3Section*> require(const Iden3Container& c, uint32_t id, const char* what) {
  const Iden3Section* s = c.find(id);
  if (s == nullptr) return invalid_argument("zkey: missing section " + std::to_string(id) + " (" + what + ")");
  return s;
}

}  // namespace

StatusOr<ZkeyHeader> parse_zkey_header(ByteSpan file, const Iden3Container& c) {
  ZkeyHeader h;
  ASSIGN_OR_RETURN(const Iden3Section* s1, require(c, 1, "header"));
  RETURN_IF_ERROR(check_size(*s1, 4, "header"));
  h.protocol = load_u32le(file.data() + s1->offset);
  if (h.protocol != kZkeyProtocolGroth16)
    return bad("protocol is " + std::to_string(h.protocol) + " (2 = PLONK, 10 = FFLONK); only Groth16 (1) is supported",
               s1->offset);
  ASSIGN_OR_RETURN(const Iden3Section* s2, require(c, 2, "Groth16 header"));
  const uint64_t o = s2->offset;
  if (s2->size < 4) return check_size(*s2, kZkeyGroth16HeaderBytes, "Groth16 header");
  h.n8q = load_u32le(file.data() + o);
  if (h.n8q == 32 && s2->size >= 36 && internal::curve_of_base_prime(file.subspan(o + 4, 32)) == internal::CurveId::kBn254)
    return bad(std::string("the key is for BN254 (bn128), not BLS12-381, the only curve cuzk proves on; ") +
                   internal::kBls12381Hint,
               o + 4);
  if (h.n8q != 48) return bad("n8q is " + std::to_string(h.n8q) + ", not BLS12-381's 48: wrong curve", o);
  if (s2->size < 56) return check_size(*s2, kZkeyGroth16HeaderBytes, "Groth16 header");
  h.n8r = load_u32le(file.data() + o + 52);
  if (h.n8r != 32) return bad("n8r is " + std::to_string(h.n8r) + ", not BLS12-381's 32: wrong curve", o + 52);
  RETURN_IF_ERROR(check_size(*s2, kZkeyGroth16HeaderBytes, "Groth16 header"));
  if (!equals_modulus<6>(file, o + 4, ff::Fp::kModulus))
    return bad("q is not the BLS12-381 base field modulus: wrong curve", o + 4);
  if (!equals_modulus<4>(file, o + 56, ff::Fr::kModulus))
    return bad("r is not the BLS12-381 group order: wrong curve", o + 56);
  h.num_vars = load_u32le(file.data() + o + 88);
  h.num_public = load_u32le(file.data() + o + 92);
  h.domain_size = load_u32le(file.data() + o + 96);
  if (uint64_t(h.num_public) + 1 > h.num_vars)
    return bad("nPublic " + std::to_string(h.num_public) + " + 1 exceeds nVars " + std::to_string(h.num_vars), o + 92);
  if (h.domain_size < 2 || (h.domain_size & (h.domain_size - 1)) != 0)
    return bad("domain size " + std::to_string(h.domain_size) + " is not a power of two >= 2", o + 96);
  return h;
}

std::array<uint8_t, 32> encode_zkey_coeff(const ff::Fr& v) {
  // v.mont() = v·R; one Montgomery product with R² gives v·R²·R·R^-1 = v·R² mod r.
  const ff::Fr::Repr c = ff::Fr::mont_mul(v.mont(), ff::to_limbs<4>(ff::FrParams::kR2));
  std::array<uint8_t, 32> out{};
  for (int i = 0; i < 4; ++i) store_u64le(out.data() + 8 * i, c[size_t(i)]);
  return out;
}

StatusOr<ff::Fr> decode_zkey_coeff(ByteSpan bytes) {
  if (bytes.size() != 32) return invalid_argument("zkey coefficient: expected 32 bytes");
  ff::Fr::Repr c{};
  for (int i = 0; i < 4; ++i) c[size_t(i)] = load_u64le(bytes.data() + 8 * i);
  if (ff::limbs_geq<4>(c, ff::Fr::kModulus)) return invalid_argument("zkey coefficient is not below r");
  // c = v·R²; mont_mul(c, 1) = v·R, the Montgomery form of v.
  return ff::Fr::from_mont(ff::Fr::mont_mul(c, ff::Fr::Repr{1, 0, 0, 0}));
}

namespace {

// ---- section 4: the A and B coefficients -----------------------------------

struct CoeffEntry {
  uint32_t matrix, row, wire;
};

CoeffEntry load_entry(ByteSpan file, uint64_t off) {
  return {load_u32le(file.data() + off), load_u32le(file.data() + off + 4), load_u32le(file.data() + off + 8)};
}

// The range check decode_zkey_coeff makes, without the conversion (build_rows converts).
bool coeff_below_r(const uint8_t* p) {
  ff::Fr::Repr c{};
  for (int i = 0; i < 4; ++i) c[size_t(i)] = load_u64le(p + 8 * i);
  return !ff::limbs_geq<4>(c, ff::Fr::kModulus);
}

// Checks every entry; returns the largest row and whether rows never decrease.
Status scan_coeffs(ByteSpan file, uint64_t base, uint64_t count, const ZkeyHeader& h, uint32_t* max_row, bool* sorted) {
  *max_row = 0;
  *sorted = true;
  uint32_t prev = 0;
  for (uint64_t k = 0; k < count; ++k) {
    const uint64_t off = base + k * kZkeyCoeffBytes;
    const CoeffEntry e = load_entry(file, off);
    auto what = [k] { return "coefficient " + std::to_string(k) + ": "; };  // only on errors
    if (e.matrix > 1) return bad(what() + "matrix " + std::to_string(e.matrix) + " is neither A (0) nor B (1)", off);
    if (e.row >= h.domain_size)
      return bad(what() + "row " + std::to_string(e.row) + " is outside the domain of " + std::to_string(h.domain_size),
                 off + 4);
    if (e.wire >= h.num_vars)
      return bad(what() + "wire " + std::to_string(e.wire) + " >= nVars " + std::to_string(h.num_vars), off + 8);
    if (!coeff_below_r(file.data() + off + 12)) return bad(what() + "value is not below r", off + 12);
    if (e.row < prev) *sorted = false;
    prev = e.row;
    *max_row = std::max(*max_row, e.row);
  }
  return ok_status();
}

// Entry indices ordered by row (stable counting sort).
std::vector<uint32_t> order_by_row(ByteSpan file, uint64_t base, uint64_t count, uint32_t rows) {
  std::vector<uint64_t> start(uint64_t(rows) + 1, 0);
  for (uint64_t k = 0; k < count; ++k) ++start[load_u32le(file.data() + base + k * kZkeyCoeffBytes + 4) + 1];
  for (uint64_t r = 0; r < rows; ++r) start[r + 1] += start[r];
  std::vector<uint32_t> order(count);
  for (uint64_t k = 0; k < count; ++k) {
    const uint32_t row = load_u32le(file.data() + base + k * kZkeyCoeffBytes + 4);
    order[start[row]++] = uint32_t(k);
  }
  return order;
}

// Feeds the entries to a CircuitBuilder row by row (A and B; C empty).
StatusOr<r1cs::Circuit> build_rows(ByteSpan file, uint64_t base, uint64_t count, uint32_t rows,
                                   const std::vector<uint32_t>* order, const ZkeyHeader& h) {
  r1cs::CircuitBuilder builder(uint64_t(h.num_public) + 1, uint64_t(h.num_vars) - h.num_public - 1);
  std::vector<r1cs::LinTerm> lc[2];
  uint64_t k = 0;
  for (uint32_t row = 0; row < rows; ++row) {
    lc[0].clear();
    lc[1].clear();
    for (; k < count; ++k) {
      const uint64_t idx = order != nullptr ? (*order)[k] : k;
      const uint64_t off = base + idx * kZkeyCoeffBytes;
      const CoeffEntry e = load_entry(file, off);
      if (e.row != row) break;
      lc[e.matrix].push_back({e.wire, *decode_zkey_coeff(file.subspan(off + 12, 32))});
    }
    RETURN_IF_ERROR(builder.add_row(lc[0], lc[1], {}));
  }
  return std::move(builder).build();
}

// The per-input rows: row num_constraints + s has A term (s, 1), s <= nPublic.
Status check_input_rows(const r1cs::Circuit& c, uint64_t num_constraints, uint64_t section_offset) {
  for (uint64_t s = 0; s < c.num_inputs(); ++s) {
    bool found = false;
    for (const r1cs::Term& t : c.row(num_constraints + s, r1cs::Matrix::kA)) {
      found = found || (t.var == s && c.coeff(t).is_one());
    }
    if (!found)
      return bad("row " + std::to_string(num_constraints + s) + " should be the per-input row of wire " +
                     std::to_string(s) + " (A coefficient 1)",
                 section_offset);
  }
  return ok_status();
}

Status read_coeffs(ByteSpan file, const Iden3Section& s4, const ZkeyHeader& h, ZkeyContents& out) {
  if (s4.size < 4) return check_size(s4, 4, "coefficients");
  const uint64_t count = load_u32le(file.data() + s4.offset);
  RETURN_IF_ERROR(check_size(s4, 4 + count * kZkeyCoeffBytes, "coefficients"));
  const uint64_t base = s4.offset + 4;
  uint32_t max_row = 0;
  bool sorted = true;
  RETURN_IF_ERROR(scan_coeffs(file, base, count, h, &max_row, &sorted));
  if (count == 0 || max_row < h.num_public)
    return bad("section 4 lacks the " + std::to_string(h.num_public + 1) + " per-input rows", s4.offset);
  const uint32_t rows = max_row + 1;
  std::vector<uint32_t> order;
  if (!sorted) order = order_by_row(file, base, count, rows);
  ASSIGN_OR_RETURN(out.ab_circuit, build_rows(file, base, count, rows, sorted ? nullptr : &order, h));
  out.num_constraints = uint64_t(rows) - h.num_public - 1;
  return check_input_rows(out.ab_circuit, out.num_constraints, s4.offset);
}

// ---- sections 5, 6, 7: A, B1, B2 with infinity for absent wires ---------

Status read_ab(const Ctx& ctx, const Iden3Container& c, const ZkeyHeader& h, groth16::ProvingKey& pk) {
  const Iden3Section* s5 = c.find(5);
  const Iden3Section* s6 = c.find(6);
  const Iden3Section* s7 = c.find(7);
  pk.a_density = internal::nonzero_records(ctx.file.data() + s5->offset, h.num_vars, kG1Bytes, ctx.pool);
  pk.b_density = internal::nonzero_records(ctx.file.data() + s6->offset, h.num_vars, kG1Bytes, ctx.pool);
  const r1cs::Bitmap b2 = internal::nonzero_records(ctx.file.data() + s7->offset, h.num_vars, kG2Bytes, ctx.pool);
  if (!(b2 == pk.b_density)) {
    uint64_t w = 0;
    while (b2.words[w] == pk.b_density.words[w]) ++w;
    const uint64_t wire = w * 64 + uint64_t(std::countr_zero(b2.words[w] ^ pk.b_density.words[w]));
    return bad("B1 and B2 disagree on wire " + std::to_string(wire) + ": one is infinity, the other is not",
               s7->offset + wire * kG2Bytes);
  }
  ASSIGN_OR_RETURN(pk.a, decode_filtered<G1Affine>(ctx, *s5, pk.a_density, "A"));
  ASSIGN_OR_RETURN(pk.b_g1, decode_filtered<G1Affine>(ctx, *s6, pk.b_density, "B1"));
  ASSIGN_OR_RETURN(pk.b_g2, decode_filtered<G2Affine>(ctx, *s7, b2, "B2"));
  return ok_status();
}

Status read_vk_header(const Ctx& ctx, const Iden3Section& s2, groth16::VerifyingKey& vk) {
  uint64_t o = s2.offset + 100;
  ASSIGN_OR_RETURN(vk.alpha_g1, decode_at<G1Affine>(ctx, o, "alpha_1"));
  ASSIGN_OR_RETURN(vk.beta_g1, decode_at<G1Affine>(ctx, o + 96, "beta_1"));
  ASSIGN_OR_RETURN(vk.beta_g2, decode_at<G2Affine>(ctx, o + 192, "beta_2"));
  ASSIGN_OR_RETURN(vk.gamma_g2, decode_at<G2Affine>(ctx, o + 384, "gamma_2"));
  ASSIGN_OR_RETURN(vk.delta_g1, decode_at<G1Affine>(ctx, o + 576, "delta_1"));
  ASSIGN_OR_RETURN(vk.delta_g2, decode_at<G2Affine>(ctx, o + 672, "delta_2"));
  // With γ or δ zero anyone can forge proofs against the key, and A would not be blinded.
  if (vk.gamma_g2.is_infinity()) return bad("gamma_2 is the point at infinity", o + 384);
  if (vk.delta_g1.is_infinity()) return bad("delta_1 is the point at infinity", o + 576);
  if (vk.delta_g2.is_infinity()) return bad("delta_2 is the point at infinity", o + 672);
  return ok_status();
}

Status check_point_sections(const Iden3Container& c, const ZkeyHeader& h) {
  const uint64_t vars = h.num_vars, pub1 = uint64_t(h.num_public) + 1;
  struct Want {
    uint32_t id;
    const char* what;
    uint64_t bytes;
  };
  const Want wants[] = {{3, "IC", pub1 * kG1Bytes},         {5, "A", vars * kG1Bytes},
                        {6, "B1", vars * kG1Bytes},         {7, "B2", vars * kG2Bytes},
                        {8, "C", (vars - pub1) * kG1Bytes}, {9, "H", uint64_t(h.domain_size) * kG1Bytes}};
  for (const Want& w : wants) {
    ASSIGN_OR_RETURN(const Iden3Section* s, require(c, w.id, w.what));
    RETURN_IF_ERROR(check_size(*s, w.bytes, w.what));
  }
  ASSIGN_OR_RETURN(const Iden3Section* s4, require(c, 4, "coefficients"));
  (void)s4;
  return ok_status();
}

Status read_contributions(ByteSpan file, const Iden3Container& c, ZkeyContents& out) {
  const Iden3Section* s10 = c.find(10);
  if (s10 == nullptr) return ok_status();
  if (s10->size < kZkeyHashBytes + 4)
    return bad("section 10 (contributions) has " + std::to_string(s10->size) + " bytes, fewer than 68",
               s10->header_offset);
  out.has_contributions = true;
  std::memcpy(out.circuit_hash.data(), file.data() + s10->offset, kZkeyHashBytes);
  out.num_contributions = load_u32le(file.data() + s10->offset + kZkeyHashBytes);
  return ok_status();
}

// Every point section: the verifying key (always subgroup-checked, vk_ctx),
// IC, C, H, A, B1, B2.
Status decode_points(const Ctx& ctx, const Ctx& vk_ctx, const Iden3Container& c, const ZkeyHeader& h,
                     groth16::ProvingKey& pk) {
  RETURN_IF_ERROR(read_vk_header(vk_ctx, *c.find(2), pk.vk));
  ASSIGN_OR_RETURN(pk.vk.ic, decode_dense<G1Affine>(vk_ctx, *c.find(3), pk.num_inputs, "IC"));
  ASSIGN_OR_RETURN(pk.l, decode_dense<G1Affine>(ctx, *c.find(8), pk.num_aux, "C"));
  ASSIGN_OR_RETURN(pk.h, decode_dense<G1Affine>(ctx, *c.find(9), h.domain_size, "H"));
  return read_ab(ctx, c, h, pk);
}

}  // namespace

StatusOr<ZkeyContents> parse_zkey(ByteSpan file, const ReadOptions& options) {
  ASSIGN_OR_RETURN(Iden3Container c, parse_iden3_container(file, "zkey"));
  if (c.version != kZkeyVersion)
    return bad("version " + std::to_string(c.version) + " is not supported (expected 1)", 4);
  ASSIGN_OR_RETURN(ZkeyHeader h, parse_zkey_header(file, c));
  RETURN_IF_ERROR(check_point_sections(c, h));
  const Ctx ctx{file, options.check_points ? ec::SubgroupCheck::kCheck : ec::SubgroupCheck::kSkip,
                internal::pool_or_default(options.pool)};
  // The verifying key's points are few: always in the subgroup (key_check.h).
  const Ctx vk_ctx{file, ec::SubgroupCheck::kCheck, ctx.pool};
  ZkeyContents out;
  groth16::ProvingKey& pk = out.pk;
  pk.layout = groth16::KeyLayout::kSnarkjs;
  pk.lg_n = std::countr_zero(h.domain_size);
  pk.num_inputs = uint64_t(h.num_public) + 1;
  pk.num_aux = uint64_t(h.num_vars) - pk.num_inputs;
  // Section 4 is read on one thread of its own while the points are decoded
  // on the pool (it writes out.ab_circuit, the points out.pk); joined at the
  // end of the block, whichever way it is left.
  Status coeffs;
  {
    std::jthread coeff_reader([&] { coeffs = read_coeffs(file, *c.find(4), h, out); });
    RETURN_IF_ERROR(decode_points(ctx, vk_ctx, c, h, pk));
  }
  RETURN_IF_ERROR(coeffs);
  RETURN_IF_ERROR(read_contributions(file, c, out));
  RETURN_IF_ERROR(pk.check_shape());
  return out;
}

StatusOr<ZkeyContents> read_zkey(const std::string& path, const ReadOptions& options) {
  ASSIGN_OR_RETURN(MappedFile f, MappedFile::open(path));
  f.advise_sequential();
  auto r = parse_zkey(f.bytes(), options);
  if (!r.ok()) return r.status().with_context(path);
  return r;
}

// ---- writer ----------------------------------------------------------------

namespace {

Status check_writable(const ZkeyContents& z) {
  const groth16::ProvingKey& pk = z.pk;
  if (pk.layout != groth16::KeyLayout::kSnarkjs)
    return invalid_argument("write_zkey: the proving key has the bellperson layout; a .zkey needs snarkjs's");
  RETURN_IF_ERROR(pk.check_shape());
  if (pk.lg_n > 31) return invalid_argument("write_zkey: domain 2^" + std::to_string(pk.lg_n) + " exceeds u32");
  if (pk.num_vars() > 0xffffffffull) return invalid_argument("write_zkey: nVars exceeds u32");
  const r1cs::Circuit& c = z.ab_circuit;
  if (c.num_inputs() != pk.num_inputs || c.num_aux() != pk.num_aux)
    return invalid_argument("write_zkey: ab_circuit has " + std::to_string(c.num_inputs()) + " inputs and " +
                            std::to_string(c.num_aux()) + " aux, the key " + std::to_string(pk.num_inputs) + " and " +
                            std::to_string(pk.num_aux));
  if (c.num_constraints() > pk.domain_size())
    return invalid_argument("write_zkey: ab_circuit has " + std::to_string(c.num_constraints()) +
                            " rows, more than the domain size " + std::to_string(pk.domain_size()));
  if (c.num_nonzeros(r1cs::Matrix::kC) != 0)
    return invalid_argument("write_zkey: ab_circuit has C terms, which a .zkey cannot store");
  if (c.num_nonzeros() > 0xffffffffull) return invalid_argument("write_zkey: too many coefficients for u32");
  return ok_status();
}

Status write_section_header(FileWriter& w, uint32_t id, uint64_t size) {
  uint8_t b[12];
  store_u32le(b, id);
  store_u64le(b + 4, size);
  return w.write(ByteSpan(b, 12));
}

template <class P>
void put_point(std::vector<uint8_t>& out, const P& p) {
  const size_t at = out.size();
  out.resize(at + Lem<P>::kBytes);
  Lem<P>::encode(p, out.data() + at);
}

void put_u32(std::vector<uint8_t>& out, uint32_t v) {
  uint8_t b[4];
  store_u32le(b, v);
  out.insert(out.end(), b, b + 4);
}

std::vector<uint8_t> groth16_header(const groth16::ProvingKey& pk) {
  std::vector<uint8_t> out;
  put_u32(out, 48);
  for (uint64_t limb : ff::Fp::kModulus) {
    uint8_t b[8];
    store_u64le(b, limb);
    out.insert(out.end(), b, b + 8);
  }
  put_u32(out, 32);
  for (uint64_t limb : ff::Fr::kModulus) {
    uint8_t b[8];
    store_u64le(b, limb);
    out.insert(out.end(), b, b + 8);
  }
  put_u32(out, uint32_t(pk.num_vars()));
  put_u32(out, uint32_t(pk.num_inputs - 1));
  put_u32(out, uint32_t(pk.domain_size()));
  put_point(out, pk.vk.alpha_g1);
  put_point(out, pk.vk.beta_g1);
  put_point(out, pk.vk.beta_g2);
  put_point(out, pk.vk.gamma_g2);
  put_point(out, pk.vk.delta_g1);
  put_point(out, pk.vk.delta_g2);
  return out;
}

Status write_coeffs(FileWriter& w, const r1cs::Circuit& c) {
  std::vector<uint8_t> buf;
  put_u32(buf, uint32_t(c.num_nonzeros()));
  for (uint64_t row = 0; row < c.num_constraints(); ++row) {
    for (uint32_t m = 0; m < 2; ++m) {
      for (const r1cs::Term& t : c.row(row, r1cs::Matrix(m))) {
        put_u32(buf, m);
        put_u32(buf, uint32_t(row));
        put_u32(buf, t.var);
        const auto v = encode_zkey_coeff(c.coeff(t));
        buf.insert(buf.end(), v.begin(), v.end());
      }
    }
    if (buf.size() >= (size_t(4) << 20)) {
      RETURN_IF_ERROR(w.write(buf));
      buf.clear();
    }
  }
  return w.write(buf);
}

template <class P>
Status write_dense(FileWriter& w, const std::vector<P>& pts, ThreadPool& pool) {
  return internal::write_records(w, pts.size(), Lem<P>::kBytes, pool, [&](uint64_t i, uint8_t* out) {
    Lem<P>::encode(pts[i], out);
    return ok_status();
  });
}

// All num_vars entries: the key's point where the density bit is set, zeros elsewhere.
template <class P>
Status write_expanded(FileWriter& w, const std::vector<P>& pts, const r1cs::Bitmap& map, ThreadPool& pool) {
  const std::vector<uint64_t> rank = internal::bitmap_ranks(map);
  return internal::write_records(w, map.bit_len, Lem<P>::kBytes, pool, [&](uint64_t i, uint8_t* out) {
    if (map.test(i))
      Lem<P>::encode(pts[internal::rank_of(rank, map, i)], out);
    else
      std::memset(out, 0, Lem<P>::kBytes);
    return ok_status();
  });
}

}  // namespace

Status write_zkey(const std::string& path, const ZkeyContents& z, ThreadPool* pool_arg) {
  RETURN_IF_ERROR(check_writable(z));
  ThreadPool& pool = internal::pool_or_default(pool_arg);
  const groth16::ProvingKey& pk = z.pk;
  ASSIGN_OR_RETURN(FileWriter w, FileWriter::create(path));
  uint8_t head[12] = {'z', 'k', 'e', 'y'};
  store_u32le(head + 4, kZkeyVersion);
  store_u32le(head + 8, kNumSections);
  RETURN_IF_ERROR(w.write(ByteSpan(head, 12)));

  uint8_t protocol[4];
  store_u32le(protocol, kZkeyProtocolGroth16);
  RETURN_IF_ERROR(write_section_header(w, 1, 4));
  RETURN_IF_ERROR(w.write(ByteSpan(protocol, 4)));
  const std::vector<uint8_t> s2 = groth16_header(pk);
  RETURN_IF_ERROR(write_section_header(w, 2, s2.size()));
  RETURN_IF_ERROR(w.write(s2));
  RETURN_IF_ERROR(write_section_header(w, 3, pk.vk.ic.size() * kG1Bytes));
  RETURN_IF_ERROR(write_dense(w, pk.vk.ic, pool));
  RETURN_IF_ERROR(write_section_header(w, 4, 4 + z.ab_circuit.num_nonzeros() * kZkeyCoeffBytes));
  RETURN_IF_ERROR(write_coeffs(w, z.ab_circuit));
  RETURN_IF_ERROR(write_section_header(w, 5, pk.num_vars() * kG1Bytes));
  RETURN_IF_ERROR(write_expanded(w, pk.a, pk.a_density, pool));
  RETURN_IF_ERROR(write_section_header(w, 6, pk.num_vars() * kG1Bytes));
  RETURN_IF_ERROR(write_expanded(w, pk.b_g1, pk.b_density, pool));
  RETURN_IF_ERROR(write_section_header(w, 7, pk.num_vars() * kG2Bytes));
  RETURN_IF_ERROR(write_expanded(w, pk.b_g2, pk.b_density, pool));
  RETURN_IF_ERROR(write_section_header(w, 8, pk.l.size() * kG1Bytes));
  RETURN_IF_ERROR(write_dense(w, pk.l, pool));
  RETURN_IF_ERROR(write_section_header(w, 9, pk.h.size() * kG1Bytes));
  RETURN_IF_ERROR(write_dense(w, pk.h, pool));

  std::vector<uint8_t> s10(z.circuit_hash.begin(), z.circuit_hash.end());
  put_u32(s10, 0);
  RETURN_IF_ERROR(write_section_header(w, 10, s10.size()));
  RETURN_IF_ERROR(w.write(s10));
  return w.commit();
}

}  // namespace cuzk::io
