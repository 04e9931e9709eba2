// The `spark test` runner.

#include "runners/test_runner.h"

#include "runners/recording.h"
#include "runners/scenario.h"
#include "spark/core/hash.h"
#include "spark/core/path.h"
#include "spark/core/text.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <ostream>

namespace spark::cli
{
namespace fs = std::filesystem;

namespace
{

struct TestOutcome
{
    std::string suite;
    std::string name;
    bool passed = false;
    std::string why;
};

/// `s` as XML attribute text: bytes that are not valid UTF-8 and control
/// characters (which XML 1.0 does not allow) written as `\xHH` first, then the
/// markup characters as entities.
std::string xmlEscape(const std::string& s)
{
    std::string out;
    for (char c : escapeText(s, 4096))
    {
        switch (c)
        {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&apos;"; break;
        default: out += c;
        }
    }
    return out;
}

/// The E_* code a failure's reason starts with ("E_FORMAT: ..."), or "E_ASSERT_FAILED" for a failed step.
std::string failureType(const std::string& why)
{
    const size_t colon = why.find(':');
    if (why.rfind("E_", 0) == 0 && colon != std::string::npos && why.find(' ') > colon)
        return why.substr(0, colon);
    return "E_ASSERT_FAILED";
}

/// The JUnit XML report (Jenkins' junit-10.xsd: a testsuite has name, tests,
/// failures and errors; a failed test a failure element with a message and a type).
std::string junitReport(const std::vector<TestOutcome>& outcomes, size_t failed)
{
    const std::string counts = "tests=\"" + std::to_string(outcomes.size()) + "\" failures=\"" +
                               std::to_string(failed) + "\" errors=\"0\"";
    std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"spark\" " + counts +
                      ">\n<testsuite name=\"spark\" " + counts + " skipped=\"0\">\n";
    for (const auto& o : outcomes)
    {
        xml += "  <testcase classname=\"" + xmlEscape(o.suite) + "\" name=\"" + xmlEscape(o.name) + "\"";
        if (o.passed)
            xml += "/>\n";
        else
            xml += ">\n    <failure message=\"" + xmlEscape(o.why) + "\" type=\"" + xmlEscape(failureType(o.why)) +
                   "\">" + xmlEscape(o.why) + "</failure>\n  </testcase>\n";
    }
    xml += "</testsuite>\n</testsuites>\n";
    return xml;
}

// Loads and parses a JSON file inside the project; sets `outWhy` on failure.
bool loadJson(const fs::path& root, const std::string& rel, json& out, std::string& outWhy)
{
    auto path = spark::resolveInProject(root, rel);
    if (!path.ok())
    {
        outWhy = path.error().code + ": " + path.error().message;
        return false;
    }
    auto text = spark::readTextFile(path.value());
    if (!text.ok())
    {
        outWhy = text.error().code + ": " + text.error().message;
        return false;
    }
    std::string message;
    if (!parseJsonText(text.value(), out, message))
    {
        outWhy = "E_FORMAT: " + rel + " is not valid JSON: " + message;
        return false;
    }
    return true;
}

// Runs one test entry in a fresh session.
TestOutcome runTest(const TestRunOptions& options, const std::string& suite, const json& test, size_t index,
                    scene::RecordingWriter* recorder)
{
    TestOutcome outcome;
    outcome.suite = suite;
    outcome.name = test.is_object() ? test.value("name", "test " + std::to_string(index)) : "test " + std::to_string(index);
    if (!test.is_object() || (test.contains("scenario") == test.contains("steps")))
    {
        outcome.why = "E_FORMAT: a test has a name and either \"scenario\" or \"steps\"";
        return outcome;
    }
    json scenario;
    if (test.contains("scenario"))
    {
        if (!test["scenario"].is_string() || !loadJson(options.projectRoot, test["scenario"].get<std::string>(), scenario, outcome.why))
        {
            if (outcome.why.empty())
                outcome.why = "E_FORMAT: \"scenario\" must be a path";
            return outcome;
        }
    }
    else
        scenario = {{"version", 1}, {"name", outcome.name}, {"steps", test["steps"]}};

    DispatchOptions dispatchOptions;
    dispatchOptions.projectRoot = options.projectRoot;
    dispatchOptions.updateGoldens = options.updateGoldens;
    dispatchOptions.checkResults = true;
    Dispatcher dispatcher(dispatchOptions);
    scene::SessionState state;
    std::optional<RecordingScope> recording;
    if (recorder)
        recording.emplace(state, *recorder);
    try
    {
        checkScenarioDocument(scenario, "");
    }
    catch (const CommandError& e)
    {
        outcome.why = e.code + ": " + e.message + " at " + e.data.value("path", std::string("/"));
        return outcome;
    }
    json result;
    try
    {
        std::string canonical;
        if (test.contains("scenario"))
            if (auto p = spark::resolveInProject(options.projectRoot, test["scenario"].get<std::string>()); p.ok())
                canonical = p.value().string();
        ScenarioFrame frame(dispatcher, canonical, "/scenario");
        result = runScenario(dispatcher, state, scenario, options.updateGoldens);
    }
    catch (const CommandError& e)
    {
        outcome.why = e.code + ": " + e.message;
        return outcome;
    }
    outcome.passed = result["passed"].get<bool>();
    if (!outcome.passed)
    {
        const auto& f = result["failed"];
        outcome.why = "step " + std::to_string(f["index"].get<size_t>()) + " (" + f["do"].get<std::string>() +
                      "): " + f["why"].get<std::string>();
        return outcome;
    }
    // Every error a command answers carries a hint and a message (docs/surface.md "Bad input").
    for (const json& step : result["steps"])
        if (step.contains("error") &&
            (step["error"].value("hint", std::string()).empty() || step["error"].value("message", std::string()).empty()))
        {
            outcome.passed = false;
            outcome.why = "step " + std::to_string(step["index"].get<size_t>()) + " (" + step["do"].get<std::string>() +
                          "): the error " + step["error"].value("code", std::string()) + " has no hint or no message";
            break;
        }
    return outcome;
}

// Runs one test entry; with a recording path, records it there whether it passes or not
// (a failing run is the one to look at).
TestOutcome runOne(const TestRunOptions& options, const std::string& suite, const json& test, size_t index,
                   const std::filesystem::path& recordPath)
{
    if (recordPath.empty())
        return runTest(options, suite, test, index, nullptr);
    const std::unique_ptr<scene::RecordingWriter> recorder =
        makeRecordingWriter(suite + " :: " + (test.is_object() ? test.value("name", std::string()) : std::string()));
    TestOutcome outcome = runTest(options, suite, test, index, recorder.get());
    if (const Status st = writeRecordingFile(*recorder, recordPath); !st.ok())
    {
        outcome.passed = false;
        outcome.why = st.error().code + ": the recording " + recordPath.string() + ": " + st.error().message;
    }
    return outcome;
}

} // namespace

uint32_t testShard(const std::string& id, uint32_t count)
{
    return static_cast<uint32_t>(spark::hashBytes({reinterpret_cast<const uint8_t*>(id.data()), id.size()}) % count);
}

int runTests(const TestRunOptions& options, std::ostream& out, std::ostream& err)
{
    uint32_t shardIndex = 0, shardCount = 1;
    if (!options.shard.empty())
    {
        unsigned i = 0, n = 0;
        int used = 0;
        if (std::sscanf(options.shard.c_str(), "%u/%u%n", &i, &n, &used) != 2 ||
            used != static_cast<int>(options.shard.size()) || n == 0 || n > 1000 || i >= n)
        {
            err << "error: --shard takes I/N with 0 <= I < N <= 1000 (e.g. 0/4)\n";
            return 2;
        }
        shardIndex = i, shardCount = n;
    }
    // A test's id, and whether this shard runs it.
    auto selected = [&](const std::string& file, const std::string& name)
    { return testShard(file + " :: " + name, shardCount) == shardIndex; };
    size_t inOtherShards = 0;
    // A report that cannot be written is a usage error found before anything runs.
    std::filesystem::path junit;
    if (!options.junitPath.empty())
    {
        auto path = spark::resolveInProject(options.projectRoot, options.junitPath);
        if (!path.ok())
        {
            err << "error " << path.error().code << ": --junit " << options.junitPath << ": " << path.error().message
                << "\n";
            return 2;
        }
        junit = path.value();
        std::error_code ec;
        if (fs::is_symlink(fs::symlink_status(junit, ec)))
        {
            err << "error E_PATH: --junit " << options.junitPath
                << " is a symbolic link; the report is not written through links\n";
            return 2;
        }
    }
    // --record DIR: a folder inside the project, checked before anything runs.
    std::filesystem::path recordDir;
    if (!options.recordDir.empty())
    {
        auto path = spark::resolveInProject(options.projectRoot, options.recordDir);
        std::error_code ec;
        if (!path.ok() || (fs::exists(path.value(), ec) && !fs::is_directory(path.value(), ec)))
        {
            err << "error E_PATH: --record " << options.recordDir << ": "
                << (path.ok() ? "not a folder" : path.error().message) << "\n";
            return 2;
        }
        recordDir = path.value();
    }
    // Collect the files.
    std::vector<std::string> files;
    for (const auto& p : options.paths)
    {
        auto resolved = spark::resolveInProject(options.projectRoot, p);
        if (!resolved.ok())
        {
            err << "error " << resolved.error().code << ": " << resolved.error().message << "\n";
            return 2;
        }
        std::error_code ec;
        if (fs::is_directory(resolved.value(), ec))
        {
            std::vector<std::string> found;
            for (auto it = fs::recursive_directory_iterator(resolved.value(), ec); !ec && it != fs::recursive_directory_iterator();
                 it.increment(ec))
            {
                const std::string name = it->path().filename().string();
                if (it->is_regular_file() && name.size() > 10 && name.compare(name.size() - 10, 10, ".test.json") == 0)
                    found.push_back(fs::relative(it->path(), fs::weakly_canonical(options.projectRoot)).generic_string());
            }
            std::sort(found.begin(), found.end());
            files.insert(files.end(), found.begin(), found.end());
        }
        else if (fs::is_regular_file(resolved.value(), ec))
            files.push_back(fs::path(p).lexically_normal().generic_string()); // one id per file (--shard)
        else
        {
            err << "error E_IO: no such file or folder: " << p << "\n";
            return 2;
        }
    }
    if (files.empty())
    {
        err << "error E_IO: no .test.json files found\n";
        out << "0 passed, 0 failed (no tests found)\n";
        return 1;
    }

    std::vector<TestOutcome> outcomes;
    for (const auto& file : files)
    {
        json doc;
        std::string why;
        if (!loadJson(options.projectRoot, file, doc, why) || !doc.is_object() || !doc.contains("tests") ||
            !doc["tests"].is_array() || (doc.contains("version") && doc["version"] != 1))
        {
            if (!selected(file, file) && ++inOtherShards)
                continue;
            if (options.list)
            {
                out << file << " :: " << file << "\n";
                continue;
            }
            TestOutcome bad{file, file, false, why.empty() ? "E_FORMAT: a test file is {version: 1, name, tests: [...]}" : why};
            out << "FAIL " << bad.name << " — " << bad.why << "\n";
            outcomes.push_back(bad);
            continue;
        }
        const std::string suite = doc.value("name", file);
        for (size_t i = 0; i < doc["tests"].size(); ++i)
        {
            const json& t = doc["tests"][i];
            const std::string name = t.is_object() && t.contains("name") && t["name"].is_string()
                                         ? t["name"].get<std::string>()
                                         : "test " + std::to_string(i);
            if (!selected(file, name) && ++inOtherShards)
                continue;
            if (options.list)
            {
                out << file << " :: " << name << "\n";
                continue;
            }
            std::filesystem::path recordPath;
            if (!recordDir.empty())
            {
                // <file stem>-<test number>.rec.gz: "samples/navigation/guard.test.json" test 1 -> guard-1.rec.gz
                std::string stem = fs::path(file).filename().string();
                stem = stem.substr(0, stem.size() - std::min<size_t>(stem.size(), 10));
                recordPath = recordDir / (stem + "-" + std::to_string(i + 1) + ".rec.gz");
            }
            TestOutcome o = runOne(options, suite, t, i, recordPath);
            out << (o.passed ? "PASS " : "FAIL ") << suite << " :: " << o.name;
            if (!o.passed)
                out << " — " << o.why;
            out << "\n";
            out.flush();
            outcomes.push_back(std::move(o));
        }
    }
    const size_t passed = static_cast<size_t>(std::count_if(outcomes.begin(), outcomes.end(), [](const TestOutcome& o) { return o.passed; }));
    const size_t failed = outcomes.size() - passed;

    bool reportWritten = true;
    if (!junit.empty() && !options.list)
    {
        // Resolved again: the file may have become a link out of the project meanwhile.
        auto path = spark::resolveInProject(options.projectRoot, options.junitPath);
        Status written = path.ok() ? spark::writeTextFile(path.value(), junitReport(outcomes, failed))
                                   : Status(path.error());
        if (!written.ok())
        {
            err << "error " << written.error().code << ": cannot write the JUnit report " << options.junitPath << ": "
                << written.error().message << "\n";
            reportWritten = false;
        }
    }
    if (options.list)
        return 0;
    if (outcomes.empty() && inOtherShards > 0)
    {
        out << "0 passed, 0 failed (shard " << options.shard << " holds none of the " << inOtherShards << " tests)\n";
        return reportWritten ? 0 : 2;
    }
    if (outcomes.empty())
    {
        err << "error: the test files hold no tests\n";
        out << "0 passed, 0 failed (no tests found)\n";
        return 1;
    }
    out << passed << " passed, " << failed << " failed\n";
    if (!reportWritten)
        return 2;
    return failed == 0 ? 0 : 1;
}

} // namespace spark::cli
