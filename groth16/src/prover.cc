#include "cuzk/groth16/prover.h"

#include <string>
#include <vector>

#include "cuzk/base/random.h"
#include "cuzk/ec/scalar_mul.h"
#include "cuzk/r1cs/eval.h"

namespace cuzk::groth16 {
namespace {

Fr nonzero_random(OsRng& rng) {
  for (;;) {
    Fr f = Fr::random(rng);
    if (!f.is_zero()) return f;
  }
}

// The scalars of the variables whose density bit is set, in variable order.
std::vector<Fr> gather(std::span<const Fr> w, const r1cs::Bitmap& density) {
  std::vector<Fr> out;
  out.reserve(density.popcount);
  for (size_t word = 0; word < density.words.size(); ++word) {
    uint64_t bits = density.words[word];
    while (bits) {
      int b = __builtin_ctzll(bits);
      bits &= bits - 1;
      out.push_back(w[word * 64 + size_t(b)]);
    }
  }
  return out;
}

Status check_inputs(const ProvingKey& pk, const r1cs::Circuit& circuit, std::span<const Fr> w) {
  RETURN_IF_ERROR(pk.check_shape());
  if (circuit.num_inputs() != pk.num_inputs || circuit.num_aux() != pk.num_aux)
    return failed_precondition("circuit has " + std::to_string(circuit.num_inputs()) + " inputs and " +
                               std::to_string(circuit.num_aux()) + " aux variables; the key expects " +
                               std::to_string(pk.num_inputs) + " and " + std::to_string(pk.num_aux));
  if (w.size() != pk.num_vars())
    return invalid_argument("witness has " + std::to_string(w.size()) + " values; the circuit has " +
                            std::to_string(pk.num_vars()) + " variables");
  if (w.empty() || !w[0].is_one()) return invalid_argument("witness[0] must be 1 (the constant ONE)");
  return ok_status();
}

// a, b, c over the domain: the circuit's rows, then (bellperson) one row per
// input with a = w_input, zero-padded to n.
StatusOr<RowValues> matvec(const ProvingKey& pk, const r1cs::Circuit& circuit, std::span<const Fr> w,
                      const ProveOptions& options, ThreadPool& pool) {
  uint64_t n = pk.domain_size();
  uint64_t m = circuit.num_constraints();
  uint64_t rows = m + (pk.layout == KeyLayout::kBellperson ? pk.num_inputs : 0);
  if (rows > n)
    return failed_precondition("circuit has " + std::to_string(rows) + " rows (with input rows) but the key's domain holds " +
                               std::to_string(n));
  RowValues r{std::vector<Fr>(n), std::vector<Fr>(n), std::vector<Fr>(n)};
  RETURN_IF_ERROR(r1cs::compute_abc(circuit, w, std::span<Fr>(r.a.data(), m), std::span<Fr>(r.b.data(), m),
                                    std::span<Fr>(r.c.data(), m), &pool));
  if (pk.layout == KeyLayout::kBellperson)
    for (uint64_t s = 0; s < pk.num_inputs; ++s) r.a[m + s] = w[s];
  if (options.c_rule == CRule::kProductOfAB) {
    pool.parallel_for(m, 4096, [&](size_t b, size_t e) {
      for (size_t i = b; i < e; ++i) r.c[i] = r.a[i] * r.b[i];
    });
  }
  return r;
}

struct MsmResults {
  ec::G1Jacobian h, l, a, b1;
  ec::G2Jacobian b2;
};

MsmResults run_msms(const ProvingKey& pk, std::span<const Fr> h_scalars, std::span<const Fr> w, Backend& backend) {
  MsmResults out;
  out.h = backend.msm_g1(pk.h, h_scalars.first(pk.h.size()));
  out.l = backend.msm_g1(pk.l, w.subspan(pk.num_inputs));
  std::vector<Fr> wa = gather(w, pk.a_density);
  out.a = backend.msm_g1(pk.a, wa);
  std::vector<Fr> wb = gather(w, pk.b_density);
  out.b1 = backend.msm_g1(pk.b_g1, wb);
  out.b2 = backend.msm_g2(pk.b_g2, wb);
  return out;
}

Proof assemble(const VerifyingKey& vk, const MsmResults& m, const Blinding& bl) {
  using ec::G1Jacobian;
  using ec::G2Jacobian;
  G1Jacobian a = m.a + vk.alpha_g1 + ec::mul(vk.delta_g1, bl.r);
  G2Jacobian b = m.b2 + vk.beta_g2 + ec::mul(vk.delta_g2, bl.s);
  G1Jacobian b1 = m.b1 + vk.beta_g1 + ec::mul(vk.delta_g1, bl.s);
  G1Jacobian c = m.l + m.h + ec::mul(a, bl.s) + ec::mul(b1, bl.r) - ec::mul(vk.delta_g1, bl.r * bl.s);
  return Proof{a.to_affine(), b.to_affine(), c.to_affine()};
}

}  // namespace

Blinding Blinding::random() {
  OsRng rng;
  Blinding b;
  b.r = nonzero_random(rng);
  b.s = nonzero_random(rng);
  return b;
}

StatusOr<RowValues> compute_rows(const ProvingKey& pk, const r1cs::Circuit& circuit, std::span<const Fr> witness,
                                 const ProveOptions& options) {
  ThreadPool& pool = options.pool ? *options.pool : default_thread_pool();
  RETURN_IF_ERROR(check_inputs(pk, circuit, witness));
  if (options.check_satisfied && options.c_rule == CRule::kMatrix)
    RETURN_IF_ERROR(r1cs::is_satisfied(circuit, witness, &pool));
  TraceSpan span(options.metrics, "prove.matvec");
  ASSIGN_OR_RETURN(RowValues rows, matvec(pk, circuit, witness, options, pool));
  if (options.cancelled && options.cancelled()) return cancelled("proof cancelled after the matvec stage");
  return rows;
}

StatusOr<Proof> prove_from_rows(const ProvingKey& pk, RowValues rows, std::span<const Fr> witness,
                                const Blinding& blinding, Backend& backend, const ProveOptions& options,
                                StageTimes* times) {
  uint64_t n = pk.domain_size();
  if (rows.a.size() != n || rows.b.size() != n || rows.c.size() != n)
    return invalid_argument("row values must have the domain size " + std::to_string(n));
  if (witness.size() != pk.num_vars())
    return invalid_argument("witness has " + std::to_string(witness.size()) + " values; the key expects " +
                            std::to_string(pk.num_vars()));
  StageTimes t = times ? *times : StageTimes{};
  TraceSpan h_span(options.metrics, "prove.h");
  RETURN_IF_ERROR(backend.compute_h(pk.layout, pk.lg_n, rows.a, rows.b, rows.c));
  rows.b = {};
  rows.c = {};
  t.h_s = h_span.stop();
  if (options.cancelled && options.cancelled()) return cancelled("proof cancelled after the h stage");

  TraceSpan msm_span(options.metrics, "prove.msm");
  MsmResults m = run_msms(pk, rows.a, witness, backend);
  t.msm_s = msm_span.stop();
  if (options.cancelled && options.cancelled()) return cancelled("proof cancelled after the MSM stage");

  TraceSpan asm_span(options.metrics, "prove.assembly");
  Proof proof = assemble(pk.vk, m, blinding);
  t.assembly_s = asm_span.stop();
  t.total_s = t.matvec_s + t.h_s + t.msm_s + t.assembly_s;
  if (times) *times = t;
  return proof;
}

StatusOr<Proof> prove(const ProvingKey& pk, const r1cs::Circuit& circuit, std::span<const Fr> witness,
                      const Blinding& blinding, Backend& backend, const ProveOptions& options, StageTimes* times) {
  TraceSpan total(options.metrics, "prove.total");
  TraceSpan matvec_span(nullptr, "matvec");
  ASSIGN_OR_RETURN(RowValues rows, compute_rows(pk, circuit, witness, options));
  StageTimes t;
  t.matvec_s = matvec_span.stop();
  ASSIGN_OR_RETURN(Proof proof, prove_from_rows(pk, std::move(rows), witness, blinding, backend, options, &t));
  t.total_s = total.stop();
  if (times) *times = t;
  return proof;
}

}  // namespace cuzk::groth16
