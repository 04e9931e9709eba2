#pragma once
// Helpers of the end-to-end tests: run the real `spark` binary from the project
// root with arguments and stdin, and read back its exit code and output.

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace e2e
{

using json = nlohmann::json;
namespace fs = std::filesystem;

struct Run
{
    int exit = -1;
    std::string out;
    std::string err;
};

inline std::string quote(const std::string& s)
{
    std::string q = "'";
    for (char c : s)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

inline std::string slurp(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// Runs spark with `args` (and `input` on stdin) from the project root, killed
/// after `timeoutSeconds` (exit 124 then).
inline Run spark(const std::vector<std::string>& args, const std::string& input = "", int timeoutSeconds = 120)
{
    static int counter = 0;
    const fs::path dir = fs::temp_directory_path() / ("spark_e2e_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const std::string tag = std::to_string(counter++);
    const fs::path in = dir / ("in" + tag), out = dir / ("out" + tag), err = dir / ("err" + tag);
    std::ofstream(in, std::ios::binary) << input;
    std::string cmd = "cd " + quote(SPARK_SOURCE_DIR) + " && timeout " + std::to_string(timeoutSeconds) + " " +
                      quote(SPARK_BIN);
    for (const auto& a : args)
        cmd += " " + quote(a);
    cmd += " <" + quote(in.string()) + " >" + quote(out.string()) + " 2>" + quote(err.string());
    const int status = std::system(cmd.c_str());
    Run r;
    r.exit = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
}

/// The largest resident size any finished child process reached so far. [Units: MiB]
inline long peakChildMiB()
{
    struct rusage usage{};
    ::getrusage(RUSAGE_CHILDREN, &usage);
    return usage.ru_maxrss / 1024;
}

inline json parsed(const std::string& text)
{
    json j = json::parse(text, nullptr, false);
    REQUIRE_MESSAGE(!j.is_discarded(), "not JSON: " << text);
    return j;
}

/// The JSON answers of `spark run` / `spark mcp`, one per line.
inline std::vector<json> answerLines(const std::string& out)
{
    std::vector<json> answers;
    std::istringstream lines(out);
    for (std::string line; std::getline(lines, line);)
        if (!line.empty())
            answers.push_back(parsed(line));
    return answers;
}

} // namespace e2e
