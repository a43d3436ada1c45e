// TOML configuration: defaults, every section, unknown keys, invalid values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdlib.h>

#include "cuzk/base/byte_size.h"
#include "cuzk/server/config.h"

namespace cuzk::server {
namespace {

ConfigEnv env() {
  ConfigEnv e;
  e.xdg_runtime_dir = "/run/user/1000";
  e.xdg_cache_home = "/home/u/.cache";
  e.home = "/home/u";
  e.uid = 1000;
  e.mem_total_bytes = uint64_t(16) << 30;
  return e;
}

TEST(Config, EmbeddedDefault) {
  ServerConfig c = default_config(env());
  EXPECT_EQ(c.listen, "unix:///run/user/1000/cuzk/cuzk.sock");
  EXPECT_EQ(c.engine.cache_dir, "/home/u/.cache/cuzk");
  EXPECT_EQ(c.engine.total_budget_bytes, uint64_t(14) << 30);
  ASSERT_EQ(c.engine.circuits.size(), 1u);
  EXPECT_TRUE(c.engine.circuits[0].demo);
  EXPECT_EQ(c.engine.circuits[0].id, "demo");
  EXPECT_TRUE(validate_config(c).ok());
  ConfigEnv bare = env();
  bare.xdg_runtime_dir.clear();
  bare.xdg_cache_home.clear();
  ServerConfig d = default_config(bare);
  EXPECT_EQ(d.listen, "unix:///tmp/cuzk-1000/cuzk.sock");
  EXPECT_EQ(d.engine.cache_dir, "/home/u/.cache/cuzk");
}

TEST(Config, EveryKey) {
  std::vector<std::string> warnings;
  auto c = parse_config(R"(
[server]
listen = "127.0.0.1:9000"
status_listen = "127.0.0.1:0"
log_level = "debug"
shutdown_grace_ms = 5000
max_message_bytes = "64MiB"
[memory]
total_budget = "3GiB"
[keys]
host_budget = "1GiB"
eviction_min_idle_ms = 10
check_points = false
[pipeline]
preparation_workers = 3
workers_per_device = 4
finalizer_threads = 2
prover_threads = 8
backend = "cpu"
matvec_on_device = false
[scheduler]
max_queued_jobs = 7
max_batch_size = 2
max_batch_wait_ms = 5
[jobs]
self_verify = false
result_retention_ms = 1000
[cache]
dir = "/var/cache/cuzk"
[demo]
lg_domain = 10
public_inputs = 2
seed = 9
[[circuits]]
id = "sha"
zkey = "/k/sha.zkey"
[[circuits]]
id = "fil"
params = "/k/x.params"
r1cs = "/k/x.r1cs"
)",
                        "test.toml", env(), &warnings);
  ASSERT_TRUE(c.ok()) << c.status().to_string();
  EXPECT_TRUE(warnings.empty()) << warnings[0];
  EXPECT_EQ(c->listen, "127.0.0.1:9000");
  EXPECT_EQ(c->max_message_bytes, uint64_t(64) << 20);
  EXPECT_EQ(c->engine.total_budget_bytes, uint64_t(3) << 30);
  EXPECT_EQ(c->engine.key_host_budget_bytes, uint64_t(1) << 30);
  EXPECT_FALSE(c->engine.check_key_points);
  EXPECT_EQ(c->engine.workers_per_device, 4u);
  EXPECT_FALSE(c->engine.matvec_on_device);
  EXPECT_EQ(c->engine.max_queued_jobs, 7u);
  EXPECT_FALSE(c->engine.self_verify);
  EXPECT_EQ(c->engine.cache_dir, "/var/cache/cuzk");
  ASSERT_EQ(c->engine.circuits.size(), 3u);
  EXPECT_EQ(c->engine.circuits[0].zkey, "/k/sha.zkey");
  EXPECT_EQ(c->engine.circuits[1].r1cs, "/k/x.r1cs");
  EXPECT_EQ(c->engine.circuits[2].demo_spec.lg_domain, 10u);
  EXPECT_TRUE(validate_config(*c).ok());
}

TEST(Config, UnknownKeysAreErrorsThatSayWhatWasMeant) {
  std::vector<std::string> warnings;
  auto c = parse_config("[server]\nlisten_addr = \"x\"\n[[circuits]]\nid = \"a\"\nzkey = \"/a\"\nsize = 3\n", "t", env(),
                        &warnings);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), StatusCode::kInvalidArgument);
  // Both at once, one line each.
  EXPECT_NE(c.status().message().find("unknown key server.listen_addr"), std::string::npos) << c.status().message();
  EXPECT_NE(c.status().message().find("unknown key circuits[0].size"), std::string::npos) << c.status().message();
  EXPECT_NE(c.status().message().find('\n'), std::string::npos) << c.status().message();

  struct Case {
    const char* toml;
    const char* meant;
  };
  for (const Case& k : {Case{"[memory]\nbudget = \"8GiB\"\n", "did you mean memory.total_budget?"},
                        Case{"[pipeline]\ndevice = \"cpu\"\n", "did you mean pipeline.devices?"},
                        Case{"[keys]\ncheck_point = true\n", "did you mean keys.check_points?"},
                        Case{"[[circuits]]\nid = \"a\"\nparam = \"/a\"\n", "did you mean params?"}}) {
    auto r = parse_config(k.toml, "t", env(), &warnings);
    ASSERT_FALSE(r.ok()) << k.toml;
    EXPECT_NE(r.status().message().find(k.meant), std::string::npos) << r.status().message();
  }
  // Nothing close: the known keys are listed, nothing is guessed.
  auto r = parse_config("[memory]\nzzzzzzzz = 1\n", "t", env(), &warnings);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message().find("did you mean"), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find("total_budget"), std::string::npos) << r.status().message();
}

