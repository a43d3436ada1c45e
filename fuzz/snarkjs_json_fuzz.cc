// snarkjs JSON: verification_key.json, proof.json and public.json.
#include "cuzk/io/snarkjs_json.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk;
  std::string_view text = fuzz::text_of(data, size);
  io::vk_from_json(text).status().ignore();
  io::proof_from_json(text).status().ignore();
  io::public_inputs_from_json(text).status().ignore();
  return 0;
}
