// TOML configuration (toml++), the embedded default and value checks.
#include "cuzk/base/edit_distance.h"
#include "cuzk/server/config.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <toml++/toml.h>

#include "cuzk/base/byte_size.h"
#include "cuzk/base/log.h"
#include "curio_keys.h"
#include "listen_address.h"

namespace cuzk::server {
namespace {

constexpr uint64_t kGiB = uint64_t(1) << 30;

// The known name `key` was most likely meant to be: within two edits (a typo,
// a plural), else one that has `key` as one of its words ("budget" for
// "total_budget"); "" when none or several are that close.
std::string closest_key(const std::string& key, const std::vector<std::string>& names) {
  std::string best;
  size_t best_distance = 3;
  bool tie = false;
  for (const std::string& n : names) {
    const size_t d = edit_distance(key, n);
    if (d < best_distance) best = n, best_distance = d, tie = false;
    else if (d == best_distance) tie = true;
  }
  if (!best.empty() && !tie) return best;
  std::vector<std::string> by_word;
  for (const std::string& n : names) {
    const std::string padded = "_" + n + "_";
    if (key.size() >= 3 && padded.find("_" + key + "_") != std::string::npos) by_word.push_back(n);
  }
  return by_word.size() == 1 ? by_word[0] : "";
}

// "unknown key memory.budget (did you mean memory.total_budget?); the keys of
// [memory] are ...".
std::string unknown_key_message(const std::string& where, const std::string& key,
                                const std::vector<std::string>& names, const std::string& prefix) {
  const std::string close = closest_key(key, names);
  std::string known;
  for (const std::string& n : names) known += (known.empty() ? "" : ", ") + n;
  return "unknown key " + where + (close.empty() ? "" : " (did you mean " + prefix + close + "?)") + "; the keys " +
         (prefix.empty() ? "here" : "of [" + prefix.substr(0, prefix.size() - 1) + "]") + " are " + known;
}

// "cuzk.toml:12: ", where a node was read from, so that an operator finds
// the line; "" for a node without a position.
std::string place(const toml::node& n) {
  const toml::source_region& src = n.source();
  if (!src.begin || !src.path) return "";
  return *src.path + ":" + std::to_string(src.begin.line) + ": ";
}

// `s` with the place of `n` in front of its message (OK stays OK).
Status at(const toml::node& n, Status s) {
  if (s.ok()) return s;
  return Status(s.code(), place(n) + s.message());
}

// Typed access to the document that remembers which keys it was asked
// about, so the rest can be reported as unknown.
class TomlReader {
 public:
  explicit TomlReader(const toml::table& root) : root_(root) {}

  const toml::node* find(const std::string& section, const std::string& key) {
    known_[section].insert(key);
    const toml::table* t = root_[section].as_table();
    return t ? t->get(key) : nullptr;
  }

  Status str(const std::string& section, const std::string& key, std::string* out) {
    const toml::node* n = find(section, key);
    if (!n) return ok_status();
    if (!n->is_string()) return at(*n, type_error(section, key, "a string"));
    *out = *n->value<std::string>();
    return ok_status();
  }

  Status boolean(const std::string& section, const std::string& key, bool* out) {
    const toml::node* n = find(section, key);
    if (!n) return ok_status();
    if (!n->is_boolean()) return at(*n, type_error(section, key, "true or false"));
    *out = *n->value<bool>();
    return ok_status();
  }

  template <class U>
  Status uint(const std::string& section, const std::string& key, U* out, uint64_t lo, uint64_t hi) {
    const toml::node* n = find(section, key);
    if (!n) return ok_status();
    if (!n->is_integer()) return at(*n, type_error(section, key, "an integer"));
    int64_t v = *n->value<int64_t>();
    if (v < 0 || uint64_t(v) < lo || uint64_t(v) > hi)
      return at(*n, invalid_argument(section + "." + key + ": " + std::to_string(v) + " is out of range [" +
                                     std::to_string(lo) + ", " + std::to_string(hi) + "]"));
    *out = U(v);
    return ok_status();
  }

