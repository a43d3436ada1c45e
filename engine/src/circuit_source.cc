// CircuitSource implementations: snarkjs .zkey, bellperson .params + circuit,
// and the generated demo circuit (a cached .zkey plus its full circuit).
#include "cuzk/engine/circuit_source.h"

#include "bench_source.h"
#include "filecoin_source.h"

#include <cstring>
#include <filesystem>
#include <optional>

#include "cuzk/base/log.h"
#include "cuzk/io/bellperson.h"
#include "cuzk/io/circom.h"
#include "cuzk/io/key_check.h"
#include "cuzk/io/zkey.h"
#include "cuzk/r1cs/density.h"
#include "cuzk/r1cs/precompiled.h"

namespace cuzk::engine {

uint64_t LoadedCircuit::host_bytes() const {
  uint64_t b = pk.point_bytes() + prove_circuit.storage_bytes() + bench_witness.size() * sizeof(ff::Fr);
  b += (pk.a_density.words.size() + pk.b_density.words.size()) * 8;
  if (check_circuit && check_circuit->terms().data() != prove_circuit.terms().data())
    b += check_circuit->storage_bytes();
  return b;
}

Status LoadedCircuit::check_files() const {
  for (const auto& f : files) RETURN_IF_ERROR(f->check_intact());
  return ok_status();
}

namespace {

int lg_of(uint64_t n) {
  int lg = 0;
  while ((uint64_t(1) << lg) < n) ++lg;
  return lg;
}

uint64_t file_size_or_zero(const std::string& path) {
  std::error_code ec;
  auto n = std::filesystem::file_size(path, ec);
  return ec ? 0 : uint64_t(n);
}

Status precondition(const std::string& id, const Status& s) {
  return failed_precondition("circuit \"" + id + "\": " + s.message());
}

// A circuit file: cuzk precompiled (magic CUZKR1CS), used in place (its
// mapping joins `files`), or circom .r1cs, decoded into memory.
StatusOr<r1cs::Circuit> read_circuit_file(Env* env, const std::string& path, ThreadPool* pool,
                                          std::vector<std::shared_ptr<const MappedFile>>* files) {
  ASSIGN_OR_RETURN(MappedFile f, env->map_file(path));
  if (f.size() >= 8 && std::memcmp(f.data(), r1cs::kPrecompiledMagic, 8) == 0) {
    auto mapped = std::make_shared<const MappedFile>(std::move(f));
    r1cs::LoadOptions lo;
    lo.pool = pool;
    auto circuit = r1cs::load_precompiled(mapped, lo);
    RETURN_IF_ERROR(mapped->check_intact());
    files->push_back(std::move(mapped));
    return circuit;
  }
  auto circuit = io::parse_circom_r1cs(f.bytes());
  RETURN_IF_ERROR(f.check_intact());
  if (!circuit.ok()) return circuit.status().with_context(path);
  return circuit;
}

StatusOr<r1cs::CircuitShape> read_circuit_shape(Env* env, const std::string& path) {
  ASSIGN_OR_RETURN(MappedFile f, env->map_file(path));
  if (f.size() >= 8 && std::memcmp(f.data(), r1cs::kPrecompiledMagic, 8) == 0) {
    ASSIGN_OR_RETURN(r1cs::PrecompiledHeader h, r1cs::parse_precompiled_header(f.bytes(), f.size()));
    return h.shape;
  }
  ASSIGN_OR_RETURN(io::CircomR1csHeader h, io::parse_circom_r1cs_header(f.bytes()));
  r1cs::CircuitShape shape;
  shape.num_inputs = 1 + h.num_public();
  shape.num_aux = h.n_wires - shape.num_inputs;
  shape.num_constraints = h.n_constraints;
  return shape;
}

// A circuit whose key lives in files: errors of describe() and load() become
// FAILED_PRECONDITION naming the circuit.
class KeyFileSource : public CircuitSource {
 public:
  KeyFileSource(std::string id, SourceOptions options) : id_(std::move(id)), options_(std::move(options)) {
    if (!options_.env) options_.env = Env::posix();
  }
  const std::string& id() const override { return id_; }

  StatusOr<CircuitInfo> describe() override {
    auto info = describe_impl();
    if (!info.ok()) return precondition(id_, info.status());
    return info;
  }

  StatusOr<std::shared_ptr<const LoadedCircuit>> load(const MappedFile* mapped,
                                                      const std::function<void(double)>& progress) override {
    auto loaded = load_impl(mapped, progress);
    if (!loaded.ok()) return precondition(id_, loaded.status());
    return loaded;
  }

