#include "json_reader.h"

#include "cuzk/base/utf8.h"

namespace cuzk::filecoin::json {

namespace {

constexpr int kMaxDepth = 64;
constexpr char kBase64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

}  // namespace

// Field names hold the input's keys: the message is made valid UTF-8 (it
// reaches the daemon's status JSON and AwaitProof's error_message).
Status Reader::error(const std::string& field, const std::string& msg) const {
  return invalid_argument(valid_utf8(what_ + ": offset " + std::to_string(pos_) + ": " +
                                     (field.empty() ? "(top)" : field) + ": " + msg));
}

void Reader::skip_ws() {
  while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' || text_[pos_] == '\r' || text_[pos_] == '\t'))
    ++pos_;
}

bool Reader::consume(char c) {
  skip_ws();
  if (pos_ < text_.size() && text_[pos_] == c) {
    ++pos_;
    return true;
  }
  return false;
}

Status Reader::expect(char c, const std::string& field) {
  if (consume(c)) return ok_status();
  if (pos_ >= text_.size()) return error(field, std::string("unexpected end of input, expected '") + c + "'");
  // The byte found is client input: quoted and escaped (bounded_quote), never echoed raw.
  return error(field, std::string("expected '") + c + "', found " + bounded_quote(text_.substr(pos_, 1)));
}

Status Reader::begin_object(const std::string& field) {
  if (++depth_ > kMaxDepth) return error(field, "nesting deeper than 64");
  RETURN_IF_ERROR(expect('{', field));
  first_ = true;
  return ok_status();
}

Status Reader::begin_array(const std::string& field) {
  if (++depth_ > kMaxDepth) return error(field, "nesting deeper than 64");
  RETURN_IF_ERROR(expect('[', field));
  first_ = true;
  return ok_status();
}

StatusOr<bool> Reader::next_key(const std::string& field, std::string* key) {
  if (consume('}')) {
    --depth_;
    first_ = false;
    return false;
  }
  if (!first_) RETURN_IF_ERROR(expect(',', field));
  first_ = false;
  RETURN_IF_ERROR(read_string(field, key));
  RETURN_IF_ERROR(expect(':', field + "." + *key));
  return true;
}

StatusOr<bool> Reader::next_element(const std::string& field) {
  if (consume(']')) {
    --depth_;
    first_ = false;
    return false;
  }
  if (!first_) RETURN_IF_ERROR(expect(',', field));
  first_ = false;
  return true;
}

Status Reader::read_u64(const std::string& field, uint64_t* v) {
  skip_ws();
  const size_t start = pos_;
  uint64_t x = 0;
  while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
    const uint64_t d = uint64_t(text_[pos_] - '0');
    if (x > (UINT64_MAX - d) / 10) return error(field, "integer does not fit in 64 bits");
    x = x * 10 + d;
    ++pos_;
  }
  if (pos_ == start) return error(field, "expected an unsigned integer");
  if (pos_ - start > 1 && text_[start] == '0') return error(field, "leading zero in an integer");
  if (pos_ < text_.size() && (text_[pos_] == '.' || text_[pos_] == 'e' || text_[pos_] == 'E'))
    return error(field, "expected an integer, found a fraction or exponent");
  *v = x;
  return ok_status();
}

// Strings here are keys and proof names: escapes other than \" and \\ are
// not needed and rejected (never silently misread).
Status Reader::read_string(const std::string& field, std::string* s) {
  RETURN_IF_ERROR(expect('"', field));
  s->clear();
  while (pos_ < text_.size() && text_[pos_] != '"') {
    char c = text_[pos_++];
    if (c == '\\') {
      if (pos_ >= text_.size()) break;
      c = text_[pos_++];
      if (c != '"' && c != '\\' && c != '/') return error(field, "unsupported escape in a string");
    } else if (uint8_t(c) < 0x20) {
      return error(field, "control character in a string");
    }
    s->push_back(c);
  }
  if (pos_ >= text_.size()) return error(field, "unterminated string");
  ++pos_;
  return ok_status();
}

Status Reader::read_node(const std::string& field, Node* n) {
  RETURN_IF_ERROR(begin_array(field));
  size_t i = 0;
  for (;;) {
    ASSIGN_OR_RETURN(bool more, next_element(field));
    if (!more) break;
    uint64_t b;
    RETURN_IF_ERROR(read_u64(field + "[" + std::to_string(i) + "]", &b));
    if (b > 255) return error(field + "[" + std::to_string(i) + "]", "byte value " + std::to_string(b) + " > 255");
    if (i >= kNodeBytes) return error(field, "more than 32 bytes");
    (*n)[i++] = uint8_t(b);
  }
  if (i != kNodeBytes) return error(field, std::to_string(i) + " bytes, expected 32");
  return ok_status();
}

