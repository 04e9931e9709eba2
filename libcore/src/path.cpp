// Path containment for user-supplied paths, and the one reader and writer of
// files (regular files only, opened without blocking, size-limited reads,
// writes that never follow a symbolic link).

#include "spark/core/path.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

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

FileReadDef defaultFileReadDef()
{
    return FileReadDef{};
}

namespace
{

std::string shownName(const fs::path& path)
{
    const std::string name = path.filename().string();
    return name.empty() ? std::string("the file") : "'" + name + "'";
}

/// What a file descriptor is, for messages; empty for a regular file.
std::string notRegular(const struct stat& st)
{
    if (S_ISREG(st.st_mode))
        return {};
    if (S_ISDIR(st.st_mode))
        return "a directory";
    if (S_ISFIFO(st.st_mode))
        return "a FIFO";
    if (S_ISSOCK(st.st_mode))
        return "a socket";
    if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
        return "a device";
    return "not a regular file";
}

class Fd
{
public:
    explicit Fd(int fd) : m_fd(fd) {}
    ~Fd()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    int get() const { return m_fd; }

private:
    int m_fd;
};

template <class Buffer> Status readInto(const fs::path& path, const FileReadDef& def, Buffer& out)
{
    // O_NONBLOCK: opening a FIFO must not wait for a writer; regular files ignore it.
    Fd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
    if (fd.get() < 0)
    {
        if (errno == ENOENT || errno == ENOTDIR)
            return makeError("E_IO", "no such file: " + shownName(path));
        return makeError("E_IO", "cannot open " + shownName(path) + ": " + std::strerror(errno));
    }
    struct stat st{};
    if (::fstat(fd.get(), &st) != 0)
        return makeError("E_IO", "cannot read " + shownName(path));
    const std::string kind = notRegular(st);
    if (!kind.empty())
        return makeError("E_IO", shownName(path) + " is " + kind + ", not a regular file", {},
                         "give the path of a file");
    if (static_cast<uint64_t>(st.st_size) > def.maxBytes)
        return makeError(def.limitCode,
                         shownName(path) + " is larger than the limit of " + std::to_string(def.maxBytes) + " bytes");
    out.resize(static_cast<size_t>(st.st_size));
    size_t done = 0;
    while (done < out.size())
    {
        const ssize_t n = ::read(fd.get(), out.data() + done, out.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return makeError("E_IO", "cannot read " + shownName(path) + ": " + std::strerror(errno));
        if (n == 0)
            break; // the file shrank while reading
        done += static_cast<size_t>(n);
    }
    out.resize(done);
    return Status::success();
}

Status writeBytes(const fs::path& path, const void* data, size_t size, bool append)
{
    std::error_code ec;
    if (path.has_parent_path())
        fs::create_directories(path.parent_path(), ec);
    struct stat lst{};
    if (::lstat(path.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode))
        return makeError("E_IO", shownName(path) + " is a symbolic link; it is not written through", {},
                         "remove the link or write to another name");
    // O_NOFOLLOW closes the race with the check above; O_NONBLOCK makes a FIFO
    // without a reader fail (ENXIO) instead of blocking.
    const int flags = O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | (append ? O_APPEND : 0);
    Fd fd(::open(path.c_str(), flags, 0644));
    if (fd.get() < 0)
    {
        if (errno == ELOOP)
            return makeError("E_IO", shownName(path) + " is a symbolic link; it is not written through");
        if (errno == EISDIR)
            return makeError("E_IO", shownName(path) + " is a directory, not a regular file");
        if (errno == ENXIO)
            return makeError("E_IO", shownName(path) + " is a FIFO, not a regular file");
        return makeError("E_IO", "cannot write " + shownName(path) + ": " + std::strerror(errno));
    }
    struct stat st{};
    if (::fstat(fd.get(), &st) != 0)
        return makeError("E_IO", "cannot write " + shownName(path));
    const std::string kind = notRegular(st);
    if (!kind.empty())
        return makeError("E_IO", shownName(path) + " is " + kind + ", not a regular file");
    if (!append && ::ftruncate(fd.get(), 0) != 0)
        return makeError("E_IO", "cannot write " + shownName(path) + ": " + std::strerror(errno));
    const char* p = static_cast<const char*>(data);
    size_t done = 0;
    while (done < size)
    {
        const ssize_t n = ::write(fd.get(), p + done, size - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return makeError("E_IO", "cannot write " + shownName(path) + ": " + std::strerror(errno));
        done += static_cast<size_t>(n);
    }
    return Status::success();
}

} // namespace

Result<std::string> readTextFile(const fs::path& path, const FileReadDef& def)
{
    std::string out;
    SPARK_TRY(readInto(path, def, out));
    return out;
}

Result<std::vector<unsigned char>> readBinaryFile(const fs::path& path, const FileReadDef& def)
{
    std::vector<unsigned char> out;
    SPARK_TRY(readInto(path, def, out));
    return out;
}

Status writeTextFile(const fs::path& path, std::string_view text)
{
    return writeBytes(path, text.data(), text.size(), false);
}

Status writeBinaryFile(const fs::path& path, const void* data, size_t size)
{
    return writeBytes(path, data, size, false);
}

Status appendTextFile(const fs::path& path, std::string_view text)
{
    return writeBytes(path, text.data(), text.size(), true);
}

} // namespace spark
