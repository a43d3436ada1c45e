#include <bit>
#include <cstring>
#include <string>

#include "cuzk/r1cs/eval.h"
#include "cuzk/r1cs/precompiled.h"

namespace cuzk::r1cs {

static_assert(std::endian::native == std::endian::little, "precompiled files are mapped as little-endian arrays");
static_assert(sizeof(Fr) == 32 && sizeof(Term) == 8);

namespace {

constexpr uint64_t kU32Limit = 0xffffffffull;

// Byte offsets of the header fields.
enum : size_t {
  kMagicAt = 0, kVersionAt = 8, kHeaderBytesAt = 12, kInputsAt = 16, kAuxAt = 24, kConstraintsAt = 32,
  kTermsAt = 40, kCoeffsAt = 48, kTermsOffsetAt = 56, kOffsetsOffsetAt = 64, kCoeffsOffsetAt = 72,
  kFileBytesAt = 80, kPayloadChecksumAt = 88, kReservedAt = 96, kHeaderChecksumAt = 120,
};

uint64_t align_up(uint64_t x) { return (x + kPrecompiledAlign - 1) / kPrecompiledAlign * kPrecompiledAlign; }

std::string at(size_t offset) { return " at byte " + std::to_string(offset); }

Status check_offset(const char* name, size_t field_at, uint64_t stored, uint64_t expected) {
  if (stored == expected) return ok_status();
  return data_loss(std::string(name) + at(field_at) + " is " + std::to_string(stored) + ", the counts imply " +
                   std::to_string(expected) + ": the header is inconsistent");
}

// Names the section that a file of `size` bytes cuts short.
std::string cut_section(const PrecompiledHeader& h, uint64_t size) {
  if (size < h.offsets_offset) return "section 'terms' [" + std::to_string(h.terms_offset) + ", " +
                                      std::to_string(h.terms_offset + 8 * h.num_terms) + ")";
  if (size < h.coeffs_offset) return "section 'offsets' [" + std::to_string(h.offsets_offset) + ", " +
                                     std::to_string(h.offsets_offset + 4 * (3 * h.shape.num_constraints + 1)) + ")";
  return "section 'coeffs' [" + std::to_string(h.coeffs_offset) + ", " + std::to_string(h.file_bytes) + ")";
}

Status check_layout(const PrecompiledHeader& h, uint64_t file_size) {
  auto expected = precompiled_layout(h.shape, h.num_terms, h.num_coeffs);
  if (!expected.ok()) return data_loss("counts" + at(kInputsAt) + ": " + expected.status().message());
  RETURN_IF_ERROR(check_offset("terms_offset", kTermsOffsetAt, h.terms_offset, expected->terms_offset));
  RETURN_IF_ERROR(check_offset("offsets_offset", kOffsetsOffsetAt, h.offsets_offset, expected->offsets_offset));
  RETURN_IF_ERROR(check_offset("coeffs_offset", kCoeffsOffsetAt, h.coeffs_offset, expected->coeffs_offset));
  RETURN_IF_ERROR(check_offset("file_bytes", kFileBytesAt, h.file_bytes, expected->file_bytes));
  if (file_size < h.file_bytes) {
    return data_loss("truncated" + at(file_size) + ": the header declares " + std::to_string(h.file_bytes) +
                     " bytes; " + cut_section(h, file_size) + " is cut short");
  }
  if (file_size > h.file_bytes) {
    return data_loss(std::to_string(file_size - h.file_bytes) + " unexpected trailing bytes" + at(h.file_bytes));
  }
  return ok_status();
}

}  // namespace

StatusOr<PrecompiledHeader> precompiled_layout(CircuitShape shape, uint64_t num_terms, uint64_t num_coeffs) {
  if (shape.num_inputs == 0) return invalid_argument("num_inputs is 0: the ONE input is missing");
  if (shape.num_inputs > kU32Limit + 1 || shape.num_aux > kU32Limit + 1 || shape.num_vars() > kU32Limit + 1) {
    return invalid_argument("num_inputs + num_aux exceeds 2^32");
  }
  if (shape.num_constraints > kU32Limit) {
    return invalid_argument("num_constraints " + std::to_string(shape.num_constraints) + " exceeds 2^32-1");
  }
  if (num_terms > kU32Limit) return invalid_argument("num_terms " + std::to_string(num_terms) + " exceeds 2^32-1");
  if (num_coeffs > kU32Limit + 1) return invalid_argument("num_coeffs " + std::to_string(num_coeffs) + " exceeds 2^32");
  PrecompiledHeader h;
  h.shape = shape;
  h.num_terms = num_terms;
  h.num_coeffs = num_coeffs;
  h.terms_offset = kPrecompiledHeaderBytes;
  h.offsets_offset = align_up(h.terms_offset + 8 * num_terms);
  h.coeffs_offset = align_up(h.offsets_offset + 4 * (3 * shape.num_constraints + 1));
  h.file_bytes = h.coeffs_offset + 32 * num_coeffs;
  return h;
}

void encode_precompiled_header(const PrecompiledHeader& h, uint8_t out[kPrecompiledHeaderBytes]) {
  std::memset(out, 0, kPrecompiledHeaderBytes);
  std::memcpy(out + kMagicAt, kPrecompiledMagic, 8);
  store_u32le(out + kVersionAt, h.version);
  store_u32le(out + kHeaderBytesAt, uint32_t(kPrecompiledHeaderBytes));
  store_u64le(out + kInputsAt, h.shape.num_inputs);
  store_u64le(out + kAuxAt, h.shape.num_aux);
  store_u64le(out + kConstraintsAt, h.shape.num_constraints);
  store_u64le(out + kTermsAt, h.num_terms);
  store_u64le(out + kCoeffsAt, h.num_coeffs);
  store_u64le(out + kTermsOffsetAt, h.terms_offset);
  store_u64le(out + kOffsetsOffsetAt, h.offsets_offset);
  store_u64le(out + kCoeffsOffsetAt, h.coeffs_offset);
  store_u64le(out + kFileBytesAt, h.file_bytes);
  store_u64le(out + kPayloadChecksumAt, h.payload_checksum);
  store_u64le(out + kHeaderChecksumAt, hash64(ByteSpan(out, kHeaderChecksumAt), kHeaderSeed));
}

StatusOr<PrecompiledHeader> parse_precompiled_header(ByteSpan file, uint64_t file_size) {
  if (file_size < kPrecompiledHeaderBytes || file.size() < kPrecompiledHeaderBytes) {
    return data_loss("truncated" + at(std::min<uint64_t>(file_size, file.size())) + ": the header needs " +
                     std::to_string(kPrecompiledHeaderBytes) + " bytes");
  }
  const uint8_t* p = file.data();
  if (std::memcmp(p + kMagicAt, kPrecompiledMagic, 8) != 0) {
    return invalid_argument("bad magic" + at(kMagicAt) + ": found 0x" + to_hex(file.first(8)) +
                            ", expected \"CUZKR1CS\" (not a cuzk precompiled circuit)");
  }
  PrecompiledHeader h;
  h.version = load_u32le(p + kVersionAt);
  if (h.version != kPrecompiledVersion) {
    return invalid_argument("unsupported version " + std::to_string(h.version) + at(kVersionAt) +
                            " (this build reads version " + std::to_string(kPrecompiledVersion) + ")");
  }
  const uint64_t stored = load_u64le(p + kHeaderChecksumAt);
  const uint64_t computed = hash64(file.first(kHeaderChecksumAt), kHeaderSeed);
  if (stored != computed) {
    return data_loss("header checksum mismatch" + at(kHeaderChecksumAt) + ": the header (bytes [0, 120)) is corrupt");
  }
  if (load_u32le(p + kHeaderBytesAt) != kPrecompiledHeaderBytes) {
    return data_loss("header size" + at(kHeaderBytesAt) + " is " + std::to_string(load_u32le(p + kHeaderBytesAt)) +
                     ", expected 128");
  }
  for (size_t i = kReservedAt; i < kHeaderChecksumAt; ++i) {
    if (p[i] != 0) return data_loss("reserved header byte" + at(i) + " is not zero");
  }
  h.shape.num_inputs = load_u64le(p + kInputsAt);
  h.shape.num_aux = load_u64le(p + kAuxAt);
  h.shape.num_constraints = load_u64le(p + kConstraintsAt);
  h.num_terms = load_u64le(p + kTermsAt);
  h.num_coeffs = load_u64le(p + kCoeffsAt);
  h.terms_offset = load_u64le(p + kTermsOffsetAt);
  h.offsets_offset = load_u64le(p + kOffsetsOffsetAt);
  h.coeffs_offset = load_u64le(p + kCoeffsOffsetAt);
  h.file_bytes = load_u64le(p + kFileBytesAt);
  h.payload_checksum = load_u64le(p + kPayloadChecksumAt);
  RETURN_IF_ERROR(check_layout(h, file_size));
  return h;
}

StatusOr<PrecompiledHeader> read_precompiled_header(const std::string& path) {
  ASSIGN_OR_RETURN(MappedFile file, MappedFile::open(path));
  auto h = parse_precompiled_header(file.bytes(), file.size());
  if (!h.ok()) return h.status().with_context(path);
  return h;
}

StatusOr<Circuit> load_precompiled(const std::string& path, const LoadOptions& options) {
  ASSIGN_OR_RETURN(MappedFile mapped, MappedFile::open(path));
  return load_precompiled(std::make_shared<const MappedFile>(std::move(mapped)), options);
}

StatusOr<Circuit> load_precompiled(std::shared_ptr<const MappedFile> file, const LoadOptions& options) {
  const std::string& path = file->path();
  auto parsed = parse_precompiled_header(file->bytes(), file->size());
  if (!parsed.ok()) return parsed.status().with_context(path);
  const PrecompiledHeader& h = *parsed;
  if (options.verify_checksum) {
    file->advise_sequential();
    ByteSpan payload = file->bytes().subspan(kPrecompiledHeaderBytes);
    const uint64_t computed = checksum64(payload, options.pool);
    if (computed != h.payload_checksum) {
      return data_loss(path + ": payload checksum mismatch over bytes [128, " + std::to_string(h.file_bytes) +
                       "): stored " + std::to_string(h.payload_checksum) + ", computed " + std::to_string(computed) +
                       " (stored" + at(kPayloadChecksumAt) + ")");
    }
  }
  const uint8_t* base = file->data();
  Circuit circuit = Circuit::from_view(
      h.shape,
      std::span(reinterpret_cast<const uint32_t*>(base + h.offsets_offset), size_t(3 * h.shape.num_constraints + 1)),
      std::span(reinterpret_cast<const Term*>(base + h.terms_offset), size_t(h.num_terms)),
      std::span(reinterpret_cast<const Fr*>(base + h.coeffs_offset), size_t(h.num_coeffs)), file);
  if (options.validate) {
    Status s = validate(circuit, options.pool);
    if (!s.ok()) return s.with_context(path);
  }
  return circuit;
}

}  // namespace cuzk::r1cs