 protected:
  virtual StatusOr<CircuitInfo> describe_impl() = 0;
  virtual StatusOr<std::shared_ptr<const LoadedCircuit>> load_impl(const MappedFile* mapped,
                                                                   const std::function<void(double)>& progress) = 0;

  // Whether this load runs the subgroup checks on every point: when asked
  // for (keys.check_points), unless the record of checked keys in the cache
  // directory holds this content (io/key_check.h). When they run, *digest
  // receives what remember() records once the load has succeeded.
  bool full_checks(ByteSpan bytes, std::optional<io::Sha256Digest>* digest) const {
    if (!options_.check_points) return false;
    if (options_.cache_dir.empty()) return true;
    const io::Sha256Digest d = io::key_content_digest(bytes, options_.pool);
    if (checked_keys().contains(d)) return false;
    *digest = d;
    return true;
  }
  void remember(const std::optional<io::Sha256Digest>& digest, const std::string& path) const {
    if (!digest) return;
    Status s = checked_keys().remember(*digest, path);
    if (!s.ok()) {
      CUZK_LOG(Warn) << "circuit \"" << id_ << "\": cannot record the checked key: " << s.message();
    }
  }
  io::CheckedKeyRecord checked_keys() const { return io::CheckedKeyRecord(options_.cache_dir + "/checked-keys"); }

  std::string id_;
  SourceOptions options_;
};

class ZkeySource : public KeyFileSource {
 public:
  ZkeySource(std::string id, std::string zkey, std::string check_r1cs, SourceOptions options)
      : KeyFileSource(std::move(id), std::move(options)), zkey_(std::move(zkey)), check_(std::move(check_r1cs)) {}

  std::string key_path() const override { return zkey_; }

 private:
  StatusOr<CircuitInfo> describe_impl() override {
    ASSIGN_OR_RETURN(MappedFile f, options_.env->map_file(zkey_));
    // The readers name the byte; the path is added here (a header cut short
    // while the file is still being written or downloaded).
    StatusOr<io::Iden3Container> c = io::parse_iden3_container(f.bytes(), "zkey");
    if (!c.ok()) return c.status().with_context(zkey_);
    StatusOr<io::ZkeyHeader> header = io::parse_zkey_header(f.bytes(), *c);
    if (!header.ok()) return header.status().with_context(zkey_);
    const io::ZkeyHeader& h = *header;
    CircuitInfo info;
    info.num_vars = h.num_vars;
    info.num_public = h.num_public;
    info.lg_n = lg_of(h.domain_size);
    info.key_file_bytes = f.size();
    info.est_key_bytes = f.size();  // decoded points and rows take no more than the file
    if (!check_.empty()) {
      ASSIGN_OR_RETURN(r1cs::CircuitShape shape, read_circuit_shape(options_.env, check_));
      RETURN_IF_ERROR(r1cs::check_key_shape(shape, "check_r1cs " + check_, info.num_vars, info.num_public + 1, zkey_));
      info.est_key_bytes += file_size_or_zero(check_);
    }
    return info;
  }

  StatusOr<std::shared_ptr<const LoadedCircuit>> load_impl(const MappedFile* mapped,
                                                           const std::function<void(double)>& progress) override {
    MappedFile own;
    if (mapped == nullptr) {
      ASSIGN_OR_RETURN(own, MappedFile::open(zkey_));
      own.advise_sequential();
      mapped = &own;
    }
    std::optional<io::Sha256Digest> digest;
    io::ReadOptions ro;
    ro.check_points = full_checks(mapped->bytes(), &digest);
    ro.pool = options_.pool;
    if (progress) progress(0.05);
    StatusOr<io::ZkeyContents> z = io::parse_zkey(mapped->bytes(), ro);
    RETURN_IF_ERROR(mapped->check_intact());  // a file that shrank while read: nothing built from it counts
    if (!z.ok()) return z.status().with_context(zkey_);
    remember(digest, zkey_);
    if (progress) progress(0.8);
    auto out = std::make_shared<LoadedCircuit>();
    out->pk = std::move(z->pk);
    out->prove_circuit = std::move(z->ab_circuit);
    out->c_rule = z->c_rule;
    if (!check_.empty()) {
      ASSIGN_OR_RETURN(r1cs::Circuit check, read_circuit_file(options_.env, check_, options_.pool, &out->files));
      out->check_circuit = std::move(check);
    }
    if (progress) progress(0.9);
    out->pvk = std::make_shared<groth16::PreparedVerifyingKey>(out->pk.vk);
    if (progress) progress(1.0);
    return std::shared_ptr<const LoadedCircuit>(std::move(out));
  }

