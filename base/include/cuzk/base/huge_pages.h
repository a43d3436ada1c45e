// Large buffers that are filled once and then read (decoded key points, MSM
// scratch) are advised for transparent huge pages before their first touch:
// the kernel then maps them 2 MiB at a time instead of taking one page fault
// per 4 KiB (Linux with THP in "madvise" mode, Debian's default). A one-shot
// 2^16 proof took 19 500 page faults, half of them in such buffers.
#pragma once

#include <cstddef>
#include <vector>

namespace cuzk {

// Advises the whole 2 MiB pages inside [data, data + bytes). Best effort:
// nothing happens for buffers under 2 MiB, where THP is off or unsupported,
// or when the kernel refuses. Thread-safe.
void advise_huge_pages(void* data, size_t bytes);

// n value-initialized elements whose storage was advised before it was
// touched (value-initialization is the first touch).
template <class T>
std::vector<T> huge_page_vector(size_t n) {
  std::vector<T> v;
  v.reserve(n);
  advise_huge_pages(v.data(), n * sizeof(T));
  v.resize(n);
  return v;
}

}  // namespace cuzk
