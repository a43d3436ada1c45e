#include "witness_header.h"

#include "cuzk/io/circom.h"

namespace cuzk::engine {

Status check_wtns_header(ByteSpan bytes, uint64_t expected_vars) {
  ASSIGN_OR_RETURN(io::WtnsHeader h, io::parse_wtns_header(bytes));
  if (h.end_offset != bytes.size())
    return invalid_argument("witness: " + std::to_string(bytes.size() - h.end_offset) +
                            " bytes after the last section (byte offset " + std::to_string(h.end_offset) + ")");
  if (h.count != expected_vars)
    return invalid_argument("witness has " + std::to_string(h.count) + " values, the circuit has " +
                            std::to_string(expected_vars) + " variables");
  return ok_status();
}

}  // namespace cuzk::engine
