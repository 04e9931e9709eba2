#pragma once
/// \file path.h
/// Path containment: every path a user passes is relative to the project root and
/// must stay inside it (after resolving `..` and symbolic links).

#include "spark/core/result.h"

#include <filesystem>
#include <string_view>

namespace spark
{

/// Resolves `relative` against `projectRoot`. Absolute paths are accepted only if
/// they lie inside the root. `E_PATH` when the result leaves the project (also via
/// a symbolic link), or when the path is empty or holds a NUL byte.
Result<std::filesystem::path> resolveInProject(const std::filesystem::path& projectRoot, std::string_view relative);

/// Reads a whole file (`E_IO` when missing or unreadable).
Result<std::string> readTextFile(const std::filesystem::path& path);
/// Writes a whole file, creating parent folders (`E_IO` on failure).
Status writeTextFile(const std::filesystem::path& path, std::string_view text);

} // namespace spark
