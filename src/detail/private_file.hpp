#pragma once
// A file only its owner may read, replaced whole: the OAuth token file.
// One implementation per platform (private_file_posix.cpp, _windows.cpp).

#include <filesystem>
#include <string_view>

namespace mcp::detail {

/// Writes `text` to a new file beside `path` that only the current user may
/// read or write (mode 0600; on Windows a protected DACL granting only that
/// user), flushes it to the disk, and renames it over `path`: a reader sees
/// the old file or the new one, never half of either.
/// @throws std::runtime_error naming the file and the system's reason.
void replace_private_file(const std::filesystem::path& path, std::string_view text);

}  // namespace mcp::detail
