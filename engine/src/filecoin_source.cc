#include "filecoin_source.h"

#include <filesystem>
#include <functional>

#include "cuzk/base/file_lock.h"
#include "cuzk/base/log.h"
#include "cuzk/groth16/setup.h"
#include "cuzk/io/bellperson.h"
#include "cuzk/r1cs/density.h"
#include "cuzk/r1cs/precompiled.h"

namespace cuzk::engine {
namespace {

namespace fs = std::filesystem;
using filecoin::snark::FilecoinCircuit;

int lg_of(uint64_t n) {
  int lg = 0;
  while ((uint64_t(1) << lg) < n) ++lg;
  return lg;
}

uint64_t file_size_or_zero(const std::string& path) {
  std::error_code ec;
  auto n = fs::file_size(path, ec);
  return ec ? 0 : uint64_t(n);
}

// The counts a bellperson key of this shape has, from the file's header
// alone (A and B need the density: checked at load by io::parse_params).
Status check_params_layout(const io::ParamsLayout& l, const r1cs::CircuitShape& shape, const std::string& path,
                           const std::string& name) {
  const uint64_t n = uint64_t(1) << lg_of(shape.num_constraints + shape.num_inputs);
  auto mismatch = [&](const char* what, uint64_t got, uint64_t want) {
    return invalid_argument(path + " is not a key of " + name + ": " + what + " has " + std::to_string(got) +
                            " points, the synthesized circuit needs " + std::to_string(want));
  };
  if (l.ic_len != shape.num_inputs) return mismatch("IC (one per input, ONE included)", l.ic_len, shape.num_inputs);
  if (uint64_t(l.h.count) + 1 != n) return mismatch("H (domain − 1)", l.h.count, n - 1);
  if (l.l.count != shape.num_aux) return mismatch("L (one per aux variable)", l.l.count, shape.num_aux);
  return ok_status();
}

// The parameter file's header against the circuit; returns the file's size.
StatusOr<uint64_t> check_params_file(const std::string& path, const r1cs::CircuitShape& shape,
                                     const std::string& name) {
  ASSIGN_OR_RETURN(MappedFile f, MappedFile::open(path));
  ASSIGN_OR_RETURN(io::ParamsLayout layout, io::scan_params(f.bytes()));
  RETURN_IF_ERROR(check_params_layout(layout, shape, path, name));
  return uint64_t(f.size());
}

using StepFn = std::function<Status(const std::string&)>;

// Makes the cache file `path` with `make` unless it is there, holding
// `<path>.lock` meanwhile: processes sharing a cache directory (daemons, or
// tests run in parallel on one test cache) make each file once, and the
// others wait for it and find it made.
Status make_once(const std::string& path, const std::function<Status()>& make) {
  if (fs::exists(path)) return ok_status();
  ASSIGN_OR_RETURN(FileLock lock, FileLock::acquire(path + ".lock"));
  if (fs::exists(path)) return ok_status();
  return make();
}

Status ensure_circuit_file(const FilecoinCircuit& circuit, const std::string& path, const StepFn& step = nullptr) {
  if (fs::exists(path)) return ok_status();
  if (step) {
    RETURN_IF_ERROR(step("synthesizing the " + circuit.name() + " circuit's rows into " + path + " (once)"));
  }
  return make_once(path, [&] {
    CUZK_LOG(Info) << circuit.name() << ": synthesizing the circuit's rows into " << path << " (once)";
    return filecoin::snark::write_precompiled_circuit(circuit, path);
  });
}

// The circuit's rows from its cache file. The file is derived (synthesized
// from the circuit's definition, nothing else): one that does not load (a
// damaged or truncated file) or holds other rows is synthesized again rather
// than failing every job of the circuit.
StatusOr<r1cs::Circuit> load_rows(const FilecoinCircuit& circuit, const r1cs::CircuitShape& shape,
                                  const std::string& path, ThreadPool* pool) {
  RETURN_IF_ERROR(ensure_circuit_file(circuit, path));
  r1cs::LoadOptions lo;
  lo.pool = pool;
  StatusOr<r1cs::Circuit> rows = r1cs::load_precompiled(path, lo);
  if (rows.ok() && rows->shape() == shape) return rows;
  CUZK_LOG(Warn) << path << ": " << (rows.ok() ? "holds the rows of another circuit" : rows.status().message())
                 << "; the file is derived from " << circuit.name() << ": synthesizing it again";
  std::error_code ec;
  fs::remove(path, ec);
  RETURN_IF_ERROR(ensure_circuit_file(circuit, path));
  rows = r1cs::load_precompiled(path, lo);
  if (rows.ok() && rows->shape() != shape)
    return internal_error(path + " was synthesized again and still does not hold the rows of " + circuit.name());
  return rows;
}

Status make_dev_key(const FilecoinCircuit& circuit, const r1cs::CircuitShape& shape, const FilecoinFiles& files,
                    uint64_t seed, ThreadPool* pool) {
  CUZK_LOG(Warn) << circuit.name() << ": generating an INSECURE development key (seed " << seed << ") into "
                 << files.dev_params << "; anyone who knows the seed can forge proofs: for testing only";
  ASSIGN_OR_RETURN(r1cs::Circuit rows, load_rows(circuit, shape, files.circuit, pool));
  groth16::DevSetupOptions so;
  so.layout = groth16::KeyLayout::kBellperson;
  so.seed = seed;
  so.pool = pool;
  ASSIGN_OR_RETURN(groth16::ProvingKey pk, groth16::dev_setup(rows, so));
  return io::write_params(files.dev_params, pk, pool);
}

Status ensure_dev_key(const FilecoinCircuit& circuit, const r1cs::CircuitShape& shape, const FilecoinFiles& files,
                      uint64_t seed, ThreadPool* pool, const StepFn& step) {
  if (fs::exists(files.dev_params)) return ok_status();
  if (step) RETURN_IF_ERROR(step("generating an INSECURE development key into " + files.dev_params + " (once)"));
  return make_once(files.dev_params, [&] { return make_dev_key(circuit, shape, files, seed, pool); });
}

class FilecoinSource : public CircuitSource {
 public:
  FilecoinSource(std::string id, FilecoinCircuit circuit, r1cs::CircuitShape shape, std::string key,
                 std::string circuit_file, SourceOptions options)
      : id_(std::move(id)),
        circuit_(std::move(circuit)),
        shape_(shape),
        key_(std::move(key)),
        circuit_file_(std::move(circuit_file)),
        options_(std::move(options)) {}

