// Helpers shared by the key-file readers and writers of io/ (not public API):
// bounds-checked cursors, parallel decode with deterministic error reports,
// and chunked parallel encoding into a FileWriter.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <functional>
#include <limits>
#include <mutex>
#include <string>
#include <vector>

#include "cuzk/base/bytes.h"
#include "cuzk/base/mapped_file.h"
#include "cuzk/base/status.h"
#include "cuzk/base/thread_pool.h"
#include "cuzk/r1cs/density.h"

namespace cuzk::io::internal {

inline ThreadPool& pool_or_default(ThreadPool* pool) { return pool != nullptr ? *pool : default_thread_pool(); }

inline std::string at_offset(uint64_t offset) { return " (byte offset " + std::to_string(offset) + ")"; }

inline constexpr uint64_t kNoIndex = ~uint64_t(0);

// "name" or "name[index]", built only when an error is reported.
inline std::string element_name(const char* name, uint64_t index) {
  std::string s(name);
  if (index != kNoIndex) {
    s.push_back('[');
    s += std::to_string(index);
    s.push_back(']');
  }
  return s;
}

// Runs fn(i) for every i in [0, count) on `pool` and returns the error of the
// smallest failing i (deterministic whatever the scheduling), or OK. Chunks
// stop early once an error at a smaller index is known.
inline Status parallel_try(ThreadPool& pool, uint64_t count, size_t min_chunk,
                           const std::function<Status(uint64_t)>& fn) {
  std::atomic<uint64_t> first{std::numeric_limits<uint64_t>::max()};
  std::mutex mu;
  Status first_status;  // GUARDED_BY(mu)
  pool.parallel_for(size_t(count), min_chunk, [&](size_t begin, size_t end) {
    for (uint64_t i = begin; i < end && i < first.load(std::memory_order_relaxed); ++i) {
      Status s = fn(i);
      if (s.ok()) continue;
      std::lock_guard<std::mutex> lock(mu);
      if (i < first.load(std::memory_order_relaxed)) {
        first.store(i, std::memory_order_relaxed);
        first_status = std::move(s);
      }
      return;
    }
  });
  return first_status;
}

// Writes `count` records of `record_bytes` each, record i produced by
// fill(i, out) on the pool, in batches of about 4 MiB.
inline Status write_records(FileWriter& writer, uint64_t count, size_t record_bytes, ThreadPool& pool,
                            const std::function<Status(uint64_t, uint8_t*)>& fill) {
  const uint64_t batch = std::max<uint64_t>(1, (uint64_t(4) << 20) / record_bytes);
  std::vector<uint8_t> buffer(size_t(std::min(batch, count)) * record_bytes);
  for (uint64_t start = 0; start < count; start += batch) {
    const uint64_t n = std::min(batch, count - start);
    RETURN_IF_ERROR(parallel_try(
        pool, n, 1024, [&](uint64_t i) { return fill(start + i, buffer.data() + size_t(i) * record_bytes); }));
    RETURN_IF_ERROR(writer.write(ByteSpan(buffer.data(), size_t(n) * record_bytes)));
  }
  return ok_status();
}

// Bitmap over `count` records of `record_bytes` at `data`: bit i set iff
// record i has a non-zero byte (snarkjs writes absent points as all zeros).
// REQUIRES: record_bytes is a multiple of 8.
inline r1cs::Bitmap nonzero_records(const uint8_t* data, uint64_t count, size_t record_bytes, ThreadPool& pool) {
  r1cs::Bitmap map(count);
  const uint64_t words = map.words.size();
  pool.parallel_for(size_t(words), 256, [&](size_t wb, size_t we) {
    for (size_t w = wb; w < we; ++w) {
      uint64_t bits = 0;
      const uint64_t end = std::min<uint64_t>(count, (w + 1) * 64);
      for (uint64_t i = w * 64; i < end; ++i) {
        const uint8_t* p = data + i * record_bytes;
        uint64_t any = 0;
        for (size_t k = 0; k + 8 <= record_bytes; k += 8) any |= load_u64le(p + k);
        if (any != 0) bits |= uint64_t(1) << (i % 64);
      }
      map.words[w] = bits;
    }
  });
  uint64_t pop = 0;
  for (uint64_t w : map.words) pop += uint64_t(std::popcount(w));
  map.popcount = pop;
  return map;
}

// rank[w] = number of set bits in words [0, w); rank.size() = words + 1.
inline std::vector<uint64_t> bitmap_ranks(const r1cs::Bitmap& map) {
  std::vector<uint64_t> rank(map.words.size() + 1, 0);
  for (size_t w = 0; w < map.words.size(); ++w) rank[w + 1] = rank[w] + uint64_t(std::popcount(map.words[w]));
  return rank;
}

// Index of bit i among the set bits. REQUIRES: map.test(i).
inline uint64_t rank_of(const std::vector<uint64_t>& rank, const r1cs::Bitmap& map, uint64_t i) {
  const uint64_t below = map.words[i / 64] & ((uint64_t(1) << (i % 64)) - 1);
  return rank[i / 64] + uint64_t(std::popcount(below));
}

// Sets bits [from, from + src.bit_len) of dst from src.
inline void copy_bits(const r1cs::Bitmap& src, uint64_t from, r1cs::Bitmap& dst) {
  for (uint64_t i = 0; i < src.bit_len; ++i) {
    if (src.test(i)) dst.words[(from + i) / 64] |= uint64_t(1) << ((from + i) % 64);
  }
}

inline void recount(r1cs::Bitmap& map) {
  uint64_t pop = 0;
  for (uint64_t w : map.words) pop += uint64_t(std::popcount(w));
  map.popcount = pop;
}

}  // namespace cuzk::io::internal