TEST(Config, CurioDaemonKeysAreTakenOrNamed) {
  std::vector<std::string> warnings;
  // The common keys of Curio's earlier daemon are taken, each with a warning
  // naming its cuzk key.
  const uint32_t workers = 1 + uint32_t(std::rand() % 8);
  const uint32_t gpu = uint32_t(std::rand() % 4);
  const std::string toml = "[daemon]\nlisten = \"unix:///run/curio/cuzk.sock\"\nstatus_listen = \"127.0.0.1:9999\"\n"
                           "[gpus]\ndevices = [" + std::to_string(gpu) + ", " + std::to_string(gpu + 1) + "]\n"
                           "gpu_workers_per_device = " + std::to_string(workers) + "\n"
                           "[memory]\neviction_min_idle = \"3m\"\npinned_budget = \"50GiB\"\n"
                           "[logging]\nlevel = \"debug\"\n[srs]\npreload = []\n";
  auto c = parse_config(toml, "t", env(), &warnings);
  ASSERT_TRUE(c.ok()) << c.status().to_string();
  EXPECT_EQ(c->listen, "unix:///run/curio/cuzk.sock");
  EXPECT_EQ(c->status_listen, "127.0.0.1:9999");
  EXPECT_EQ(c->engine.devices,
            (std::vector<std::string>{"cuda:" + std::to_string(gpu), "cuda:" + std::to_string(gpu + 1)}));
  EXPECT_EQ(c->engine.workers_per_device, workers);
  EXPECT_EQ(c->engine.eviction_min_idle_ms, 180'000u);
  EXPECT_EQ(c->log_level, "debug");
  std::string all;
  for (const std::string& w : warnings) all += w + "\n";
  for (const char* named : {"daemon.listen is a key of Curio's earlier cuzk daemon; taken as server.listen",
                            "taken as server.status_listen", "gpus.devices", "taken as pipeline.devices",
                            "taken as pipeline.workers_per_device", "taken as keys.eviction_min_idle_ms",
                            "memory.pinned_budget", "taken as server.log_level", "srs.preload"})
    EXPECT_NE(all.find(named), std::string::npos) << named << " not in:\n" << all;

  // cuzk's own key wins over the old one.
  warnings.clear();
  c = parse_config("[daemon]\nlisten = \"127.0.0.1:1\"\n[server]\nlisten = \"127.0.0.1:2\"\n", "t", env(), &warnings);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->listen, "127.0.0.1:2");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("ignored: server.listen is set"), std::string::npos) << warnings[0];

  // The others name what cuzk does instead; all of them in one message.
  c = parse_config("[srs]\nparam_cache = \"/var/tmp/filecoin-proof-parameters\"\n[synthesis]\nthreads = 4\n"
                   "[pipeline]\nslot_size = 3\n",
                   "t", env(), &warnings);
  ASSERT_FALSE(c.ok());
  const std::string m = c.status().message();
  EXPECT_NE(m.find("srs.param_cache is a key of Curio's earlier cuzk daemon: cuzk names each parameter file in a "
                   "[[circuits]] entry"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("synthesis.threads is a key of Curio's earlier cuzk daemon: use pipeline.prover_threads"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("pipeline.slot_size is a key of Curio's earlier cuzk daemon: partitions are admitted as "
                   "memory.total_budget allows"),
            std::string::npos)
      << m;
  // [daemon] is not taken for a misspelt [demo].
  EXPECT_EQ(m.find("did you mean [demo]"), std::string::npos) << m;
  // A value the old daemon would not have taken is an error naming the new key.
  c = parse_config("[gpus]\ndevices = \"0\"\n", "t", env(), &warnings);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("in cuzk it is pipeline.devices"), std::string::npos) << c.status().message();
}