  const std::string& id() const override { return id_; }
  std::string key_path() const override { return key_; }

  StatusOr<CircuitInfo> describe() override {
    auto info = describe_impl();
    if (!info.ok()) return failed_precondition("circuit \"" + id_ + "\": " + info.status().message());
    return info;
  }

  StatusOr<std::shared_ptr<const LoadedCircuit>> load(const MappedFile* mapped,
                                                      const std::function<void(double)>& progress) override {
    auto loaded = load_impl(mapped, progress);
    if (!loaded.ok()) return failed_precondition("circuit \"" + id_ + "\": " + loaded.status().message());
    return loaded;
  }

 private:
  StatusOr<CircuitInfo> describe_impl() {
    ASSIGN_OR_RETURN(const uint64_t key_bytes, check_params_file(key_, shape_, circuit_.name()));
    CircuitInfo info;
    info.num_vars = shape_.num_vars();
    info.num_public = shape_.num_inputs - 1;
    info.lg_n = lg_of(shape_.num_constraints + shape_.num_inputs);
    info.key_file_bytes = key_bytes;
    info.est_key_bytes = key_bytes + file_size_or_zero(circuit_file_);
    return info;
  }

  StatusOr<std::shared_ptr<const LoadedCircuit>> load_impl(const MappedFile* mapped,
                                                           const std::function<void(double)>& progress) {
    if (progress) progress(0.02);
    ASSIGN_OR_RETURN(r1cs::Circuit rows, load_rows(circuit_, shape_, circuit_file_, options_.pool));
    if (progress) progress(0.15);
    const r1cs::DensityBitmaps density = r1cs::compute_density(rows, {}, options_.pool);
    io::ParamsReadOptions ro;
    ro.check_subgroup = options_.check_points;
    ro.pool = options_.pool;
    StatusOr<groth16::ProvingKey> pk = mapped ? io::parse_params(mapped->bytes(), density, ro)
                                              : io::read_params(key_, density, ro);
    if (!pk.ok()) return pk.status().with_context(key_ + " against the synthesized " + circuit_.name());
    if (progress) progress(0.9);
    auto out = std::make_shared<LoadedCircuit>();
    out->pk = std::move(*pk);
    out->prove_circuit = rows;
    out->c_rule = groth16::CRule::kMatrix;
    out->check_circuit = std::move(rows);  // a view: the storage is shared
    out->pvk = std::make_shared<groth16::PreparedVerifyingKey>(out->pk.vk);
    if (progress) progress(1.0);
    return std::shared_ptr<const LoadedCircuit>(std::move(out));
  }

