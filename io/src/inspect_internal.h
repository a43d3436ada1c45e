// What `inspect` builds for a file before rendering it as text or JSON: the
// fields in order, each with a JSON key, a label for people and a value.
// Internal to io/.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cuzk/base/bytes.h"
#include "cuzk/base/status.h"
#include "cuzk/io/inspect.h"

namespace cuzk::io::internal {

using OrderedJson = nlohmann::ordered_json;

class Summary {
 public:
  // `text`, when given, replaces the value in the text rendering.
  void add(const std::string& key, const std::string& label, const OrderedJson& value, const std::string& text = {});
  void add_bytes(const std::string& key, const std::string& label, uint64_t bytes);
  // An iden3 section (or any region): listed under "sections".
  void add_section(uint32_t id, const std::string& name, uint64_t offset, uint64_t size);

  std::string text() const;
  const OrderedJson& json() const { return json_; }

 private:
  OrderedJson json_ = OrderedJson::object();
  std::vector<std::string> lines_;
  std::vector<std::string> section_lines_;
};

std::string human_bytes(uint64_t n);

// The summaries of iden3 containers (zkey, r1cs, wtns, ptau), in inspect_iden3.cc.
Status summarize_iden3(ByteSpan bytes, FileKind kind, Summary& out);

}  // namespace cuzk::io::internal
