// Which kernel of a program a caller means: the one named, or the file's only kernel.
#pragma once

#include <string>

namespace attn {

struct Decl;
struct Program;

/// The kernel of `p` named `name`, or with `name` empty the file's only kernel. Otherwise null,
/// with `why` set to a message that lists the kernels `file` defines.
const Decl* select_kernel(const Program& p, const std::string& file, const std::string& name,
                          std::string& why);

}  // namespace attn
