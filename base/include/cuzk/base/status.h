// Status and StatusOr: errors as values across module boundaries.
// Codes follow gRPC's canonical codes so the server maps them one to one.
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace cuzk {

enum class StatusCode : int {
  kOk = 0,
  kCancelled = 1,
  kUnknown = 2,
  kInvalidArgument = 3,
  kDeadlineExceeded = 4,
  kNotFound = 5,
  kAlreadyExists = 6,
  kPermissionDenied = 7,
  kResourceExhausted = 8,
  kFailedPrecondition = 9,
  kAborted = 10,
  kOutOfRange = 11,
  kUnimplemented = 12,
  kInternal = 13,
  kUnavailable = 14,
  kDataLoss = 15,
  kUnauthenticated = 16,
};

std::string_view status_code_name(StatusCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status ok_status() { return Status(); }
  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // "INVALID_ARGUMENT: message" (or "OK").
  std::string to_string() const;
  // Returns a copy with "context: " prepended to the message.
  Status with_context(std::string_view context) const;
  void ignore() const {}

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

inline Status ok_status() { return Status(); }
inline Status invalid_argument(std::string m) { return {StatusCode::kInvalidArgument, std::move(m)}; }
inline Status not_found(std::string m) { return {StatusCode::kNotFound, std::move(m)}; }
inline Status already_exists(std::string m) { return {StatusCode::kAlreadyExists, std::move(m)}; }
inline Status failed_precondition(std::string m) { return {StatusCode::kFailedPrecondition, std::move(m)}; }
inline Status out_of_range(std::string m) { return {StatusCode::kOutOfRange, std::move(m)}; }
inline Status resource_exhausted(std::string m) { return {StatusCode::kResourceExhausted, std::move(m)}; }
inline Status unimplemented(std::string m) { return {StatusCode::kUnimplemented, std::move(m)}; }
inline Status internal_error(std::string m) { return {StatusCode::kInternal, std::move(m)}; }
inline Status unavailable(std::string m) { return {StatusCode::kUnavailable, std::move(m)}; }
inline Status cancelled(std::string m) { return {StatusCode::kCancelled, std::move(m)}; }
inline Status data_loss(std::string m) { return {StatusCode::kDataLoss, std::move(m)}; }
inline Status deadline_exceeded(std::string m) { return {StatusCode::kDeadlineExceeded, std::move(m)}; }
// An I/O failure: message plus strerror(errno_value).
Status io_error(std::string message, int errno_value);

// `text` in double quotes for a message or a log line, bounded: at most
// max_bytes of it, then "...(N bytes)"; quotes, backslashes and bytes that
// are not printable ASCII are escaped (\", \\, \xNN). Strings from outside
// (ids in requests) go into messages only through this.
std::string bounded_quote(std::string_view text, size_t max_bytes = 64);

// StatusOr<T>: a T or a non-OK Status. Built from an OK status (a
// programming error: there is no value), it holds INTERNAL instead, in every
// build, so that the error is never mistaken for success.
template <class T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(const Status& s) : v_(s.ok() ? ok_without_value() : s) {}                     // NOLINT
  StatusOr(Status&& s) : v_(s.ok() ? ok_without_value() : std::move(s)) {}               // NOLINT
  StatusOr(const T& t) : v_(t) {}                                                       // NOLINT
  StatusOr(T&& t) : v_(std::move(t)) {}                                                 // NOLINT
  template <class U>
    requires(std::is_constructible_v<T, U &&> && !std::is_same_v<std::decay_t<U>, T> &&
             !std::is_same_v<std::decay_t<U>, Status>)
  StatusOr(U&& u) : v_(T(std::forward<U>(u))) {}  // NOLINT

  bool ok() const { return std::holds_alternative<T>(v_); }
  Status status() const { return ok() ? Status() : std::get<Status>(v_); }
  // REQUIRES: ok().
  T& value() & { assert(ok()); return std::get<T>(v_); }
  const T& value() const& { assert(ok()); return std::get<T>(v_); }
  T&& value() && { assert(ok()); return std::get<T>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  static Status ok_without_value() {
    return Status(StatusCode::kInternal, "a StatusOr was built from an OK status (no value)");
  }
  std::variant<Status, T> v_;
};

}  // namespace cuzk

#define CUZK_CONCAT_INNER(a, b) a##b
#define CUZK_CONCAT(a, b) CUZK_CONCAT_INNER(a, b)

#define RETURN_IF_ERROR(expr)                     \
  do {                                            \
    ::cuzk::Status _cuzk_status = (expr);         \
    if (!_cuzk_status.ok()) return _cuzk_status;  \
  } while (0)

#define CUZK_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                               \
  if (!tmp.ok()) return tmp.status();              \
  lhs = std::move(tmp).value()

#define ASSIGN_OR_RETURN(lhs, expr) \
  CUZK_ASSIGN_OR_RETURN_IMPL(CUZK_CONCAT(_cuzk_statusor_, __LINE__), lhs, expr)
