#pragma once
/// \file path.h
/// Path containment and the one file reader and writer.
///
/// Every path a user passes is relative to the project root and must stay
/// inside it (after resolving `..` and symbolic links). Files are read and
/// written only when they are regular files: a directory, FIFO, socket or
/// device is refused at once (opened without blocking), so no reader can hang
/// on a FIFO or read /dev/zero forever. Readers take a size limit; writers
/// refuse a symbolic link as the file itself (`O_NOFOLLOW`), so a dangling
/// link cannot carry a write out of the project. Messages name the file by its
/// last component, never by the absolute project path.

#include "spark/core/result.h"

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "spark/core/export.h"
SPARK_CORE_API_BEGIN

namespace spark
{

/// Default size limit of `readTextFile`. [Units: bytes]
inline constexpr size_t kDefaultMaxFileBytes = 256u * 1024u * 1024u;

/// Resolves `relative` against `projectRoot`. Absolute paths are accepted only if
/// they lie inside the root. `E_PATH` when the result leaves the project (also via
/// a symbolic link), or when the path is empty or holds a NUL byte.
Result<std::filesystem::path> resolveInProject(const std::filesystem::path& projectRoot, std::string_view relative);

/// How a file is read.
struct FileReadDef
{
    /// Largest file accepted. [Units: bytes]
    size_t maxBytes = kDefaultMaxFileBytes;
    /// Code of the error for a larger file (`E_NAV_LIMIT`, `E_SCENE_LIMIT`, …).
    std::string limitCode = "E_IO";
};

/// The defaults: 256 MiB, `E_IO` beyond.
FileReadDef defaultFileReadDef();

/// Reads a whole regular file. `E_IO` when it is missing, unreadable, a
/// directory, a FIFO, a socket or a device; `def.limitCode` when it is larger
/// than `def.maxBytes`.
Result<std::string> readTextFile(const std::filesystem::path& path, const FileReadDef& def = defaultFileReadDef());
/// Reads a whole regular file as bytes (same checks as `readTextFile`).
Result<std::vector<unsigned char>> readBinaryFile(const std::filesystem::path& path,
                                                  const FileReadDef& def = defaultFileReadDef());
/// Writes a whole file, creating parent folders. `E_IO` when the file is a
/// symbolic link (never followed), a directory, FIFO or device, or cannot be written.
Status writeTextFile(const std::filesystem::path& path, std::string_view text);
/// Writes bytes (same checks as `writeTextFile`).
Status writeBinaryFile(const std::filesystem::path& path, const void* data, size_t size);
/// Appends text to a regular file, creating it (same checks as `writeTextFile`).
Status appendTextFile(const std::filesystem::path& path, std::string_view text);

} // namespace spark
SPARK_CORE_API_END
