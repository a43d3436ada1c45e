#include "cuzk/base/status.h"

#include <algorithm>
#include <cstring>

namespace cuzk {

std::string_view status_code_name(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return "OK";
    case StatusCode::kCancelled: return "CANCELLED";
    case StatusCode::kUnknown: return "UNKNOWN";
    case StatusCode::kInvalidArgument: return "INVALID_ARGUMENT";
    case StatusCode::kDeadlineExceeded: return "DEADLINE_EXCEEDED";
    case StatusCode::kNotFound: return "NOT_FOUND";
    case StatusCode::kAlreadyExists: return "ALREADY_EXISTS";
    case StatusCode::kPermissionDenied: return "PERMISSION_DENIED";
    case StatusCode::kResourceExhausted: return "RESOURCE_EXHAUSTED";
    case StatusCode::kFailedPrecondition: return "FAILED_PRECONDITION";
    case StatusCode::kAborted: return "ABORTED";
    case StatusCode::kOutOfRange: return "OUT_OF_RANGE";
    case StatusCode::kUnimplemented: return "UNIMPLEMENTED";
    case StatusCode::kInternal: return "INTERNAL";
    case StatusCode::kUnavailable: return "UNAVAILABLE";
    case StatusCode::kDataLoss: return "DATA_LOSS";
    case StatusCode::kUnauthenticated: return "UNAUTHENTICATED";
  }
  return "UNKNOWN";
}

std::string Status::to_string() const {
  if (ok()) return "OK";
  std::string s(status_code_name(code_));
  s += ": ";
  s += message_;
  return s;
}

Status Status::with_context(std::string_view context) const {
  if (ok()) return *this;
  std::string m(context);
  m += ": ";
  m += message_;
  return Status(code_, std::move(m));
}

std::string bounded_quote(std::string_view text, size_t max_bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  size_t n = std::min(text.size(), max_bytes);
  for (size_t i = 0; i < n; ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c >= 0x20 && c < 0x7f) {
      out += char(c);
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  out += '"';
  if (n < text.size()) out += "...(" + std::to_string(text.size()) + " bytes)";
  return out;
}

Status io_error(std::string message, int errno_value) {
  message += ": ";
  message += std::strerror(errno_value);
  StatusCode code = StatusCode::kInternal;
  if (errno_value == ENOENT) code = StatusCode::kNotFound;
  if (errno_value == EACCES || errno_value == EPERM) code = StatusCode::kPermissionDenied;
  if (errno_value == ENOMEM || errno_value == ENOSPC) code = StatusCode::kResourceExhausted;
  return Status(code, std::move(message));
}

}  // namespace cuzk
