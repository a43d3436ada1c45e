// The file-based commands: prove (key files), setup, inspect (verify: cmd_verify.cc).
#include <cstdio>
#include <memory>

#include "circuit_files.h"
#include "cli_util.h"
#include "commands.h"
#include "cuzk/base/mapped_file.h"
#include "cuzk/groth16/setup.h"
#include "cuzk/io/bellperson.h"
#include "cuzk/io/inspect.h"
#include "cuzk/io/snarkjs_json.h"
#include "cuzk/io/zkey.h"
#include "prove_file.h"

namespace cuzk::app {
namespace {

struct SetupArgs {
  std::string r1cs, zkey, vkey_json, params, vk_bin;
  uint64_t seed = 0;
  bool seed_given = false;
  bool force = false;
  int threads = 0;
};

// Outputs that exist are kept unless --force: a key made by a ceremony is
// worth more than this command's output.
Status check_setup_outputs(const SetupArgs& a) {
  for (const std::string* out : {&a.zkey, &a.vkey_json, &a.params, &a.vk_bin}) {
    if (out->empty()) continue;
    if (*out == a.r1cs) return invalid_argument(*out + " is the circuit (--r1cs); nothing was written");
    auto f = MappedFile::open(*out);
    if (!f.ok()) continue;  // does not exist (or is unreadable: the write will say)
    if (a.force) continue;
    const io::FileKind kind = io::detect_file_kind(f->bytes());
    const std::string what = kind == io::FileKind::kUnknown ? "" : std::string(" (a ") + io::file_kind_name(kind) + ")";
    return already_exists(*out + " exists" + what + "; pass --force to replace it (nothing was written)");
  }
  return ok_status();
}

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
  if (Status s = check_setup_outputs(a); !s.ok()) return fail("setup", s);
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
  if ((!a.zkey.empty() || !a.vkey_json.empty()) && (!a.params.empty() || !a.vk_bin.empty()))
    std::fprintf(stderr,
                 "cuzk setup: note: the snarkjs files (--zkey, --vkey) and the bellperson files (--params, --vk) are "
                 "two different keys, even from one seed: the formats put the circuit's rows on different roots of "
                 "unity. Verify a proof made with --zkey against --vkey, and one made with --params against --vk\n");
  return kExitOk;
}

int run_inspect(const std::string& path, bool json) {
  auto text = io::inspect_file(path, json);
  if (!text.ok()) return fail("inspect", text.status(), kExitUsage, json);
  std::printf("%s", text->c_str());
  if (!text->empty() && text->back() != '\n') std::printf("\n");
  return kExitOk;
}

}  // namespace

void add_file_prove_command(CLI::App& app, Runner* runner) {
  auto a = std::make_shared<FileProveArgs>();
  auto files = std::make_shared<std::vector<std::string>>();
  auto* cmd = app.add_subcommand("prove", "Make a Groth16 proof from key files (--zkey, or --params with --r1cs)");
  cmd->add_option("files", *files, "snarkjs's order instead of the options: circuit.zkey witness.wtns [proof.json "
                                   "[public.json]]")
      ->expected(0, 4);
  cmd->add_option("--zkey", a->zkey, "snarkjs proving key (.zkey)");
  cmd->add_option("--params", a->params, "bellperson parameters (.params); needs --r1cs");
  cmd->add_option("--r1cs", a->r1cs, "circom .r1cs or cuzk precompiled circuit (with --zkey: checks the witness first)");
  cmd->add_option("--wtns", a->wtns, "circom witness (.wtns)");
  cmd->add_option("--proof", a->proof, "Output proof: *.json as snarkjs proof.json, otherwise 192 bytes (ZCash)");
  cmd->add_option("--public", a->public_json, "Output public inputs as snarkjs public.json");
  add_key_check_options(cmd, a.get());
  cmd->add_flag("--json", a->json, "Print a JSON summary on stdout");
  cmd->add_flag_callback("--verbose,-v", [a] { a->talk = FileProveArgs::Talk::kVerbose; },
                         "Also the time of each stage, and why no GPU was used");
  cmd->add_option("--threads", a->threads, "Worker threads (default: all cores)")->check(CLI::Range(0, 4096));
  add_backend_options(cmd, &a->backend);
  cmd->callback([runner, a, files] {
    if (Status s = take_positional_prove_files(*files, a.get()); !s.ok()) {
      *runner = [s, a] { return fail("prove", s, kExitUsage, a->json); };
      return;
    }
    *runner = [a] { return run_file_prove(*a); };
  });
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
  cmd->add_flag("--force", a->force, "Replace output files that exist (by default they are kept)");
  cmd->add_option("--threads", a->threads, "Worker threads (default: all cores)")->check(CLI::Range(0, 4096));
  cmd->callback([runner, a] { *runner = [a] { return run_setup(*a); }; });
}

void add_inspect_command(CLI::App& app, Runner* runner) {
  auto path = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  auto* cmd = app.add_subcommand("inspect", "Describe a file: kind, curve, counts, sizes and sections");
  cmd->add_option("file", *path,
                  "A .zkey, .r1cs, .wtns, .ptau, .params, .vk, precompiled circuit, proof or snarkjs JSON file")
      ->required();
  cmd->add_flag("--json", *json, "Print the description as JSON");
  cmd->callback([runner, path, json] { *runner = [path, json] { return run_inspect(*path, *json); }; });
}

}  // namespace cuzk::app
