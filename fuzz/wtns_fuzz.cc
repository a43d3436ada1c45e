// circom .wtns: the daemon's submit-time check (engine's check_wtns_header)
// and the full decode a preparation worker runs. What the check accepts,
// the decode must accept too unless a value is out of range.
#include <cstdlib>

#include "../engine/src/witness_header.h"
#include "cuzk/io/circom.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk;
  ByteSpan bytes = fuzz::bytes_of(data, size);
  auto values = io::parse_wtns(bytes);
  const uint64_t claimed = size >= 64 ? load_u32le(data + 60) : 0;  // nWitness in a well-formed header
  Status checked = engine::check_wtns_header(bytes, claimed);
  if (checked.ok() && !values.ok() && values.status().message().find("not reduced") == std::string::npos &&
      values.status().message().find("ONE") == std::string::npos)
    std::abort();  // the submit check let through what the decode refuses
  return 0;
}