// Clients without --addr: $CUZK_ADDR, else the user's own daemon's socket
// when there is one, else the packaged service's (/run/cuzk/cuzk.sock) when
// it exists.
TEST(Config, ClientsFindTheServiceSocket) {
  std::string tmpl = (std::filesystem::temp_directory_path() / "cuzk-addr-XXXXXX").string();
  const std::string dir = ::mkdtemp(tmpl.data());
  ConfigEnv e = env();
  e.xdg_runtime_dir = dir + "/user";
  e.service_socket = dir + "/service/cuzk.sock";
  const std::string own = "unix://" + dir + "/user/cuzk/cuzk.sock";
  EXPECT_EQ(client_default_address(e), own);  // nothing exists: the user's default names the error
  std::filesystem::create_directories(dir + "/service");
  std::ofstream(e.service_socket).put('x');
  EXPECT_EQ(client_default_address(e), "unix://" + e.service_socket);
  std::filesystem::create_directories(dir + "/user/cuzk");
  std::ofstream(dir + "/user/cuzk/cuzk.sock").put('x');
  EXPECT_EQ(client_default_address(e), own);
  e.cuzk_addr = "127.0.0.1:" + std::to_string(1024 + std::rand() % 60000);
  EXPECT_EQ(client_default_address(e), e.cuzk_addr);
  std::filesystem::remove_all(dir);
}

