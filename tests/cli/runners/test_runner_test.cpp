#include "runners/test_runner.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace spark::cli;

TEST_CASE("runTests prints a line per test and the summary last; failures name the step")
{
    TestRunOptions options;
    options.projectRoot = SPARK_SOURCE_DIR;
    options.paths = {"tests/cli/data/passing", "tests/cli/data/failing/deliberate.test.json"};
    std::ostringstream out, err;
    const int code = runTests(options, out, err);
    CHECK(code == 1);
    const std::string text = out.str();
    CHECK(text.find("PASS system commands :: version and schema\n") != std::string::npos);
    CHECK(text.find("FAIL deliberate failures :: an unexpected error — step 0 (system.schema): unexpected error E_UNKNOWN_COMMAND") !=
          std::string::npos);
    CHECK(text.ends_with("2 passed, 3 failed\n"));
}

TEST_CASE("runTests writes a JUnit report and refuses paths outside the project")
{
    const auto dir = std::filesystem::temp_directory_path() / "spark_test_runner";
    std::filesystem::create_directories(dir / "t");
    {
        std::ofstream f(dir / "t" / "a.test.json");
        f << R"({"version": 1, "name": "mini", "tests": [{"name": "v", "steps": [{"do": "system.version"}]}]})";
    }
    TestRunOptions options;
    options.projectRoot = dir;
    options.paths = {"t"};
    options.junitPath = "report.xml";
    std::ostringstream out, err;
    CHECK(runTests(options, out, err) == 0);
    CHECK(out.str() == "PASS mini :: v\n1 passed, 0 failed\n");
    std::ifstream report(dir / "report.xml");
    std::stringstream xml;
    xml << report.rdbuf();
    CHECK(xml.str().find("<testcase classname=\"mini\" name=\"v\"/>") != std::string::npos);
    options.paths = {"../outside"};
    CHECK(runTests(options, out, err) == 2);
    CHECK(err.str().find("E_PATH") != std::string::npos);
}

namespace
{

/// The attribute `name` of the first `<element ...>` at or after `from` in `xml`, or "(missing)".
std::string attributeOf(const std::string& xml, const std::string& element, const std::string& name, size_t from = 0)
{
    const size_t open = xml.find("<" + element + " ", from);
    if (open == std::string::npos)
        return "(no element)";
    const size_t close = xml.find('>', open);
    const std::string tag = xml.substr(open, close - open);
    const size_t at = tag.find(" " + name + "=\"");
    if (at == std::string::npos)
        return "(missing)";
    const size_t start = at + name.size() + 3;
    return tag.substr(start, tag.find('"', start) - start);
}

} // namespace

TEST_CASE("the JUnit report has what Jenkins' junit-10 schema requires, and a refused report is a non-zero exit")
{
    namespace fs = std::filesystem;
    const auto dir = fs::temp_directory_path() / "spark_test_runner_junit";
    fs::remove_all(dir);
    fs::create_directories(dir / "t");
    {
        std::ofstream f(dir / "t" / "a.test.json");
        f << "{\"version\": 1, \"name\": \"mini <&>\", \"tests\": ["
             "{\"name\": \"ok\", \"steps\": [{\"do\": \"system.version\"}]},"
             "{\"name\": \"bad \\u0001 \\\"quoted\\\"\", \"steps\": [{\"do\": \"system.version\", \"expect\": {\"version\": \"0\"}}]},"
             "{\"name\": \"neither\"}]}";
    }
    TestRunOptions options;
    options.projectRoot = dir;
    options.paths = {"t"};
    options.junitPath = "report.xml";
    std::ostringstream out, err;
    CHECK(runTests(options, out, err) == 1);
    std::ifstream report(dir / "report.xml");
    std::stringstream text;
    text << report.rdbuf();
    const std::string xml = text.str();
    // testsuite: name, tests, failures and errors are required (junit-10.xsd); testsuites has the counts too.
    CHECK(attributeOf(xml, "testsuites", "tests") == "3");
    CHECK(attributeOf(xml, "testsuites", "errors") == "0");
    CHECK(attributeOf(xml, "testsuite", "name") == "spark");
    CHECK(attributeOf(xml, "testsuite", "tests") == "3");
    CHECK(attributeOf(xml, "testsuite", "failures") == "2");
    CHECK(attributeOf(xml, "testsuite", "errors") == "0");
    CHECK(attributeOf(xml, "testcase", "classname") == "mini &lt;&amp;&gt;");
    // A failure: message and type, its text the reason; no raw control character anywhere (XML 1.0 forbids them).
    const size_t second = xml.find("<testcase", xml.find("<testcase") + 1);
    CHECK(attributeOf(xml, "testcase", "name", second) == "bad \\x01 &quot;quoted&quot;");
    CHECK(attributeOf(xml, "failure", "type", second) == "E_ASSERT_FAILED");
    CHECK(attributeOf(xml, "failure", "message", second).find("result mismatch") != std::string::npos);
    const size_t third = xml.find("<testcase", second + 1);
    CHECK(attributeOf(xml, "failure", "type", third) == "E_FORMAT");
    CHECK(xml.find("</failure>", third) != std::string::npos);
    for (char c : xml)
        CHECK((static_cast<unsigned char>(c) >= 0x20 || c == '\n'));

    // A report path that is a link out of the project: refused before anything runs, exit 2, nothing written.
    const fs::path outside = fs::temp_directory_path() / "spark_test_runner_outside.xml";
    fs::remove(outside);
    fs::create_symlink(outside, dir / "d.xml");
    options.junitPath = "d.xml";
    std::ostringstream out2, err2;
    CHECK(runTests(options, out2, err2) == 2);
    CHECK(err2.str().find("E_PATH") != std::string::npos);
    CHECK(out2.str().empty());
    CHECK_FALSE(fs::exists(outside));
    options.junitPath = "../report.xml";
    CHECK(runTests(options, out2, err2) == 2);
    fs::remove_all(dir);
}
