// bellperson .params: the layout scan, then the full decode with density
// bitmaps made to agree with the counts the file claims (so that the point
// decoding is reached, not only the consistency checks).
#include "cuzk/io/bellperson.h"
#include "fuzz_util.h"

namespace {

cuzk::r1cs::Bitmap first_bits_set(uint64_t bits, uint64_t set) {
  cuzk::r1cs::Bitmap b(bits);
  set = std::min(set, bits);
  for (uint64_t i = 0; i < set; ++i) b.words[i / 64] |= uint64_t(1) << (i % 64);
  b.popcount = set;
  return b;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk;
  ByteSpan bytes = fuzz::bytes_of(data, size);
  auto layout = io::scan_params(bytes);
  if (!layout.ok()) return 0;
  // Bitmaps sized by the claims, never larger than the file could describe.
  const uint64_t inputs = layout->ic_len, aux = layout->l.count;
  if (inputs + aux > (uint64_t(1) << 20)) return 0;
  r1cs::DensityBitmaps d;
  d.a_input = first_bits_set(inputs, inputs);
  d.a_aux = first_bits_set(aux, layout->a.count > inputs ? layout->a.count - inputs : 0);
  d.b_input = first_bits_set(inputs, layout->b_g1.count);
  d.b_aux = first_bits_set(aux, layout->b_g1.count > inputs ? layout->b_g1.count - inputs : 0);
  static ThreadPool pool(1);
  io::ParamsReadOptions options;
  options.check_subgroup = size % 8 == 0;
  options.pool = &pool;
  io::parse_params(bytes, d, options).status().ignore();
  return 0;
}