  std::string zkey_, check_;
};

class ParamsSource : public KeyFileSource {
 public:
  ParamsSource(std::string id, std::string params, std::string r1cs, SourceOptions options)
      : KeyFileSource(std::move(id), std::move(options)), params_(std::move(params)), r1cs_(std::move(r1cs)) {}

  std::string key_path() const override { return params_; }

 private:
  StatusOr<CircuitInfo> describe_impl() override {
    ASSIGN_OR_RETURN(r1cs::CircuitShape shape, read_circuit_shape(options_.env, r1cs_));
    ASSIGN_OR_RETURN(MappedFile f, options_.env->map_file(params_));
    StatusOr<io::ParamsLayout> scanned = io::scan_params(f.bytes());
    if (!scanned.ok()) return scanned.status().with_context(params_);
    const io::ParamsLayout& layout = *scanned;
    if (layout.ic_len != shape.num_inputs)
      return invalid_argument(params_ + " has " + std::to_string(layout.ic_len) + " inputs but " + r1cs_ + " has " +
                              std::to_string(shape.num_inputs));
    CircuitInfo info;
    info.num_vars = shape.num_vars();
    info.num_public = shape.num_inputs - 1;
    info.lg_n = lg_of(uint64_t(layout.h.count) + 1);
    info.key_file_bytes = f.size();
    info.est_key_bytes = f.size() + file_size_or_zero(r1cs_);
    return info;
  }

  StatusOr<std::shared_ptr<const LoadedCircuit>> load_impl(const MappedFile* mapped,
                                                           const std::function<void(double)>& progress) override {
    if (progress) progress(0.02);
    std::vector<std::shared_ptr<const MappedFile>> files;
    ASSIGN_OR_RETURN(r1cs::Circuit circuit, read_circuit_file(options_.env, r1cs_, options_.pool, &files));
    if (progress) progress(0.1);
    r1cs::DensityBitmaps density = r1cs::compute_density(circuit, {}, options_.pool);
    MappedFile own;
    if (mapped == nullptr) {
      ASSIGN_OR_RETURN(own, MappedFile::open(params_));
      own.advise_sequential();
      mapped = &own;
    }
    std::optional<io::Sha256Digest> digest;
    io::ParamsReadOptions ro;
    ro.check_subgroup = full_checks(mapped->bytes(), &digest);
    ro.pool = options_.pool;
    StatusOr<groth16::ProvingKey> pk = io::parse_params(mapped->bytes(), density, ro);
    RETURN_IF_ERROR(mapped->check_intact());
    if (!pk.ok()) return pk.status().with_context(params_);
    remember(digest, params_);
    if (progress) progress(0.9);
    auto out = std::make_shared<LoadedCircuit>();
    out->pk = std::move(*pk);
    out->prove_circuit = circuit;
    out->c_rule = groth16::CRule::kMatrix;
    out->check_circuit = std::move(circuit);  // a view: the storage is shared
    out->files = std::move(files);
    out->pvk = std::make_shared<groth16::PreparedVerifyingKey>(out->pk.vk);
    if (progress) progress(1.0);
    return std::shared_ptr<const LoadedCircuit>(std::move(out));
  }

  std::string params_, r1cs_;
};

}  // namespace

StatusOr<std::unique_ptr<CircuitSource>> make_circuit_source(const CircuitSpec& spec, const SourceOptions& options) {
  if (spec.is_filecoin()) return make_filecoin_source(spec, options);
  if (spec.is_bench()) return make_bench_source(spec, options);
  if (!spec.zkey.empty())
    return std::unique_ptr<CircuitSource>(std::make_unique<ZkeySource>(spec.id, spec.zkey, spec.check_r1cs, options));
  if (!spec.params.empty())
    return std::unique_ptr<CircuitSource>(std::make_unique<ParamsSource>(spec.id, spec.params, spec.r1cs, options));
  if (!spec.demo) return invalid_argument("circuit \"" + spec.id + "\" has no key source");
  if (options.on_step) RETURN_IF_ERROR(options.on_step("preparing the demo circuit's files in " + options.cache_dir));
  auto made = ensure_demo_files(spec.demo_spec, options.cache_dir, options.pool);
  if (!made.ok()) return precondition(spec.id, made.status());
  DemoFiles files = demo_files(spec.demo_spec, options.cache_dir);
  // Our own freshly written files: the subgroup checks would only cost time.
  SourceOptions demo_options = options;
  demo_options.check_points = false;
  return std::unique_ptr<CircuitSource>(std::make_unique<ZkeySource>(spec.id, files.zkey, files.circuit, demo_options));
}

}  // namespace cuzk::engine