  Status real(const std::string& section, const std::string& key, double* out) {
    const toml::node* n = find(section, key);
    if (!n) return ok_status();
    if (!n->is_number()) return at(*n, type_error(section, key, "a number"));
    *out = n->is_integer() ? double(*n->value<int64_t>()) : *n->value<double>();
    return ok_status();
  }

  // A byte size: an integer, or a string such as "16GiB". "auto" is
  // returned as *is_auto when allowed.
  Status size(const std::string& section, const std::string& key, uint64_t* out, bool* is_auto = nullptr) {
    const toml::node* n = find(section, key);
    if (!n) return ok_status();
    if (n->is_integer() && *n->value<int64_t>() >= 0) {
      *out = uint64_t(*n->value<int64_t>());
      if (is_auto) *is_auto = false;
      return ok_status();
    }
    if (!n->is_string()) return at(*n, type_error(section, key, "a size (\"16GiB\") or a byte count"));
    std::string s = *n->value<std::string>();
    if (is_auto && s == "auto") {
      *is_auto = true;
      return ok_status();
    }
    auto v = parse_byte_size(s);
    if (!v.ok()) return at(*n, invalid_argument(section + "." + key + ": " + v.status().message()));
    *out = *v;
    if (is_auto) *is_auto = false;
    return ok_status();
  }

  // `s` with the place of section.key in front, for a check made after the
  // value was read (a range that depends on other keys).
  Status at_key(const std::string& section, const std::string& key, Status s) const {
    const toml::table* t = root_[section].as_table();
    const toml::node* n = t ? t->get(key) : nullptr;
    return n ? at(*n, std::move(s)) : s;
  }

  // Every key asked about, as "section.key".
  std::vector<std::string> keys() const {
    std::vector<std::string> out;
    for (const auto& [section, keys] : known_)
      for (const std::string& k : keys) out.push_back(section + "." + k);
    return out;
  }

  // A section the readers asked about that is not a table ([server] written
  // as `server = 5`, or as an array of tables): find() saw no keys in it, so
  // it would otherwise be skipped silently. Call after the readers.
  Status check_section_types() const {
    for (const auto& [section, keys] : known_) {
      const toml::node* n = root_.get(section);
      if (n && !n->is_table())
        return at(*n, invalid_argument(section + ": expected a section ([" + section + "]), found " +
                                (n->is_array_of_tables() ? "an array of tables ([[" + section + "]])"
                                                         : std::string("a value"))));
    }
    return ok_status();
  }

  // A section no reader asked about is an error: its settings would be lost
  // ([[circuit]] for [[circuits]] would leave the daemon without circuits).
  Status check_unknown_sections() const {
    for (const auto& [name, node] : root_) {
      std::string section(name.str());
      if (section == "circuits" || known_.count(section) || is_curio_section(section)) continue;
      std::string known;
      for (const auto& [k, keys] : known_) known += " " + k;
      const std::string shape = node.is_array_of_tables() ? "[[" + section + "]]" : "[" + section + "]";
      const std::string close = closest_section(section);
      return at(node, invalid_argument("unknown section " + shape +
                                       (close.empty() ? ""
                                                      : " (did you mean [" + std::string(close == "circuits" ? "[" : "") +
                                                            close + (close == "circuits" ? "]" : "") + "]?)") +
                                       "; the sections are" + known + " circuits"));
    }
    return ok_status();
  }

  // Unknown keys of known sections, one error each with the closest known
  // key. Keys of Curio's earlier daemon are apply_curio_keys()'s.
  void unknown_keys(std::vector<std::string>* errors) const {
    for (const auto& [name, node] : root_) {
      std::string section(name.str());
      if (section == "circuits") continue;  // checked per entry
      auto k = known_.find(section);
      if (k == known_.end()) continue;  // a section of the old daemon, or refused
      if (const toml::table* t = node.as_table())
        for (const auto& [key, v] : *t) {
          const std::string ks(key.str());
          if (k->second.count(ks) || is_curio_key(section, ks)) continue;
          std::vector<std::string> names(k->second.begin(), k->second.end());
          errors->push_back(place(v) + unknown_key_message(section + "." + ks, ks, names, section + "."));
        }
    }
  }

