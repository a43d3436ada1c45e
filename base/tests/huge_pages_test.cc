// huge_page_vector: value-initialized storage of the size asked for, the
// advice best effort (buffers under 2 MiB, null and unaligned pointers).
#include <gtest/gtest.h>

#include <array>
#include <random>

#include "cuzk/base/huge_pages.h"

namespace cuzk {
namespace {

TEST(HugePages, VectorsAreValueInitializedWhateverTheirSize) {
  std::mt19937_64 rng(std::random_device{}());
  for (size_t n : {size_t(0), size_t(1), size_t(1000), size_t(3) << 20, (size_t(5) << 20) + rng() % 4096}) {
    auto v = huge_page_vector<std::array<uint64_t, 12>>(n);
    ASSERT_EQ(v.size(), n);
    for (size_t i = 0; i < n; i += 1 + rng() % 997)
      for (uint64_t w : v[i]) ASSERT_EQ(w, 0u) << i;
    if (n > 0) v[n - 1][11] = 7;  // the whole range is writable
  }
  advise_huge_pages(nullptr, size_t(8) << 20);
  std::vector<uint8_t> small(100);
  advise_huge_pages(small.data() + 1, small.size() - 1);
}

}  // namespace
}  // namespace cuzk
