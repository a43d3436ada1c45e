// bellperson .vk (verifying key), with and without subgroup checks.
#include "cuzk/io/bellperson.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk;
  ByteSpan bytes = fuzz::bytes_of(data, size);
  io::parse_vk(bytes, ec::SubgroupCheck::kCheck).status().ignore();
  if (size % 4 == 0) io::parse_vk(bytes, ec::SubgroupCheck::kSkip).status().ignore();
  return 0;
}
