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
#include "cuzk/io/key_check.h"
#include "key_loading.h"
#include "prove_file.h"

namespace cuzk::app {
namespace {

struct LoadedKey {
  groth16::ProvingKey pk;
  r1cs::Circuit circuit;  // what the prover multiplies (zkey: A/B with input rows)
  groth16::CRule c_rule = groth16::CRule::kMatrix;
};

// The command's error line on stderr, and with --json the error object on stdout.
int failed(const FileProveArgs& a, const Status& s, int code = kExitUsage) {
  return fail(a.command.c_str(), s, code, a.json);
}

KeyCheckOptions key_checks(const FileProveArgs& a) { return {.full = a.full_check, .cache_dir = a.cache_dir}; }

StatusOr<LoadedKey> load_zkey(const FileProveArgs& a, ThreadPool* pool, std::string* note) {
  ASSIGN_OR_RETURN(KeyFile file, KeyFile::open(a.zkey, key_checks(a), pool));
  ElapsedTicker ticker(file.check_points() ? "loading " + a.zkey + " (checking every point)" : "loading " + a.zkey);
  auto z = io::parse_zkey(file.bytes(), {.check_points = file.check_points(), .pool = pool});
  if (!z.ok()) return z.status().with_context(a.zkey);
  RETURN_IF_ERROR(file.loaded());
  *note = file.summary();
  LoadedKey k{std::move(z->pk), std::move(z->ab_circuit), groth16::CRule::kProductOfAB};
  return k;
}

StatusOr<LoadedKey> load_params(const FileProveArgs& a, const r1cs::Circuit& circuit, ThreadPool* pool,
                                std::string* note) {
  ASSIGN_OR_RETURN(KeyFile file, KeyFile::open(a.params, key_checks(a), pool));
  ElapsedTicker ticker(file.check_points() ? "loading " + a.params + " (checking every point)" : "loading " + a.params);
  r1cs::DensityBitmaps density = r1cs::compute_density(circuit, {.include_input_rows = true}, pool);
  auto pk = io::parse_params(file.bytes(), density, {.check_subgroup = file.check_points(), .pool = pool});
  if (!pk.ok()) return key_circuit_mismatch(pk.status(), a.params, a.r1cs);
  RETURN_IF_ERROR(file.loaded());
  *note = file.summary();
  return LoadedKey{std::move(pk).value(), circuit, groth16::CRule::kMatrix};
}

Status write_outputs(const FileProveArgs& a, const groth16::Proof& proof, std::span<const ff::Fr> publics) {
  if (!a.proof.empty()) {
    if (a.snarkjs_json || ends_with(a.proof, ".json")) {
      RETURN_IF_ERROR(io::write_proof_json(a.proof, proof));
    } else {
      RETURN_IF_ERROR(io::write_proofs(a.proof, std::span<const groth16::Proof>(&proof, 1)));
    }
  }
  if (!a.public_json.empty()) RETURN_IF_ERROR(io::write_public_json(a.public_json, publics));
  return ok_status();
}

void print_times(const FileProveArgs& a, const groth16::StageTimes& t, double load_s, double attach_s,
                 double verify_s, const std::string& key_note) {
  using Talk = FileProveArgs::Talk;
  if (a.json) {
    std::printf("%s\n", prove_summary_json(a, t, load_s, attach_s, verify_s, key_note).c_str());
    return;
  }
  if (a.talk == Talk::kQuiet) return;
  const char* cmd = a.command.c_str();
  if (!key_note.empty()) std::fprintf(stderr, "cuzk %s: %s\n", cmd, key_note.c_str());
  std::fprintf(stderr,
               "cuzk %s: load %.3f s, attach %.3f s, matvec %.3f s, stage %.3f s, h %.3f s, msm %.3f s, "
               "assembly %.3f s, prove %.3f s, verify %.3f s\n",
               cmd, load_s, attach_s, t.matvec_s, t.stage_s, t.h_s, t.msm_s, t.assembly_s, t.total_s, verify_s);
  if (a.talk != Talk::kVerbose) return;
  std::string line;
  for (const auto& [stage, ms] : t.lane.stages_ms) {
    char buf[64];
    std::snprintf(buf, sizeof buf, " %s %.1f", stage.c_str(), ms);
    line += buf;
  }
  std::fprintf(stderr, "cuzk %s: %s stages (ms):%s%s\n", cmd, t.lane.plan.c_str(), line.c_str(),
               t.lane.pageable_upload ? " (inputs were not in pinned memory: slower uploads)" : "");
}

// The proof on `backend`: the key attached, the rows computed into the
// backend's input buffers (pinned on CUDA), then the lane's stages.
StatusOr<groth16::Proof> prove_on_backend(groth16::Backend& backend, const LoadedKey& key,
                                          std::span<const ff::Fr> witness, ThreadPool* pool,
                                          FileProveArgs::Talk talk, groth16::StageTimes* times, double* attach_s) {
  TraceSpan attach(nullptr, "attach");
  // On a GPU the key takes its circuit along, so that the device makes a, b, c.
  groth16::AttachOptions ao;
  if (backend.caps().can_make_rows) ao.circuit = &key.circuit, ao.c_rule = key.c_rule;
  ASSIGN_OR_RETURN(auto attached, backend.attach(key.pk, ao));
  ASSIGN_OR_RETURN(auto lane, backend.make_lane());
  *attach_s = attach.stop();
  if (backend.caps().keeps_keys && talk == FileProveArgs::Talk::kVerbose)
    std::fprintf(stderr, "cuzk prove: key %s\n", attached->placement().c_str());
  groth16::ProveOptions po{.pool = pool, .c_rule = key.c_rule, .check_satisfied = false};
  if (attached->computes_rows())
    return groth16::prove_on_lane(attached, {{}, {}, {}, witness}, groth16::Blinding::random(), *lane, po, times);
  const uint64_t n = key.pk.domain_size();
  ASSIGN_OR_RETURN(groth16::HostBuffer a, backend.allocate_inputs(n));
  ASSIGN_OR_RETURN(groth16::HostBuffer b, backend.allocate_inputs(n));
  ASSIGN_OR_RETURN(groth16::HostBuffer c, backend.allocate_inputs(n));
  TraceSpan matvec(nullptr, "matvec");
  RETURN_IF_ERROR(groth16::compute_rows_into(key.pk, key.circuit, witness, a.span(), b.span(), c.span(), po));
  times->matvec_s = matvec.stop();
  return groth16::prove_on_lane(attached, {a.span(), b.span(), c.span(), witness}, groth16::Blinding::random(), *lane,
                                po, times);
}

}  // namespace

int run_file_prove(const FileProveArgs& a) {
  if (Status s = check_prove_inputs(a); !s.ok()) return failed(a, s);
  CommandPool command_pool(a.threads);
  ThreadPool* pool = command_pool.get();

  TraceSpan load(nullptr, "load");
  auto witness = io::read_wtns(a.wtns, pool);
  if (!witness.ok()) return failed(a, witness.status());  // read_wtns names the file
  StatusOr<r1cs::Circuit> circuit = r1cs::Circuit();
  if (!a.r1cs.empty()) {
    circuit = load_circuit_file(a.r1cs, pool);
    if (!circuit.ok()) return failed(a, circuit.status());
    // A key of another circuit is named as such before the witness is judged against the circuit.
    if (Status s = check_key_fits_circuit(a, circuit->shape()); !s.ok()) return failed(a, s);
    // Name the first violated constraint before spending time on the proof.
    if (Status s = r1cs::is_satisfied(*circuit, *witness, pool); !s.ok())
      return failed(a, s.with_context("witness " + a.wtns), kExitInvalid);
  }
  std::string key_note;
  auto key = a.zkey.empty() ? load_params(a, *circuit, pool, &key_note) : load_zkey(a, pool, &key_note);
  if (!key.ok()) return failed(a, key.status());
  if (witness->size() != key->pk.num_vars())
    return failed(a, invalid_argument(a.wtns + " has " + std::to_string(witness->size()) +
                                          " values (ONE included) but " + (a.zkey.empty() ? a.params : a.zkey) +
                                          " is a key for " + std::to_string(key->pk.num_vars()) +
                                          " variables: the witness and the key are of different circuits"));
  double load_s = load.stop();

  std::string said, why_not_gpu;
  auto backend = make_backend(a.backend, pool, &said, &why_not_gpu);
  if (!backend.ok()) return failed(a, backend.status());
  if (a.talk != FileProveArgs::Talk::kQuiet && !a.json)
    std::fprintf(stderr, "cuzk %s: %s\n", a.command.c_str(), said.c_str());
  if (a.talk == FileProveArgs::Talk::kVerbose && !why_not_gpu.empty())
    std::fprintf(stderr, "cuzk %s: (no GPU: %s)\n", a.command.c_str(), why_not_gpu.c_str());
  groth16::StageTimes times;
  double attach_s = 0;
  ElapsedTicker proving_ticker("proving (domain 2^" + std::to_string(key->pk.lg_n) + ")");
  auto proof = prove_on_backend(**backend, *key, *witness, pool, a.talk, &times, &attach_s);
  proving_ticker.stop();
  if (!proof.ok()) return failed(a, proof.status(), kExitInvalid);
  // The proof's own points, then the verification, before anything is written (io/key_check.h).
  if (Status s = io::check_proof_points(*proof); !s.ok())
    return failed(a, s.with_context("the key (" + (a.zkey.empty() ? a.params : a.zkey) +
                                        ") yields a malformed proof; nothing was written"), kExitInvalid);

  std::span<const ff::Fr> publics(witness->data() + 1, key->pk.num_inputs - 1);
  TraceSpan verify_span(nullptr, "verify");
  auto ok = groth16::verify(key->pk.vk, publics, *proof);
  double verify_s = verify_span.stop();
  if (!ok.ok()) return failed(a, ok.status(), kExitInvalid);
  if (!*ok) {
    // With --r1cs the witness was shown to satisfy the circuit, so the key is what is wrong.
    const std::string why =
        a.r1cs.empty() ? "the witness does not satisfy the circuit, or the key does not match it (pass --r1cs "
                         "to check the witness constraint by constraint)"
                       : "the witness satisfies " + a.r1cs + ", so the key (" + (a.zkey.empty() ? a.params : a.zkey) +
                             ") does not belong to this circuit or is damaged";
    return failed(a, invalid_argument("the proof does not verify: " + why + "; nothing was written"),
                kExitInvalid);
  }
  if (Status s = write_outputs(a, *proof, publics); !s.ok()) return failed(a, s);
  print_times(a, times, load_s, attach_s, verify_s, key_note);
  return kExitOk;
}

}  // namespace cuzk::app
