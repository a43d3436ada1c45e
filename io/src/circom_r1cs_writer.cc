#include <array>
#include <functional>
#include <string>

#include "circom_container.h"
#include "cuzk/base/mapped_file.h"
#include "cuzk/io/circom.h"

namespace cuzk::io {
namespace {

constexpr uint64_t kU32Limit = 0xffffffffull;

// Stages bytes and hands them to `sink_` in blocks of about kBlockBytes.
class Emitter {
 public:
  using Sink = std::function<Status(ByteSpan)>;
  explicit Emitter(Sink sink) : sink_(std::move(sink)) { buf_.reserve(kBlockBytes + 64); }

  void u32(uint32_t v) {
    uint8_t b[4];
    store_u32le(b, v);
    raw(b, 4);
  }
  void u64(uint64_t v) {
    uint8_t b[8];
    store_u64le(b, v);
    raw(b, 8);
  }
  void raw(const uint8_t* p, size_t n) { buf_.insert(buf_.end(), p, p + n); }
  void section_header(uint32_t id, uint64_t size) {
    u32(id);
    u64(size);
  }
  // Passes the staged bytes on once a block is full (or always with force).
  Status flush(bool force = false) {
    if (buf_.empty() || (!force && buf_.size() < kBlockBytes)) return ok_status();
    Status s = sink_(buf_);
    buf_.clear();
    return s;
  }

 private:
  static constexpr size_t kBlockBytes = size_t(1) << 20;
  Sink sink_;
  std::vector<uint8_t> buf_;
};

StatusOr<CircomR1csHeader> header_for(const r1cs::Circuit& c, const CircomWriteOptions& o) {
  if (c.num_vars() > kU32Limit) return invalid_argument("r1cs writer: more than 2^32-1 wires");
  if (c.num_constraints() > kU32Limit) return invalid_argument("r1cs writer: more than 2^32-1 constraints");
  if (o.n_pub_out > c.num_inputs() - 1) {
    return invalid_argument("r1cs writer: n_pub_out " + std::to_string(o.n_pub_out) + " exceeds the " +
                            std::to_string(c.num_inputs() - 1) + " public inputs");
  }
  if (o.n_prv_in > c.num_aux()) {
    return invalid_argument("r1cs writer: n_prv_in " + std::to_string(o.n_prv_in) + " exceeds the " +
                            std::to_string(c.num_aux()) + " aux variables");
  }
  CircomR1csHeader h;
  h.n_wires = uint32_t(c.num_vars());
  h.n_pub_out = o.n_pub_out;
  h.n_pub_in = uint32_t(c.num_inputs() - 1 - o.n_pub_out);
  h.n_prv_in = o.n_prv_in;
  h.n_labels = h.n_wires;
  h.n_constraints = uint32_t(c.num_constraints());
  return h;
}

void emit_header_section(Emitter& out, const CircomR1csHeader& h) {
  out.section_header(1, 64);
  out.u32(32);
  out.raw(circom::bls12_381_r_le(), 32);
  out.u32(h.n_wires);
  out.u32(h.n_pub_out);
  out.u32(h.n_pub_in);
  out.u32(h.n_prv_in);
  out.u64(h.n_labels);
  out.u32(h.n_constraints);
}

Status emit_constraint_section(Emitter& out, const r1cs::Circuit& c) {
  std::vector<std::array<uint8_t, 32>> coeffs(c.coeffs().size());  // canonical LE, once per table entry
  for (size_t k = 0; k < coeffs.size(); ++k) circom::fr_to_le(c.coeffs()[k], coeffs[k].data());
  out.section_header(2, 12 * c.num_constraints() + 36 * c.num_nonzeros());
  for (uint64_t i = 0; i < c.num_constraints(); ++i) {
    for (r1cs::Matrix m : {r1cs::Matrix::kA, r1cs::Matrix::kB, r1cs::Matrix::kC}) {
      auto row = c.row(i, m);
      out.u32(uint32_t(row.size()));
      for (const r1cs::Term& t : row) {
        out.u32(t.var);
        out.raw(coeffs[t.coeff].data(), 32);
      }
    }
    RETURN_IF_ERROR(out.flush());
  }
  return ok_status();
}

Status emit_circom_r1cs(const r1cs::Circuit& circuit, const CircomWriteOptions& options, Emitter::Sink sink) {
  ASSIGN_OR_RETURN(CircomR1csHeader h, header_for(circuit, options));
  Emitter out(std::move(sink));
  const uint8_t magic[4] = {'r', '1', 'c', 's'};
  out.raw(magic, 4);
  out.u32(1);  // version
  out.u32(3);  // sections
  emit_header_section(out, h);
  RETURN_IF_ERROR(emit_constraint_section(out, circuit));
  out.section_header(3, 8 * uint64_t(h.n_wires));
  for (uint64_t w = 0; w < h.n_wires; ++w) {
    out.u64(w);
    RETURN_IF_ERROR(out.flush());
  }
  return out.flush(true);
}

}  // namespace

StatusOr<std::vector<uint8_t>> serialize_circom_r1cs(const r1cs::Circuit& circuit, const CircomWriteOptions& options) {
  std::vector<uint8_t> bytes;
  RETURN_IF_ERROR(emit_circom_r1cs(circuit, options, [&](ByteSpan b) {
    bytes.insert(bytes.end(), b.begin(), b.end());
    return ok_status();
  }));
  return bytes;
}

Status write_circom_r1cs(const r1cs::Circuit& circuit, const std::string& path, const CircomWriteOptions& options) {
  ASSIGN_OR_RETURN(FileWriter file, FileWriter::create(path));
  RETURN_IF_ERROR(emit_circom_r1cs(circuit, options, [&](ByteSpan b) { return file.write(b); }));
  return file.commit();
}

}  // namespace cuzk::io