// The packaged config (packaging/cuzk.toml) works with Curio's defaults: the
// socket Curio is pointed at, shared with the group cuzk, the cache where the
// unit's CacheDirectory is; the unit (packaging/cuzk.service.in) runs as that
// group, can see /var/tmp/filecoin-proof-parameters (no PrivateTmp, read-only)
// and makes /run/cuzk enterable by the group.
TEST(Config, ThePackagedServiceWorksWithCuriosDefaults) {
  const char* src = std::getenv("CUZK_SOURCE_DIR");
  if (!src) GTEST_SKIP() << "CUZK_SOURCE_DIR not set";
  std::vector<std::string> warnings;
  auto c = load_config_file(std::string(src) + "/packaging/cuzk.toml", env(), &warnings);
  ASSERT_TRUE(c.ok()) << c.status().to_string();
  EXPECT_TRUE(warnings.empty()) << warnings[0];
  EXPECT_TRUE(validate_config(*c).ok());
  EXPECT_EQ(c->listen, "unix:///run/cuzk/cuzk.sock");
  EXPECT_EQ(c->listen, "unix://" + ConfigEnv{}.service_socket);  // where clients look
  EXPECT_EQ(c->socket_group, "cuzk");
  EXPECT_EQ(c->engine.cache_dir, "/var/cache/cuzk");
  EXPECT_GE(c->max_message_bytes, uint64_t(200) << 20);  // Curio sends up to ~200 MB

  std::ifstream in(std::string(src) + "/packaging/cuzk.service.in");
  std::map<std::string, std::vector<std::string>> unit;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#' || line[0] == '[') continue;
    const size_t eq = line.find('=');
    if (eq != std::string::npos) unit[line.substr(0, eq)].push_back(line.substr(eq + 1));
  }
  auto value = [&](const std::string& k) { return unit[k].empty() ? std::string("(unset)") : unit[k].back(); };
  EXPECT_EQ(value("User"), "cuzk");
  EXPECT_EQ(value("Group"), c->socket_group);
  EXPECT_EQ(value("DynamicUser"), "(unset)");
  EXPECT_NE(value("PrivateTmp"), "yes");  // it would hide /var/tmp/filecoin-proof-parameters
  EXPECT_EQ(value("ReadOnlyPaths"), "-/var/tmp/filecoin-proof-parameters");
  EXPECT_EQ(value("RuntimeDirectory"), "cuzk");
  EXPECT_EQ(value("RuntimeDirectoryMode"), "0750");
  EXPECT_EQ(value("CacheDirectory"), "cuzk");
  EXPECT_NE(value("ProtectSystem"), "strict");  // /var/cache/cuzk stays writable
  std::ifstream sysusers(std::string(src) + "/packaging/cuzk.sysusers");
  std::stringstream su;
  su << sysusers.rdbuf();
  EXPECT_NE(su.str().find("\nu cuzk "), std::string::npos) << su.str();
}

TEST(Config, BenchCircuits) {
  std::vector<std::string> w;
  auto c = parse_config("[[circuits]]\nid = \"b27\"\nbench = \"porep\"\nlg = 27\nseed = 5\n", "t", env(), &w);
  ASSERT_TRUE(c.ok()) << c.status().to_string();
  EXPECT_TRUE(w.empty());
  const engine::CircuitSpec* spec = nullptr;
  for (const auto& x : c->engine.circuits)
    if (x.id == "b27") spec = &x;
  ASSERT_NE(spec, nullptr);
  EXPECT_TRUE(spec->is_bench());
  EXPECT_EQ(spec->bench.lg, 27);
  EXPECT_EQ(spec->bench.seed, 5u);
  EXPECT_TRUE(c->engine.validate().ok());
  c = parse_config("[[circuits]]\nid = \"b\"\nbench = \"porep\"\nlg = 30\n", "t", env(), &w);
  ASSERT_TRUE(c.ok());
  Status v = c->engine.validate();
  ASSERT_FALSE(v.ok());
  EXPECT_NE(v.message().find("circuits[0] (id \"b\").lg: must be in [8, 27], got 30"), std::string::npos) << v.message();
  c = parse_config("[[circuits]]\nid = \"b\"\nbench = \"porep\"\nlg = 20\nzkey = \"/k\"\n", "t", env(), &w);
  ASSERT_TRUE(c.ok());
  EXPECT_NE(c->engine.validate().message().find("a bench circuit takes no key files"), std::string::npos);
}

// An unknown section would lose all its settings ([[circuit]] would leave
// the daemon with no circuit): an error, with the likely intended name.
TEST(Config, UnknownSectionsAreErrors) {
  std::vector<std::string> w;
  auto c = parse_config("[[circuit]]\nid = \"a\"\nzkey = \"/a\"\n", "t", env(), &w);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(c.status().message().find("unknown section [[circuit]]"), std::string::npos) << c.status().message();
  EXPECT_NE(c.status().message().find("did you mean [[circuits]]?"), std::string::npos) << c.status().message();
  c = parse_config("[servr]\nlisten = \"x\"\n", "t", env(), &w);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("did you mean [server]?"), std::string::npos) << c.status().message();
  c = parse_config("[frobnicate]\nx = 1\n", "t", env(), &w);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("unknown section [frobnicate]; the sections are"), std::string::npos)
      << c.status().message();
}

