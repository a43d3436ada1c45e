#include "cuzk/groth16/backend.h"

#include <string>

#include "cuzk/groth16/lane_util.h"

namespace cuzk::groth16 {

std::string_view fallback_name(Fallback f) {
  switch (f) {
    case Fallback::kPageableUpload: return "pageable_upload";
    case Fallback::kPinnedAlloc: return "pinned_alloc";
    case Fallback::kKeyStreamed: return "key_streamed";
    case Fallback::kPlainPath: return "plain_path";
    case Fallback::kDeviceError: return "device_error";
    case Fallback::kHostMatvec: return "host_matvec";
  }
  return "unknown";
}

double LaneTimes::total_ms() const {
  double t = 0;
  for (const auto& [name, ms] : stages_ms)
    if (!name.starts_with(kBeside)) t += ms;
  return t;
}

bool LaneTimes::overlapped() const {
  for (const auto& [name, ms] : stages_ms)
    if (name.starts_with(kBeside)) return true;
  return false;
}

double LaneTimes::get(std::string_view stage) const {
  double t = 0;
  for (const auto& [name, ms] : stages_ms)
    if (name == stage || (name.size() > stage.size() && name.compare(0, stage.size(), stage) == 0 &&
                          name[stage.size()] == '.'))
      t += ms;
  return t;
}

StatusOr<HostBuffer> Backend::allocate_inputs(size_t n) {
  if (n == 0) return HostBuffer();
  Fr* p = new (std::nothrow) Fr[n];
  if (p == nullptr) return resource_exhausted("cannot allocate " + std::to_string(n * sizeof(Fr)) + " bytes of host memory");
  return HostBuffer(p, n, false, [](Fr* q) { delete[] q; });
}

Status check_inputs(const ProvingKey& pk, const ProofInputs& in, bool rows_optional) {
  const uint64_t n = pk.domain_size();
  if (!in.rows_given() && !rows_optional)
    return invalid_argument("no row values (a, b, c) were given, and the key was not attached with its circuit");
  if (in.rows_given() && (in.a.size() != n || in.b.size() != n || in.c.size() != n))
    return invalid_argument("row values have " + std::to_string(in.a.size()) + "/" + std::to_string(in.b.size()) +
                            "/" + std::to_string(in.c.size()) + " entries; the key's domain is " + std::to_string(n));
  if (in.witness.size() != pk.num_vars())
    return invalid_argument("witness has " + std::to_string(in.witness.size()) + " values; the key expects " +
                            std::to_string(pk.num_vars()));
  return ok_status();
}

std::vector<uint32_t> density_index(const r1cs::Bitmap& density) {
  std::vector<uint32_t> out;
  out.reserve(density.popcount);
  for (size_t word = 0; word < density.words.size(); ++word) {
    uint64_t bits = density.words[word];
    while (bits) {
      const uint64_t i = word * 64 + uint64_t(__builtin_ctzll(bits));
      bits &= bits - 1;
      if (i < density.bit_len) out.push_back(uint32_t(i));
    }
  }
  return out;
}

}  // namespace cuzk::groth16
