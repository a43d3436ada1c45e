// snarkjs .zkey: the container, the Groth16 header and the whole key (points
// on the curve with canonical coordinates, sections, coefficients).
#include "cuzk/io/zkey.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk;
  ByteSpan bytes = fuzz::bytes_of(data, size);
  auto container = io::parse_iden3_container(bytes, "zkey");
  if (container.ok()) io::parse_zkey_header(bytes, *container).status().ignore();
  static ThreadPool pool(1);
  io::ReadOptions options;
  options.check_points = size % 8 == 0;  // the subgroup checks are slow: on for some inputs
  options.pool = &pool;
  io::parse_zkey(bytes, options).status().ignore();
  return 0;
}
