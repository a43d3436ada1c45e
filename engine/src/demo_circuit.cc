// The demo circuit: a synthetic satisfiable circuit filling a 2^k domain,
// with an INSECURE development key (every secret derived from the seed) in
// snarkjs layout, cached as a .zkey next to the full circuit and one
// satisfying witness.
#include <filesystem>

#include "cuzk/base/log.h"
#include "cuzk/engine/circuit_source.h"
#include "cuzk/groth16/setup.h"
#include "cuzk/io/circom.h"
#include "cuzk/io/snarkjs_json.h"
#include "cuzk/io/zkey.h"
#include "cuzk/r1cs/precompiled.h"
#include "cuzk/r1cs/synthetic.h"

namespace cuzk::engine {
namespace {

std::string demo_stem(const DemoCircuitSpec& spec) {
  return "demo-k" + std::to_string(spec.lg_domain) + "-p" + std::to_string(spec.num_public_inputs) + "-z" +
         std::to_string(int(spec.zero_one_fraction * 100 + 0.5)) + "-s" + std::to_string(spec.seed);
}

r1cs::SyntheticParams synthetic_params(const DemoCircuitSpec& spec) {
  uint64_t n = uint64_t(1) << spec.lg_domain;
  uint64_t inputs = uint64_t(spec.num_public_inputs) + 1;
  r1cs::SyntheticParams p;
  p.num_constraints = n - inputs;  // with the per-input rows the domain is exactly full
  p.num_public_inputs = spec.num_public_inputs;
  p.num_aux = p.num_constraints;
  p.zero_one_fraction = spec.zero_one_fraction;
  p.seed = spec.seed;
  return p;
}

Status generate_demo(const DemoCircuitSpec& spec, const DemoFiles& files, ThreadPool* pool) {
  CUZK_LOG(Warn) << "generating the demo circuit " << demo_stem(spec) << " and its INSECURE development key "
                 << "(every secret derives from seed " << spec.seed << "; for testing only, never for real proofs)";
  ASSIGN_OR_RETURN(r1cs::SyntheticCircuit synth, r1cs::generate_synthetic(synthetic_params(spec)));
  groth16::DevSetupOptions so;
  so.layout = groth16::KeyLayout::kSnarkjs;
  so.seed = spec.seed;
  so.pool = pool;
  ASSIGN_OR_RETURN(groth16::ProvingKey pk, groth16::dev_setup(synth.circuit, so));
  ASSIGN_OR_RETURN(r1cs::Circuit ab, groth16::append_input_rows(synth.circuit, /*keep_c=*/false));
  io::ZkeyContents contents;
  contents.pk = std::move(pk);
  contents.c_rule = groth16::CRule::kProductOfAB;
  contents.ab_circuit = std::move(ab);
  contents.num_constraints = synth.circuit.num_constraints();
  // The circuit file and the witness first: the key's presence marks completion.
  RETURN_IF_ERROR(r1cs::write_precompiled(synth.circuit, files.circuit));
  RETURN_IF_ERROR(io::write_wtns(synth.witness, files.wtns));
  RETURN_IF_ERROR(io::write_vk_json(files.vk_json, contents.pk.vk));
  RETURN_IF_ERROR(io::write_zkey(files.zkey, contents, pool));
  CUZK_LOG(Info) << "demo circuit cached: " << files.zkey;
  return ok_status();
}

}  // namespace

DemoFiles demo_files(const DemoCircuitSpec& spec, const std::string& cache_dir) {
  std::string base = (std::filesystem::path(cache_dir) / demo_stem(spec)).string();
  return DemoFiles{base + ".zkey", base + ".cuzkr1cs", base + ".wtns", base + ".vk.json"};
}

StatusOr<bool> ensure_demo_files(const DemoCircuitSpec& spec, const std::string& cache_dir, ThreadPool* pool) {
  if (cache_dir.empty()) return failed_precondition("demo circuit: no cache directory configured");
  DemoFiles files = demo_files(spec, cache_dir);
  namespace fs = std::filesystem;
  if (fs::exists(files.zkey) && fs::exists(files.circuit) && fs::exists(files.wtns) && fs::exists(files.vk_json))
    return false;
  std::error_code ec;
  fs::create_directories(cache_dir, ec);
  if (ec) return failed_precondition("cannot create the cache directory " + cache_dir + ": " + ec.message());
  Status s = generate_demo(spec, files, pool);
  if (!s.ok()) return s.with_context("generating the demo circuit in " + cache_dir);
  return true;
}

}  // namespace cuzk::engine
