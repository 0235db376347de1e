// File names as messages print them: one line, whatever bytes the name holds.
#pragma once

#include <string>

namespace attn {

/// `path` as diagnostics print it: unchanged when it holds no control character, a double quote or
/// a backslash; otherwise in double quotes with C escapes (`"a\nb.attn"`), so that a name with a
/// newline cannot break the one-line `file:line:col: error:` format or forge a second message.
std::string printable_path(const std::string& path);

}  // namespace attn
