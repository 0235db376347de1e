// CHECK lines, FileCheck-style: what an emitted text must keep, stated next to the test's input.
#pragma once

#include <string>

namespace attn::test {

/// Matches the directives of `checks` for `prefix` against `text`, in order, as LLVM's FileCheck
/// does for this subset: a line of `checks` holding `PREFIX: pattern` needs the pattern at or after
/// the end of the previous match; `PREFIX-NEXT:` on the line after it; `PREFIX-SAME:` on its line,
/// further on; `PREFIX-NOT:` nowhere between the previous match and the next one (or the end). A
/// pattern is literal text (surrounding blanks trimmed, a run of blanks matching any run) in which
/// `{{re}}` is an ECMAScript regular expression; no pattern spans lines. Returns empty when every directive
/// holds, else a message naming the first that fails and where; `checks` without a directive for `prefix`
/// fails too, so that a misspelt prefix cannot pass.
std::string file_check(const std::string& text, const std::string& checks, const std::string& prefix);

}  // namespace attn::test
