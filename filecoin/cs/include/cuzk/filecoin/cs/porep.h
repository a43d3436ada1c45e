// The PoRep partition circuit: rust-fil-proofs' StackedCircuit
// (storage-proofs-porep stacked/circuit/{proof,params,create_label}.rs).
//
// Public inputs, in allocation order: replica_id, comm_d, comm_r, then per
// challenge the packed index of the tree D path, of the 6 DRG and 8
// expander parents' tree C paths, the challenge itself, the tree R-last
// path and the challenge's tree C path (StackedCompound::
// generate_public_inputs). A 32 GiB partition: 18 challenges, 327 inputs
// besides ONE, 130,278,541 rows.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cuzk/base/status.h"
#include "cuzk/filecoin/cs/por.h"
#include "cuzk/filecoin/merkle.h"

namespace cuzk::filecoin::snark {

struct PorepConfig {
  uint64_t sector_bytes = 0;
  int layers = 0;                    // SDR layers: 2 up to 1 GiB, 11 for 32 and 64 GiB
  int challenges_per_partition = 0;  // ⌈minimum challenges / partitions⌉: 2, or 18
  int partitions = 0;                // 1, or 10
  TreeShape tree_r;                  // shape of tree C and tree R-last
  int drg_degree = 6;
  int exp_degree = 8;
  uint64_t nodes() const { return sector_bytes / 32; }
};

// filecoin-proofs' constants for an interactive (or synthetic) PoRep of this
// sector size. INVALID_ARGUMENT for an unsupported size.
StatusOr<PorepConfig> porep_config(uint64_t sector_bytes);

// A column of tree C (one label per layer) opened at a parent, with its path.
struct ColumnOpening {
  std::vector<Fr> rows;
  AuthPath path;
};

struct PorepChallenge {
  uint64_t challenge = 0;
  Fr data_leaf;            // tree D leaf at the challenge
  AuthPath comm_d_path;    // binary SHA-254 tree D
  AuthPath comm_r_last_path;
  AuthPath comm_c_path;
  std::vector<ColumnOpening> drg_parents;  // drg_degree
  std::vector<ColumnOpening> exp_parents;  // exp_degree
};

struct PorepPartition {
  Fr replica_id, comm_d, comm_r, comm_r_last, comm_c;
  std::vector<PorepChallenge> challenges;
};

// OK when `got` has the levels and arities of `want` and every index is
// below its level's arity; else INVALID_ARGUMENT starting with `what`.
Status check_auth_path(const AuthPath& got, const AuthPath& want, const std::string& what);

// An all-zero path of the given tree shape over `leaves` leaves
// (AuthPath::blank).
AuthPath blank_auth_path(const TreeShape& shape, uint64_t leaves);
// The blank circuit's inputs (shapes only; every value zero).
PorepPartition blank_porep_partition(const PorepConfig& config);

// INVALID_ARGUMENT naming the first field whose shape differs from the
// config's: challenge count, path lengths and arities, column lengths,
// indices ≥ arity.
Status check_porep_partition(const PorepConfig& config, const PorepPartition& partition);

// Synthesizes the partition circuit. REQUIRES: check_porep_partition OK.
// Instantiated for WitnessCs and RecordingCs.
template <class CS>
void synthesize_porep(CS& cs, const PorepConfig& config, const PorepPartition& partition);

// The public inputs the circuit allocates, without ONE, read back from a
// synthesis (for tests) are checked against the ones computed from the
// public parameters elsewhere; this lists the index-derived ones for a
// challenge: tree D path index, parents, challenge, R-last, C.
std::vector<Fr> porep_challenge_inputs(uint64_t challenge, std::span<const uint64_t> drg_parents,
                                       std::span<const uint64_t> exp_parents);

}  // namespace cuzk::filecoin::snark
