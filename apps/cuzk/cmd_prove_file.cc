// `cuzk prove` with key files: a snarkjs .zkey, or a bellperson .params with
// the circuit. The proof is verified before anything is written; nothing is
// written when proving or verification fails.
#include <cstdio>
#include <string>
#include <memory>

#include "circuit_files.h"
#include "cli_util.h"
#include "cuzk/base/thread_pool.h"
#include "cuzk/base/trace.h"
#include "cuzk/groth16/prover.h"
#include "cuzk/groth16/verifier.h"
#include "cuzk/io/bellperson.h"
#include "cuzk/io/circom.h"
#include "cuzk/io/snarkjs_json.h"
#include "cuzk/io/zkey.h"
#include "cuzk/r1cs/density.h"
#include "cuzk/r1cs/eval.h"
#include "prove_file.h"

namespace cuzk::app {
namespace {

struct LoadedKey {
  groth16::ProvingKey pk;
  r1cs::Circuit circuit;  // what the prover multiplies (zkey: A/B with input rows)
  groth16::CRule c_rule = groth16::CRule::kMatrix;
};

StatusOr<LoadedKey> load_zkey(const FileProveArgs& a, ThreadPool* pool) {
  ElapsedTicker ticker("loading " + a.zkey);
  auto z = io::read_zkey(a.zkey, {.check_points = !a.no_check, .pool = pool});
  if (!z.ok()) return z.status().with_context(a.zkey);
  LoadedKey k{std::move(z->pk), std::move(z->ab_circuit), groth16::CRule::kProductOfAB};
  return k;
}

StatusOr<LoadedKey> load_params(const FileProveArgs& a, const r1cs::Circuit& circuit, ThreadPool* pool) {
  ElapsedTicker ticker("loading " + a.params);
  r1cs::DensityBitmaps density = r1cs::compute_density(circuit, {.include_input_rows = true}, pool);
  auto pk = io::read_params(a.params, density, {.check_subgroup = !a.no_check, .pool = pool});
  if (!pk.ok()) return pk.status().with_context(a.params);
  return LoadedKey{std::move(pk).value(), circuit, groth16::CRule::kMatrix};
}

Status write_outputs(const FileProveArgs& a, const groth16::Proof& proof, std::span<const ff::Fr> publics) {
  if (!a.proof.empty()) {
    if (ends_with(a.proof, ".json")) {
      RETURN_IF_ERROR(io::write_proof_json(a.proof, proof));
    } else {
      RETURN_IF_ERROR(io::write_proofs(a.proof, std::span<const groth16::Proof>(&proof, 1)));
    }
  }
  if (!a.public_json.empty()) RETURN_IF_ERROR(io::write_public_json(a.public_json, publics));
  return ok_status();
}

void print_times(const groth16::StageTimes& t, double load_s, double attach_s, double verify_s) {
  std::fprintf(stderr,
               "cuzk prove: load %.3f s, attach %.3f s, matvec %.3f s, stage %.3f s, h %.3f s, msm %.3f s, "
               "assembly %.3f s, prove %.3f s, verify %.3f s\n",
               load_s, attach_s, t.matvec_s, t.stage_s, t.h_s, t.msm_s, t.assembly_s, t.total_s, verify_s);
  std::string line;
  for (const auto& [stage, ms] : t.lane.stages_ms) {
    char buf[64];
    std::snprintf(buf, sizeof buf, " %s %.1f", stage.c_str(), ms);
    line += buf;
  }
  std::fprintf(stderr, "cuzk prove: %s stages (ms):%s%s\n", t.lane.plan.c_str(), line.c_str(),
               t.lane.pageable_upload ? " (inputs were not in pinned memory: slower uploads)" : "");
}

// The proof on `backend`: the key attached, the rows computed into the
// backend's input buffers (pinned on CUDA), then the lane's stages.
StatusOr<groth16::Proof> prove_on_backend(groth16::Backend& backend, const LoadedKey& key,
                                          std::span<const ff::Fr> witness, ThreadPool* pool,
                                          groth16::StageTimes* times, double* attach_s) {
  TraceSpan attach(nullptr, "attach");
  ASSIGN_OR_RETURN(auto attached, backend.attach(key.pk));
  ASSIGN_OR_RETURN(auto lane, backend.make_lane());
  *attach_s = attach.stop();
  if (backend.name() != "cpu") std::fprintf(stderr, "cuzk prove: key %s\n", attached->placement().c_str());
  const uint64_t n = key.pk.domain_size();
  ASSIGN_OR_RETURN(groth16::HostBuffer a, backend.allocate_inputs(n));
  ASSIGN_OR_RETURN(groth16::HostBuffer b, backend.allocate_inputs(n));
  ASSIGN_OR_RETURN(groth16::HostBuffer c, backend.allocate_inputs(n));
  groth16::ProveOptions po{.pool = pool, .c_rule = key.c_rule, .check_satisfied = false};
  TraceSpan matvec(nullptr, "matvec");
  RETURN_IF_ERROR(groth16::compute_rows_into(key.pk, key.circuit, witness, a.span(), b.span(), c.span(), po));
  times->matvec_s = matvec.stop();
  return groth16::prove_on_lane(attached, {a.span(), b.span(), c.span(), witness}, groth16::Blinding::random(), *lane,
                                po, times);
}

}  // namespace

int run_file_prove(const FileProveArgs& a) {
  if (a.zkey.empty() == a.params.empty())
    return fail("prove", invalid_argument("give exactly one of --zkey or --params (or --addr/--circuit for the daemon)"));
  if (!a.params.empty() && a.r1cs.empty()) return fail("prove", invalid_argument("--params needs --r1cs"));
  CommandPool command_pool(a.threads);
  ThreadPool* pool = command_pool.get();

  TraceSpan load(nullptr, "load");
  auto witness = io::read_wtns(a.wtns, pool);
  if (!witness.ok()) return fail("prove", witness.status().with_context(a.wtns));
  StatusOr<r1cs::Circuit> circuit = r1cs::Circuit();
  if (!a.r1cs.empty()) {
    circuit = load_circuit_file(a.r1cs, pool);
    if (!circuit.ok()) return fail("prove", circuit.status());
    // Name the first violated constraint before spending time on the proof.
    if (Status s = r1cs::is_satisfied(*circuit, *witness, pool); !s.ok())
      return fail("prove", s.with_context("witness " + a.wtns), kExitInvalid);
  }
  auto key = a.zkey.empty() ? load_params(a, *circuit, pool) : load_zkey(a, pool);
  if (!key.ok()) return fail("prove", key.status());
  if (!a.zkey.empty() && !a.r1cs.empty()) {
    Status s = r1cs::check_key_shape(circuit->shape(), a.r1cs, key->pk.num_vars(), key->pk.num_inputs, a.zkey);
    if (!s.ok()) return fail("prove", s);
  }
  double load_s = load.stop();

  std::string said;
  auto backend = make_backend(a.backend, pool, &said);
  if (!backend.ok()) return fail("prove", backend.status());
  std::fprintf(stderr, "cuzk prove: backend %s\n", said.c_str());
  groth16::StageTimes times;
  double attach_s = 0;
  auto proof = prove_on_backend(**backend, *key, *witness, pool, &times, &attach_s);
  if (!proof.ok()) return fail("prove", proof.status(), kExitInvalid);

  std::span<const ff::Fr> publics(witness->data() + 1, key->pk.num_inputs - 1);
  TraceSpan verify_span(nullptr, "verify");
  auto ok = groth16::verify(key->pk.vk, publics, *proof);
  double verify_s = verify_span.stop();
  if (!ok.ok()) return fail("prove", ok.status(), kExitInvalid);
  if (!*ok) {
    // With --r1cs the witness was shown to satisfy the circuit, so the key is what is wrong.
    const std::string why =
        a.r1cs.empty() ? "the witness does not satisfy the circuit, or the key does not match it (pass --r1cs "
                         "to check the witness constraint by constraint)"
                       : "the witness satisfies " + a.r1cs + ", so the key (" + (a.zkey.empty() ? a.params : a.zkey) +
                             ") does not belong to this circuit or is damaged";
    return fail("prove", invalid_argument("the proof does not verify: " + why + "; nothing was written"),
                kExitInvalid);
  }
  if (Status s = write_outputs(a, *proof, publics); !s.ok()) return fail("prove", s);
  print_times(times, load_s, attach_s, verify_s);
  return kExitOk;
}

}  // namespace cuzk::app
