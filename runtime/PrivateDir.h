// Folders that only the current user may write: the disk cache and the cache key's folder.
#pragma once

#include <string>

namespace attn {

/// Opens the folder `path` (O_DIRECTORY, close-on-exec) as a store of the current user's, creating
/// it and any missing parents with mode 0700. Returns its descriptor, or -1 with `why` set when it
/// cannot be created or opened, is not a directory, belongs to another user or is writable by its
/// group or by others: anyone who can write it could plant files the user then trusts.
int open_private_dir(const std::string& path, std::string& why);

}  // namespace attn
