// cuzk's precompiled circuit file: the Circuit arrays as they lie in memory,
// so that loading is a mmap plus checks, with no per-element parsing.
//
// Layout (all integers little-endian; this build requires a little-endian host):
//   header, kPrecompiledHeaderBytes = 128 bytes:
//     0  magic "CUZKR1CS"       8  u32 version (1)     12 u32 header bytes (128)
//     16 u64 num_inputs          24 u64 num_aux         32 u64 num_constraints
//     40 u64 num_terms           48 u64 num_coeffs
//     56 u64 terms_offset        64 u64 offsets_offset  72 u64 coeffs_offset
//     80 u64 file_bytes          88 u64 payload checksum (checksum64 of bytes [128, file_bytes))
//     96 u64[3] reserved, zero   120 u64 header checksum (hash64 of bytes [0, 120), seed kHeaderSeed)
//   sections, each starting at the next multiple of 64 (zero padding), in this order:
//     terms    num_terms × {u32 var, u32 coeff index}
//     offsets  (3·num_constraints + 1) × u32 (circuit.h: row i, matrix m at 3i+m)
//     coeffs   num_coeffs × 32 bytes, Fr in Montgomery form, limbs little-endian
//   file_bytes = coeffs_offset + 32·num_coeffs.
// The terms come first so that a streaming writer can append them as rows
// arrive and add the offsets (spilled to a side file) and the table at the end.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "cuzk/base/bytes.h"
#include "cuzk/base/mapped_file.h"
#include "cuzk/base/status.h"
#include "cuzk/base/thread_pool.h"
#include "cuzk/r1cs/checksum.h"
#include "cuzk/r1cs/circuit.h"

namespace cuzk::r1cs {

inline constexpr char kPrecompiledMagic[8] = {'C', 'U', 'Z', 'K', 'R', '1', 'C', 'S'};
inline constexpr uint32_t kPrecompiledVersion = 1;
inline constexpr uint64_t kPrecompiledHeaderBytes = 128;
inline constexpr uint64_t kPrecompiledAlign = 64;
inline constexpr uint64_t kHeaderSeed = 0x63757a6b72316373ull;  // "cuzkr1cs"

struct PrecompiledHeader {
  uint32_t version = kPrecompiledVersion;
  CircuitShape shape;
  uint64_t num_terms = 0;
  uint64_t num_coeffs = 0;
  uint64_t terms_offset = 0;
  uint64_t offsets_offset = 0;
  uint64_t coeffs_offset = 0;
  uint64_t file_bytes = 0;
  uint64_t payload_checksum = 0;
};

// The header with the section offsets and file size implied by the counts.
// Errors: INVALID_ARGUMENT when a count exceeds the u32 limits of circuit.h.
StatusOr<PrecompiledHeader> precompiled_layout(CircuitShape shape, uint64_t num_terms, uint64_t num_coeffs);

// 128 header bytes, header checksum included.
void encode_precompiled_header(const PrecompiledHeader& header, uint8_t out[kPrecompiledHeaderBytes]);

// Decodes and checks the header against the actual file size: magic,
// version, header checksum, counts within limits, offsets as the counts
// imply, and file size. Never allocates by a count. Errors name the byte
// offset: INVALID_ARGUMENT (not our file, unsupported version), DATA_LOSS
// (truncated, corrupt header, counts that disagree with the file size).
StatusOr<PrecompiledHeader> parse_precompiled_header(ByteSpan file, uint64_t file_size);

struct LoadOptions {
  bool verify_checksum = true;  // one pass over the file (several GB/s per thread)
  bool validate = true;         // r1cs::validate: one pass over offsets and terms
  ThreadPool* pool = nullptr;   // for both passes
};

// Maps the file and returns a Circuit viewing it (the mapping lives as long
// as any copy of the Circuit). Errors as parse_precompiled_header, plus
// DATA_LOSS for a payload checksum mismatch and INVALID_ARGUMENT from
// validate(); every message starts with the path.
StatusOr<Circuit> load_precompiled(const std::string& path, const LoadOptions& options = {});
// The same over a file the caller mapped (and may watch: MappedFile::faulted()).
StatusOr<Circuit> load_precompiled(std::shared_ptr<const MappedFile> file, const LoadOptions& options = {});
StatusOr<PrecompiledHeader> read_precompiled_header(const std::string& path);

// Writes the circuit (atomic replace of `path`).
Status write_precompiled(const Circuit& circuit, const std::string& path);

// Writes a precompiled file row by row without holding the circuit: the
// terms go straight to the file, the row offsets to `<path>.offsets` (12
// bytes per row, removed at finish), the coefficient table stays in memory.
// Memory: the table plus a few MiB of buffers. Not thread-safe.
class PrecompiledWriter : public RowSink {
 public:
  // REQUIRES: num_inputs >= 1.
  static StatusOr<PrecompiledWriter> create(const std::string& path, uint64_t num_inputs, uint64_t num_aux);

  PrecompiledWriter(PrecompiledWriter&&) noexcept;
  PrecompiledWriter& operator=(PrecompiledWriter&&) noexcept;
  ~PrecompiledWriter() override;

  // RowSink: linear combinations are normalized as in CircuitBuilder.
  Status add_row(LinComb a, LinComb b, LinComb c) override;
  uint64_t num_rows() const { return rows_; }

  // Appends the offsets and the table, writes the header and publishes the
  // file. The writer is unusable afterwards.
  StatusOr<PrecompiledHeader> finish();

 private:
  PrecompiledWriter() = default;
  Status append(ByteSpan bytes);

  std::string path_;
  CircuitShape shape_;
  FileWriter file_;
  FileWriter offsets_file_;
  StreamingChecksum checksum_;
  CoeffInterner interner_;
  std::vector<LinTerm> scratch_;
  std::vector<Term> row_terms_;
  uint64_t rows_ = 0;
  uint64_t terms_ = 0;
  bool finished_ = false;
};

}  // namespace cuzk::r1cs
