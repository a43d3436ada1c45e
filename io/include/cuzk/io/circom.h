// circom's binary files: the constraint system (.r1cs) and the witness
// (.wtns), both in iden3's section container (formats.md §5).
//
// Variables keep circom's wire order: wire 0 = ONE, then public outputs,
// public inputs, private inputs and internal wires. The r1cs::Circuit has
// num_inputs = 1 + nPubOut + nPubIn (ONE and everything public) and
// num_aux = nWires − num_inputs.
//
// Only the BLS12-381 scalar field is accepted (field size 32, prime = r).
// All format errors are INVALID_ARGUMENT (the bytes may come from a request)
// and name a byte offset; custom gates are UNIMPLEMENTED.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cuzk/base/bytes.h"
#include "cuzk/base/status.h"
#include "cuzk/base/thread_pool.h"
#include "cuzk/r1cs/circuit.h"

namespace cuzk::io {

using r1cs::Fr;

// The .r1cs header section (id 1).
struct CircomR1csHeader {
  uint32_t field_bytes = 32;
  uint32_t n_wires = 0;  // ONE included
  uint32_t n_pub_out = 0;
  uint32_t n_pub_in = 0;
  uint32_t n_prv_in = 0;
  uint64_t n_labels = 0;
  uint32_t n_constraints = 0;
  uint64_t num_public() const { return uint64_t(n_pub_out) + n_pub_in; }  // ONE excluded
};

// Reads a .r1cs image: sections in any order, unknown ids ignored, trailing
// bytes after the last section ignored. Checks: magic "r1cs", version 1,
// field size 32 and prime r ("wrong curve/prime" naming the prime found),
// header section size, wire counts (nWires >= 1 + outputs + inputs +
// private inputs; section 3, when present, has 8·nWires bytes), every wire
// id < nWires, every coefficient < r, the constraint section consumed
// exactly. Terms may come in any order (circom sorts them by the wire id's
// minimal little-endian byte string, not numerically); repeats of a wire in
// one linear combination are summed and zero sums dropped, as in
// r1cs::CircuitBuilder. Sections 4/5 (custom gates) → UNIMPLEMENTED.
// Memory: the Circuit (8 bytes per non-zero) plus the input bytes.
StatusOr<r1cs::Circuit> parse_circom_r1cs(ByteSpan bytes, CircomR1csHeader* header = nullptr);
StatusOr<r1cs::Circuit> read_circom_r1cs(const std::string& path, CircomR1csHeader* header = nullptr);
// Only the container and the header section (cheap; for inspection).
StatusOr<CircomR1csHeader> parse_circom_r1cs_header(ByteSpan bytes);

struct CircomWriteOptions {
  // How the circuit's public inputs (num_inputs − 1) split into outputs
  // (first) and public inputs; the rest are public inputs.
  uint32_t n_pub_out = 0;
  // How many aux variables (the first ones) count as private inputs.
  uint32_t n_prv_in = 0;
};

// Writes sections 1 (header), 2 (constraints), 3 (wire i → label i), with
// terms in increasing wire order and canonical little-endian coefficients.
// Errors: INVALID_ARGUMENT when a count does not fit circom's u32 fields or
// the options exceed the circuit's variables. write_circom_r1cs streams
// through a 1 MiB buffer (36 bytes per non-zero end up in the file).
StatusOr<std::vector<uint8_t>> serialize_circom_r1cs(const r1cs::Circuit& circuit,
                                                    const CircomWriteOptions& options = {});
Status write_circom_r1cs(const r1cs::Circuit& circuit, const std::string& path,
                         const CircomWriteOptions& options = {});

// Reads a .wtns image (version 2): section 1 = n8 (32), prime (r),
// nWitness; section 2 = nWitness canonical little-endian values. Checks the
// values are < r and that element 0 is 1 (ONE). Section 2 must hold exactly
// 32·nWitness bytes, except that a wrong declared size is tolerated when
// 32·nWitness >= 4 GiB and section 2 is the file's last (circom_runtime's
// JavaScript writer gets that length wrong). Converts on `pool` when given.
StatusOr<std::vector<Fr>> parse_wtns(ByteSpan bytes, ThreadPool* pool = nullptr);

// What a .wtns image says of itself, read without converting the values.
struct WtnsHeader {
  uint64_t count = 0;          // nWitness, ONE included
  uint64_t values_offset = 0;  // section 2's first byte: value i at values_offset + 32·i
  uint64_t end_offset = 0;     // first byte after the last section
};
// Everything parse_wtns checks but the values themselves: the container,
// version 2, the field (32 bytes, BLS12-381's r; BN254's r is named with
// the `circom --prime bls12381` way out), nWitness >= 1 and section 2's
// size. Errors as parse_wtns's. Cheap: reads the headers only.
StatusOr<WtnsHeader> parse_wtns_header(ByteSpan bytes);
StatusOr<std::vector<Fr>> read_wtns(const std::string& path, ThreadPool* pool = nullptr);

std::vector<uint8_t> serialize_wtns(std::span<const Fr> witness);
Status write_wtns(std::span<const Fr> witness, const std::string& path);

}  // namespace cuzk::io
