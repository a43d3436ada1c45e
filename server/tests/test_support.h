// Shared fixtures for the daemon tests: the daemon's test configuration
// (the demo circuit at 2^8), starting it with the demo witness and
// verifying key at hand, and the check of a proof it returns.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "cuzk/engine/circuit_source.h"
#include "cuzk/groth16/verifier.h"
#include "cuzk/io/bellperson.h"
#include "cuzk/io/snarkjs_json.h"
#include "cuzk/server/config.h"
#include "cuzk/server/server.h"

namespace cuzk::server::testing {

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The daemon the tests start: gRPC on `listen`, /status on any free
// loopback port, the cache in `dir`/cache, a 1 GiB budget, two prover
// threads and the demo circuit at 2^8 with two public inputs.
inline ServerConfig demo_config(const std::string& dir, const std::string& listen) {
  ServerConfig c = default_config(read_config_env());
  c.listen = listen;
  c.status_listen = "127.0.0.1:0";
  c.engine.cache_dir = dir + "/cache";
  c.engine.total_budget_bytes = uint64_t(1) << 30;
  c.engine.prover_threads = 2;
  c.engine.circuits[0].demo_spec.lg_domain = 8;
  c.engine.circuits[0].demo_spec.num_public_inputs = 2;
  return c;
}

// Starts the daemon of `c` (whose first circuit is the demo circuit) into
// *server, waits until its circuits are loaded, and reads the demo circuit's
// witness (the .wtns bytes) and verifying key. A failure fails the test:
// callers ASSERT_NO_FATAL_FAILURE.
inline void start_demo_daemon(const ServerConfig& c, std::unique_ptr<Server>* server, std::string* wtns,
                              groth16::VerifyingKey* vk) {
  auto s = Server::start(c);
  ASSERT_TRUE(s.ok()) << s.status().to_string();
  *server = std::move(*s);
  ASSERT_TRUE((*server)->engine().wait_for_circuits(std::chrono::minutes(5)));
  engine::DemoFiles f = engine::demo_files(c.engine.circuits[0].demo_spec, c.engine.cache_dir);
  *wtns = read_file(f.wtns);
  auto key = io::read_vk_json(f.vk_json);
  ASSERT_TRUE(key.ok()) << key.status().to_string();
  *vk = *key;
}

// One 32-byte big-endian public input, as the engine (std::array) or the
// wire (std::string) carries it.
template <typename Bytes>
ff::Fr public_input(const Bytes& be) {
  std::array<uint8_t, 32> b{};
  EXPECT_EQ(be.size(), 32u);
  std::copy_n(be.begin(), std::min<size_t>(32, be.size()), b.begin());
  auto x = ff::Fr::from_bytes_be(b);
  EXPECT_TRUE(x.ok()) << x.status().to_string();
  return x.ok() ? *x : ff::Fr::zero();
}

// A 192-byte proof the daemon returned verifies against `vk` with these
// public inputs.
template <typename Inputs>
void expect_verifies(const groth16::VerifyingKey& vk, const std::string& proof, const Inputs& public_inputs) {
  ASSERT_EQ(proof.size(), 192u);
  auto p = io::parse_proof(ByteSpan(reinterpret_cast<const uint8_t*>(proof.data()), 192));
  ASSERT_TRUE(p.ok()) << p.status().to_string();
  std::vector<ff::Fr> pub;
  for (const auto& b : public_inputs) pub.push_back(public_input(b));
  auto ok = groth16::verify(vk, pub, *p);
  ASSERT_TRUE(ok.ok()) << ok.status().to_string();
  EXPECT_TRUE(*ok);
}

}  // namespace cuzk::server::testing
