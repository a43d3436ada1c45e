// A SubmitProofRequest off the wire: protobuf decoding, conversion to the
// engine's request, the field checks submit() makes first, and the witness
// check for every witness it carries.
#include "../engine/src/witness_header.h"
#include "../server/src/convert.h"
#include "cuzk/engine/engine.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk;
  v1::SubmitProofRequest req;
  if (!req.ParseFromArray(data, int(size))) return 0;
  engine::JobRequest r = server::job_request_from_proto(req);
  if (!engine::check_request_fields(r).ok()) return 0;
  for (const std::string& w : r.witnesses) {
    ByteSpan b(reinterpret_cast<const uint8_t*>(w.data()), w.size());
    engine::check_wtns_header(b, w.size() >= 64 ? load_u32le(b.data() + 60) : 0).ignore();
  }
  return 0;
}
