// Writes a seed corpus for every fuzz target, made by cuzk's own writers
// from a small synthetic circuit (keys from the INSECURE development setup):
//   make_seeds OUT_DIR CONFIG_EXAMPLE_TOML
// OUT_DIR/<target>/ gets well-formed files the target's parser accepts,
// which the fuzzer then mutates.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cuzk/engine/circuit_source.h"
#include "cuzk/groth16/setup.h"
#include "cuzk/io/bellperson.h"
#include "cuzk/io/circom.h"
#include "cuzk/io/snarkjs_json.h"
#include "cuzk/io/zkey.h"
#include "cuzk/r1cs/synthetic.h"
#include "cuzk/v1/cuzk.pb.h"

namespace {

using namespace cuzk;
namespace fs = std::filesystem;

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void put(const fs::path& dir, const std::string& name, const std::string& bytes) {
  fs::create_directories(dir);
  std::ofstream(dir / name, std::ios::binary) << bytes;
}

std::string as_string(const std::vector<uint8_t>& v) { return std::string(v.begin(), v.end()); }

Status bellperson_seeds(const r1cs::Circuit& circuit, const fs::path& out) {
  ASSIGN_OR_RETURN(groth16::ProvingKey pk, groth16::dev_setup(circuit, {.layout = groth16::KeyLayout::kBellperson, .seed = 3}));
  std::string params = (out / "params_fuzz" / "tiny.params").string();
  fs::create_directories(out / "params_fuzz");
  RETURN_IF_ERROR(io::write_params(params, pk));
  ASSIGN_OR_RETURN(std::vector<uint8_t> vk, io::serialize_vk(pk.vk));
  put(out / "vk_fuzz", "tiny.vk", as_string(vk));
  groth16::Proof proof{ec::g1_generator(), ec::g2_generator(), ec::g1_generator()};
  std::array<uint8_t, io::kProofBytes> one = io::serialize_proof(proof);
  put(out / "proof_fuzz", "one.bin", std::string(one.begin(), one.end()));
  put(out / "proof_fuzz", "two.bin", std::string(one.begin(), one.end()) + std::string(one.begin(), one.end()));
  put(out / "snarkjs_json_fuzz", "proof.json", io::proof_to_json(proof));
  put(out / "snarkjs_json_fuzz", "vk.json", io::vk_to_json(pk.vk));
  return ok_status();
}

Status demo_seeds(const fs::path& out) {
  engine::DemoCircuitSpec spec;
  spec.lg_domain = 3;
  spec.num_public_inputs = 2;
  std::string cache = (out / "cache").string();
  RETURN_IF_ERROR(engine::ensure_demo_files(spec, cache, nullptr).status());
  engine::DemoFiles f = engine::demo_files(spec, cache);
  put(out / "zkey_fuzz", "demo.zkey", read_all(f.zkey));
  put(out / "precompiled_fuzz", "demo.cuzkr1cs", read_all(f.circuit));
  const std::string wtns = read_all(f.wtns);
  put(out / "wtns_fuzz", "demo.wtns", wtns);
  put(out / "snarkjs_json_fuzz", "demo.vk.json", read_all(f.vk_json));
  ASSIGN_OR_RETURN(std::vector<ff::Fr> w, io::read_wtns(f.wtns));
  put(out / "snarkjs_json_fuzz", "public.json", io::public_inputs_to_json(std::span<const ff::Fr>(w).subspan(1, 2)));
  v1::SubmitProofRequest req;
  req.set_request_id("seed-1");
  req.set_proof_kind(v1::GROTH16_CIRCUIT);
  req.set_priority(v1::HIGH);
  req.set_circuit_id("demo");
  req.set_witness(wtns);
  req.add_witnesses(wtns);
  put(out / "request_fuzz", "demo.pb", req.SerializeAsString());
  fs::remove_all(cache);
  return ok_status();
}

Status make_all(const fs::path& out, const std::string& config_example) {
  r1cs::SyntheticParams p;
  p.num_constraints = 6;
  p.num_public_inputs = 2;
  p.num_aux = 6;
  p.seed = 5;
  ASSIGN_OR_RETURN(r1cs::SyntheticCircuit synth, r1cs::generate_synthetic(p));
  fs::create_directories(out / "r1cs_fuzz");
  RETURN_IF_ERROR(io::write_circom_r1cs(synth.circuit, (out / "r1cs_fuzz" / "tiny.r1cs").string()));
  RETURN_IF_ERROR(bellperson_seeds(synth.circuit, out));
  RETURN_IF_ERROR(demo_seeds(out));
  put(out / "config_fuzz", "example.toml", read_all(config_example));
  put(out / "config_fuzz", "small.toml",
      "[server]\nlisten = \"127.0.0.1:0\"\n[memory]\ntotal_budget = \"1GiB\"\n[[circuits]]\nid = \"c\"\nzkey = \"/k.zkey\"\n");
  return ok_status();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: make_seeds OUT_DIR CONFIG_EXAMPLE_TOML\n");
    return 2;
  }
  Status s = make_all(argv[1], argv[2]);
  if (!s.ok()) {
    std::fprintf(stderr, "make_seeds: %s\n", s.to_string().c_str());
    return 1;
  }
  return 0;
}
