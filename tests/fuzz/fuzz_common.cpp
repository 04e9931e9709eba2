// Shared by the libFuzzer targets: the scratch project, the dispatcher, the E_INTERNAL oracle.

#include "fuzz_common.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <system_error>
#include <vector>

#include <fcntl.h>
#include <sys/inotify.h>
#include <unistd.h>

#ifndef SPARK_SOURCE_DIR
#define SPARK_SOURCE_DIR "."
#endif

namespace spark::fuzz
{
namespace fs = std::filesystem;

namespace
{

/// The sample files copied into the scratch project, relative to the repository.
constexpr const char* kFixtureDirs[] = {"samples/ai",     "samples/scene2d", "samples/space3d",
                                        "samples/scenarios", "tests/scenarios", "goldens"};

/// Their contents, read once: path relative to the project → bytes.
std::map<std::string, std::string>& fixtureFiles()
{
    static std::map<std::string, std::string> files = [] {
        std::map<std::string, std::string> out;
        const fs::path source = SPARK_SOURCE_DIR;
        std::error_code ec;
        for (const char* dir : kFixtureDirs)
        {
            if (!fs::is_directory(source / dir, ec))
                continue;
            for (auto it = fs::recursive_directory_iterator(source / dir, ec); !ec && it != fs::end(it);
                 it.increment(ec))
            {
                if (!it->is_regular_file(ec))
                    continue;
                std::ifstream in(it->path(), std::ios::binary);
                std::ostringstream bytes;
                bytes << in.rdbuf();
                out[fs::relative(it->path(), source, ec).generic_string()] = bytes.str();
            }
        }
        return out;
    }();
    return files;
}

} // namespace

ScratchProject& ScratchProject::get()
{
    static ScratchProject project;
    return project;
}

ScratchProject::ScratchProject()
{
    std::string pattern = (fs::temp_directory_path() / "spark-fuzz-XXXXXX").string();
    if (!mkdtemp(pattern.data()))
    {
        std::perror("spark fuzz: mkdtemp");
        std::abort();
    }
    m_root = fs::canonical(pattern);
    m_inotify = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (m_inotify < 0)
    {
        std::perror("spark fuzz: inotify_init1");
        std::abort();
    }
    populate();
}

ScratchProject::~ScratchProject()
{
    close(m_inotify);
    std::error_code ec;
    fs::remove_all(m_root, ec);
}

void ScratchProject::populate()
{
    for (const auto& [rel, bytes] : fixtureFiles())
    {
        const fs::path path = m_root / rel;
        std::error_code ec;
        fs::create_directories(path.parent_path(), ec);
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    }
    // Watch every directory: any change below the root is an event on the inotify descriptor.
    constexpr uint32_t kChanges = IN_CREATE | IN_DELETE | IN_MODIFY | IN_ATTRIB | IN_MOVED_FROM | IN_MOVED_TO |
                                  IN_DELETE_SELF | IN_MOVE_SELF | IN_CLOSE_WRITE;
    inotify_add_watch(m_inotify, m_root.c_str(), kChanges);
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(m_root, ec); !ec && it != fs::end(it); it.increment(ec))
        if (it->is_directory(ec))
            inotify_add_watch(m_inotify, it->path().c_str(), kChanges);
    drainEvents();
}

bool ScratchProject::drainEvents()
{
    alignas(inotify_event) char buffer[4096];
    bool any = false;
    while (read(m_inotify, buffer, sizeof buffer) > 0)
        any = true;
    return any;
}

void ScratchProject::restore()
{
    // One read() when nothing changed (the usual case): no walk of the tree.
    if (!drainEvents())
        return;
    std::error_code ec;
    for (auto it = fs::directory_iterator(m_root, ec); !ec && it != fs::end(it); it.increment(ec))
        fs::remove_all(it->path(), ec);
    populate();
}

cli::Dispatcher& dispatcher()
{
    static cli::Dispatcher d = [] {
        cli::DispatchOptions options;
        options.projectRoot = ScratchProject::get().root();
        options.checkResults = true;
        return cli::Dispatcher(options);
    }();
    // Nothing of one input may leak into the next.
    if (d.options().updateGoldens || !d.scenarioChain().empty())
        finding("the dispatcher kept state of an earlier input", "updateGoldens or the scenario chain");
    return d;
}

[[noreturn]] void finding(std::string_view why, std::string_view detail)
{
    std::fprintf(stderr, "\n==spark-fuzz== FINDING: %.*s\n%.*s\n", static_cast<int>(why.size()), why.data(),
                 static_cast<int>(std::min<size_t>(detail.size(), 4000)), detail.data());
    std::abort();
}

namespace
{

std::string codeOf(const cli::json& error)
{
    if (!error.is_object())
        return {};
    auto it = error.find("code");
    return it != error.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// A scenario report {name, passed, steps: [{index, do, ok, result | error}]}:
// every step's error, and the reports of nested runs.
void checkReport(const cli::json& report, std::string_view what, int depth)
{
    if (depth > 64 || !report.is_object())
        return;
    auto steps = report.find("steps");
    if (steps == report.end() || !steps->is_array())
        return;
    for (const cli::json& step : *steps)
    {
        if (!step.is_object())
            continue;
        if (auto error = step.find("error"); error != step.end())
        {
            const std::string code = codeOf(*error);
            if (code == "E_INTERNAL")
                finding(std::string(what) + ": a scenario step answered E_INTERNAL", cli::dumpJson(step));
            if (code == "E_SCENARIO_FAILED" && error->contains("data"))
                checkReport((*error)["data"], what, depth + 1);
        }
        if (auto result = step.find("result"); result != step.end())
            checkReport(*result, what, depth + 1);
    }
}

} // namespace

void checkEnvelope(const cli::json& envelope, std::string_view what)
{
    if (!envelope.is_object() || !envelope.contains("ok") || !envelope["ok"].is_boolean())
        finding(std::string(what) + ": an answer that is not an envelope", cli::dumpJson(envelope));
    if (envelope["ok"].get<bool>())
    {
        checkReport(envelope["result"], what, 0);
        return;
    }
    const cli::json& error = envelope["error"];
    const std::string code = codeOf(error);
    if (code.empty())
        finding(std::string(what) + ": an error without a code", cli::dumpJson(envelope));
    if (code == "E_INTERNAL")
        finding(std::string(what) + ": answered E_INTERNAL", cli::dumpJson(envelope));
    if (code == "E_SCENARIO_FAILED" && error.contains("data"))
        checkReport(error["data"], what, 0);
}

} // namespace spark::fuzz