TEST(Config, StatusListenOffMeansNoStatusServer) {
  std::vector<std::string> w;
  auto c = parse_config("[server]\nstatus_listen = \"off\"\n", "t", env(), &w);
  ASSERT_TRUE(c.ok()) << c.status().to_string();
  EXPECT_EQ(c->status_listen, "");
  EXPECT_TRUE(validate_config(*c).ok());
}

TEST(Config, InvalidValuesNameTheKey) {
  std::vector<std::string> w;
  auto expect_key = [&](const std::string& text, const std::string& key) {
    auto c = parse_config(text, "t", env(), &w);
    Status s = c.ok() ? validate_config(*c) : c.status();
    ASSERT_FALSE(s.ok()) << text;
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
    EXPECT_NE(s.message().find(key), std::string::npos) << s.message();
  };
  expect_key("[pipeline]\nworkers_per_device = 0\n", "pipeline.workers_per_device");
  expect_key("[pipeline]\nworkers_per_device = \"two\"\n", "pipeline.workers_per_device");
  expect_key("[memory]\ntotal_budget = \"lots\"\n", "memory.total_budget");
  expect_key("[server]\nlog_level = \"loud\"\n", "server.log_level");
  expect_key("[server]\nlisten = \"0.0.0.0:9000\"\n", "server.listen");
  expect_key("[server]\nlisten = \"unix://relative.sock\"\n", "server.listen");
  expect_key("[pipeline]\nbackend = \"tpu\"\n", "pipeline.backend");
  expect_key("[pipeline]\nmatvec_on_device = \"yes\"\n", "pipeline.matvec_on_device");
  expect_key("[[circuits]]\nid = \"x\"\n", "circuits[0]");
  expect_key("[demo]\nlg_domain = 40\n", "demo.lg_domain");
  expect_key("[demo]\nzero_one_fraction = 2.0\n", "demo.zero_one_fraction");
  expect_key("[demo]\nid = \"\"\n", "demo.id");
  expect_key("[server\n", "t:");  // syntax error with its position
  auto remote = parse_config("[server]\nlisten = \"0.0.0.0:9000\"\nallow_remote = true\n", "t", env(), &w);
  ASSERT_TRUE(remote.ok());
  EXPECT_TRUE(validate_config(*remote).ok());
}

TEST(Config, TheDocumentedExampleParsesWithoutWarnings) {
  const char* src = std::getenv("CUZK_SOURCE_DIR");
  if (!src) GTEST_SKIP() << "CUZK_SOURCE_DIR not set";
  std::vector<std::string> warnings;
  auto c = load_config_file(std::string(src) + "/docs/config.example.toml", env(), &warnings);
  ASSERT_TRUE(c.ok()) << c.status().to_string();
  EXPECT_TRUE(warnings.empty()) << warnings[0];
  EXPECT_TRUE(validate_config(*c).ok());
  // Its values are the defaults.
  ServerConfig d = default_config(env());
  EXPECT_EQ(c->status_listen, d.status_listen);
  EXPECT_EQ(c->engine.total_budget_bytes, d.engine.total_budget_bytes);
  EXPECT_EQ(c->engine.workers_per_device, d.engine.workers_per_device);
  EXPECT_EQ(c->engine.eviction_min_idle_ms, d.engine.eviction_min_idle_ms);
  EXPECT_EQ(c->engine.result_retention_ms, d.engine.result_retention_ms);
  EXPECT_EQ(c->engine.cache_dir, d.engine.cache_dir);
  EXPECT_EQ(c->shutdown_grace_ms, d.shutdown_grace_ms);
  EXPECT_EQ(c->engine.circuits.size(), 1u);
}