  std::string id_;
  FilecoinCircuit circuit_;
  r1cs::CircuitShape shape_;
  std::string key_, circuit_file_;
  SourceOptions options_;
};

Status make_checked(const CircuitSpec& spec, const SourceOptions& options, FilecoinCircuit* circuit,
                    r1cs::CircuitShape* shape, FilecoinFiles* files) {
  if (options.cache_dir.empty()) {
    return failed_precondition("a filecoin circuit keeps its synthesized rows in the cache directory "
                               "(cache_dir); none is configured");
  }
  ASSIGN_OR_RETURN(filecoin::snark::CircuitKind kind, filecoin::snark::parse_circuit_kind(spec.filecoin.kind));
  ASSIGN_OR_RETURN(*circuit, FilecoinCircuit::create(kind, spec.filecoin.sector_size));
  ASSIGN_OR_RETURN(*shape, filecoin::snark::circuit_shape(*circuit));
  *files = filecoin_files(*circuit, spec.filecoin, options.cache_dir);
  return ok_status();
}

// The cache's files the circuit needs: its rows (minutes and gigabytes for a
// 32 GiB PoRep) and a development key, each written once. A parameter file is
// checked first, so that a missing or wrong one is reported before anything
// is written.
Status prepare_files(const CircuitSpec& spec, const SourceOptions& options, const FilecoinCircuit& circuit,
                     const r1cs::CircuitShape& shape, const FilecoinFiles& files) {
  if (!spec.filecoin.dev_key) {
    if (options.on_step)
      RETURN_IF_ERROR(options.on_step("checking " + spec.params + " against the " + circuit.name() + " circuit"));
    RETURN_IF_ERROR(check_params_file(spec.params, shape, circuit.name()).status());
  }
  std::error_code ec;
  fs::create_directories(options.cache_dir, ec);
  if (ec) return failed_precondition("cannot create the cache directory " + options.cache_dir + ": " + ec.message());
  RETURN_IF_ERROR(ensure_circuit_file(circuit, files.circuit, options.on_step));
  if (spec.filecoin.dev_key)
    RETURN_IF_ERROR(ensure_dev_key(circuit, shape, files, spec.filecoin.dev_seed, options.pool, options.on_step));
  return ok_status();
}

}  // namespace

FilecoinFiles filecoin_files(const FilecoinCircuit& circuit, const FilecoinCircuitSpec& spec,
                             const std::string& cache_dir) {
  const std::string base = (fs::path(cache_dir) / circuit.name()).string();
  return FilecoinFiles{base + ".cuzkr1cs", base + "-dev" + std::to_string(spec.dev_seed) + ".params"};
}

StatusOr<std::unique_ptr<CircuitSource>> make_filecoin_source(const CircuitSpec& spec, const SourceOptions& options) {
  FilecoinCircuit circuit;
  r1cs::CircuitShape shape;
  FilecoinFiles files;
  Status s = make_checked(spec, options, &circuit, &shape, &files);
  if (!s.ok()) return failed_precondition("circuit \"" + spec.id + "\": " + s.message());
  std::string key = spec.filecoin.dev_key ? files.dev_params : spec.params;
  SourceOptions o = options;
  if (spec.filecoin.dev_key) o.check_points = false;  // our own freshly written file
  if (!options.check_only) {
    s = prepare_files(spec, options, circuit, shape, files);
    if (!s.ok()) return failed_precondition("circuit \"" + spec.id + "\": " + s.message());
  }
  auto source = std::make_unique<FilecoinSource>(spec.id, std::move(circuit), shape, std::move(key), files.circuit, o);
  return std::unique_ptr<CircuitSource>(std::move(source));
}

}  // namespace cuzk::engine