 private:
  // A known section name within two edits of `name`, or "".
  std::string closest_section(const std::string& name) const {
    std::vector<std::string> names = {"circuits"};
    for (const auto& [k, keys] : known_) names.push_back(k);
    for (const std::string& k : names)
      if (edit_distance(name, k) <= 2) return k;
    return "";
  }

  static Status type_error(const std::string& section, const std::string& key, const char* want) {
    return invalid_argument(section + "." + key + ": expected " + want);
  }
  const toml::table& root_;
  std::map<std::string, std::set<std::string>> known_;
};

Status read_server(TomlReader& r, ServerConfig& c) {
  RETURN_IF_ERROR(r.str("server", "listen", &c.listen));
  RETURN_IF_ERROR(r.str("server", "socket_group", &c.socket_group));
  RETURN_IF_ERROR(r.str("server", "status_listen", &c.status_listen));
  if (c.status_listen == "off") c.status_listen.clear();  // as --status-listen off
  RETURN_IF_ERROR(r.boolean("server", "allow_remote", &c.allow_remote));
  RETURN_IF_ERROR(r.str("server", "tls_cert", &c.tls_cert));
  RETURN_IF_ERROR(r.str("server", "tls_key", &c.tls_key));
  RETURN_IF_ERROR(r.str("server", "tls_client_ca", &c.tls_client_ca));
  RETURN_IF_ERROR(r.str("server", "log_level", &c.log_level));
  RETURN_IF_ERROR(r.uint("server", "shutdown_grace_ms", &c.shutdown_grace_ms, 0, 86'400'000));
  RETURN_IF_ERROR(r.size("server", "max_message_bytes", &c.max_message_bytes));
  if (c.max_message_bytes < 4096 || c.max_message_bytes > (uint64_t(2) << 30) - 1)
    return r.at_key("server", "max_message_bytes",
                    invalid_argument("server.max_message_bytes: must be in [4 KiB, 2 GiB)"));
  return ok_status();
}

Status read_memory(TomlReader& r, const ConfigEnv& env, ServerConfig& c, std::vector<std::string>* warnings) {
  uint64_t margin = 2 * kGiB, total = 0;
  bool is_auto = true;
  RETURN_IF_ERROR(r.size("memory", "safety_margin", &margin));
  RETURN_IF_ERROR(r.size("memory", "total_budget", &total, &is_auto));
  if (is_auto) {
    if (env.mem_total_bytes == 0) total = 8 * kGiB;
    else if (env.mem_total_bytes <= margin)
      return r.at_key("memory", "safety_margin",
                      invalid_argument("memory.safety_margin: " + std::to_string(margin) +
                                       " bytes leaves nothing of MemTotal " + std::to_string(env.mem_total_bytes)));
    else total = env.mem_total_bytes - margin;
  }
  if (total == 0) return r.at_key("memory", "total_budget", invalid_argument("memory.total_budget: must be > 0"));
  if (!is_auto && env.mem_total_bytes != 0 && total > env.mem_total_bytes && warnings)
    warnings->push_back("memory.total_budget: " + std::to_string(total) + " bytes is more than this machine's memory (" +
                        std::to_string(env.mem_total_bytes) +
                        " bytes): the budget will not hold partitions back before the system runs out of memory");
  c.engine.total_budget_bytes = total;
  RETURN_IF_ERROR(r.boolean("memory", "trim_when_idle", &c.engine.trim_memory_when_idle));
  return ok_status();
}

Status read_engine(TomlReader& r, ServerConfig& c) {
  engine::EngineConfig& e = c.engine;
  RETURN_IF_ERROR(r.size("keys", "host_budget", &e.key_host_budget_bytes));
  RETURN_IF_ERROR(r.size("keys", "device_budget", &e.key_device_budget_bytes));
  RETURN_IF_ERROR(r.uint("keys", "eviction_min_idle_ms", &e.eviction_min_idle_ms, 0, 86'400'000));
  RETURN_IF_ERROR(r.boolean("keys", "check_points", &e.check_key_points));
  RETURN_IF_ERROR(r.uint("pipeline", "preparation_workers", &e.preparation_workers, 1, 256));
  RETURN_IF_ERROR(r.uint("pipeline", "workers_per_device", &e.workers_per_device, 1, 64));
  RETURN_IF_ERROR(r.uint("pipeline", "finalizer_threads", &e.finalizer_threads, 1, 256));
  RETURN_IF_ERROR(r.uint("pipeline", "prover_threads", &e.prover_threads, 0, 4096));
  std::string backend = "auto";
  RETURN_IF_ERROR(r.str("pipeline", "backend", &backend));
  if (backend != "auto" && backend != "cpu" && backend != "cuda")
    return r.at_key("pipeline", "backend",
                    invalid_argument("pipeline.backend: \"" + backend + "\" is not one of auto, cpu, cuda"));
  if (backend != "auto") e.devices = {backend};
  // devices = "auto" | "cpu" | "cuda" | "cuda:0,cuda:1" (checked when the engine starts).
  std::string devices;
  RETURN_IF_ERROR(r.str("pipeline", "devices", &devices));
  if (!devices.empty()) {
    e.devices.clear();
    size_t at = 0;
    while (at <= devices.size()) {
      size_t comma = devices.find(',', at);
      std::string d = devices.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
      while (!d.empty() && d.front() == ' ') d.erase(d.begin());
      while (!d.empty() && d.back() == ' ') d.pop_back();
      if (d.empty())
        return r.at_key("pipeline", "devices",
                        invalid_argument("pipeline.devices: empty entry in \"" + devices + "\""));
      // The names engine::make_devices knows: --check-config refuses what the start would.
      if (!engine::is_device_name(d))
        return r.at_key("pipeline", "devices",
                        invalid_argument("pipeline.devices: unknown device \"" + d +
                                         "\" (expected auto, cpu, cuda, cuda:N or a list such as \"cuda:0,cuda:1\")"));
      e.devices.push_back(d);
      if (comma == std::string::npos) break;
      at = comma + 1;
    }
  }
  RETURN_IF_ERROR(r.size("pipeline", "vram_limit", &e.vram_limit_bytes));
  RETURN_IF_ERROR(r.boolean("pipeline", "matvec_on_device", &e.matvec_on_device));
  RETURN_IF_ERROR(r.uint("scheduler", "max_queued_jobs", &e.max_queued_jobs, 1, 1'000'000));
  RETURN_IF_ERROR(r.uint("scheduler", "max_batch_size", &e.max_batch_size, 1, 1024));
  RETURN_IF_ERROR(r.uint("scheduler", "max_batch_wait_ms", &e.max_batch_wait_ms, 0, 60'000));
  RETURN_IF_ERROR(r.uint("scheduler", "max_partitions_per_job", &e.max_partitions_per_job, 1, 4096));
  RETURN_IF_ERROR(r.boolean("jobs", "self_verify", &e.self_verify));
  RETURN_IF_ERROR(r.uint("jobs", "result_retention_ms", &e.result_retention_ms, 0, 7 * 86'400'000ull));
  std::string cache_dir;
  RETURN_IF_ERROR(r.str("cache", "dir", &cache_dir));
  if (!cache_dir.empty()) e.cache_dir = cache_dir;  // "" keeps the default
  return ok_status();
}

Status read_demo(TomlReader& r, ServerConfig& c) {
  bool enabled = true;
  engine::CircuitSpec demo;
  demo.id = "demo";
  demo.demo = true;
  RETURN_IF_ERROR(r.boolean("demo", "enabled", &enabled));
  RETURN_IF_ERROR(r.str("demo", "id", &demo.id));
  RETURN_IF_ERROR(r.uint("demo", "lg_domain", &demo.demo_spec.lg_domain, 3, 24));
  RETURN_IF_ERROR(r.uint("demo", "public_inputs", &demo.demo_spec.num_public_inputs, 0, 1024));
  RETURN_IF_ERROR(r.real("demo", "zero_one_fraction", &demo.demo_spec.zero_one_fraction));
  RETURN_IF_ERROR(r.uint("demo", "seed", &demo.demo_spec.seed, 0, UINT64_MAX >> 1));
  // After the [[circuits]] entries, so that circuits[i] in messages is the file's i-th.
  if (enabled) c.engine.circuits.push_back(demo);
  return ok_status();
}

// A Filecoin circuit's keys: filecoin = "porep" (the kind), sector_size =
// "32GiB" (or bytes), dev_seed = N (an INSECURE development key instead of
// params).
Status read_filecoin_key(const std::string& k, const toml::node& v, const std::string& where,
                         engine::FilecoinCircuitSpec& out) {
  if (k == "filecoin") {
    if (!v.is_string()) return invalid_argument(where + ".filecoin: expected a string");
    out.kind = *v.value<std::string>();
  } else if (k == "sector_size") {
    if (v.is_integer() && *v.value<int64_t>() > 0) {
      out.sector_size = uint64_t(*v.value<int64_t>());
    } else if (v.is_string()) {
      auto size = parse_byte_size(*v.value<std::string>());
      if (!size.ok()) return invalid_argument(where + ".sector_size: " + size.status().message());
      out.sector_size = *size;
    } else {
      return invalid_argument(where + ".sector_size: expected a size (\"32GiB\") or a byte count");
    }
  } else {
    if (!v.is_integer() || *v.value<int64_t>() < 0) return invalid_argument(where + ".dev_seed: expected an integer >= 0");
    out.dev_key = true;
    out.dev_seed = uint64_t(*v.value<int64_t>());
  }
  return ok_status();
}

const std::set<std::string> kCircuitKeys = {"id", "zkey", "params", "r1cs", "check_r1cs"};
const std::set<std::string> kFilecoinKeys = {"filecoin", "sector_size", "dev_seed"};
const std::set<std::string> kBenchKeys = {"bench", "lg", "seed"};

// A bench circuit: bench = "porep", lg = 8..27, seed = N (built in memory
// with an INSECURE development key; requests bring no witness).
Status read_bench_key(const std::string& k, const toml::node& v, const std::string& where, engine::CircuitSpec& spec) {
  if (k == "bench") {
    if (!v.is_string()) return invalid_argument(where + ".bench: expected a string (\"porep\")");
    spec.bench.shape = *v.value<std::string>();
    return ok_status();
  }
  if (!v.is_integer() || *v.value<int64_t>() < 0) return invalid_argument(where + "." + k + ": expected an integer >= 0");
  if (k == "lg") spec.bench.lg = int(std::min<int64_t>(*v.value<int64_t>(), 64));
  else spec.bench.seed = uint64_t(*v.value<int64_t>());
  return ok_status();
}

// One key of a [[circuits]] entry; an unknown one is added to `errors`.
Status read_circuit_key(const std::string& k, const toml::node& v, const std::string& where, engine::CircuitSpec& spec,
                        std::vector<std::string>* errors) {
  if (kFilecoinKeys.count(k)) return read_filecoin_key(k, v, where, spec.filecoin);
  if (kBenchKeys.count(k)) return read_bench_key(k, v, where, spec);
  if (!kCircuitKeys.count(k)) {
    std::vector<std::string> names(kCircuitKeys.begin(), kCircuitKeys.end());
    names.insert(names.end(), kFilecoinKeys.begin(), kFilecoinKeys.end());
    names.insert(names.end(), kBenchKeys.begin(), kBenchKeys.end());
    errors->push_back(place(v) + unknown_key_message(where + "." + k, k, names, ""));
    return ok_status();
  }
  if (!v.is_string()) return invalid_argument(where + "." + k + ": expected a string");
  std::string s = *v.value<std::string>();
  if (k == "id") spec.id = s;
  else if (k == "zkey") spec.zkey = s;
  else if (k == "params") spec.params = s;
  else if (k == "r1cs") spec.r1cs = s;
  else spec.check_r1cs = s;
  return ok_status();
}

Status read_circuits(const toml::table& root, ServerConfig& c, std::vector<std::string>* errors) {
  const toml::node* n = root.get("circuits");
  if (!n) return ok_status();
  const toml::array* arr = n->as_array();
  if (!arr) return at(*n, invalid_argument("circuits: expected an array of tables ([[circuits]])"));
  for (size_t i = 0; i < arr->size(); ++i) {
    const toml::table* t = arr->get(i)->as_table();
    std::string where = "circuits[" + std::to_string(i) + "]";
    if (!t) return at(*arr->get(i), invalid_argument(where + ": expected a table"));
    engine::CircuitSpec spec;
    for (const auto& [key, v] : *t) RETURN_IF_ERROR(at(v, read_circuit_key(std::string(key.str()), v, where, spec, errors)));
    c.engine.circuits.push_back(std::move(spec));
  }
  return ok_status();
}

}  // namespace

ConfigEnv read_config_env() {
  ConfigEnv env;
  if (const char* v = std::getenv("XDG_RUNTIME_DIR")) env.xdg_runtime_dir = v;
  if (const char* v = std::getenv("XDG_CACHE_HOME")) env.xdg_cache_home = v;
  if (const char* v = std::getenv("HOME")) env.home = v;
  if (const char* v = std::getenv("CUZK_ADDR")) env.cuzk_addr = v;
  env.uid = uint32_t(getuid());
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  uint64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit) {
    if (key == "MemTotal:") {
      env.mem_total_bytes = kib * 1024;
      break;
    }
  }
  return env;
}

ServerConfig default_config(const ConfigEnv& env) {
  ServerConfig c;
  std::string run_dir =
      env.xdg_runtime_dir.empty() ? "/tmp/cuzk-" + std::to_string(env.uid) : env.xdg_runtime_dir + "/cuzk";
  c.listen = "unix://" + run_dir + "/cuzk.sock";
  std::string cache = !env.xdg_cache_home.empty() ? env.xdg_cache_home + "/cuzk"
                      : !env.home.empty()         ? env.home + "/.cache/cuzk"
                                                  : "/tmp/cuzk-" + std::to_string(env.uid) + "-cache";
  c.engine.cache_dir = cache;
  c.engine.total_budget_bytes = env.mem_total_bytes > 2 * kGiB ? env.mem_total_bytes - 2 * kGiB : 8 * kGiB;
  c.engine.devices = {"auto"};
  engine::CircuitSpec demo;
  demo.id = "demo";
  demo.demo = true;
  c.engine.circuits = {demo};
  return c;
}

std::string client_default_address(const ConfigEnv& env) {
  if (!env.cuzk_addr.empty()) return env.cuzk_addr;
  const std::string own = default_config(env).listen;
  std::error_code ec;
  if (own.starts_with("unix://") && std::filesystem::exists(own.substr(7), ec)) return own;
  if (!env.service_socket.empty() && std::filesystem::exists(env.service_socket, ec))
    return "unix://" + env.service_socket;
  return own;
}

StatusOr<ServerConfig> parse_config(const std::string& toml_text, const std::string& source_name,
                                    const ConfigEnv& env, std::vector<std::string>* warnings) {
  toml::table root;
  try {
    root = toml::parse(toml_text, source_name);
  } catch (const toml::parse_error& e) {
    std::ostringstream msg;
    msg << source_name << ":" << e.source().begin.line << ":" << e.source().begin.column << ": "
        << e.description();
    return invalid_argument(msg.str());
  }
  ServerConfig c = default_config(env);
  TomlReader r(root);
  std::vector<std::string> errors;
  apply_curio_keys(root, c, warnings, &errors);  // before the readers: cuzk's own keys win
  RETURN_IF_ERROR(read_server(r, c));
  RETURN_IF_ERROR(read_memory(r, env, c, warnings));
  RETURN_IF_ERROR(read_engine(r, c));
  c.engine.circuits.clear();
  RETURN_IF_ERROR(read_circuits(root, c, &errors));
  RETURN_IF_ERROR(read_demo(r, c));
  RETURN_IF_ERROR(r.check_section_types());
  RETURN_IF_ERROR(r.check_unknown_sections());
  r.unknown_keys(&errors);
  // Every key that is not taken at once, so that one run names them all.
  if (!errors.empty()) {
    std::string all = errors[0];
    for (size_t i = 1; i < errors.size(); ++i) all += "\n" + errors[i];
    return invalid_argument(all);
  }
  return c;
}

std::vector<std::string> config_keys() {
  const toml::table empty;
  TomlReader r(empty);
  ConfigEnv env;
  ServerConfig c = default_config(env);
  // Nothing is found in an empty document, so every reader returns OK
  // having named its keys.
  (void)read_server(r, c);
  (void)read_memory(r, env, c, nullptr);
  (void)read_engine(r, c);
  (void)read_demo(r, c);
  std::vector<std::string> out = r.keys();
  for (const std::set<std::string>* keys : {&kCircuitKeys, &kFilecoinKeys, &kBenchKeys})
    for (const std::string& k : *keys) out.push_back("circuits." + k);
  return out;
}

StatusOr<ServerConfig> load_config_file(const std::string& path, const ConfigEnv& env,
                                        std::vector<std::string>* warnings) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    return invalid_argument("the config file " + path + " is a directory");
  errno = 0;
  std::ifstream in(path);
  if (!in) {
    // "No such file or directory", "Permission denied": the file named on
    // the command line is the first thing an operator checks.
    if (errno != 0) return io_error("cannot read the config file " + path, errno);
    return not_found("cannot read the config file " + path);
  }
  std::stringstream text;
  text << in.rdbuf();
  if (in.bad()) return not_found("cannot read the config file " + path);
  return parse_config(text.str(), path, env, warnings);
}

Status validate_config(const ServerConfig& c) {
  log::Level level;
  if (!log::parse_level(c.log_level, &level))
    return invalid_argument("server.log_level: \"" + c.log_level + "\" is not one of trace, debug, info, warn, error, off");
  ASSIGN_OR_RETURN(ListenAddress grpc_addr, parse_listen_address(c.listen, "server.listen"));
  if (grpc_addr.is_abstract() && !c.allow_remote)
    return invalid_argument("server.listen: " + c.listen +
                            " is an abstract unix socket: it has no file permissions, so every local user can "
                            "connect, submit jobs and read proofs. Use unix:///path (a 0600 socket in a directory "
                            "of your own), or set server.allow_remote = true to accept that");
  if (grpc_addr.is_tcp() && !c.allow_remote && !grpc_addr.is_loopback())
    return invalid_argument("server.listen: " + c.listen + " is not a loopback address; set server.allow_remote = true "
                            "to listen on it");
  if (!c.socket_group.empty() && grpc_addr.is_tcp())
    return invalid_argument("server.socket_group: only a unix socket has a group (server.listen is " + c.listen + ")");
  if (c.tls_cert.empty() != c.tls_key.empty())
    return invalid_argument("server.tls_cert and server.tls_key: give both (TLS) or neither (plaintext)");
  if (!c.tls_client_ca.empty() && c.tls_cert.empty())
    return invalid_argument("server.tls_client_ca: needs server.tls_cert and server.tls_key");
  if (!c.status_listen.empty()) {
    ASSIGN_OR_RETURN(ListenAddress http_addr, parse_listen_address(c.status_listen, "server.status_listen"));
    if (!http_addr.is_tcp()) return invalid_argument("server.status_listen: must be host:port");
    if (!c.allow_remote && !http_addr.is_loopback())
      return invalid_argument("server.status_listen: " + c.status_listen +
                              " is not a loopback address; set server.allow_remote = true to listen on it");
  }
  return c.engine.validate();
}

namespace {

void listener_warnings(const ServerConfig& c, std::vector<std::string>* out) {
  auto grpc_addr = parse_listen_address(c.listen, "server.listen");
  if (grpc_addr.ok() && grpc_addr->is_abstract()) {
    out->push_back("server.listen: " + c.listen +
                   " is an abstract unix socket: every local user can connect to it (there are no file "
                   "permissions), submit jobs, cancel them and read proofs and public inputs");
  } else if (grpc_addr.ok() && !grpc_addr->is_loopback()) {
    if (c.tls_cert.empty())
      out->push_back("server.listen: " + c.listen +
                     " is reachable from other machines in PLAINTEXT, without authentication: anyone who can "
                     "reach it can submit jobs, cancel them and read proofs and public inputs. Set "
                     "server.tls_cert and server.tls_key (and server.tls_client_ca to require client "
                     "certificates), or listen on a loopback address or a unix socket");
    else if (c.tls_client_ca.empty())
      out->push_back("server.listen: " + c.listen +
                     " is reachable from other machines over TLS, but any client may call it; set "
                     "server.tls_client_ca to require client certificates");
  }
  if (c.status_listen.empty()) return;
  auto http_addr = parse_listen_address(c.status_listen, "server.status_listen");
  if (http_addr.ok() && !http_addr->is_loopback())
    out->push_back("server.status_listen: " + c.status_listen +
                   " is reachable from other machines: /status shows job ids, circuit ids and errors to "
                   "anyone, in plaintext");
}

// Relative file names are opened from the daemon's working directory (/
// under systemd), not the config file's: a config checked from its own
// directory would name other files once the service runs it.
void relative_path_warnings(const ServerConfig& c, std::vector<std::string>* out) {
  auto check = [out](const std::string& key, const std::string& path) {
    if (path.empty() || path.front() == '/') return;
    out->push_back(key + ": \"" + path + "\" is a relative path: it is opened from the daemon's working directory "
                   "(/ under systemd), not from the config file's; write it absolute");
  };
  check("server.tls_cert", c.tls_cert);
  check("server.tls_key", c.tls_key);
  check("server.tls_client_ca", c.tls_client_ca);
  check("cache.dir", c.engine.cache_dir);
  for (size_t i = 0; i < c.engine.circuits.size(); ++i) {
    const engine::CircuitSpec& spec = c.engine.circuits[i];
    const std::string where = "circuits[" + std::to_string(i) + "]";
    check(where + ".zkey", spec.zkey);
    check(where + ".params", spec.params);
    check(where + ".r1cs", spec.r1cs);
    check(where + ".check_r1cs", spec.check_r1cs);
  }
}

}  // namespace

std::vector<std::string> config_warnings(const ServerConfig& c, unsigned hardware_threads) {
  std::vector<std::string> out;
  listener_warnings(c, &out);
  relative_path_warnings(c, &out);
  const engine::EngineConfig& e = c.engine;
  constexpr uint64_t kSmallestUsefulBudget = uint64_t(16) << 20;
  if (e.total_budget_bytes < kSmallestUsefulBudget)
    out.push_back("memory.total_budget: " + std::to_string(e.total_budget_bytes) +
                  " bytes is below 16 MiB: no proving key with a partition fits, and every job will be refused");
  if (e.key_host_budget_bytes && e.key_host_budget_bytes > e.total_budget_bytes)
    out.push_back("keys.host_budget: " + std::to_string(e.key_host_budget_bytes) +
                  " bytes is more than memory.total_budget (" + std::to_string(e.total_budget_bytes) +
                  "), which is the limit that applies");
  const unsigned hw = std::max(1u, hardware_threads);
  if (e.prover_threads > 4 * hw)
    out.push_back("pipeline.prover_threads: " + std::to_string(e.prover_threads) + " threads on a machine with " +
                  std::to_string(hw) + " hardware threads; 0 uses them all, more only adds switching");
  if (e.preparation_workers + e.workers_per_device * e.devices.size() + e.finalizer_threads > 16 * hw)
    out.push_back("pipeline: preparation_workers, workers_per_device and finalizer_threads add up to far more "
                  "workers than the machine's " + std::to_string(hw) + " hardware threads can serve");
  return out;
}

}  // namespace cuzk::server