TEST(Config, SizesMeanWhatTheCommandLineMeans) {
  // One parser (base/byte_size.h) for the file and for --vram-limit: binary
  // units whatever the spelling or case.
  for (const char* spelling : {"16G", "16g", "16GB", "16gb", "16GiB", "16 gib"}) {
    std::vector<std::string> w;
    auto c = parse_config(std::string("[pipeline]\nvram_limit = \"") + spelling + "\"\n", "t", env(), &w);
    ASSERT_TRUE(c.ok()) << spelling << ": " << c.status().to_string();
    EXPECT_EQ(c->engine.vram_limit_bytes, uint64_t(16) << 30) << spelling;
    EXPECT_EQ(c->engine.vram_limit_bytes, *parse_byte_size(spelling)) << spelling;
  }
  std::vector<std::string> w;
  auto c = parse_config("[pipeline]\nvram_limit = \"16 parsecs\"\n", "t", env(), &w);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("pipeline.vram_limit: \"16 parsecs\" is not a size"), std::string::npos)
      << c.status().message();
}

TEST(Config, ASectionThatIsNotATableIsAnError) {
  std::vector<std::string> w;
  for (const char* text : {"server = 5\n", "pipeline = \"x\"\n", "[[pipeline]]\nbackend = \"cuda\"\n"}) {
    auto c = parse_config(text, "t", env(), &w);
    ASSERT_FALSE(c.ok()) << text;
    EXPECT_EQ(c.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(c.status().message().find("expected a section"), std::string::npos) << c.status().message();
  }
}

TEST(Config, ADirectoryIsNotAConfigFile) {
  std::vector<std::string> w;
  auto c = load_config_file(::testing::TempDir(), env(), &w);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("is a directory"), std::string::npos) << c.status().message();
}

}  // namespace
}  // namespace cuzk::server

namespace cuzk::server {
namespace {

// Filecoin circuits: kind, sector size (a size string or bytes) and params or
// dev_seed; mistakes name the key.
TEST(Config, FilecoinCircuits) {
  std::vector<std::string> w;
  auto c = parse_config(
      "[[circuits]]\nid = \"p\"\nfilecoin = \"porep\"\nsector_size = \"32GiB\"\nparams = \"/x.params\"\n"
      "[[circuits]]\nid = \"w\"\nfilecoin = \"window-post\"\nsector_size = 2048\ndev_seed = 7\n",
      "t", ConfigEnv{}, &w);
  ASSERT_TRUE(c.ok()) << c.status().to_string();
  EXPECT_TRUE(w.empty());
  ASSERT_TRUE(validate_config(*c).ok()) << validate_config(*c).to_string();
  const auto& circuits = c->engine.circuits;
  ASSERT_GE(circuits.size(), 2u);
  EXPECT_EQ(circuits[0].filecoin.kind, "porep");
  EXPECT_EQ(circuits[0].filecoin.sector_size, uint64_t(32) << 30);
  EXPECT_FALSE(circuits[0].filecoin.dev_key);
  EXPECT_EQ(circuits[1].filecoin.sector_size, 2048u);
  EXPECT_TRUE(circuits[1].filecoin.dev_key);
  EXPECT_EQ(circuits[1].filecoin.dev_seed, 7u);
  auto expect_key = [&](const std::string& text, const std::string& key) {
    auto r = parse_config(text, "t", ConfigEnv{}, &w);
    Status s = r.ok() ? validate_config(*r) : r.status();
    ASSERT_FALSE(s.ok()) << text;
    EXPECT_NE(s.message().find(key), std::string::npos) << s.message();
  };
  expect_key("[[circuits]]\nid = \"a\"\nfilecoin = \"seal\"\nsector_size = 2048\ndev_seed = 1\n", ").filecoin: \"seal\"");
  expect_key("[[circuits]]\nid = \"a\"\nfilecoin = \"porep\"\ndev_seed = 1\n", ").sector_size");
  expect_key("[[circuits]]\nid = \"a\"\nfilecoin = \"porep\"\nsector_size = \"big\"\ndev_seed = 1\n",
             "circuits[0].sector_size: \"big\"");
  expect_key("[[circuits]]\nid = \"a\"\nfilecoin = \"porep\"\nsector_size = 2048\n", "params or dev_seed");
  expect_key("[[circuits]]\nid = \"a\"\nfilecoin = \"porep\"\nsector_size = 2048\nparams = \"/x\"\nr1cs = \"/y\"\n",
             "no zkey, r1cs");
}

}  // namespace
}  // namespace cuzk::server

