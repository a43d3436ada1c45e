// Text from outside made safe for messages, JSON, protobuf strings and logs.
//
// Protobuf's proto3 `string` fields, JSON (nlohmann::json::dump throws on it)
// and most log readers require valid UTF-8, while bytes from a request (a
// vanilla proof, an id, a file name) can be anything. Every text that leaves
// the daemon goes through valid_utf8(), so that one bad byte in one request
// cannot make a status, a reply or a log line unusable.
#pragma once

#include <string>
#include <string_view>

namespace cuzk {

// True when `text` is well-formed UTF-8 (RFC 3629: no overlong forms, no
// surrogates, nothing above U+10FFFF).
bool is_valid_utf8(std::string_view text);

// `text` with every byte that is not part of a well-formed UTF-8 sequence
// written as the four characters \xNN (lowercase hex); well-formed text,
// backslashes included, is returned unchanged. The result is valid UTF-8.
std::string valid_utf8(std::string_view text);

// In place; does not allocate when the text is already valid.
void make_valid_utf8(std::string* text);

}  // namespace cuzk
