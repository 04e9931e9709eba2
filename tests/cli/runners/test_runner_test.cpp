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
