// SHA-256 for content digests of key files (which keys have passed the full
// subgroup checks is remembered by digest, key_check.h): base's, named here
// for io's users, with the digest's file-name form.
#pragma once

#include <string>

#include "cuzk/base/bytes.h"
#include "cuzk/base/sha256.h"

namespace cuzk::io {

using cuzk::Sha256;
using cuzk::sha256;
using cuzk::Sha256Digest;

// Lower-case hex, 64 characters.
inline std::string digest_hex(const Sha256Digest& digest) { return to_hex(digest); }

}  // namespace cuzk::io
