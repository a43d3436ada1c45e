// 192-byte proofs (one, or a concatenation of several).
#include "cuzk/io/bellperson.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk;
  ByteSpan bytes = fuzz::bytes_of(data, size);
  if (size >= io::kProofBytes) io::parse_proof(bytes.first(io::kProofBytes)).status().ignore();
  io::parse_proofs(bytes).status().ignore();
  return 0;
}
