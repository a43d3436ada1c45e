// What protects a proof made from a key file, and the record of key files
// that passed the full subgroup checks.
//
// Reading a key (read_zkey, read_params) always checks every point for
// canonical coordinates and for lying on its curve, and the verifying key's
// points (alpha, beta, gamma, delta, IC) for lying in the prime-order
// subgroup: these are cheap. Subgroup membership of the bulk query points
// (A, B1, B2, L/C, H) costs ~50 µs a point and dominates a load by 10-100x, so
// it runs only on request (ReadOptions::check_points, the CLI's
// --full-check). What a proof's user relies on is checked on every proof
// instead: its three points are canonical, on the curve and in the subgroup
// (check_proof_points), and the proof verifies against the key's (fully
// checked) verifying key before it is returned or written. docs/design.md
// ("Checking keys") gives the argument.
#pragma once

#include <string>

#include "cuzk/base/bytes.h"
#include "cuzk/base/status.h"
#include "cuzk/base/thread_pool.h"
#include "cuzk/groth16/keys.h"
#include "cuzk/io/sha256.h"

namespace cuzk::io {

// The content digest of a key file:
//   SHA-256("cuzk key digest v1" ‖ u64le size ‖ SHA-256(chunk 0) ‖ SHA-256(chunk 1) ‖ ...)
// over chunks of kKeyDigestChunkBytes (the last one shorter, none for an empty
// file), hashed on `pool` (default_thread_pool() when null).
inline constexpr size_t kKeyDigestChunkBytes = size_t(4) << 20;
Sha256Digest key_content_digest(ByteSpan bytes, ThreadPool* pool = nullptr);

// A directory holding one marker file per key content digest that passed the
// full subgroup checks (a cache: deleting it only makes the next full check
// run again). Anyone who can write the directory can mark a key as checked,
// so it belongs to the user who runs the prover. Thread-safe (the
// filesystem is the only state).
class CheckedKeyRecord {
 public:
  explicit CheckedKeyRecord(std::string dir) : dir_(std::move(dir)) {}
  const std::string& dir() const { return dir_; }

  bool contains(const Sha256Digest& digest) const;
  // Creates the directory (mode 0700) when missing and writes the marker,
  // whose text names `what` (the file's path, for people reading the
  // directory). Errors: the filesystem's, with the path.
  Status remember(const Sha256Digest& digest, const std::string& what) const;

 private:
  std::string marker_path(const Sha256Digest& digest) const;
  std::string dir_;
};

// A proof's A, B and C: not the point at infinity, on the curve and in the
// prime-order subgroup (~0.2 ms). Errors: INVALID_ARGUMENT naming the point.
Status check_proof_points(const groth16::Proof& proof);

}  // namespace cuzk::io