Status Reader::skip_string(const std::string& field) {
  ++pos_;  // the opening quote
  while (pos_ < text_.size() && text_[pos_] != '"') pos_ += text_[pos_] == '\\' ? 2 : 1;
  if (pos_ >= text_.size()) return error(field, "unterminated string");
  ++pos_;
  return ok_status();
}

Status Reader::skip_value_depth(const std::string& field, int depth) {
  if (depth > kMaxDepth) return error(field, "nesting deeper than 64");
  skip_ws();
  if (pos_ >= text_.size()) return error(field, "unexpected end of input");
  const char c = text_[pos_];
  if (c == '"') return skip_string(field);
  if (c == '{' || c == '[') {
    const char close = c == '{' ? '}' : ']';
    ++pos_;
    if (consume(close)) return ok_status();
    for (;;) {
      if (c == '{') {
        skip_ws();
        if (pos_ >= text_.size() || text_[pos_] != '"') return error(field, "expected a key");
        RETURN_IF_ERROR(skip_string(field));
        RETURN_IF_ERROR(expect(':', field));
      }
      RETURN_IF_ERROR(skip_value_depth(field, depth + 1));
      if (consume(close)) return ok_status();
      RETURN_IF_ERROR(expect(',', field));
    }
  }
  for (std::string_view literal : {"true", "false", "null"}) {
    if (text_.substr(pos_, literal.size()) == literal) {
      pos_ += literal.size();
      return ok_status();
    }
  }
  return skip_number(field);
}

// A JSON number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
Status Reader::skip_number(const std::string& field) {
  auto digits = [&] {
    const size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
    return pos_ > start;
  };
  auto at = [&](char c) { return pos_ < text_.size() && text_[pos_] == c; };
  if (at('-')) ++pos_;
  if (at('0')) {
    ++pos_;
  } else if (!digits()) {
    return error(field, "expected a JSON value");
  }
  if (at('.')) {
    ++pos_;
    if (!digits()) return error(field, "malformed number");
  }
  if (at('e') || at('E')) {
    ++pos_;
    if (at('+') || at('-')) ++pos_;
    if (!digits()) return error(field, "malformed number");
  }
  return ok_status();
}

Status Reader::skip_value(const std::string& field) {
  RETURN_IF_ERROR(skip_value_depth(field, depth_));
  first_ = false;
  return ok_status();
}

Status Reader::finish() {
  skip_ws();
  if (pos_ != text_.size()) return error("(end)", "trailing characters");
  return ok_status();
}

void Writer::sep() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!first_) out_ += ',';
  first_ = false;
}

void Writer::key(std::string_view k) {
  sep();
  out_ += '"';
  out_ += k;
  out_ += "\":";
  after_key_ = true;
}

void Writer::u64(uint64_t v) {
  sep();
  out_ += std::to_string(v);
}

void Writer::string(std::string_view s) {
  sep();
  out_ += '"';
  for (char c : s) {
    if (c == '"' || c == '\\') out_ += '\\';
    out_ += c;
  }
  out_ += '"';
}

void Writer::null() {
  sep();
  out_ += "null";
}

void Writer::node(const Node& n) {
  begin_array();
  for (uint8_t b : n) u64(b);
  end_array();
}

std::string base64_encode(ByteSpan bytes) {
  std::string out;
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const uint32_t v = uint32_t(bytes[i]) << 16 | uint32_t(bytes[i + 1]) << 8 | bytes[i + 2];
    for (int s = 18; s >= 0; s -= 6) out += kBase64[(v >> s) & 63];
  }
  if (i < bytes.size()) {
    uint32_t v = uint32_t(bytes[i]) << 16;
    if (i + 1 < bytes.size()) v |= uint32_t(bytes[i + 1]) << 8;
    out += kBase64[(v >> 18) & 63];
    out += kBase64[(v >> 12) & 63];
    out += i + 1 < bytes.size() ? kBase64[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

bool base64_decode(std::string_view text, std::string* out) {
  if (text.size() % 4) return false;
  out->clear();
  out->reserve(text.size() / 4 * 3);
  for (size_t i = 0; i < text.size(); i += 4) {
    uint32_t v = 0;
    int pad = 0;
    for (int j = 0; j < 4; ++j) {
      const char c = text[i + size_t(j)];
      int d;
      if (c == '=' && i + 4 == text.size() && j >= 2) {
        d = 0;
        ++pad;
      } else {
        if (pad) return false;
        const char* p = c ? std::char_traits<char>::find(kBase64, 64, c) : nullptr;
        if (!p) return false;
        d = int(p - kBase64);
      }
      v = v << 6 | uint32_t(d);
    }
    out->push_back(char(v >> 16));
    if (pad < 2) out->push_back(char((v >> 8) & 0xff));
    if (pad < 1) out->push_back(char(v & 0xff));
  }
  return true;
}

}  // namespace cuzk::filecoin::json