namespace cuzk::server {
namespace {

// A value that stops the daemon is placed: the file and the line, before the
// key, as a compiler places an error.
TEST(Config, ErrorsNameTheFileAndTheLine) {
  std::vector<std::string> w;
  auto expect_at = [&](const std::string& text, const std::string& at) {
    auto c = parse_config(text, "/etc/cuzk/cuzk.toml", env(), &w);
    ASSERT_FALSE(c.ok()) << text;
    EXPECT_EQ(c.status().code(), StatusCode::kInvalidArgument);
    EXPECT_TRUE(c.status().message().starts_with(at)) << c.status().message();
  };
  expect_at("[server]\nlog_level = \"info\"\n\n[pipeline]\nworkers_per_device = 0\n",
            "/etc/cuzk/cuzk.toml:5: pipeline.workers_per_device: 0 is out of range");
  expect_at("[memory]\n\ntotal_budget = \"12XB\"\n", "/etc/cuzk/cuzk.toml:3: memory.total_budget: \"12XB\" is not a size");
  expect_at("[memory]\ntotal_budget = 0\n", "/etc/cuzk/cuzk.toml:2: memory.total_budget: must be > 0");
  expect_at("[server]\nmax_message_bytes = 10\n", "/etc/cuzk/cuzk.toml:2: server.max_message_bytes");
  expect_at("[jobs]\nself_verify = \"yes\"\n", "/etc/cuzk/cuzk.toml:2: jobs.self_verify: expected true or false");
  expect_at("[memory]\nbudget = \"1GiB\"\n", "/etc/cuzk/cuzk.toml:2: unknown key memory.budget");
  expect_at("\n[memroy]\n", "/etc/cuzk/cuzk.toml:2: unknown section [memroy]");
  expect_at("[[circuits]]\nid = \"a\"\nzkey = 5\n", "/etc/cuzk/cuzk.toml:3: circuits[0].zkey: expected a string");
  expect_at("[[circuits]]\nid = \"a\"\nfilecoin = \"porep\"\nsector_size = \"2XB\"\n",
            "/etc/cuzk/cuzk.toml:4: circuits[0].sector_size");
  expect_at("[[circuits]]\nid = \"a\"\nzkey = \"/a\"\nsize = 3\n", "/etc/cuzk/cuzk.toml:4: unknown key circuits[0].size");
}

// pipeline.devices takes what the engine takes; anything else is refused when
// the file is read, so that --check-config refuses it too.
TEST(Config, UnknownDeviceNamesAreRefusedWhenTheFileIsRead) {
  std::vector<std::string> w;
  for (const char* bad : {"gpu0", "cuda:x", "cuda:", "cpu,gpu", "cuda:123456"}) {
    auto c = parse_config(std::string("[pipeline]\ndevices = \"") + bad + "\"\n", "t", env(), &w);
    ASSERT_FALSE(c.ok()) << bad;
    EXPECT_NE(c.status().message().find("pipeline.devices: unknown device"), std::string::npos) << c.status().message();
  }
  for (const char* good : {"auto", "cpu", "cuda", "cuda:0", "cuda:0, cuda:1"}) {
    auto c = parse_config(std::string("[pipeline]\ndevices = \"") + good + "\"\n", "t", env(), &w);
    EXPECT_TRUE(c.ok()) << good << ": " << c.status().to_string();
  }
}

// A budget above the machine's memory is taken, with a warning: the budget
// then no longer holds partitions back before the system runs out.
TEST(Config, ABudgetAboveTheMachinesMemoryIsWarnedAbout) {
  std::vector<std::string> w;
  auto c = parse_config("[memory]\ntotal_budget = \"1TiB\"\n", "t", env(), &w);
  ASSERT_TRUE(c.ok()) << c.status().to_string();
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("memory.total_budget: 1099511627776 bytes is more than this machine's memory"), std::string::npos)
      << w[0];
  w.clear();
  ASSERT_TRUE(parse_config("[memory]\ntotal_budget = \"8GiB\"\n", "t", env(), &w).ok());
  EXPECT_TRUE(w.empty());
}

// A relative file name is opened from the daemon's working directory (/ under
// systemd), whatever directory the config was checked from: warned about.
TEST(Config, RelativePathsAreWarnedAbout) {
  std::vector<std::string> w;
  auto c = parse_config("[cache]\ndir = \"cache\"\n[[circuits]]\nid = \"a\"\nzkey = \"keys/a.zkey\"\n"
                        "check_r1cs = \"/k/a.r1cs\"\n",
                        "t", env(), &w);
  ASSERT_TRUE(c.ok()) << c.status().to_string();
  std::vector<std::string> warnings = config_warnings(*c, 2);
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_EQ(warnings[0].rfind("cache.dir: \"cache\" is a relative path", 0), 0u) << warnings[0];
  EXPECT_EQ(warnings[1].rfind("circuits[0].zkey: \"keys/a.zkey\" is a relative path", 0), 0u) << warnings[1];
}

// A config file that cannot be read says why.
TEST(Config, AConfigFileThatCannotBeReadSaysWhy) {
  std::vector<std::string> w;
  const std::string path = ::testing::TempDir() + "/no-such-cuzk-config.toml";
  auto c = load_config_file(path, env(), &w);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), StatusCode::kNotFound);
  EXPECT_NE(c.status().message().find(path + ": No such file or directory"), std::string::npos)
      << c.status().message();
}

