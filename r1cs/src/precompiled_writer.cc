#include <unistd.h>

#include <cstring>
#include <string>

#include "cuzk/r1cs/precompiled.h"

namespace cuzk::r1cs {
namespace {

constexpr uint64_t kU32Limit = 0xffffffffull;

template <class T>
ByteSpan as_bytes(std::span<const T> xs) {
  return ByteSpan(reinterpret_cast<const uint8_t*>(xs.data()), xs.size_bytes());
}

// Appends to a file while feeding the payload checksum.
struct ChecksummedOut {
  FileWriter& file;
  StreamingChecksum& checksum;

  Status put(ByteSpan bytes) {
    checksum.update(bytes);
    return file.write(bytes);
  }
  // Zero padding up to `offset`. REQUIRES: offset >= bytes written.
  Status pad_to(uint64_t offset) {
    static const uint8_t kZeros[kPrecompiledAlign] = {};
    while (file.bytes_written() < offset) {
      const uint64_t n = std::min<uint64_t>(offset - file.bytes_written(), sizeof(kZeros));
      RETURN_IF_ERROR(put(ByteSpan(kZeros, size_t(n))));
    }
    return ok_status();
  }
};

Status finish_file(FileWriter& file, PrecompiledHeader header, const StreamingChecksum& checksum) {
  if (file.bytes_written() != header.file_bytes) {
    return internal_error("precompiled writer wrote " + std::to_string(file.bytes_written()) + " bytes, expected " +
                          std::to_string(header.file_bytes));
  }
  header.payload_checksum = checksum.finish();
  uint8_t bytes[kPrecompiledHeaderBytes];
  encode_precompiled_header(header, bytes);
  RETURN_IF_ERROR(file.write_at(0, ByteSpan(bytes, sizeof(bytes))));
  return file.commit();
}

// Removes a file when the scope ends.
struct Unlinker {
  std::string path;
  ~Unlinker() {
    if (!path.empty()) ::unlink(path.c_str());
  }
};

}  // namespace

Status write_precompiled(const Circuit& circuit, const std::string& path) {
  ASSIGN_OR_RETURN(PrecompiledHeader header,
                   precompiled_layout(circuit.shape(), circuit.terms().size(), circuit.coeffs().size()));
  ASSIGN_OR_RETURN(FileWriter file, FileWriter::create(path));
  RETURN_IF_ERROR(file.write_zeros(kPrecompiledHeaderBytes));
  StreamingChecksum checksum;
  ChecksummedOut out{file, checksum};
  RETURN_IF_ERROR(out.put(as_bytes(circuit.terms())));
  RETURN_IF_ERROR(out.pad_to(header.offsets_offset));
  RETURN_IF_ERROR(out.put(as_bytes(circuit.offsets())));
  RETURN_IF_ERROR(out.pad_to(header.coeffs_offset));
  RETURN_IF_ERROR(out.put(as_bytes(circuit.coeffs())));
  return finish_file(file, header, checksum);
}

StatusOr<PrecompiledWriter> PrecompiledWriter::create(const std::string& path, uint64_t num_inputs,
                                                      uint64_t num_aux) {
  if (num_inputs == 0) return invalid_argument("num_inputs is 0: the ONE input is missing");
  if (num_inputs + num_aux > kU32Limit + 1) return invalid_argument("num_inputs + num_aux exceeds 2^32");
  PrecompiledWriter w;
  w.path_ = path;
  w.shape_.num_inputs = num_inputs;
  w.shape_.num_aux = num_aux;
  ASSIGN_OR_RETURN(w.file_, FileWriter::create(path));
  ASSIGN_OR_RETURN(w.offsets_file_, FileWriter::create(path + ".offsets"));
  RETURN_IF_ERROR(w.file_.write_zeros(kPrecompiledHeaderBytes));
  uint8_t zero[4] = {};
  RETURN_IF_ERROR(w.offsets_file_.write(ByteSpan(zero, 4)));
  return w;
}

PrecompiledWriter::PrecompiledWriter(PrecompiledWriter&&) noexcept = default;
PrecompiledWriter& PrecompiledWriter::operator=(PrecompiledWriter&&) noexcept = default;
PrecompiledWriter::~PrecompiledWriter() = default;

Status PrecompiledWriter::append(ByteSpan bytes) {
  checksum_.update(bytes);
  return file_.write(bytes);
}

Status PrecompiledWriter::add_row(LinComb a, LinComb b, LinComb c) {
  if (finished_) return failed_precondition("add_row after finish");
  const LinComb lcs[3] = {a, b, c};
  const char* names[3] = {"A", "B", "C"};
  uint8_t ends[12];
  row_terms_.clear();
  for (int m = 0; m < 3; ++m) {
    Status s = normalize_lincomb(lcs[m], shape_.num_vars(), interner_, scratch_, row_terms_);
    if (!s.ok()) return s.with_context("row " + std::to_string(rows_) + " " + names[m]);
    if (terms_ + row_terms_.size() > kU32Limit) {
      return invalid_argument("row " + std::to_string(rows_) + ": more than 2^32-1 non-zeros in the circuit");
    }
    store_u32le(ends + 4 * m, uint32_t(terms_ + row_terms_.size()));
  }
  if (rows_ == kU32Limit) return invalid_argument("more than 2^32-1 constraints");
  RETURN_IF_ERROR(append(as_bytes(std::span<const Term>(row_terms_))));
  RETURN_IF_ERROR(offsets_file_.write(ByteSpan(ends, sizeof(ends))));
  terms_ += row_terms_.size();
  ++rows_;
  return ok_status();
}

StatusOr<PrecompiledHeader> PrecompiledWriter::finish() {
  if (finished_) return failed_precondition("finish called twice");
  finished_ = true;
  CircuitShape shape = shape_;
  shape.num_constraints = rows_;
  ASSIGN_OR_RETURN(PrecompiledHeader header, precompiled_layout(shape, terms_, interner_.table().size()));
  ChecksummedOut out{file_, checksum_};
  RETURN_IF_ERROR(out.pad_to(header.offsets_offset));
  {
    RETURN_IF_ERROR(offsets_file_.commit());
    Unlinker remove_offsets{path_ + ".offsets"};
    ASSIGN_OR_RETURN(MappedFile offsets, MappedFile::open(remove_offsets.path));
    if (offsets.size() != 4 * (3 * rows_ + 1)) {
      return internal_error("offsets side file has " + std::to_string(offsets.size()) + " bytes, expected " +
                            std::to_string(4 * (3 * rows_ + 1)));
    }
    offsets.advise_sequential();
    RETURN_IF_ERROR(out.put(offsets.bytes()));
  }
  RETURN_IF_ERROR(out.pad_to(header.coeffs_offset));
  RETURN_IF_ERROR(out.put(as_bytes(std::span<const Fr>(interner_.table()))));
  RETURN_IF_ERROR(finish_file(file_, header, checksum_));
  return header;
}

}  // namespace cuzk::r1cs
