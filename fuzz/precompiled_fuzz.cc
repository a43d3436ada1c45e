// cuzk's precompiled circuit file. Two ways in: the input as the whole file
// (header checks), or the input as the payload behind a header built for
// counts taken from its first bytes, with both checksums made right, so that
// validate() sees arbitrary offsets, terms and coefficients.
#include <cstring>

#include "cuzk/base/mapped_file.h"
#include "cuzk/r1cs/checksum.h"
#include "cuzk/r1cs/precompiled.h"
#include "fuzz_util.h"

namespace {

using namespace cuzk;

void load(const uint8_t* data, size_t size) {
  fuzz::MemFile file(data, size);
  if (!file.ok()) return;
  auto mapped = MappedFile::open(file.path());
  if (!mapped.ok()) return;
  r1cs::LoadOptions options;
  auto circuit = r1cs::load_precompiled(std::make_shared<const MappedFile>(std::move(*mapped)), options);
  circuit.status().ignore();
}

void load_as_payload(const uint8_t* data, size_t size) {
  if (size < 8) return;
  r1cs::CircuitShape shape;
  shape.num_inputs = 1 + data[0] % 4;
  shape.num_aux = data[1] % 16;
  shape.num_constraints = data[2] % 16;
  auto header = r1cs::precompiled_layout(shape, data[3] % 64, 1 + data[4] % 8);
  if (!header.ok() || header->file_bytes > (1 << 16)) return;
  std::vector<uint8_t> file(header->file_bytes, 0);
  size_t payload = file.size() - r1cs::kPrecompiledHeaderBytes;
  std::memcpy(file.data() + r1cs::kPrecompiledHeaderBytes, data + 8, std::min(payload, size - 8));
  header->payload_checksum = r1cs::checksum64(ByteSpan(file).subspan(r1cs::kPrecompiledHeaderBytes));
  r1cs::encode_precompiled_header(*header, file.data());
  load(file.data(), file.size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 0 && data[0] == 'C') load(data, size);  // "CUZKR1CS..."
  else load_as_payload(data, size);
  return 0;
}
