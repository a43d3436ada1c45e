#include "cuzk/base/random.h"

#include <sys/random.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <system_error>

namespace cuzk {

Status OsRng::try_fill(void* buf, size_t bytes) const {
  auto* p = static_cast<unsigned char*>(buf);
  while (bytes > 0) {
    long n = source_ ? source_(p, bytes, 0) : long(getrandom(p, bytes, 0));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int e = n < 0 ? errno : EIO;
      return Status(StatusCode::kUnavailable,
                    "the OS random number generator failed (getrandom: " + std::string(std::strerror(e)) + ")");
    }
    p += n;
    bytes -= size_t(n);
  }
  return ok_status();
}

OsRng::result_type OsRng::operator()() {
  uint64_t v;
  Status s = try_fill(&v, sizeof v);
  if (!s.ok()) throw std::system_error(std::make_error_code(std::errc::io_error), s.message());
  return v;
}

uint64_t fresh_test_seed() {
  uint64_t s = OsRng()();
  std::printf("seed %llu\n", static_cast<unsigned long long>(s));
  std::fflush(stdout);
  return s;
}

TestRng::TestRng(uint64_t seed) {
  for (auto& s : s_) {
    seed += 0x9e3779b97f4a7c15ull;
    uint64_t z = seed;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    s = z ^ (z >> 31);
  }
}

TestRng::result_type TestRng::operator()() {
  auto rotl = [](uint64_t x, int k) { return (x << k) | (x >> (64 - k)); };
  uint64_t result = rotl(s_[1] * 5, 7) * 9;
  uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

}  // namespace cuzk
