// The Groth16 prover, in named stages (rapidsnark-style, top to bottom):
//   matvec:   a = A·w, b = B·w, c = C·w (or a∘b), plus the per-input rows
//   h, msm:   on a backend's lane (backend.h): the H-query scalars from a, b,
//             c, then H·h, L·aux, A·w_A, B1·w_B (G1) and B2·w_B (G2)
//   assembly: A = α + A_m + rδ, B = β + B2_m + sδ,
//             C = L_m + H_m + s·A + r·B1 − rs·δ  with B1 = β1 + B1_m + sδ1
#pragma once

#include <functional>
#include <span>
#include <vector>

#include "cuzk/base/status.h"
#include "cuzk/base/thread_pool.h"
#include "cuzk/base/trace.h"
#include "cuzk/groth16/backend.h"
#include "cuzk/groth16/keys.h"
#include "cuzk/r1cs/circuit.h"

namespace cuzk::groth16 {

// The blinding factors r and s. Production code draws them from the OS
// CSPRNG (random()); tests inject fixed values.
struct Blinding {
  Fr r, s;
  static Blinding random();
};

struct ProveOptions {
  ThreadPool* pool = nullptr;           // default_thread_pool() when null
  MetricsRegistry* metrics = nullptr;   // stage spans go here when set
  CRule c_rule = CRule::kMatrix;
  // Check A·w ∘ B·w = C·w row by row before proving, naming the first
  // violated constraint (only meaningful with CRule::kMatrix).
  bool check_satisfied = true;
  // Polled between stages; when it returns true the prover stops at the next
  // stage boundary with CANCELLED. Must be thread-safe. Empty: never.
  std::function<bool()> cancelled;
};

struct StageTimes {
  double matvec_s = 0, h_s = 0, msm_s = 0, assembly_s = 0, total_s = 0;
  double stage_s = 0;  // Lane::stage (host side of the uploads)
  LaneTimes lane;      // the lane's own stage times
};

// The row values a = A·w, b = B·w, c = C·w (or a∘b), with the per-input rows
// for bellperson keys, zero-padded to the domain size: the output of the
// matvec stage and the input of everything after it. Engines compute these on
// preparation workers and hand them to prover workers.
struct RowValues {
  std::vector<Fr> a, b, c;
};

// The matvec stage alone (after the checks prove() makes).
StatusOr<RowValues> compute_rows(const ProvingKey& pk, const r1cs::Circuit& circuit, std::span<const Fr> witness,
                                 const ProveOptions& options = {});

// The matvec stage into caller-owned buffers (e.g. pinned HostBuffers of a
// backend), each of the domain size; they are fully overwritten.
Status compute_rows_into(const ProvingKey& pk, const r1cs::Circuit& circuit, std::span<const Fr> witness,
                         std::span<Fr> a, std::span<Fr> b, std::span<Fr> c, const ProveOptions& options = {});

// The stages after matvec on a lane: stage, run (H and the MSMs), assembly.
// `in` is clobbered (backend.h). REQUIRES: in from compute_rows(_into) for
// the same key, circuit and witness.
// With `in` carrying no rows (the key computes them) times->matvec_s is the
// lane's own matvec time, part of its run.
StatusOr<Proof> prove_on_lane(std::shared_ptr<const AttachedKey> key, const ProofInputs& in, const Blinding& blinding,
                              Lane& lane, const ProveOptions& options = {}, StageTimes* times = nullptr);

// A + the blinding: the assembly stage alone (host). Exposed for tests.
Proof assemble(const VerifyingKey& vk, const MsmSums& sums, const Blinding& blinding);

// The stages after matvec: h, MSMs, assembly, on a key attached to `backend`
// for this call and a lane made for it (one-shot use; a long-lived caller
// attaches once and keeps lanes: prove_on_lane). Consumes rows.
// REQUIRES: rows from compute_rows for the same key, circuit and witness.
StatusOr<Proof> prove_from_rows(const ProvingKey& pk, RowValues rows, std::span<const Fr> witness,
                                const Blinding& blinding, Backend& backend, const ProveOptions& options = {},
                                StageTimes* times = nullptr);

// Proves that `witness` (1, public inputs, aux; num_vars values) satisfies
// `circuit` under `pk`. For kBellperson keys the circuit holds only the
// circuit's own rows (the per-input rows are added here); for kSnarkjs keys
// it is the key's A/B rows, which already include them.
// Errors: INVALID_ARGUMENT for size mismatches or an unsatisfied witness
// (message names the constraint), FAILED_PRECONDITION when the key and the
// circuit disagree.
StatusOr<Proof> prove(const ProvingKey& pk, const r1cs::Circuit& circuit, std::span<const Fr> witness,
                      const Blinding& blinding, Backend& backend, const ProveOptions& options = {},
                      StageTimes* times = nullptr);

}  // namespace cuzk::groth16
