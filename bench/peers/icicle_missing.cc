// The ICICLE entry points when the bench was built without ICICLE: each says
// so, and the bench leaves ICICLE out of its table.
#include "peers.h"

namespace cuzk::peers {
namespace {
const char* kMissing = "this cuzk-peer-bench was built without ICICLE (no icicle-install/ in CUZK_PEERS_DIR)";
}
std::string icicle_init(const std::string&) { return kMissing; }
std::string icicle_msm_g1(const void*, const void*, size_t, int, PeerPoint*, Timings*) { return kMissing; }
std::string icicle_msm_g2(const void*, const void*, size_t, int, PeerPoint*, Timings*) { return kMissing; }
std::string icicle_ntt(void*, int, int, const uint64_t[4], const uint64_t*, int, Timings*) { return kMissing; }
}  // namespace cuzk::peers
