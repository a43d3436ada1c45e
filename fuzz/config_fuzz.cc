// The daemon's TOML configuration: parse, validate, and the warnings.
#include "cuzk/server/config.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk;
  server::ConfigEnv env;
  env.home = "/home/fuzz";
  env.uid = 1000;
  env.mem_total_bytes = uint64_t(64) << 30;
  std::vector<std::string> warnings;
  auto c = server::parse_config(std::string(fuzz::text_of(data, size)), "fuzz.toml", env, &warnings);
  if (!c.ok()) return 0;
  if (server::validate_config(*c).ok()) server::config_warnings(*c, 2);
  return 0;
}
