// Bench circuits (config.h, BenchCircuitSpec): the PoRep-shaped synthetic
// circuit, its development key and one witness, built in memory when the key
// is first needed. Nothing is written to disk (the 2^27 key is ~47 GB).
#include "bench_source.h"

#include <chrono>

#include "cuzk/base/log.h"
#include "cuzk/groth16/setup.h"
#include "cuzk/r1cs/synthetic.h"
#ifdef CUZK_ENGINE_CUDA
#include "cuzk/gpu/device.h"
#include "cuzk/groth16/cuda/cuda_setup.h"
#endif

namespace cuzk::engine {
namespace {

class BenchSource : public CircuitSource {
 public:
  BenchSource(std::string id, BenchCircuitSpec spec, SourceOptions options)
      : id_(std::move(id)), spec_(spec), options_(std::move(options)) {}

  const std::string& id() const override { return id_; }
  std::string key_path() const override { return ""; }

  StatusOr<CircuitInfo> describe() override {
    if (spec_.prebuilt) {
      const groth16::ProvingKey& pk = spec_.prebuilt->pk;
      CircuitInfo info;
      info.num_vars = pk.num_vars();
      info.num_public = pk.num_inputs - 1;
      info.lg_n = pk.lg_n;
      info.est_key_bytes = spec_.prebuilt->host_bytes();
      info.generates_witness = true;
      return info;
    }
    const r1cs::PorepShape s = r1cs::porep_shape(spec_.lg);
    CircuitInfo info;
    info.num_vars = s.num_inputs + s.num_aux;
    info.num_public = s.num_inputs - 1;
    info.lg_n = spec_.lg;
    info.key_file_bytes = 0;
    const uint64_t n = uint64_t(1) << spec_.lg;
    // Points (H, L, A, B1 in G1 at 96 bytes, B2 in G2 at 192), the rows
    // (≈ 5.4 terms of 12 bytes per row) and the witness.
    info.est_key_bytes = 96 * (n + s.num_aux + s.num_inputs + s.a_aux + s.b_aux + 1) + 192 * (s.b_aux + 1) +
                         s.rows * 66 + 32 * info.num_vars;
    info.generates_witness = true;
    return info;
  }

  StatusOr<std::shared_ptr<const LoadedCircuit>> load(const MappedFile*,
                                                      const std::function<void(double)>& progress) override {
    if (spec_.prebuilt) return spec_.prebuilt;
    auto t0 = std::chrono::steady_clock::now();
    if (progress) progress(0.01);
    CUZK_LOG(Warn) << "circuit \"" << id_ << "\": building the PoRep-shaped bench circuit of domain 2^" << spec_.lg
                   << " and an INSECURE development key for it (benchmarks only)";
    ASSIGN_OR_RETURN(r1cs::SyntheticCircuit sc, r1cs::generate_porep_shaped(spec_.lg, spec_.seed, options_.pool));
    if (progress) progress(0.1);
    CUZK_LOG(Info) << "circuit \"" << id_ << "\": bench circuit and witness made in "
                   << std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() << " s";
    groth16::DevSetupOptions o;
    o.layout = groth16::KeyLayout::kBellperson;
    o.seed = spec_.seed;
    o.pool = options_.pool;
#ifdef CUZK_ENGINE_CUDA
    if (gpu::device_available()) {
      Status dev = groth16::cuda::use_device_fixed_base(&o, 0, options_.pool);
      if (!dev.ok()) {
        CUZK_LOG(Info) << "bench key on the CPU: " << dev.message();
      }
    }
#endif
    ASSIGN_OR_RETURN(groth16::ProvingKey pk, groth16::dev_setup(sc.circuit, o));
    auto out = std::make_shared<LoadedCircuit>();
    out->pk = std::move(pk);
    out->prove_circuit = std::move(sc.circuit);
    out->c_rule = groth16::CRule::kMatrix;
    out->pvk = std::make_shared<groth16::PreparedVerifyingKey>(out->pk.vk);
    out->bench_witness = std::move(sc.witness);
    if (progress) progress(1.0);
    CUZK_LOG(Info) << "circuit \"" << id_ << "\": bench circuit and key ready in "
                   << std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() << " s";
    return std::shared_ptr<const LoadedCircuit>(std::move(out));
  }

 private:
  std::string id_;
  BenchCircuitSpec spec_;
  SourceOptions options_;
};

}  // namespace

StatusOr<std::unique_ptr<CircuitSource>> make_bench_source(const CircuitSpec& spec, const SourceOptions& options) {
  return std::unique_ptr<CircuitSource>(std::make_unique<BenchSource>(spec.id, spec.bench, options));
}

}  // namespace cuzk::engine
