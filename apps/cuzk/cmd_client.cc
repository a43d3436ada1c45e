// Client commands of the daemon: prove (through the daemon, or --local in
// this process for comparison), status, metrics, preload, evict, cancel.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <initializer_list>
#include <sstream>

#include "cuzk/base/log.h"
#include "cuzk/commands.h"
#include "cuzk/engine/circuit_source.h"
#include "cuzk/engine/types.h"
#include "cuzk/groth16/prover.h"
#include "cuzk/groth16/verifier.h"
#include "cuzk/io/bellperson.h"
#include "cuzk/io/circom.h"
#include "cuzk/io/key_check.h"
#include "cuzk/io/snarkjs_json.h"
#include "cuzk/io/zkey.h"
#include "cuzk/r1cs/eval.h"
#include "cuzk/server/client.h"
#include "cuzk/server/config.h"
#include "daemon_client_util.h"

namespace cuzk::app {
namespace {

struct ProveArgs {
  std::string addr, circuit, priority, request_id, proof_json, public_json, proof_bin, vk, config;
  std::vector<std::string> wtns, extra_wtns;
  bool local = false, no_verify = false, json = false;
};

StatusOr<std::string> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return not_found("cannot read " + path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The verifying key in a .json (snarkjs), .zkey or bellperson .vk file.
StatusOr<groth16::VerifyingKey> read_any_vk(const std::string& path) {
  if (path.size() >= 5 && path.substr(path.size() - 5) == ".json") return io::read_vk_json(path);
  if (path.size() >= 5 && path.substr(path.size() - 5) == ".zkey") {
    io::ReadOptions ro;
    ASSIGN_OR_RETURN(io::ZkeyContents z, io::read_zkey(path, ro));
    return z.pk.vk;
  }
  return io::read_vk(path);
}

// Output options that cannot work, refused before any proving: a snarkjs
// proof.json holds one proof, so a job of several witnesses needs the binary
// form (a --proof name not ending in .json).
Status check_outputs(const ProveArgs& a) {
  if (!a.proof_json.empty() && a.wtns.size() > 1)
    return invalid_argument(a.proof_json + ": a snarkjs proof.json holds one proof and this job has " +
                            std::to_string(a.wtns.size()) +
                            " witnesses; give --proof a name not ending in .json to write all of them as "
                            "192-byte proofs, one after another");
  return ok_status();
}

// Verifies against --vk when given, then writes the outputs asked for:
// nothing is written when a proof does not verify.
int emit_outputs(const ProveArgs& a, const std::vector<groth16::Proof>& proofs, const std::vector<ff::Fr>& publics) {
  if (!a.vk.empty()) {
    auto vk = read_any_vk(a.vk);
    if (!vk.ok()) return client_fail("reading " + a.vk, vk.status());
    groth16::PreparedVerifyingKey pvk(*vk);
    size_t per = vk->num_public_inputs();
    for (size_t i = 0; i < proofs.size(); ++i) {
      if (publics.size() < (i + 1) * per)
        return client_fail("--vk", invalid_argument(a.vk + " expects " + std::to_string(per) +
                                                    " public inputs per proof; the job returned " +
                                                    std::to_string(publics.size()) + " for " +
                                                    std::to_string(proofs.size()) + " proof(s)"));
      auto ok = pvk.verify(std::span<const ff::Fr>(publics).subspan(i * per, per), proofs[i]);
      if (!ok.ok()) return client_fail("verify", ok.status());
      if (!*ok) {
        std::fprintf(stderr, "proof %zu: INVALID against %s; nothing written\n", i, a.vk.c_str());
        return 1;
      }
    }
    std::printf("verified %zu proof(s) against %s: OK\n", proofs.size(), a.vk.c_str());
  } else if (a.no_verify) {
    std::fprintf(stderr,
                 "cuzk: warning: the daemon was asked not to verify (--no-self-verify) and no --vk was given: "
                 "these proofs have not been verified\n");
  }
  if (!a.proof_bin.empty()) {
    Status s = io::write_proofs(a.proof_bin, proofs);
    if (!s.ok()) return client_fail("writing " + a.proof_bin, s);
  }
  if (!a.proof_json.empty()) {
    if (proofs.size() != 1)
      return client_fail("--proof", invalid_argument(a.proof_json + ": a snarkjs proof.json holds one proof; the job "
                                                     "returned " + std::to_string(proofs.size())));
    Status s = io::write_proof_json(a.proof_json, proofs[0]);
    if (!s.ok()) return client_fail("writing " + a.proof_json, s);
  }
  if (!a.public_json.empty()) {
    Status s = write_publics(a.public_json, proofs.size(), publics);
    if (!s.ok()) return client_fail("writing " + a.public_json, s);
  }
  return 0;
}

// The request from the arguments; the witnesses are read and checked here,
// so that a bad file is named before anything is sent.
StatusOr<server::SubmitArgs> build_request(const ProveArgs& a) {
  if (a.circuit.empty())
    return invalid_argument("--circuit ID is required: the id of a circuit registered in the daemon (`cuzk status` "
                            "lists them)");
  server::SubmitArgs s;
  s.circuit_id = a.circuit;
  s.request_id = a.request_id;
  if (!a.priority.empty() && !engine::parse_priority(a.priority, &s.priority))
    return invalid_argument("--priority: expected low, normal, high or critical");
  for (const std::string& w : a.wtns) {
    ASSIGN_OR_RETURN(std::string bytes, read_bytes(w));
    Status ok = io::parse_wtns(ByteSpan(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size())).status();
    if (!ok.ok()) return ok.with_context(w);
    s.witnesses.push_back(std::move(bytes));
  }
  if (a.no_verify) s.self_verify = false;
  return s;
}

void print_result(const ProveArgs& a, const engine::JobResult& r, double wall_ms) {
  const auto& t = r.timings;
  if (a.json) {
    std::printf("%s\n", job_result_json(r, wall_ms).c_str());
    return;
  }
  std::printf("%s: %zu proof(s), %zu public input(s)\n", r.job_id.c_str(), r.proof.size() / 192,
              r.public_inputs.size());
  std::printf("timings (ms): queue %llu, key load %llu, synthesis %llu, compute %llu, verify %llu, total %llu; "
              "client round trip %.1f\n",
              (unsigned long long)t.queue_wait_ms, (unsigned long long)t.srs_load_ms,
              (unsigned long long)t.synthesis_ms, (unsigned long long)t.compute_ms, (unsigned long long)t.verify_ms,
              (unsigned long long)t.total_ms, wall_ms);
}

int run_remote_prove(const ProveArgs& a) {
  if (Status s = check_outputs(a); !s.ok()) return client_fail("--proof", s);
  auto s = build_request(a);
  if (!s.ok()) return client_fail("prove", s.status());
  auto client = server::Client::connect(resolve_addr(a.addr), std::chrono::seconds(10));
  if (!client.ok()) return rpc_fail("connect", client.status());
  auto start = std::chrono::steady_clock::now();
  auto r = submit_and_await(**client, *s, a.json);
  double wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!r.ok()) return rpc_fail("prove", r.status());
  if (r->outcome == engine::JobOutcome::kCancelled && interrupted()) return kExitInterrupted;
  if (r->outcome != engine::JobOutcome::kCompleted) {
    if (a.json) std::printf("%s\n", job_result_json(*r, wall_ms).c_str());
    std::fprintf(stderr, "%s: %s: %s\n", r->job_id.c_str(), engine::job_outcome_name(r->outcome).data(),
                 r->error_message.c_str());
    return 1;
  }
  print_result(a, *r, wall_ms);
  auto proofs = io::parse_proofs(ByteSpan(reinterpret_cast<const uint8_t*>(r->proof.data()), r->proof.size()));
  if (!proofs.ok()) return client_fail("decoding the proof", proofs.status());
  std::vector<ff::Fr> publics;
  for (const auto& b : r->public_inputs) {
    auto x = ff::Fr::from_bytes_be(b);
    if (!x.ok()) return client_fail("decoding a public input", x.status());
    publics.push_back(*x);
  }
  return emit_outputs(a, *proofs, publics);
}

// The same circuit proved in this process: load, prove, verify — what the
// daemon path is compared against.
int run_local_prove(const ProveArgs& a) {
  if (Status s = check_outputs(a); !s.ok()) return client_fail("--proof", s);
  auto spec = find_circuit_spec(a.config, a.circuit);
  if (!spec.ok()) return client_fail("--circuit", spec.status());
  engine::SourceOptions so;
  so.cache_dir = spec->second;
  auto source = engine::make_circuit_source(spec->first, so);
  if (!source.ok()) return client_fail("circuit", source.status());
  auto t0 = std::chrono::steady_clock::now();
  auto loaded = (*source)->load(nullptr, nullptr);
  if (!loaded.ok()) return client_fail("loading the key", loaded.status());
  double load_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  auto backend = groth16::make_cpu_backend();
  std::vector<groth16::Proof> proofs;
  std::vector<ff::Fr> publics;
  for (const std::string& w : a.wtns) {
    auto t1 = std::chrono::steady_clock::now();
    auto witness = io::read_wtns(w);
    if (!witness.ok()) return client_fail("--wtns", witness.status());
    const engine::LoadedCircuit& c = **loaded;
    groth16::ProveOptions po;
    po.c_rule = c.c_rule;
    po.check_satisfied = false;
    if (c.check_circuit) {
      Status sat = r1cs::is_satisfied(*c.check_circuit, *witness);
      if (!sat.ok()) {  // a proving failure, exit 1 as on the daemon and key-file paths
        client_fail("witness " + w, sat);
        return 1;
      }
    }
    groth16::StageTimes st;
    auto proof = groth16::prove(c.pk, c.prove_circuit, *witness, groth16::Blinding::random(), *backend, po, &st);
    if (!proof.ok()) return client_fail("prove", proof.status());
    auto t2 = std::chrono::steady_clock::now();
    std::vector<ff::Fr> pub(witness->begin() + 1, witness->begin() + int64_t(c.pk.num_inputs));
    if (Status pts = io::check_proof_points(*proof); !pts.ok()) return client_fail("self-verification", pts);
    auto ok = c.pvk->verify(pub, *proof);
    if (!ok.ok() || !*ok) return client_fail("self-verification", ok.ok() ? internal_error("proof does not verify") : ok.status());
    auto t3 = std::chrono::steady_clock::now();
    std::printf("local proof: intake+check %.1f ms, matvec %.1f, h %.1f, msm %.1f, assembly %.1f, verify %.1f, "
                "total %.1f ms (key load %.1f ms, not counted)\n",
                std::chrono::duration<double, std::milli>(t2 - t1).count() - st.total_s * 1000, st.matvec_s * 1000,
                st.h_s * 1000, st.msm_s * 1000, st.assembly_s * 1000,
                std::chrono::duration<double, std::milli>(t3 - t2).count(),
                std::chrono::duration<double, std::milli>(t3 - t1).count(), load_ms);
    proofs.push_back(*proof);
    publics.insert(publics.end(), pub.begin(), pub.end());
  }
  return emit_outputs(a, proofs, publics);
}

}  // namespace

namespace {

// Options of the daemon path; shared by the standalone and the extended form.
void add_daemon_prove_options(CLI::App* cmd, ProveArgs* a) {
  cmd->add_option("--addr", a->addr, "Prove through the daemon at unix:///path or host:port");
  cmd->add_option("--circuit", a->circuit, "A registered circuit id (daemon path; `cuzk status` lists them)");
  cmd->add_option("--extra-wtns", a->extra_wtns, "More witnesses: further partitions of the same job (daemon path)");
  cmd->add_option("--vk", a->vk, "Verify the result here against this key (.json, .zkey or .vk)");
  cmd->add_option("--priority", a->priority, "low, normal, high or critical (daemon path)");
  cmd->add_option("--request-id", a->request_id, "Idempotency key (daemon path)");
  cmd->add_option("--config", a->config, "With --local: the daemon config that registers --circuit");
  cmd->add_flag("--local", a->local, "With --circuit: prove the registered circuit in this process");
  cmd->add_flag("--no-self-verify", a->no_verify, "Ask the daemon to skip its verification");
}

std::string option_value(CLI::App* cmd, const std::string& name) {
  CLI::Option* o = cmd->get_option_no_throw(name);
  return o && o->count() ? o->results().back() : std::string();
}

// The first of `names` given on the command line, or "".
std::string first_given(CLI::App* cmd, std::initializer_list<const char*> names) {
  for (const char* n : names) {
    CLI::Option* o = cmd->get_option_no_throw(n);
    if (o && o->count()) return n;
  }
  return "";
}

// Fills the file-output options of the existing `prove` command into a:
// --proof *.json is snarkjs proof.json, any other name the 192-byte proofs.
void take_file_options(CLI::App* cmd, ProveArgs* a) {
  a->wtns.insert(a->wtns.begin(), option_value(cmd, "--wtns"));
  std::string proof = option_value(cmd, "--proof");
  if (proof.size() >= 5 && proof.substr(proof.size() - 5) == ".json") a->proof_json = proof;
  else a->proof_bin = proof;
  a->public_json = option_value(cmd, "--public");
}

}  // namespace

void add_prove_client_command(CLI::App& app, Runner* runner) {
  auto a = std::make_shared<ProveArgs>();
  auto run = [a] { return a->local ? run_local_prove(*a) : run_remote_prove(*a); };
  if (!has_subcommand(app, "prove")) {
    auto* cmd = app.add_subcommand("prove", "Prove a registered circuit through the daemon (or --local)");
    add_daemon_prove_options(cmd, a.get());
    cmd->add_option("--wtns", a->wtns, "Witness file(s) (.wtns); several make a multi-partition job")->required();
    cmd->add_option("--proof", a->proof_json, "Write the proof as snarkjs proof.json");
    cmd->add_option("--public", a->public_json, "Write the public inputs as snarkjs public.json");
    cmd->add_flag("--json", a->json, "Print the result as JSON");
    cmd->callback([runner, run] { *runner = run; });
    return;
  }
  // `cuzk prove` proves from key files; --addr or --circuit turn it into the
  // daemon client. Its own callback runs first; the top-level callback, which
  // runs after every subcommand's, takes over when those options were given.
  CLI::App* cmd = app.get_subcommand("prove");
  add_daemon_prove_options(cmd, a.get());
  app.callback([cmd, a, runner, run] {
    if (!cmd->parsed()) return;
    bool daemon_path = cmd->get_option("--addr")->count() || cmd->get_option("--circuit")->count();
    // An option of the other path would be ignored silently: refuse it.
    const std::string stray =
        daemon_path ? first_given(cmd, {"--zkey", "--params", "--r1cs", "--no-check", "--full-check", "--cache-dir",
                                        "--threads", "--backend", "--vram-limit", "--placement", "--verbose", "files"})
                    : first_given(cmd, {"--extra-wtns", "--vk", "--priority", "--request-id", "--config", "--local",
                                        "--no-self-verify"});
    if (!stray.empty()) {
      const std::string why =
          daemon_path ? stray + " belongs to proving from key files; the daemon path (--addr, --circuit) uses the "
                                "circuit registered in the daemon"
                      : stray + " belongs to the daemon path: add --addr or --circuit (a proof from key files is "
                                "verified against its own key before it is written)";
      *runner = [why] { return client_fail("prove", invalid_argument(why)); };
      return;
    }
    if (!daemon_path) return;
    take_file_options(cmd, a.get());
    a->wtns.insert(a->wtns.end(), a->extra_wtns.begin(), a->extra_wtns.end());
    a->json = cmd->get_option("--json")->count() > 0;
    if (a->wtns.front().empty()) {
      *runner = [] { return client_fail("prove", invalid_argument("--wtns is required (the circom witness, .wtns)")); };
      return;
    }
    *runner = run;
  });
}

}  // namespace cuzk::app
