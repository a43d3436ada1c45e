// The file-based commands: prove (key files), verify, setup, inspect.
#include <cstdio>
#include <memory>

#include "circuit_files.h"
#include "cli_util.h"
#include "commands.h"
#include "cuzk/groth16/setup.h"
#include "cuzk/groth16/verifier.h"
#include "cuzk/io/bellperson.h"
#include "cuzk/io/inspect.h"
#include "cuzk/io/snarkjs_json.h"
#include "cuzk/io/zkey.h"
#include "prove_file.h"

namespace cuzk::app {
namespace {

struct VerifyArgs {
  std::string vkey_json, vk_bin, public_json, proof;
};

StatusOr<groth16::Proof> read_one_proof(const std::string& path) {
  if (ends_with(path, ".json")) return io::read_proof_json(path);
  ASSIGN_OR_RETURN(std::vector<groth16::Proof> proofs, io::read_proofs(path));
  if (proofs.size() != 1)
    return invalid_argument(path + " holds " + std::to_string(proofs.size()) + " proofs; verify takes one");
  return proofs[0];
}

int run_verify(const VerifyArgs& a) {
  if (a.vkey_json.empty() == a.vk_bin.empty())
    return fail("verify", invalid_argument("give exactly one of --vkey (snarkjs JSON) or --vk (bellperson .vk)"));
  auto vk = a.vk_bin.empty() ? io::read_vk_json(a.vkey_json) : io::read_vk(a.vk_bin);
  if (!vk.ok()) return fail("verify", vk.status().with_context(a.vk_bin.empty() ? a.vkey_json : a.vk_bin));
  std::vector<ff::Fr> publics;
  if (!a.public_json.empty()) {
    auto p = io::read_public_json(a.public_json);
    if (!p.ok()) return fail("verify", p.status().with_context(a.public_json));
    publics = std::move(p).value();
  }
  auto proof = read_one_proof(a.proof);
  if (!proof.ok()) return fail("verify", proof.status().with_context(a.proof));
  auto ok = groth16::verify(*vk, publics, *proof);
  if (!ok.ok()) return fail("verify", ok.status());
  if (!*ok) {
    std::printf("INVALID: the proof does not verify against this key and these public inputs\n");
    return kExitInvalid;
  }
  std::printf("OK: the proof is valid\n");
  return kExitOk;
}

struct SetupArgs {
  std::string r1cs, zkey, vkey_json, params, vk_bin;
  uint64_t seed = 0;
  bool seed_given = false;
  int threads = 0;
};

Status setup_zkey(const SetupArgs& a, const r1cs::Circuit& circuit, ThreadPool* pool) {
  Progress progress("setup (snarkjs layout)");
  ASSIGN_OR_RETURN(groth16::ProvingKey pk,
                   groth16::dev_setup(circuit, {.layout = groth16::KeyLayout::kSnarkjs, .seed = a.seed, .pool = pool,
                                                .progress = [&](double f) { progress.update(f); }}));
  progress.done();
  if (!a.vkey_json.empty()) RETURN_IF_ERROR(io::write_vk_json(a.vkey_json, pk.vk));
  if (a.zkey.empty()) return ok_status();
  io::ZkeyContents z;
  ASSIGN_OR_RETURN(z.ab_circuit, groth16::append_input_rows(circuit, /*keep_c=*/false));
  z.pk = std::move(pk);
  z.num_constraints = circuit.num_constraints();
  return io::write_zkey(a.zkey, z, pool);
}

Status setup_params(const SetupArgs& a, const r1cs::Circuit& circuit, ThreadPool* pool) {
  Progress progress("setup (bellperson layout)");
  ASSIGN_OR_RETURN(groth16::ProvingKey pk,
                   groth16::dev_setup(circuit, {.layout = groth16::KeyLayout::kBellperson, .seed = a.seed,
                                                .pool = pool, .progress = [&](double f) { progress.update(f); }}));
  progress.done();
  if (!a.vk_bin.empty()) RETURN_IF_ERROR(io::write_vk(a.vk_bin, pk.vk));
  if (!a.params.empty()) RETURN_IF_ERROR(io::write_params(a.params, pk, pool));
  return ok_status();
}

int run_setup(const SetupArgs& a) {
  if (!a.seed_given)
    return fail("setup", invalid_argument("--dev-seed N is required: this is an INSECURE development setup"));
  if (a.zkey.empty() && a.vkey_json.empty() && a.params.empty() && a.vk_bin.empty())
    return fail("setup", invalid_argument("nothing to write: give --zkey, --vkey, --params or --vk"));
  std::fprintf(stderr,
               "cuzk setup: WARNING: insecure development setup, for testing only — anyone who knows the seed "
               "can forge proofs\n");
  CommandPool command_pool(a.threads);
  ThreadPool* pool = command_pool.get();
  auto circuit = load_circuit_file(a.r1cs, pool);
  if (!circuit.ok()) return fail("setup", circuit.status());
  if (!a.zkey.empty() || !a.vkey_json.empty())
    if (Status s = setup_zkey(a, *circuit, pool); !s.ok()) return fail("setup", s);
  if (!a.params.empty() || !a.vk_bin.empty())
    if (Status s = setup_params(a, *circuit, pool); !s.ok()) return fail("setup", s);
  return kExitOk;
}

int run_inspect(const std::string& path) {
  auto text = io::inspect_file(path);
  if (!text.ok()) return fail("inspect", text.status().with_context(path));
  std::printf("%s", text->c_str());
  if (!text->empty() && text->back() != '\n') std::printf("\n");
  return kExitOk;
}

}  // namespace

void add_file_prove_command(CLI::App& app, Runner* runner) {
  auto a = std::make_shared<FileProveArgs>();
  auto* cmd = app.add_subcommand("prove", "Make a Groth16 proof from key files (--zkey, or --params with --r1cs)");
  cmd->add_option("--zkey", a->zkey, "snarkjs proving key (.zkey)");
  cmd->add_option("--params", a->params, "bellperson parameters (.params); needs --r1cs");
  cmd->add_option("--r1cs", a->r1cs, "circom .r1cs or cuzk precompiled circuit (with --zkey: checks the witness first)");
  cmd->add_option("--wtns", a->wtns, "circom witness (.wtns)")->required();
  cmd->add_option("--proof", a->proof, "Output proof: *.json as snarkjs proof.json, otherwise 192 bytes (ZCash)");
  cmd->add_option("--public", a->public_json, "Output public inputs as snarkjs public.json");
  cmd->add_flag("--no-check", a->no_check, "Skip subgroup checks of key points (trusted files only)");
  cmd->add_option("--threads", a->threads, "Worker threads (default: all cores)")->check(CLI::Range(0, 4096));
  add_backend_options(cmd, &a->backend);
  cmd->callback([runner, a] { *runner = [a] { return run_file_prove(*a); }; });
}

void add_verify_command(CLI::App& app, Runner* runner) {
  auto a = std::make_shared<VerifyArgs>();
  auto* cmd = app.add_subcommand("verify", "Verify a Groth16 proof: exit 0 valid, 1 invalid, 2 usage or input error");
  cmd->add_option("--vkey", a->vkey_json, "snarkjs verification_key.json");
  cmd->add_option("--vk", a->vk_bin, "bellperson verifying key (.vk)");
  cmd->add_option("--public", a->public_json, "snarkjs public.json (omit when there are no public inputs)");
  cmd->add_option("--proof", a->proof, "proof.json, or a 192-byte proof file")->required();
  cmd->callback([runner, a] { *runner = [a] { return run_verify(*a); }; });
}

void add_setup_command(CLI::App& app, Runner* runner) {
  auto a = std::make_shared<SetupArgs>();
  auto* cmd = app.add_subcommand("setup", "INSECURE development setup from a seed (for testing): write keys for a circuit");
  cmd->add_option("--r1cs", a->r1cs, "circom .r1cs or cuzk precompiled circuit")->required();
  cmd->add_option("--zkey", a->zkey, "Output snarkjs proving key (.zkey)");
  cmd->add_option("--vkey", a->vkey_json, "Output snarkjs verification_key.json (of the .zkey)");
  cmd->add_option("--params", a->params, "Output bellperson parameters (.params)");
  cmd->add_option("--vk", a->vk_bin, "Output bellperson verifying key (.vk, of the .params)");
  cmd->add_option("--dev-seed", a->seed, "Seed of the toxic waste (required; makes the setup insecure)")
      ->each([a](const std::string&) { a->seed_given = true; });
  cmd->add_option("--threads", a->threads, "Worker threads (default: all cores)")->check(CLI::Range(0, 4096));
  cmd->callback([runner, a] { *runner = [a] { return run_setup(*a); }; });
}

void add_inspect_command(CLI::App& app, Runner* runner) {
  auto path = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("inspect", "Describe a file: kind, curve, counts, sizes and sections");
  cmd->add_option("file", *path, "A .zkey, .r1cs, .wtns, .params, .vk, proof or snarkjs JSON file")->required();
  cmd->callback([runner, path] { *runner = [path] { return run_inspect(*path); }; });
}

}  // namespace cuzk::app
