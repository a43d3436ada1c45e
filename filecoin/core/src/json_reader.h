// A pull parser over JSON text for the vanilla-proof readers: no DOM (a
// 32 GiB C1 output is ~50 MB of small arrays), bounded nesting, and every
// error names the field path and byte offset. Internal to the layer.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "cuzk/base/bytes.h"
#include "cuzk/base/status.h"
#include "cuzk/filecoin/node.h"

namespace cuzk::filecoin::json {

class Reader {
 public:
  Reader(std::string_view text, std::string what) : text_(text), what_(std::move(what)) {}

  Status error(const std::string& field, const std::string& msg) const;

  Status begin_object(const std::string& field);
  // The next key of the current object, or false at its end (consumed).
  StatusOr<bool> next_key(const std::string& field, std::string* key);
  Status begin_array(const std::string& field);
  // True when another element follows; false at the end (consumed).
  StatusOr<bool> next_element(const std::string& field);

  Status read_u64(const std::string& field, uint64_t* v);
  Status read_string(const std::string& field, std::string* s);
  // An array of exactly 32 integers in [0, 255].
  Status read_node(const std::string& field, Node* n);
  Status skip_value(const std::string& field);
  // Only whitespace may follow.
  Status finish();

 private:
  void skip_ws();
  bool consume(char c);
  Status expect(char c, const std::string& field);
  Status skip_value_depth(const std::string& field, int depth);
  Status skip_string(const std::string& field);
  Status skip_number(const std::string& field);

  std::string_view text_;
  std::string what_;
  size_t pos_ = 0;
  int depth_ = 0;
  bool first_ = false;  // the next element/key is the first of its container
};

// A JSON writer of serde_json's compact form.
class Writer {
 public:
  void begin_object() { sep(); out_ += '{'; first_ = true; }
  void end_object() { out_ += '}'; first_ = false; }
  void begin_array() { sep(); out_ += '['; first_ = true; }
  void end_array() { out_ += ']'; first_ = false; }
  void key(std::string_view k);
  void u64(uint64_t v);
  void string(std::string_view s);
  void null();
  void node(const Node& n);
  std::string take() { return std::move(out_); }

 private:
  void sep();
  std::string out_;
  bool first_ = true;
  bool after_key_ = false;
};

// RFC 4648 base64 with padding (what Go's encoding/json writes for []byte).
std::string base64_encode(ByteSpan bytes);
bool base64_decode(std::string_view text, std::string* out);

}  // namespace cuzk::filecoin::json
