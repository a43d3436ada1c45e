// `cuzk filecoin circuit | setup | bench-synth`: the Filecoin circuits cuzk
// synthesizes (filecoin/cs).
//   circuit      the shape of one circuit (and, with --count, its non-zeros
//                and density; with --memory, the host memory and the GPU plan
//                its key needs; with --write-r1cs, its rows as a precompiled file)
//   setup        an INSECURE development key for it, in the bellperson layout
//                (.params and .vk), for testing only
//   bench-synth  witness generation (and, with --record, R1CS recording) time,
//                memory and rates for one partition, as a JSON line
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <memory>

#include "cli_util.h"
#include "commands.h"
#include "cuzk/filecoin/cs/circuits.h"
#include "cuzk/groth16/setup.h"
#include "cuzk/io/bellperson.h"
#include "cuzk/r1cs/precompiled.h"
#include "filecoin_cli.h"
#include "cuzk/ec/curves.h"
#ifdef CUZK_HAVE_CUDA_PROVER
#include "cuzk/groth16/cuda/cuda_setup.h"
#include "cuzk/groth16/cuda/device_plan.h"
#endif

namespace cuzk::app {
namespace {

namespace snark = cuzk::filecoin::snark;

struct CircuitArgs {
  std::string kind, sector_size = "2KiB";
};

StatusOr<snark::FilecoinCircuit> circuit_of(const CircuitArgs& a) {
  ASSIGN_OR_RETURN(snark::CircuitKind kind, snark::parse_circuit_kind(a.kind));
  ASSIGN_OR_RETURN(uint64_t bytes, parse_sector_size(a.sector_size));
  return snark::FilecoinCircuit::create(kind, bytes);
}

void add_circuit_options(CLI::App* cmd, CircuitArgs* a) {
  cmd->add_option("--kind", a->kind, "porep, winning-post, window-post or snap-deals")->required();
  cmd->add_option("--sector-size", a->sector_size, "2KiB, 8MiB, 512MiB, 32GiB, 64GiB, ... (default 2KiB)");
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

uint64_t peak_rss_bytes() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return uint64_t(u.ru_maxrss) * 1024;
}

// ---- circuit ----

struct ShapeArgs {
  CircuitArgs c;
  bool count = false;
  bool memory = false;
  uint32_t workers = 2, preparation_workers = 2;
  std::string write_r1cs;
};

std::string gib(uint64_t bytes) {
  char b[32];
  if (bytes < (uint64_t(1) << 30))
    std::snprintf(b, sizeof b, "%.1f MiB", double(bytes) / double(uint64_t(1) << 20));
  else
    std::snprintf(b, sizeof b, "%.1f GiB", double(bytes) / double(uint64_t(1) << 30));
  return b;
}

// What the key takes (host memory, and each GPU size's plan): from its counts
// (filecoin/cs/circuits.h) and the partition's reservation (docs/daemon.md,
// Memory: on a GPU the witness and its pinned copy, and a, b, c unless the
// GPU keeps the rows).
void print_memory(const std::string& name, const snark::ProvingKeyCounts& m, const ShapeArgs& a) {
  const uint64_t g1 = sizeof(ec::G1Affine), g2 = sizeof(ec::G2Affine);
  const uint64_t h = m.n_h * g1, l = m.m_l * g1, ka = m.m_a * g1, b1 = m.m_b * g1, b2 = m.m_b * g2;
  const uint64_t key = h + l + ka + b1 + b2;
  const uint64_t witness = 2 * 32 * m.num_vars, abc = 3 * 32 * (uint64_t(1) << m.lg_n);
  const uint64_t window = uint64_t(a.preparation_workers) + a.workers + 1;
  std::printf("\n%s: domain 2^%d, %lu variables (%lu inputs); A touches %lu, B %lu\n", name.c_str(), m.lg_n,
              m.num_vars, m.num_inputs, m.m_a, m.m_b);
  std::printf("host memory:\n");
  std::printf("  proving key's points  %s (H %s, L %s, A %s, B1 %s, B2 %s): held while the key is HOT;\n"
              "                        pinned for the whole run where a GPU streams it\n",
              gib(key).c_str(), gib(h).c_str(), gib(l).c_str(), gib(ka).c_str(), gib(b1).c_str(), gib(b2).c_str());
  std::printf("  circuit's rows        ≈ %s (the .cuzkr1cs file, mapped)\n", gib(m.rows_bytes).c_str());
  std::printf("  a partition in flight %s (witness and its pinned copy %s, a, b, c %s: none where the GPU\n"
              "                        keeps the rows)\n",
              gib(witness + abc).c_str(), gib(witness).c_str(), gib(abc).c_str());
  std::printf("  at most %lu partitions hold inputs at once (preparation_workers %u + workers %u + 1); the key,\n"
              "  its rows and that many partitions: %s where the GPUs keep the rows (a resident key),\n"
              "  %s where the host makes a, b, c (a streamed key, or the CPU); a smaller\n"
              "  memory.total_budget runs fewer partitions at once\n",
              window, a.preparation_workers, a.workers, gib(key + m.rows_bytes + window * witness).c_str(),
              gib(key + m.rows_bytes + window * (witness + abc)).c_str());
#ifdef CUZK_HAVE_CUDA_PROVER
  namespace gc = cuzk::groth16::cuda;
  gc::KeyCounts k;
  k.lg_n = m.lg_n;
  k.n_h = m.n_h;
  k.num_vars = m.num_vars;
  k.num_inputs = m.num_inputs;
  k.m_l = m.m_l;
  k.m_a = m.m_a;
  k.m_b = m.m_b;
  k.circuit_bytes = m.rows_bytes;
  std::printf("GPU memory, %u workers a device (the CUDA backend's plan from the card's memory alone, this key\n"
              "alone on it; set [pipeline] vram_limit to plan for less):\n",
              a.workers);
  for (const gc::OperatorCard& c : gc::kOperatorCards) {
    const gc::DevicePlan p = gc::plan_device(gc::device_budget_bytes(c.mib << 20, 0), k, a.workers);
    std::printf("  %-18s %s\n", c.name, p.summary().c_str());
  }
#else
  std::printf("GPU memory: this build has no CUDA backend (cuzk version says which it has)\n");
#endif
}

int run_circuit(const ShapeArgs& a) {
  auto circuit = circuit_of(a.c);
  if (!circuit.ok()) return fail("filecoin circuit", circuit.status());
  auto shape = snark::circuit_shape(*circuit);
  if (!shape.ok()) return fail("filecoin circuit", shape.status());
  std::printf("%s: %lu rows (+%lu input rows), %lu inputs (ONE included), %lu aux\n", circuit->name().c_str(),
              shape->num_constraints, shape->num_inputs, shape->num_inputs, shape->num_aux);
  if (a.count || a.memory) {
    auto t = std::chrono::steady_clock::now();
    auto facts = snark::circuit_facts(*circuit);
    if (!facts.ok()) return fail("filecoin circuit", facts.status());
    const snark::CircuitCounts& c = facts->counts;
    std::printf("non-zeros (input rows included) A %lu, B %lu, C %lu; density A-aux %lu, B-input %lu, B-aux %lu "
                "(counted in %.1f s)\n",
                c.nonzeros[0] + c.num_inputs, c.nonzeros[1], c.nonzeros[2], facts->density.a_aux.popcount,
                facts->density.b_input.popcount, facts->density.b_aux.popcount, seconds_since(t));
    if (a.memory) print_memory(circuit->name(), snark::proving_key_counts(*facts), a);
  }
  if (!a.write_r1cs.empty()) {
    auto t = std::chrono::steady_clock::now();
    Status s = snark::write_precompiled_circuit(*circuit, a.write_r1cs);
    if (!s.ok()) return fail("filecoin circuit", s);
    std::printf("wrote %s in %.1f s\n", a.write_r1cs.c_str(), seconds_since(t));
  }
  return kExitOk;
}

void add_circuit(CLI::App& fil, Runner* runner) {
  auto a = std::make_shared<ShapeArgs>();
  auto* cmd = fil.add_subcommand("circuit", "Shape of a Filecoin circuit as cuzk synthesizes it");
  add_circuit_options(cmd, &a->c);
  cmd->add_flag("--count", a->count, "Also count non-zeros and density (seconds to a minute at 32 GiB)");
  cmd->add_flag("--memory", a->memory,
                "Also say what its proving key and partitions take: host memory, and the GPU plan on the cards "
                "operators own (implies --count)");
  cmd->add_option("--workers", a->workers, "With --memory: pipeline.workers_per_device (default 2)")
      ->check(CLI::Range(1, 64));
  cmd->add_option("--preparation-workers", a->preparation_workers,
                  "With --memory: pipeline.preparation_workers (default 2)")
      ->check(CLI::Range(1, 256));
  cmd->add_option("--write-r1cs", a->write_r1cs, "Write the blank circuit's rows as a cuzk precompiled file");
  cmd->callback([runner, a] { *runner = [a] { return run_circuit(*a); }; });
}

// ---- setup ----

struct SetupArgs {
  CircuitArgs c;
  std::string params, vk, r1cs;
  uint64_t seed = 0;
  int threads = 0;
  int device = -1;  // fixed-base multiplications on this CUDA device
};

Status run_setup_impl(const SetupArgs& a, ThreadPool* pool) {
  ASSIGN_OR_RETURN(snark::FilecoinCircuit circuit, circuit_of(a.c));
  r1cs::Circuit rows;
  if (!a.r1cs.empty()) {
    RETURN_IF_ERROR(snark::write_precompiled_circuit(circuit, a.r1cs));
    r1cs::LoadOptions lo;
    lo.pool = pool;
    ASSIGN_OR_RETURN(rows, r1cs::load_precompiled(a.r1cs, lo));
  } else {
    ASSIGN_OR_RETURN(rows, snark::build_circuit(circuit));
  }
  std::fprintf(stderr, "cuzk filecoin setup: an INSECURE development key for %s (seed %lu): for testing only\n",
               circuit.name().c_str(), a.seed);
  Progress progress("setup");
  groth16::DevSetupOptions so;
  so.layout = groth16::KeyLayout::kBellperson;
  so.seed = a.seed;
  so.pool = pool;
  so.progress = [&progress](double f) { progress.update(f); };
  if (a.device >= 0) {
#ifdef CUZK_HAVE_CUDA_PROVER
    RETURN_IF_ERROR(groth16::cuda::use_device_fixed_base(&so, a.device, pool));
#else
    return invalid_argument("--device: this build has no CUDA backend");
#endif
  }
  ASSIGN_OR_RETURN(groth16::ProvingKey pk, groth16::dev_setup(rows, so));
  progress.done();
  RETURN_IF_ERROR(io::write_params(a.params, pk, pool));
  if (!a.vk.empty()) RETURN_IF_ERROR(io::write_vk(a.vk, pk.vk));
  return ok_status();
}

void add_setup(CLI::App& fil, Runner* runner) {
  auto a = std::make_shared<SetupArgs>();
  auto* cmd = fil.add_subcommand("setup", "An INSECURE development key for a Filecoin circuit (bellperson layout)");
  add_circuit_options(cmd, &a->c);
  cmd->add_option("--params", a->params, "Output .params file")->required();
  cmd->add_option("--vk", a->vk, "Output .vk file");
  cmd->add_option("--r1cs", a->r1cs, "Also write the circuit's rows here (precompiled) and set up from them");
  cmd->add_option("--dev-seed", a->seed, "Seed every secret is derived from (anyone who knows it can forge proofs)")
      ->required();
  cmd->add_option("--threads", a->threads, "Worker threads (default: all cores)");
  cmd->add_option("--device", a->device, "Run the fixed-base multiplications on this CUDA device (CUDA builds)");
  cmd->callback([runner, a] {
    *runner = [a] {
      CommandPool pool(a->threads);
      Status s = run_setup_impl(*a, pool.get());
      return s.ok() ? kExitOk : fail("filecoin setup", s);
    };
  });
}

// ---- bench-synth ----

struct BenchArgs {
  CircuitArgs c;
  bool record = false;
  int threads = 0;
};

int run_bench(const BenchArgs& a) {
  auto circuit = circuit_of(a.c);
  if (!circuit.ok()) return fail("filecoin bench-synth", circuit.status());
  auto shape = snark::circuit_shape(*circuit);
  if (!shape.ok()) return fail("filecoin bench-synth", shape.status());
  CommandPool pool(a.threads);
  const snark::PartitionInputs inputs = circuit->blank();
  auto t = std::chrono::steady_clock::now();
  auto w = snark::generate_witness(*circuit, inputs, a.threads == 1 ? nullptr : pool.get(), &*shape);
  const double witness_s = seconds_since(t);
  if (!w.ok()) return fail("filecoin bench-synth", w.status());
  w = std::vector<ff::Fr>();
  double record_s = 0;
  if (a.record) {
    t = std::chrono::steady_clock::now();
    auto facts = snark::circuit_facts(*circuit);
    record_s = seconds_since(t);
    if (!facts.ok()) return fail("filecoin bench-synth", facts.status());
  }
  const unsigned threads = a.threads == 1 ? 1 : pool.get()->size() + 1;
  std::printf("{\"circuit\":\"%s\",\"rows\":%lu,\"aux\":%lu,\"threads\":%u,\"witness_s\":%.3f,"
              "\"witness_rows_per_s\":%.0f,\"record_s\":%.3f,\"peak_rss_bytes\":%lu}\n",
              circuit->name().c_str(), shape->num_constraints, shape->num_aux, threads, witness_s,
              double(shape->num_constraints) / witness_s, record_s, peak_rss_bytes());
  return kExitOk;
}

void add_bench(CLI::App& fil, Runner* runner) {
  auto a = std::make_shared<BenchArgs>();
  auto* cmd = fil.add_subcommand("bench-synth", "Time witness generation (and R1CS recording) of one partition");
  add_circuit_options(cmd, &a->c);
  cmd->add_flag("--record", a->record, "Also time a counting synthesis (every row built and merged)");
  cmd->add_option("--threads", a->threads, "Threads for the circuit's sections (1: one thread; default all cores)");
  cmd->callback([runner, a] { *runner = [a] { return run_bench(*a); }; });
}

}  // namespace

void add_filecoin_circuit_commands(CLI::App& filecoin, Runner* runner) {
  add_circuit(filecoin, runner);
  add_setup(filecoin, runner);
  add_bench(filecoin, runner);
}

}  // namespace cuzk::app
