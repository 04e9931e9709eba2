// Path containment for user-supplied paths.

#include "spark/core/path.h"

#include <fstream>
#include <sstream>

namespace spark
{
namespace fs = std::filesystem;

namespace
{
// True when `inner` equals `outer` or lies below it (both lexically normal).
bool isWithin(const fs::path& outer, const fs::path& inner)
{
    auto o = outer.begin();
    auto i = inner.begin();
    for (; o != outer.end(); ++o, ++i)
    {
        if (o->empty())
            continue; // trailing separator
        if (i == inner.end() || *o != *i)
            return false;
    }
    return true;
}
} // namespace

Result<fs::path> resolveInProject(const fs::path& projectRoot, std::string_view relative)
{
    if (relative.empty())
        return makeError("E_PATH", "the path is empty");
    if (relative.find('\0') != std::string_view::npos)
        return makeError("E_PATH", "the path holds a NUL byte");
    std::error_code ec;
    fs::path root = fs::weakly_canonical(fs::absolute(projectRoot, ec), ec);
    if (ec)
        return makeError("E_PATH", "the project folder cannot be resolved: " + projectRoot.string());
    fs::path given(relative);
    fs::path joined = given.is_absolute() ? given : root / given;
    fs::path normal = joined.lexically_normal();
    if (!isWithin(root, normal))
        return makeError("E_PATH", "the path leaves the project folder: " + std::string(relative), {},
                         "use a path relative to the project folder");
    // Resolve symbolic links of the part that exists, so a link cannot lead out.
    fs::path real = fs::weakly_canonical(normal, ec);
    if (ec)
        return makeError("E_PATH", "the path cannot be resolved: " + std::string(relative));
    if (!isWithin(root, real))
        return makeError("E_PATH", "the path leads out of the project folder through a link: " +
                                       std::string(relative));
    return real;
}

Result<std::string> readTextFile(const fs::path& path)
{
    std::error_code ec;
    if (!fs::is_regular_file(path, ec))
        return makeError("E_IO", "no such file: " + path.string());
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return makeError("E_IO", "cannot open " + path.string());
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad())
        return makeError("E_IO", "cannot read " + path.string());
    return ss.str();
}

Status writeTextFile(const fs::path& path, std::string_view text)
{
    std::error_code ec;
    if (path.has_parent_path())
        fs::create_directories(path.parent_path(), ec);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out)
        return makeError("E_IO", "cannot write " + path.string());
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (!out)
        return makeError("E_IO", "cannot write " + path.string());
    return {};
}

} // namespace spark