// Whether `word` can be a key of ours: lower case, digits and '_'.
bool is_key_word(const std::string& word) {
  return !word.empty() && std::all_of(word.begin(), word.end(), [](char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_';
  });
}

// The keys docs/config.example.toml sets or shows, by section: lines
// "key = value" and "# key = value" whose value is a TOML value (a string,
// number, boolean), and in the comment on [[circuits]] (section "circuits")
// every "key = ..." it describes.
std::map<std::string, std::set<std::string>> documented_keys(const std::string& path) {
  std::ifstream in(path);
  std::map<std::string, std::set<std::string>> out;
  std::string line, section;
  while (std::getline(in, line)) {
    if (line.starts_with("[") && line.find(']') != std::string::npos) {
      section = line.substr(1, line.find(']') - 1);
      continue;
    }
    if (line.find("Registered circuits") != std::string::npos) section = "circuits";
    if (section.empty()) continue;  // the file's introduction
    std::istringstream words(line.starts_with("#") ? line.substr(1) : line);
    std::string word, previous, value;
    if (section == "circuits") {
      for (; words >> word; previous = word)
        if (word == "=" && is_key_word(previous)) out[section].insert(previous);
      continue;
    }
    if (words >> word >> previous >> value && previous == "=" && is_key_word(word) &&
        (value[0] == '"' || std::isdigit(static_cast<unsigned char>(value[0])) || value == "true" || value == "false"))
      out[section].insert(word);
  }
  return out;
}

// Every key the daemon reads is in the documented example, and every key the
// example shows (commented out or not) is one the daemon reads: a key missing
// there is one operators cannot find, a key only there one that does nothing.
TEST(Config, EveryKeyReadIsDocumentedAndEveryDocumentedKeyIsRead) {
  const char* src = std::getenv("CUZK_SOURCE_DIR");
  if (!src) GTEST_SKIP() << "CUZK_SOURCE_DIR not set";
  std::map<std::string, std::set<std::string>> documented =
      documented_keys(std::string(src) + "/docs/config.example.toml");
  ASSERT_FALSE(documented.empty());
  std::set<std::string> read;
  for (const std::string& k : config_keys()) {
    read.insert(k);
    const std::string section = k.substr(0, k.find('.')), key = k.substr(k.find('.') + 1);
    EXPECT_TRUE(documented[section].count(key)) << k << " is read but not in docs/config.example.toml";
  }
  for (const auto& [section, keys] : documented)
    for (const std::string& key : keys)
      EXPECT_TRUE(read.count(section + "." + key)) << section << "." << key << " is documented but not read";
}

}  // namespace
}  // namespace cuzk::server
