// file:// URIs <-> paths, and where the stdlib's modules are shown to editors.
#pragma once

#include <string>

namespace attn::lsp {

/// The path of a `file://` URI (percent-decoded); other schemes give the URI unchanged.
std::string uri_to_path(const std::string& uri);
/// A `file://` URI for a path (made absolute, percent-encoded).
std::string path_to_uri(const std::string& path);

/// A file holding the text of stdlib module `name` ("std.masks"), for go-to-definition: the
/// source tree's copy when it matches the embedded text, else a copy written to the cache folder.
/// Empty when neither is possible.
std::string stdlib_file(const std::string& name);

}  // namespace attn::lsp
