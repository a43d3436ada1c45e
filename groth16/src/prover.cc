#include "cuzk/groth16/prover.h"

#include <algorithm>
#include <string>
#include <vector>

#include "cuzk/base/random.h"
#include "cuzk/ec/scalar_mul.h"
#include "cuzk/groth16/lane_util.h"
#include "cuzk/r1cs/eval.h"

namespace cuzk::groth16 {
namespace {

Fr nonzero_random(OsRng& rng) {
  for (;;) {
    Fr f = Fr::random(rng);
    if (!f.is_zero()) return f;
  }
}

Status check_inputs(const ProvingKey& pk, const r1cs::Circuit& circuit, std::span<const Fr> w) {
  RETURN_IF_ERROR(pk.check_shape());
  RETURN_IF_ERROR(check_circuit_of(pk, circuit));
  if (w.size() != pk.num_vars())
    return invalid_argument("witness has " + std::to_string(w.size()) + " values; the circuit has " +
                            std::to_string(pk.num_vars()) + " variables");
  if (w.empty() || !w[0].is_one()) return invalid_argument("witness[0] must be 1 (the constant ONE)");
  return ok_status();
}

// a, b, c over the domain: the circuit's rows, then (bellperson) one row per
// input with a = w_input, zero-padded to n.
Status matvec(const ProvingKey& pk, const r1cs::Circuit& circuit, std::span<const Fr> w, const ProveOptions& options,
              ThreadPool& pool, std::span<Fr> a, std::span<Fr> b, std::span<Fr> c) {
  uint64_t n = pk.domain_size();
  uint64_t m = circuit.num_constraints();
  if (a.size() != n || b.size() != n || c.size() != n)
    return invalid_argument("row buffers must have the domain size " + std::to_string(n));
  RETURN_IF_ERROR(r1cs::compute_abc(circuit, w, a.first(m), b.first(m), c.first(m), &pool));
  pool.parallel_for(n - m, 1 << 16, [&](size_t lo, size_t hi) {
    for (size_t i = m + lo; i < m + hi; ++i) a[i] = b[i] = c[i] = Fr::zero();
  });
  if (pk.layout == KeyLayout::kBellperson)
    for (uint64_t s = 0; s < pk.num_inputs; ++s) a[m + s] = w[s];
  if (options.c_rule == CRule::kProductOfAB) {
    pool.parallel_for(m, 4096, [&](size_t lo, size_t hi) {
      for (size_t i = lo; i < hi; ++i) c[i] = a[i] * b[i];
    });
  }
  return ok_status();
}

}  // namespace

Status check_circuit_of(const ProvingKey& pk, const r1cs::Circuit& circuit) {
  if (circuit.num_inputs() != pk.num_inputs || circuit.num_aux() != pk.num_aux)
    return failed_precondition("circuit has " + std::to_string(circuit.num_inputs()) + " inputs and " +
                               std::to_string(circuit.num_aux()) + " aux variables; the key expects " +
                               std::to_string(pk.num_inputs) + " and " + std::to_string(pk.num_aux));
  const uint64_t rows = circuit.num_constraints() + (pk.layout == KeyLayout::kBellperson ? pk.num_inputs : 0);
  if (rows > pk.domain_size())
    return failed_precondition("circuit has " + std::to_string(rows) +
                               " rows (with input rows) but the key's domain holds " +
                               std::to_string(pk.domain_size()));
  return ok_status();
}

// A = α + A_m + r·δ,  B = β + B2_m + s·δ,  B1 = β1 + B1_m + s·δ1,
// C = L_m + H_m + s·A + r·B1 − r·s·δ1.
Proof assemble(const VerifyingKey& vk, const MsmSums& m, const Blinding& bl) {
  using ec::G1Jacobian;
  using ec::G2Jacobian;
  G1Jacobian a = m.a + vk.alpha_g1 + ec::mul(vk.delta_g1, bl.r);
  G2Jacobian b = m.b2 + vk.beta_g2 + ec::mul(vk.delta_g2, bl.s);
  G1Jacobian b1 = m.b1 + vk.beta_g1 + ec::mul(vk.delta_g1, bl.s);
  G1Jacobian c = m.l + m.h + ec::mul(a, bl.s) + ec::mul(b1, bl.r) - ec::mul(vk.delta_g1, bl.r * bl.s);
  return Proof{a.to_affine(), b.to_affine(), c.to_affine()};
}

Blinding Blinding::random() {
  OsRng rng;
  Blinding b;
  b.r = nonzero_random(rng);
  b.s = nonzero_random(rng);
  return b;
}

Status compute_rows_into(const ProvingKey& pk, const r1cs::Circuit& circuit, std::span<const Fr> witness,
                         std::span<Fr> a, std::span<Fr> b, std::span<Fr> c, const ProveOptions& options) {
  ThreadPool& pool = options.pool ? *options.pool : default_thread_pool();
  RETURN_IF_ERROR(check_inputs(pk, circuit, witness));
  if (options.check_satisfied && options.c_rule == CRule::kMatrix)
    RETURN_IF_ERROR(r1cs::is_satisfied(circuit, witness, &pool));
  TraceSpan span(options.metrics, "prove.matvec");
  RETURN_IF_ERROR(matvec(pk, circuit, witness, options, pool, a, b, c));
  if (options.cancelled && options.cancelled()) return cancelled("proof cancelled after the matvec stage");
  return ok_status();
}

StatusOr<RowValues> compute_rows(const ProvingKey& pk, const r1cs::Circuit& circuit, std::span<const Fr> witness,
                                 const ProveOptions& options) {
  RETURN_IF_ERROR(pk.check_shape());
  const uint64_t n = pk.domain_size();
  RowValues r{std::vector<Fr>(n), std::vector<Fr>(n), std::vector<Fr>(n)};
  RETURN_IF_ERROR(compute_rows_into(pk, circuit, witness, r.a, r.b, r.c, options));
  return r;
}

StatusOr<Proof> prove_on_lane(std::shared_ptr<const AttachedKey> key, const ProofInputs& in, const Blinding& blinding,
                              Lane& lane, const ProveOptions& options, StageTimes* times) {
  const ProvingKey& pk = key->pk();
  RETURN_IF_ERROR(groth16::check_inputs(pk, in, key->computes_rows()));
  StageTimes t = times ? *times : StageTimes{};
  TraceSpan stage_span(options.metrics, "prove.stage");
  RETURN_IF_ERROR(lane.stage(std::move(key), in));
  t.stage_s = stage_span.stop();
  if (options.cancelled && options.cancelled()) return cancelled("proof cancelled before the device stages");
  TraceSpan run_span(options.metrics, "prove.device");
  ASSIGN_OR_RETURN(MsmSums sums, lane.run());
  const double run_s = run_span.stop();
  t.lane = lane.times();
  // Rows made by the lane: the matvec is part of its run, timed there.
  if (!in.rows_given()) t.matvec_s = t.lane.get("matvec") / 1000;
  t.h_s = t.lane.get("h") / 1000;
  t.msm_s = std::max(0.0, run_s - t.h_s);
  if (options.cancelled && options.cancelled()) return cancelled("proof cancelled after the device stages (H and the MSMs)");
  TraceSpan asm_span(options.metrics, "prove.assembly");
  Proof proof = assemble(pk.vk, sums, blinding);
  t.assembly_s = asm_span.stop();
  t.total_s = (in.rows_given() ? t.matvec_s : 0) + t.stage_s + run_s + t.assembly_s;
  if (times) *times = t;
  return proof;
}

StatusOr<Proof> prove_from_rows(const ProvingKey& pk, RowValues rows, std::span<const Fr> witness,
                                const Blinding& blinding, Backend& backend, const ProveOptions& options,
                                StageTimes* times) {
  ASSIGN_OR_RETURN(std::shared_ptr<const AttachedKey> key, backend.attach(pk));
  ASSIGN_OR_RETURN(std::unique_ptr<Lane> lane, backend.make_lane());
  ProofInputs in{rows.a, rows.b, rows.c, witness};
  return prove_on_lane(std::move(key), in, blinding, *lane, options, times);
}

StatusOr<Proof> prove(const ProvingKey& pk, const r1cs::Circuit& circuit, std::span<const Fr> witness,
                      const Blinding& blinding, Backend& backend, const ProveOptions& options, StageTimes* times) {
  TraceSpan total(options.metrics, "prove.total");
  RETURN_IF_ERROR(check_inputs(pk, circuit, witness));
  AttachOptions ao;
  ao.circuit = &circuit;
  ao.c_rule = options.c_rule;
  ASSIGN_OR_RETURN(std::shared_ptr<const AttachedKey> key, backend.attach(pk, ao));
  ASSIGN_OR_RETURN(std::unique_ptr<Lane> lane, backend.make_lane());
  StageTimes t;
  RowValues rows;
  ProofInputs in{{}, {}, {}, witness};
  if (key->computes_rows()) {
    // The lane makes a, b, c (on its device) and checks the rows there; the
    // stage boundary the host matvec would end is polled here.
    in.check_rows = options.check_satisfied && options.c_rule == CRule::kMatrix;
    if (options.cancelled && options.cancelled()) return cancelled("proof cancelled before the matvec stage");
  } else {
    TraceSpan matvec_span(nullptr, "matvec");
    ASSIGN_OR_RETURN(rows, compute_rows(pk, circuit, witness, options));
    t.matvec_s = matvec_span.stop();
    in = ProofInputs{rows.a, rows.b, rows.c, witness};
  }
  ASSIGN_OR_RETURN(Proof proof, prove_on_lane(std::move(key), in, blinding, *lane, options, &t));
  t.total_s = total.stop();
  if (times) *times = t;
  return proof;
}

}  // namespace cuzk::groth16
