// printable_path: file names in messages.
#include "runtime/PathText.h"

#include <cstdio>

namespace attn {

std::string printable_path(const std::string& path) {
  bool plain = true;
  for (unsigned char c : path)
    if (c < 0x20 || c == 0x7f || c == '"' || c == '\\') plain = false;
  if (plain) return path;
  std::string out = "\"";
  for (unsigned char c : path) {
    switch (c) {
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      default:
        if (c < 0x20 || c == 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

}  // namespace attn
