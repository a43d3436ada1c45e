// circom .r1cs: the header alone, then the whole circuit.
#include "cuzk/io/circom.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk;
  ByteSpan bytes = fuzz::bytes_of(data, size);
  io::parse_circom_r1cs_header(bytes).status().ignore();
  io::parse_circom_r1cs(bytes).status().ignore();
  return 0;
}
