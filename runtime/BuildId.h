// The GNU build ID of the loaded object (executable or shared library) that holds an address: what
// tells one build of attnc's code generators from another, for caches of what they generate.
#pragma once

#include <string>

namespace attn {

/// The hex NT_GNU_BUILD_ID note of the object mapped at `address`, or "" when it has none (a link
/// without --build-id) or the address is in no loaded object.
std::string build_id_of(const void* address);

}  // namespace attn
