// Deferred synchronisation over two slots, for work split into batches
// (streamed MSM, uploads): batch i uses slot i&1 (its stream, device staging
// and host result buffer i&1).
//
//   for i in [0, batches):
//     launch(i, i&1)          enqueue batch i: uploads, kernels, DtoH into host buffer i&1
//     if i > 0: finish(i-1, (i-1)&1)   wait for batch i-1 and consume host buffer (i-1)&1
//   if batches > 0: finish(batches-1, (batches-1)&1)
//
// The host waits for batch i-1 in iteration i, after batch i is queued, so
// the device always has the next batch in hand while the host consumes the
// previous result; it waits for the last batch after the loop only when
// there was at least one batch. Slot reuse is safe: batch i+2 is launched
// only after batch i has been finished (in iteration i+1).
// Stops at the first error and returns it (batches already queued are left
// to the caller's stream synchronisation).
#pragma once

#include <cstddef>

#include "cuzk/base/status.h"

namespace cuzk::gpu {

template <class Launch, class Finish>
Status run_deferred_batches(size_t batches, Launch&& launch, Finish&& finish) {
  for (size_t i = 0; i < batches; ++i) {
    RETURN_IF_ERROR(launch(i, int(i & 1)));
    if (i > 0) RETURN_IF_ERROR(finish(i - 1, int((i - 1) & 1)));
  }
  if (batches > 0) RETURN_IF_ERROR(finish(batches - 1, int((batches - 1) & 1)));
  return ok_status();
}

}  // namespace cuzk::gpu
