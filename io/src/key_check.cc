#include "cuzk/io/key_check.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <string_view>
#include <vector>

#include "cuzk/base/mapped_file.h"
#include "cuzk/ec/curves.h"

namespace cuzk::io {

Sha256Digest key_content_digest(ByteSpan bytes, ThreadPool* pool) {
  ThreadPool& p = pool != nullptr ? *pool : default_thread_pool();
  const size_t chunks = (bytes.size() + kKeyDigestChunkBytes - 1) / kKeyDigestChunkBytes;
  std::vector<Sha256Digest> digests(chunks);
  p.parallel_for(chunks, 1, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      const size_t at = i * kKeyDigestChunkBytes;
      digests[i] = sha256(bytes.subspan(at, std::min(kKeyDigestChunkBytes, bytes.size() - at)));
    }
  });
  Sha256 h;
  constexpr std::string_view kDomain = "cuzk key digest v1";
  h.update(ByteSpan(reinterpret_cast<const uint8_t*>(kDomain.data()), kDomain.size()));
  uint8_t size[8];
  store_u64le(size, bytes.size());
  h.update(ByteSpan(size, 8));
  for (const Sha256Digest& d : digests) h.update(d);
  return h.finish();
}

std::string CheckedKeyRecord::marker_path(const Sha256Digest& digest) const {
  return dir_ + "/" + digest_hex(digest);
}

bool CheckedKeyRecord::contains(const Sha256Digest& digest) const {
  struct stat st {};
  return ::stat(marker_path(digest).c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

Status CheckedKeyRecord::remember(const Sha256Digest& digest, const std::string& what) const {
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) return io_error("cannot create " + dir_ + ": " + ec.message(), ec.value());
  ::chmod(dir_.c_str(), 0700);
  const std::string text = "every point passed the subgroup checks: " + what + "\n";
  return write_file(marker_path(digest), ByteSpan(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

namespace {

template <class P>
Status check_point(const P& p, const char* name) {
  if (p.is_infinity()) return invalid_argument(std::string("proof: ") + name + " is the point at infinity");
  Status s = ec::validate(p, ec::SubgroupCheck::kCheck);
  if (!s.ok()) return invalid_argument(std::string("proof: ") + name + ": " + s.message());
  return ok_status();
}

}  // namespace

Status check_proof_points(const groth16::Proof& proof) {
  RETURN_IF_ERROR(check_point(proof.a, "A"));
  RETURN_IF_ERROR(check_point(proof.b, "B"));
  return check_point(proof.c, "C");
}

}  // namespace cuzk::io
