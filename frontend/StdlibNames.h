// Which stdlib module defines a name: the hint for a name used without its import.
#pragma once

#include <string>

namespace attn {

/// The stdlib module ("std.masks") that defines the mask, score modifier or fn `name`, or "".
std::string stdlib_module_defining(const std::string& name);

}  // namespace attn
